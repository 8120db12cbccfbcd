"""Uniformly random play to the end of a match: the SDK's rollout for this game, on the engine's
own decision/apply functions. The contract (the same draws as the SDK's general loop, the choices
numbered but not logged) is Battle Line's: see ``schotten_totten/playout.py``. The loop is
written once per game because each is typed to its own game (playout.pxd: a TSState, and
decision/apply as C calls); a shared one would call them through Python.
"""

from __future__ import annotations

from typing import Any

from ...core.game import sample_chance
from ...core.shuffle import BIT_LENGTHS
from .game import STEPS, TwilightStruggle, _ts_apply, _ts_apply_pending, _ts_decision
from .state import TSState


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
            k = BIT_LENGTHS[n] if n < 128 else n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            option = options[r]
        if own_steps:
            _ts_apply_pending(game, state, option, False)
        else:
            _ts_apply(game, state, option)
