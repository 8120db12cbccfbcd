"""Fixtures for the server tests (helpers live in tests/serverkit.py)."""

from __future__ import annotations

import pytest
from serverkit import ServerThread

from standoff.server.logs import configure_logging


@pytest.fixture(scope="session", autouse=True)
def _quiet_logs():
    import io

    configure_logging(json=True, level="warning", stream=io.StringIO())


@pytest.fixture
def server(tmp_path):
    srv = ServerThread(tmp_path).start()
    yield srv
    srv.stop()
