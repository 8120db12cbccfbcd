"""Chaos bots against a live referee: each misbehaviour gets its configured outcome, the fault is
counted (in MatchEnded and in the record), healthy matches alongside complete normally, and the
server stays up. The chaos bots are separate processes (``python -m tests.reliability.chaos``),
so a crash is a real process death."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from kits.reliability import REPO, CapturedLogs, LimitedServer, report

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread
from standoff.server.core.record import parse_record, replay
from standoff.server.games import get_game
from standoff.server.rpc import Limits
from standoff.v1 import referee_pb2 as pb

FORFEIT, RANDOM = pb.FAULT_POLICY_FORFEIT, pb.FAULT_POLICY_RANDOM
ST = get_game("schotten-totten")


class SlowRandom(RandomBot):
    """A healthy bot that thinks 5 ms a decision (so that its matches are still running while
    the chaos goes on)."""

    name = "slow-random"

    def choose(self, decision, view):
        time.sleep(0.005)
        return super().choose(decision, view)


#: kind -> (fault policy, max ms per decision, extra chaos arguments)
SCENARIOS = {
    "crash": (FORFEIT, 0, ()),
    "hang": (FORFEIT, 300, ()),
    "late": (RANDOM, 300, ("--late-ms", "450", "--count", "3")),
    "flood": (FORFEIT, 0, ("--count", "20000")),
    "garbage": (FORFEIT, 0, ()),
    "malformed": (RANDOM, 0, ("--count", "3")),
    "replay": (RANDOM, 0, ()),
    "other-seat": (RANDOM, 0, ()),
    "reconnect-storm": (FORFEIT, 0, ("--count", "20")),
    "sessions": (FORFEIT, 0, ("--count", "10")),
}


def faults_of(summary: pb.MatchSummary) -> dict[tuple[str, str], int]:
    return {(f.role, f.kind): f.count for f in summary.result.faults}


def record_of(srv, match_id):
    return parse_record(srv.record(match_id).splitlines())


def test_chaos_bots_get_their_outcome_and_healthy_matches_play_on(tmp_path):
    logs = CapturedLogs()
    # 4 sessions per bot (the default); 1,000 messages/s (burst 2,000) per bot: 5x what the
    # healthy bots here send, so that the flood (20,000 envelopes at once) is cut.
    srv = LimitedServer(tmp_path, grace_s=1.0, limits=Limits(4, 1000.0, 2000)).start()
    procs = {}
    try:
        healthy_a, healthy_b = srv.tokens.add("healthy-a"), srv.tokens.add("healthy-b")
        thread_a, box_a = run_in_thread(SlowRandom(1), srv.address, healthy_a, matches=3)
        thread_b, box_b = run_in_thread(RandomBot(2), srv.address, healthy_b, matches=3)
        healthy = [srv.start_match(["remote:healthy-a", "remote:healthy-b"], seed=100,
                                   connect_timeout_ms=30_000).match_id]
        started = time.monotonic()
        for kind, (_, _, extra) in SCENARIOS.items():
            token = srv.tokens.add(f"chaos-{kind}")
            if kind == "other-seat":
                extra = (*extra, "--foreign-match", healthy[0])
            procs[kind] = subprocess.Popen(
                [sys.executable, "-m", "tests.reliability.chaos", kind, "--address", srv.address, "--token", token,
                 "--seconds", "90", *extra],
                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
        chaos_ids = {}
        for number, (kind, (policy, max_ms, _)) in enumerate(SCENARIOS.items()):
            chaos_ids[kind] = srv.start_match(
                [f"remote:chaos-{kind}", "random"], seed=200 + number, fault_policy=policy,
                time_control=pb.TimeControl(max_per_decision_ms=max_ms), connect_timeout_ms=60_000,
            ).match_id
        healthy += [srv.start_match(["remote:healthy-a", "remote:healthy-b"], seed=s, connect_timeout_ms=30_000).match_id
                    for s in (101, 102)]
        healthy.append(srv.start_match(["greedy", "random"], seed=103).match_id)
        summaries = {kind: srv.wait_finished(mid, timeout=90) for kind, mid in chaos_ids.items()}
        healthy_summaries = [srv.wait_finished(mid, timeout=90) for mid in healthy]
        seen = {}
        for kind, proc in procs.items():
            out, err = proc.communicate(timeout=90)
            lines = [line for line in out.splitlines() if line.startswith("{")]
            assert lines, f"{kind}: no summary (exit {proc.returncode}): {err[-2000:]}"
            seen[kind] = json.loads(lines[-1])
        thread_a.join(30), thread_b.join(30)
        elapsed = time.monotonic() - started

        # -- each misbehaviour: its outcome and its counted fault -------------------------------
        got = {kind: (s.result.termination, faults_of(s)) for kind, s in summaries.items()}
        assert got["crash"] == ("forfeit", {("p1", "disconnect"): 1}), got["crash"]
        assert procs["crash"].returncode == 17
        assert got["hang"] == ("forfeit", {("p1", "timeout"): 1}), got["hang"]
        termination, late = got["late"]
        # 3 answers 450 ms late against 300 ms: 3 timeouts (on a loaded machine the decision after
        # a late one may run out too); each late answer, when it comes, is refused as stale.
        assert termination != "forfeit" and 3 <= late[("p1", "timeout")] <= 9, got["late"]
        assert set(late) <= {("p1", "timeout"), ("p1", "stale_decision")}
        assert late.get(("p1", "stale_decision"), 0) <= late[("p1", "timeout")]
        termination, flood = got["flood"]
        assert termination == "forfeit" and flood and set(flood) <= {
            ("p1", "protocol_error"), ("p1", "disconnect"), ("p1", "stale_decision")}, got["flood"]
        assert "RESOURCE_EXHAUSTED" in seen["flood"]["statuses"], seen["flood"]
        assert got["garbage"] == ("forfeit", {("p1", "disconnect"): 1}), got["garbage"]
        assert seen["garbage"]["statuses"] and "OK" not in seen["garbage"]["statuses"]
        termination, malformed = got["malformed"]
        # Each malformed envelope costs its decision (substituted); the answer that followed it
        # then arrives for a decision already taken, and is refused as stale.
        assert termination != "forfeit" and malformed[("p1", "protocol_error")] == 3, got["malformed"]
        assert malformed.get(("p1", "stale_decision"), 0) <= 3
        # each: refused when read, then reported again as the fault of the decision it cost
        assert seen["malformed"]["errors"]["ERROR_CODE_PROTOCOL"] == 2 * 3
        termination, replayed = got["replay"]
        assert termination != "forfeit"
        assert replayed == {("p1", "stale_decision"): seen["replay"]["sent"]["replay"]} and replayed[("p1", "stale_decision")] > 10
        termination, other = got["other-seat"]
        assert termination != "forfeit"
        assert other == {("p1", "stale_decision"): seen["other-seat"]["sent"]["other-seat"]}
        assert seen["other-seat"]["sent"]["foreign-match"] > 10
        foreign_errors = seen["other-seat"]["errors"]
        # answers for a match it has no seat in: refused (while running), or "the match is over"
        assert foreign_errors.get("ERROR_CODE_NOT_YOUR_MATCH", 0) + foreign_errors.get("ERROR_CODE_STALE_DECISION", 0) \
            >= seen["other-seat"]["sent"]["foreign-match"]
        assert got["reconnect-storm"][0] != "forfeit" and got["reconnect-storm"][1] == {}, got["reconnect-storm"]
        assert seen["reconnect-storm"]["sent"]["reconnect"] == 20
        assert seen["reconnect-storm"]["refused"] == 8 - 3  # one live session + 3 more = the limit of 4
        assert got["sessions"][0] != "forfeit" and got["sessions"][1] == {}, got["sessions"]
        assert seen["sessions"]["refused"] == 10 - 4
        # The random seat never pays for its opponent's faults.
        for kind, (_, counted) in got.items():
            assert all(role == "p1" for role, _ in counted), (kind, counted)
        # Records hold the same counts as the summaries.
        for kind, match_id in chaos_ids.items():
            footer = record_of(srv, match_id).footer
            counted = {(r, k): n for r, kinds in footer["faults"].items() for k, n in kinds.items()}
            assert counted == got[kind][1], kind

        # -- healthy matches alongside: complete, no faults, replayable --------------------------
        for summary in healthy_summaries:
            assert summary.result.termination not in ("forfeit", "aborted", "not_played"), summary
            assert faults_of(summary) == {}
            record = record_of(srv, summary.match_id)
            assert ST.outcome(replay(ST, record)).termination == summary.result.termination
        assert len(box_a) == 3 and len(box_b) == 3 and all(not isinstance(r, BaseException) for r in box_a + box_b)

        # -- the server is still up, and no referee bug was caught on the way --------------------
        assert srv.start_match(["random", "random"], wait=True).summary.result.termination != "forfeit"
        assert logs.errors() == []
        report("chaos", kinds=len(SCENARIOS), seconds=round(elapsed, 1),
               outcomes={k: [t, {f"{r}:{n}": c for (r, n), c in f.items()}] for k, (t, f) in got.items()})
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        srv.stop()
        logs.restore()


@pytest.mark.parametrize("kind", ["crash", "hang"])
def test_chaos_bot_runs_by_hand_and_explains_itself(kind):
    """The module's command line (what a person runs) knows every kind."""
    out = subprocess.run([sys.executable, "-m", "tests.reliability.chaos", "--help"], cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and kind in out.stdout and "reconnect-storm" in out.stdout
