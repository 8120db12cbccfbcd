"""Seats played in this process: :class:`InProcessSeat` drives a trusted bot exactly as the wire
would (every message serialised and decoded again before the bot sees it: no shared objects
with the referee), so a bot behaves the same in-process and over the network.

The referee's seats are here too, each asked with ``await seat.ask(match, ask)``: a trusted
bot in a worker thread, or inline if it is quick (:class:`LocalSeat`), a bot connected with a
token (:class:`RemoteSeat`), a third-party plugin bot in a subprocess of its own
(:class:`RunnerSeat`).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
import sys
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import outcome
import structlog
import trio

from standoff.v1 import referee_pb2 as pb

from .bot_failures import failure_line
from .decisions import Decision as BotDecision
from .decisions import HistoryBook, decode_decision, decode_match_ended, decode_match_started
from .decisions import Option as BotOption
from .answers import SeatAnswer, SeatFault, SeatResult, illegal, no_answer
from .core.game import Decision, Game
from .faults import CRASH, DISCONNECT, FORFEIT, ILLEGAL, RANDOM, STALE, TIMEOUT
from .runner_exit import StderrTail, runner_fault
from .sandbox import SLOTS, Launch, Sandbox, Sandboxed, sandboxed, start_runner
from .wire import decision_message, encode_view, serialize

log = structlog.get_logger("standoff.referee")

_BOT_OPTIONS: dict[tuple[str, str], BotOption] = {}


def _bot_option(option: Any) -> BotOption:
    """The SDK's Option for an engine option (memoised: engines reuse their option values)."""
    key = (option.key, option.label)
    found = _BOT_OPTIONS.get(key)
    if found is None:
        if len(_BOT_OPTIONS) > 100_000:
            _BOT_OPTIONS.clear()
        found = _BOT_OPTIONS[key] = BotOption(option.key, option.label)
    return found


class InProcessSeat:
    """Drives a trusted in-process bot exactly as the wire would: every message is serialised
    and decoded again before the bot sees it (no shared objects with the referee)."""

    def __init__(self, bot: Any, game: Game, match_id: str) -> None:
        self.bot = bot
        self.game = game
        self.match_id = match_id
        self.uses_view = getattr(bot, "uses_view", True)
        #: The bot says it answers within about a millisecond (``Bot.quick``): the referee asks it
        #: on its own thread, not in a worker thread.
        self.quick = getattr(bot, "quick", False) is True
        self.history_sent = 0  # history entries already sent: later views carry only the new ones
        self.book = HistoryBook()
        # Held while the bot runs: a ``choose`` left running past its time (its worker thread
        # abandoned) finishes before the bot is asked anything again. A bot object is never in
        # two of its own methods at once.
        self._busy = threading.Lock()

    def start(self, message: pb.PlayResponse) -> None:
        wire = pb.PlayResponse.FromString(serialize(message))
        with self._busy:
            self.bot.start(decode_match_started(wire.match_started))

    def ask(self, state: Any, decision: Decision, decision_id: int, clocks: dict[str, int]) -> Any:
        """Ask the bot; returns whatever it answered (validated by the caller)."""
        return self.answer(self.prepare(state, decision, decision_id, clocks))

    def prepare(self, state: Any, decision: Decision, decision_id: int, clocks: dict[str, int]) -> Any:
        """Everything the bot will see, built from the state now (the referee's thread): the
        wire bytes of the decision, or the bare decision for bots that read no view."""
        if self.uses_view:
            view = self.game.view(state, decision.role, self.history_sent)
            if view["history"]:
                self.history_sent = view["history"][-1][0]
            message = decision_message(self.match_id, decision_id, decision, encode_view(self.game.name, view), clocks)
            return serialize(message)
        return BotDecision(
            self.match_id,
            decision_id,
            decision.role,
            decision.step,
            decision.prompt,
            tuple(map(_bot_option, decision.options)),
            dict(clocks),
        )

    def answer(self, prepared: Any, ticket: Ticket | None = None) -> Any:
        """Decode and ask the bot (may run in a worker thread: touches no referee state). It
        waits for a late answer to an earlier decision to finish first; if meanwhile the asker
        gave up (``ticket.abandoned``), the bot is not asked at all (None)."""
        with self._busy:
            if ticket is not None and ticket.abandoned:
                return None
            if isinstance(prepared, bytes):
                bot_decision, bot_view = decode_decision(pb.PlayResponse.FromString(prepared).decision)
                self.book.complete(bot_decision.match_id, bot_view)
                return self.bot.choose(bot_decision, bot_view)
            return self.bot.choose(prepared, None)

    def end(self, message: pb.PlayResponse, wait_s: float = -1) -> bool:
        """Tell the bot its match is over, once a late ``choose`` of its has returned; with
        ``wait_s`` >= 0, at most that long: a bot still inside one then is not told (False)."""
        wire = pb.PlayResponse.FromString(serialize(message))
        if not self._busy.acquire(timeout=wait_s):
            return False
        try:
            self.bot.end(decode_match_ended(wire.match_ended))
        finally:
            self._busy.release()
        return True


