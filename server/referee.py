"""The referee: bot sessions and matches, all in trio.

Everything here runs inside trio (started by :mod:`.bridge`); the gRPC edge (:mod:`.rpc`) only
pushes incoming messages into a session's :class:`~.bridge.Inbox` and drains its outbox, and maps
the referee's own errors to gRPC statuses. A match is a :class:`~.match.MatchDriver` (state,
chance, record, clocks, fault policy) driven by :meth:`Referee._play` over the match's seats
(:mod:`.seats`). A bot's failure (timeout, bad answer, disconnect, crash) is a *fault* handled by
the match's fault policy; it never ends another match or the server. An engine or referee error
ends its match as ``error``; a shutdown ends the rest as ``shutdown``: neither is a result.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog
import trio

from standoff.v1 import referee_pb2 as pb

from .answers import SeatAnswer
from .archive import Archive
from .auth import TokenRegistry
from .bridge import TrioBridge
from .core.game import Game, RulesError
from .faults import CRASH, FORFEIT, POLICY_NAMES, PROTOCOL, Forfeit, TimeControl
from .front import FrontDriver, play_hosted
from .host_pool import HostLink, HostPool
from .local import code_version, new_seed
from .match import RETRIED, Ask, MatchDriver, bot_seed
from .records import RecordFile
from .sandbox import Launch, Sandbox, plugin_launch
from .submissions import SubmissionError, is_entrant, resolve
from .seats import HostedSeat, InProcessSeat, LocalSeat, RemoteSeat, RunnerSeat, Seat
from .sessions import (
    LOG_EVERY,
    LOG_FIRST,
    PROTOCOL_VERSION,
    SEAT_EVENTS_LIMIT,
    UNDECODABLE,
    Ending,
    Session,
    short,
    welcome_message,
)

log = structlog.get_logger("standoff.referee")

#: Seconds a match may take to close its record and tell its seats, even when cancelled.
FINISH_TIMEOUT_S = 10.0
#: How often a match waiting for a bot that is busy in its other matches looks again (whether the
#: bot is still connected at all: only an absent bot's wait runs out)
BUSY_POLL_S = 0.5


class MatchError(ValueError):
    """A match that cannot be started as asked (unknown game or bot, bad options...)."""


class ShuttingDown(MatchError):
    """The server is draining: it takes no new match."""


@dataclass(eq=False)
class Match:
    id: str
    game: Game
    rules: Any
    seed: int
    seats: dict[str, Seat]
    driver: MatchDriver
    time_control: TimeControl
    policy: int
    retries: int
    connect_timeout_s: float
    grace_s: float
    record: RecordFile  # where the driver's record lines go
    status: int = pb.MATCH_STATUS_WAITING
    done: trio.Event = field(default_factory=trio.Event)
    scope: trio.CancelScope | None = None  # cancelled to end the match as `shutdown`
    position: dict[str, Any] | None = None  # where it starts, when not from the deal
    host: HostLink | None = None  # split referee: where the match is played (see .hosting)
    hosted_flags: dict[str, int] | None = None  # a hosted match's flags claimed, once over
    hosted_fallbacks: dict[str, int] = field(default_factory=dict)  # its built-in bots' fallbacks

    @property
    def record_path(self) -> Path:
        return self.record.path

    @property
    def outcome(self) -> Any:
        return self.driver.outcome

    @property
    def faults(self) -> dict[str, dict[str, int]]:
        return self.driver.faults

    @property
    def final_state(self) -> Any:
        """The state the match ended in; None if never begun, or played by a host."""
        return self.driver.state

    def flags_claimed(self) -> dict[str, int]:
        """Each role's flags when the match ended (multi-game matches count them); empty for a
        game without flags or a match never begun."""
        if self.hosted_flags is not None:
            return self.hosted_flags
        from .specs import capability

        claimed = capability(self.game, "flags_claimed")
        return claimed(self.final_state) if claimed is not None and self.final_state is not None else {}

    def __post_init__(self) -> None:
        # Looked up at every remote answer; a match's seats are fixed when it is created.
        self._remote_seats = tuple(seat for seat in self.seats.values() if isinstance(seat, RemoteSeat))

    def remote_seats(self) -> tuple[RemoteSeat, ...]:
        return self._remote_seats

    def summary(self, *, seed: bool = False) -> pb.MatchSummary:
        """The match as ``ListMatches`` shows it. The seed only with ``seed=True``: callers pass
        it once the match is over (:meth:`Referee.withheld`)."""
        msg = pb.MatchSummary(
            match_id=self.id, game=self.game.name, ruleset=self.rules.ruleset, status=self.status,
            seed=self.seed if seed else 0,
        )
        for role in self.rules.roles:
            msg.seats.add(role=role, bot=self.seats[role].bot)
        if self.outcome is not None:
            msg.result.CopyFrom(self.driver.ended_message("").match_ended)
        return msg


class Referee:
    """Owns every session and match of a server."""

    #: The registry ``NAME@VERSION`` bots are found in (:mod:`.submissions`): ``standoff serve
    #: --submissions``, a tournament's ``submissions``; None: no submitted bot plays here.
    submissions: Path | None = None

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
        hosts: HostPool | None = None,
        sandbox: Sandbox | None = None,
        socket_dir: Path | None = None,
    ) -> None:
        self.bridge = bridge
        # How untrusted plugin bots run (:mod:`.sandbox`): sandboxed, their one channel the Unix
        # socket in ``socket_dir`` (None: the server does not listen on one).
        self.sandbox = sandbox if sandbox is not None else Sandbox()
        self.socket_dir = socket_dir
        # Split referee: matches are played by hosts (worker processes, Ray actors), this process
        # only holds sessions and routes bytes. None: every match is played here.
        self.hosts = hosts
        self.tokens = tokens
        self.registry = registry  # plugin registry: .games, .bot(name)
        self.inbox_limit = inbox_limit
        self.grace_s = grace_s
        self.address = address
        self.archive = Archive(data_dir, registry, ledger=ledger, verify=verify)
        self.sessions: dict[str, Session] = {}  # identity name -> live (helloed) session
        self.live_sessions: set[Session] = set()  # every open session, helloed or not
        self.matches: dict[str, Match] = {}
        self.nursery: trio.Nursery | None = None
        self.draining = False  # shutting down: no new sessions (but reconnects) and no new matches
        #: Told ``(match_id, number)`` after each decision line a match's record gets, and
        #: ``(match_id, None)`` once a finished match left :attr:`matches` (its record closed): a
        #: live view of the matches (the web face) wakes on it instead of polling. Called in trio,
        #: synchronously: an observer must not block (it wakes its own tasks).
        self.observers: list[Callable[[str, int | None], None]] = []

    @property
    def data_dir(self) -> Path:
        return self.archive.data_dir

    @data_dir.setter
    def data_dir(self, folder: Path) -> None:
        self.archive.data_dir = folder

    # -- lifecycle ---------------------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        self.archive.load()
        try:
            async with trio.open_nursery() as nursery:
                self.nursery = nursery
                if self.hosts is not None:
                    await self.hosts.start(nursery)
                task_status.started()
                try:
                    await trio.sleep_forever()
                finally:
                    if self.hosts is not None:
                        with trio.CancelScope(shield=True):
                            await self.hosts.aclose()
        finally:
            self.archive.close()

    async def drain(self, timeout_s: float, hurry: trio.Event | None = None) -> None:
        """A graceful shutdown: take no new session (reconnects of seated bots excepted) and
        no new match; matches still waiting for their seats end now; running matches get
        ``timeout_s`` seconds (or until ``hurry`` is set) to finish, then end as ``shutdown``.
        Every match ends with its record closed and ``MatchEnded`` sent; then every session's
        stream ends normally."""
        self.draining = True
        log.info("draining", running=len(self.matches), timeout_s=timeout_s)
        for match in list(self.matches.values()):
            if match.status == pb.MATCH_STATUS_WAITING and match.scope is not None:
                match.scope.cancel()

        async def all_done() -> None:
            for match in list(self.matches.values()):
                await match.done.wait()

        with trio.move_on_after(timeout_s):
            async with trio.open_nursery() as nursery:
                async def first(wait: Any) -> None:
                    await wait()
                    nursery.cancel_scope.cancel()

                nursery.start_soon(first, all_done)
                if hurry is not None:
                    nursery.start_soon(first, hurry.wait)
        for match in list(self.matches.values()):
            if match.scope is not None:
                match.scope.cancel()
        with trio.move_on_after(FINISH_TIMEOUT_S + 1):
            await all_done()
        for session in list(self.live_sessions):
            session.error(pb.ERROR_CODE_SHUTTING_DOWN, "the server is shutting down")
            session.end()  # no error status: the session is over, the server going away

    # -- finished matches --------------------------------------------------------------------------

    def withheld(self, match_id: str) -> bool:
        """Whether the record and seed of ``match_id`` may not be served yet: the match is not
        over. (A tournament pairs the legs of a seed only among trusted bots, whose matches its
        match executor plays, not the referee: no tournament match here shares its seed with
        another, so none is held back for a partner.)"""
        return match_id in self.matches

    def public_summary(self, summary: pb.MatchSummary) -> pb.MatchSummary:
        """A finished match's summary as it may be served now (seed 0 while withheld)."""
        if summary.seed and self.withheld(summary.match_id):
            summary = pb.MatchSummary.FromString(summary.SerializeToString())
            summary.seed = 0
        return summary

    # -- sessions (called in trio through the bridge) ----------------------------------------------

    def open_session(self, session: Session) -> None:
        assert self.nursery is not None
        self.live_sessions.add(session)
        self.nursery.start_soon(self._session_task, session)

    def is_seated(self, name: str) -> bool:
        """Whether the identity ``name`` holds a seat in a match not over yet (so that it may
        reconnect while the server drains)."""
        return any(seat.identity == name for match in self.matches.values() for seat in match.remote_seats())

    async def _session_task(self, session: Session) -> None:
        slog = log.bind(session=session.id, bot=session.identity.name)

        # Messages are handled here, or straight from the gRPC reader once nothing is queued
        # (``Inbox.direct``, one-thread driver only): the same function, one message at a time.
        def handle(message: Any) -> None:
            if session.closed:
                return
            try:
                self._handle(session, message, slog)
            except Exception:  # a referee bug must not take the server down: end this session
                slog.exception("session handler failed")
                self._end_session(session, Ending.REFEREE_ERROR, "internal referee error")

        with trio.CancelScope() as scope:
            session.cancel = scope
            try:
                while (message := await session.inbox.get()) is not None:
                    if session.closed:
                        break
                    handle(message)
                    if not session.inbox.items:
                        session.inbox.direct = handle
            finally:
                session.inbox.direct = None
                self._session_gone(session)
                slog.info("session closed", protocol_errors=session.protocol_errors)

    def _end_session(self, session: Session, ending: Ending | None = None, details: str = "") -> None:
        if ending is not None and not session.closed:
            log.info("ending session", session=session.id, bot=session.identity.name, ending=ending.value,
                     details=details)
        session.end(ending, details)

    def _notify(self, session: Session, seat: RemoteSeat, event: tuple[Any, ...]) -> bool:
        """Hand a session's answer (or protocol fault) to its seat's match loop. A seat that is not
        being asked keeps at most SEAT_EVENTS_LIMIT of them; past that the session is flooding
        (its seats then see a disconnect)."""
        if len(seat.events) >= SEAT_EVENTS_LIMIT:
            self._end_session(session, Ending.FLOODING,
                              f"more than {SEAT_EVENTS_LIMIT} answers waiting for one seat: flooding")
            return False
        seat.events.send_nowait(event)
        return True

    @staticmethod
    def _wake(seat: RemoteSeat, event: tuple[Any, ...]) -> None:
        """A control event (disconnect, reconnect) for a seat's match loop. It only wakes a loop
        that waits for the seat, whose queue is then empty: with a long queue the loop is not
        waiting, finds the seat's state as it is when it next asks, and the event is not needed
        (so a reconnect storm cannot grow the queue without bound)."""
        if len(seat.events) < SEAT_EVENTS_LIMIT:
            seat.events.send_nowait(event)

    def _session_gone(self, session: Session) -> None:
        self._end_session(session)
        self.live_sessions.discard(session)
        if self.sessions.get(session.identity.name) is session:
            del self.sessions[session.identity.name]
        for match in self.matches.values():
            for seat in match.remote_seats():
                if seat.session is session:
                    seat.session = None
                    seat.connected = trio.Event()
                    self._wake(seat, ("disconnect",))

    def _handle(self, session: Session, message: pb.PlayRequest, slog: Any) -> None:
        if message is UNDECODABLE:
            self._end_session(session, Ending.UNDECODABLE, "a message that is not a PlayRequest")
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
            for seat in match.remote_seats():
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
            self._end_session(session, Ending.UNSUPPORTED_VERSION, "unsupported protocol version")
            return
        session.helloed = True
        session.games = tuple(hello.games)
        session.max_matches = max(1, hello.max_concurrent_matches)
        name = session.identity.name
        older = self.sessions.get(name)
        if older is not None and older is not session:
            # Reconnect semantics: the newest session of a bot takes over its seats (the older
            # stream may be dead without the server knowing yet). The older one ends now, which
            # also frees its place under --max-sessions-per-bot.
            older.error(pb.ERROR_CODE_SUPERSEDED, "superseded by a newer session with the same token")
            self._end_session(older)
            self._session_gone(older)
        self.sessions[name] = session
        resumed = self._take_seats(name)
        session.send(welcome_message(name, session.id, code_version(), sorted({m.id for m, _ in resumed})))
        for match, seat in resumed:
            session.send(match.driver.started_message(seat.role))
            self._wake(seat, ("reconnect",))
        slog.info("hello", bot_name=short(hello.bot_name), version=short(hello.bot_version), resumed=len(resumed))

    def _take_seats(self, name: str) -> list[tuple[Match, RemoteSeat]]:
        """Give bot ``name``'s session the seats waiting for it: first those of its running matches
        (a reconnect), then, oldest match first, those of matches it may still join under its
        ``max_concurrent_matches`` (one bot object playing two matches at once would mix their
        state; and a bot seated in two legs of a deal could race one against the other). A match
        it cannot join yet waits until one of its others ends (:meth:`_wait_for_seats`). Returns
        the running matches' seats it took again."""
        session = self.sessions.get(name)
        if session is None:
            return []
        live = [m for m in self.matches.values() if m.status in (pb.MATCH_STATUS_WAITING, pb.MATCH_STATUS_RUNNING)]
        joined = {m.id for m in live for s in m.remote_seats() if s.session is session}
        resumed = []
        # Running matches first: their seats are this bot's already, whatever its limit now.
        for match in sorted(live, key=lambda m: m.status != pb.MATCH_STATUS_RUNNING):
            for seat in match.remote_seats():
                if seat.identity != name or seat.session is not None:
                    continue
                running = match.status == pb.MATCH_STATUS_RUNNING
                if not running and match.id not in joined and len(joined) >= session.max_matches:
                    continue
                seat.session = session
                seat.history_sent = 0
                seat.connected.set()
                joined.add(match.id)
                if running:
                    resumed.append((match, seat))
        return resumed

    def _choice(self, session: Session, choice: pb.Choice) -> None:
        # On the path of every remote answer (inside the clock): each field is read once.
        match_id, decision_id = choice.match_id, choice.decision_id
        match = self.matches.get(match_id)
        seats = [] if match is None else [s for s in match.remote_seats() if s.session is session]
        if not seats or match.status != pb.MATCH_STATUS_RUNNING:
            self._refuse_choice(session, match_id, decision_id, bool(seats))
            return
        if len(seats) == 1:
            seat = seats[0]
        else:  # Self-play: both seats may belong to one session; the decision id tells which.
            seat = next((s for s in seats if s.pending_id == decision_id), None)
            seat = seat or next((s for s in seats if s.pending_id), seats[0])
        if decision_id > seat.last_sent:
            # An answer to a question not yet asked (a bot guessing the next decision id): refused
            # at once, never queued as that decision's answer, which would run on no clock
            # (docs/protocol.md, "Decision ids"). The match loop counts it as a stale answer.
            detail = f"decision id {decision_id} was not sent yet"
            session.error(pb.ERROR_CODE_STALE_DECISION, detail, match_id, decision_id)
            self._notify(session, seat, ("stale", detail))
            return
        # With when the answer reached the referee (its session's inbox took it): the bot's clock
        # stops there (docs/protocol.md, "Clocks"), not when the match loop runs again.
        event = ("choice", decision_id, choice.option_index, choice.think_us, session.inbox.arrived)
        self._notify(session, seat, event)

    def _refuse_choice(self, session: Session, match_id: str, decision_id: int, seated: bool) -> None:
        """An answer for no running match of this session's: stale if the match is over."""
        # Ids are echoed back only when they can be real ones (no megabyte of garbage returned).
        echoed = match_id if len(match_id) <= 64 else ""
        # Over: asked of the index (a real id is short; a megabyte of garbage is not looked up).
        if seated or (len(match_id) <= 256 and self.archive.has(match_id)):
            session.error(pb.ERROR_CODE_STALE_DECISION, "the match is over", echoed, decision_id)
        else:
            session.error(pb.ERROR_CODE_NOT_YOUR_MATCH, f"match {short(match_id, 64)!r} has no seat of yours",
                          echoed, decision_id)

    # -- matches -----------------------------------------------------------------------------------

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
        position: Any = None,
        leg: int = 0,
    ) -> Match:
        """Validate and register a match (not started yet). Raises :class:`MatchError`.

        ``position`` (a position dict, or its JSON or text form; docs/positions.md): start from it
        instead of the deal; it carries its ruleset and options (``ruleset``/``options`` must then
        be empty or the same), and the record's header carries it.

        Without a ``seed`` the referee draws a secret one (:func:`new_seed`): it is served
        (``ListMatches``, the record) only once the match is over. ``leg``: the leg of a paired
        seed (a tournament's), for the seats' bot seeds (:func:`~.match.bot_seed`)."""
        game = self.registry.games.get(game_name)
        if game is None:
            raise MatchError(f"unknown game {game_name!r} (known: {', '.join(sorted(self.registry.games))})")
        try:
            rules = game.rules(ruleset or None, options)
        except RulesError as exc:
            raise MatchError(str(exc)) from None
        if position is not None:
            rules, position = _start_position(game, rules, position, bool(ruleset or options))
        if len(bots) != len(rules.roles):
            raise MatchError(f"{game_name} needs {len(rules.roles)} bots (one per role), got {len(bots)}")
        if policy not in POLICY_NAMES:
            policy = FORFEIT
        if self.draining:
            raise ShuttingDown("the server is shutting down: no new matches")
        match_id = match_id or secrets.token_hex(6)
        seed = seed or new_seed()
        seats = {role: self._seat(role, bot, game, seed, match_id, leg)
                 for role, bot in zip(rules.roles, bots, strict=True)}
        time_control = time_control or TimeControl()
        record = RecordFile(self.data_dir / "records" / f"{match_id}.jsonl")
        driver = (FrontDriver if self.hosts is not None else MatchDriver)(
            game, rules, seed, {role: seat.bot for role, seat in seats.items()}, match_id=match_id,
            time_control=time_control, policy=policy, retries=retries, on_line=self._observed(match_id, record),
            code_version=code_version(),
            position=position, leg=leg,
        )
        match = Match(match_id, game, rules, seed, seats, driver, time_control, policy, retries, connect_timeout_s,
                      self.grace_s, record, position=position)
        self.matches[match_id] = match
        # A remote bot that is already connected takes its seat now, if it may play one more match.
        for name in dict.fromkeys(s.identity for s in seats.values() if type(s) is RemoteSeat):
            self._take_seats(name)
        return match

    def _observed(self, match_id: str, record: RecordFile) -> Callable[[dict[str, Any]], None]:
        """The record's ``on_line``, telling :attr:`observers` each decision's number after its
        line is written (the line itself stays here: it may be a secret draw)."""
        observers = self.observers

        def on_line(line: dict[str, Any]) -> None:
            record(line)
            if observers and line.get("type") == "decision":
                for observer in observers:
                    observer(match_id, line["n"])

        return on_line

    def _seat(self, role: str, bot: str, game: Game, seed: int, match_id: str, leg: int = 0) -> Seat:
        if bot.startswith("remote:"):
            name = bot.split(":", 1)[1]
            if not name:
                raise MatchError(f"{bot!r}: remote bots are written remote:NAME")
            return RemoteSeat(role, bot, name)
        if is_entrant(bot):  # a submitted bot, NAME@VERSION: untrusted, run from its own venv
            try:
                submission = resolve(self.submissions, bot, game.name)
            except SubmissionError as exc:
                raise MatchError(str(exc)) from None
            return self._runner_seat(role, bot, match_id, submission.launch())
        try:
            spec = self.registry.bot(bot)
        except LookupError as exc:
            raise MatchError(str(exc.args[0] if exc.args else exc)) from None
        if spec.games and game.name not in spec.games:
            raise MatchError(f"bot {bot!r} does not play {game.name}")
        if spec.trusted and self.hosts is not None:
            return HostedSeat(role, bot)
        if spec.trusted:
            return LocalSeat(role, bot, InProcessSeat(spec.factory(bot_seed(seed, role, leg)), game, match_id))
        return self._runner_seat(role, bot, match_id, plugin_launch(bot))

    def _runner_seat(self, role: str, bot: str, match_id: str, launch: Launch) -> RunnerSeat:
        """The seat of an untrusted bot, run by ``launch``: in a sandbox, unless the organiser
        said ``--unsandboxed``; refused (one line naming the package to install) where no
        sandbox can be made."""
        seat = RunnerSeat(role, bot, f"plugin:{bot}:{match_id}:{role}")
        seat.match_id = match_id
        if self.sandbox.enabled:
            refusal = self.sandbox.refusal(bot)
            if refusal is None and self.socket_dir is None:
                refusal = f"bot {bot!r} is an untrusted plugin and runs only in a sandbox: this referee has no socket for it"
            if refusal is not None:
                raise MatchError(refusal)
            seat.sandbox, seat.socket_dir = self.sandbox, self.socket_dir
        seat.launch = launch
        return seat

    def start_match(self, match: Match) -> None:
        assert self.nursery is not None
        self.nursery.start_soon(self._run_match, match)

    async def _run_match(self, match: Match) -> None:
        """Play ``match`` to its end, whatever happens: an engine or referee exception ends it as
        ``error``, a cancellation (shutdown) as ``shutdown``; either way the record gets its
        outcome line and is fsync'd, and every seat gets ``MatchEnded``. Neither is a result."""
        mlog = log.bind(match=match.id, game=match.game.name)
        driver = match.driver
        try:
            # Its index row first ('playing'), before its record's first line: a start after a
            # kill finds the record from it (Archive.load).
            await self.archive.begin(match.id, match.game.name, match.rules.ruleset,
                                     {role: seat.bot for role, seat in match.seats.items()}, match.record_path)
            with trio.CancelScope() as match.scope:
                try:
                    async with trio.open_nursery() as runners:
                        await self._start_runners(match, runners)
                        if await self._wait_for_seats(match):
                            if self.hosts is not None:
                                await play_hosted(self.hosts, match, mlog)
                            else:
                                await self._play(match)
                        runners.cancel_scope.cancel()
                except Exception as exc:  # an engine or referee bug ends this match only, never as a result
                    exc = _single(exc)
                    driver.end_by_error(exc)
                    mlog.error("match ended by an error", decision=driver.number, exc_info=exc)
        finally:
            driver.end_by_shutdown()  # unless it ended already
            # Shielded: a match cancelled by a shutdown still closes its record and tells its
            # seats. In this order: the record (fsync'd), its ledger line, the record servable,
            # then MatchEnded: a seat hears of the end only once the record says it.
            with trio.CancelScope(shield=True):
                try:
                    with trio.move_on_after(FINISH_TIMEOUT_S):
                        await self._close_record(match)
                except Exception:  # noqa: BLE001 - e.g. a full disk: logged, the server goes on
                    mlog.exception("could not finish the match record")
                for seat in match.seats.values():
                    if isinstance(seat, RunnerSeat):
                        self.tokens.forget_ephemeral(seat.identity)
                summary = match.summary(seed=True)
                summary.status = pb.MATCH_STATUS_FINISHED
                try:
                    await self.archive.add(summary, match.record_path, driver.faults)
                except Exception:  # noqa: BLE001 - logged; a restart adds the missing line from the record
                    mlog.exception("could not append to the ledger")
                # Finished and gone from the live table in one step (no checkpoint between): a
                # match ListMatches shows finished is one GetMatchRecord serves.
                match.status = pb.MATCH_STATUS_FINISHED
                self.matches.pop(match.id, None)  # finished matches live on in their records
                for observer in self.observers:
                    observer(match.id, None)
                with trio.move_on_after(FINISH_TIMEOUT_S):
                    await self._tell_seats(match)
                # After MatchEnded: its bots may take their next waiting match.
                for name in dict.fromkeys(s.identity for s in match.remote_seats()):
                    self._take_seats(name)
            match.done.set()
            mlog.info("match finished", termination=driver.outcome.termination)

    async def _start_runners(self, match: Match, nursery: trio.Nursery) -> None:
        """Third-party plugin bots play through the SDK in a subprocess of their own."""
        for seat in match.seats.values():
            if isinstance(seat, RunnerSeat):
                nursery.start_soon(seat.run, self.address, self.tokens.mint_ephemeral(seat.identity))

    async def _wait_for_seats(self, match: Match) -> bool:
        """Wait until every remote seat has its bot. A bot that is connected but playing as many
        matches as it said it plays at once is not absent: its wait has no deadline. Only
        ``connect_timeout_s`` without a session of the bot at all makes the match not played."""
        waiting = match.remote_seats()
        deadline = trio.current_time() + match.connect_timeout_s
        for seat in waiting:
            # A runner that died before its bot connected: the match is played, and the seat's
            # first decision is its fault (RemoteSeat.gone), at once.
            while not seat.connected.is_set() and seat.gone is None:
                if seat.identity in self.sessions:  # busy with its other matches
                    deadline = max(deadline, trio.current_time() + match.connect_timeout_s)
                elif trio.current_time() >= deadline:
                    missing = [s.bot for s in waiting if s.session is None]
                    match.driver.end_without_result("not_played", f"never connected: {', '.join(missing)}")
                    return False
                # Polled: a busy bot's session may go away without waking this seat.
                with trio.move_on_at(min(deadline, trio.current_time() + BUSY_POLL_S)):
                    await seat.connected.wait()
        return True

    async def _play(self, match: Match) -> None:
        """The referee's shell around the match driver: MatchStarted to every seat, then ask the
        seat of each decision until the driver says the match is over. Engine exceptions
        propagate (the match ends as ``error``)."""
        driver = match.driver
        match.status = pb.MATCH_STATUS_RUNNING
        try:
            for role, seat in match.seats.items():
                try:
                    await seat.start(match, driver.started_message(role))
                except Exception as exc:  # noqa: BLE001 - an in-process bot's own bug: a crash, no decision to substitute
                    driver.count(role, CRASH)
                    raise Forfeit(role, CRASH, f"{role} ({seat.bot}) forfeits: bot raised "
                                               f"{type(exc).__name__} when the match started: {exc}") from None
            while (ask := driver.next_ask()) is not None:
                await self._ask(match, ask)
        except Forfeit as forfeit:
            log.info("forfeit", match=match.id, role=forfeit.role, kind=forfeit.kind)
            driver.forfeit(forfeit)

    async def _ask(self, match: Match, ask: Ask) -> None:
        """The seat's answer to one decision (timed by the seat: from when the decision left for
        the bot, after its view was built, to when the answer reached the referee, before the
        match loop ran again); the driver settles it, and decides what follows a fault
        (substitute, ask again, forfeit)."""
        seat = match.seats[ask.role]
        driver = match.driver
        while True:
            result = await seat.ask(match, ask)
            if type(result) is SeatAnswer:
                seat.asked()
                driver.settle(ask, result)
                return
            seat.faulted(match.id, ask.number, result.kind, result.detail)
            if driver.settle(ask, result) != RETRIED:
                seat.asked()
                return
            ask = driver.retry(ask)

    async def _close_record(self, match: Match) -> None:
        """The outcome line (after the header, if the match never began), then fsync."""
        match.driver.finish()
        await trio.to_thread.run_sync(match.record.close)

    async def _tell_seats(self, match: Match) -> None:
        """``MatchEnded`` to every seat, each with its role."""
        for role, seat in match.seats.items():
            try:
                with trio.move_on_after(FINISH_TIMEOUT_S / 2):
                    await seat.end(match, match.driver.ended_message(role))
            except Exception as exc:  # noqa: BLE001 - the match is over; a bot failing to take it in changes nothing
                log.warning("bot failed at the end of the match", match=match.id, role=role, error=repr(exc))


def _single(exc: BaseException) -> BaseException:
    """The exception inside nested one-exception groups (trio's nurseries wrap what they raise)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _start_position(game: Any, rules: Any, position: Any, explicit: bool) -> tuple[Any, dict[str, Any]]:
    """A match's start position, checked: ``(its rules, the position written whole)``; raises
    :class:`MatchError` with the loader's one line."""
    from .positions import PositionError, from_position, to_position

    try:
        state = from_position(game, position)
        if explicit and (state.rules.ruleset, dict(state.rules.options)) != (rules.ruleset, dict(rules.options)):
            raise PositionError("the position's ruleset and options differ from the match's")
        if game.decision(state) is None:
            raise PositionError("the match is over in this position")
        return state.rules, to_position(state, game)
    except PositionError as exc:
        raise MatchError(f"start position: {exc}") from None
