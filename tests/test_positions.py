"""Positions as data (docs/positions.md): the round trip over the states of conformance games.

At every state of random games of both games (every ruleset of the conformance suite, and
Twilight Struggle played to the Late War by the DEFCON-safe policy), the position written as JSON
text and loaded again asks the same decision (role, step, prompt, option keys), shows every role
the same view (but the history: a position is a state, not the match that led to it) and writes
the same position, as it does from its text form (notation); continued with the record's next choices (chance included) it stays
identical after each of them, and at a sample of states all the way to the same outcome.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import standoff.server
from kits.conformance import SAFE, deep_match, random_match
from standoff.server.games import get_game
from standoff.server.positions import PositionError, from_position, to_position, write_notation

# (game, ruleset, options, games): the conformance suite's cases, fewer games each
CASES = [
    ("schotten-totten", "battle_line", {}, 12),
    ("schotten-totten", "battle_line", {"claim_timing": "start_of_turn"}, 4),
    ("schotten-totten", "battle_line", {"claim_timing": "end_of_turn"}, 4),
    ("schotten-totten", "battle_line", {"tactics": "off"}, 3),
    ("schotten-totten", "battle_line", {"stalemate": "flags"}, 3),
    ("schotten-totten", "classic", {}, 4),
    ("schotten-totten", "three_player", {}, 4),
    ("twilight-struggle", "deluxe", {"end_turn": "7"}, 12),
    ("twilight-struggle", "deluxe", {}, 8),
    ("twilight-struggle", "deluxe", {"end_turn": "3", "chinese_civil_war": "on", "bid": "us:2"}, 6),
]
IDS = [f"{g}-{r}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, r, o, _ in CASES]
#: choices followed after loading at every state; every FULL-th state is followed to the end
AHEAD, FULL = 3, 60


def observed(game, state) -> str:
    """What the decision and the views show, but the history (a position starts none)."""
    decision = game.decision(state)
    views = {}
    for role in state.rules.roles:
        view = game.view(state, role)
        view.pop("history")
        view.pop("history_from")
        views[role] = view
    pending = None if decision is None else [decision.role, decision.step, decision.prompt,
                                             [o.key for o in decision.options]]
    return json.dumps([views, pending, game.outcome(state)], sort_keys=True)


class RoundTrip:
    """The ``check`` of a conformance match: keeps the position and what is observed at each
    state; :meth:`verify` then loads each position and follows the record from it."""

    def __init__(self, game) -> None:
        self.game = game
        self.positions: list[str] = []
        self.seen: list[str] = []
        self.states = 0

    def __call__(self, state, decision, n) -> None:
        if decision is None:
            return
        assert n == len(self.positions)
        position = to_position(state)
        text = json.dumps(position)
        self.positions.append(text)
        self.seen.append(observed(self.game, state))
        loaded = from_position(self.game.name, json.loads(text))
        assert observed(self.game, loaded) == self.seen[-1], f"decision {n}: the loaded state differs"
        assert json.dumps(to_position(loaded)) == text, f"decision {n}: the position is not written back the same"
        notation = write_notation(position)  # the one-line (ST) or compact (TS) text form
        assert to_position(from_position(self.game.name, notation)) == position, f"decision {n}: {notation}"

    def verify(self, record, final) -> None:
        keys = [line["key"] for line in record.moves]
        end = observed(self.game, final)
        for n, text in enumerate(self.positions):
            state = from_position(self.game.name, text)  # the JSON text itself
            last = len(keys) if n % FULL == 0 else min(len(keys), n + AHEAD)
            for m in range(n, last):
                decision = self.game.decision(state)
                self.game.apply(state, decision.options[decision.index_of(keys[m])])
                if m + 1 < len(self.seen):
                    assert observed(self.game, state) == self.seen[m + 1], (
                        f"loaded at decision {n}, differs after decision {m + 1}")
            if last == len(keys):
                assert observed(self.game, state) == end, f"loaded at decision {n}: another end"
            self.states += 1


@pytest.mark.parametrize(("game_name", "ruleset", "options", "count"), CASES, ids=IDS)
def test_round_trip_at_every_state_of_random_games(game_name, ruleset, options, count):
    game = get_game(game_name)
    rules = game.rules(ruleset, options)
    for seed in range(count):
        check = RoundTrip(game)
        record, state = random_match(game, rules, seed, check=check)
        check.verify(record, state)
        assert check.states == len(record.moves)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_round_trip_at_every_state_of_twilight_struggle_to_the_late_war(seed):
    """The DEFCON-safe policy's games reach the Late War: every kind of event frame."""
    game = get_game("twilight-struggle")
    check = RoundTrip(game)
    record, state = deep_match(game, game.rules(), seed, {"ussr": SAFE, "us": SAFE}, check=check)
    check.verify(record, state)
    assert state.turn >= 4


