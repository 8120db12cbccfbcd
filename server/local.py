"""Play one match in-process, synchronously: the engine, the bots and the chance role in one loop.

This is what ``standoff play``, tournament workers and Ray tasks run, and what tests use. The
referee server (grpc + trio) has its own loop with clocks and fault policies. Both sample chance
the same way, from :func:`chance_rng` (a keyed cryptographic stream, :mod:`.core.chance`), and
both hand bots the objects decoded from the wire bytes a remote bot would receive
(:class:`InProcessSeat`), so a seed means the same match everywhere and a bot behaves the same
in-process and over the network.
"""

from __future__ import annotations

import functools
import secrets
import signal
from signal import ITIMER_REAL, setitimer
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog

from standoff.v1 import referee_pb2 as pb

from ..sdk.types import Decision as BotDecision
from ..sdk.types import Option as BotOption
from ..sdk.types import HistoryBook, decode_decision, decode_match_ended, decode_match_started
from .core.chance import ChanceStream
from .core.game import CHANCE, Decision, Game, Outcome, sample_chance
from .core.record import Record, make_header, move_line, outcome_line
from .core.seeds import SEED_BITS, derive_seed
from .faults import (
    CRASH,
    BadChoice,
    ILLEGAL,
    POLICY_NAMES,
    RANDOM,
    RETRY,
    TIMEOUT,
    Forfeit,
    TimeControl,
    error_outcome,
    fault_rng,
    forfeit_outcome,
)
from .faults import count as count_fault
from .wire import (
    decision_message,
    encode_view,
    match_ended_message,
    match_started_message,
    serialize,
)

log = structlog.get_logger("standoff.match")


def chance_rng(seed: int) -> ChanceStream:
    """The stream the chance role of match ``seed`` draws from (SHAKE-256 keyed by the seed:
    its draws predict nothing to whoever lacks the seed)."""
    return ChanceStream(seed, "chance")


def new_seed() -> int:
    """A fresh secret match seed (from :mod:`secrets`, never 0): what the referee, ``standoff
    play`` and tournaments without a ``master_seed`` use, so that nobody can predict a match's
    chance. (Outside the engine: the engine draws no randomness at all.)"""
    return secrets.randbits(SEED_BITS) or 1


def bot_seed(seed: int, role: str) -> int:
    """The seed handed to the bot in ``role`` of match ``seed``."""
    return derive_seed(seed, "bot", role)


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
        self.history_sent = 0  # history entries already sent: later views carry only the new ones
        self.book = HistoryBook()

    def start(self, message: pb.PlayResponse) -> None:
        wire = pb.PlayResponse.FromString(serialize(message))
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

    def answer(self, prepared: Any) -> Any:
        """Decode and ask the bot (may run in a worker thread: touches no referee state)."""
        if isinstance(prepared, bytes):
            bot_decision, bot_view = decode_decision(pb.PlayResponse.FromString(prepared).decision)
            self.book.complete(bot_decision.match_id, bot_view)
            return self.bot.choose(bot_decision, bot_view)
        return self.bot.choose(prepared, None)

    def end(self, message: pb.PlayResponse) -> None:
        wire = pb.PlayResponse.FromString(serialize(message))
        self.bot.end(decode_match_ended(wire.match_ended))


@dataclass
class MatchResult:
    outcome: Outcome
    record: Record
    state: Any
    faults: dict[str, dict[str, int]] = field(default_factory=dict)


