# Cython's augmenting declarations for board.py (read only by `standoff accelerate`; see
# server/accelerate.py). Flag, role and size counters are C ints (9 flags, 2-3 roles); card
# masks and decision numbers stay Python ints. The state is the STState extension type
# (state.pxd), so its fields are read as struct members; the helpers are cpdef, so the steps
# (turn.pxd, tactics.pxd) call them as C functions.
import cython

from ...core.flow cimport Step
from .formations cimport refute_cached
from .state cimport STState


cdef class STStep(Step):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)
    cpdef visibility(self, STState state, tuple frame, decision, option)


cpdef tuple _card_options(cards)

cpdef Py_ssize_t _side_index(STState state, Py_ssize_t flag, Py_ssize_t role) except -1

@cython.locals(f=cython.Py_ssize_t)
cpdef bint has_room(STState state, Py_ssize_t role) except -1

@cython.locals(f=cython.Py_ssize_t)
cpdef list open_flags(STState state, Py_ssize_t role)

@cython.locals(f=cython.Py_ssize_t)
cpdef tuple open_flag_options(STState state, Py_ssize_t role)

cpdef tuple deck_options(STState state, Py_ssize_t deck)

@cython.locals(i=cython.Py_ssize_t, cards=tuple, rest=tuple, options=tuple)
cpdef take_from_deck(STState state, Py_ssize_t deck, card)

@cython.locals(i=cython.Py_ssize_t, hand=tuple)
cpdef _add_to_hand(STState state, Py_ssize_t role, card)

@cython.locals(i=cython.Py_ssize_t, hand=tuple)
cpdef _remove_from_hand(STState state, Py_ssize_t role, card)

@cython.locals(i=cython.Py_ssize_t)
cpdef _put_on_side(STState state, Py_ssize_t flag, Py_ssize_t role, card)

@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, side=tuple, placed=tuple)
cpdef _take_from_side(STState state, Py_ssize_t flag, Py_ssize_t role, card)

cpdef _discard(STState state, Py_ssize_t role, card)

cpdef find_on_table(STState state, card)

@cython.locals(n=cython.Py_ssize_t, f=cython.Py_ssize_t, base=cython.Py_ssize_t, mud_f=cython.int,
               fog_f=cython.int, size=cython.int, other=cython.Py_ssize_t, sides=list, claimed=list,
               proofs=list, placed=list, r=cython.Py_ssize_t)
cpdef list claimable_flags(STState state, Py_ssize_t role)

@cython.locals(run=cython.Py_ssize_t, start=cython.Py_ssize_t, f=cython.Py_ssize_t, claimed=list)
cpdef _check_win(STState state, Py_ssize_t role, Py_ssize_t flag)