def test_positions_name_no_engine_index():
    """Written positions use public words: every country, card and role named, flags 1-9."""
    game = get_game("twilight-struggle")
    record, state = random_match(game, game.rules(), 3)
    position = to_position(game.new_state(game.rules()))
    assert position["stack"] == [{"step": "setup"}]
    st = get_game("schotten-totten")
    _, final = random_match(st, st.rules(), 1)
    flags = to_position(final)["flags"]
    assert [f["flag"] for f in flags] == list(range(1, 10))
    assert all(isinstance(card, str) for f in flags for side in f["sides"].values() for card in side)


def test_a_position_of_another_game_is_refused():
    st = get_game("schotten-totten")
    position = to_position(st.new_state(st.rules()))
    with pytest.raises(PositionError, match="game: the position is of 'schotten-totten'"):
        from_position("twilight-struggle", position)


# -- bad positions: one line naming the field -----------------------------------------------------

TS_BASE = {"game": "twilight-struggle", "turn": 2, "phasing": "ussr",
           "hands": {"ussr": ["fidel", "nasser"], "us": ["nato"]}}
ST_BASE = {"game": "schotten-totten", "to_move": "p1", "hands": {"p1": ["red-5", "fog"], "p2": ["blue-1"]}}


def _with(base, **changes):
    data = json.loads(json.dumps(base))
    data.update(changes)
    return data