@dataclass(eq=False)
class Ticket:
    """One asking of an in-process bot in a worker thread: ``abandoned`` once its time ran out,
    so that a thread still waiting for the bot's late answer to an earlier decision never asks."""

    abandoned: bool = False


def decision_bytes(game: Game, state: Any, role: str, match_id: str, ask: Any, history_from: int,
                   ) -> tuple[bytes, int | None]:
    """The wire bytes of decision ``ask`` for the remote seat ``role``: its own view (history from
    ``history_from`` on) and nothing else; and the last history entry they carry (None: none new).
    The one place both the referee and a match host (:mod:`.hosting`) build them."""
    view = game.view(state, role, history_from)
    history_to = view["history"][-1][0] if view["history"] else None
    wire_view = encode_view(game.name, view)
    return serialize(decision_message(match_id, ask.number, ask.decision, wire_view, ask.clocks, ask.attempt)), history_to


# -- the referee's seats (trio) ------------------------------------------------------------------
#
# The referee asks every seat the same way, ``await seat.ask(match, ask)``, and gets back a
# :class:`~.answers.SeatAnswer` or a :class:`~.answers.SeatFault`, its clock charge and record
# timing measured by the seat; what a fault leads to is the match driver's business
# (:meth:`standoff.server.match.MatchDriver.settle`).

#: The ``Error`` code a remote seat is sent with each fault.
_ERROR_CODES = {TIMEOUT: pb.ERROR_CODE_TIMEOUT, ILLEGAL: pb.ERROR_CODE_ILLEGAL_OPTION, STALE: pb.ERROR_CODE_STALE_DECISION}


class Seat(ABC):
    """One role of a referee match and who plays it (``bot``: as given, ``greedy`` or
    ``remote:alice``)."""

    #: Whether a session (a remote bot, or a runner's) answers for this seat.
    remote = False
    identity = ""  # the token name that may answer for this seat (remote seats)
    #: When the pending decision left the referee for the bot (trio time), set by :meth:`ask`:
    #: the bot's clock runs from then, so the referee's own work (building the view) is never
    #: charged to it, as a chess server starts the clock when the move is sent.
    asked_at: float | None = None
    #: When the answer reached the referee (trio time), set by :meth:`ask` where that comes
    #: before the seat's match loop runs again (a remote answer: when its session's inbox took
    #: it), so the referee's own work (routing it, waking the loop) is not charged either. None
    #: (reset at each ask): the seat's result is charged up to when it is made.
    answered_at: float | None = None

    def __init__(self, role: str, bot: str) -> None:
        self.role, self.bot = role, bot

    def elapsed_ms(self, started: float, now: float) -> float:
        """The bot's time for the decision just settled, in ms: from :attr:`asked_at` (else
        ``started``) to :attr:`answered_at` (else ``now``). Never below zero: an answer queued
        before its decision was sent (a guessed decision id) is charged nothing, as before."""
        asked = started if self.asked_at is None else self.asked_at
        answered = now if self.answered_at is None else self.answered_at
        return max(0.0, (answered - asked) * 1000.0)

    def answer_of(self, index: int, think_ms: float | None) -> SeatAnswer:
        """The pending decision answered ``index`` now: charged :meth:`elapsed_ms` from
        :attr:`asked_at`; its record timing ``elapsed_ms``, and the bot's ``think_ms`` if known
        (with a remote seat's round trip, ``rtt_ms``: the rest)."""
        elapsed_ms = self.elapsed_ms(self.asked_at, trio.current_time())
        timing = {"elapsed_ms": round(elapsed_ms, 3)}
        if think_ms is not None:
            timing["think_ms"] = round(think_ms, 3)
            if self.remote:
                timing["rtt_ms"] = round(max(0.0, elapsed_ms - think_ms), 3)
        return SeatAnswer(index, elapsed_ms, timing)

    def fault_of(self, kind: str, detail: str, counted: bool = True) -> SeatFault:
        """The pending decision settled now by a fault, charged :meth:`elapsed_ms` as an answer."""
        return SeatFault(kind, detail, self.elapsed_ms(self.asked_at, trio.current_time()), counted)

    @abstractmethod
    async def start(self, match: Any, message: pb.PlayResponse) -> None:
        """Send ``MatchStarted``."""

    @abstractmethod
    async def ask(self, match: Any, ask: Any) -> SeatResult:
        """Send decision ``ask`` and settle it: :meth:`answer_of` or :meth:`fault_of`."""

    @abstractmethod
    async def end(self, match: Any, message: pb.PlayResponse) -> None:
        """Send ``MatchEnded``."""

    def faulted(self, match_id: str, number: int, kind: str, detail: str) -> None:
        """Tell the bot about its fault at decision ``number`` (remote seats get an ``Error``)."""

    def asked(self) -> None:
        """The pending decision is settled (answered, substituted or the match is over)."""


