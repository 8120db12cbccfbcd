"""An engine or referee exception ends a match as ``error``: never a win, a loss or a draw.

The same in every place a match is played: ``play_match`` (``standoff play``, tournament workers,
Ray tasks) and the referee server. The record is closed with an outcome line that says so, each
seat gets ``MatchEnded``, the traceback is logged at error level, and standings, Elo, ratings
and reports leave the match out (shown apart). A tournament plays its other matches and exits
non-zero naming the failed ones.

The bug is simulated by tests/kits/faultyengine.py (Schotten Totten raises when red-1 is played in the
first 30 decisions).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from standoff.bots.greedy import GreedyBot
from standoff.bots.random_bot import RandomBot
from standoff.sdk.bot import Bot
from standoff.server.core.record import parse_record, replay
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.logs import configure_logging

HERE = Path(__file__).resolve().parent
GAME = get_game("schotten-totten")


@pytest.fixture
def engine_bug():
    from kits import faultyengine

    faultyengine.install()
    yield faultyengine
    faultyengine.restore()


@pytest.fixture
def logs():
    stream = io.StringIO()
    configure_logging(json=True, level="warning", stream=stream)
    yield stream
    configure_logging(json=True, level="warning", stream=io.StringIO())


class Listener(Bot):
    """Keeps what the referee told it."""

    name = "listener"

    def __init__(self, seed=0):
        super().__init__(seed)
        self.ended = []

    def choose(self, decision, view):
        return self.rng.randrange(len(decision.options))

    def end(self, result):
        self.ended.append(result)


def first_error_seed(bots_for, error: bool = True) -> int:
    """The first seed whose match the simulated bug ends (``error``), or does not."""
    for seed in range(1, 200):
        result = play_match(GAME, GAME.rules(), bots_for(), seed, timing=False)
        if (result.outcome.termination == "error") == error:
            return seed
    raise AssertionError("no such seed")


def test_an_engine_error_in_play_match_ends_the_match_as_error(engine_bug, logs):
    lines = []
    listeners = {"p1": Listener(1), "p2": Listener(2)}
    seed = first_error_seed(lambda: {"p1": Listener(1), "p2": Listener(2)})
    logs.seek(0)
    logs.truncate()
    result = play_match(GAME, GAME.rules(), listeners, seed, match_id="m1", on_line=lines.append)
    outcome = result.outcome
    assert (outcome.termination, outcome.winner, outcome.scores) == ("error", None, (0.0, 0.0))
    assert not outcome.rated
    assert "EngineBug" in outcome.reason and "simulated engine bug" in outcome.reason
    footer = lines[-1]
    assert footer["type"] == "outcome" and footer["termination"] == "error"
    assert footer["error_at"] == len(lines) - 1  # the decision being applied (its line never written)
    # every seat heard of the end, with its own role
    for role, bot in listeners.items():
        assert [(r.termination, r.role, r.rated) for r in bot.ended] == [("error", role, False)]
    # the traceback is logged at error level, with the match id
    logged = [json.loads(line) for line in logs.getvalue().splitlines()]
    errors = [entry for entry in logged if entry["level"] == "error"]
    assert errors and errors[0]["match"] == "m1" and "EngineBug" in errors[0]["exception"]
    # the record replays (up to the failing decision) and says what happened
    record = parse_record(json.dumps(line) for line in lines)
    engine_bug.restore()
    replay(GAME, record)


def test_a_trusted_bot_that_raises_without_a_policy_is_an_error_not_a_loss():
    class Broken(Bot):
        name = "broken"

        def choose(self, decision, view):
            raise ValueError("bug in the bot")

    result = play_match(GAME, GAME.rules(), {"p1": Broken(), "p2": RandomBot(2)}, 3)
    assert result.outcome.termination == "error" and result.outcome.winner is None
    assert "broken" in result.outcome.reason and "ValueError: bug in the bot" in result.outcome.reason


def test_standoff_play_reports_an_error_in_one_line(tmp_path, engine_bug):
    seed = first_error_seed(lambda: {"p1": GreedyBot(1), "p2": RandomBot(2)})
    from standoff.tournaments.cli import main

    record = tmp_path / "m.jsonl"
    err = io.StringIO()
    import contextlib

    with contextlib.redirect_stderr(err):
        code = main(["play", "schotten-totten", "--bot", "greedy", "--bot", "random", "--seed", str(seed),
                     "--record", str(record)])
    assert code == 1
    lines = [line for line in err.getvalue().splitlines() if line.startswith("standoff:")]
    assert len(lines) == 1 and "no result" in lines[0] and "EngineBug" in lines[0] and str(record) in lines[0]
    footer = json.loads(record.read_text().splitlines()[-1])
    assert footer["termination"] == "error"


def test_the_referee_ends_an_erroring_match_as_error_and_standings_ignore_it(tmp_path, engine_bug, logs):
    from kits.server import ServerThread

    from standoff.sdk.client import run_in_thread
    from standoff.v1 import referee_pb2 as pb

    server = ServerThread(tmp_path).start()
    try:
        token = server.tokens.add("listener")
        listener = Listener(3)
        # one session holds both seats of the erroring match: each gets its own MatchEnded
        thread, box = run_in_thread(listener, server.address, token, matches=2)
        seed = first_error_seed(lambda: {"p1": Listener(0), "p2": Listener(0)})
        bad = server.start_match(["remote:listener", "remote:listener"], seed=seed, wait=True)
        fine = first_error_seed(lambda: {"p1": GreedyBot(1), "p2": RandomBot(2)}, error=False)
        good = server.start_match(["greedy", "random"], seed=fine, wait=True)
        thread.join(30)
        standings = server.call("GetStandings", pb.GetStandingsRequest(), pb.GetStandingsResponse).standings
        record = server.record(bad.match_id)
    finally:
        server.stop()
    result = bad.summary.result
    assert (result.termination, result.winner, [s.score for s in result.scores]) == ("error", "", [0.0, 0.0])
    assert sorted((r.termination, r.role) for r in box) == [("error", "p1"), ("error", "p2")]
    footer = json.loads(record.splitlines()[-1])
    assert footer["termination"] == "error" and footer["error_at"] >= 1
    # standings count the good match only; the bots of the erroring one played nothing
    assert {s.bot: s.played for s in standings} == {"greedy": 1, "random": 1}
    assert good.summary.result.termination != "error"
    logged = [json.loads(line) for line in logs.getvalue().splitlines()]
    assert any(e["level"] == "error" and e.get("match") == bad.match_id and "EngineBug" in e.get("exception", "")
               for e in logged)
    # the server's ledger lists it, and it verifies
    from standoff.server.verify import verify_folder

    assert verify_folder(tmp_path).lines == 2


def write_config(folder: Path, **extra) -> Path:
    lines = ['name = "bugs"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"',
             'entrants = ["greedy", "random"]', "games_per_pairing = 16", "master_seed = 1"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    path = folder / "bugs.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_tournament_with_erroring_matches_finishes_the_rest_and_exits_non_zero(tmp_path):
    path = write_config(tmp_path)
    env = dict(os.environ, STANDOFF_PLUGINS="kits.faultyengine",
               PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(path)],
                         capture_output=True, text=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stderr
    run_dir = tmp_path / "runs" / "bugs"
    results = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    assert len(results) == 16  # every match has a line
    failed = [r for r in results if r["termination"] == "error"]
    assert 0 < len(failed) < 16, "the simulated bug should hit some matches, not all"
    assert all(not r["played"] and r["winner"] is None and set(r["scores"].values()) == {0.0} for r in failed)
    # one line names the failed matches; each failure's traceback was logged (stderr)
    summary = [line for line in run.stderr.splitlines() if line.startswith("standoff: error:")]
    assert len(summary) == 1 and f"{len(failed)} matches ended by an engine or referee error" in summary[0]
    assert all(r["match_id"] in summary[0] for r in failed[:10])
    assert run.stderr.count("EngineBug") >= len(failed)
    # ratings and Elo leave them out; the report shows them apart
    ratings = json.loads((run_dir / "ratings.json").read_text())
    assert ratings["matches"]["error"] == len(failed)
    assert ratings["matches"]["played"] == 16 - len(failed)
    assert sum(p["games"] for p in ratings["players"]) == 2 * (16 - len(failed))
    elo = [json.loads(line) for line in (run_dir / "elo.jsonl").read_text().splitlines()]
    assert {e["match_id"] for e in elo} == {r["match_id"] for r in results if r["played"]}
    assert f"{len(failed)} ended by an error" in run.stdout
    # every failed match has a record that says why, and the whole run verifies
    for r in failed:
        (name,) = r["records"]
        footer = json.loads((run_dir / "records" / name).read_text().splitlines()[-1])
        assert footer["termination"] == "error" and "EngineBug" in footer["reason"]
    check = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "verify", str(run_dir)],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    # a resume has nothing left to play and says the same
    again = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(path)],
                           capture_output=True, text=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
    assert again.returncode == 1 and f"{len(failed)} matches ended" in again.stderr