@pytest.mark.parametrize(("game", "data", "message"), [
    ("twilight-struggle", _with(TS_BASE, hands={"ussr": ["fidel", "nato2"]}),
     r"^hands\.ussr\[1\]: unknown card 'nato2'"),
    ("twilight-struggle", _with(TS_BASE, discard=["fidel"]),
     r"^discard\[0\]: card fidel is in two places \(also at hands\.ussr\[0\]\)$"),
    ("twilight-struggle", _with(TS_BASE, influence={"atlantis": {"us": 2}}),
     r"^influence\.atlantis: unknown country 'atlantis'"),
    ("twilight-struggle", _with(TS_BASE, influence={"iran": {"us": -1}}),
     r"^influence\.iran\.us: influence cannot be negative"),
    ("twilight-struggle", _with(TS_BASE, deck=["marshall_plan"]),
     r"^deck: card counts off: \d+ card\(s\) in play are nowhere: "),
    ("twilight-struggle", _with(TS_BASE, hands={"us": ["glasnost"]}),
     r"^hands\.us\[0\]: glasnost is not in play at this turn"),
    ("twilight-struggle", _with(TS_BASE, hands={"us": ["the_china_card"]}),
     r"^hands\.us\[0\]: the_china_card is never in a hand"),
    ("twilight-struggle", _with(TS_BASE, effects=[{"card": 31}]),
     r"^effects\[0\]: no such effect of card #31"),
    ("twilight-struggle", _with(TS_BASE, effects=[{"card": 5}]),
     r"^effects\[0\]: card five_year_plan \(#5\) has no lasting effect"),
    ("twilight-struggle", _with(TS_BASE, defcon=0), r"^defcon: 0 is out of range"),
    ("twilight-struggle", _with(TS_BASE, phasing="nato"), r"^phasing: unknown side 'nato'"),
    ("twilight-struggle", _with(TS_BASE, stack=[{"step": "coup", "side": "us"}]),
     r"^stack\[0\]\.ops: missing"),
    ("twilight-struggle", _with(TS_BASE, stack=[{"step": "teleport"}]), r"^stack\[0\]\.step: unknown step"),
    ("twilight-struggle", _with(TS_BASE, options={"end_turn": "12"}), r"^options: option end_turn"),
    ("schotten-totten", _with(ST_BASE, flags=[{"flag": 1, "sides": {"p1": ["red-5"]}}]),
     r"^hands\.p1\[0\]: card red-5 is in two places \(also at flags\[0\]\.sides\.p1\[0\]\)$"),
    ("schotten-totten", _with(ST_BASE, flags=[{"flag": 10}]), r"^flags\[0\]\.flag: flags are numbered 1 to 9"),
    ("schotten-totten", _with(ST_BASE, flags=[{"flag": 2, "sides": {"p3": []}}]), r"^flags\[0\]\.sides\.p3: unknown role"),
    ("schotten-totten", _with(ST_BASE, flags=[{"flag": 2, "sides": {"p1": ["red-1", "red-2", "red-3", "red-4"]}}]),
     r"^flags\[0\]\.sides\.p1: 4 cards: a side holds at most 3 \(4 with Mud\)"),
    ("schotten-totten", _with(ST_BASE, hands={"p1": ["red-11"]}), r"^hands\.p1\[0\]: unknown card 'red-11'"),
    ("schotten-totten", _with(ST_BASE, ruleset="classic", hands={"p1": ["red-10"]}),
     r"^hands\.p1\[0\]: red-10 is not in the classic deck"),
    ("schotten-totten", _with(ST_BASE, decks={"troops": [], "tactics": []}),
     r"^decks: card counts off: \d+ card\(s\) are nowhere: "),
    ("schotten-totten", _with(ST_BASE, deck_tops={"troops": [{"card": "scout", "known_by": "p1"}]}),
     r"^deck_tops\.troops\[0\]\.card: scout does not belong in the troops deck"),
    ("schotten-totten", _with(ST_BASE, stack=[{"step": "mud_discard", "flag": 0, "role": "p1"}]),
     r"^stack\[0\]\.flag: flags are numbered 1 to 9"),
])
def test_bad_positions_name_the_field(game, data, message):
    with pytest.raises(PositionError, match=message) as caught:
        from_position(game, data)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_bad_text_is_one_line():
    with pytest.raises(PositionError, match=r"^not valid JSON \(line 1 column 2"):
        from_position("twilight-struggle", "{nope")


# -- the JSON Schema ------------------------------------------------------------------------------


def test_the_shipped_schema_is_the_generated_one():
    from standoff.server.positions import position_schema
    from standoff.sdk.positions import position_schema as shipped

    assert shipped() == json.loads(json.dumps(position_schema())), "run python scripts/position_schema.py"


def test_written_positions_satisfy_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from standoff.sdk.positions import position_schema

    validator = jsonschema.Draft202012Validator(position_schema())
    for name, options in (("schotten-totten", {}), ("schotten-totten", {"stalemate": "flags"}),
                          ("twilight-struggle", {"end_turn": "7"})):
        game = get_game(name)
        checked = []

        def check(state, decision, n):
            if n % 7 == 0:
                errors = sorted(validator.iter_errors(to_position(state)), key=str)
                assert not errors, f"{name} decision {n}: {errors[0].message[:200]}"
                checked.append(n)

        for seed in range(3):
            random_match(game, game.rules(None, options), seed, check=check)
        assert checked


# -- the text forms ---------------------------------------------------------------------------------

ST_LINE = "battle_line r8.3r9.5r10.7:b1.4/:/:/:/:/:/:/:/:#c2 r2r3AL|g4g5 *|* | p1 4 8 0 end_turn,draw,claim,play"


