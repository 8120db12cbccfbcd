"""Graceful shutdown of `standoff serve`: SIGTERM mid-match, then a restart.

On SIGTERM the server takes no new session and no new match (UNAVAILABLE), lets running matches
finish for --drain-s, then ends the rest with termination ``shutdown``: every seat gets
``MatchEnded`` (with its role), the record gets its outcome line, the match is not rated, and it
is listed after a restart. Then every session's stream ends with status OK and the process exits 0.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import grpc
import pytest
from kits.server import RawClient, ServerThread

from standoff.server.auth import TokenRegistry
from standoff.server.verify import verify_folder
from standoff.v1 import referee_pb2 as pb


def unary(address, method, request, response_type, token):
    with grpc.insecure_channel(address) as channel:
        rpc = channel.unary_unary(f"/standoff.v1.RefereeService/{method}",
                                  request_serializer=type(request).SerializeToString,
                                  response_deserializer=response_type.FromString)
        return rpc(request, metadata=(("authorization", f"Bearer {token}"),), timeout=30)


def start(address, admin, bots, **fields):
    request = pb.StartMatchRequest(game="schotten-totten", bots=bots, **fields)
    request.time_control.max_per_decision_ms = 120_000  # nobody times out during the test
    return unary(address, "StartMatch", request, pb.StartMatchResponse, admin).match_id


@pytest.mark.parametrize("split", [[], ["--match-workers", "1"]], ids=["in-process", "split"])
def test_sigterm_lets_running_matches_finish_then_ends_the_rest_as_shutdown(tmp_path, split):
    data = tmp_path / "data"
    tokens = TokenRegistry(data / "tokens.json")
    admin, quick, stuck, late = (tokens.add(n, admin=n == "ops") for n in ("ops", "quick", "stuck", "late"))
    server = subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data),
         "--drain-s", "4", *split],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    clients = []
    try:
        line = server.stdout.readline()
        assert "listening on" in line, server.stderr.read()
        address = line.split()[-1]
        # `quick` waits at its first decision until the signal is sent, then answers at once:
        # its match ends by the rules within the drain time. `stuck` never answers: its match is
        # still running when the drain time is up.
        go = threading.Event()
        quick_client, stuck_client = RawClient(address, quick), RawClient(address, stuck)
        clients.extend((quick_client, stuck_client))
        seen = {"quick": [], "stuck": []}

        def play(client, name, answer):
            while (msg := client.next(timeout=60)) is not None:
                seen[name].append(msg)
                if answer and msg.WhichOneof("body") == "decision":
                    go.wait(60)
                    client.choose(msg.decision, 0)

        threads = [threading.Thread(target=play, args=(quick_client, "quick", True), daemon=True),
                   threading.Thread(target=play, args=(stuck_client, "stuck", False), daemon=True)]
        for t in threads:
            t.start()
        finishing = start(address, admin, ["remote:quick", "greedy"])
        cut = start(address, admin, ["greedy", "remote:stuck"])
        deadline = time.monotonic() + 30
        while not all(any(m.WhichOneof("body") == "decision" for m in seen[n]) for n in seen):
            assert time.monotonic() < deadline, "the matches did not start"
            time.sleep(0.05)

        server.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        # draining: no new session, no new match
        newcomer = RawClient(address, late)
        clients.append(newcomer)
        assert newcomer.next(timeout=10) is None
        assert newcomer.status.code() == grpc.StatusCode.UNAVAILABLE and "shutting down" in newcomer.status.details()
        try:
            start(address, admin, ["greedy", "random"])
            raise AssertionError("a match was started while the server drained")
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.UNAVAILABLE
        go.set()  # now `quick` plays its match out
        assert server.wait(30) == 0
        stderr = server.stderr.read()
        for t in threads:
            t.join(10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for client in clients:
            client.close()  # a RawClient left open blocks the garbage collector's grpc finalizer

    def ended(name):
        return [m.match_ended for m in seen[name] if m.WhichOneof("body") == "match_ended"]

    (normal,) = ended("quick")
    assert normal.match_id == finishing and normal.termination not in ("shutdown", "error") and normal.role == "p1"
    (shut,) = ended("stuck")
    assert (shut.match_id, shut.termination, shut.role, shut.winner) == (cut, "shutdown", "p2", "")
    assert [s.score for s in shut.scores] == [0.0, 0.0]
    # both streams then ended with status OK (not UNAVAILABLE), after Error{SHUTTING_DOWN}
    assert quick_client.status is None and stuck_client.status is None
    for name in seen:
        codes = [m.error.code for m in seen[name] if m.WhichOneof("body") == "error"]
        assert codes[-1:] == [pb.ERROR_CODE_SHUTTING_DOWN], (name, codes)
    assert "shutting down" in stderr
    record = (data / "records" / f"{cut}.jsonl").read_text().splitlines()
    assert json.loads(record[-1])["termination"] == "shutdown"

    # after a restart: listed, with its record, left out of the standings; the ledger verifies
    assert verify_folder(data).lines == 2
    again = ServerThread(data).start()
    try:
        listing = {s.match_id: s for s in again.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse).matches}
        assert listing[cut].result.termination == "shutdown" and listing[cut].status == pb.MATCH_STATUS_FINISHED
        assert listing[finishing].result.termination == normal.termination
        assert json.loads(again.record(cut).splitlines()[-1])["termination"] == "shutdown"
        standings = again.call("GetStandings", pb.GetStandingsRequest(), pb.GetStandingsResponse).standings
        assert {s.bot: s.played for s in standings} == {"remote:quick": 1, "greedy": 1}
    finally:
        again.stop()


def test_a_second_signal_ends_the_drain_at_once(tmp_path):
    data = tmp_path / "data"
    tokens = TokenRegistry(data / "tokens.json")
    admin, stuck = tokens.add("ops", admin=True), tokens.add("stuck")
    server = subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data),
         "--drain-s", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    client = None
    try:
        line = server.stdout.readline()
        assert "listening on" in line, server.stderr.read()
        address = line.split()[-1]
        client = RawClient(address, stuck)
        match_id = start(address, admin, ["greedy", "remote:stuck"])
        assert client.next("decision", timeout=30) is not None
        server.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert server.poll() is None  # draining for up to 600 s...
        server.send_signal(signal.SIGINT)  # ...until asked again
        assert server.wait(30) == 0
        assert client.next("match_ended", timeout=10).match_ended.termination == "shutdown"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if client is not None:
            client.close()
    assert json.loads((data / "records" / f"{match_id}.jsonl").read_text().splitlines()[-1])["termination"] == "shutdown"


def test_an_edited_ledger_is_caught_by_verify_and_by_a_start_that_reads_the_line(tmp_path):
    """A start checks only the ledger lines written since its index's last point (docs/storage.md);
    `standoff verify` checks them all. An earlier line edited is caught by verify, and by a start
    that reads it: here one whose index is gone (filled again from the files, every line checked)."""
    data = tmp_path / "data"
    server = ServerThread(data).start()
    try:
        server.start_match(["greedy", "random"], wait=True)
        server.start_match(["greedy", "random"], wait=True)
    finally:
        server.stop()
    ledger = data / "matches.jsonl"
    lines = ledger.read_text().splitlines()
    first = json.loads(lines[0])
    first["winner"] = "p2" if first["winner"] == "p1" else "p1"
    lines[0] = json.dumps(first, sort_keys=True)
    ledger.write_text("\n".join(lines) + "\n")
    check = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "verify", str(data)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 1 and "line 1" in check.stderr
    (data / "index.sqlite").unlink()
    run = subprocess.run(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data)],
        capture_output=True, text=True, timeout=60,
    )
    errors = [line for line in run.stderr.splitlines() if line.startswith("standoff:")]
    assert run.returncode == 2 and len(errors) == 1 and "matches.jsonl: line 1" in errors[0], run.stderr
