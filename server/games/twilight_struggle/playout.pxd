# Cython's augmenting declarations for playout.py (read only by `standoff accelerate`; see
# server/accelerate.py). The loop knows the state's type and calls the engine's decision and
# apply (game.pxd) as C functions.
from .game cimport _ts_apply, _ts_decision
from .state cimport TSState


cpdef random_playout(game, TSState state, rng)