def test_the_schotten_totten_line_sets_up_a_position():
    game = get_game("schotten-totten")
    state = from_position(game, ST_LINE)
    position = to_position(state)
    assert position["flags"][0]["sides"] == {"p1": ["red-8", "red-9", "red-10"], "p2": ["blue-1"]}
    assert position["flags"][8]["claimed_by"] == "p2"
    assert position["hands"] == {"p1": ["red-2", "red-3", "alexander"], "p2": ["green-4", "green-5"]}
    assert len(position["decks"]["troops"]) == 60 - 3 - 1 - 4 and len(position["decks"]["tactics"]) == 9
    decision = game.decision(state)
    assert (decision.role, decision.step) == ("p1", "play")
    assert write_notation(position) == ST_LINE


@pytest.mark.parametrize(("text", "message"), [
    ("battle_line r5 p1", r"^notation: 3 fields, expected 10 or 11"),
    (ST_LINE.replace("r2r3AL", "r2x3AL"), r"^notation\.hands\.p1: cannot read a card at 'x3AL'"),
    (ST_LINE.replace("#c2", "#z2"), r"^notation\.flags\[9\]: unknown mark 'z2'"),
    (ST_LINE.replace("*|*", "40|*"), r"^notation\.decks\.troops: count 40 but 52 cards are left"),
    (ST_LINE.replace(",play", ",mud_discard=3"), r"^notation\.stack\[3\]: step mud_discard takes 2 argument"),
    (ST_LINE.replace("battle_line", "battle_line[tactics=maybe]"), r"^notation\.ruleset: option tactics"),
])
def test_bad_schotten_totten_lines_name_the_field(text, message):
    with pytest.raises(PositionError, match=message):
        from_position("schotten-totten", text)


def test_the_twilight_struggle_compact_form_sets_up_a_position():
    text = """twilight-struggle deluxe
    turn: 5  action_round: 2  phasing: us   # the US to play its second round
    vp: 3  defcon: 2  military_ops: 1/0
    china_card: ussr face_down
    influence: iran 2/0  iraq 1/1  west_germany 0/4
    hand ussr: fidel nasser
    hand us: nato
    effects: 31 played_by=ussr  94 region=Europe
    """
    state = from_position("twilight-struggle", text)
    position = to_position(state)
    assert position["influence"] == {"west_germany": {"ussr": 0, "us": 4}, "iraq": {"ussr": 1, "us": 1},
                                     "iran": {"ussr": 2, "us": 0}}
    assert sorted(state.effects) == ["chernobyl:Europe:turn", "red_scare:us:turn"]
    assert (state.defcon, state.vp, state.china_face_up) == (2, 3, False)
    decision = get_game("twilight-struggle").decision(state)
    assert (decision.role, decision.step, [o.key for o in decision.options]) == ("us", "action_round", ["card:nato"])


@pytest.mark.parametrize(("text", "message"), [
    ("turn: 3", r"^notation: a Twilight Struggle position's first line is 'twilight-struggle"),
    ("twilight-struggle\nturn 3", r"^notation line 2: expected 'key: value'"),
    ("twilight-struggle\ninfluence: iran 2/0 iraq", r"^notation line 2: influence is written as pairs"),
    ("twilight-struggle\ninfluence: iran 2-0", r"^notation line 2 \(iran\): expected ussr/us numbers"),
    ("twilight-struggle\nhand us: nato nato", r"^hands\.us\[1\]: card nato is in two places"),
    ("twilight-struggle\nspeed: 3", r"^notation line 2: unknown key 'speed'"),
])
def test_bad_twilight_struggle_text_names_the_line_or_field(text, message):
    with pytest.raises(PositionError, match=message):
        from_position("twilight-struggle", text)


# -- start anywhere: play, record, replay --------------------------------------------------------------


def _played_position(tmp_path, game, bots, seed, at):
    """A position from decision ``at`` of a played match, written as a file."""
    from standoff.tournaments.cli import main

    record = tmp_path / "first.jsonl"
    assert main(["play", game, "--bot", bots[0], "--bot", bots[1], "--seed", str(seed),
                 "--record", str(record)]) == 0
    return record


