"""Fixtures for the server tests (helpers live in tests/kits/server.py)."""

from __future__ import annotations

import pytest
from kits.server import ServerThread



@pytest.fixture(params=["in-process", "split"])
def server(tmp_path, request):
    """A referee server; every test using it runs twice: matches played in the server's process,
    and a split referee (matches hosted in a worker process, the server only routing bytes)."""
    srv = ServerThread(tmp_path, match_workers=1 if request.param == "split" else 0).start()
    yield srv
    srv.stop()
