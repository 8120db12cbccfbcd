# Cython's augmenting declarations for primitives.py (read only by `standoff accelerate`; see
# server/accelerate.py). The steps of the shared event primitives that ask at every event
# (placing, removing, picking a country, a war's die) are extension types deriving from TSStep
# (common.pxd), called as C methods by the game's loop with the state typed (TSState).
from ....core.game cimport make_decision
from ..common cimport TSStep, country_options, role
from ..state cimport TSState, other


cdef class EvPlace(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EvRemove(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EvRemoveEach(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EvPlaceOne(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EvChoice(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EventCountry(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class War(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EvOps(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)
