"""Fixtures for the reliability tests (helpers: reliakit.py, chaos.py, fuzzwire.py)."""

from __future__ import annotations

import pytest
from serverkit import ServerThread


@pytest.fixture
def server(tmp_path):
    srv = ServerThread(tmp_path).start()
    yield srv
    srv.stop()
