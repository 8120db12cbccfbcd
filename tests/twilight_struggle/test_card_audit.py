"""Every one of the 110 cards has an event function (The China Card excepted by design) and a
test that names it; docs/cards.md, the audit table, is current."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_card_has_an_event_and_a_test_and_the_table_is_current():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "card_audit.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
