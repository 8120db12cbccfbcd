"""Golden playthroughs (tests/golden/) still come out the same: a rules change shows as a diff.
Regenerate with `python scripts/golden.py` when a change is intended, and review the diff."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_golden_playthroughs_are_unchanged():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "golden.py"), "--check"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
