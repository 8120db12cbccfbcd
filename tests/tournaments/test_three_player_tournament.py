"""Tournaments of three-player matches (Schotten Totten ``three_player``): seat rotation in the
schedule, ratings from multi-player results (pairwise decomposition, checked on a hand-made
dataset with known answers), and whole tournaments (in worker processes, and through the referee
with a remote entrant) whose results, records, ratings.json and printed report agree."""

from __future__ import annotations

import itertools
import json
import math
import os
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from standoff.tournaments.cli import main
from standoff.server.core.record import replay
from standoff.server.games import get_game
from standoff.server.plugins import load_registry
from standoff.server.records import read_record
from standoff.tournaments.config import ConfigError, load_config, parse_config
from standoff.tournaments.model import Result
from standoff.tournaments.ratings import bradley_terry
from standoff.tournaments.report import compute_ratings, elo_lines, format_report, ratings_text, read_results
from standoff.tournaments.runner import run_tournament
from standoff.tournaments.schedule import schedule

GAME = get_game("schotten-totten")
ROLES = ("p1", "p2", "p3")
ENTRANTS = ["greedy", "random", "remote:zed"]
#: Built-in (trusted) entrants: the schedule pairs their legs (a remote entrant's pairings are
#: played unpaired).
TRUSTED = ["greedy", "random", "probability"]


def config(**extra):
    data = {"name": "three", "game": "schotten-totten", "ruleset": "three_player", "entrants": ENTRANTS,
            "games_per_pairing": 3, "master_seed": 1}
    data.update(extra)
    return parse_config(data, source="test.toml", registry=load_registry(entry_points=False))


# -- schedule: seats rotate -----------------------------------------------------------------------


def test_config_knows_the_three_roles_and_checks_the_game_count():
    assert config().roles() == ROLES
    with pytest.raises(ConfigError, match="games_per_pairing.*multiple of 3"):
        config(games_per_pairing=2)
    with pytest.raises(ConfigError, match="at least 3 entrants"):
        config(entrants=["greedy", "random"])
    with pytest.raises(ConfigError, match="tactics=on"):
        config(options={"tactics": "on"})


def test_paired_seeds_rotate_every_entrant_through_every_seat():
    matches = schedule(config(entrants=TRUSTED))
    assert len(matches) == 3  # one pairing of the three entrants, three legs
    assert [m.leg for m in matches] == [0, 1, 2] and [m.index for m in matches] == [0, 1, 2]
    assert len({m.seed for m in matches}) == 1 and len({m.pair for m in matches}) == 1
    for seat in range(3):
        assert sorted(m.seats[seat] for m in matches) == sorted(TRUSTED)  # each one in each role once
    assert len({m.match_id for m in matches}) == 3


def test_six_games_per_pairing_play_all_six_seatings():
    matches = schedule(config(entrants=TRUSTED, games_per_pairing=6))
    assert sorted(m.seats for m in matches) == sorted(itertools.permutations(TRUSTED))
    # each seed's three legs rotate the seats and keep one orientation (who plays after whom)
    for legs in (matches[:3], matches[3:]):
        assert len({m.seed for m in legs}) == 1
        assert all(Counter(m.seats[s] for m in legs) == Counter(TRUSTED) for s in range(3))
    after = {(m.seats[0], m.seats[1]) for m in matches[:3]}
    assert after.isdisjoint({(m.seats[0], m.seats[1]) for m in matches[3:]})
    unpaired = schedule(config(entrants=TRUSTED, games_per_pairing=6, paired_seeds=False))
    assert sorted(m.seats for m in unpaired) == sorted(itertools.permutations(TRUSTED))
    assert len({m.seed for m in unpaired}) == 6
    # With a remote entrant the trio is unpaired, paired_seeds notwithstanding: the same seats
    # (all six seatings), the same ids, a seed per game.
    remote = schedule(config(games_per_pairing=6))
    assert sorted(m.seats for m in remote) == sorted(itertools.permutations(ENTRANTS))
    assert all(m.pair is None and m.leg == 0 for m in remote) and len({m.seed for m in remote}) == 6
    assert [m.seats for m in remote] == [m.seats for m in schedule(config(games_per_pairing=6, paired_seeds=False))]


