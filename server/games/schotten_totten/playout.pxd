# Cython's augmenting declarations for playout.py (read only by `standoff accelerate`; see
# server/accelerate.py). The loop knows the state's type and calls the engine's decision and
# apply (game.pxd) as C functions.
import cython

from .game cimport _st_apply, _st_apply_pending, _st_decision
from .state cimport STState


@cython.locals(own_steps=cython.bint, n=cython.Py_ssize_t, k=cython.int)
cpdef random_playout(game, STState state, rng)
