"""A forward model for bots: full engine states consistent with a bot's view, and rollouts.

A bot sees only its *view* (see :mod:`standoff.sdk.views`). To search, it needs full states of
the real rules engine that agree with everything its role knows and re-deal what it cannot see.
This module builds them for every game that has a forward model, through the game's spec
(``GameSpec.forward_model``: a :class:`ForwardModel`, re-exported here for game authors):

    from standoff.sdk.simulate import Belief, rollout, sample_state

    belief = Belief(game, view, options=match.options)   # once per decision
    state = belief.sample(rng)                             # as many times as you like (cheap)
    game.apply(state, option)                              # the real engine
    outcome = rollout(game, state, rng=rng)                # play it out (random policy)

Which model
-----------

The game's own, when its spec brings one (the built-in games do: each replays the view's
history on its engine, fills in the hidden cards and exchanges them when a later public fact
names one, then re-deals uniformly; their modules, ``belief.py`` in each built-in game's package,
document what they infer and what a sample keeps). Otherwise the generic model
(:mod:`standoff.sdk.determinized`) when the game object has the ``determinize`` capability: the
history replayed with a search over the choices the role could not see, samples drawn by
``game.determinize``. Otherwise :class:`SimulationError` ("no forward model").

What a sample does *not* contain: the others' past hidden choices (the history entries of their
hidden draws in a sample hold fillers: this role's view of the sample shows them redacted
exactly as before; other roles' views of a sample are not meaningful).

Rules options are not always part of a view: pass ``options`` (a bot gets them in
:meth:`~standoff.sdk.Bot.start` as ``match.options``) or ``rules``. Without them the game's
model infers what it can (:func:`infer_rules`) and says in its errors what disagrees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..server.core.game import CHANCE, Outcome, sample_chance
from ..server.core.shuffle import BIT_LENGTHS, EXACT_RANDBELOW
from ..server.forward_model import ForwardModel, WorldBelief, differences
from ..server.plugins import find_game_spec
from .determinized import DETERMINIZED
from .types import SimulationError
from .views import as_dict

__all__ = [
    "Belief",
    "ForwardModel",
    "SimulationError",
    "WorldBelief",
    "forward_model",
    "infer_rules",
    "random_policy",
    "rollout",
    "sample_state",
    "sample_states",
    "view_policy",
]

#: A rollout policy: ``policy(game, state, decision, rng) -> option index`` (a player's decision).
Policy = Callable[[Any, Any, Any, random.Random], int]


def forward_model(game: Any) -> ForwardModel:
    """The forward model of ``game``: its spec's (found by the game's name), else the generic
    determinize-based one (:data:`standoff.sdk.determinized.DETERMINIZED`; it refuses a game
    without the ``determinize`` capability when a belief is asked of it)."""
    spec = find_game_spec(game.name)
    model = spec.forward_model if spec is not None else None
    return model if model is not None else DETERMINIZED


def infer_rules(game: Any, view: Any, options: Mapping[str, str] | None = None) -> Any:
    """The rules of the match the view comes from: ``options`` as given, what the view shows
    inferred by the game's forward model (:func:`forward_model`), the ruleset's defaults for the
    rest (the built-in games: see their ``belief`` modules)."""
    view = as_dict(view)
    model = forward_model(game)
    infer = model.infer_rules or DETERMINIZED.infer_rules
    return infer(game, view, options)


class Belief:
    """Everything one role knows at one decision, as a replayed engine state; :meth:`sample`
    re-deals what the role cannot see.

    ``view``: the view (engine dict or typed wire message) with its whole history
    (``history_from == 0``; :class:`~standoff.sdk.types.HistoryBook` completes incremental ones,
    and both :func:`standoff.sdk.run` and in-process seats use it). ``options``: the match's rules
    options (``match.options``) or ``rules``: a rules object. ``check``: compare the replayed
    state's view with ``view`` (history included) and raise :class:`SimulationError` on any
    difference.

    ``state`` is the replayed state (its hidden cards are fillers: use :meth:`sample`);
    ``replayed`` is the game's forward model's own belief
    (:class:`~standoff.server.forward_model.WorldBelief`: what it knows besides, e.g. cards the
    role saw in another hand), ``None`` from a position.
    """

    def __init__(
        self,
        game: Any,
        view: Any,
        *,
        options: Mapping[str, str] | None = None,
        rules: Any = None,
        check: bool = True,
    ) -> None:
        view = as_dict(view)
        if view.get("game", game.name) != game.name:
            raise SimulationError(
                f"the view is of game {view['game']!r}, not {game.name!r}: no forward model for it here"
            )
        if view.get("history_from", 0):
            raise SimulationError(
                "the view's history is incremental (history_from > 0): complete it with "
                "standoff.sdk.types.HistoryBook first"
            )
        self.game = game
        self.role: str = view["role"]
        self.view = view
        self.replayed = forward_model(game).belief(game, view, options, rules, check)
        self.rules = self.replayed.rules
        self.state = self.replayed.state
        self.me = self.replayed.me

    @classmethod
    def from_position(cls, game: Any, view: Any, position: Any, *, check: bool = True) -> Belief:
        """A belief that starts from a position (docs/positions.md) instead of replaying the
        view's history: ``position`` is what the bot assumes the whole state is (a position dict,
        its JSON or text form, or a file path), for puzzle-style bot tests and matches started
        from a position (whose views' history starts there). ``check``: the position must show
        ``view``'s role exactly ``view`` (the history aside), else :class:`SimulationError`
        names the fields that differ. :meth:`sample` re-deals what the role cannot see in the
        position, keeping what it knows (the game's ``determinize``)."""
        from .positions import PositionError, from_position, read_position

        view = as_dict(view)
        try:
            data = position if isinstance(position, Mapping) else read_position(position, game)
            state = from_position(game, data)
        except PositionError as exc:
            raise SimulationError(f"position: {exc}") from None
        role = view["role"]
        if role not in state.rules.roles:
            raise SimulationError(f"role {role!r} is not a role of the position's ruleset")
        if check:
            def bare(v: Mapping[str, Any]) -> dict[str, Any]:
                return {k: x for k, x in v.items() if k not in ("history", "history_from")}

            mine = bare(game.view(state, role))
            if mine != bare(view):
                raise SimulationError("the position shows a different view (fields: "
                                      + ", ".join(differences(mine, bare(view))) + ")")
        belief = cls.__new__(cls)
        belief.game, belief.role, belief.view, belief.replayed = game, role, view, None
        belief.rules, belief.state, belief.me = state.rules, state, state.rules.roles.index(role)
        return belief

    def decision(self) -> Any:
        """The pending decision of the replayed state (the one the view was made for)."""
        return self.game.decision(self.state)

    def sample(self, rng: random.Random) -> Any:
        """A new full state: this role's knowledge kept, every hidden card re-dealt uniformly."""
        if self.replayed is None:  # from a position: the engine's own re-deal
            state = self.game.determinize(self.state, self.role, rng)
        else:
            state = self.replayed.sample(rng)
        self.game.decision(state)  # settle the pending decision (cached in the state)
        return state

    def samples(self, rng: random.Random, n: int) -> list[Any]:
        return [self.sample(rng) for _ in range(n)]


def sample_state(
    game: Any,
    view: Any,
    rng: random.Random,
    *,
    options: Mapping[str, str] | None = None,
    rules: Any = None,
) -> Any:
    """One full state consistent with ``view`` (see :class:`Belief`; build a ``Belief`` once to
    draw many samples cheaply)."""
    return Belief(game, view, options=options, rules=rules).sample(rng)


def sample_states(
    game: Any,
    view: Any,
    rng: random.Random,
    n: int,
    *,
    options: Mapping[str, str] | None = None,
    rules: Any = None,
) -> list[Any]:
    """``n`` full states consistent with ``view``, drawn independently."""
    return Belief(game, view, options=options, rules=rules).samples(rng, n)


# -- rollouts ---------------------------------------------------------------------------------------


def random_policy(game: Any, state: Any, decision: Any, rng: random.Random) -> int:
    """Uniform among the options."""
    return rng.randrange(len(decision.options))


def view_policy(bots: Mapping[str, Any]) -> Policy:
    """A policy that asks ``bots[role].choose(decision, view)`` with the engine's view of the
    simulated state (slower than a state policy, but any bot will do)."""

    def policy(game: Any, state: Any, decision: Any, rng: random.Random) -> int:
        return bots[decision.role].choose(decision, game.view(state, decision.role))

    return policy


def rollout(
    game: Any,
    state: Any,
    policy: Policy | None = None,
    rng: random.Random | None = None,
    *,
    max_decisions: int | None = None,
) -> Outcome | None:
    """Play ``state`` (mutated: pass a copy to keep it) to the end with ``policy`` for every
    player's decision and ``rng`` for chance; return the outcome. The engine's decision cap
    bounds every game; ``max_decisions`` stops earlier and returns ``None``.

    A rollout is not a record: afterwards ``state.number`` counts its choices, but
    ``state.history`` need not list them (the built-in games' uniform rollouts leave them out,
    which makes them faster; no rule reads the history, so the play and the outcome are the same)."""
    rng = rng or random.Random()
    decide, apply = game.decision, game.apply
    if (policy is None or policy is random_policy) and max_decisions is None and type(rng) is random.Random \
            and EXACT_RANDBELOW:
        # Uniform players with a plain ``random.Random``: ``randrange(n)`` is, exactly,
        # ``getrandbits(n.bit_length())`` drawn again until below ``n`` (random.py's
        # ``_randbelow_with_getrandbits``); done inline, without its two Python calls per decision.
        # Same draws, same rollouts (tests/bots/test_simulate.py checks it against randrange).
        playout = forward_model(game).random_playout
        if playout is not None and playout(game, state, rng):
            # the same loop on the engine's own functions (the built-in games': compiled, C calls)
            return game.outcome(state)
        getrandbits = rng.getrandbits
        bits = BIT_LENGTHS
        while (decision := decide(state)) is not None:
            options = decision.options
            if decision.role == CHANCE and decision.weights is not None:
                apply(state, options[sample_chance(rng, decision)])
                continue
            n = len(options)
            k = bits[n] if n < 128 else n.bit_length()
            if not k:
                rng.randrange(n)  # no option: randrange's own error
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            apply(state, options[r])
        return game.outcome(state)
    if (policy is None or policy is random_policy) and max_decisions is None:
        # Uniform players: the same draws of ``rng`` as the general loop below (a player's
        # ``randrange`` and chance's :func:`sample_chance`), without a call per decision.
        randrange = rng.randrange
        while (decision := decide(state)) is not None:
            options = decision.options
            if decision.role == CHANCE and decision.weights is not None:
                apply(state, options[sample_chance(rng, decision)])
            else:
                apply(state, options[randrange(len(options))])
        return game.outcome(state)
    policy = policy or random_policy
    count = 0
    while (decision := decide(state)) is not None:
        if max_decisions is not None and count >= max_decisions:
            return None
        count += 1
        options = decision.options
        if decision.role == CHANCE:
            index = sample_chance(rng, decision)
        else:
            index = policy(game, state, decision, rng)
        apply(state, options[index])
    return game.outcome(state)