def test_more_entrants_make_every_trio_a_pairing():
    matches = schedule(config(entrants=["greedy", "random", "remote:a", "remote:b"]))
    assert len(matches) == 4 * 3  # C(4, 3) pairings × 3 games
    seated = Counter(e for m in matches for e in m.seats)
    assert set(seated.values()) == {9}  # each entrant is in three of the four trios


# -- ratings from three-player results --------------------------------------------------------------


def three_seat(index: int, seats: tuple[str, str, str], scores: tuple[float, float, float],
               termination: str = "envelopment") -> Result:
    by_role = dict(zip(ROLES, seats))
    best = max(scores)
    winner_role = ROLES[scores.index(best)] if scores.count(best) == 1 else None
    return Result(
        index=index, match_id=f"m{index:02d}", round=1, seed=100 + index // 3, seats=by_role, played=True,
        winner=by_role[winner_role] if winner_role else None, winner_role=winner_role,
        scores=dict(zip(ROLES, scores)), termination=termination, reason="", pair=index // 3, leg=index % 3,
    )


THIRD = 1 / 3
#: A wins three matches, B one, C one, one is drawn; seats rotate.
KNOWN = [
    three_seat(0, ("A", "B", "C"), (1, 0, 0)),
    three_seat(1, ("B", "C", "A"), (0, 0, 1)),
    three_seat(2, ("C", "A", "B"), (0, 0, 1), "breakthrough"),  # B wins
    three_seat(3, ("A", "B", "C"), (THIRD, THIRD, THIRD), "stalemate"),
    three_seat(4, ("B", "C", "A"), (0, 1, 0)),  # C wins
    three_seat(5, ("C", "A", "B"), (0, 1, 0)),  # A wins
]


def test_a_three_player_win_is_a_win_over_both_and_a_draw_between_the_others():
    assert KNOWN[0].pairwise() == [("A", "B", 1.0), ("A", "C", 1.0), ("B", "C", 0.5)]
    assert KNOWN[3].pairwise() == [("A", "B", 0.5), ("A", "C", 0.5), ("B", "C", 0.5)]
    assert KNOWN[4].pairwise() == [("B", "C", 0.0), ("B", "A", 0.5), ("C", "A", 1.0)]
    forfeit = three_seat(6, ("A", "B", "C"), (0.0, 0.5, 0.5), "forfeit")
    assert forfeit.pairwise() == [("A", "B", 0.0), ("A", "C", 0.0), ("B", "C", 0.5)]


def test_known_dataset_gives_known_wdl_and_bradley_terry_ratings():
    r = compute_ratings(KNOWN, entrants=["A", "B", "C"])
    assert r["matches"] == {"total": 6, "played": 6, "not_played": 0, "error": 0, "games": 18}
    pairs = {(p["a"], p["b"]): (p["wins"], p["draws"], p["losses"]) for p in r["pairs"]}
    # By hand: A beats B in matches 0, 1, 5, draws in 3 and 4 (C won: A and B tie), loses 2.
    assert pairs == {("A", "B"): (3, 2, 1), ("A", "C"): (3, 2, 1), ("B", "C"): (1, 4, 1)}
    players = {p["name"]: p for p in r["players"]}
    assert [p["name"] for p in r["players"]] == ["A", "B", "C"]  # B and C tie: by name
    assert {n: (p["games"], p["wins"], p["draws"], p["losses"]) for n, p in players.items()} == {
        "A": (12, 6, 4, 2), "B": (12, 2, 6, 4), "C": (12, 2, 6, 4),
    }
    # Symmetry makes B = C; A scores 8 of 12 against them, so P(A beats B) = 2/3 at the maximum
    # of the likelihood: A - B = 400 log10(2) Elo; the mean is 0.
    gap = 400 * math.log10(2)
    assert players["A"]["rating"] == pytest.approx(2 * gap / 3, abs=1e-3)
    assert players["B"]["rating"] == pytest.approx(-gap / 3, abs=1e-3)
    assert players["C"]["rating"] == pytest.approx(players["B"]["rating"], abs=1e-6)
    assert r["los"]["A"]["B"] > 0.5 and r["los"]["B"]["C"] == pytest.approx(0.5, abs=1e-6)
    assert r["crosstable"]["A"]["B"] == {"score": 4.0, "games": 6}
    assert r["crosstable"]["B"]["C"] == {"score": 3.0, "games": 6}
    assert all(p["pentanomial"] is None for p in r["pairs"])  # three legs per seed: none
    # the same fit straight from the rating maths
    bt = bradley_terry([t for res in KNOWN for t in res.pairwise()])
    assert bt.players[0].name == "A" and bt.players[0].rating == pytest.approx(2 * gap / 3, abs=1e-3)
    # and the Elo log has one line per pairwise game, in canonical order
    lines = elo_lines(KNOWN)
    assert len(lines) == 18 and [x["index"] for x in lines] == [i for i in range(6) for _ in range(3)]


