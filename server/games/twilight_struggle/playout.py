"""Uniformly random play to the end of a match: the SDK's rollout (``standoff.sdk.simulate.rollout``
with its default policy) for this game, on the engine's own decision/apply functions.

``random_playout(game, state, rng)`` plays ``state`` (mutated) to its end: every player's decision
uniform among its options, drawn as ``rng.randrange(len(options))`` draws it, chance by
:func:`~standoff.server.core.game.sample_chance`. ``rng`` must be a plain ``random.Random``: its
``randrange(n)`` is, exactly, ``getrandbits(n.bit_length())`` drawn again until below ``n``, done
here inline (the SDK checks both before calling; tests/bots/test_simulate.py compares the two).
The same draws as the SDK's general loop, hence the same rollouts, with or without the compiled
engine (playout.pxd types it: the state is a TSState, decision and apply are C calls). The
choices are numbered but not logged in ``state.history``: only the outcome of a rollout is kept.

Pure: the caller passes the generator; nothing here draws by itself, reads a clock or logs.
"""

from __future__ import annotations

from typing import Any

from ...core.game import sample_chance
from .game import STEPS, TwilightStruggle, _ts_apply, _ts_apply_pending, _ts_decision
from .state import TSState


#: ``n.bit_length()`` for small ``n``: a decision has a few dozen options at most
_BITS = tuple(n.bit_length() for n in range(64))


def plays(game: Any) -> bool:
    """Whether :func:`random_playout` is ``game``'s own decision/apply (not a subclass's)."""
    kind = type(game)
    return issubclass(kind, TwilightStruggle) and kind.decision is _ts_decision and kind.apply is _ts_apply


def random_playout(game: Any, state: TSState, rng: Any) -> None:
    getrandbits = rng.getrandbits
    # Whether the game plays this module's step table: checked once here, not at every choice.
    own_steps = game.steps is STEPS
    while True:
        decision = _ts_decision(game, state)
        if decision is None:
            return
        options = decision.options
        if decision.weights is not None:  # only chance decisions have weights (core.game.Decision)
            option = options[sample_chance(rng, decision)]
        else:
            n = len(options)
            if not n:
                rng.randrange(n)  # no option: randrange's own error
            k = _BITS[n] if n < 64 else n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            option = options[r]
        if own_steps:
            _ts_apply_pending(game, state, option, False)
        else:
            _ts_apply(game, state, option)
