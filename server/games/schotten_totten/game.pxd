# Cython's augmenting declarations for game.py (read only by `standoff accelerate`; see
# server/accelerate.py). The hot loop knows the state's type (STState, state.pxd) and the steps'
# (STStep, board.pxd): state fields are struct members and run/choose/visibility are C method
# calls.
import cython

from .board cimport STStep
from .state cimport STState


cpdef _st_decision(game, STState state)

cpdef _st_apply(game, STState state, option)

@cython.locals(step=STStep, frame=tuple, stack=list)
cpdef _st_apply_pending(game, STState state, option, bint logged=*)

@cython.locals(step=STStep, frame=tuple, stack=list)
cpdef _st_settle(game, STState state)
