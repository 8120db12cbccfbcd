"""The match driver: one match's state, chance, record, clocks and fault policy.

Whoever plays the seats (``standoff play``, a tournament worker, a Ray task, the referee server)
drives a :class:`MatchDriver` the same way::

    driver = MatchDriver(game, rules, seed, names, match_id=..., time_control=..., policy=...)
    while (ask := driver.next_ask()) is not None:   # chance is played inside
        while True:
            result = ...ask ask.role's seat, within ask.allowance_ms...  # SeatAnswer or SeatFault
            if driver.settle(ask, result) != RETRIED:   # answered, substituted or forfeited
                break
            ask = driver.retry(ask)
    driver.finish()                                  # the outcome line, once

and catches engine errors with :meth:`MatchDriver.end_by_error` (or ends a match the server stops
with :meth:`MatchDriver.end_by_shutdown`). The driver is synchronous and does no I/O: record lines
go to ``on_line``; the shells around it (:mod:`.local`, :mod:`.referee`, :mod:`.hosting`) own
threads, alarms, the event loop and the wire, and hand it one result type (:mod:`.answers`). So a
seed means the same match everywhere, and every path applies the same clocks and the same answer
to "what happens after this fault" (:meth:`MatchDriver.fault`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from standoff.v1 import referee_pb2 as pb

from .specs import capability
from .answers import SeatAnswer, SeatResult
from .core.chance import ChanceStream
from .core.game import CHANCE, Decision, Game, Outcome, sample_chance
from .core.record import Record, make_header, move_line, outcome_line, start_state
from .core.seeds import derive_seed
from .faults import (
    DEFAULT_DECISION_TIMEOUT_MS,
    DISCONNECT,
    POLICY_NAMES,
    RANDOM,
    RETRY,
    SHUTDOWN,
    TIMEOUT,
    Forfeit,
    TimeControl,
    error_outcome,
    forfeit_outcome,
)
from .faults import count as count_fault
from .wire import match_ended_message, match_started_message

#: Chance decisions in a row (deals, draws) after which a match that asks no player anything is
#: taken to be stuck: an engine bug, ended as ``error`` (the longest turn of a built-in game deals
#: fewer than 100 cards).
CHANCE_BUDGET = 100_000

#: What :meth:`MatchDriver.fault` decided.
RETRIED, SUBSTITUTED, FORFEITED = "retry", "substituted", "forfeit"
#: What :meth:`MatchDriver.settle` says of an answer.
ANSWERED = "answered"


def chance_rng(seed: int) -> ChanceStream:
    """The stream the chance role of match ``seed`` draws from (SHAKE-256 keyed by the seed:
    its draws predict nothing to whoever lacks the seed)."""
    return ChanceStream(seed, "chance")


def fault_rng(seed: int) -> ChanceStream:
    """Where substituted options come from: the match seed (so that a match replays), through
    a stream of its own that draws tell nothing about."""
    return ChanceStream(seed, "faults")


def bot_seed(seed: int, role: str, leg: int = 0) -> int:
    """The seed handed to the bot in ``role`` of match ``seed`` (one-way: it tells nothing
    about the match seed). ``leg``: the leg of a paired seed (tournaments); the legs of a seed
    share the match seed with the seats rotated, so the leg is in the derivation and no seat's
    bot seed equals another seat's in another leg (an entrant seated in both could otherwise
    replay its opponent's bot). Leg 0 is the derivation without a leg (every unpaired match)."""
    if leg:
        return derive_seed(seed, "bot", role, leg)
    return derive_seed(seed, "bot", role)


class EngineStall(RuntimeError):
    """The engine kept drawing chance without ever asking a player (see :data:`CHANCE_BUDGET`)."""


@dataclass(frozen=True, slots=True)
class Ask:
    """A decision a seat must answer: its number (the record's ``n``, the wire's
    ``decision_id``), the engine's decision, how long it may take, every role's clock before it
    (empty without a bank) and how many times it was asked before (retry policy)."""

    number: int
    decision: Decision
    allowance_ms: int
    clocks: dict[str, int]
    attempt: int = 0

    @property
    def role(self) -> str:
        return self.decision.role


