"""The long soak: 10,000 random full games, no crash, no dead end, and the independent oracle of
hidden information and card conservation (tests/kits/oracles.py) clean on every state; then 1,000
games of the DEFCON-safe policy, which reach the Late War, under the same oracle. Marked slow:
they run with STANDOFF_LONG=1. CI runs a 20-game smoke test of the script and the conformance
suite's deep games (tests/test_conformance.py) instead. Figures: docs/conformance.md."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOAK = ROOT / "scripts" / "ts_soak.py"


def _soak(*args: str, timeout: float) -> str:
    out = subprocess.run([sys.executable, str(SOAK), *args], capture_output=True, text=True, timeout=timeout)
    print(out.stdout)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert re.search(r"oracle: \d+ states, .* 0 violations", out.stdout), out.stdout[-3000:]
    return out.stdout


def test_the_soak_script_runs_the_oracle():
    stdout = _soak("20", "--oracle", timeout=600)
    assert "20 random games to turn 10: 20 finished, 0 crashes, 0 dead ends" in stdout


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("STANDOFF_LONG") != "1", reason="long run: set STANDOFF_LONG=1")
def test_ten_thousand_random_full_games():
    _soak("10000", "--oracle", timeout=3 * 3600)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("STANDOFF_LONG") != "1", reason="long run: set STANDOFF_LONG=1")
def test_a_thousand_games_that_reach_the_late_war():
    stdout = _soak("1000", "--oracle", "--policy", "safe", timeout=3 * 3600)
    assert "1000 safe games to turn 10: 1000 finished" in stdout
