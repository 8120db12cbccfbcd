"""A match ended by a worker's death keeps the decisions played in its record (issue 44): the
worker's record lines reach the OS one by one (server/records.py), and the coordinator appends
its outcome line to them (tournaments/dispatch.py) instead of a header-and-outcome record. The
record still verifies with its run and replays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from standoff.bots.greedy import GreedyBot
from standoff.bots.random_bot import RandomBot
from standoff.server.core.record import Record
from standoff.server.games import get_game
from standoff.server.local import bot_seed, play_match
from standoff.server.records import read_record, write_record
from standoff.tournaments.config import load_config
from standoff.tournaments.dispatch import played_lines
from standoff.tournaments.runner import run_tournament

TESTS = Path(__file__).resolve().parents[1]
GAME = get_game("schotten-totten")
DIES_AT = 12  # kits/dying_bot.py: the dier's decision at which its process dies


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """Two matches of ``dier`` against ``greedy`` in worker processes: every attempt of each
    dies at the dier's twelfth decision (SIGKILL), until the coordinator gives the match up."""
    folder = tmp_path_factory.mktemp("death")
    saved = {key: os.environ.get(key) for key in ("STANDOFF_PLUGINS", "PYTHONPATH")}
    os.environ["STANDOFF_PLUGINS"] = "kits.dying_bot"
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), saved["PYTHONPATH"]]))
    path = folder / "death.toml"
    path.write_text("\n".join([
        'name = "death"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"',
        'entrants = ["dier", "greedy"]', "games_per_pairing = 2", "workers = 1", "concurrency = 1",
        "master_seed = 5",
    ]) + "\n")
    try:
        summary = run_tournament(load_config(path))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        sys.modules.pop("kits.dying_bot", None)
    assert summary.complete and len(summary.results) == 2
    return summary.run_dir


def test_the_record_keeps_every_decision_played_before_the_death(run_dir):
    for result in (json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()):
        assert (result["termination"], result["played"]) == ("error", False)
        assert "worker processes died" in result["reason"]
        record = read_record(run_dir / "records" / f"{result['match_id']}.jsonl")
        assert record.footer["termination"] == "error" and record.header["match_id"] == result["match_id"]
        # The same match, played again in this process by bots that do not die: the record holds
        # exactly its decisions up to the dier's twelfth, which was asked and never answered.
        seats = result["seats"]
        dier = next(role for role, name in seats.items() if name == "dier")
        bots = {role: (RandomBot if name == "dier" else GreedyBot)(bot_seed(result["seed"], role, result["leg"]))
                for role, name in seats.items()}
        full = play_match(GAME, GAME.rules(None, {}), bots, result["seed"], timing=False, leg=result["leg"]).record
        asked = [i for i, m in enumerate(full.moves) if m["role"] == dier]
        played = full.moves[:asked[DIES_AT - 1]]
        assert len(record.moves) == len(played) > DIES_AT
        assert [(m["n"], m["role"], m["step"], m["key"]) for m in record.moves] == \
            [(m["n"], m["role"], m["step"], m["key"]) for m in played]


def test_the_run_verifies_and_the_record_replays(run_dir):
    verified = cli("verify", str(run_dir))
    assert verified.returncode == 0, verified.stderr
    assert "2 replayed" in verified.stdout
    path = sorted((run_dir / "records").glob("*.jsonl"))[0]
    shown = cli("replay", str(path), "--keys", "--quiet")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    moves = read_record(path).moves
    assert [line.split(" ", 1)[0] for line in lines if line.startswith("[")] == [f"[{m['n']}]" for m in moves]
    assert lines[-1].startswith("stopped by the referee: error: worker processes died")


def _record(seed: int = 3) -> Record:
    bots = {"p1": RandomBot(1), "p2": RandomBot(2)}
    return play_match(GAME, GAME.rules(None, {}), bots, seed, timing=False, match_id="m1").record


def test_played_lines_keeps_complete_lines_of_this_match_only(tmp_path):
    record = _record()
    path = tmp_path / "m1.jsonl"
    write_record(path, Record(record.header, record.moves[:30]))
    text = path.read_text()
    header = {**record.header, "code_version": "coordinator's"}
    assert played_lines(path, header, GAME) == (record.header, record.moves[:30])
    path.write_text(text + text.splitlines()[5][:20])  # a line the death cut short
    assert played_lines(path, header, GAME) == (record.header, record.moves[:30])
    assert played_lines(path, {**header, "seed": header["seed"] + 1}, GAME) == ({**header, "seed": header["seed"] + 1}, [])
    assert played_lines(tmp_path / "none.jsonl", header, GAME) == (header, [])
    # A worker that died after the last decision, before the outcome line: the decision that
    # ended the match is left out (the outcome line that follows says the referee stopped it).
    write_record(path, Record(record.header, record.moves))
    assert played_lines(path, header, GAME) == (record.header, record.moves[:-1])
