"""Tournament seeds stay secret from the entrants, and paired legs do not give each other away.

* Without ``master_seed`` a run draws a secret one, kept (readable by its owner only) in the run
  folder and read back on resume.
* A pairing with a remote entrant is played unpaired (tests/tournaments/test_paired_race.py).
  Paired legs (same seed, seats swapped) that the referee plays, as earlier versions paired a
  remote entrant's, start together, and neither leg's record nor seed is served before both are
  over; a run resumed between two legs withholds the finished leg from its first call on.
* A cheating remote entrant (tests/kits/cheater.py: match ids, summaries, records, standings, its own
  bot seed searched as a match seed and as a master seed) reproduces no deal.
"""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path

import grpc
import pytest
from kits.cheater import Cheater, score
from kits.tournament import serve_tournament

from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.server.plugins import load_registry
from standoff.tournaments.config import load_config
from standoff.tournaments.runner import SECRET_SEED_FILE, prepare, run_tournament
from standoff.v1 import referee_pb2 as pb


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


def test_a_finished_leg_is_withheld_while_its_partner_plays(tmp_path):
    from kits.server import ServerThread

    server = ServerThread(tmp_path).start()
    try:
        referee = server.running.referee

        async def in_trio(fn, *args):
            return await server.running.bridge.call(fn, *args)

        def call(fn, *args):
            return asyncio.run_coroutine_threadsafe(in_trio(fn, *args), server.loop).result(30)

        async def create(bots, group):
            match = referee.create_match("schotten-totten", None, {}, bots, connect_timeout_s=60, embargo=group)
            referee.start_match(match)
            return match

        done = call(create, ["greedy", "random"], "g")
        waiting = call(create, ["greedy", "remote:late"], "g")  # its partner: waits for a bot
        server.wait_finished(done.id)
        with pytest.raises(grpc.RpcError) as refused:
            server.record(done.id)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "paired" in refused.value.details()
        listing = server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse).matches
        assert {s.match_id: s.seed for s in listing} == {done.id: 0, waiting.id: 0}

        async def release():
            referee.release("g")

        call(release)
        assert json.loads(server.record(done.id).splitlines()[0])["seed"] == done.seed != 0
        listing = server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse).matches
        assert {s.match_id: s.seed for s in listing}[done.id] == done.seed
    finally:
        server.stop()


def test_a_run_resumed_between_two_legs_withholds_the_first(tmp_path, monkeypatch):
    import standoff.tournaments.schedule as schedule_module

    # A schedule that pairs the remote entrant's legs, as earlier versions did.
    monkeypatch.setattr(schedule_module, "_unpaired", lambda config, untrusted: frozenset())
    path = write_config(tmp_path, "ghost", entrants=["greedy", "remote:ghost"], games_per_pairing=2, remote_wait_s=0)
    config = load_config(path)
    summary = run_tournament(config, tokens=TokenRegistry(tmp_path / "tokens.json"))
    assert [r.termination for r in summary.results] == ["not_played", "not_played"]
    results = summary.run_dir / "results.jsonl"
    results.write_text(results.read_text().splitlines(keepends=True)[0])  # as if killed between the legs
    prepared = prepare(config, load_registry(entry_points=False))
    assert prepared.withheld == {"pair-0": [summary.results[0].match_id]}