def test_play_from_a_position_and_replay_its_record_exactly(tmp_path, capsys):
    from standoff.tournaments.cli import main
    from standoff.server.core.record import replay
    from standoff.server.records import read_record

    first = _played_position(tmp_path, "schotten-totten", ("greedy", "random"), 3, 30)
    capsys.readouterr()
    assert main(["replay", str(first), "--position", "30"]) == 0
    text = capsys.readouterr().out
    start = tmp_path / "start.json"
    start.write_text(text)
    game = get_game("schotten-totten")
    record = tmp_path / "from.jsonl"
    assert main(["play", "schotten-totten", "--bot", "greedy", "--bot", "random", "--seed", "5",
                 "--position", str(start), "--record", str(record)]) == 0
    assert "from the position in" in capsys.readouterr().out
    played = read_record(record)
    assert played.header["position"] == json.loads(text)  # the record starts from the position
    final = replay(game, played)  # and replays exactly (the outcome line is checked)
    assert game.outcome(final).winner == played.footer["winner"]
    assert main(["replay", str(record), "--position", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(text)
    assert main(["replay", str(record), "--quiet"]) == 0


def test_play_twilight_struggle_from_its_compact_form(tmp_path, capsys):
    from standoff.tournaments.cli import main
    from standoff.server.core.record import replay
    from standoff.server.records import read_record

    start = tmp_path / "start.txt"
    start.write_text("twilight-struggle deluxe end_turn=4\n"
                     "turn: 4  action_round: 6  phasing: ussr\n"
                     "influence: iran 2/0  west_germany 0/4  japan 0/4  north_korea 3/0\n")
    record = tmp_path / "ts.jsonl"
    assert main(["play", "twilight-struggle", "--bot", "ts-heuristic", "--bot", "random", "--seed", "1",
                 "--position", str(start), "--record", str(record)]) == 0
    played = read_record(record)
    game = get_game("twilight-struggle")
    assert game.outcome(replay(game, played)).termination == played.footer["termination"]
    capsys.readouterr()
    assert main(["replay", str(record), "--position", "1", "--notation"]) == 0
    assert capsys.readouterr().out.startswith("twilight-struggle deluxe end_turn=4\nturn: 4  action_round: 6")


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "schotten-totten", "--bot", "random", "--bot", "random", "--position", "nowhere.json"],
     "no position file 'nowhere.json'"),
    (["play", "schotten-totten", "--bot", "random", "--bot", "random", "--position", "BAD",
      "--ruleset", "classic"], "--position carries its own ruleset and options"),
    (["play", "twilight-struggle", "--bot", "random", "--bot", "random", "--position", "BAD"],
     "BAD: hands.us[0]: unknown card 'nato2'"),
])
def test_bad_start_positions_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv, message):
    from standoff.tournaments.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "BAD").write_text('{"game": "twilight-struggle", "hands": {"us": ["nato2"]}}')
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_replay_position_out_of_range_is_one_line(tmp_path, capsys):
    from standoff.tournaments.cli import main

    first = _played_position(tmp_path, "schotten-totten", ("random", "random"), 2, 1)
    capsys.readouterr()
    assert main(["replay", str(first), "--position", "100000"]) == 2
    err = capsys.readouterr().err
    assert "--position 100000: decisions are numbered 1 to" in err and err.count("\n") == 1


# -- tournaments: start positions, each played with the seats swapped ------------------------------