def play_match(
    game: Game,
    rules: Any,
    bots: Mapping[str, Any],
    seed: int,
    *,
    bot_names: Mapping[str, str] | None = None,
    match_id: str = "",
    on_line: Callable[[dict[str, Any]], None] | None = None,
    timing: bool = True,
    time_control: TimeControl | None = None,
    policy: int | None = None,
    retries: int = 0,
) -> MatchResult:
    """Play a match between ``bots`` (role → bot) and return its outcome and record.

    ``on_line`` receives every record line as it is produced (to append it to a file); the last
    one is always the outcome line.

    Without a ``policy`` the bots are trusted code: one that raises or returns anything but a
    valid index is a bug (:class:`BadChoice`) and nothing is timed out. With a policy
    (tournament workers) faults are handled as the referee server handles them: timeouts
    (enforced with ``SIGALRM`` when running in the main thread; measured after the fact
    otherwise), illegal answers and crashes count, and the policy decides (forfeit / random
    substitute / retry).

    An exception of the engine (or a trusted bot's bug, without a policy) never escapes and
    never becomes a result: the match ends with termination ``error`` (no winner, every score 0,
    the decision number in the outcome line's ``error_at``) and the traceback is logged at error
    level.
    """
    roles = rules.roles
    names = dict(bot_names or {role: getattr(bots[role], "name", "bot") for role in roles})
    header = make_header(game, rules, seed, names, match_id=match_id, code_version=code_version())
    record = Record(header)
    emit = on_line or (lambda line: None)
    emit(header)
    rng = chance_rng(seed)
    substitutes = fault_rng(seed)
    tc = time_control or TimeControl()
    banks = {role: tc.bank_ms for role in roles}
    faults: dict[str, dict[str, int]] = {}
    seats = {role: InProcessSeat(bots[role], game, match_id) for role in roles}
    clock = time.perf_counter
    number = 0
    state = None
    outcome: Outcome | None = None
    error_at: int | None = None
    alarm = policy is not None and _alarms_possible()
    previous_handler = signal.signal(signal.SIGALRM, _alarm_handler) if alarm else None
    try:
        state = game.new_state(rules)
        for role in roles:
            message = match_started_message(
                match_id, game, rules, role, names, bot_seed(seed, role), bank_ms=tc.bank_ms,
                increment_ms=tc.increment_ms, max_per_decision_ms=tc.max_per_decision_ms,
                fault_policy=policy or 0,
            )
            _start_seat(seats[role], message, role, names[role], policy, faults)
        while (decision := game.decision(state)) is not None:
            role = decision.role
            number += 1
            extra: dict[str, Any] = {}
            if role == CHANCE:
                index = sample_chance(rng, decision)
            elif policy is None:
                started = clock()
                try:
                    index = seats[role].ask(state, decision, number, {})
                except Exception as exc:
                    raise BadChoice(f"bot {names[role]!r} ({role}) raised {type(exc).__name__}: {exc}") from exc
                if timing:
                    extra["think_ms"] = round((clock() - started) * 1000.0, 3)
                if type(index) is not int or not 0 <= index < len(decision.options):
                    raise BadChoice(
                        f"bot {names[role]!r} ({role}) returned {index!r} at step {decision.step!r}; "
                        f"expected an index in 0..{len(decision.options) - 1}"
                    )
            else:
                index, extra = _ask_with_policy(
                    seats[role], state, decision, number, tc, banks, policy, retries, faults, substitutes,
                    names[role], alarm,
                )
            option = decision.options[index]
            game.apply(state, option)
            line = move_line(number, role, decision.step, option.key, **extra)
            record.moves.append(line)
            emit(line)
        outcome = game.outcome(state)
        if outcome is None:
            raise RuntimeError("the game asks no decision but has no outcome")
    except Forfeit as forfeit:
        outcome = forfeit_outcome(roles, forfeit)
    except Exception as exc:  # an engine bug (or a trusted bot's, without a policy): no result
        outcome, error_at = error_outcome(roles, exc), number
        log.error("match ended by an error", match=match_id, game=game.name, decision=number, exc_info=exc)
    finally:
        if alarm:
            signal.signal(signal.SIGALRM, previous_handler)
    extra = {"error_at": error_at} if error_at is not None else {}
    footer = outcome_line(outcome, roles, faults=faults, **extra)
    if policy is not None:
        footer["fault_policy"] = POLICY_NAMES[policy]
    record.footer = footer
    emit(footer)
    for role in roles:
        try:
            seats[role].end(match_ended_message(match_id, outcome, roles, faults, role))
        except Exception as exc:  # noqa: BLE001 - the match is over; a bot failing to take it in changes nothing
            log.warning("bot failed at the end of the match", match=match_id, role=role, error=repr(exc))
    return MatchResult(outcome, record, state, faults)


