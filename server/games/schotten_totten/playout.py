"""Uniformly random play to the end of a match: the SDK's rollout (``standoff.sdk.simulate.rollout``
with its default policy) for this game, on the engine's own decision/apply functions.

``random_playout(game, state, rng)`` plays ``state`` (mutated) to its end: every player's decision
uniform among its options, drawn as ``rng.randrange(len(options))`` draws it, chance by
:func:`~standoff.server.core.game.sample_chance`. ``rng`` must be a plain ``random.Random``: its
``randrange(n)`` is, exactly, ``getrandbits(n.bit_length())`` drawn again until below ``n``, done
here inline (the SDK checks both before calling; tests/bots/test_simulate.py compares the two).
The same draws as the SDK's general loop, hence the same rollouts, with or without the compiled
engine (playout.pxd types it: the state is an STState, decision and apply are C calls). The
choices are numbered but not logged in ``state.history``: only the outcome of a rollout is kept.

Pure: the caller passes the generator; nothing here draws by itself, reads a clock or logs.
"""

from __future__ import annotations

from typing import Any

from ...core.game import sample_chance
from ...core.shuffle import BIT_LENGTHS
from .game import SchottenTotten, _st_apply, _st_apply_pending, _st_decision
from .state import STState
from .steps import STEPS


def plays(game: Any) -> bool:
    """Whether :func:`random_playout` is ``game``'s own decision/apply (not a subclass's)."""
    kind = type(game)
    return issubclass(kind, SchottenTotten) and kind.decision is _st_decision and kind.apply is _st_apply


def random_playout(game: Any, state: STState, rng: Any) -> None:
    getrandbits = rng.getrandbits
    # Whether the game plays this module's step table: checked once here, not at every choice.
    own_steps = game.steps is STEPS
    while True:
        decision = _st_decision(game, state)
        if decision is None:
            return
        options = decision.options
        if decision.weights is not None:  # only chance decisions have weights (core.game.Decision)
            option = options[sample_chance(rng, decision)]
        else:
            n = len(options)
            if not n:
                rng.randrange(n)  # no option: randrange's own error
            k = BIT_LENGTHS[n] if n < 128 else n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            option = options[r]
        if own_steps:
            _st_apply_pending(game, state, option, False)
        else:
            _st_apply(game, state, option)
