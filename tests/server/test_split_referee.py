"""A split referee (``standoff serve --match-workers N``): the server keeps the bot sessions, the
matches are played in worker processes. Same records and the same bytes on the wire as a referee
playing them itself; the match work demonstrably elsewhere; a worker dying ends its matches as
``error``, never as a result. (Every test of tests/server that uses the ``server`` fixture runs
against a split referee too.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from kits.server import RawClient, ServerThread, comparable_record

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread
from standoff.server.answers import SeatAnswer
from standoff.server.sessions import Session
from standoff.v1 import referee_pb2 as pb



def _capture(monkeypatch) -> list[tuple[str, bytes]]:
    """Every message the server sends a session, as (bot, bytes), welcomes left out (their
    session ids are random)."""
    sent: list[tuple[str, bytes]] = []
    original = Session.send

    def send(self, message):
        data = message if isinstance(message, bytes) else message.SerializeToString(deterministic=True)
        if pb.PlayResponse.FromString(data).WhichOneof("body") != "welcome":
            sent.append((self.identity.name, data))
        return original(self, message)

    monkeypatch.setattr(Session, "send", send)
    return sent


def _play(tmp_path, match_workers: int, game: str, bots: list[str], seeds: list[int], monkeypatch):
    """Play a match per seed (``remote:alice`` an SDK random bot): the records (timing taken
    out, keyed by seed) and every message sent to alice (match ids masked: they are random)."""
    sent = _capture(monkeypatch)
    server = ServerThread(tmp_path, match_workers=match_workers).start()
    try:
        alice = server.tokens.add("alice")
        remote = sum(1 for b in bots if b == "remote:alice")
        thread, _ = run_in_thread(RandomBot(5), server.address, alice, matches=remote * len(seeds))
        ids = [server.start_match(bots, game=game, seed=seed, wait=True).match_id for seed in seeds]
        thread.join(60)
        records = {}
        for seed, match_id in zip(seeds, ids, strict=True):
            records[seed] = comparable_record(server.record(match_id), match_id=False)
        wire = []
        for name, data in sent:
            for match_id in ids:
                data = data.replace(match_id.encode(), b"M" * len(match_id))
            wire.append((name, data))
        return records, wire
    finally:
        server.stop()


@pytest.mark.parametrize(("game", "bots", "seeds"), [
    ("schotten-totten", ["remote:alice", "greedy"], [3, 4, 5]),
    ("schotten-totten", ["probability", "remote:alice"], [6]),
    ("twilight-struggle", ["remote:alice", "random"], [7]),
    ("schotten-totten", ["remote:alice", "remote:alice"], [8]),  # self-play: both seats one session
])
def test_same_records_and_wire_bytes_as_a_single_process_referee(tmp_path, monkeypatch, game, bots, seeds):
    single = _play(tmp_path / "single", 0, game, bots, seeds, monkeypatch)
    monkeypatch.undo()
    split = _play(tmp_path / "split", 2, game, bots, seeds, monkeypatch)
    assert split[0] == single[0]
    assert all(lines[-1]["type"] == "outcome" and lines[-1]["termination"] != "error" for lines in split[0].values())
    assert len(split[1]) > 10 and split[1] == single[1]


def test_the_match_work_is_not_done_in_the_front(tmp_path, monkeypatch):
    """The server's own process cannot play a move (its engine raises): a split referee still
    plays complete matches, because engine, views and the built-in bot run in the worker; the
    same server without workers ends the match as ``error``."""
    from standoff.server.games.schotten_totten.game import SchottenTotten

    def refuse(*args, **kwargs):
        raise RuntimeError("the engine was called in the front process")

    monkeypatch.setattr(SchottenTotten, "apply", refuse)
    monkeypatch.setattr(SchottenTotten, "view", refuse)
    for workers, expected in ((1, "played"), (0, "error")):
        server = ServerThread(tmp_path / str(workers), match_workers=workers).start()
        try:
            alice = server.tokens.add("alice")
            thread, box = run_in_thread(RandomBot(1), server.address, alice, matches=1)
            server.start_match(["remote:alice", "greedy"], seed=21, wait=True)
            thread.join(30)
            termination = box[0].termination
            assert (termination != "error") if expected == "played" else (termination == "error"), termination
        finally:
            server.stop()


def test_a_worker_that_dies_ends_its_match_as_error_and_the_server_goes_on(tmp_path):
    server = ServerThread(tmp_path, match_workers=1).start()
    try:
        alice = server.tokens.add("alice")
        client = RawClient(server.address, alice)
        started = server.start_match(["remote:alice", "greedy"], seed=31)
        decision = client.next("decision")
        assert decision is not None
        hosts = server.running.referee.hosts
        (worker,) = hosts.workers
        os.kill(worker.process.pid, signal.SIGKILL)
        ended = client.next("match_ended", timeout=30)
        assert ended is not None and ended.match_ended.termination == "error"
        assert "match worker 1" in ended.match_ended.reason
        lines = [json.loads(line) for line in server.record(started.match_id).splitlines()]
        assert lines[0]["type"] == "header" and lines[-1]["type"] == "outcome" and lines[-1]["termination"] == "error"
        standings = server.call("GetStandings", pb.GetStandingsRequest(), pb.GetStandingsResponse)
        assert sum(s.played for s in standings.standings) == 0  # an error is never a result
        client.close()
        # The next match gets a new worker.
        thread, box = run_in_thread(RandomBot(2), server.address, alice, matches=1)
        server.start_match(["remote:alice", "greedy"], seed=32, wait=True)
        thread.join(30)
        assert box and box[0].termination != "error"
        assert len(hosts.workers) == 1 and hosts.workers[0].process.pid != worker.process.pid
    finally:
        server.stop()


def test_serve_refuses_a_negative_match_workers_count_in_one_line(tmp_path):
    """(``standoff serve --match-workers 1`` itself: tests/server/test_shutdown.py.)"""
    bad = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "serve", "--match-workers", "-1",
                          "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--match-workers" in bad.stderr and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_a_worker_answers_every_request_even_right_after_a_match_is_over():
    """The match worker protocol, driven directly: open, begin, answer every remote decision;
    the request sent right after the match is over (a stop) is answered at once, never left in
    the queue of a match thread that has gone (which held the front for seconds at each match's
    end)."""
    import select

    from standoff.server.faults import FORFEIT, TimeControl
    from standoff.server.hosting import host_job
    from standoff.server.match_worker import frame, read_frame

    worker = subprocess.Popen([sys.executable, "-m", "standoff.server.match_worker"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    ids = iter(range(1, 10_000))

    def call(method, *args):
        request_id = next(ids)
        worker.stdin.write(frame((request_id, "m1", method, args)))
        worker.stdin.flush()
        ready, _, _ = select.select([worker.stdout], [], [], 60)
        assert ready, f"no answer to {method}"
        answer = read_frame(worker.stdout)
        assert answer[0] == request_id
        return answer[1:]

    try:
        job = host_job("m1", "schotten-totten", "battle_line", {}, 7, {"p1": "remote:x", "p2": "greedy"}, ["p1"],
                       TimeControl(), FORFEIT, 0, None)
        assert call("open", job) == (True, None)
        ok, step = call("begin", {"p1": 0})
        while ok and "ask" in step:
            ok, step = call("advance", SeatAnswer(0, 1.0, {}), [], {"p1": 0})
        assert ok and step["over"]["outcome"][2] not in ("error", "forfeit")
        for _ in range(3):  # the match is gone: each request is refused at once
            ok, detail = call("stop")
            assert not ok and "not hosted here" in detail
    finally:
        worker.stdin.close()
        worker.wait(30)
