"""Fixtures for the server tests (helpers live in tests/kits/server.py)."""

from __future__ import annotations

import pytest
from kits.server import ServerThread



@pytest.fixture
def server(tmp_path):
    srv = ServerThread(tmp_path).start()
    yield srv
    srv.stop()
