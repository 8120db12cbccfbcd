# Cython's augmenting declarations for state.py (read only by `standoff accelerate`; see
# server/accelerate.py). STState is an extension type: its fields are C struct members, read and
# written without a dictionary lookup by the steps that know the state's type (turn.pxd,
# tactics.pxd, board.pxd). The collections are exactly lists, as the source makes them; the
# counters and the table mask stay Python ints (positions may set any int).
from ...core.flow cimport StackState


cdef class STState(StackState):
    cdef public list hands
    cdef public list decks
    cdef public list tops
    cdef public list sides
    cdef public list placed
    cdef public list fog
    cdef public list mud
    cdef public list claimed
    cdef public list tactics_played
    cdef public list leader_played
    cdef public list discards
    cdef public list known
    cdef public object current
    cdef public object passes
    cdef public object turn
    cdef public object table
    cdef public list proofs
    cdef public list deck_options

    cpdef object unseen_mask(self)
