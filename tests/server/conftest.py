"""Fixtures for the server tests (helpers live in tests/serverkit.py)."""

from __future__ import annotations

import pytest
from serverkit import ServerThread



@pytest.fixture
def server(tmp_path):
    srv = ServerThread(tmp_path).start()
    yield srv
    srv.stop()