#: How long a match may ask quick bots inline (:class:`LocalSeat`) before it lets the referee's
#: other tasks run: a match between two quick bots would otherwise hold the event loop to its end.
INLINE_SLICE_S = 0.002


#: How long telling a bot its match is over waits for a late ``choose`` of its to return
END_WAIT_S = 5.0


class LocalSeat(Seat):
    """A trusted bot in the referee's process, asked through an :class:`InProcessSeat` (its view
    built here, from the state): in a worker thread, so that the match can move on when it runs
    out of time; or, if the bot says it is quick (``Bot.quick``), on the referee's own thread.

    A worker thread's round trip (trio's hand-over to the thread and back through its token, two
    wake-ups) costs far more than a quick bot's choice (figures: docs/architecture.md, hop 7;
    benchmarks/bench_referee.py). Asked inline, a quick bot that runs late is a timeout all the same, found
    when it returns (its answer is not used): the fault, and so the record, are the ones a worker
    thread gives; only the referee waits for it meanwhile. The match yields to the referee's
    other tasks after :data:`INLINE_SLICE_S` of inline asking, as a worker thread's wait would."""

    def __init__(self, role: str, bot: str, local: InProcessSeat) -> None:
        super().__init__(role, bot)
        self.local = local
        self._slice_from = 0.0  # when this seat last let the referee's other tasks run

    async def start(self, match: Any, message: pb.PlayResponse) -> None:
        await trio.to_thread.run_sync(self.local.start, message)

    async def ask(self, match: Any, ask: Any) -> SeatResult:
        prepared = self.local.prepare(match.driver.state, ask.decision, ask.number, ask.clocks)
        started = self.asked_at = trio.current_time()
        if self.local.quick:
            return await self._ask_inline(match, prepared, ask, started)
        ticket = Ticket()
        with trio.move_on_after(ask.allowance_ms / 1000.0):
            try:
                index, crash = await trio.to_thread.run_sync(self.local.answer, prepared, ticket,
                                                             abandon_on_cancel=True), None
            except Exception as exc:  # noqa: BLE001 - the bot's own bug
                index, crash = None, self._crashed(match, exc)
            return self._settled(ask, index, crash, (trio.current_time() - started) * 1000.0)
        ticket.abandoned = True  # left running, or waiting for the bot's late answer before it
        return self.fault_of(TIMEOUT, no_answer(ask.allowance_ms))

    def _crashed(self, match: Any, exc: BaseException) -> str:
        return bot_crashed(exc, getattr(self.local, "bot", None), self.bot, getattr(match, "id", ""), self.role)

    async def _ask_inline(self, match: Any, prepared: Any, ask: Any, started: float) -> SeatResult:
        try:
            index, crash = self.local.answer(prepared), None
        except Exception as exc:  # noqa: BLE001 - the bot's own bug
            index, crash = None, self._crashed(match, exc)
        now = trio.current_time()
        if now - self._slice_from >= INLINE_SLICE_S:
            await trio.lowlevel.checkpoint()
            self._slice_from = trio.current_time()
        think_ms = (now - started) * 1000.0
        if crash is None and think_ms > ask.allowance_ms:  # what a worker thread's deadline says, found late
            return self.fault_of(TIMEOUT, no_answer(ask.allowance_ms))
        return self._settled(ask, index, crash, think_ms)

    def _settled(self, ask: Any, index: Any, crash: str | None, think_ms: float) -> SeatResult:
        """The bot's return value (or its crash's detail), checked, whether it was asked in a
        worker thread or inline."""
        if crash is not None:
            return self.fault_of(CRASH, crash)
        why = illegal(index, len(ask.decision.options))
        if why is not None:
            return self.fault_of(ILLEGAL, why)
        return self.answer_of(index, think_ms)

    async def end(self, match: Any, message: pb.PlayResponse) -> None:
        # Waits (a bounded time) for a late choose of the bot's to return: never two calls at once.
        await trio.to_thread.run_sync(self.local.end, message, END_WAIT_S, abandon_on_cancel=True)


