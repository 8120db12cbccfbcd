"""Tournament seeds stay secret from the entrants, and paired legs do not give each other away.

* Without ``master_seed`` a run draws a secret one, kept (readable by its owner only) in the run
  folder and read back on resume.
* A pairing with a remote entrant is played unpaired (tests/tournaments/test_paired_race.py): no
  match the referee plays shares its seed with another, and a paired leg never reaches it.
* A cheating remote entrant (tests/kits/cheater.py: match ids, summaries, records, standings, its own
  bot seed searched as a match seed and as a master seed) reproduces no deal.
"""

from __future__ import annotations

import json
import stat
from dataclasses import replace
from pathlib import Path

import pytest
import trio
from kits.cheater import Cheater, score
from kits.tournament import serve_tournament

from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.server.plugins import load_registry
from standoff.tournaments.config import load_config
from standoff.tournaments.dispatch import Executor
from standoff.tournaments.run_folder import SECRET_SEED_FILE
from standoff.tournaments.runner import RunError, run_tournament
from standoff.tournaments.schedule import schedule


def write_config(folder: Path, name: str, **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"']
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_without_master_seed_a_run_draws_a_secret_one_and_keeps_it(tmp_path):
    first = run_tournament(load_config(write_config(tmp_path / "a", "s", entrants=["greedy", "random"])))
    second = run_tournament(load_config(write_config(tmp_path / "b", "s", entrants=["greedy", "random"])))
    secret = first.run_dir / SECRET_SEED_FILE
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert int(secret.read_text()) != int((second.run_dir / SECRET_SEED_FILE).read_text())
    assert [r.seed for r in first.results] != [r.seed for r in second.results]
    # config.json keeps the config as given (no seed); a resume reads the secret back
    assert json.loads((first.run_dir / "config.json").read_text())["master_seed"] is None
    again = run_tournament(load_config(write_config(tmp_path / "a", "s", entrants=["greedy", "random"])))
    assert [r.seed for r in again.results] == [r.seed for r in first.results]
    # --fresh draws a new one
    fresh = run_tournament(load_config(write_config(tmp_path / "a", "s", entrants=["greedy", "random"])), fresh=True)
    assert [r.seed for r in fresh.results] != [r.seed for r in first.results]


def _serve_tournament(tmp_path, name, **extra):
    tokens = TokenRegistry(tmp_path / "tokens.json")
    token = tokens.add("cheater")
    runner, box, address = serve_tournament(write_config(tmp_path, name, **extra), tokens)
    return runner, box, address, token


def _cheat(runner, box, address, token, games):
    """The cheater plays every match of the tournament being served; returns the run's summary,
    the cheater and its score."""
    cheater = Cheater(address, token, schedule={"entrants": ["greedy", "remote:cheater"], "games": games})
    thread, _ = run_in_thread(cheater, address, token, matches=games)
    runner.join(180)
    thread.join(30)
    summary = box["summary"]
    assert summary.complete and len(summary.results) == games
    records = {r.match_id: (summary.run_dir / "records" / f"{r.match_id}.jsonl").read_text() for r in summary.results}
    return summary, cheater, score(cheater, records)


def test_a_cheating_entrant_reproduces_no_deal_of_a_tournament(tmp_path):
    games = 6
    runner, box, address, token = _serve_tournament(
        tmp_path, "cheat", entrants=["greedy", "remote:cheater"], games_per_pairing=games, remote_wait_s=20,
        concurrency=1,
    )
    summary, cheater, result = _cheat(runner, box, address, token, games)
    assert result["matches"] == games
    assert result["reproduced"] == 0, cheater.predictions
    # Every game has a seed of its own (a remote entrant's pairing is unpaired), so in no match
    # did the cheater see its seed. (It did read the records and seeds of the matches already
    # over: they belong to other deals.)
    assert result["own_seed_seen"] == 0
    assert cheater.channels_seen.get("records", 0) > 0


def test_the_same_cheater_reproduces_every_deal_when_the_operator_publishes_the_master_seed(tmp_path):
    """The oracle of the test above: the cheater does find deals when a channel gives them away
    (here a small explicit master_seed, which the config docs warn against)."""
    games = 2
    runner, box, address, token = _serve_tournament(
        tmp_path, "public", entrants=["greedy", "remote:cheater"], games_per_pairing=games, remote_wait_s=20,
        master_seed=7,
    )
    _, _, result = _cheat(runner, box, address, token, games)
    assert result["reproduced"] == games and result["mean_hits"] == 7


def test_a_paired_leg_is_never_played_on_the_referee(tmp_path):
    """Nothing on the referee withholds a finished leg's record and seed from its partner's
    entrants: the schedule pairs trusted bots only, and a paired leg that would reach the
    referee all the same stops the run instead of being played."""
    config = load_config(write_config(tmp_path, "guard", entrants=["greedy", "remote:ghost"], master_seed=3))
    spec = replace(schedule(config)[0], pair=0)  # as earlier versions paired a remote entrant's legs
    executor = Executor(config, tmp_path, load_registry(entry_points=False), None, referee=object())
    with pytest.raises(RunError, match="paired leg with a remote or untrusted entrant"):
        trio.run(executor.play, spec)
