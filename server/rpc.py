"""The gRPC side of the referee server: grpc.aio on asyncio, with the referee in trio.

``serve()`` is what ``standoff serve`` runs. The ``Play`` stream of each bot session only moves
bytes: incoming messages go into the session's bounded inbox (full = flooding = the stream ends
with RESOURCE_EXHAUSTED), outgoing messages are pre-serialised by the referee (deterministic
bytes) and written as they are.

Tokens are checked on every call against the token file as it is now (one ``stat`` per call), and a
watcher ends the open sessions of a token that stops verifying (revoked, removed or replaced) with
UNAUTHENTICATED. The server listens alone on its port (no SO_REUSEPORT): a second server on a port
in use fails to start with :class:`ServeError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import secrets
import shutil
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import structlog
import trio
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from standoff.v1 import referee_pb2 as pb

from .auth import DEFAULT_MAX_SESSIONS_PER_BOT, DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT, RegistryError, TokenRegistry
from .bridge import EagerWriter, Inbox, TrioBridge, guest_mode
from .faults import FORFEIT, TimeControl
from .host_pool import HostPool
from .match_store import MAX_PAGE, Filters, PageTokenError
from .referee import MatchError, Referee, ShuttingDown
from .sandbox import SOCKET_NAME, Sandbox, backend_problem, open_socket, private_socket_dir
from .sessions import UNDECODABLE, Ending, Session
from .storage import StorageError
from .verify import VerifyError

log = structlog.get_logger("standoff.rpc")

SERVICE = "standoff.v1.RefereeService"
MAX_RECEIVE_BYTES = 1 << 20  # bots send small messages; a larger one is hostile
MAX_SEND_BYTES = 16 << 20
SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
    ("grpc.max_send_message_length", MAX_SEND_BYTES),
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
    ("grpc.http2.max_pings_without_data", 0),
    # gRPC sets SO_REUSEPORT by default: a second server on the same port would start without error
    # and calls would land on either. One server per port (SO_REUSEADDR stays on: a restart right
    # after a stop or a crash binds again at once).
    ("grpc.so_reuseport", 0),
]
#: Seconds between two looks at the token file for open sessions whose token no longer verifies.
TOKEN_WATCH_INTERVAL_S = 0.25
#: Seconds a stream that ends normally (a shutdown) stays open for the answers its bot still owes:
#: decisions of matches that ended while it thought (``Session.late``). Each is read and dropped,
#: so that the bot's write is taken instead of failing (grpc.aio then drops what the bot had not
#: read yet: its ``MatchEnded``); the stream ends once they came, or after this time.
LATE_ANSWERS_S = 2.0
REVOKED = "token revoked"
#: The gRPC status of each way the referee (or this edge) ends a session with an error; a
#: session ended otherwise ends with status OK. The only place that maps them.
STATUS_OF_ENDING = {
    Ending.FLOODING: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Ending.NOT_READING: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Ending.RATE_LIMIT: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Ending.UNDECODABLE: grpc.StatusCode.INVALID_ARGUMENT,
    Ending.UNSUPPORTED_VERSION: grpc.StatusCode.FAILED_PRECONDITION,
    Ending.REVOKED: grpc.StatusCode.UNAUTHENTICATED,
    Ending.REFEREE_ERROR: grpc.StatusCode.INTERNAL,
}


#: A task started beside the referee (``start_server(beside=...)``): ``await beside(referee,
#: task_status=...)`` in trio, calling ``task_status.started()`` once it serves.
Beside = Callable[..., Any]


class ServeError(ValueError):
    """A server that cannot start as configured (bad address, plaintext on a public address...)."""


@dataclass
class TlsFiles:
    cert: Path
    key: Path
    client_ca: Path | None = None


def is_loopback(address: str) -> bool:
    host = address.rsplit(":", 1)[0].strip("[]")
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _token_from(context: grpc.aio.ServicerContext) -> str | None:
    """The bearer token of ``authorization: Bearer <token>`` (the scheme is case-insensitive,
    RFC 7235)."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; each message takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, max(1.0, burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        self._refill(time.monotonic())
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