# -- whole tournaments -------------------------------------------------------------------------------

PLUGIN = '''
from standoff.bots.greedy import GreedyBot
from standoff.server.plugins import BotSpec, hookimpl


class Cautious(GreedyBot):
    """Greedy that fears the opponents' reachable formations more."""

    name = "cautious"
    D_OPPONENT = 8.0


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(Cautious, trusted=True)]
'''


@pytest.fixture
def cautious(tmp_path, monkeypatch):
    """A third trusted built-in-like bot (through $STANDOFF_PLUGINS, so workers find it)."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "three_player_bots.py").write_text(PLUGIN)
    monkeypatch.setenv("STANDOFF_PLUGINS", "three_player_bots")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.syspath_prepend(str(folder))
    yield
    sys.modules.pop("three_player_bots", None)


def write_config(folder: Path, name: str, entrants: list[str], **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', 'ruleset = "three_player"',
             f'output_dir = "{folder / "runs"}"', f"entrants = {json.dumps(entrants)}", "games_per_pairing = 3"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    if "master_seed" not in extra:
        lines.append("master_seed = 1")  # explicit: these tests compare runs (the default is a secret seed)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def hand_wdl(results: list[Result]) -> dict[tuple[str, str], list[int]]:
    """W/D/L per entrant pair (smaller name first), from the scores, without Result.pairwise."""
    table: dict[tuple[str, str], list[int]] = {}
    for r in results:
        by_name = {r.seats[role]: r.scores[role] for role in r.seats}
        for a, b in itertools.combinations(sorted(by_name), 2):
            row = table.setdefault((a, b), [0, 0, 0])
            row[0 if by_name[a] > by_name[b] else 2 if by_name[a] < by_name[b] else 1] += 1
    return table


def check_coherent(run_dir: Path, entrants: list[str], *, paired: bool = True) -> dict:
    """results.jsonl, records/, elo.jsonl and ratings.json of a three-entrant, three-game run
    agree with each other and with the rules; returns the ratings. ``paired``: the three games
    are the legs of one seed (else, a remote entrant's trio: three seeds)."""
    results = read_results(run_dir / "results.jsonl")
    assert [r.index for r in results] == [0, 1, 2]
    if paired:
        assert len({r.seed for r in results}) == 1 and [r.leg for r in results] == [0, 1, 2]
    else:
        assert len({r.seed for r in results}) == 3 and [(r.pair, r.leg) for r in results] == [(None, 0)] * 3
    for role in ROLES:  # seat rotation: every entrant once in every role
        assert sorted(r.seats[role] for r in results) == sorted(entrants)
    for r in results:
        assert r.played and list(r.scores) == list(ROLES) and sum(r.scores.values()) == pytest.approx(1.0)
        if r.winner_role is None:
            assert r.winner is None and all(score == pytest.approx(1 / 3) for score in r.scores.values())
        else:
            assert r.winner == r.seats[r.winner_role] and r.scores[r.winner_role] == 1.0
            assert sorted(r.scores.values()) == [0.0, 0.0, 1.0]
        assert r.termination in ("breakthrough", "envelopment", "stalemate")
        record = read_record(run_dir / "records" / f"{r.match_id}.jsonl")
        assert record.header["ruleset"] == "three_player" and record.header["roles"] == r.seats
        outcome = GAME.outcome(replay(GAME, record))
        assert (outcome.winner, outcome.termination) == (r.winner_role, r.termination)
        assert dict(zip(ROLES, outcome.scores)) == pytest.approx(r.scores)

    elo = [json.loads(x) for x in (run_dir / "elo.jsonl").read_text().splitlines()]
    assert [(x["a"], x["b"], x["score_a"]) for x in elo] == [t for r in results for t in r.pairwise()]
    assert elo == elo_lines(results)

    text = (run_dir / "ratings.json").read_text()
    ratings = json.loads(text)
    assert text == ratings_text(compute_ratings(results, entrants=entrants))  # recomputed from results
    assert ratings["matches"] == {"total": 3, "played": 3, "not_played": 0, "error": 0, "games": 9}
    assert sum(ratings["terminations"].values()) == 3
    assert sorted(p["name"] for p in ratings["players"]) == sorted(entrants)
    for p in ratings["players"]:
        assert p["games"] == 6 == p["wins"] + p["draws"] + p["losses"]  # 3 matches × 2 opponents
    assert sum(p["wins"] for p in ratings["players"]) == sum(p["losses"] for p in ratings["players"])
    assert sum(p["rating"] for p in ratings["players"]) == pytest.approx(0.0, abs=1e-3)
    ordered = [p["rating"] for p in ratings["players"]]
    assert ordered == sorted(ordered, reverse=True)
    wdl = hand_wdl(results)
    assert {(q["a"], q["b"]): [q["wins"], q["draws"], q["losses"]] for q in ratings["pairs"]} == wdl
    for (a, b), (w, d, lo) in wdl.items():
        assert ratings["crosstable"][a][b] == {"score": w + d / 2, "games": 3}
        assert ratings["crosstable"][b][a] == {"score": lo + d / 2, "games": 3}
    return ratings


def test_three_player_round_robin_in_workers(tmp_path, cautious, capsys):
    entrants = ["greedy", "random", "cautious"]
    path = write_config(tmp_path, "trio", entrants, workers=2)
    assert main(["tournament", str(path), "--data-dir", str(tmp_path / "data")]) == 0
    printed = capsys.readouterr().out
    run_dir = tmp_path / "runs" / "trio"
    ratings = check_coherent(run_dir, entrants)
    report = format_report(ratings)
    assert printed.startswith(report + "\n")
    assert report.startswith("Matches: 3 (3 played, 0 not played), 9 pairwise games")
    standings = report.split("Standings\n", 1)[1].split("\n\n", 1)[0]
    assert [line.split()[1] for line in standings.splitlines()[2:5]] == [p["name"] for p in ratings["players"]]
    for q in ratings["pairs"]:
        assert f"{q['a']} vs {q['b']}" in report
    # `standoff ratings` recomputes the same report from the run folder
    assert main(["ratings", str(run_dir)]) == 0
    assert capsys.readouterr().out == report + "\n"
    # and the same config gives the same results
    (tmp_path / "again").mkdir()
    again = write_config(tmp_path / "again", "trio", entrants, workers=1)
    summary = run_tournament(load_config(again))
    assert (summary.run_dir / "results.jsonl").read_bytes() == (run_dir / "results.jsonl").read_bytes()


def test_three_player_round_robin_with_a_remote_entrant(tmp_path):
    from standoff.bots.random_bot import RandomBot
    from standoff.sdk.client import run_in_thread
    from standoff.server.auth import TokenRegistry

    tokens = TokenRegistry(tmp_path / "tokens.json")
    zed = tokens.add("zed")
    path = write_config(tmp_path, "remote3", ENTRANTS, remote_wait_s=20)
    address, ready, box = {}, threading.Event(), {}

    def announce(value):
        address["value"] = value
        ready.set()

    runner = threading.Thread(
        target=lambda: box.setdefault("summary", run_tournament(load_config(path), tokens=tokens, announce=announce)),
        daemon=True,
    )
    runner.start()
    assert ready.wait(30)
    bot_thread, bot_results = run_in_thread(RandomBot(3), address["value"], zed, matches=3)
    runner.join(120)
    bot_thread.join(30)
    summary = box["summary"]
    assert summary.complete and len(summary.results) == 3 and len(bot_results) == 3
    assert all(not r.faults for r in summary.results)
    check_coherent(summary.run_dir, ENTRANTS, paired=False)
