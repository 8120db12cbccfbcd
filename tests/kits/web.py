"""Test kit for the web face (standoff.tournaments.web): a referee server with its web face on
real loopback sockets, a remote seat the test plays at its own pace (a match stays mid-game for
as long as a test needs), and small HTTP helpers (httpx; server-sent events read as a stream)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import httpx
from kits.server import RawClient, ServerThread

from standoff.tournaments.web import referee_beside
from standoff.tournaments.web_http import bind_http


def web_server(data_dir: Path, **kwargs) -> tuple[ServerThread, str]:
    """A started referee server with its web face; (server, base URL ending in /)."""
    beside = referee_beside(bind_http("127.0.0.1:0"))
    server = ServerThread(data_dir, beside=beside, **kwargs).start()
    return server, beside.url


def patient() -> dict:
    """``start_match`` fields for a match whose remote seat the test holds mid-game as long as it
    needs (ten minutes a decision; the default limit is 30 s)."""
    from standoff.v1 import referee_pb2 as pb

    return {"time_control": pb.TimeControl(max_per_decision_ms=600_000)}


def get(url: str, **params) -> httpx.Response:
    return httpx.get(url, params=params or None, timeout=30)


def first_events(url: str, count: int, timeout: float = 30, into: list | None = None) -> list[tuple[str, dict]]:
    """The first ``count`` server-sent events of ``url`` as (event name, data), appended to
    ``into`` (a list another thread may watch) as they come."""
    events: list[tuple[str, dict]] = into if into is not None else []
    name = data = None
    deadline = time.monotonic() + timeout
    with httpx.stream("GET", url, timeout=timeout) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "" and name is not None:
                events.append((name, data))
                name = data = None
                if len(events) >= count or time.monotonic() > deadline:
                    break
    return events


class PacedSeat:
    """A remote bot the test plays: it answers decisions only when told to (at random, seeded)."""

    def __init__(self, server: ServerThread | None, name: str, seed: int = 0, *, address: str = "",
                 token: str = "") -> None:
        """A seat of ``server`` as bot ``name``; or of the referee at ``address``, with ``token``."""
        if server is not None:
            address, token = server.address, server.tokens.mint_ephemeral(name)
        self.client = RawClient(address, token)
        self.client.next("welcome")
        self.rng = random.Random(seed)
        self.answered = 0
        self.ended = False
        self.pending = None  # a decision held back (wait_for_decision): the match waits on it

    def play(self, decisions: int, timeout: float = 60) -> int:
        """Answer up to ``decisions`` of its decisions (fewer if a match ends: :attr:`ended`);
        how many."""
        done = 0
        self.ended = False
        if self.pending is not None and decisions > 0:
            self.client.choose(self.pending, self.rng.randrange(len(self.pending.options)))
            self.pending, done = None, 1
            self.answered += 1
        while done < decisions and not self.ended:
            message = self.client.next(timeout=timeout)
            if message is None:  # the session ended (a tournament over)
                self.ended = True
                break
            kind = message.WhichOneof("body")
            if kind == "decision":
                self.client.choose(message.decision, self.rng.randrange(len(message.decision.options)))
                done += 1
                self.answered += 1
            elif kind == "match_ended":
                self.ended = True
        return done

    def wait_for_decision(self, timeout: float = 60, *, next_match: bool = False):
        """The next decision asked, held back (:attr:`pending`: the match waits on it); None if
        the match ended instead (``next_match``: a decision of the bot's next match, None only
        when its session ended)."""
        if self.pending is not None:
            return self.pending
        while True:
            message = self.client.next(timeout=timeout)
            if message is None:
                return None
            if message.WhichOneof("body") == "decision":
                self.pending = message.decision
                return message.decision
            if message.WhichOneof("body") == "match_ended":
                self.ended = True
                if not next_match:
                    return None

    def finish(self) -> None:
        """Play the current match to its end."""
        self.play(100_000)

    def close(self) -> None:
        self.client.close()


def read_events(url: str, count: int, timeout: float = 60) -> tuple[list, object]:
    """Read the first ``count`` events of ``url`` in a thread: (the list they go to, the thread)."""
    import threading

    events: list = []
    thread = threading.Thread(target=first_events, args=(url, count, timeout, events), daemon=True)
    thread.start()
    return events, thread


def wait_until(check, timeout: float = 30, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out waiting")