def bot_crashed(exc: BaseException, bot: Any, name: str, match_id: str, role: str, when: str = "") -> str:
    """An in-process bot's exception as its ``crash`` fault's detail: one line naming the bot,
    the match and the bot's file:line (:func:`~standoff.sdk.failures.failure_line`); the
    traceback goes to the log, with the match id."""
    detail = failure_line(exc, bot, name, match_id, role, when=when)
    log.warning("bot failed", match=match_id, role=role, bot=name, detail=detail, exc_info=exc)
    return detail


class HostedSeat(Seat):
    """A built-in bot of a match played by a host (split referee, :mod:`.hosting`): the host
    starts, asks and ends it; the front only names it."""

    async def start(self, match: Any, message: pb.PlayResponse) -> None:
        """Started by the host."""

    async def ask(self, match: Any, ask: Any) -> SeatResult:
        raise RuntimeError(f"{self.bot} ({self.role}) is asked by the match's host, not by the front")

    async def end(self, match: Any, message: pb.PlayResponse) -> None:
        """Ended by the host."""


@dataclass(eq=False)
class _Waiting:
    """A remote seat's pending decision, as sent."""

    number: int = 0
    message: bytes = b""
    rebuild: Any = None  # (history_from) -> bytes: the message again (after a reconnect)
    sent_to: Any = None  # the session it was last sent to


class SeatEvents:
    """A remote seat's events (answers, protocol faults, disconnects, reconnects), in order, for
    its match loop: unbounded, one receiver. What a trio memory channel does here, on the path
    of every remote answer, without its channel pair and the statistics object its length costs
    (the referee checks the length at every answer: :data:`.sessions.SEAT_EVENTS_LIMIT`)."""

    __slots__ = ("_items", "_receiver")

    def __init__(self) -> None:
        self._items: deque[tuple[Any, ...]] = deque()
        self._receiver: Any = None  # the trio task waiting in receive(), if any

    def __len__(self) -> int:
        """Events waiting (none while the receiver waits)."""
        return len(self._items)

    def send_nowait(self, event: tuple[Any, ...]) -> None:
        """Queue ``event``, or hand it to the waiting receiver (from trio code, or asyncio code
        between trio's ticks on its thread: :mod:`.bridge`)."""
        receiver = self._receiver
        if receiver is None:
            self._items.append(event)
        else:
            self._receiver = None
            trio.lowlevel.reschedule(receiver, outcome.Value(event))

    async def receive(self) -> tuple[Any, ...]:
        """The next event, waiting for one if none is queued. A checkpoint either way; if the
        wait is cancelled, no event is taken (a queued one stays for the next receive)."""
        if self._items:
            await trio.lowlevel.checkpoint()
            return self._items.popleft()
        if self._receiver is not None:
            raise trio.BusyResourceError("another task is already receiving this seat's events")
        self._receiver = trio.lowlevel.current_task()

        def abort(_raise_cancel: Any) -> trio.lowlevel.Abort:
            self._receiver = None
            return trio.lowlevel.Abort.SUCCEEDED

        return await trio.lowlevel.wait_task_rescheduled(abort)


