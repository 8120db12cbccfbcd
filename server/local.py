"""Play one match in this process, synchronously: ``standoff play``, tournament workers and Ray
tasks run :func:`play_match`, and tests use it.

It is a thin shell around the match driver (:class:`~.match.MatchDriver`, which owns the state,
chance, record, clocks and fault policy, exactly as for the referee server): it asks each
in-process bot through an :class:`~.seats.InProcessSeat` (the bytes a remote bot would receive,
decoded again), times it, and interrupts a bot that overruns its time with ``SIGALRM`` when it
runs in the main thread.
"""

from __future__ import annotations

import functools
import secrets
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from signal import ITIMER_REAL, setitimer
from typing import Any

import structlog

from .answers import DecisionTimeout, ask_in_process
from .core.game import Game, Outcome, sample_chance
from .core.record import Record
from .core.seeds import SEED_BITS
from .faults import CRASH, BadChoice, Forfeit, TimeControl
from .match import RETRIED, Ask, MatchDriver, bot_seed, chance_rng, fault_rng
from .seats import InProcessSeat, bot_crashed

__all__ = [
    "BadChoice", "InProcessSeat", "MatchResult", "bot_seed", "chance_rng", "code_version", "fault_rng",
    "new_seed", "play_match", "sample_chance",
]

log = structlog.get_logger("standoff.match")


def new_seed() -> int:
    """A fresh secret match seed (from :mod:`secrets`, never 0): what the referee, ``standoff
    play`` and tournaments without a ``master_seed`` use, so that nobody can predict a match's
    chance. (Outside the engine: the engine draws no randomness at all.)"""
    return secrets.randbits(SEED_BITS) or 1


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
    position: dict[str, Any] | None = None,
    until: Callable[[Any], bool] | None = None,
    leg: int = 0,
    timed: bool | None = None,
) -> MatchResult:
    """Play a match between ``bots`` (role → bot) and return its outcome and record.

    ``on_line`` receives every record line as it is produced (to append it to a file); the last
    one is always the outcome line. ``position``: start from this position dict (of ``rules``)
    instead of the deal (docs/positions.md). ``until(state)``: checked before every seat's
    decision; once true the match stops there without result (termination ``stopped``).
    ``leg``: the leg of a paired seed, for the bot seeds ``MatchStarted`` announces
    (:func:`bot_seed`: make ``bots`` with the same). ``timed``: whether decisions are timed
    (default: with a policy); ``standoff play`` plays under a policy, untimed.

    Without a ``policy`` the bots are trusted code: one that raises or returns anything but a
    valid index is a bug (:class:`BadChoice`) and nothing is timed out. With a policy
    (tournament workers) faults are handled as the referee server handles them: timeouts
    (enforced with ``SIGALRM`` when running in the main thread; measured after the fact
    otherwise), illegal answers and crashes count, and the policy decides (forfeit / random
    substitute / retry). A crash's detail is one line naming the bot, the match and the bot's
    file:line; its traceback is logged (warning, with the match id).

    An exception of the engine (or a trusted bot's bug, without a policy) never escapes and
    never becomes a result: the match ends with termination ``error`` (no winner, every score 0,
    the decision number in the outcome line's ``error_at``) and the traceback is logged at error
    level.
    """
    roles = rules.roles
    names = dict(bot_names or {role: getattr(bots[role], "name", "bot") for role in roles})
    timed = policy is not None if timed is None else timed
    driver = MatchDriver(game, rules, seed, names, match_id=match_id, time_control=time_control, policy=policy,
                         retries=retries, on_line=on_line, code_version=code_version(), position=position,
                         leg=leg, timed=timed)
    seats = {role: InProcessSeat(bots[role], game, match_id) for role in roles}
    alarm = policy is not None and timed and _alarms_possible()
    previous_handler = signal.signal(signal.SIGALRM, _alarm_handler) if alarm else None
    try:
        for role in roles:
            _start_seat(driver, seats[role], role)
        while (ask := driver.next_ask()) is not None:
            if until is not None and until(driver.state):
                driver.end_without_result("stopped", f"stopped as asked, at decision {ask.number}")
                break
            seat = seats[ask.role]
            if policy is None:
                _ask_trusted(driver, seat, ask, timing)
            else:
                _ask_with_policy(driver, seat, ask, alarm, timed)
    except Forfeit as forfeit:
        driver.forfeit(forfeit)
    except Exception as exc:  # an engine bug (or a trusted bot's, without a policy): no result
        driver.end_by_error(exc)
        log.error("match ended by an error", match=match_id, game=game.name, decision=driver.number, exc_info=exc)
    finally:
        if alarm:
            signal.signal(signal.SIGALRM, previous_handler)
    driver.finish()
    for role in roles:
        try:
            seats[role].end(driver.ended_message(role))
        except Exception as exc:  # noqa: BLE001 - the match is over; a bot failing to take it in changes nothing
            log.warning("bot failed at the end of the match", match=match_id, role=role, error=repr(exc))
    return MatchResult(driver.outcome, driver.record, driver.state, driver.faults)