class MatchDriver:
    """One match from the deal to the outcome line (see the module docstring).

    ``policy`` is a fault policy (``FORFEIT``/``RANDOM``/``RETRY``), or ``None`` for trusted bots
    without clocks (``standoff play``): the shell then treats any bad answer as a bug.
    ``position`` (a position dict, docs/positions.md, of these ``rules``): the match starts there
    instead of the deal, and the record's header carries it (so the record replays from it).
    ``leg``: the leg of a paired seed, for the bot seeds (:func:`bot_seed`). ``timed``: whether
    ``MatchStarted`` announces a limit per decision (default: with a policy; ``standoff play``
    plays under a policy, untimed).
    """

    def __init__(
        self,
        game: Game,
        rules: Any,
        seed: int,
        names: dict[str, str],
        *,
        match_id: str = "",
        time_control: TimeControl | None = None,
        policy: int | None = None,
        retries: int = 0,
        on_line: Callable[[dict[str, Any]], None] | None = None,
        code_version: str = "",
        position: dict[str, Any] | None = None,
        leg: int = 0,
        timed: bool | None = None,
    ) -> None:
        self.game, self.rules, self.seed, self.leg = game, rules, seed, leg
        self.timed = policy is not None if timed is None else timed
        self.roles: tuple[str, ...] = rules.roles
        self.names = dict(names)
        self.match_id = match_id
        self.time_control = time_control or TimeControl()
        self.policy, self.retries = policy, retries
        self.emit = on_line or (lambda line: None)
        self.record = Record(make_header(game, rules, seed, self.names, match_id=match_id, code_version=code_version,
                                         position=position))
        self.begun = False  # the header goes out when play begins (or the match ends unplayed)
        self.chance = chance_rng(seed)
        self.substitutes = fault_rng(seed)
        self.banks = {role: self.time_control.bank_ms for role in self.roles}
        self.faults: dict[str, dict[str, int]] = {}
        self.number = 0  # decisions so far, chance included (the record's n)
        self.state: Any = None
        self.outcome: Outcome | None = None
        self.error_at: int | None = None
        self.finished = False

    # -- the messages every seat gets -------------------------------------------------------------

    def started_message(self, role: str) -> pb.PlayResponse:
        """``MatchStarted`` for ``role``, with the time limits in force (the default limit per
        decision when the match sets neither a bank nor a cap)."""
        tc = self.time_control
        cap = tc.max_per_decision_ms or (0 if tc.bank_ms else DEFAULT_DECISION_TIMEOUT_MS)
        if not self.timed:
            cap = 0  # trusted bots without a policy (or standoff play) are not timed
        return match_started_message(
            self.match_id, self.game, self.rules, role, self.names, bot_seed(self.seed, role, self.leg),
            bank_ms=tc.bank_ms, increment_ms=tc.increment_ms, max_per_decision_ms=cap,
            fault_policy=self.policy or 0,
        )

    def ended_message(self, role: str) -> pb.PlayResponse:
        assert self.outcome is not None
        return match_ended_message(self.match_id, self.outcome, self.roles, self.faults, role)

    # -- playing -----------------------------------------------------------------------------------

    def next_ask(self) -> Ask | None:
        """Play chance until a seat must decide, and return that decision; ``None`` once the
        match is over (by the rules, a forfeit or an ending). Engine errors propagate."""
        if self.outcome is not None:
            return None
        game = self.game
        if self.state is None:
            self._begin()
            self.state = start_state(game, self.rules, self.record.header)
        state = self.state
        for _ in range(CHANCE_BUDGET):
            decision = game.decision(state)
            if decision is None:
                self.outcome = game.outcome(state)
                if self.outcome is None:
                    raise RuntimeError("the game asks no decision but has no outcome")
                return None
            self.number += 1
            if decision.role != CHANCE:
                return self._ask(decision, 0)
            self._apply(decision, sample_chance(self.chance, decision), {})
        raise EngineStall(f"{CHANCE_BUDGET} chance decisions in a row without a player's decision")

    def _begin(self) -> None:
        if not self.begun:
            self.begun = True
            self.emit(self.record.header)

    def _ask(self, decision: Decision, attempt: int) -> Ask:
        bank = self.banks[decision.role]
        clocks = dict(self.banks) if self.time_control.bank_ms else {}
        return Ask(self.number, decision, self.time_control.allowance(bank), clocks, attempt)

    def _apply(self, decision: Decision, index: int, extra: dict[str, Any]) -> None:
        option = decision.options[index]
        self.game.apply(self.state, option)
        line = move_line(self.number, decision.role, decision.step, option.key, **extra)
        self.record.moves.append(line)
        self.emit(line)

    def _charge(self, role: str, elapsed_ms: float) -> None:
        tc = self.time_control
        if tc.bank_ms:
            self.banks[role] = int(self.banks[role] - elapsed_ms + tc.increment_ms)

    def answer(self, ask: Ask, index: int, elapsed_ms: float = 0.0, timing: dict[str, Any] | None = None) -> None:
        """The seat answered ``index`` (a valid index: the shell checked it) after
        ``elapsed_ms``; ``timing`` goes into the record line (think/elapsed/round-trip times)."""
        self._charge(ask.role, elapsed_ms)
        self._apply(ask.decision, index, timing or {})

    def settle(self, ask: Ask, result: SeatResult) -> str:
        """What a seat's result at ``ask`` leads to: a :class:`~.answers.SeatAnswer` is played
        (:meth:`answer`: :data:`ANSWERED`), a :class:`~.answers.SeatFault` goes to :meth:`fault`
        (its verdict: :data:`SUBSTITUTED`, :data:`RETRIED` or :data:`FORFEITED`)."""
        if type(result) is SeatAnswer:
            self.answer(ask, result.index, result.elapsed_ms, result.timing)
            return ANSWERED
        return self.fault(ask, result.kind, result.detail, result.elapsed_ms, counted=result.counted)

    def count(self, role: str, kind: str) -> None:
        """A fault that changes nothing but the count (a stale answer refused under ``random``
        or ``retry``: the pending decision may still be answered)."""
        count_fault(self.faults, role, kind)

    def fault(self, ask: Ask, kind: str, detail: str, elapsed_ms: float = 0.0, *, counted: bool = True) -> str:
        """What happens after a seat's fault at ``ask``: the one place that decides it.

        Counts the fault (unless ``counted`` is false: a seat still gone after a disconnect
        already counted) and charges the time, then: a timeout at a step whose rules name a
        default (the game's ``fallback_index``, e.g. a discard its rules make) plays that default;
        otherwise the policy: ``random`` plays a random legal option (from the match seed),
        ``retry`` asks again while retries are left (a disconnect is not retried: not back in the
        grace window, the seat is gone), and ``forfeit`` (or retries used up) ends the match.
        Returns :data:`SUBSTITUTED`, :data:`RETRIED` (then ask :meth:`retry`) or :data:`FORFEITED`.
        """
        role = ask.role
        self._charge(role, elapsed_ms)
        if counted:
            count_fault(self.faults, role, kind)
        if kind == TIMEOUT:
            default = capability(self.game, "fallback_index")
            index = default(self.state) if default is not None else None
            if index is not None:
                self._apply(ask.decision, index, {"fault": kind, "substituted": True})
                return SUBSTITUTED
        if self.policy == RANDOM:
            index = self.substitutes.randrange(len(ask.decision.options))
            self._apply(ask.decision, index, {"fault": kind, "substituted": True})
            return SUBSTITUTED
        if self.policy == RETRY and ask.attempt < self.retries and kind != DISCONNECT:
            return RETRIED
        self.forfeit(Forfeit(role, kind, f"{role} ({self.names[role]}) forfeits: {detail}"))
        return FORFEITED

    def retry(self, ask: Ask) -> Ask:
        """The same decision asked again (clocks as they are now)."""
        return self._ask(ask.decision, ask.attempt + 1)

    # -- endings -----------------------------------------------------------------------------------

    def forfeit(self, forfeit: Forfeit) -> None:
        self.outcome = forfeit_outcome(self.roles, forfeit)

    def end_by_error(self, exc: BaseException) -> None:
        """An engine or referee exception: the match ends as ``error`` (no result)."""
        self.outcome, self.error_at = error_outcome(self.roles, exc), self.number

    def end_without_result(self, termination: str, reason: str) -> None:
        """``not_played`` (a seat never came) or ``shutdown`` (the server stopped first)."""
        if self.outcome is None:
            self.outcome = Outcome.no_result(self.roles, termination, reason)

    def end_by_shutdown(self) -> None:
        self.end_without_result(SHUTDOWN, "the server shut down before the match ended")

    def finish(self) -> dict[str, Any]:
        """Write the outcome line (once) and return it."""
        assert self.outcome is not None, "finish() before the match ended"
        if not self.finished:
            self._begin()
            extra: dict[str, Any] = {}
            if self.error_at is not None:
                extra["error_at"] = self.error_at
            footer = outcome_line(self.outcome, self.roles, faults=self.faults, **extra)
            if self.policy is not None:
                footer["fault_policy"] = POLICY_NAMES[self.policy]
            self.record.footer = footer
            self.emit(footer)
            self.finished = True
        return self.record.footer