class RemoteSeat(Seat):
    """A bot that connects with a token (``remote:NAME``) and answers over its session. Answers
    and protocol faults reach the seat's queue (:attr:`events`) from the session handler;
    disconnects and reconnects wake it."""

    remote = True

    def __init__(self, role: str, bot: str, identity: str) -> None:
        super().__init__(role, bot)
        self.identity = identity
        self.session: Any = None
        self.history_sent = 0  # history entries this seat's session already has
        self.last_sent = 0  # the highest decision id sent to this seat: a later one is not asked yet
        self.pending = _Waiting()
        self.connected = trio.Event()
        # Unbounded so that control events (disconnect, reconnect) are never lost; answers and
        # protocol faults are bounded by SEAT_EVENTS_LIMIT in the referee.
        self.events = SeatEvents()
        self.disconnected_for_good = False
        #: The seat's bot is gone for good, by its own fault (a runner that exited while its match
        #: went on: :class:`RunnerSeat`): the fault's detail. Its decisions are then that fault at
        #: once, counted once (later ones substituted or retried without another count).
        self.gone: str | None = None
        self._gone_counted = False
        self._grace: trio.CancelScope | None = None  # the grace window being waited, if any

    @property
    def pending_id(self) -> int:
        return self.pending.number

    async def start(self, match: Any, message: pb.PlayResponse) -> None:
        if self.session is not None:
            self.session.send(message)

    async def end(self, match: Any, message: pb.PlayResponse) -> None:
        pending, self.pending = self.pending, _Waiting()
        if self.session is not None:
            if pending.number and pending.sent_to is self.session:  # the bot may be answering it now
                self.session.late.add((match.id, pending.number))
            self.session.send(message)

    def asked(self) -> None:
        self.pending = _Waiting()

    def faulted(self, match_id: str, number: int, kind: str, detail: str) -> None:
        if self.session is not None:
            self.session.error(_ERROR_CODES.get(kind, pb.ERROR_CODE_PROTOCOL), detail, match_id, number)

    def _message(self, match: Any, ask: Any, history_from: int) -> bytes:
        message, history_to = decision_bytes(match.game, match.driver.state, self.role, match.id, ask, history_from)
        if history_to is not None:
            self.history_sent = history_to
        return message

    async def ask(self, match: Any, ask: Any) -> SeatResult:
        async def rebuild(history_from: int) -> bytes:
            return self._message(match, ask, history_from)

        return await self.wait_for_answer(match, ask.number, len(ask.decision.options), ask.allowance_ms,
                                          self._message(match, ask, self.history_sent), rebuild)

    async def wait_for_answer(self, match: Any, number: int, options: int, allowance_ms: int, message: bytes,
                              rebuild: Any) -> SeatResult:
        """Send decision ``number`` (``message``, its wire bytes) and wait for its answer (or a
        fault), charged from now. ``await rebuild(history_from)`` gives the message again for a
        new session (after a reconnect). Whether the message was built here (:meth:`ask`) or by a
        match host (:mod:`.hosting`), the same waiting, the same faults, the same timing."""
        pending = self.pending = _Waiting(number, message, rebuild)
        events = self.events
        self.answered_at = None
        self.asked_at = trio.current_time()  # disconnected or not: the clock runs from now
        if self.session is not None:
            self.last_sent = number
            self.session.send(pending.message)
            pending.sent_to = self.session
        deadline = self.asked_at + allowance_ms / 1000.0
        while True:
            if self.gone is not None:
                counted, self._gone_counted = not self._gone_counted, True
                return self.fault_of(CRASH, self.gone, counted)
            if self.session is None:
                if self.disconnected_for_good:
                    # Counted once, when the grace window ran out: the seat's later decisions are
                    # substituted (random policy) without another fault until it reconnects.
                    return self.fault_of(DISCONNECT, "still disconnected", False)
                # Wait for a reconnect within the grace window (the clock keeps running); a bot
                # gone for good (its runner exited) ends the wait at once.
                with trio.move_on_after(match.grace_s) as self._grace:
                    await self.connected.wait()
                self._grace = None
                if self.gone is not None:
                    continue
                if self.session is None:
                    self.disconnected_for_good = match.policy == RANDOM
                    return self.fault_of(DISCONNECT, f"disconnected and not back within {match.grace_s:g} s")
                continue  # reconnected: the hello handler re-sent MatchStarted; resend below
            with trio.move_on_at(deadline) as scope:
                event = await events.receive()
            if scope.cancelled_caught:
                return self.fault_of(TIMEOUT, no_answer(allowance_ms))
            kind = event[0]
            if kind == "stale":  # an answer ahead of its question, refused by the referee on arrival
                if match.policy == FORFEIT:
                    return self.fault_of(STALE, event[1])
                match.driver.count(self.role, STALE)
                continue
            if kind == "choice":
                _, decision_id, index, think_us, arrived = event
                if decision_id != number:
                    # A late answer. Under `forfeit` it ends the match; otherwise it is counted and
                    # refused, and the pending decision may still be answered (substituting here
                    # would make every later answer stale in turn).
                    detail = f"decision id {decision_id} is not the pending one ({number})"
                    if match.policy == FORFEIT:
                        return self.fault_of(STALE, detail)
                    match.driver.count(self.role, STALE)
                    if self.session is not None:
                        self.session.error(pb.ERROR_CODE_STALE_DECISION, detail, match.id, decision_id)
                    continue
                self.answered_at = arrived
                if not 0 <= index < options:
                    return self.fault_of(ILLEGAL, f"option index {index} out of range 0..{options - 1}")
                return self.answer_of(index, think_us / 1000.0 if think_us else None)
            if kind == "fault":
                return self.fault_of(event[1], event[2])
            if kind == "gone":
                continue  # the runner exited: the fault at the top of the loop
            if kind == "reconnect" and self.session is not None and pending.sent_to is not self.session:
                self.disconnected_for_good = False
                pending.message = await pending.rebuild(0)  # a new session has no history yet
                self.last_sent = number
                self.session.send(pending.message)
                pending.sent_to = self.session
            # "disconnect": loop round to the grace window


