# cython: auto_pickle=False
# (A directive read only by Cython, for the compiled engine: StackState is an extension type
# there (flow.pxd), and Cython's own pickling of it would drop the __slots__ of a Python
# subclass such as TSState; without it, states pickle and copy as they do in pure Python.)
"""A game as a stack of small named steps (Rally the Troops' call/goto/end).

The state keeps a stack of *frames*: plain tuples ``(step_name, *args)``. The top frame's step either
asks a decision (returns a :class:`~standoff.server.core.game.Decision`) or does automatic work
(pushes/pops frames, changes the state) and returns ``None`` so the next frame runs. Choosing an
option calls the step's ``choose``. Frames are data, so a state with its stack copies and serialises
like any other data; nested choices (a card, then its target) are atomic decisions.

Every choice is appended to the state's *history*, a persistent linked list of
:class:`HistoryEntry` (``(entry, parent)`` pairs) so that copying a state shares it for free.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from .game import Decision, Option, Outcome


#: Automatic frames one decision may take at most (the longest turn change of a built-in game runs a
#: few hundred); past it the engine is stuck in a loop.
SETTLE_BUDGET = 100_000


class EngineStall(RuntimeError):
    """An engine step that never asks a decision nor ends the match (a bug)."""


class HistoryEntry(NamedTuple):
    """One choice as the record and the views know it.

    ``visible_to`` is ``None`` for a public choice; otherwise only those roles see ``key`` and
    everybody else sees ``redacted`` instead (e.g. a draw: the drawer sees ``card:red-5``, the
    others ``deck:troops``).
    """

    number: int
    role: str
    step: str
    key: str
    visible_to: tuple[str, ...] | None = None
    redacted: str = ""

    def seen_by(self, role: str) -> str:
        """The key as ``role`` sees it."""
        if self.visible_to is None or role in self.visible_to:
            return self.key
        return self.redacted


def iter_history(history: tuple | None) -> Iterator[HistoryEntry]:
    """Entries of a persistent history list, oldest first."""
    entries = []
    while history is not None:
        entries.append(history[0])
        history = history[1]
    make = HistoryEntry._make
    return (make(entry) for entry in reversed(entries))


def history_since(history: tuple | None, number: int) -> list[HistoryEntry]:
    """Entries numbered after ``number``, oldest first. Walks only those entries: incremental
    views cost what is new, not the whole match."""
    entries = []
    while history is not None and history[0][0] > number:
        entries.append(history[0])
        history = history[1]
    make = HistoryEntry._make
    return [make(entry) for entry in reversed(entries)]


def log(
    state: StackState,
    role: str,
    step: str,
    key: str,
    visible_to: tuple[str, ...] | None = None,
    redacted: str = "",
) -> None:
    """Add a history entry that no decision made (a reveal, an automatic draw, an event's
    result). It carries the number of the last decision; views show it like any other."""
    state.history = ((state.number, role, step, key, visible_to, redacted), state.history)


class Step:
    """A named step. Subclasses define :meth:`run`, and :meth:`choose` if they ask decisions (and
    maybe :meth:`visibility`). Steps hold no state: all they need is in the frame and the state.

    A ``run`` that returns a decision must leave the stack as it found it, so that the frame that
    asked is the one whose ``choose`` receives the answer.

    Not an ``abc.ABC``: the compiled engine makes ``Step`` an extension type (flow.pxd), so that
    a game's steps can be too, and an extension type cannot have ABCMeta as its metaclass. A
    subclass without ``run`` is therefore refused when its ``run`` is called, not when it is
    instantiated; every step defines ``run``, so nothing else changes.
    """

    name: str = ""
    #: Set by steps whose choices some roles may not see; only then is :meth:`visibility` asked.
    hidden: bool = False

    def run(self, game: Any, state: Any, frame: tuple) -> Decision | None:
        """Return the decision this frame asks, or do automatic work and return ``None``."""
        # A step class without ``run`` breaks the contract above (abc refused to instantiate it,
        # with a TypeError too); ``choose`` below answers a step that asks no decision the same way.
        raise TypeError(f"step {self.name!r} defines no run")

    def choose(self, game: Any, state: Any, frame: tuple, option: Option) -> None:
        """Carry out ``option`` of the decision :meth:`run` returned for ``frame``."""
        raise TypeError(f"step {self.name!r} asks no decision")

    def visibility(
        self, state: Any, frame: tuple, decision: Decision, option: Option
    ) -> tuple[tuple[str, ...], str] | None:
        """``None`` if the choice is public, else ``(roles who see it, redacted key)``. Asked only
        of steps with ``hidden = True``."""
        return None


class StackState:
    """Fields every stack-driven state has. Games subclass it and add their own fields (with
    ``__slots__``) and a ``copy()`` that copies them."""

    __slots__ = ("rules", "stack", "history", "pending", "outcome", "number")

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.stack: list[tuple] = []
        self.history: tuple | None = None
        self.pending: Decision | None = None  # cache of decision(state); immutable, shareable
        self.outcome: Outcome | None = None
        self.number = 0  # decisions applied so far

    def _copy_into(self, other: StackState) -> None:
        other.rules = self.rules
        other.stack = self.stack.copy()
        other.history = self.history
        other.pending = self.pending
        other.outcome = self.outcome
        other.number = self.number


class StackGame:
    """Decision/apply machinery over a stack of steps. Subclasses set ``steps`` (name → Step)."""

    steps: dict[str, Step] = {}

    def decision(self, state: StackState) -> Decision | None:
        if state.pending is None and state.outcome is None:
            self._settle(state)
        return state.pending

    def apply(self, state: StackState, option: Option) -> None:
        decision = state.pending
        if decision is None:
            decision = self.decision(state)
            if decision is None:
                raise ValueError("the match is over: no decision to apply an option to")
        frame = state.stack[-1]
        step = self.steps[frame[0]]
        number = state.number = state.number + 1
        # History entries are stored as plain tuples (cheaper than building HistoryEntry objects
        # on the hot path); iter_history() wraps them.
        hidden = step.visibility(state, frame, decision, option) if step.hidden else None
        if hidden is None:
            entry = (number, decision[0], decision[1], option[0], None, "")
        else:
            entry = (number, decision[0], decision[1], option[0], hidden[0], hidden[1])
        state.history = (entry, state.history)
        state.pending = None
        step.choose(self, state, frame, option)
        if state.outcome is None:
            self._settle(state)

    def outcome(self, state: StackState) -> Outcome | None:
        return state.outcome

    def _settle(self, state: StackState) -> None:
        """Run automatic frames until one asks a decision or the match ends: at most
        :data:`SETTLE_BUDGET` of them, so that a step that never asks (a bug) raises
        :class:`EngineStall` instead of holding the referee's thread forever."""
        steps = self.steps
        stack = state.stack
        for _ in range(SETTLE_BUDGET):
            if state.outcome is not None:
                return
            frame = stack[-1]
            decision = steps[frame[0]].run(self, state, frame)
            if decision is not None:
                state.pending = decision
                return
        raise EngineStall(f"{SETTLE_BUDGET} automatic steps without a decision (top frame {stack[-1][0]!r})")
