# Cython's augmenting declarations for ops.py (read only by `standoff accelerate`; see
# server/accelerate.py). The state is the TSState extension type (state.pxd): its fields are
# struct members here; the helpers are cpdef (C calls from the steps), and the operation steps
# are extension types deriving from TSStep (common.pxd), called as C methods by the game's loop.
import cython

from . cimport board as B
from .common cimport TSStep, country_options, role, space_ability
from .state cimport TSState, other


@cython.locals(value=object)
cpdef ops_value(TSState state, side, card)

cpdef tuple _bonuses(TSState state, side, card)

cpdef tuple _defcon_open(defcon)

@cython.locals(found=set)
cpdef set _union(bars, TSState state, side)

cpdef set shielded(TSState state, side)

cpdef list coup_targets(TSState state, side, free=*, among=*)

cpdef list realign_targets(TSState state, side, free=*, among=*)

cpdef push_operations(TSState state, side, card, kind, value=*, free=*, among=*)

cpdef push_coup_roll(TSState state, side, country, ops, free)

cpdef resolve_coup(TSState state, side, country, ops, roll, free)

@cython.locals(enemy=list, open_=tuple, c=cython.Py_ssize_t)
cpdef list _targets(TSState state, side, set barred, free, among)

@cython.locals(enemy=list, open_=tuple, shield=set, realign=cython.bint)
cpdef tuple operation_uses(TSState state, side)

@cython.locals(box=object, attempts=object)
cpdef bint space_allowed(TSState state, side, value) except -1

@cython.locals(mine=list, marks=bytearray, c=cython.Py_ssize_t, n=cython.Py_ssize_t)
cpdef tuple placement_eligible(TSState state, side)

cpdef push_space(TSState state, side, card)

cpdef _usable(left, asia_bonus, sea_bonus, country)

cpdef tuple _spend(left, asia_bonus, sea_bonus, country, cost)

cpdef influence_cost(TSState state, side, country)

cpdef bint civil_war_open(TSState state, side) except -1

@cython.locals(mine=list, theirs=list, stability=tuple, mod=object, n=cython.Py_ssize_t)
cpdef realign_modifier(TSState state, side, country)

cpdef advance_space(TSState state, side)


cdef class Influence(TSStep):
    @cython.locals(enemy=list, mine=list, stability=tuple, options=list, barred=set, c=cython.Py_ssize_t)
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class Realign(TSStep):
    @cython.locals(targets=list)
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class RealignRoll(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class Coup(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class CoupRoll(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class SpaceRoll(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)