@dataclass
class Limits:
    """What one identity (token) may use: open ``Play`` streams and messages per second."""

    max_sessions_per_bot: int = DEFAULT_MAX_SESSIONS_PER_BOT  # 0 = no limit
    rate_limit: float = DEFAULT_RATE_LIMIT  # messages/s, 0 = no limit
    rate_burst: int = DEFAULT_RATE_BURST


class RefereeServicer:
    def __init__(
        self, bridge: TrioBridge, referee: Referee, tokens: TokenRegistry, limits: Limits | None = None
    ) -> None:
        self.bridge = bridge
        self.referee = referee
        self.tokens = tokens
        self.limits = limits or Limits()
        self.open_sessions: dict[str, set[Session]] = {}  # identity name -> its Play streams
        self.session_tokens: dict[Session, str] = {}  # open Play stream -> digest of its token
        self.buckets: dict[str, TokenBucket] = {}  # identity name -> its rate limit
        self._pruned = time.monotonic()
        self._tokens_seen = tokens.generation
        self.streams: set[asyncio.Future] = set()  # the Play calls being handled

    # -- tokens that change while serving -------------------------------------------------------

    def refresh_tokens(self) -> None:
        """Take in a changed token file (one ``stat`` when unchanged), and end the open sessions
        whose token no longer verifies. Called before every call's check and by :meth:`watch_tokens`."""
        try:
            if self.tokens.refresh():
                gone = self.tokens.path is not None and not self.tokens.path.exists()
                log.info("token file changed", path=str(self.tokens.path), bots=len(self.tokens.names()),
                         deleted=gone)
        except RegistryError as exc:  # once per version of the file: keep the last good tokens
            log.error("token file unusable, keeping the tokens read before", error=str(exc))
        if self.tokens.generation != self._tokens_seen:
            self._tokens_seen = self.tokens.generation
            self._end_unverified_sessions()

    def _end_unverified_sessions(self) -> None:
        for name, sessions in list(self.open_sessions.items()):
            for session in list(sessions):
                if session.closed or session.identity.ephemeral:  # the server's own runners
                    continue
                digest = self.session_tokens.get(session)
                current = self.tokens.verify_digest(digest) if digest else None
                if current is None or current.name != name:
                    log.warning("ending session: its token no longer verifies", session=session.id, bot=name)
                    session.end(Ending.REVOKED, REVOKED)

    async def watch_tokens(self, interval: float = TOKEN_WATCH_INTERVAL_S) -> None:
        """Look at the token file every ``interval`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(interval)
            try:
                self.refresh_tokens()
            except Exception:  # noqa: BLE001 - a bug here must not stop the watching
                log.exception("token watch failed")

    def _bucket(self, name: str) -> TokenBucket | None:
        if self.limits.rate_limit <= 0:
            return None
        bucket = self.buckets.get(name)
        if bucket is None:
            now = time.monotonic()
            if now - self._pruned > 10.0:  # forget identities that are idle and back to a full bucket
                self._pruned = now
                for key in [k for k, b in self.buckets.items() if not self.open_sessions.get(k) and b.full(now)]:
                    del self.buckets[key]
            bucket = self.buckets[name] = TokenBucket(self.limits.rate_limit, self.limits.rate_burst)
        return bucket

    def _rate_exceeded(self, name: str) -> str:
        return (f"rate limit: {name} sent more than {self.limits.rate_limit:g} messages/s "
                f"(burst {self.limits.rate_burst})")

    def _check(self, context: grpc.aio.ServicerContext, *, admin: bool = False):
        """``(identity, None)``, or ``(None, (status, details))`` for a call to refuse."""
        self.refresh_tokens()  # a token added, revoked or replaced while serving counts at once
        identity = self.tokens.verify(_token_from(context))
        if identity is None:
            return None, (grpc.StatusCode.UNAUTHENTICATED, "missing, unknown or revoked bearer token")
        if admin and not identity.admin:
            return None, (grpc.StatusCode.PERMISSION_DENIED, f"{identity.name} is not an admin token")
        bucket = self._bucket(identity.name)
        if bucket is not None and not bucket.take():  # a call is one message too
            return None, (grpc.StatusCode.RESOURCE_EXHAUSTED, self._rate_exceeded(identity.name))
        return identity, None

    async def _identity(self, context: grpc.aio.ServicerContext, *, admin: bool = False):
        identity, refusal = self._check(context, admin=admin)
        if refusal is not None:
            await context.abort(*refusal)
        return identity

    @staticmethod
    async def _refuse_stream(request_iterator: Any, context: grpc.aio.ServicerContext, refusal) -> None:
        """Refuse a Play stream after its first message (at most 1 s): a client whose first write
        is still in flight when the stream ends sees grpc-aio's INTERNAL instead of the status."""
        try:
            await asyncio.wait_for(request_iterator.__anext__(), 1.0)
        except Exception:  # noqa: BLE001 - nothing came, or not a PlayRequest: refuse all the same
            pass
        await context.abort(*refusal)

    # -- the bot session ------------------------------------------------------------------------

    async def Play(self, request_iterator: Any, context: grpc.aio.ServicerContext):  # noqa: N802
        identity, refusal = self._check(context)
        if refusal is not None:
            await self._refuse_stream(request_iterator, context, refusal)
        name = identity.name
        if self.referee.draining and not self.referee.is_seated(name):
            # Shutting down: only a bot seated in a match still being played may (re)connect.
            await self._refuse_stream(request_iterator, context, (
                grpc.StatusCode.UNAVAILABLE, "the server is shutting down: no new sessions",
            ))
        limit = self.limits.max_sessions_per_bot
        if limit > 0:
            # A session superseded by a newer hello is closed at once, so it no longer counts:
            # a bot that reconnects is never refused because of the stream it left behind.
            live = sum(1 for s in self.open_sessions.get(name, ()) if not s.closed)
            if live >= limit:
                await self._refuse_stream(request_iterator, context, (
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"{name} already has {live} open sessions (limit {limit}, --max-sessions-per-bot)",
                ))
        mine = self.open_sessions.setdefault(name, set())
        session = Session(
            id=secrets.token_hex(6),
            identity=identity,
            inbox=Inbox(self.bridge, self.referee.inbox_limit),
            # Written from trio's match and session code at once (bridge.EagerWriter).
            out=EagerWriter(context.write, asyncio.get_running_loop()),
        )
        mine.add(session)
        self.session_tokens[session] = self.tokens.digest(_token_from(context) or "")
        bucket = self._bucket(name)
        self.bridge.call_soon(self.referee.open_session, session)
        stream = asyncio.current_task()
        self.streams.add(stream)

        async def read() -> None:
            try:
                # context.read() rather than request_iterator: the same reads without the two
                # coroutine layers the iterator wraps them in (on the path of every answer).
                while (message := await context.read()) is not grpc.aio.EOF:
                    if session.late and message.WhichOneof("body") == "choice":
                        session.late.discard((message.choice.match_id, message.choice.decision_id))
                    if session.closed:
                        if session.late and session.ending is None:
                            continue  # over, but answers are owed: dropped while they come
                        return
                    if bucket is not None and not bucket.take():
                        session.end(Ending.RATE_LIMIT, self._rate_exceeded(name))
                        return
                    if not session.inbox.push(message):
                        session.end(
                            Ending.FLOODING,
                            f"more than {self.referee.inbox_limit} messages waiting: flooding",
                        )
                        return
            except (asyncio.CancelledError, grpc.RpcError):
                pass
            except DecodeError:  # bytes that are no PlayRequest
                # In order: the messages before them are handled and answered, then the session
                # ends with INVALID_ARGUMENT (unless one of them ended it already).
                log.info("undecodable message", session=session.id, bot=name)
                if not session.inbox.push(UNDECODABLE) and session.ending is None:
                    session.ending = (Ending.UNDECODABLE, "a message that is not a PlayRequest")
            except Exception as exc:  # noqa: BLE001 - e.g. the stream aborted under the reader
                log.info("session input ended", session=session.id, bot=name, error=type(exc).__name__)
            finally:
                session.inbox.close()

        reader = asyncio.ensure_future(read())
        try:
            await session.out.done  # the session ended (or its stream failed) and is written out
            if session.ending is not None and session.out.failed is None:
                ending, details = session.ending
                status = STATUS_OF_ENDING[ending]
                log.info("session ended", session=session.id, bot=name, status=status.name, details=details)
                await context.abort(status, details)
            if session.late and session.out.failed is None:
                # Ended normally while its bot owes answers: the reader takes them until none
                # is owed (or the client closes its side); then the stream ends with status OK.
                await asyncio.wait({reader}, timeout=LATE_ANSWERS_S)
                if session.late:
                    log.info("stream ended with answers still owed", session=session.id, bot=name,
                             owed=len(session.late))
        finally:
            self.streams.discard(stream)
            reader.cancel()
            session.inbox.close()
            session.closed = True
            mine.discard(session)
            self.session_tokens.pop(session, None)
            if not mine and self.open_sessions.get(name) is mine:
                del self.open_sessions[name]

    # -- unary calls ----------------------------------------------------------------------------

    async def ListMatches(self, request: pb.ListMatchesRequest, context):  # noqa: N802
        await self._identity(context)
        limit = min(request.limit or 100, MAX_PAGE)
        filters = Filters(request.bot, request.game, request.finished_after_ms, request.finished_before_ms)
        referee = self.referee
        # Live matches (seed 0: until a match is over its seed would let anyone compute the deal
        # and every draw) on the first page only, then finished ones newest first, a page at a time.
        live = [] if request.page_token or request.status == pb.MATCH_STATUS_FINISHED else [
            summary for summary in (m.summary() for m in referee.matches.values())
            if (not request.status or summary.status == request.status) and filters.admits(summary)][:limit]
        finished: list[pb.MatchSummary] = []
        token = ""
        if request.status in (pb.MATCH_STATUS_UNSPECIFIED, pb.MATCH_STATUS_FINISHED):
            try:
                finished, token = referee.archive.page(filters, request.page_token, limit - len(live))
            except PageTokenError as exc:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            except StorageError as exc:
                await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        matches = live + [referee.public_summary(s) for s in finished]
        return pb.ListMatchesResponse(matches=matches, next_page_token=token)

    async def GetMatchRecord(self, request: pb.GetMatchRecordRequest, context):  # noqa: N802
        await self._identity(context)
        match_id = request.match_id
        if match_id in self.referee.matches:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"match {match_id!r} is still being played")
        try:
            text = self.referee.archive.record_text(match_id)
        except StorageError as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        if text is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no finished match {match_id!r}")
        return pb.GetMatchRecordResponse(match_id=match_id, record_jsonl=text)

    async def StartMatch(self, request: pb.StartMatchRequest, context):  # noqa: N802
        await self._identity(context, admin=True)
        tc = request.time_control
        try:
            match = await self.bridge.call(
                self._create,
                request.game,
                request.ruleset,
                dict(request.options),
                list(request.bots),
                request.seed,
                TimeControl(tc.bank_ms, tc.increment_ms, tc.max_per_decision_ms),
                request.fault_policy or FORFEIT,
                request.retries,
                (request.connect_timeout_ms or 30_000) / 1000.0,
                request.start_position or None,
            )
        except ShuttingDown as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        except MatchError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        if request.wait:
            await self.bridge.call(match.done.wait)
        summary = match.summary(seed=True) if match.done.is_set() else match.summary()
        return pb.StartMatchResponse(match_id=match.id, summary=self.referee.public_summary(summary))

    async def _create(self, *args: Any):
        match = self.referee.create_match(
            args[0], args[1], args[2], args[3], seed=args[4], time_control=args[5], policy=args[6],
            retries=args[7], connect_timeout_s=args[8], position=args[9],
        )
        self.referee.start_match(match)
        return match

    async def GetStandings(self, request: pb.GetStandingsRequest, context):  # noqa: N802
        await self._identity(context)
        try:  # kept per game and bot as matches finish (the index's standings): no match is read
            standings = self.referee.archive.standings(request.game)
        except StorageError as exc:
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        return pb.GetStandingsResponse(standings=standings)


