# Cython's augmenting declarations for mid_war_60_108.py (read only by `standoff accelerate`; see
# server/accelerate.py). The lasting effects' hooks (hooks.py) that the rules ask at nearly every
# action round, card played or die rolled take the state typed (TSState, state.pxd): its fields
# and methods are C-level here. The events themselves (decorated) stay Python functions.
from ..state cimport TSState, other


cpdef u2_incident_hook(TSState state, card, actor)

cpdef _death_squads(TSState state, side, country)
