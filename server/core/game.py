"""The engine contract every game implements (OpenSpiel's Game/State split).

A :class:`Game` is a stateless rules object. All mutable facts of a match live in a *state*: plain,
copyable data with no callables and no random generator inside. The engine never draws a random
number: shuffles, draws and dice are decisions of the :data:`CHANCE` role, and whoever drives the
match (the referee, a test, a search bot) picks among their options.

One step of play is a :class:`Decision`: who must choose, the named step, a prompt for humans and a
deterministic, ordered tuple of :class:`Option` values with stable keys. Bots answer with an index;
records store the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

#: The role that makes random choices (deals, draws, dice). Its options are equally likely unless
#: the decision carries explicit ``weights``.
CHANCE = "chance"


class RulesError(ValueError):
    """An unknown ruleset, option name or option value. The message is one clear line."""


class IllegalOption(ValueError):
    """An option key that is not among the options of the pending decision."""


class Option(NamedTuple):
    """One choice offered by a decision.

    ``key`` is stable across versions and is what records store (``card:red-5``, ``flag:4``,
    ``done``). ``label`` is for humans. ``value`` is the engine's own payload (a card id, a flag
    index...): it lets ``apply`` act without parsing the key and carries nothing hidden.
    """

    key: str
    label: str
    value: Any = None


class Decision(NamedTuple):
    """Who must choose what, now.

    ``role`` is a role name or :data:`CHANCE`. ``options`` is never empty for a non-terminal state.
    ``weights`` is ``None`` for equally likely chance options (every decision of a player has
    ``None``).
    """

    role: str
    step: str
    prompt: str
    options: tuple[Option, ...]
    weights: tuple[float, ...] | None = None

    def index_of(self, key: str) -> int:
        """Index of the option with ``key``; raises :class:`IllegalOption` if there is none."""
        for i, option in enumerate(self.options):
            if option.key == key:
                return i
        raise IllegalOption(f"{key!r} is not an option of step {self.step!r} for {self.role!r}")


def sample_chance(rng: Any, decision: Decision) -> int:
    """Pick a chance option with ``rng``: uniform, or by the decision's weights. ``rng`` is a
    :class:`~standoff.server.core.chance.ChanceStream` in matches (the referee's secret stream)
    or a ``random.Random`` in bots' rollouts; only ``randrange`` and ``random`` are used. The one
    sampling rule of matches and rollouts alike."""
    if decision.weights is None:
        return rng.randrange(len(decision.options))
    point = rng.random() * sum(decision.weights)
    last = len(decision.weights) - 1
    for index, weight in enumerate(decision.weights):
        point -= weight
        if point < 0 or index == last:
            return index
    raise AssertionError("unreachable")


_tuple_new = tuple.__new__


def make_decision(role: str, step: str, prompt: str, options: tuple[Option, ...]) -> Decision:
    """``Decision(role, step, prompt, options)`` without the keyword machinery of NamedTuple's
    constructor: engines build one per step on their hot path."""
    return _tuple_new(Decision, (role, step, prompt, options, None))


#: Terminations that are no result: the match counts for nobody (standings, Elo, ratings and
#: reports leave it out, showing it apart). ``not_played``: a seat never came; ``error``: an
#: engine or referee exception ended the match (a bug, never a bot's fault); ``shutdown``: the
#: server stopped before the match could end; ``stopped``: asked to stop early (``standoff play
#: --until``: after the current action round or turn, for analysis).
UNRATED_TERMINATIONS = frozenset({"not_played", "error", "shutdown", "stopped"})


class Outcome(NamedTuple):
    """How a match ended.

    ``scores`` has one entry per role in role order: 1 for a win, 0 for a loss, 0.5 each for a
    draw (multi-player games may use other splits that sum to 1). ``termination`` is a short
    stable code (``breakthrough``, ``envelopment``, ``stalemate``, ``forfeit``...) and ``reason`` a
    human sentence.
    """

    winner: str | None
    scores: tuple[float, ...]
    termination: str
    reason: str

    @classmethod
    def win(cls, roles: tuple[str, ...], winner: str, termination: str, reason: str) -> Outcome:
        return cls(winner, tuple(1.0 if r == winner else 0.0 for r in roles), termination, reason)

    @classmethod
    def draw(cls, roles: tuple[str, ...], termination: str, reason: str) -> Outcome:
        share = 1.0 / len(roles)
        return cls(None, tuple(share for _ in roles), termination, reason)

    @classmethod
    def no_result(cls, roles: tuple[str, ...], termination: str, reason: str) -> Outcome:
        """A match that ended without a result (one of :data:`UNRATED_TERMINATIONS`): no
        winner, every score 0."""
        return cls(None, tuple(0.0 for _ in roles), termination, reason)

    @property
    def rated(self) -> bool:
        """Whether the match counts (it ended by the rules or by a bot's fault)."""
        return self.termination not in UNRATED_TERMINATIONS


class Rules(Protocol):
    """A validated ruleset and option set. Immutable; shared by every state of a match."""

    ruleset: str
    options: Mapping[str, str]
    roles: tuple[str, ...]


class Game(Protocol):
    """A stateless rules object. Every method is a pure function of its arguments."""

    name: str
    rules_version: str
    rulesets: tuple[str, ...]

    def rules(self, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> Rules:
        """Validate a ruleset name and option values; raise :class:`RulesError` if any is unknown."""
        ...

    def new_state(self, rules: Rules) -> Any:
        """The state before the first decision (usually a chance decision: the deal)."""
        ...

    def decision(self, state: Any) -> Decision | None:
        """The pending decision, or ``None`` once the match is over."""
        ...

    def apply(self, state: Any, option: Option) -> None:
        """Carry out ``option``, which must come from ``decision(state).options``. Mutates ``state``."""
        ...

    def view(self, state: Any, role: str, history_from: int = 0) -> dict[str, Any]:
        """What ``role`` may see: JSON-ready data, identical for states ``role`` cannot tell apart.
        ``history`` holds the entries numbered after ``history_from`` (0: all of them)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The outcome once the match is over, else ``None``."""
        ...