def _handlers(servicer: RefereeServicer) -> grpc.GenericRpcHandler:
    # Responses of Play are bytes the referee already serialised (deterministically).
    handlers = {
        "Play": grpc.stream_stream_rpc_method_handler(
            servicer.Play, request_deserializer=pb.PlayRequest.FromString, response_serializer=bytes
        ),
        "ListMatches": grpc.unary_unary_rpc_method_handler(
            servicer.ListMatches,
            request_deserializer=pb.ListMatchesRequest.FromString,
            response_serializer=pb.ListMatchesResponse.SerializeToString,
        ),
        "GetMatchRecord": grpc.unary_unary_rpc_method_handler(
            servicer.GetMatchRecord,
            request_deserializer=pb.GetMatchRecordRequest.FromString,
            response_serializer=pb.GetMatchRecordResponse.SerializeToString,
        ),
        "StartMatch": grpc.unary_unary_rpc_method_handler(
            servicer.StartMatch,
            request_deserializer=pb.StartMatchRequest.FromString,
            response_serializer=pb.StartMatchResponse.SerializeToString,
        ),
        "GetStandings": grpc.unary_unary_rpc_method_handler(
            servicer.GetStandings,
            request_deserializer=pb.GetStandingsRequest.FromString,
            response_serializer=pb.GetStandingsResponse.SerializeToString,
        ),
    }
    return grpc.method_handlers_generic_handler(SERVICE, handlers)


