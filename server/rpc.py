"""The gRPC side of the referee server: grpc.aio on asyncio, with the referee in trio.

``serve()`` is what ``standoff serve`` runs. The ``Play`` stream of each bot session only moves
bytes: incoming messages go into the session's bounded inbox (full = flooding = the stream ends
with RESOURCE_EXHAUSTED), outgoing messages are pre-serialised by the referee (deterministic
bytes) and written as they are.
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import structlog
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from standoff.v1 import referee_pb2 as pb

from .auth import DEFAULT_MAX_SESSIONS_PER_BOT, DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT, TokenRegistry
from .bridge import Inbox, TrioBridge
from .faults import FORFEIT, TimeControl
from .referee import UNDECODABLE, MatchError, Referee, Session

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
]


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
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str) and value.startswith("Bearer "):
            return value[len("Bearer ") :].strip()
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
        self.buckets: dict[str, TokenBucket] = {}  # identity name -> its rate limit
        self._pruned = time.monotonic()

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
        identity = self.tokens.verify(_token_from(context))
        if identity is None:
            self.tokens.reload()  # a token added with `standoff token add` while serving
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
            out=asyncio.Queue(),
        )
        mine.add(session)
        bucket = self._bucket(name)
        self.bridge.call_soon(self.referee.open_session, session)

        async def read() -> None:
            try:
                async for message in request_iterator:
                    if session.closed:
                        return
                    if bucket is not None and not bucket.take():
                        session.end(grpc.StatusCode.RESOURCE_EXHAUSTED, self._rate_exceeded(name))
                        return
                    if not session.inbox.push(message):
                        session.end(
                            grpc.StatusCode.RESOURCE_EXHAUSTED,
                            f"more than {self.referee.inbox_limit} messages waiting: flooding",
                        )
                        return
            except (asyncio.CancelledError, grpc.RpcError):
                pass
            except DecodeError:  # bytes that are no PlayRequest
                # In order: the messages before them are handled and answered, then the session
                # ends with INVALID_ARGUMENT (unless one of them ended it already).
                log.info("undecodable message", session=session.id, bot=name)
                if not session.inbox.push(UNDECODABLE) and session.end_status is None:
                    session.end_status = (grpc.StatusCode.INVALID_ARGUMENT, "a message that is not a PlayRequest")
            except Exception as exc:  # noqa: BLE001 - e.g. the stream aborted under the reader
                log.info("session input ended", session=session.id, bot=name, error=type(exc).__name__)
            finally:
                session.inbox.close()

        reader = asyncio.ensure_future(read())
        try:
            while (data := await session.out.get()) is not None:
                yield data
            if session.end_status is not None:
                log.info("session ended", session=session.id, bot=name, status=session.end_status[0].name,
                         details=session.end_status[1])
                await context.abort(*session.end_status)
        finally:
            reader.cancel()
            session.inbox.close()
            session.closed = True
            mine.discard(session)
            if not mine and self.open_sessions.get(name) is mine:
                del self.open_sessions[name]

    # -- unary calls ----------------------------------------------------------------------------

    async def ListMatches(self, request: pb.ListMatchesRequest, context):  # noqa: N802
        await self._identity(context)
        limit = request.limit or 100
        summaries = [m.summary() for m in self.referee.matches.values()]
        summaries.extend(reversed(self.referee.finished))
        if request.status:
            summaries = [s for s in summaries if s.status == request.status]
        return pb.ListMatchesResponse(matches=summaries[:limit])

    async def GetMatchRecord(self, request: pb.GetMatchRecordRequest, context):  # noqa: N802
        await self._identity(context)
        match_id = request.match_id
        if match_id not in self.referee.finished_ids:
            running = match_id in self.referee.matches
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION if running else grpc.StatusCode.NOT_FOUND,
                f"match {match_id!r} is still being played" if running else f"no finished match {match_id!r}",
            )
        path = self.referee.data_dir / "records" / f"{Path(match_id).name}.jsonl"
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no record for match {match_id!r}")
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
            )
        except MatchError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        if request.wait:
            await self.bridge.call(match.done.wait)
        return pb.StartMatchResponse(match_id=match.id, summary=match.summary())

    async def _create(self, *args: Any):
        match = self.referee.create_match(
            args[0], args[1], args[2], args[3], seed=args[4], time_control=args[5], policy=args[6],
            retries=args[7], connect_timeout_s=args[8],
        )
        self.referee.start_match(match)
        return match

    async def GetStandings(self, request: pb.GetStandingsRequest, context):  # noqa: N802
        await self._identity(context)
        table: dict[str, list[float]] = {}
        for summary in self.referee.finished:
            if request.game and summary.game != request.game:
                continue
            if summary.result.termination == "not_played":
                continue
            scores = {s.role: s.score for s in summary.result.scores}
            for seat in summary.seats:
                row = table.setdefault(seat.bot, [0, 0, 0, 0, 0.0])
                score = scores.get(seat.role, 0.0)
                row[0] += 1
                row[1 if score == 1.0 else 2 if score > 0 else 3] += 1
                row[4] += score
        standings = [
            pb.BotStanding(bot=bot, played=r[0], wins=r[1], draws=r[2], losses=r[3], score=r[4])
            for bot, r in table.items()
        ]
        standings.sort(key=lambda s: (-s.score, s.bot))
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

    def __init__(self, server: grpc.aio.Server, bridge: TrioBridge, referee: Referee, address: str) -> None:
        self.server = server
        self.bridge = bridge
        self.referee = referee
        self.address = address

    async def stop(self, grace: float = 2.0) -> None:
        # Order matters: stop taking calls, then cancel trio, then wait for it.
        await self.server.stop(grace)
        await self.bridge.stop()


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
) -> RunningServer:
    """Bind, start trio and the referee, and serve. Raises :class:`ServeError`."""
    if tls is None and not insecure and not is_loopback(address):
        raise ServeError(
            f"refusing plaintext on non-loopback address {address}: give --tls-cert/--tls-key, "
            "or --insecure if you really mean it"
        )
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
        port = server.add_secure_port(address, credentials)
    else:
        port = server.add_insecure_port(address)
    if not port:
        raise ServeError(f"cannot bind {address}")
    bound = f"{address.rsplit(':', 1)[0]}:{port}"
    bridge = TrioBridge()
    referee = Referee(bridge, tokens, registry, data_dir, grace_s=grace_s, inbox_limit=inbox_limit, address=bound)
    await bridge.start(referee.run)
    server.add_generic_rpc_handlers([_handlers(RefereeServicer(bridge, referee, tokens, limits))])
    health_servicer = health.aio.HealthServicer() if hasattr(health, "aio") else health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    await server.start()
    for name in ("", SERVICE):
        result = health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        if asyncio.iscoroutine(result):
            await result
    limits = limits or Limits()
    log.info("serving", address=bound, tls=tls is not None, max_sessions_per_bot=limits.max_sessions_per_bot,
             rate_limit=limits.rate_limit, rate_burst=limits.rate_burst)
    return RunningServer(server, bridge, referee, bound)


async def serve_forever(address: str, **kwargs: Any) -> None:
    """Serve until SIGINT/SIGTERM, then shut down in order."""
    running = await start_server(address, **kwargs)
    print(f"standoff referee listening on {running.address}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down")
    await running.stop()
