# Cython's augmenting declarations for late_war.py (read only by `standoff accelerate`; see
# server/accelerate.py). The lasting effects' hooks (hooks.py) that the rules ask at nearly every
# action round, card played or die rolled take the state typed (TSState, state.pxd): its fields
# and methods are C-level here. The events themselves (decorated) stay Python functions.
from ..common cimport space_ability
from ..state cimport TSState


cpdef _north_sea_oil_round(TSState state, rounds)

cpdef _reformer_bars(TSState state, side)

cpdef _iran_contra(TSState state, side, country)

cpdef _chernobyl_bars(TSState state, side)

cpdef _aldrich_ames_open_hand(TSState state, side)

cpdef _yuri_and_samantha(TSState state, side, country)
