# Cython's augmenting declarations for registry.py (read only by `standoff accelerate`; see
# server/accelerate.py). The steps that carry an event out are extension types deriving from
# TSStep (common.pxd), called as C methods by the game's loop with the state typed (TSState).
from .. cimport board as B
from ..common cimport TSStep, event_player, role
from ..state cimport TSState


cpdef event_playable(TSState state, card, actor)

cpdef play_event_for(TSState state, card, player, dispose)

cdef class Event(TSStep):
    cpdef run(self, game, TSState state, tuple frame)

cdef class AfterEvent(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
