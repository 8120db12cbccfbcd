"""What a game brings for search bots: its forward model (``GameSpec.forward_model``).

A search bot sees only its view. To search, it needs full states of the game's engine that agree
with everything its role knows and re-deal what it cannot see, and it plays them out. The SDK's
entry point (:class:`standoff.sdk.simulate.Belief`) asks the game's spec for a
:class:`ForwardModel`; a game whose spec has none still gets the SDK's generic model, built on
the game's ``determinize`` capability (:mod:`standoff.sdk.determinized`).

Pure: this module is the contract only (no I/O), so that a game's package may build one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["ForwardModel", "SimulationError", "WorldBelief", "differences"]


class SimulationError(ValueError):
    """The view cannot be turned into a state (incomplete history, another game, wrong options,
    or a view the engine could not have produced): raised by the forward models
    (:mod:`standoff.sdk.simulate` and the games' own)."""


class WorldBelief(Protocol):
    """What one role knows at one decision, as an engine state rebuilt from its view.

    ``rules``: the match's rules (given or inferred); ``state``: a full state whose view for the
    role is the view it was built from (its hidden parts are fillers); ``me``: the role's index in
    ``rules.roles``. :meth:`sample` draws a new full state: the role's knowledge kept, everything
    it cannot see re-dealt (its pending decision need not be settled: the caller settles it)."""

    rules: Any
    state: Any
    me: int

    def sample(self, rng: random.Random) -> Any: ...


@dataclass(frozen=True)
class ForwardModel:
    """A game's forward model, as its :class:`~standoff.server.specs.GameSpec` carries it.

    * ``belief(game, view, options, rules, check) -> WorldBelief``: the state a role's view (a
      dict with its whole history) comes from. ``options``: the match's rules options (or
      ``None``), ``rules``: a rules object that wins over them (or ``None``); ``check``: compare
      the rebuilt state's view with ``view``. Raises :class:`SimulationError` (one line, naming
      what disagrees).
    * ``infer_rules(game, view, options) -> rules``: the most likely rules of the match the view
      (a dict) comes from, ``options`` winning. ``None``: ``game.rules(view's ruleset, options)``.
    * ``random_playout(game, state, rng) -> bool``: play ``state`` to its end with uniformly
      random players and ``rng`` for chance, drawing exactly what the SDK's uniform rollout
      draws (``rng.getrandbits`` per player decision, ``sample_chance`` for weighted chance);
      return ``False`` without touching ``state`` or ``rng`` when it cannot (then the SDK's own
      loop plays). ``None``: the SDK's loop always.
    """

    belief: Callable[[Any, dict[str, Any], Mapping[str, str] | None, Any, bool], WorldBelief]
    infer_rules: Callable[[Any, dict[str, Any], Mapping[str, str] | None], Any] | None = None
    random_playout: Callable[[Any, Any, random.Random], bool] | None = None


def differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The fields in which two views differ, sorted (for :class:`SimulationError` messages)."""
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
