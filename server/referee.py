"""The referee: bot sessions, seats and the match loop, all in trio.

Everything here runs inside trio (started by :mod:`.bridge`); the gRPC side only pushes incoming
messages into a session's :class:`~.bridge.Inbox` and drains its outgoing queue. A bot's failure
(timeout, bad answer, disconnect, crash) is a *fault* handled by the match's fault policy; it never
ends another match or the server.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import structlog
import trio

from standoff.v1 import referee_pb2 as pb

from .auth import Identity, TokenRegistry
from .bridge import Inbox, TrioBridge
from .core.game import CHANCE, Game, Outcome, RulesError
from .core.record import make_header, move_line, outcome_line
from .faults import (
    CRASH,
    SHUTDOWN,
    DISCONNECT,
    FORFEIT,
    ILLEGAL,
    POLICY_NAMES,
    PROTOCOL,
    RANDOM,
    RETRY,
    STALE,
    TIMEOUT,
    Forfeit,
    TimeControl,
    error_outcome,
    fault_rng,
    forfeit_outcome,
)
from .faults import count as count_fault
from .local import InProcessSeat, bot_seed, chance_rng, code_version, new_seed, sample_chance
from .ledger import LedgerWriter, read_chain, record_digest
from .records import RecordWriter, cut_torn_tail, read_record
from .verify import verify_folder
from .wire import (
    decision_message,
    encode_view,
    match_ended_message,
    match_started_message,
    serialize,
)

log = structlog.get_logger("standoff.referee")

PROTOCOL_VERSION = 1

#: Messages a session may have waiting to be sent before it counts as not reading (the stream is
#: then ended with RESOURCE_EXHAUSTED instead of growing the queue without bound).
OUT_LIMIT = 512
#: Answers a seat may have queued while its match does not ask it (a flood of choices or of
#: malformed envelopes mid-match): beyond this the session is ended with RESOURCE_EXHAUSTED.
SEAT_EVENTS_LIMIT = 64
#: A server's ledger (in its data folder): one chained line per finished match.
LEDGER_NAME = "matches.jsonl"
#: Seconds a match may take to close its record and tell its seats, even when cancelled.
FINISH_TIMEOUT_S = 10.0
#: Protocol errors logged per session (the rest are counted, and logged every LOG_EVERY-th).
LOG_FIRST, LOG_EVERY = 5, 1000


#: Put in a session's inbox by the gRPC reader where bytes that are no PlayRequest came: the
#: session handles what came before, then ends with INVALID_ARGUMENT (unless it ended already).
UNDECODABLE = object()


def _single(exc: BaseException) -> BaseException:
    """The exception inside nested one-exception groups (trio's nurseries wrap what they raise)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


async def _set_then_cancel(event: trio.Event, scope: trio.CancelScope) -> None:
    await event.wait()
    scope.cancel()


def _short(text: str, limit: int = 80) -> str:
    """A client-given string as it may appear in logs and echoed errors."""
    return text if len(text) <= limit else text[:limit] + f"...({len(text)} chars)"


class MatchError(ValueError):
    """A match that cannot be started as asked (unknown game or bot, bad options...)."""


class ShuttingDown(MatchError):
    """The server is draining: it takes no new match."""


@dataclass(eq=False)  # identity semantics: sessions are kept in sets
class Session:
    """One bot session (one ``Play`` stream)."""

    id: str
    identity: Identity
    inbox: Inbox
    out: asyncio.Queue  # bytes to send, or None to end the stream
    helloed: bool = False
    closed: bool = False
    games: tuple[str, ...] = ()
    end_status: tuple[Any, str] | None = None  # (grpc.StatusCode, details) to end with
    cancel: trio.CancelScope | None = None
    protocol_errors: int = 0

    def send(self, message: pb.PlayResponse | bytes) -> None:
        if self.closed:
            return
        if self.out.qsize() >= OUT_LIMIT:
            # The client does not read what it is sent: end the stream rather than queue more.
            self.end(grpc.StatusCode.RESOURCE_EXHAUSTED,
                     f"more than {OUT_LIMIT} messages waiting to be sent: the client is not reading")
            return
        self.out.put_nowait(message if isinstance(message, bytes) else serialize(message))

    def end(self, status: Any = None, details: str = "") -> None:
        """End the stream (with ``status`` unless it already has one); idempotent. Messages still
        waiting in the inbox are dropped: a session that is over does nothing more."""
        if status is not None and self.end_status is None:
            self.end_status = (status, details)
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


@dataclass
class Seat:
    """One role of a match and who plays it."""

    role: str
    bot: str  # as given: "greedy" or "remote:alice"
    kind: str  # "local" (trusted in-process), "remote" (connects with a token), "runner"
    identity: str = ""  # the token name that may answer for this seat (remote / runner)
    local: InProcessSeat | None = None
    session: Session | None = None
    pending_id: int = 0
    pending_message: bytes = b""
    history_sent: int = 0  # history entries this seat's session already has
    rebuild: Any = None  # (history_from) -> bytes: the pending decision message again
    sent_to: Session | None = None  # the session the pending decision was last sent to
    sent_at: float = 0.0
    connected: trio.Event = field(default_factory=trio.Event)
    # Unbounded so that control events (disconnect, reconnect) are never lost; answers and
    # protocol faults are bounded by SEAT_EVENTS_LIMIT in Referee._notify.
    events: tuple[Any, Any] = field(default_factory=lambda: trio.open_memory_channel(math.inf))
    disconnected_for_good: bool = False
    process: Any = None


@dataclass
class Match:
    id: str
    game: Game
    rules: Any
    seed: int
    seats: dict[str, Seat]
    time_control: TimeControl
    policy: int
    retries: int
    connect_timeout_s: float
    grace_s: float
    status: int = pb.MATCH_STATUS_WAITING
    outcome: Outcome | None = None
    faults: dict[str, dict[str, int]] = field(default_factory=dict)
    done: trio.Event = field(default_factory=trio.Event)
    record_path: Path | None = None
    final_state: Any = None  # the state the match ended in (multi-game matches count flags)
    writer: RecordWriter | None = None  # the record, open while the match is played
    number: int = 0  # decisions so far (the record's n)
    error_at: int | None = None  # the decision an engine or referee error ended the match at
    scope: trio.CancelScope | None = None  # cancelled to end the match as `shutdown`

    def count(self, role: str, kind: str) -> None:
        count_fault(self.faults, role, kind)

    def summary(self, *, seed: bool = False) -> pb.MatchSummary:
        """The match as ``ListMatches`` shows it. The seed only with ``seed=True``: callers pass
        it once the match and any match paired with it are over (:meth:`Referee.withheld`)."""
        msg = pb.MatchSummary(
            match_id=self.id, game=self.game.name, ruleset=self.rules.ruleset, status=self.status,
            seed=self.seed if seed else 0,
        )
        for role in self.rules.roles:
            msg.seats.add(role=role, bot=self.seats[role].bot)
        if self.outcome is not None:
            msg.result.CopyFrom(
                match_ended_message(self.id, self.outcome, self.rules.roles, self.faults).match_ended
            )
        return msg


class Referee:
    """Owns every session and match of a server."""

    def __init__(
        self,
        bridge: TrioBridge,
        tokens: TokenRegistry,
        registry: Any,
        data_dir: Path,
        *,
        inbox_limit: int = 64,
        grace_s: float = 10.0,
        address: str = "",
        ledger: bool = True,
        verify: bool = True,
    ) -> None:
        self.bridge = bridge
        self.tokens = tokens
        self.registry = registry  # plugin registry: .games, .bot(name)
        self.data_dir = data_dir
        self.inbox_limit = inbox_limit
        self.grace_s = grace_s
        self.address = address
        self.sessions: dict[str, Session] = {}  # identity name -> live session
        self.matches: dict[str, Match] = {}
        self.finished: list[pb.MatchSummary] = []  # loaded from records at start, then appended
        self.finished_ids: set[str] = set()
        self.nursery: trio.Nursery | None = None
        # Paired matches share a seed: a finished match's record and seed are withheld while a
        # match of its group is still to be played (see withhold()).
        self.embargo: dict[str, str] = {}  # match id -> group
        self.held: dict[str, set[str]] = {}  # group -> its match ids
        self.draining = False  # shutting down: no new sessions (but reconnects) and no new matches
        self.live_sessions: set[Session] = set()  # every open session, helloed or not
        # matches.jsonl: one chained line per finished match (server/ledger.py). A tournament's
        # referee has none: the run's results.jsonl is its ledger.
        self.ledger: LedgerWriter | None = None
        self.ledger_wanted = ledger
        self.verify = verify
        self.ledger_lock = trio.Lock()

    # -- lifecycle ------------------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        (self.data_dir / "records").mkdir(parents=True, exist_ok=True)
        self._load_finished()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    async def drain(self, timeout_s: float, hurry: trio.Event | None = None) -> None:
        """A graceful shutdown: take no new session (reconnects of seated bots excepted) and
        no new match; matches still waiting for their seats end now; running matches get
        ``timeout_s`` seconds (or until ``hurry`` is set) to finish, then end as ``shutdown``.
        Every match ends with its record closed and ``MatchEnded`` sent; then every session's
        stream ends with status OK."""
        self.draining = True
        log.info("draining", running=len(self.matches), timeout_s=timeout_s)
        for match in list(self.matches.values()):
            if match.status == pb.MATCH_STATUS_WAITING and match.scope is not None:
                match.scope.cancel()

        async def all_done() -> None:
            for match in list(self.matches.values()):
                await match.done.wait()

        async with trio.open_nursery() as nursery:
            async def wait_and_stop() -> None:
                await all_done()
                nursery.cancel_scope.cancel()

            nursery.start_soon(wait_and_stop)
            if hurry is not None:
                nursery.start_soon(_set_then_cancel, hurry, nursery.cancel_scope)
            await trio.sleep(timeout_s)
            nursery.cancel_scope.cancel()
        for match in list(self.matches.values()):
            if match.scope is not None:
                match.scope.cancel()
        with trio.move_on_after(FINISH_TIMEOUT_S + 1):
            await all_done()
        for session in list(self.live_sessions):
            self._end_session(session)  # status OK: the session is over, the server going away

    def _open_ledger(self) -> set[str]:
        """Open ``matches.jsonl`` (checked first unless ``verify`` is off: its chain, and every
        record it names against its digest and line); returns the record names it has."""
        path = self.data_dir / LEDGER_NAME
        if path.exists():
            cut_torn_tail(path)
            if self.verify:
                verify_folder(self.data_dir, registry=self.registry, replay_records=False)
        named = {name for _, line in read_chain(path) for name in line.get("records", {})} if path.exists() else set()
        self.ledger = LedgerWriter(path)
        return named

    def _ledger_line(self, summary: pb.MatchSummary, name: str, faults: dict[str, Any]) -> str:
        assert self.ledger is not None
        result = summary.result
        line = {
            "match_id": summary.match_id, "game": summary.game, "ruleset": summary.ruleset,
            "seats": {s.role: s.bot for s in summary.seats}, "winner": result.winner or None,
            "scores": {s.role: s.score for s in result.scores}, "termination": result.termination,
            "reason": result.reason, "faults": faults,
            "records": {name: record_digest(self.data_dir / "records" / name)},
        }
        return self.ledger.text(line)

    async def _append_ledger(self, match: Match) -> None:
        if self.ledger is None or match.record_path is None:
            return
        async with self.ledger_lock:  # lines are chained: one writer at a time, in finishing order
            text = self._ledger_line(match.summary(seed=True), match.record_path.name, match.faults)
            await trio.to_thread.run_sync(self.ledger.append, text)

    def _load_finished(self) -> None:
        """Finished matches of earlier runs, from their records (never a mutable store). With a
        ledger, a finished record it lacks (the server was killed between the two writes) gets
        its line now."""
        named = self._open_ledger() if self.ledger_wanted else set()
        missing: list[str] = []
        for path in sorted((self.data_dir / "records").glob("*.jsonl")):
            try:
                record = read_record(path)
            except (OSError, ValueError) as exc:
                log.warning("unreadable record skipped", path=str(path), error=str(exc))
                continue
            footer = record.footer
            if footer is None:
                continue
            header = record.header
            summary = pb.MatchSummary(
                match_id=header.get("match_id") or path.stem,
                game=header.get("game", ""),
                ruleset=header.get("ruleset", ""),
                status=pb.MATCH_STATUS_FINISHED,
                seed=int(header.get("seed", 0)),
            )
            for role, bot in header.get("roles", {}).items():
                summary.seats.add(role=role, bot=bot)
            result = summary.result
            result.match_id = summary.match_id
            result.winner = footer.get("winner") or ""
            for role, score in (footer.get("scores") or {}).items():
                result.scores.add(role=role, score=score)
            result.termination = footer.get("termination", "")
            result.reason = footer.get("reason", "")
            self.finished.append(summary)
            self.finished_ids.add(summary.match_id)
            if self.ledger is not None and path.name not in named:
                missing.append(self._ledger_line(summary, path.name, footer.get("faults") or {}))
        if missing:
            log.warning("finished records added to the ledger", count=len(missing))
            self.ledger.append("".join(missing))

    # -- paired matches: withholding records and seeds -------------------------------------------

    def withhold(self, group: str, match_ids: Any = ()) -> None:
        """Withhold the records and seeds of ``group``'s matches (``match_ids``, plus those
        created later with ``embargo=group``) until :meth:`release`. Paired legs share their
        seed and deal: a finished leg's record would give away its partner's."""
        ids = self.held.setdefault(group, set())
        for match_id in match_ids:
            ids.add(match_id)
            self.embargo[match_id] = group

    def release(self, group: str) -> None:
        for match_id in self.held.pop(group, ()):
            self.embargo.pop(match_id, None)

    def withheld(self, match_id: str) -> bool:
        """Whether the record and seed of ``match_id`` may not be served yet: the match is not
        over, or a match of its group is not."""
        return match_id in self.matches or match_id in self.embargo

    def public_summary(self, summary: pb.MatchSummary) -> pb.MatchSummary:
        """A finished match's summary as it may be served now (seed 0 while withheld)."""
        if summary.seed and self.withheld(summary.match_id):
            summary = pb.MatchSummary.FromString(summary.SerializeToString())
            summary.seed = 0
        return summary

    # -- sessions (called in trio through the bridge) --------------------------------------------

    def open_session(self, session: Session) -> None:
        assert self.nursery is not None
        self.live_sessions.add(session)
        self.nursery.start_soon(self._session_task, session)

    def is_seated(self, name: str) -> bool:
        """Whether the identity ``name`` holds a seat in a match not over yet (so that it may
        reconnect while the server drains)."""
        return any(
            seat.identity == name and seat.kind != "local"
            for match in self.matches.values() for seat in match.seats.values()
        )

    async def _session_task(self, session: Session) -> None:
        slog = log.bind(session=session.id, bot=session.identity.name)
        with trio.CancelScope() as scope:
            session.cancel = scope
            try:
                while (message := await session.inbox.get()) is not None:
                    if session.closed:
                        break
                    try:
                        self._handle(session, message, slog)
                    except Exception:  # a referee bug must not take the server down: end this session
                        slog.exception("session handler failed")
                        self._end_session(session, grpc.StatusCode.INTERNAL, "internal referee error")
            finally:
                self._session_gone(session)
                slog.info("session closed", protocol_errors=session.protocol_errors)

    def _end_session(self, session: Session, status: Any = None, details: str = "") -> None:
        if status is not None and not session.closed:
            log.info("ending session", session=session.id, bot=session.identity.name, status=status.name,
                     details=details)
        session.end(status, details)

    def _notify(self, session: Session, seat: Seat, event: tuple[Any, ...]) -> bool:
        """Hand a session's answer (or protocol fault) to its seat's match loop. A seat that is not
        being asked keeps at most SEAT_EVENTS_LIMIT of them; past that the session is flooding and
        ends with RESOURCE_EXHAUSTED (its seats then see a disconnect)."""
        if seat.events[0].statistics().current_buffer_used >= SEAT_EVENTS_LIMIT:
            self._end_session(
                session, grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"more than {SEAT_EVENTS_LIMIT} answers waiting for one seat: flooding",
            )
            return False
        seat.events[0].send_nowait(event)
        return True

    @staticmethod
    def _wake(seat: Seat, event: tuple[Any, ...]) -> None:
        """A control event (disconnect, reconnect) for a seat's match loop. It only wakes a loop
        that waits for the seat, whose queue is then empty: with a long queue the loop is not
        waiting, finds the seat's state as it is when it next asks, and the event is not needed
        (so a reconnect storm cannot grow the queue without bound)."""
        if seat.events[0].statistics().current_buffer_used < SEAT_EVENTS_LIMIT:
            seat.events[0].send_nowait(event)

    def _session_gone(self, session: Session) -> None:
        self._end_session(session)
        self.live_sessions.discard(session)
        if self.sessions.get(session.identity.name) is session:
            del self.sessions[session.identity.name]
        for match in self.matches.values():
            for seat in match.seats.values():
                if seat.session is session:
                    seat.session = None
                    seat.connected = trio.Event()
                    self._wake(seat, ("disconnect",))

    def _handle(self, session: Session, message: pb.PlayRequest, slog: Any) -> None:
        if message is UNDECODABLE:
            self._end_session(session, grpc.StatusCode.INVALID_ARGUMENT, "a message that is not a PlayRequest")
            return
        kind = message.WhichOneof("body")
        if kind == "hello":
            self._hello(session, message.hello, slog)
        elif kind == "choice" and session.helloed:
            self._choice(session, message.choice)
        else:
            what = "a choice before hello" if kind == "choice" else (
                "a second hello" if kind == "hello" else "an empty or unknown message"
            )
            session.error(pb.ERROR_CODE_PROTOCOL, f"protocol error: {what}")
            self._protocol_fault(session, what, slog)

    def _protocol_fault(self, session: Session, what: str, slog: Any) -> None:
        session.protocol_errors += 1
        if session.protocol_errors <= LOG_FIRST or session.protocol_errors % LOG_EVERY == 0:
            slog.warning("protocol error", what=what, count=session.protocol_errors)
        for match in list(self.matches.values()):
            for seat in match.seats.values():
                if seat.session is session and match.status == pb.MATCH_STATUS_RUNNING:
                    if not self._notify(session, seat, ("fault", PROTOCOL, "protocol error")):
                        return

    def _hello(self, session: Session, hello: pb.Hello, slog: Any) -> None:
        if session.helloed:
            session.error(pb.ERROR_CODE_PROTOCOL, "protocol error: a second hello")
            self._protocol_fault(session, "a second hello", slog)
            return
        if hello.protocol_version != PROTOCOL_VERSION:
            session.error(
                pb.ERROR_CODE_UNSUPPORTED_VERSION,
                f"protocol version {hello.protocol_version} is not supported (this server speaks {PROTOCOL_VERSION})",
            )
            self._end_session(session, grpc.StatusCode.FAILED_PRECONDITION, "unsupported protocol version")
            return
        session.helloed = True
        session.games = tuple(hello.games)
        name = session.identity.name
        older = self.sessions.get(name)
        if older is not None and older is not session:
            # Reconnect semantics: the newest session of a bot takes over its seats (the older
            # stream may be dead without the server knowing yet). The older one ends now, which
            # also frees its place under --max-sessions-per-bot.
            older.error(pb.ERROR_CODE_PROTOCOL, "superseded by a newer session with the same token")
            self._end_session(older)
            self._session_gone(older)
        self.sessions[name] = session
        resumed = []
        for match in self.matches.values():
            if match.status not in (pb.MATCH_STATUS_WAITING, pb.MATCH_STATUS_RUNNING):
                continue
            for seat in match.seats.values():
                if seat.identity == name and seat.kind != "local" and seat.session is None:
                    seat.session = session
                    seat.history_sent = 0
                    seat.connected.set()
                    if match.status == pb.MATCH_STATUS_RUNNING:
                        resumed.append((match, seat))
        welcome = pb.PlayResponse()
        welcome.welcome.protocol_version = PROTOCOL_VERSION
        welcome.welcome.bot_name = name
        welcome.welcome.session_id = session.id
        welcome.welcome.server_version = code_version()
        welcome.welcome.resumed_match_ids.extend(sorted({m.id for m, _ in resumed}))
        session.send(welcome)
        for match, seat in resumed:
            session.send(self._match_started(match, seat.role))
            self._wake(seat, ("reconnect",))
        slog.info("hello", bot_name=_short(hello.bot_name), version=_short(hello.bot_version), resumed=len(resumed))

    def _choice(self, session: Session, choice: pb.Choice) -> None:
        match = self.matches.get(choice.match_id)
        seats = [] if match is None else [s for s in match.seats.values() if s.session is session]
        # Ids are echoed back only when they can be real ones (no megabyte of garbage returned).
        match_id = choice.match_id if len(choice.match_id) <= 64 else ""
        if not seats and choice.match_id in self.finished_ids:
            session.error(pb.ERROR_CODE_STALE_DECISION, "the match is over", match_id, choice.decision_id)
            return
        if not seats:
            session.error(
                pb.ERROR_CODE_NOT_YOUR_MATCH,
                f"match {_short(choice.match_id, 64)!r} has no seat of yours",
                match_id,
                choice.decision_id,
            )
            return
        if match.status != pb.MATCH_STATUS_RUNNING:
            session.error(pb.ERROR_CODE_STALE_DECISION, "the match is over", match_id, choice.decision_id)
            return
        # Self-play: both seats may belong to one session; the decision id tells which.
        seat = next((s for s in seats if s.pending_id == choice.decision_id), None)
        seat = seat or next((s for s in seats if s.pending_id), seats[0])
        self._notify(
            session, seat, ("choice", choice.decision_id, choice.option_index, choice.think_us, trio.current_time())
        )

    # -- matches ----------------------------------------------------------------------------------

    def create_match(
        self,
        game_name: str,
        ruleset: str | None,
        options: dict[str, str],
        bots: list[str],
        *,
        seed: int = 0,
        time_control: TimeControl | None = None,
        policy: int = FORFEIT,
        retries: int = 0,
        connect_timeout_s: float = 30.0,
        match_id: str | None = None,
        embargo: str | None = None,
    ) -> Match:
        """Validate and register a match (not started yet). Raises :class:`MatchError`.

        Without a ``seed`` the referee draws a secret one (:func:`new_seed`): it is served
        (``ListMatches``, the record) only once the match is over, and, with ``embargo``, once
        every match of that :meth:`withhold` group is released."""
        game = self.registry.games.get(game_name)
        if game is None:
            raise MatchError(f"unknown game {game_name!r} (known: {', '.join(sorted(self.registry.games))})")
        try:
            rules = game.rules(ruleset or None, options)
        except RulesError as exc:
            raise MatchError(str(exc)) from None
        if len(bots) != len(rules.roles):
            raise MatchError(f"{game_name} needs {len(rules.roles)} bots (one per role), got {len(bots)}")
        if policy not in POLICY_NAMES:
            policy = FORFEIT
        if self.draining:
            raise ShuttingDown("the server is shutting down: no new matches")
        match_id = match_id or secrets.token_hex(6)
        seed = seed or new_seed()
        seats = {}
        for role, bot in zip(rules.roles, bots, strict=True):
            if bot.startswith("remote:"):
                name = bot.split(":", 1)[1]
                if not name:
                    raise MatchError(f"{bot!r}: remote bots are written remote:NAME")
                seats[role] = Seat(role, bot, "remote", identity=name)
                continue
            try:
                spec = self.registry.bot(bot)
            except LookupError as exc:
                raise MatchError(str(exc.args[0] if exc.args else exc)) from None
            if spec.games and game_name not in spec.games:
                raise MatchError(f"bot {bot!r} does not play {game_name}")
            if spec.trusted:
                instance = spec.factory(bot_seed(seed, role))
                seats[role] = Seat(role, bot, "local", local=InProcessSeat(instance, game, match_id))
            else:
                seats[role] = Seat(role, bot, "runner", identity=f"plugin:{bot}:{match_id}:{role}")
        match = Match(
            match_id, game, rules, seed, seats, time_control or TimeControl(), policy, retries,
            connect_timeout_s, self.grace_s,
        )
        # A remote bot that is already connected takes its seat now.
        for seat in seats.values():
            if seat.kind == "remote" and seat.identity in self.sessions:
                seat.session = self.sessions[seat.identity]
                seat.connected.set()
        self.matches[match_id] = match
        if embargo is not None:
            self.withhold(embargo, (match_id,))
        return match

    def start_match(self, match: Match) -> None:
        assert self.nursery is not None
        self.nursery.start_soon(self._run_match, match)

    async def _run_match(self, match: Match) -> None:
        """Play ``match`` to its end, whatever happens: an engine or referee exception ends it as
        ``error``, a cancellation (shutdown) as ``shutdown``; either way the record gets its
        outcome line and is fsync'd, and every seat gets ``MatchEnded``. Neither is a result."""
        mlog = log.bind(match=match.id, game=match.game.name)
        try:
            with trio.CancelScope() as match.scope:
                try:
                    async with trio.open_nursery() as runners:
                        await self._start_runners(match, runners)
                        if await self._wait_for_seats(match):
                            await self._play(match)
                        runners.cancel_scope.cancel()
                except Exception as exc:  # an engine or referee bug ends this match only, never as a result
                    exc = _single(exc)
                    match.outcome, match.error_at = error_outcome(match.rules.roles, exc), match.number
                    mlog.error("match ended by an error", decision=match.number, exc_info=exc)
        finally:
            if match.outcome is None:
                match.outcome = Outcome.no_result(
                    match.rules.roles, SHUTDOWN, "the server shut down before the match ended"
                )
            # Shielded: a match cancelled by a shutdown still closes its record and tells its
            # seats. In this order: the record (fsync'd), its ledger line, the record servable,
            # then MatchEnded: a seat hears of the end only once the record says it.
            with trio.CancelScope(shield=True):
                try:
                    with trio.move_on_after(FINISH_TIMEOUT_S):
                        await self._close_record(match)
                except Exception:  # noqa: BLE001 - e.g. a full disk: logged, the server goes on
                    mlog.exception("could not finish the match record")
                try:
                    await self._append_ledger(match)
                except Exception:  # noqa: BLE001 - logged; a restart adds the missing line from the record
                    mlog.exception("could not append to the ledger")
                match.status = pb.MATCH_STATUS_FINISHED
                for seat in match.seats.values():
                    if seat.kind == "runner":
                        self.tokens.forget_ephemeral(seat.identity)
                self.finished.append(match.summary(seed=True))
                self.finished_ids.add(match.id)
                self.matches.pop(match.id, None)  # finished matches live on in their records
                with trio.move_on_after(FINISH_TIMEOUT_S):
                    await self._tell_seats(match)
            match.done.set()
            mlog.info("match finished", termination=match.outcome.termination)

    async def _start_runners(self, match: Match, nursery: trio.Nursery) -> None:
        """Third-party plugin bots play through the SDK in a subprocess of their own."""
        for seat in match.seats.values():
            if seat.kind != "runner":
                continue
            token = self.tokens.mint_ephemeral(seat.identity)
            command = [
                sys.executable, "-m", "standoff.server.cli", "bot", "run", seat.bot,
                "--address", self.address, "--matches", "1",
            ]
            env_token = {"STANDOFF_TOKEN": token}

            async def run_process(command=command, env_token=env_token, seat=seat) -> None:
                import os

                env = dict(os.environ, **env_token)
                try:
                    await trio.run_process(command, env=env, check=False, stdin=b"")
                except OSError as exc:
                    log.warning("bot runner failed to start", bot=seat.bot, error=str(exc))

            nursery.start_soon(run_process)

    async def _wait_for_seats(self, match: Match) -> bool:
        waiting = [s for s in match.seats.values() if s.kind != "local"]
        with trio.move_on_after(match.connect_timeout_s):
            for seat in waiting:
                await seat.connected.wait()
            return True
        missing = [s.bot for s in waiting if s.session is None]
        match.outcome = Outcome.no_result(match.rules.roles, "not_played", f"never connected: {', '.join(missing)}")
        return False

    def _bot_names(self, match: Match) -> dict[str, str]:
        return {role: seat.bot for role, seat in match.seats.items()}

    def _match_started(self, match: Match, role: str) -> pb.PlayResponse:
        tc = match.time_control
        return match_started_message(
            match.id, match.game, match.rules, role, self._bot_names(match), bot_seed(match.seed, role),
            bank_ms=tc.bank_ms, increment_ms=tc.increment_ms, max_per_decision_ms=tc.max_per_decision_ms,
            fault_policy=match.policy,
        )

    def _open_record(self, match: Match) -> RecordWriter:
        path = self.data_dir / "records" / f"{match.id}.jsonl"
        match.record_path = path
        writer = match.writer = RecordWriter(path)
        writer.write(make_header(match.game, match.rules, match.seed, self._bot_names(match), match_id=match.id,
                                 code_version=code_version()))
        return writer

    async def _play(self, match: Match) -> None:
        """The match loop: chance, the seats' answers, the record's decision lines. Sets
        ``match.outcome`` (the rules' or a forfeit's); the engine's exceptions propagate."""
        game, rules = match.game, match.rules
        roles = rules.roles
        writer = self._open_record(match)
        match.status = pb.MATCH_STATUS_RUNNING
        banks = {role: match.time_control.bank_ms for role in roles}
        rng = chance_rng(match.seed)
        substitutes = fault_rng(match.seed)
        state = match.final_state = game.new_state(rules)
        try:
            for role, seat in match.seats.items():
                message = self._match_started(match, role)
                if seat.kind == "local":
                    try:
                        await trio.to_thread.run_sync(seat.local.start, message)
                    except Exception as exc:  # noqa: BLE001 - the bot's own bug: a crash, no decision to substitute
                        match.count(role, CRASH)
                        raise Forfeit(role, CRASH, f"{role} ({seat.bot}) forfeits: bot raised "
                                                   f"{type(exc).__name__} when the match started: {exc}") from None
                elif seat.session is not None:
                    seat.session.send(message)
            while (decision := game.decision(state)) is not None:
                match.number = number = match.number + 1
                extra: dict[str, Any] = {}
                if decision.role == CHANCE:
                    index = sample_chance(rng, decision)
                else:
                    index, extra = await self._ask(match, state, decision, number, banks, substitutes)
                option = decision.options[index]
                game.apply(state, option)
                writer.write(move_line(number, decision.role, decision.step, option.key, **extra))
            match.outcome = game.outcome(state)
            if match.outcome is None:
                raise RuntimeError("the game asks no decision but has no outcome")
        except Forfeit as forfeit:
            log.info("forfeit", match=match.id, role=forfeit.role, kind=forfeit.kind)
            match.outcome = forfeit_outcome(roles, forfeit)

    async def _close_record(self, match: Match) -> None:
        """Close the record with the outcome line (a header first if the match never began)
        and fsync it."""
        writer = match.writer or self._open_record(match)
        extra: dict[str, Any] = {"fault_policy": POLICY_NAMES[match.policy]}
        if match.error_at is not None:
            extra["error_at"] = match.error_at
        writer.write(outcome_line(match.outcome, match.rules.roles, faults=match.faults, **extra))
        await trio.to_thread.run_sync(writer.close)

    async def _tell_seats(self, match: Match) -> None:
        """``MatchEnded`` to every seat, each with its role."""
        roles = match.rules.roles
        for role, seat in match.seats.items():
            seat.pending_id = 0
            ended = match_ended_message(match.id, match.outcome, roles, match.faults, role)
            if seat.kind == "local":
                try:
                    with trio.move_on_after(FINISH_TIMEOUT_S / 2):
                        await trio.to_thread.run_sync(seat.local.end, ended, abandon_on_cancel=True)
                except Exception as exc:  # noqa: BLE001 - the match is over; a bot failing to take it in changes nothing
                    log.warning("bot failed at the end of the match", match=match.id, role=role, error=repr(exc))
            elif seat.session is not None:
                seat.session.send(ended)

    async def _ask(
        self, match: Match, state: Any, decision: Any, number: int, banks: dict[str, int], substitutes: Any
    ) -> tuple[int, dict[str, Any]]:
        """The seat's answer to one decision, with clocks and the fault policy applied."""
        role = decision.role
        seat = match.seats[role]
        tc = match.time_control
        clocks = dict(banks) if tc.bank_ms else {}
        attempt = 0
        while True:
            allowance = tc.allowance(banks[role])
            started = trio.current_time()
            if seat.kind == "local":
                result = await self._ask_local(seat, state, decision, number, clocks, allowance)
            else:
                def build(history_from: int, attempt: int = attempt) -> bytes:
                    view = match.game.view(state, role, history_from)
                    if view["history"]:
                        seat.history_sent = view["history"][-1][0]
                    wire_view = encode_view(match.game.name, view)
                    return serialize(decision_message(match.id, number, decision, wire_view, clocks, attempt))

                seat.pending_message = build(seat.history_sent)
                seat.rebuild = build
                seat.pending_id = number
                result = await self._await_remote(match, seat, decision, number, allowance)
            elapsed_ms = (trio.current_time() - started) * 1000.0
            if tc.bank_ms:
                banks[role] = int(banks[role] - elapsed_ms + tc.increment_ms)
            if result[0] == "ok":
                _, index, think_ms = result
                seat.pending_id = 0
                extra = {"elapsed_ms": round(elapsed_ms, 3)}
                if think_ms is not None:
                    extra["think_ms"] = round(think_ms, 3)
                    if seat.kind != "local":
                        extra["rtt_ms"] = round(max(0.0, elapsed_ms - think_ms), 3)
                return index, extra
            kind, detail = result[1], result[2]
            match.count(role, kind)
            if seat.session is not None and seat.kind != "local":
                code = {TIMEOUT: pb.ERROR_CODE_TIMEOUT, ILLEGAL: pb.ERROR_CODE_ILLEGAL_OPTION,
                        STALE: pb.ERROR_CODE_STALE_DECISION}.get(kind, pb.ERROR_CODE_PROTOCOL)
                seat.session.error(code, detail, match.id, number)
            if match.policy == RANDOM:
                seat.pending_id = 0
                return substitutes.randrange(len(decision.options)), {"fault": kind, "substituted": True}
            if match.policy == RETRY and attempt < match.retries and kind != DISCONNECT:
                attempt += 1
                continue
            raise Forfeit(role, kind, f"{role} ({seat.bot}) forfeits: {detail}")

    async def _ask_local(self, seat: Seat, state: Any, decision: Any, number: int, clocks: dict, allowance: int):
        local = seat.local
        assert local is not None
        prepared = local.prepare(state, decision, number, clocks)
        started = trio.current_time()
        with trio.move_on_after(allowance / 1000.0):
            try:
                index = await trio.to_thread.run_sync(local.answer, prepared, abandon_on_cancel=True)
            except Exception as exc:  # noqa: BLE001 - the bot's own bug
                return ("fault", CRASH, f"bot raised {type(exc).__name__}: {exc}")
            think_ms = (trio.current_time() - started) * 1000.0
            if type(index) is not int or not 0 <= index < len(decision.options):
                return ("fault", ILLEGAL, f"answered {index!r}; options are 0..{len(decision.options) - 1}")
            return ("ok", index, think_ms)
        return ("fault", TIMEOUT, f"no answer within {allowance} ms")

    async def _await_remote(self, match: Match, seat: Seat, decision: Any, number: int, allowance: int):
        receive = seat.events[1]
        seat.sent_to = None
        if seat.session is not None:
            seat.session.send(seat.pending_message)
            seat.sent_to = seat.session
        deadline = trio.current_time() + allowance / 1000.0
        while True:
            if seat.session is None:
                if seat.disconnected_for_good:
                    return ("fault", DISCONNECT, "disconnected")
                # Wait for a reconnect within the grace window (the clock keeps running).
                with trio.move_on_after(match.grace_s):
                    await seat.connected.wait()
                if seat.session is None:
                    seat.disconnected_for_good = match.policy == RANDOM
                    return ("fault", DISCONNECT, f"disconnected and not back within {match.grace_s:g} s")
                continue  # reconnected: the hello handler re-sent MatchStarted; resend below
            with trio.move_on_at(deadline) as scope:
                event = await receive.receive()
            if scope.cancelled_caught:
                return ("fault", TIMEOUT, f"no answer within {allowance} ms")
            kind = event[0]
            if kind == "choice":
                _, decision_id, index, think_us, _received = event
                if decision_id != number:
                    # A late or early answer. Under `forfeit` it ends the match; otherwise it is
                    # counted and refused, and the pending decision may still be answered
                    # (substituting here would make every later answer stale in turn).
                    detail = f"decision id {decision_id} is not the pending one ({number})"
                    if match.policy == FORFEIT:
                        return ("fault", STALE, detail)
                    match.count(seat.role, STALE)
                    if seat.session is not None:
                        seat.session.error(pb.ERROR_CODE_STALE_DECISION, detail, match.id, decision_id)
                    continue
                if not 0 <= index < len(decision.options):
                    return ("fault", ILLEGAL, f"option index {index} out of range 0..{len(decision.options) - 1}")
                return ("ok", index, think_us / 1000.0 if think_us else None)
            if kind == "fault":
                return ("fault", event[1], event[2])
            if kind == "reconnect" and seat.session is not None and seat.sent_to is not seat.session:
                seat.disconnected_for_good = False
                seat.pending_message = seat.rebuild(0)  # a new session has no history yet
                seat.session.send(seat.pending_message)
                seat.sent_to = seat.session
            # "disconnect": loop round to the grace window
