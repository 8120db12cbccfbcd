"""Soak: many concurrent matches of remote SDK bots against `standoff serve` (scripts/soak.py).

CI runs 20 matches in flight for 20 s; STANDOFF_LONG=1 adds the documented run (100 matches in
flight for 180 s, the figures in docs/reliability.md)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from kits.reliability import LONG, REPO, report


def run_soak(tmp_path, matches: int, seconds: float) -> dict:
    out = tmp_path / "soak.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "soak.py"), "--matches", str(matches), "--seconds", str(seconds),
         "--json", str(out), "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, timeout=seconds + 240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    print(done.stdout)
    return json.loads(out.read_text())


def check(result: dict, matches: int) -> None:
    # Every match finished normally; the drain left nothing behind.
    assert result["bot_process_exits"] == {}, "a bot process died during the soak"
    assert result["rpc_errors"] == {} and result["undrained_drivers"] == 0
    assert result["matches_unfinished_records"] == 0
    assert result["matches_finished"] >= 2 * matches
    assert set(result["terminations"]) <= {"envelopment", "breakthrough", "stalemate", "decision_cap"}
    # ...without a single fault, and without a time loss caused by the referee.
    assert result["faults"] == {} and result["time_losses"] == 0
    # The matches really were in flight together.
    assert result["in_flight_max"] == matches and result["in_flight_median"] >= 0.9 * matches
    # Memory stays bounded: no growth per match beyond start-up and caches.
    assert result["rss_kb_end"] - result["rss_kb_start"] < 64 * 1024
    assert result["rss_kb_peak"] < 256 * 1024


def test_soak_bounded(tmp_path):
    matches, seconds = 20, 20
    result = run_soak(tmp_path, matches, seconds)
    check(result, matches)
    report("soak", **{k: v for k, v in result.items() if k != "rss_kb_over_time"})


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set STANDOFF_LONG=1")
def test_soak_long(tmp_path):
    matches, seconds = 100, 180
    result = run_soak(tmp_path, matches, seconds)
    check(result, matches)
    report("soak_long", **{k: v for k, v in result.items() if k != "rss_kb_over_time"})
