"""The referee: bot sessions, seats and the match loop, all in trio.

Everything here runs inside trio (started by :mod:`.bridge`); the gRPC side only pushes incoming
messages into a session's :class:`~.bridge.Inbox` and drains its outgoing queue. A bot's failure
(timeout, bad answer, disconnect, crash) is a *fault* handled by the match's fault policy; it never
ends another match or the server.
"""

from __future__ import annotations

import asyncio
import math
import random
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
from .core.record import outcome_line
from .core.seeds import derive_seed
from .faults import (
    CRASH,
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
    fault_rng,
    forfeit_outcome,
)
from .faults import count as count_fault
from .local import InProcessSeat, bot_seed, chance_rng, code_version, sample_chance
from .records import RecordWriter, read_record
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
#: Protocol errors logged per session (the rest are counted, and logged every LOG_EVERY-th).
LOG_FIRST, LOG_EVERY = 5, 1000


#: Put in a session's inbox by the gRPC reader where bytes that are no PlayRequest came: the
#: session handles what came before, then ends with INVALID_ARGUMENT (unless it ended already).
UNDECODABLE = object()


def _short(text: str, limit: int = 80) -> str:
    """A client-given string as it may appear in logs and echoed errors."""
    return text if len(text) <= limit else text[:limit] + f"...({len(text)} chars)"


class MatchError(ValueError):
    """A match that cannot be started as asked (unknown game or bot, bad options...)."""


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

    def count(self, role: str, kind: str) -> None:
        count_fault(self.faults, role, kind)

    def summary(self) -> pb.MatchSummary:
        msg = pb.MatchSummary(
            match_id=self.id, game=self.game.name, ruleset=self.rules.ruleset, status=self.status, seed=self.seed
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

    # -- lifecycle ------------------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        (self.data_dir / "records").mkdir(parents=True, exist_ok=True)
        self._load_finished()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    def _load_finished(self) -> None:
        """Finished matches of earlier runs, from their records (never a mutable store)."""
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

    # -- sessions (called in trio through the bridge) --------------------------------------------

    def open_session(self, session: Session) -> None:
        assert self.nursery is not None
        self.nursery.start_soon(self._session_task, session)

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
    ) -> Match:
        """Validate and register a match (not started yet). Raises :class:`MatchError`."""
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
        match_id = match_id or secrets.token_hex(6)
        seed = seed or derive_seed("server-match", match_id)
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
        return match

    def start_match(self, match: Match) -> None:
        assert self.nursery is not None
        self.nursery.start_soon(self._run_match, match)

    async def _run_match(self, match: Match) -> None:
        mlog = log.bind(match=match.id, game=match.game.name)
        try:
            async with trio.open_nursery() as runners:
                await self._start_runners(match, runners)
                if await self._wait_for_seats(match):
                    await self._play(match, mlog)
                runners.cancel_scope.cancel()
        except Exception:  # a referee bug must not take the server down: end this match only
            mlog.exception("match crashed in the referee")
            if match.outcome is None:
                match.outcome = Outcome.draw(match.rules.roles, "aborted", "internal referee error")
        finally:
            match.status = pb.MATCH_STATUS_FINISHED
            for seat in match.seats.values():
                if seat.kind == "runner":
                    self.tokens.forget_ephemeral(seat.identity)
            self.finished.append(match.summary())
            self.finished_ids.add(match.id)
            self.matches.pop(match.id, None)  # finished matches live on in their records
            match.done.set()
            mlog.info("match finished", termination=match.outcome.termination if match.outcome else None)

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
        match.outcome = Outcome.draw(
            match.rules.roles, "not_played", f"never connected: {', '.join(missing)}"
        )
        self._write_unplayed(match)
        return False

    def _write_unplayed(self, match: Match) -> None:
        path = self.data_dir / "records" / f"{match.id}.jsonl"
        from .core.record import make_header

        with RecordWriter(path) as writer:
            writer.write(make_header(match.game, match.rules, match.seed, self._bot_names(match),
                                     match_id=match.id, code_version=code_version()))
            writer.write(outcome_line(match.outcome, match.rules.roles, faults=match.faults))
        match.record_path = path

    def _bot_names(self, match: Match) -> dict[str, str]:
        return {role: seat.bot for role, seat in match.seats.items()}

    def _match_started(self, match: Match, role: str) -> pb.PlayResponse:
        tc = match.time_control
        return match_started_message(
            match.id, match.game, match.rules, role, self._bot_names(match), bot_seed(match.seed, role),
            bank_ms=tc.bank_ms, increment_ms=tc.increment_ms, max_per_decision_ms=tc.max_per_decision_ms,
            fault_policy=match.policy,
        )

    async def _play(self, match: Match, mlog: Any) -> None:
        from .core.record import make_header, move_line

        game, rules = match.game, match.rules
        roles = rules.roles
        path = self.data_dir / "records" / f"{match.id}.jsonl"
        match.record_path = path
        writer = RecordWriter(path)
        writer.write(make_header(game, rules, match.seed, self._bot_names(match), match_id=match.id,
                                 code_version=code_version()))
        match.status = pb.MATCH_STATUS_RUNNING
        banks = {role: match.time_control.bank_ms for role in roles}
        rng = chance_rng(match.seed)
        substitutes = fault_rng(match.seed)
        for role, seat in match.seats.items():
            message = self._match_started(match, role)
            if seat.kind == "local":
                await trio.to_thread.run_sync(seat.local.start, message)
            elif seat.session is not None:
                seat.session.send(message)
        state = game.new_state(rules)
        number = 0
        try:
            while (decision := game.decision(state)) is not None:
                number += 1
                extra: dict[str, Any] = {}
                if decision.role == CHANCE:
                    index = sample_chance(rng, decision)
                else:
                    index, extra = await self._ask(match, state, decision, number, banks, substitutes)
                option = decision.options[index]
                game.apply(state, option)
                writer.write(move_line(number, decision.role, decision.step, option.key, **extra))
            match.outcome = game.outcome(state)
        except Forfeit as forfeit:
            match.final_state = state
            mlog.info("forfeit", role=forfeit.role, kind=forfeit.kind)
            match.outcome = forfeit_outcome(roles, forfeit)
        match.final_state = state
        assert match.outcome is not None
        writer.write(outcome_line(match.outcome, roles, faults=match.faults,
                                  fault_policy=POLICY_NAMES[match.policy]))
        await trio.to_thread.run_sync(writer.close)
        ended = match_ended_message(match.id, match.outcome, roles, match.faults)
        for seat in match.seats.values():
            seat.pending_id = 0
            if seat.kind == "local":
                await trio.to_thread.run_sync(seat.local.end, ended)
            elif seat.session is not None:
                seat.session.send(ended)

    async def _ask(
        self, match: Match, state: Any, decision: Any, number: int, banks: dict[str, int], substitutes: random.Random
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
