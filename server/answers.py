"""What a seat answers to a decision, as every shell hands it to the match driver: a
:class:`SeatAnswer` or a :class:`SeatFault` (``MatchDriver.settle(ask, result)``), whoever asked
(the referee's seats, a match host, :func:`~.local.play_match`) and however (a trio worker
thread, a thread pool, ``SIGALRM``).

And the one way to ask an in-process bot synchronously with a time limit,
:func:`ask_in_process` (a match host's built-in bots, tournament workers), whose checks and
fault texts the referee's own :class:`~.seats.LocalSeat` shares (:func:`illegal`,
:func:`no_answer`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from .faults import CRASH, ILLEGAL, TIMEOUT


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    """A seat answered option ``index`` (checked: an index of the decision's options), its clock
    charged ``elapsed_ms``; ``timing``: the timing fields of its record line (``elapsed_ms``,
    ``think_ms``, ``rtt_ms``, as far as the shell measures them), None for none."""

    index: int
    elapsed_ms: float = 0.0
    timing: dict[str, float] | None = None


@dataclass(frozen=True, slots=True)
class SeatFault:
    """A seat's fault at a decision: its ``kind`` (:mod:`.faults`), one line saying what
    happened, the time its clock is charged, and whether it is ``counted`` (False: a seat still
    gone, whose fault was counted once already)."""

    kind: str
    detail: str
    elapsed_ms: float = 0.0
    counted: bool = True


#: What asking a seat gives (the driver settles it: :meth:`~.match.MatchDriver.settle`).
SeatResult: TypeAlias = SeatAnswer | SeatFault


class DecisionTimeout(BaseException):
    """Raised when a decision's time is up: inside a bot by the alarm, or by a ``call`` of
    :func:`ask_in_process` that stopped waiting for it. A BaseException, so that a bot's own
    ``except Exception`` cannot swallow it."""


def illegal(index: Any, options: int) -> str | None:
    """Why an in-process bot's return value ``index`` is no answer to a decision with
    ``options`` options (an ``illegal`` fault's detail); None when it is one."""
    if type(index) is int and 0 <= index < options:
        return None
    return f"answered {index!r}; options are 0..{options - 1}"


def no_answer(allowance_ms: int) -> str:
    """A ``timeout`` fault's detail: the bot did not answer within its allowance."""
    return f"no answer within {allowance_ms} ms"


def think_timing(elapsed_ms: float) -> dict[str, float]:
    """The record's timing of an in-process bot timed around its ``choose`` alone."""
    return {"think_ms": round(elapsed_ms, 3)}


def ask_in_process(seat: Any, state: Any, ask: Any, call: Callable[[Callable[..., Any], Any, Any], Any],
                   crashed: Callable[[Exception], str], *, late: bool = False,
                   timing: Callable[[float], dict[str, float]] = think_timing) -> SeatResult:
    """Ask the in-process bot of ``seat`` (an :class:`~.seats.InProcessSeat`) decision ``ask``
    in ``state``, and settle what it did.

    ``call(answer, prepared, ask)`` runs ``answer(prepared)`` (the bot's ``choose``, on the
    decoded wire message built here) and returns its value, raising :class:`DecisionTimeout`
    once ``ask.allowance_ms`` is up if it can tell (an alarm; a thread waited for): a
    ``timeout``. An exception of the bot's is a ``crash``, ``crashed(exc)`` its detail. With
    ``late``, an answer that came after the allowance is a ``timeout`` too (for calls that cannot
    interrupt the bot). Anything but an index of the options is ``illegal``. The time is measured
    around the call alone; ``timing(elapsed_ms)`` gives the answer's record fields.
    """
    prepared = seat.prepare(state, ask.decision, ask.number, ask.clocks)
    started = time.perf_counter()
    try:
        index = call(seat.answer, prepared, ask)
    except DecisionTimeout:
        return SeatFault(TIMEOUT, no_answer(ask.allowance_ms), _since(started))
    except Exception as exc:  # noqa: BLE001 - the bot's own bug
        detail = crashed(exc)
        return SeatFault(CRASH, detail, _since(started))
    elapsed_ms = _since(started)
    if late and elapsed_ms > ask.allowance_ms:
        return SeatFault(TIMEOUT, f"answered after {elapsed_ms:.0f} ms; the limit was {ask.allowance_ms} ms",
                         elapsed_ms)
    why = illegal(index, len(ask.decision.options))
    if why is not None:
        return SeatFault(ILLEGAL, why, elapsed_ms)
    return SeatAnswer(index, elapsed_ms, timing(elapsed_ms))


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0