class RunningServer:
    """A started server: its bound address, the referee, and how to stop it."""

    def __init__(
        self, server: grpc.aio.Server, bridge: TrioBridge, referee: Referee, address: str,
        watcher: asyncio.Task | None = None, servicer: RefereeServicer | None = None,
        socket_dir: Path | None = None,
    ) -> None:
        self.server = server
        self.socket_dir = socket_dir  # the private folder of the sandboxes' Unix socket, if any
        self.bridge = bridge
        self.referee = referee
        self.address = address
        self.watcher = watcher  # the token-file watcher task
        self.servicer = servicer

    async def drain(self, timeout_s: float, hurry: asyncio.Event | None = None) -> None:
        """A graceful shutdown's first half (:meth:`Referee.drain`): no new sessions or matches;
        running matches get ``timeout_s`` to finish (less if ``hurry`` is set), the rest end as
        ``shutdown``; then every session ends with status OK, once its last messages are
        written and the answers its bot still owed came (at most :data:`LATE_ANSWERS_S`, less if
        ``hurry`` is set). Call :meth:`stop` after it."""
        bridge = self.bridge
        trio_hurry = trio.Event()
        if hurry is not None:
            async def relay() -> None:
                await hurry.wait()
                bridge.call_soon(trio_hurry.set)

            relay_task = asyncio.ensure_future(relay())
        try:
            await bridge.call(self.referee.drain, timeout_s, trio_hurry)
            await self._streams_ended(hurry)
        finally:
            if hurry is not None:
                relay_task.cancel()

    async def _streams_ended(self, hurry: asyncio.Event | None) -> None:
        """Wait for the Play streams to end by themselves (:data:`LATE_ANSWERS_S` at most, or
        until ``hurry``): :meth:`stop` would cut a stream still waiting for a late answer."""
        streams = set(self.servicer.streams) if self.servicer is not None else set()
        if not streams:
            return
        waits = {asyncio.ensure_future(asyncio.wait(streams, timeout=LATE_ANSWERS_S + 0.5))}
        if hurry is not None:
            waits.add(asyncio.ensure_future(hurry.wait()))
        _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for wait in pending:
            wait.cancel()

    async def stop(self, grace: float = 2.0) -> None:
        # Order matters: stop watching tokens and taking calls, then cancel trio, then wait for it.
        if self.watcher is not None:
            self.watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watcher
        await self.server.stop(grace)
        await self.bridge.stop()
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)


