"""`standoff replay` reviews (standoff.server.review): per-seat and omniscient replays, text
boards, interactive stepping, and the hidden-information property of per-seat output."""

from __future__ import annotations

import argparse
import io
import re

import pytest

from standoff.server.core.record import Record, ReplayError, replay_steps
from standoff.server.games import get_game
from standoff.server.games.schotten_totten.cards import card_name
from standoff.server.local import bot_seed, play_match
from standoff.server.plugins import load_registry
from standoff.server.records import write_record
from standoff.server.review import (
    HISTORY_CAP,
    decision_line,
    interactive,
    register_renderer,
    render_state,
    render_view,
    replay_lines,
    review,
    run_replay,
    screen,
)
from standoff.server import review as review_module

GAME = get_game("schotten-totten")
ROLES = ("p1", "p2")

# (ruleset, options, bots, seed): rulesets, claim timings, tactics on/off, both bots in both seats
MATCHES = [
    (None, {}, ("greedy", "random"), 1),
    (None, {}, ("random", "greedy"), 2),
    (None, {}, ("random", "random"), 3),
    (None, {}, ("random", "random"), 11),
    (None, {"claim_timing": "start_of_turn"}, ("greedy", "greedy"), 4),
    (None, {"tactics": "off", "claim_timing": "end_of_turn"}, ("random", "greedy"), 5),
    ("classic", {}, ("greedy", "random"), 6),
    ("classic", {"stalemate": "flags"}, ("random", "random"), 7),
]


def make_record(ruleset, options, bots, seed) -> Record:
    registry = load_registry(entry_points=False)
    rules = GAME.rules(ruleset, options)
    players = {role: registry.make_bot(name, bot_seed(seed, role), GAME.name) for role, name in zip(ROLES, bots)}
    return play_match(GAME, rules, players, seed, bot_names=dict(zip(ROLES, bots)), match_id=f"m{seed}").record