class RunnerSeat(RemoteSeat):
    """An untrusted bot (a third-party plugin): the referee starts ``standoff bot run NAME`` in a
    process of its own, which connects back through the SDK with a token minted for this seat
    alone. Sandboxed (:mod:`.sandbox`; ``sandbox`` and ``socket_dir`` set by the referee) it
    reaches the referee only through its Unix socket; unsandboxed (``--unsandboxed``), a plain
    subprocess with the server's user, environment and network, connecting to ``address``."""

    launch: Launch | None = None  # what runs (the referee sets it)
    sandbox: Sandbox | None = None  # None: unsandboxed
    socket_dir: Path | None = None  # the referee's Unix socket's private folder
    match_id = ""  # the seat's match (the referee sets it): named in the log when the bot fails

    def command(self, address: str) -> list[str]:
        """The runner's command line unsandboxed: the launch's, connecting to ``address``."""
        if self.launch is None:
            return [sys.executable, "-m", "standoff.sdk.cli", "bot", "run", self.bot,
                    "--address", address, "--matches", "1"]
        return [str(self.launch.python), *self.launch.at(address)]

    def process_args(self, address: str, token: str, slot: int) -> Sandboxed:
        """The command, environment and start options of this seat's bot runner."""
        if self.sandbox is None:
            return Sandboxed(self.command(address), dict(os.environ, STANDOFF_TOKEN=token),
                             {"start_new_session": True})
        assert self.launch is not None and self.socket_dir is not None
        return sandboxed(self.launch, socket_dir=self.socket_dir, token=token, limits=self.sandbox.limits,
                         slot=slot, uid_base=self.sandbox.uid_base)

    async def run(self, address: str, token: str) -> None:
        """Run the bot's runner until it exits; cancelled (its match is over), kill it and all
        it started (sandboxed: its whole PID namespace)."""
        slot = SLOTS.take()  # a uid of its own while it runs (root only: .sandbox)
        try:
            argv, env, options = self.process_args(address, token, slot)
            stderr = StderrTail()
            try:
                process = start_runner(argv, env, options, stderr=stderr.write_fd)
            except OSError as exc:
                stderr.close()
                log.warning("bot runner failed to start", bot=self.bot, error=str(exc))
                return
            stderr.started()
            code = await stderr.watch(process)  # cancelled once the match is over: nothing to say
            self.exited(code, stderr.text())
        finally:
            SLOTS.give_back(slot)

    def exited(self, code: int, stderr: str) -> None:
        """The runner ended by itself: its match is still on (once it is over the runner is
        killed, not waited for), so the bot is gone by its own fault (its exception, a sandbox
        limit, a signal): a ``crash`` at once, with the runner's one line naming the bot, the
        match and its file:line; no grace window, no ``disconnect``. Its stderr (the bot's
        traceback) goes to the match's log."""
        self.gone = runner_fault(self.bot, self.match_id, self.role, code, stderr)
        log.warning("bot failed", match=self.match_id, role=self.role, bot=self.bot, status=code,
                    detail=self.gone, exception=stderr)  # as a traceback is logged
        if self._grace is not None:
            self._grace.cancel()
        self.events.send_nowait(("gone",))  # wakes a match loop waiting for its answer
