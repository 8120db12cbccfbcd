"""Crash safety: SIGKILL the tournament runner and the referee server at random points.

* Tournament: a ``standoff tournament`` process is killed at 25 random points (20 at different
  numbers of results written, 5 during start-up or resume; half of them kill the whole process
  group like a machine crash, half only the coordinator: its workers must die with it), checked
  after every kill, then run to completion. No completed match is lost or counted twice, every result has a complete record
  whose outcome line matches it, and results, Elo log and ratings are byte-identical to an
  uninterrupted run's.
* Server: ``standoff serve`` is killed while matches (in-process and remote SDK bots) are being
  played, and restarted on the same data dir: every match a client was told had finished is still
  listed with its record, a record cut by the kill has no outcome line and is never listed as
  finished, and the tokens file is intact.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from kits.reliability import LONG, ServeProcess, free_port, report

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.server.core.record import parse_record, replay
from standoff.server.games import get_game
from standoff.tournaments.config import load_config
from standoff.tournaments.runner import run_tournament
from standoff.v1 import referee_pb2 as pb

OUTPUTS = ("results.jsonl", "elo.jsonl", "ratings.json")


def write_config(folder: Path, matches: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "crash.toml"
    path.write_text(
        'name = "crash"\ngame = "schotten-totten"\n'
        f'output_dir = "{folder / "runs"}"\nentrants = ["greedy", "random"]\ngames_per_pairing = {matches}\n'
        "master_seed = 1\n"  # explicit: the resumed run is compared with an uninterrupted one
    )
    return path


def complete_lines(path: Path) -> list[dict]:
    """The complete lines of a JSONL file (a torn last line, cut by a kill, is left out)."""
    if not path.exists():
        return []
    data = path.read_bytes()
    body = data if data.endswith(b"\n") else data[: data.rfind(b"\n") + 1]
    return [json.loads(line) for line in body.decode().splitlines() if line.strip()]


def count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def session_processes(sid: int) -> list[int]:
    """Live processes of session ``sid`` (Linux /proc; zombies count as gone)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after "pid (comm) ": state, ppid, pgrp, session
        if fields[0] != "Z" and int(fields[3]) == sid:
            pids.append(int(entry.name))
    return pids


