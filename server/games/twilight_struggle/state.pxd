# Cython's augmenting declarations for state.py (read only by `standoff accelerate`; see
# server/accelerate.py). TSState is an extension type: its fields are C struct members, read and
# written without a dictionary lookup by the steps and helpers that know the state's type
# (common.pxd, board.pxd, ops.pxd, turn.pxd, game.pxd). The collections the engine always makes
# lists are typed so; the piles, sets and counters stay Python objects (positions and tests may
# set any such value).
from ...core.flow cimport StackState


cpdef int other(int side)


cdef class TSState(StackState):
    cdef public list inf
    cdef public object vp
    cdef public object defcon
    cdef public object turn
    cdef public object ar
    cdef public object phasing
    cdef public list milops
    cdef public list space
    cdef public list space_attempts
    cdef public list hands
    cdef public list known
    cdef public object china
    cdef public object china_face_up
    cdef public object deck
    cdef public object discard
    cdef public object removed
    cdef public object effects
    cdef public object events_played
    cdef public list headline
    cdef public object ccw

    cpdef TSState copy(self)
    cpdef bint has(self, effect) except -1
    cpdef add_effect(self, effect)
    cpdef drop_effect(self, effect)
