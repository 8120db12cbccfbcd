"""A tournament with a remote entrant and ``split_referee = true``: the remote bot's matches are
hosted by the worker processes (the referee only routing its bytes), with the same results,
Elo log, ratings and records as the referee playing them itself; the key is checked, and a run
may be resumed with the other value."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from kits.server import comparable_record

from standoff.sdk import Bot
from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.tournaments.config import ConfigError, load_config
from standoff.tournaments.runner import run_tournament



class Stateless(Bot):
    """A remote bot whose answer depends on the decision only: the same however its matches
    interleave (paired legs are played at once)."""

    name = "stateless"

    def choose(self, decision, view):
        return (decision.decision_id * 7919) % len(decision.options)


def write_config(folder: Path, name: str, **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"', "master_seed = 5"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def play(folder: Path, split: bool):
    tokens = TokenRegistry(folder / "tokens.json")
    alice = tokens.add("alice")
    path = write_config(folder, "split" if split else "single", entrants=["greedy", "remote:alice", "probability"],
                        games_per_pairing=2, remote_wait_s=30, split_referee=split, workers=2)
    ready, box = threading.Event(), {}

    def announce(address):
        box["address"] = address
        ready.set()

    runner = threading.Thread(target=lambda: box.setdefault("summary", run_tournament(
        load_config(path), tokens=tokens, announce=announce)), daemon=True)
    runner.start()
    assert ready.wait(60)
    bot, results = run_in_thread(Stateless(1), box["address"], alice, matches=4)
    runner.join(300)
    bot.join(30)
    summary = box["summary"]
    assert summary.complete and len(results) == 4
    run_dir = summary.run_dir
    outputs = {name: (run_dir / name).read_bytes() for name in ("results.jsonl", "elo.jsonl", "ratings.json")}
    records = {}
    for record in sorted((run_dir / "records").glob("*.jsonl")):
        records[record.name] = comparable_record(record.read_text())
    return outputs, records, summary


def test_split_referee_tournament_same_outputs_as_the_single_process_one(tmp_path):
    single = play(tmp_path / "a", False)
    split = play(tmp_path / "b", True)
    assert split[0]["results.jsonl"] == single[0]["results.jsonl"]
    assert split[0]["elo.jsonl"] == single[0]["elo.jsonl"]
    assert split[1] == single[1] and len(split[1]) == 6
    remote = [r for r in split[2].results if "remote:alice" in r.seats.values()]
    assert len(remote) == 4 and all(r.termination not in ("error", "not_played") for r in remote)


def test_split_referee_must_be_a_boolean(tmp_path):
    path = write_config(tmp_path, "bad", entrants=["greedy", "random"], split_referee="yes")
    with pytest.raises(ConfigError, match="split_referee"):
        load_config(path)