def test_a_tournament_plays_each_position_with_the_seats_swapped(tmp_path):
    from standoff.server.core.record import replay
    from standoff.server.records import read_record
    from standoff.tournaments.config import load_config
    from standoff.tournaments.runner import run_tournament
    from standoff.tournaments.schedule import schedule

    positions = pathlib.Path(__file__).parent / "positions" / "st"
    config_path = tmp_path / "openings.toml"
    config_path.write_text(f"""
name = "openings"
game = "schotten-totten"
entrants = ["greedy", "random"]
games_per_pairing = 4
positions = ["{positions / 'claim_tie_p1_completed_first.txt'}", "{positions / 'count_rule.txt'}"]
master_seed = 7
output_dir = "{tmp_path / 'runs'}"
concurrency = 1
workers = 1
""")
    config = load_config(config_path)
    matches = schedule(config)
    assert [m.position for m in matches] == [0, 0, 1, 1]
    assert matches[0].seats == matches[1].seats[::-1] and matches[2].seats == matches[3].seats[::-1]
    assert matches[0].seed == matches[1].seed != matches[2].seed
    run_tournament(config)
    game = get_game("schotten-totten")
    for match in matches:
        record = read_record(tmp_path / "runs" / "openings" / "records" / f"{match.match_id}.jsonl")
        assert record.header["position"] == config.positions[match.position]
        assert game.outcome(replay(game, record)).termination == record.footer["termination"]


@pytest.mark.parametrize(("extra", "message"), [
    ('positions = ["nowhere.json"]', "positions[0]: no position file 'nowhere.json'"),
    ('positions = ["battle_line r5 p1"]', "positions[0]: notation: 3 fields"),
    ('positions = []', "positions: expected a non-empty array"),
    ('paired_seeds = false\npositions = ["POS"]', "paired_seeds must be true"),
    ('positions = ["POS", "POS", "POS"]', "games_per_pairing: must be a multiple of 6"),
    ('ruleset = "classic"\npositions = ["POS"]', "positions[0]: the position's ruleset and options differ"),
])
def test_bad_tournament_positions_are_one_line(tmp_path, extra, message):
    from standoff.tournaments.config import load_config

    position = pathlib.Path(__file__).parent / "positions" / "st" / "count_rule.txt"
    extra = extra.replace("POS", str(position))
    config_path = tmp_path / "bad.toml"
    config_path.write_text(f'name = "bad"\ngame = "schotten-totten"\nentrants = ["greedy", "random"]\n'
                           f'games_per_pairing = 4\n{extra}\n')
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        load_config(config_path)
    assert "\n" not in str(caught.value)