def _in_use(address: str) -> bool:
    """Whether another socket listens on ``address`` (checked before gRPC binds, so the common
    case is one clear error, not gRPC's own log line too). A port 0 or a name that does not
    resolve is left to gRPC."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    try:
        number = int(port)
        if number == 0:
            return False
        infos = socket.getaddrinfo(host or None, number, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (ValueError, OSError):
        return False
    bound = False
    for family, kind, proto, _, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does
                probe.bind(sockaddr)
                bound = True
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True
    return not bound


def _bind(server: grpc.aio.Server, address: str, credentials: Any = None) -> int:
    """Listen on ``address``; :class:`ServeError` when it is taken or not available."""
    refused = ServeError(f"cannot listen on {address}: address in use or not available")
    if _in_use(address):
        raise refused
    try:
        if credentials is not None:
            port = server.add_secure_port(address, credentials)
        else:
            port = server.add_insecure_port(address)
    except RuntimeError:  # grpcio: "Failed to bind to address ..."
        raise refused from None
    if not port:
        raise refused
    return port


#: Server reflection, as grpcurl and other tools ask for it: v1 (current) and v1alpha (older
#: clients). grpcio-reflection implements v1alpha only; v1's messages are the same fields with
#: the same numbers under another package name, so one servicer answers both.
REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def _enable_reflection(server: grpc.aio.Server) -> None:
    from grpc_reflection.v1alpha import reflection_pb2

    names = (SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME, REFLECTION_V1)
    servicer = reflection.aio.ReflectionServicer(names)
    method = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers([
        grpc.method_handlers_generic_handler(service, {"ServerReflectionInfo": method})
        for service in (reflection.SERVICE_NAME, REFLECTION_V1)
    ])


async def start_server(
    address: str,
    *,
    tokens: TokenRegistry,
    registry: Any,
    data_dir: Path,
    tls: TlsFiles | None = None,
    insecure: bool = False,
    grace_s: float = 10.0,
    inbox_limit: int = 64,
    limits: Limits | None = None,
    ledger: bool = True,
    verify: bool = True,
    on_referee: Callable[[Referee], None] | None = None,
    hosts: HostPool | None = None,
    sandbox: Sandbox | None = None,
    beside: Beside | None = None,
) -> RunningServer:
    """Bind, start trio and the referee, and serve. Raises :class:`ServeError`.

    ``ledger``: keep ``matches.jsonl`` in ``data_dir`` (a tournament's referee does not: the run's
    results are its ledger); ``verify``: check it at start and refuse to serve if it or a record
    was changed. ``on_referee(referee)`` runs before the first call is taken. ``hosts``: a split
    referee, its matches played by these hosts (:class:`~.host_pool.ProcessHosts`...) and this
    process only holding sessions and routing their bytes. ``sandbox``: how untrusted plugin bots
    run (default: sandboxed, :mod:`.sandbox`); sandboxed, the server also listens on a Unix
    socket in a private folder, their only channel to it. ``beside``: a trio task started next to
    the referee once it runs (``await beside(referee, task_status=...)``, before the first call is
    taken), cancelled with trio when the server stops: what a layer above serves from the referee
    (the web face, ``standoff serve --http``); its error at start stops the start."""
    if tls is None and not insecure and not is_loopback(address):
        raise ServeError(
            f"refusing plaintext on non-loopback address {address}: give --tls-cert/--tls-key, "
            "or --insecure if you really mean it"
        )
    try:
        guest_mode()  # a mistyped STANDOFF_TRIO_GUEST: one line, before anything binds
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    server = grpc.aio.server(options=SERVER_OPTIONS)
    if tls is not None:
        try:
            credentials = grpc.ssl_server_credentials(
                [(tls.key.read_bytes(), tls.cert.read_bytes())],
                root_certificates=tls.client_ca.read_bytes() if tls.client_ca else None,
                require_client_auth=tls.client_ca is not None,
            )
        except OSError as exc:
            raise ServeError(f"cannot read TLS files: {exc}") from None
        port = _bind(server, address, credentials)
    else:
        port = _bind(server, address)
    bound = f"{address.rsplit(':', 1)[0]}:{port}"
    sandbox = sandbox or Sandbox()
    socket_dir = _sandbox_socket(server, sandbox)
    bridge = TrioBridge()
    referee = Referee(bridge, tokens, registry, data_dir, grace_s=grace_s, inbox_limit=inbox_limit, address=bound,
                      ledger=ledger, verify=verify, hosts=hosts, sandbox=sandbox, socket_dir=socket_dir)
    try:
        await bridge.start(referee.run)
    except BaseException as exc:  # the referee could not start: trio's nurseries wrap the reason
        await server.stop(None)
        if socket_dir is not None:
            shutil.rmtree(socket_dir, ignore_errors=True)
        found = exc.split(VerifyError)[0] if isinstance(exc, BaseExceptionGroup) else exc
        while isinstance(found, BaseExceptionGroup):
            found = found.exceptions[0]
        if isinstance(found, VerifyError):
            raise ServeError(f"{found}; refusing to serve (`standoff verify {data_dir}` shows it; --no-verify "
                             "serves anyway)") from None
        found = exc.split(StorageError)[0] if isinstance(exc, BaseExceptionGroup) else exc
        while isinstance(found, BaseExceptionGroup):
            found = found.exceptions[0]
        if isinstance(found, StorageError):  # the index: corrupt, foreign, newer, full disk, read-only
            raise ServeError(f"{found}; refusing to serve") from None
        raise
    if on_referee is not None:
        on_referee(referee)
    if beside is not None:
        try:
            await bridge.call(bridge.nursery.start, beside, referee)
        except BaseException:
            await bridge.stop()
            await server.stop(None)
            if socket_dir is not None:
                shutil.rmtree(socket_dir, ignore_errors=True)
            raise
    servicer = RefereeServicer(bridge, referee, tokens, limits)
    server.add_generic_rpc_handlers([_handlers(servicer)])
    health_servicer = health.aio.HealthServicer() if hasattr(health, "aio") else health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    _enable_reflection(server)
    await server.start()
    if socket_dir is not None:
        open_socket(socket_dir)
    for name in ("", SERVICE):
        result = health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        if asyncio.iscoroutine(result):
            await result
    watcher = asyncio.ensure_future(servicer.watch_tokens())
    limits = limits or Limits()
    log.info("serving", address=bound, tls=tls is not None, max_sessions_per_bot=limits.max_sessions_per_bot,
             rate_limit=limits.rate_limit, rate_burst=limits.rate_burst,
             matches=hosts.description if hosts is not None else "played in this process")
    return RunningServer(server, bridge, referee, bound, watcher, servicer, socket_dir)


def _sandbox_socket(server: grpc.aio.Server, sandbox: Sandbox) -> Path | None:
    """Listen on a Unix socket for sandboxed bots (they have no network), in a new private
    folder (``0700``); None when no bot will be sandboxed (``--unsandboxed``, or no bubblewrap:
    the referee then refuses untrusted bots). Plaintext: only this user and the sandboxes, which
    it is bound into, reach it; a bot still needs its seat's token."""
    if not sandbox.enabled or backend_problem() is not None:
        return None
    folder = private_socket_dir()
    try:
        if not server.add_insecure_port(f"unix:{folder / SOCKET_NAME}"):
            raise RuntimeError("no port")
    except RuntimeError:
        shutil.rmtree(folder, ignore_errors=True)
        raise ServeError(f"cannot listen on a Unix socket in {folder} for the sandboxed bots") from None
    return folder


#: Seconds running matches get to finish on SIGTERM/SIGINT (`standoff serve --drain-s`).
DEFAULT_DRAIN_S = 30.0


async def serve_forever(address: str, *, drain_s: float = DEFAULT_DRAIN_S, **kwargs: Any) -> None:
    """Serve until SIGINT/SIGTERM, then shut down gracefully: take no new session or match, let
    running matches finish for ``drain_s`` seconds (a second signal cuts that short), end the
    rest as ``shutdown`` (records closed, every seat told), end every session with status OK,
    then stop."""
    running = await start_server(address, **kwargs)
    print(f"standoff referee listening on {running.address}", flush=True)
    stop, hurry = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()

    def signalled() -> None:
        (hurry if stop.is_set() else stop).set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, signalled)
    await stop.wait()
    running_matches = len(running.referee.matches)
    log.info("shutting down", running_matches=running_matches, drain_s=drain_s)
    if running_matches:
        print(f"standoff: shutting down: {running_matches} matches get {drain_s:g} s to finish "
              "(signal again to end them now)", file=sys.stderr, flush=True)
    await running.drain(drain_s, hurry)
    await running.stop()