def _start_seat(driver: MatchDriver, seat: InProcessSeat, role: str) -> None:
    """Tell a bot its match starts. A bot that raises here is a crash: under a fault policy it
    forfeits (there is no decision to substitute or retry); without one it is a bug."""
    try:
        seat.start(driver.started_message(role))
    except Exception as exc:
        name = driver.names[role]
        if driver.policy is None:
            detail = f"bot raised {type(exc).__name__} when the match started: {exc}"
            raise BadChoice(f"bot {name!r} ({role}): {detail}") from exc
        detail = bot_crashed(exc, seat.bot, name, driver.match_id, role, when="when the match started")
        driver.count(role, CRASH)
        raise Forfeit(role, CRASH, f"{role} ({name}) forfeits: {detail}") from exc


def _ask_trusted(driver: MatchDriver, seat: InProcessSeat, ask: Ask, timing: bool) -> None:
    """A trusted bot without a policy: any bad answer is a bug in it."""
    decision = ask.decision
    name = driver.names[ask.role]
    started = time.perf_counter()
    try:
        index = seat.ask(driver.state, decision, ask.number, {})
    except Exception as exc:
        raise BadChoice(f"bot {name!r} ({ask.role}) raised {type(exc).__name__}: {exc}") from exc
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    if type(index) is not int or not 0 <= index < len(decision.options):
        raise BadChoice(
            f"bot {name!r} ({ask.role}) returned {index!r} at step {decision.step!r}; "
            f"expected an index in 0..{len(decision.options) - 1}"
        )
    driver.answer(ask, index, elapsed_ms, {"think_ms": round(elapsed_ms, 3)} if timing else None)


def _ask_with_policy(driver: MatchDriver, seat: InProcessSeat, ask: Ask, alarm: bool, timed: bool = True) -> None:
    """Ask until the decision is answered, substituted or forfeited (the driver decides);
    ``timed``: a decision past its allowance is a timeout."""
    call = _alarmed if alarm else _direct
    role = ask.role

    def crashed(exc: Exception) -> str:
        return bot_crashed(exc, seat.bot, driver.names[role], driver.match_id, role)

    while True:
        result = ask_in_process(seat, driver.state, ask, call, crashed, late=timed)
        if driver.settle(ask, result) != RETRIED:
            return  # answered, substituted, or forfeited (then next_ask() says the match is over)
        ask = driver.retry(ask)


def _alarm_handler(signum: int, frame: Any) -> None:
    raise DecisionTimeout()


def _alarms_possible() -> bool:
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")


def _direct(answer: Callable[[Any], Any], prepared: Any, ask: Ask) -> Any:
    """The bot asked without alarms: the caller measures instead (:func:`ask_in_process`)."""
    return answer(prepared)


def _alarmed(answer: Callable[[Any], Any], prepared: Any, ask: Ask) -> Any:
    """The bot asked, interrupted (:class:`DecisionTimeout`) once its allowance is up (the
    SIGALRM handler is installed by :func:`play_match`, once per match)."""
    setitimer(ITIMER_REAL, max(ask.allowance_ms / 1000.0, 1e-4))
    try:
        return answer(prepared)
    finally:
        setitimer(ITIMER_REAL, 0)


@functools.cache
def code_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"standoff {version('standoff')}"
    except PackageNotFoundError:
        return "standoff (not installed)"