def test_play_until_the_end_of_the_action_round_or_turn(tmp_path, capsys):
    """`standoff play --until`: the match stops (no result) at the first decision of the next
    action round or turn; the record replays and gives that position."""
    from standoff.tournaments.cli import main
    from standoff.server.core.record import replay
    from standoff.server.records import read_record

    here = pathlib.Path(__file__).parent / "positions"
    record = tmp_path / "ar.jsonl"
    assert main(["play", "twilight-struggle", "--bot", "ts-heuristic", "--bot", "ts-heuristic", "--seed", "2",
                 "--position", str(here / "ts" / "red_scare_purge.txt"), "--until", "action_round",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "stopped after the action round (no result)" in out
    played = read_record(record)
    assert played.footer["termination"] == "stopped" and played.footer["winner"] is None
    game = get_game("twilight-struggle")
    final = replay(game, played)
    # the position's US round 1 of turn 3 is over: stopped at the USSR's round 2
    assert (final.turn, final.ar, final.phasing) == (3, 2, 0)
    assert main(["play", "schotten-totten", "--bot", "greedy", "--bot", "random", "--seed", "2",
                 "--position", str(here / "st" / "count_rule.txt"), "--until", "turn",
                 "--record", str(tmp_path / "t.jsonl")]) == 0
    st_final = replay(get_game("schotten-totten"), read_record(tmp_path / "t.jsonl"))
    assert st_final.turn == 7 and st_final.current == 1  # p1's turn 6 is over: p2's turn 7
    capsys.readouterr()
    assert main(["play", "schotten-totten", "--bot", "greedy", "--bot", "random", "--until", "action_round"]) == 2
    err = capsys.readouterr().err
    assert "--until: Schotten Totten has turns only (until turn)" in err and err.count("\n") == 1


# -- the rarer steps: events that random games seldom reach, played from positions ------------------

EVENTS = [
    # (side to play, card, turn, its hand, the other hand, influence): every state round-tripped
    ("ussr", "terrorism", 8, ["terrorism"], ["nato", "marshall_plan", "duck_and_cover"], {}),
    ("us", "east_european_unrest", 8, ["east_european_unrest"], ["fidel"],
     {"poland": {"ussr": 3}, "hungary": {"ussr": 2}, "romania": {"ussr": 2}, "bulgaria": {"ussr": 1}}),
    ("ussr", "missile_envy", 5, ["missile_envy"], ["marshall_plan", "nato"], {}),
    ("ussr", "latin_american_debt_crisis", 8, ["latin_american_debt_crisis"], ["nato"],
     {"brazil": {"ussr": 2}, "chile": {"ussr": 1}, "peru": {"ussr": 1}}),
    ("ussr", "che", 5, ["che"], ["nato"], {"nicaragua": {"us": 1}, "angola": {"us": 1}}),
    ("us", "our_man_in_tehran", 5, ["our_man_in_tehran"], ["fidel"], {"iran": {"us": 2}, "saudi_arabia": {"us": 3}}),
    ("us", "ask_not_what_your_country_can_do_for_you", 5, ["ask_not_what_your_country_can_do_for_you", "nato",
                                                           "fidel"], ["nasser"], {}),
    ("us", "grain_sales_to_soviets", 5, ["grain_sales_to_soviets"], ["nasser", "fidel"], {}),
    ("ussr", "olympic_games", 2, ["olympic_games"], ["nato"], {}),
    ("ussr", "summit", 5, ["summit"], ["nato"], {}),
    ("ussr", "un_intervention", 2, ["un_intervention", "nato"], ["fidel"], {}),
    ("ussr", "muslim_revolution", 5, ["muslim_revolution"], ["nato"], {"iran": {"us": 2}, "egypt": {"us": 1}}),
    ("ussr", "warsaw_pact_formed", 2, ["warsaw_pact_formed"], ["nato"], {"poland": {"us": 2}, "hungary": {"us": 1}}),
]


def _round_trip_through(side, card, turn, hand, other, influence) -> set[str]:
    """Play ``card``'s event from a position, four seeds, round-tripping the position through its
    file form before every decision; returns the steps (stack frames) it went through."""
    import random

    game = get_game("twilight-struggle")
    them = "us" if side == "ussr" else "ussr"
    start = {"game": "twilight-struggle", "turn": turn, "phasing": side, "defcon": 4,
             "hands": {side: hand, them: other}, "influence": influence}
    seen: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        state = from_position(game, start)
        decision = game.decision(state)
        choices = [f"card:{card}", "use:event"]
        steps = 0
        while decision is not None and steps < 40:
            keys_now = [o.key for o in decision.options]
            pick = choices.pop(0) if choices and choices[0] in keys_now else rng.choice(keys_now)
            text = json.dumps(to_position(state))
            loaded = from_position(game, text)
            assert observed(game, loaded) == observed(game, state), f"{card}: differs at {decision.step}"
            game.apply(state, decision.options[decision.index_of(pick)])
            game.apply(loaded, game.decision(loaded).options[game.decision(loaded).index_of(pick)])
            assert observed(game, loaded) == observed(game, state)
            decision = game.decision(state)
            steps += 1
            seen.update(frame[0] for frame in state.stack)
    return seen


@pytest.mark.parametrize(("side", "card", "turn", "hand", "other", "influence"), EVENTS, ids=[e[1] for e in EVENTS])
def test_round_trip_through_rare_events(side, card, turn, hand, other, influence):
    assert _round_trip_through(side, card, turn, hand, other, influence)


def test_the_rare_events_reach_their_steps():
    """The rare events above go through their own frames, so those were round-tripped. (Played
    again here rather than collected from the tests above: with ``pytest -n`` those may run in
    another process.)"""
    expected = {"terrorism_discard", "ev_remove_each", "che_coup", "tehran_draw", "tehran_discard",
                "ask_not_discard", "olympic_roll", "summit_roll", "ev_choice", "event_country"}
    seen = set().union(*(_round_trip_through(*event) for event in EVENTS))
    assert expected <= seen, sorted(expected - seen)
