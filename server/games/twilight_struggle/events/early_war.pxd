# Cython's augmenting declarations for early_war.py (read only by `standoff accelerate`; see
# server/accelerate.py). The lasting effects' hooks (hooks.py) that the rules ask at nearly every
# action round, card played or die rolled take the state typed (TSState, state.pxd): its fields
# and methods are C-level here. The events themselves (decorated) stay Python functions.
from .. cimport board as B
from ..state cimport TSState


cpdef _vietnam_revolts_bonus(TSState state, side, card)

cpdef _nato_shield(TSState state, side)

cpdef _containment(TSState state, side, card, value)

cpdef _us_japan_shield(TSState state, side)

cpdef _red_scare(TSState state, side, card, value)

cpdef _defectors_for_operations(TSState state, side, card, use)

cpdef _norad(TSState state, side, card, use, defcon_before)
