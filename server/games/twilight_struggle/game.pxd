# Cython's augmenting declarations for game.py (read only by `standoff accelerate`; see
# server/accelerate.py). The hot loop knows the state's type (TSState, state.pxd) and the steps'
# (TSStep, common.pxd): state fields are struct members and run/choose/visibility are C method
# calls.
import cython

from .common cimport TSStep
from .state cimport TSState


cpdef _ts_decision(game, TSState state)

cpdef _ts_apply(game, TSState state, option)

@cython.locals(step=TSStep, frame=tuple, stack=list)
cpdef _ts_apply_pending(game, TSState state, option, bint logged=*)

@cython.locals(step=TSStep, frame=tuple, stack=list)
cpdef _ts_settle(game, TSState state)
