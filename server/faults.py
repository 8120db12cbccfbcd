"""Faults and fault policies, shared by the referee server and the local match loop.

A *fault* is something a bot did wrong (or failed to do) at a decision. The match's *policy*
decides what follows: ``forfeit`` (the bot loses), ``random`` (a random legal option is chosen for
it, drawn from the match seed, and the match goes on), or ``retry`` (the decision is asked again,
up to ``retries`` times, then the bot forfeits). Every fault is counted in the record.
"""

from __future__ import annotations

from dataclasses import dataclass

from standoff.v1 import referee_pb2 as pb

from .core.game import Outcome

FORFEIT, RANDOM, RETRY = pb.FAULT_POLICY_FORFEIT, pb.FAULT_POLICY_RANDOM, pb.FAULT_POLICY_RETRY
POLICY_NAMES = {FORFEIT: "forfeit", RANDOM: "random", RETRY: "retry"}
POLICY_BY_NAME = {name: value for value, name in POLICY_NAMES.items()}

# Fault kinds, as counted in records, results and MatchEnded.
TIMEOUT = "timeout"
ILLEGAL = "illegal_choice"
STALE = "stale_decision"
PROTOCOL = "protocol_error"
DISCONNECT = "disconnect"
CRASH = "crash"

#: Each decision may take this long when no time control says otherwise.
DEFAULT_DECISION_TIMEOUT_MS = 30_000


@dataclass(frozen=True)
class TimeControl:
    """Per-role time bank + increment per decision, and a cap per decision (0 = none).
    Without bank and cap, each decision may take :data:`DEFAULT_DECISION_TIMEOUT_MS`."""

    bank_ms: int = 0
    increment_ms: int = 0
    max_per_decision_ms: int = 0

    def allowance(self, bank: int) -> int:
        """Milliseconds the next decision may take."""
        limits = [x for x in (bank if self.bank_ms else 0, self.max_per_decision_ms) if x > 0]
        if self.bank_ms and bank <= 0:
            return 0
        return min(limits) if limits else DEFAULT_DECISION_TIMEOUT_MS


#: Terminations of matches that end without a result (``Outcome.no_result``; see
#: :data:`standoff.server.core.game.UNRATED_TERMINATIONS`).
ERROR = "error"
SHUTDOWN = "shutdown"


class BadChoice(RuntimeError):
    """A trusted bot playing without a fault policy (``standoff play``) raised or returned
    something that is not an option index: a bug in the bot, so the match ends as ``error``."""


def error_outcome(roles: tuple[str, ...], exc: BaseException) -> Outcome:
    """The outcome of a match an exception ended: termination ``error``, no result. The reason
    is one line: the bot's failure as :class:`BadChoice` says it, else the exception's type and
    the first line of its message (the traceback goes to the error log, not to results)."""
    if isinstance(exc, BadChoice):
        reason = str(exc)
    else:
        lines = str(exc).strip().splitlines()
        reason = f"engine or referee error: {type(exc).__name__}" + (f": {lines[0]}" if lines else "")
    return Outcome.no_result(roles, ERROR, reason[:500])


class Forfeit(Exception):
    """A seat loses the match because of a fault its policy does not forgive."""

    def __init__(self, role: str, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.role, self.kind, self.detail = role, kind, detail


def policy_from_name(name: str) -> int:
    """The policy value for ``forfeit``/``random``/``retry``; ``ValueError`` otherwise."""
    try:
        return POLICY_BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown fault policy {name!r} (choose from {', '.join(POLICY_BY_NAME)})") from None


def forfeit_outcome(roles: tuple[str, ...], forfeit: Forfeit) -> Outcome:
    """The forfeiting role scores 0; the others share its point."""
    others = [r for r in roles if r != forfeit.role]
    share = 1.0 / len(others)
    scores = tuple(0.0 if r == forfeit.role else share for r in roles)
    winner = others[0] if len(others) == 1 else None
    return Outcome(winner, scores, "forfeit", forfeit.detail)


def count(faults: dict[str, dict[str, int]], role: str, kind: str) -> None:
    per_role = faults.setdefault(role, {})
    per_role[kind] = per_role.get(kind, 0) + 1
