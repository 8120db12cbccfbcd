"""Bot sessions as the referee sees them: one :class:`Session` per ``Play`` stream.

The referee speaks its own language here: a session it ends gets an :class:`Ending` (flooding,
an undecodable message, an unsupported protocol version...). Which gRPC status each one becomes is
decided at the gRPC edge (:mod:`.rpc`), the only module that knows gRPC. Outgoing messages go to
an :class:`Outbox` the edge provides (:class:`~.bridge.EagerWriter` there: each write starts at
once), as bytes serialised once,
deterministically.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Protocol

import trio

from standoff.v1 import referee_pb2 as pb

from .auth import Identity
from .bridge import Inbox
from .wire import serialize

PROTOCOL_VERSION = 1

#: Messages a session may have waiting to be sent before it counts as not reading (the stream is
#: then ended instead of growing the queue without bound).
OUT_LIMIT = 512
#: Answers a seat may have queued while its match does not ask it (a flood of choices or of
#: malformed envelopes mid-match): beyond this the session is ended as flooding.
SEAT_EVENTS_LIMIT = 64
#: Protocol errors logged per session (the rest are counted, and logged every LOG_EVERY-th).
LOG_FIRST, LOG_EVERY = 5, 1000

#: Put in a session's inbox by the gRPC reader where bytes that are no PlayRequest came: the
#: session handles what came before, then ends as :attr:`Ending.UNDECODABLE` (unless it ended
#: already).
UNDECODABLE = object()


class Ending(enum.Enum):
    """Why the referee (or the edge, for its own limits) ends a session with an error. A session
    ended without one (the server shutting down, a newer session taking over, the client leaving)
    ends normally."""

    FLOODING = "flooding"  # too many messages waiting to be handled, or answers for one seat
    NOT_READING = "not_reading"  # too many messages waiting to be sent
    RATE_LIMIT = "rate_limit"  # the token's message rate
    UNDECODABLE = "undecodable"  # bytes that are no PlayRequest
    UNSUPPORTED_VERSION = "unsupported_version"
    REVOKED = "revoked"  # the token stopped verifying
    REFEREE_ERROR = "referee_error"  # a bug while handling one of its messages


class Outbox(Protocol):
    """Where a session's outgoing messages wait for the edge to send them (``None`` = end)."""

    def put_nowait(self, item: bytes | None) -> None: ...

    def qsize(self) -> int: ...


def short(text: str, limit: int = 80) -> str:
    """A client-given string as it may appear in logs and echoed errors."""
    return text if len(text) <= limit else text[:limit] + f"...({len(text)} chars)"


@dataclass(eq=False)  # identity semantics: sessions are kept in sets
class Session:
    """One bot session (one ``Play`` stream)."""

    id: str
    identity: Identity
    inbox: Inbox
    out: Outbox  # bytes to send, or None to end the stream
    helloed: bool = False
    closed: bool = False
    games: tuple[str, ...] = ()
    #: ``Hello.max_concurrent_matches`` (0 = 1): the referee seats this session in at most that
    #: many matches at once; a further match waits for one of them to end
    max_matches: int = 1
    ending: tuple[Ending, str] | None = None  # why and with what details it was ended, if an error
    cancel: trio.CancelScope | None = None
    protocol_errors: int = 0
    #: (match id, decision id) of each decision this session was sent and had not answered when
    #: its match ended (a shutdown, most often): answers perhaps on their way. The edge waits a
    #: moment for them before it ends a stream normally, so that a bot which answers just too
    #: late has its write taken, not failed, and reads its ``MatchEnded``.
    late: set[tuple[str, int]] = field(default_factory=set)

    def send(self, message: pb.PlayResponse | bytes) -> None:
        if self.closed:
            return
        if self.out.qsize() >= OUT_LIMIT:
            # The client does not read what it is sent: end the stream rather than queue more.
            self.end(Ending.NOT_READING, f"more than {OUT_LIMIT} messages waiting to be sent: the client is not reading")
            return
        self.out.put_nowait(message if isinstance(message, bytes) else serialize(message))

    def end(self, ending: Ending | None = None, details: str = "") -> None:
        """End the stream (with ``ending`` unless it has one already); idempotent. Messages still
        waiting in the inbox are dropped: a session that is over does nothing more."""
        if ending is not None and self.ending is None:
            self.ending = (ending, details)
        if not self.closed:
            self.closed = True
            self.out.put_nowait(None)
        self.inbox.items.clear()
        self.inbox.close()

    def error(self, code: int, message: str, match_id: str = "", decision_id: int = 0) -> None:
        msg = pb.PlayResponse()
        msg.error.code = code
        msg.error.message = message
        msg.error.match_id = match_id
        msg.error.decision_id = decision_id
        self.send(msg)


def welcome_message(name: str, session_id: str, server_version: str, resumed: list[str]) -> pb.PlayResponse:
    welcome = pb.PlayResponse()
    welcome.welcome.protocol_version = PROTOCOL_VERSION
    welcome.welcome.bot_name = name
    welcome.welcome.session_id = session_id
    welcome.welcome.server_version = server_version
    welcome.welcome.resumed_match_ids.extend(resumed)
    return welcome


__all__ = [
    "Ending", "LOG_EVERY", "LOG_FIRST", "OUT_LIMIT", "Outbox", "PROTOCOL_VERSION", "SEAT_EVENTS_LIMIT",
    "Session", "UNDECODABLE", "short", "welcome_message",
]