def _start_seat(seat: InProcessSeat, message: Any, role: str, name: str, policy: int | None,
                faults: dict[str, dict[str, int]]) -> None:
    """Tell a bot its match starts. A bot that raises here is a crash: under a fault policy it
    forfeits (there is no decision to substitute or retry); without one it is a bug."""
    try:
        seat.start(message)
    except Exception as exc:
        detail = f"bot raised {type(exc).__name__} when the match started: {exc}"
        if policy is None:
            raise BadChoice(f"bot {name!r} ({role}): {detail}") from exc
        count_fault(faults, role, CRASH)
        raise Forfeit(role, CRASH, f"{role} ({name}) forfeits: {detail}") from exc


class DecisionTimeout(BaseException):
    """Raised inside a bot by the alarm when its decision time is up. A BaseException, so that a
    bot's own ``except Exception`` cannot swallow it."""


def _alarm_handler(signum: int, frame: Any) -> None:
    raise DecisionTimeout()


def _alarms_possible() -> bool:
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")


def _call_with_timeout(fn: Callable[[], Any], seconds: float, alarm: bool) -> Any:
    """``fn()``, interrupted after ``seconds`` when ``alarm`` (the SIGALRM handler is installed
    by the caller, once per match); without alarms the caller measures instead."""
    if not alarm:
        return fn()
    setitimer(ITIMER_REAL, max(seconds, 1e-4))
    try:
        return fn()
    finally:
        setitimer(ITIMER_REAL, 0)


def _ask_with_policy(
    seat: InProcessSeat,
    state: Any,
    decision: Decision,
    number: int,
    tc: TimeControl,
    banks: dict[str, int],
    policy: int,
    retries: int,
    faults: dict[str, dict[str, int]],
    substitutes: ChanceStream,
    name: str,
    alarm: bool,
) -> tuple[int, dict[str, Any]]:
    role = decision.role
    clocks = dict(banks) if tc.bank_ms else {}
    attempt = 0
    while True:
        allowance = tc.allowance(banks[role])
        prepared = seat.prepare(state, decision, number, clocks)
        started = time.perf_counter()
        kind = detail = ""
        try:
            index = _call_with_timeout(lambda: seat.answer(prepared), allowance / 1000.0, alarm)
        except DecisionTimeout:
            kind, detail = TIMEOUT, f"no answer within {allowance} ms"
        except Exception as exc:  # noqa: BLE001 - the bot's own bug
            kind, detail = CRASH, f"bot raised {type(exc).__name__}: {exc}"
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        if tc.bank_ms:
            banks[role] = int(banks[role] - elapsed_ms + tc.increment_ms)
        if not kind and elapsed_ms > allowance:
            kind, detail = TIMEOUT, f"answered after {elapsed_ms:.0f} ms; the limit was {allowance} ms"
        if not kind and (type(index) is not int or not 0 <= index < len(decision.options)):
            kind, detail = ILLEGAL, f"answered {index!r}; options are 0..{len(decision.options) - 1}"
        if not kind:
            return index, {"think_ms": round(elapsed_ms, 3)}
        count_fault(faults, role, kind)
        if policy == RANDOM:
            return substitutes.randrange(len(decision.options)), {"fault": kind, "substituted": True}
        if policy == RETRY and attempt < retries:
            attempt += 1
            continue
        raise Forfeit(role, kind, f"{role} ({name}) forfeits: {detail}")


@functools.cache
def code_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"standoff {version('standoff')}"
    except PackageNotFoundError:
        return "standoff (not installed)"