@pytest.fixture(scope="module")
def records() -> list[Record]:
    return [make_record(*spec) for spec in MATCHES]


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names card ``name`` (``red-1`` never matches inside ``red-10``)."""
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None


def hidden_from(record: Record, seat: str) -> list[set[str]]:
    """``result[n]``: the cards hidden from ``seat`` after decision ``n`` (0: before the first):
    the other hands, minus the cards ``seat`` knows are there (Scout) and the cards it put back
    on a deck itself (it saw them; the other seat may have drawn them since)."""
    rules = GAME.rules(record.header.get("ruleset"), record.header.get("options"))
    me = rules.roles.index(seat)

    def hidden(state, returned):
        cards = set()
        for r, hand in enumerate(state.hands):
            if r != me:
                cards |= {card_name(c) for c in hand}
        return cards - {card_name(c) for c in state.known[me]} - returned

    result = [hidden(GAME.new_state(rules), set())]
    returned: set[str] = set()
    for step in replay_steps(GAME, record):
        if step.decision.role == seat and step.decision.step == "scout_return":
            returned.add(step.option.key.removeprefix("card:"))
        result.append(hidden(step.state, returned))
    return result


def decision_numbers(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^\[(\d+)\] ", text, re.M)]


# -- every step renders ----------------------------------------------------------------------------


@pytest.mark.parametrize("as_role", [None, "p1", "p2"])
def test_every_step_of_every_record_renders(records, as_role):
    for record in records:
        moves = len(record.moves)
        text = "\n".join(replay_lines(GAME, record, as_role=as_role))
        assert decision_numbers(text) == list(range(1, moves + 1))
        assert "flag 9:" in text and "final position:" in text
        assert " wins by " in text or "draw by " in text
        quiet = "\n".join(replay_lines(GAME, record, as_role=as_role, quiet=True))
        assert decision_numbers(quiet) == list(range(1, moves + 1))
        assert "flag 1:" not in quiet
        result = review(GAME, record, as_role=as_role)
        assert len(result.frames) == moves
        for i, frame in enumerate(result.frames):
            board = frame.board
            assert "flag 9:" in board
            if as_role is not None:
                assert f"as seen by {as_role}" in board and "your hand" in board
            else:
                assert "p1 hand" in board and "p2 hand" in board
            assert f"== decision {frame.number} of {moves}" in screen(result, i)
        assert "end of the record" in screen(result, moves)


def test_from_starts_the_output_at_that_decision(records):
    record = records[0]
    text = "\n".join(replay_lines(GAME, record, as_role="p2", start=40))
    assert decision_numbers(text) == list(range(40, len(record.moves) + 1))
    assert "decisions 1 to 39 replayed silently" in text


def test_own_decisions_show_prompt_options_and_choice(records):
    record = records[0]
    result = review(GAME, record, as_role="p1")
    own = [f for f in result.frames if f.role == "p1"]
    other = [f for f in result.frames if f.role == "p2"]
    assert own and other
    for frame in own:
        assert frame.prompt and frame.options and frame.options[frame.index] == frame.key
    for frame in other:
        assert frame.prompt is None and frame.options is None and frame.index is None
    text = "\n".join(replay_lines(GAME, record, as_role="p1"))
    assert "prompt: play a card" in text and "options (" in text
    # The seat's board is shown for its own decisions only.
    blocks = re.split(r"^(?=\[\d+\] )", text, flags=re.M)
    for block in blocks:
        if block.startswith("[") and " p2 " in block.splitlines()[0]:
            assert "flag 1:" not in block


def test_omniscient_shows_every_hand_and_real_chance_keys(records):
    record = records[0]
    text = "\n".join(replay_lines(GAME, record))
    assert "omniscient" in text.splitlines()[1]
    deals = [line for line in text.splitlines() if " chance deal -> " in line]
    assert deals and all("-> card:" in line for line in deals)
    per_seat = "\n".join(replay_lines(GAME, record, as_role="p1"))
    deals = [line for line in per_seat.splitlines() if " chance deal -> " in line]
    assert sum("deck:troops" in line for line in deals) == len(deals) // 2  # the other seat's


# -- hidden information ------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", ROLES)
def test_a_seat_never_sees_the_other_seats_hidden_cards(records, seat):
    """For every step, what is rendered for ``seat`` names no card that is in the other hand and
    unknown to ``seat`` at that moment: the board (taken before the decision) against the cards
    hidden then, the decision line against the cards hidden after it (a card played is public)."""
    checked = leaks_possible = 0
    for record in records:
        hidden = hidden_from(record, seat)
        result = review(GAME, record, as_role=seat)
        for i, frame in enumerate(result.frames):
            before, after = hidden[frame.number - 1], hidden[frame.number]
            shown = screen(result, i)
            line = decision_line(frame)
            assert shown.endswith(line)
            board_part = shown[: -len(line)]
            for name in before:
                assert not mentions(board_part, name), (record.header["match_id"], seat, frame.number, name)
            for name in after:
                assert not mentions(line, name), (record.header["match_id"], seat, frame.number, name)
            checked += len(before) + len(after)
            # the same moment, omniscient, does show them (the check can see a leak)
            if before and frame.number % 25 == 0:
                omniscient = review_module.render_state(GAME, _state_before(record, frame.number))
                assert any(mentions(omniscient, name) for name in before)
                leaks_possible += 1
        final = screen(result, len(result.frames))
        for name in hidden[-1]:
            assert not mentions(final, name)
        # the plain replay, block by block
        text = "\n".join(replay_lines(GAME, record, as_role=seat))
        for block in re.split(r"^(?=\[\d+\] )", text, flags=re.M)[1:]:
            number = int(block[1 : block.index("]")])
            first, _, rest = block.partition("\n")
            if number == len(record.moves):
                rest = rest.split("final position:")[0]
            assert not any(mentions(first, name) for name in hidden[number])
            assert not any(mentions(rest, name) for name in hidden[number - 1])
    assert checked > 10_000 and leaks_possible > 10


def _state_before(record: Record, number: int):
    rules = GAME.rules(record.header.get("ruleset"), record.header.get("options"))
    if number == 1:
        return GAME.new_state(rules)
    for step in replay_steps(GAME, record):
        if step.number == number - 1:
            return step.state
    raise AssertionError(number)


def test_per_seat_rendering_uses_only_the_view(records, monkeypatch):
    """Per-seat frames are rendered from view dicts: rendering never touches a state."""
    record = records[1]
    calls = []
    original = review_module.render_state
    monkeypatch.setattr(review_module, "render_state", lambda *a: calls.append(a) or original(*a))
    result = review(GAME, record, as_role="p2")
    for frame in result.frames:
        assert isinstance(frame.view, dict) and frame.view["role"] == "p2"
        assert frame.board == render_view(GAME, frame.view)
    assert calls == []


def test_views_in_frames_keep_only_recent_history(records):
    result = review(GAME, records[0], as_role="p1")
    for frame in result.frames:
        history = frame.view["history"]
        assert len(history) <= HISTORY_CAP
        assert all(n < frame.number for n, *_ in history)


# -- interactive stepping ------------------------------------------------------------------------------


def screens(text: str) -> list[str]:
    return re.findall(r"^== (?:decision (\d+) of \d+|end of the record)", text, re.M)


def test_interactive_next_back_jump_quit(records):
    record = records[0]
    total = len(record.moves)
    out = io.StringIO()
    script = ["", "n", "b", "j 50", "j 99999", "what", "42", "j end", "n", "b", "q", "never read"]
    assert interactive(GAME, record, "p1", 20, input=script, output=out) == 0
    text = out.getvalue()
    shown = screens(text)
    # start at 20; Enter, n -> 22; b -> 21; j 50; bad jump and unknown command stay; 42; end; n
    # at the end stays; b -> the last decision; q
    expected = ["20", "21", "22", "21", "50", "50", "50", "42", "", "", str(total)]
    assert shown == expected
    assert f"no decision 99999: the record has decisions 1 to {total}" in text
    assert "unknown command 'what'" in text
    assert "end of the record: b to go back" in text
    assert "never read" not in text


def test_interactive_back_at_the_start_and_end_of_input(records):
    out = io.StringIO()
    assert interactive(GAME, records[2], None, 1, input=["b"], output=out) == 0  # input ends: quit
    text = out.getvalue()
    assert screens(text) == ["1", "1"]
    assert "this is the first decision" in text
    assert "omniscient" in text


def test_interactive_with_a_prompt_function(records):
    lines = iter(["n", "q"])
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return next(lines)

    out = io.StringIO()
    assert interactive(GAME, records[3], "p2", 3, input=ask, output=out) == 0
    assert screens(out.getvalue()) == ["3", "4"]
    assert prompts == ["review> ", "review> "]


# -- the command ----------------------------------------------------------------------------------


def args(path, **extra) -> argparse.Namespace:
    # keys: the decisions' keys, boards and options (a game with a story prints that without --keys)
    values = dict(record=str(path), as_role=None, omniscient=False, start=1, step=False, quiet=False, keys=True)
    values.update(extra)
    return argparse.Namespace(**values)


@pytest.fixture
def record_file(tmp_path, records):
    path = tmp_path / "match.jsonl"
    write_record(path, records[0])
    return path


def test_run_replay_prints_the_replay(record_file, records):
    out = io.StringIO()
    assert run_replay(args(record_file, as_role="p1", start=10), stdout=out) == 0
    text = out.getvalue()
    assert decision_numbers(text) == list(range(10, len(records[0].moves) + 1))
    assert "as seen by p1 (greedy)" in text
    out = io.StringIO()
    assert run_replay(args(record_file, omniscient=True, quiet=True), stdout=out) == 0
    assert "flag 1:" not in out.getvalue() and "omniscient" in out.getvalue()


def test_run_replay_default_output_keeps_the_old_shape(record_file, records):
    """Without --as the replay is omniscient: one ``[N] `` line per decision, the table (with
    ``flag 9:``) and the outcome, as before."""
    out = io.StringIO()
    assert run_replay(args(record_file), stdout=out) == 0
    text = out.getvalue()
    moves = len(records[0].moves)
    assert text.count("\n[") + text.startswith("[") == moves
    assert f"[{moves}] " in text and "flag 9:" in text
    assert " wins by " in text or "draw by " in text


def test_step_without_a_terminal_prints_the_replay(record_file, capsys):
    out = io.StringIO()
    assert run_replay(args(record_file, step=True, as_role="p2"), stdout=out, stdin=io.StringIO("q\n")) == 0
    assert "--step needs a terminal" in capsys.readouterr().err
    assert "final position:" in out.getvalue()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"as_role": "p3"}, "--as 'p3': not a role of this match (roles: p1, p2)"),
        ({"as_role": "chance"}, "not a role of this match"),
        ({"as_role": "p1", "omniscient": True}, "--as and --omniscient are mutually exclusive"),
        ({"start": 0}, "--from 0: the record has decisions 1 to"),
        ({"start": 100000}, "--from 100000: the record has decisions 1 to"),
    ],
)
def test_bad_arguments_are_one_clear_line(record_file, extra, message):
    with pytest.raises(ValueError) as info:
        run_replay(args(record_file, **extra), stdout=io.StringIO())
    text = str(info.value)
    assert message in text and "\n" not in text


def test_unreadable_and_unknown_records(tmp_path, records):
    with pytest.raises(ValueError, match=r"cannot read .*nothing\.jsonl"):
        run_replay(args(tmp_path / "nothing.jsonl"), stdout=io.StringIO())
    other = Record(dict(records[0].header, game="chess"), list(records[0].moves), records[0].footer)
    path = tmp_path / "chess.jsonl"
    write_record(path, other)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        run_replay(args(path), stdout=io.StringIO())
    bad = Record(records[0].header, [dict(m) for m in records[0].moves], records[0].footer)
    bad.moves[20]["key"] = "flag:10"
    path = tmp_path / "bad.jsonl"
    write_record(path, bad)
    with pytest.raises(ReplayError, match="'flag:10' is not an option"):
        run_replay(args(path, as_role="p1", quiet=True), stdout=io.StringIO())
    altered = Record(records[0].header, records[0].moves, dict(records[0].footer, termination="envelopment"
                     if records[0].footer["termination"] != "envelopment" else "breakthrough"))
    path = tmp_path / "altered.jsonl"
    write_record(path, altered)
    with pytest.raises(ReplayError, match="differs"):
        run_replay(args(path, quiet=True), stdout=io.StringIO())


def test_faults_timings_and_referee_stops_are_shown(records):
    source = records[0]
    moves = [dict(m) for m in source.moves]
    player = next(i for i, m in enumerate(moves) if m["role"] == "p2")
    moves[player].pop("think_ms", None)
    moves[player].update(fault="timeout", substituted=True, elapsed_ms=1500, rtt_ms=2)
    cut = moves[: player + 5]
    footer = {"type": "outcome", "winner": "p1", "scores": {"p1": 1.0, "p2": 0.0}, "termination": "forfeit",
              "reason": "p2 (random) forfeits", "faults": {"p2": {"timeout": 1}}, "fault_policy": "forfeit"}
    record = Record(source.header, cut, footer)
    for seat in (None, "p1", "p2"):
        text = "\n".join(replay_lines(GAME, record, as_role=seat, quiet=True))
        line = next(x for x in text.splitlines() if x.startswith(f"[{player + 1}] "))
        assert "FAULT timeout, substituted at random" in line and "elapsed 1500 ms" in line and "rtt 2 ms" in line
        assert "stopped by the referee: forfeit: p2 (random) forfeits (p1 wins)" in text
        assert "faults: p2 timeout x1" in text and "fault policy: forfeit" in text


# -- renderers ------------------------------------------------------------------------------------


def test_renderer_registry_and_generic_fallback(records):
    view = {"role": "p1", "score": 3, "history": [[1, "p1", "move", "a"], [2, "p2", "move", "b"]]}
    text = render_view("some-other-game", view)
    assert "score: 3" in text and "recent: 1 p1 move a; 2 p2 move b" in text
    register_renderer("some-other-game", lambda v: f"custom board for {v['role']}")
    try:
        assert render_view("some-other-game", view) == "custom board for p1"
    finally:
        review_module.RENDERERS.pop("some-other-game")
    state = _state_before(records[0], 60)
    board = render_state(GAME, state)
    for role in ROLES:
        assert f"{role} hand (" in board


def test_boards_come_from_the_games_registered_spec(tmp_path):
    """A game registered with its own boards (a GameSpec) is replayed with them, looked up by the
    record's game name, in `standoff replay` too; an override (register_renderer) still wins."""
    from standoff.bots.random_bot import RandomBot
    from standoff.sdk import GameSpec, hookimpl
    from standoff.server.games.schotten_totten import SchottenTotten

    class Renamed(SchottenTotten):
        name = "st-renamed"

    class Plugin:
        @hookimpl
        def standoff_games(self):
            return [GameSpec(Renamed(), seat_board=lambda view: f"seat board of {view['role']}",
                             state_board=lambda state: f"table at decision {state.number}")]

    registry = load_registry(entry_points=False, extra_plugins=[Plugin()])
    game = registry.game("st-renamed")
    record = play_match(game, game.rules(), {"p1": RandomBot(1), "p2": RandomBot(2)}, 4, timing=False).record
    seat = "\n".join(replay_lines(game, record, as_role="p2"))
    assert "seat board of p2" in seat and "table at" not in seat and "flag 1:" not in seat
    assert f"table at decision {len(record.moves)}" in "\n".join(replay_lines(game, record))
    path = tmp_path / "renamed.jsonl"
    write_record(path, record)
    out = io.StringIO()
    assert run_replay(argparse.Namespace(record=str(path), as_role="p1"), stdout=out) == 0
    assert "seat board of p1" in out.getvalue()
    register_renderer("st-renamed", lambda view: "overridden")
    try:
        assert render_view("st-renamed", {"role": "p1"}) == "overridden"
    finally:
        review_module.RENDERERS.pop("st-renamed")