def wait_gone(sid: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := session_processes(sid)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def check_run_folder(run: Path, game) -> int:
    """Invariants that hold after a kill at any moment; returns the number of results."""
    results = complete_lines(run / "results.jsonl")
    ids = [r["match_id"] for r in results]
    assert len(ids) == len(set(ids)), "a match counted twice"
    assert [r["index"] for r in results] == list(range(len(results))), "results.jsonl is not a canonical prefix"
    for result in results:  # every result has a complete record whose outcome matches it
        path = run / "records" / f"{result['match_id']}.jsonl"
        text = path.read_text()
        assert text.endswith("\n"), f"{path.name}: record not complete"
        record = parse_record(text.splitlines())
        footer = record.footer
        assert footer is not None, f"{path.name}: no outcome line"
        assert footer["winner"] == result["winner_role"]
        assert footer["termination"] == result["termination"]
        assert footer["scores"] == result["scores"]
    return len(results)


def test_tournament_killed_at_random_points_resumes_exactly(tmp_path):
    _tournament_kills(tmp_path, kills=25, matches=200, seed=11)


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set STANDOFF_LONG=1")
def test_tournament_killed_many_times_long(tmp_path):
    _tournament_kills(tmp_path, kills=100, matches=800, seed=12)


def _tournament_kills(tmp_path: Path, *, kills: int, matches: int, seed: int) -> None:
    game = get_game("schotten-totten")
    reference = run_tournament(load_config(write_config(tmp_path / "ref", matches)))
    path = write_config(tmp_path / "killed", matches)
    run = tmp_path / "killed" / "runs" / "crash"
    command = [sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(path)]
    rng = random.Random(seed)
    # Most kills come once more results are written than at the kill before (so that each lands
    # at a different count); one in five at a random moment of start-up or resume. The step to the
    # next count kill is drawn from what is left to write, so the kills spread over the whole run
    # however fast this machine writes results (a fixed 1-3 ran out of matches on a fast one).
    schedule: list[tuple[str, float]] = [("count", 0.0) for _ in range(kills - kills // 5)]
    for _ in range(kills // 5):
        schedule.insert(rng.randrange(len(schedule) + 1), ("time", rng.uniform(0.05, 0.6)))
    points = []
    kill_times: list[float] = []
    overshoot = 0  # the most results written past a count kill's target so far
    started = time.monotonic()
    for number, (how, value) in enumerate(schedule):
        if how == "count":
            written = len(complete_lines(run / "results.jsonl"))
            left = sum(1 for h, _ in schedule[number:] if h == "count")
            # Results are written in batches, so a kill lands up to a batch past its target: keep
            # that much room per kill still to come, or the run would end before the last kills.
            room = matches - 1 - written - (overshoot + 1) * left
            step = max(1, room // (left + 1))
            value = float(min(matches - 1, written + rng.randint(1, max(1, 2 * step - 1))))
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        spawned = time.monotonic()
        deadline = spawned + 60
        while time.monotonic() < deadline and process.poll() is None:
            if how == "time" and time.monotonic() - spawned >= value:
                break
            if how == "count" and count_lines(run / "results.jsonl") >= value:
                time.sleep(rng.uniform(0, 0.03))  # land anywhere, mid-write included
                break
            time.sleep(0.005)
        group = number % 2 == 0
        if process.poll() is None:
            if group:
                os.killpg(process.pid, signal.SIGKILL)  # the coordinator and its workers at once
            else:
                process.send_signal(signal.SIGKILL)  # the coordinator only; workers see EOF
        process.wait(30)
        kill_times.append(time.monotonic() - spawned)
        if sys.platform.startswith("linux"):
            # Workers die with their coordinator: none is left to write a record the resumed run
            # writes too (the session holds the coordinator and its workers, nothing else).
            assert not wait_gone(process.pid, 5.0), "a worker outlived its coordinator"
        written = check_run_folder(run, game)
        if how == "count":
            overshoot = max(overshoot, written - int(value))
        points.append({"how": how, "at": round(value, 3), "group": group, "results": written})
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    elapsed = time.monotonic() - started
    assert check_run_folder(run, game) == matches
    for name in OUTPUTS:
        assert (run / name).read_bytes() == (reference.run_dir / name).read_bytes(), name
    results = complete_lines(run / "results.jsonl")
    assert sorted(p.stem for p in (run / "records").glob("*.jsonl")) == sorted(r["match_id"] for r in results)
    for result in results:  # and every record replays to its outcome
        record = parse_record((run / "records" / f"{result['match_id']}.jsonl").read_text().splitlines())
        assert game.outcome(replay(game, record)).termination == result["termination"]
    counts = [p["results"] for p in points]
    assert len(points) == kills and len({p["results"] for p in points if p["how"] == "count"}) == kills - kills // 5, points
    report("tournament_kills", kill_points=len(points), distinct_result_counts=len(set(counts)), matches=matches,
           seconds=round(elapsed, 1), group_kills=sum(p["group"] for p in points),
           mean_s_per_incarnation=round(sum(kill_times) / len(kill_times), 2))


# -- the server ---------------------------------------------------------------------------------------


class SlowRandom(RandomBot):
    name = "slow-random"

    def choose(self, decision, view):
        time.sleep(0.003)
        return super().choose(decision, view)


def test_server_killed_during_matches_keeps_finished_records(tmp_path):
    _server_kills(tmp_path, cycles=30 if LONG else 8, seed=5)


def _server_kills(tmp_path: Path, *, cycles: int, seed: int) -> None:
    games = {"schotten-totten": get_game("schotten-totten")}
    registry = TokenRegistry(tmp_path / "tokens.json")
    admin = registry.add("admin", admin=True)
    alice, bob = registry.add("alice"), registry.add("bob")
    registry.revoke("bob")
    bob = registry.add("bob")  # (a replaced token too)
    tokens_before = (tmp_path / "tokens.json").read_bytes()
    port = free_port()
    rng = random.Random(seed)
    acknowledged: dict[str, str] = {}  # match id -> termination the client was told
    bots = [run_in_thread(SlowRandom(1), f"127.0.0.1:{port}", alice, max_retries=1000),
            run_in_thread(SlowRandom(2), f"127.0.0.1:{port}", bob, max_retries=1000)]
    partial_seen = 0
    verified: set[str] = set()  # complete records already replayed (a complete record never changes)
    started = time.monotonic()
    srv = None
    try:
        for cycle in range(cycles + 1):
            srv = ServeProcess(tmp_path, admin, port=port)
            # After a restart: what was acknowledged is there, listed, and replays.
            listed = {m.match_id: m for m in srv.matches(pb.MATCH_STATUS_FINISHED)}
            missing = set(acknowledged) - set(listed)
            assert not missing, f"acknowledged matches lost after kill {cycle}: {missing}"
            for match_id, termination in acknowledged.items():
                assert listed[match_id].result.termination == termination
            partial_seen = max(partial_seen, _check_records(tmp_path, srv, listed, games, verified))
            if cycle == cycles:
                break
            stop = threading.Event()

            def drive(bots_: list[str], srv=srv, stop=stop) -> None:
                while not stop.is_set():
                    try:
                        response = srv.start_match(bots_, wait=True, connect_timeout_ms=20_000)
                    except grpc.RpcError:
                        return  # the server is gone
                    if response.summary.status == pb.MATCH_STATUS_FINISHED:
                        acknowledged[response.match_id] = response.summary.result.termination

            drivers = [threading.Thread(target=drive, args=(b,), daemon=True)
                       for b in (["random", "random"], ["remote:alice", "remote:bob"], ["greedy", "remote:alice"])]
            for d in drivers:
                d.start()
            time.sleep(rng.uniform(0.4, 1.5))
            srv.kill()  # SIGKILL, mid-match
            stop.set()
            for d in drivers:
                d.join(30)
        assert (tmp_path / "tokens.json").read_bytes() == tokens_before, "the tokens file changed"
        for token, name in ((alice, "alice"), (bob, "bob"), (admin, "admin")):
            assert TokenRegistry(tmp_path / "tokens.json").verify(token).name == name
        # Remote bots reconnected to every incarnation and are still playing.
        response = srv.start_match(["remote:alice", "remote:bob"], wait=True, connect_timeout_ms=20_000)
        assert response.summary.result.termination not in ("not_played", "aborted")
        assert len(acknowledged) >= cycles
        report("server_kills", kill_points=cycles, acknowledged_matches=len(acknowledged),
               partial_records_at_some_point=partial_seen, seconds=round(time.monotonic() - started, 1))
    finally:
        if srv is not None:
            srv.stop()


def _check_records(data: Path, srv: ServeProcess, listed: dict, games: dict, verified: set[str]) -> int:
    """Every record on disk is either complete (outcome last, listed as finished, replays to
    that outcome) or cut by a kill (no outcome line, never listed, not served). Returns how many
    cut ones there are."""
    partial = 0
    for path in sorted((data / "records").glob("*.jsonl")):
        if path.stem in verified:
            assert path.stem in listed
            continue
        text = path.read_text()
        lines = text.splitlines()
        complete = text.endswith("\n")
        parsed = [json.loads(line) for line in (lines if complete else lines[:-1])]
        outcome = [i for i, line in enumerate(parsed) if line["type"] == "outcome"]
        if outcome:
            assert outcome == [len(parsed) - 1] and complete, f"{path.name}: outcome not last"
            assert path.stem in listed, f"{path.name}: finished but not listed"
            record = parse_record(lines)
            game = games[record.header["game"]]
            if record.footer["termination"] not in ("forfeit", "not_played", "aborted"):
                assert game.outcome(replay(game, record)).termination == record.footer["termination"]
            assert listed[path.stem].result.termination == record.footer["termination"]
            verified.add(path.stem)
        else:
            partial += 1
            assert path.stem not in listed, f"{path.name}: a cut record listed as finished"
            with pytest.raises(grpc.RpcError) as info:
                srv.call("GetMatchRecord", pb.GetMatchRecordRequest(match_id=path.stem), pb.GetMatchRecordResponse)
            assert info.value.code() == grpc.StatusCode.NOT_FOUND
    return partial


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_their_coordinator(tmp_path):
    """SIGKILL only the coordinator while its worker is stuck in a long decision (the ``hanger``
    test bot sleeps for an hour under a 10-minute clock): the worker must not live on."""
    config = tmp_path / "orphans.toml"
    config.write_text(
        f'name = "orphans"\ngame = "schotten-totten"\noutput_dir = "{tmp_path / "runs"}"\n'
        'entrants = ["hanger", "random"]\ngames_per_pairing = 2\nworkers = 1\n'
        "[time_control]\nmax_per_decision_ms = 600000\n"
    )
    env = {**os.environ, "STANDOFF_PLUGINS": "kits.fakebots",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(config)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while len(session_processes(process.pid)) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(1.0)  # the worker is inside the hanger's decision by now
        assert process.poll() is None, process.stderr.read().decode()
        workers = [pid for pid in session_processes(process.pid) if pid != process.pid]
        assert workers, "no worker process started"
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        assert not wait_gone(process.pid, 3.0), "a worker outlived its coordinator"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.stderr.close()


def test_a_worker_outlives_the_thread_that_started_it():
    """Regression: workers once used PR_SET_PDEATHSIG, which fires when the *thread* that forked
    them ends; trio starts processes from cached threads that end after 10 s idle, so workers
    were killed in the middle of long tournaments. Only the parent process's death counts."""
    box = []

    def start() -> None:
        box.append(subprocess.Popen([sys.executable, "-m", "standoff.tournaments.worker"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE))
        time.sleep(2.0)  # the thread lives until the worker is up and waiting for jobs

    starter = threading.Thread(target=start)
    starter.start()
    starter.join()
    worker = box[0]
    try:
        time.sleep(1.0)  # the thread is gone: PDEATHSIG would have fired at once
        assert worker.poll() is None, "the worker died with the thread that started it"
    finally:
        worker.stdin.close()  # EOF: the worker's normal end
        assert worker.wait(10) == 0
        worker.stdout.close()
