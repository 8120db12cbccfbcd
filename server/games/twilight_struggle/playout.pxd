# Cython's augmenting declarations for playout.py (read only by `standoff accelerate`; see
# server/accelerate.py). The loop knows the state's type and calls the engine's decision and
# apply (game.pxd) as C functions.
import cython

from .game cimport _ts_apply, _ts_apply_pending, _ts_decision
from .state cimport TSState


@cython.locals(own_steps=cython.bint, n=cython.Py_ssize_t, k=cython.int)
cpdef random_playout(game, TSState state, rng)
