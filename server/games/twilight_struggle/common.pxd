# Cython's augmenting declarations for common.py (read only by `standoff accelerate`; see
# server/accelerate.py). TSStep is the extension type the game's steps derive from, its methods
# declared with the state typed (TSState, state.pxd), so that the game's loop (game.pxd) calls
# them as C methods; the helpers are cpdef, so the steps (turn.pxd, ops.pxd...) call them as C
# functions with the state's fields read as struct members.
import cython

from ...core.flow cimport Step
from .state cimport TSState, other


cdef class TSStep(Step):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)
    cpdef visibility(self, TSState state, tuple frame, decision, option)


cpdef tuple card_options(cards)

cpdef tuple country_options(countries)

cpdef role(TSState state, side)

cpdef card_side(card)

cpdef event_player(card, player)

cpdef hand_size(TSState state)

cpdef regular_rounds(TSState state)

@cython.locals(hand=tuple, i=cython.Py_ssize_t)
cpdef remove_from_hand(TSState state, side, card)

cpdef add_to_hand(TSState state, side, card, public=*)

@cython.locals(count=cython.Py_ssize_t, f=tuple)
cpdef rounds_left(TSState state, side)

@cython.locals(held=cython.Py_ssize_t)
cpdef bint scoring_due(TSState state, side) except -1

@cython.locals(cards=list)
cpdef list playable_cards(TSState state, side)

cpdef reshuffle(TSState state)

cpdef space_ability(TSState state, box)
