# Cython's augmenting declarations for flow.py (read only by `standoff accelerate`; see
# server/accelerate.py). StackState and Step are extension types, so that a game's state and
# steps can be too (server/games/schotten_totten/state.pxd, board.pxd, turn.pxd, tactics.pxd):
# their fields are then C struct members, read without a dictionary lookup by code that knows
# the type. The fields stay Python objects (``number`` too: positions may set any int).

cdef class StackState:
    cdef public object rules
    cdef public list stack
    cdef public object history
    cdef public object pending
    cdef public object outcome
    cdef public object number


cdef class Step:
    pass
