"""A tournament served in a thread, for tests whose remote entrants connect to its referee."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from standoff.tournaments.config import load_config
from standoff.tournaments.runner import run_tournament


def serve_tournament(path: Path, tokens: Any, wait_s: float = 30) -> tuple[threading.Thread, dict, str]:
    """Run the tournament of config ``path`` in a daemon thread with ``tokens``; once its referee
    listens, return the thread, the box its summary goes to (``box["summary"]``) and the address."""
    address, ready, box = {}, threading.Event(), {}

    def announce(value: str) -> None:
        address["value"] = value
        ready.set()

    runner = threading.Thread(target=lambda: box.setdefault("summary", run_tournament(
        load_config(path), tokens=tokens, announce=announce)), daemon=True)
    runner.start()
    assert ready.wait(wait_s), "the tournament's referee did not start"
    return runner, box, address["value"]