def test_schotten_totten_board_reads_well(records):
    state = _state_before(records[0], len(records[0].moves))
    view = GAME.view(state, "p1")
    text = render_view(GAME, view)
    lines = text.splitlines()
    assert lines[0].startswith("turn ") and "as seen by p1" in lines[0]
    assert "p1 (you)" in lines[1]
    assert [line.split(":")[0].strip().lstrip("*") for line in lines[2:11]] == [f"flag {n}" for n in range(1, 10)]
    opponent = view["opponents"]["p2"]
    assert f"p2 hand: {opponent['troops']} troop" in text
    for name in view["hand"]:
        assert mentions(text, name)
    assert "recent:" in text
    complete = [f for f in view["flags"] if f["sides"]["p1"]["completed_at"] is not None]
    if complete:
        assert re.search(r"\((wedge|phalanx|battalion|skirmish line|host) \d+\)", text)


def test_three_player_records_render_and_hide_both_other_hands():
    registry = load_registry(entry_points=False)
    rules = GAME.rules("three_player")
    roles = rules.roles
    bots = {role: registry.make_bot(name, bot_seed(8, role), GAME.name)
            for role, name in zip(roles, ("greedy", "random", "random"))}
    record = play_match(GAME, rules, bots, 8, bot_names=dict(zip(roles, ("greedy", "random", "random")))).record
    text = "\n".join(replay_lines(GAME, record))
    assert decision_numbers(text) == list(range(1, len(record.moves) + 1))
    assert all(f"{role} hand (" in text for role in roles)
    for seat in roles:
        hidden = hidden_from(record, seat)
        result = review(GAME, record, as_role=seat)
        assert hidden[len(hidden) // 2]  # mid-game, the other hands hold cards this seat cannot see
        for i, frame in enumerate(result.frames):
            board = frame.board
            assert not any(mentions(board, name) for name in hidden[frame.number - 1]), (seat, frame.number)
            assert not any(mentions(decision_line(frame), name) for name in hidden[frame.number]), (seat, frame.number)
        others = [r for r in roles if r != seat]
        assert all(f"{r} hand: " in result.final_board for r in others)


def test_twilight_struggle_replay_per_seat_hides_the_other_hand():
    """The Twilight Struggle board as the US saw it never names a card that was only in the
    USSR hand at that moment (CIA Created / Cambridge Five reveals aside: none in this seed)."""
    from standoff.bots.random_bot import RandomBot
    from standoff.server.core.record import replay_steps as steps
    from standoff.server.games import get_game
    from standoff.server.local import play_match
    from standoff.server.review import render_view

    game = get_game("twilight-struggle")
    rules = game.rules(None, {"end_turn": "2"})
    result = play_match(game, rules, {"ussr": RandomBot(1), "us": RandomBot(2)}, 5, timing=False)
    shown = 0
    from standoff.server.games.twilight_struggle import card_data as CD

    for step in steps(game, result.record):
        state = step.state
        view = game.view(state, "us")
        if any(e[2] == "reveal_hand" for e in view["history"]):
            break
        text = render_view(game, view)
        hidden = {CD.CARD_BY_NUMBER[c].id for c in state.hands[0]} - set(view["hand"]) - set(view["discard"]) - set(view["removed"])
        hidden -= set(view["headline"].values())
        for name in hidden:
            assert name not in text.replace(f"card:{name}", ""), (step.number, name)
        shown += 1
    assert shown > 50
    lines = list(replay_lines(game, result.record, as_role="us"))
    assert any("DEFCON" in line for line in lines)
