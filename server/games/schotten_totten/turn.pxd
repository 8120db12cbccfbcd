# Cython's augmenting declarations for turn.py (read only by `standoff accelerate`; see
# server/accelerate.py). The steps are extension types (their base STStep is declared in
# board.pxd), so the game's loop calls their run/choose as C methods with the state typed: the
# STState fields are struct members here. Role, flag and card counters are C ints.
import cython

from ...core.game cimport make_decision
from .board cimport (STStep, _add_to_hand, _card_options, _check_win, _discard, claimable_flags,
                     deck_options, open_flag_options, take_from_deck)
from .state cimport STState
from .tactics cimport _any_movable, tactics_playable


cpdef tuple _only(role)

cdef class Deal(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)
    cpdef visibility(self, STState state, tuple frame, decision, option)

cdef class FirstPlayer(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cpdef _push_turn(STState state)

cdef class Turn(STStep):
    cpdef run(self, game, STState state, tuple frame)

cdef class EndTurn(STStep):
    @cython.locals(n=cython.Py_ssize_t, r=cython.Py_ssize_t)
    cpdef run(self, game, STState state, tuple frame)

cpdef _stalemate(STState state)

cdef class Play(STStep):
    @cython.locals(me=cython.Py_ssize_t, f=cython.Py_ssize_t, k=cython.Py_ssize_t, n=cython.Py_ssize_t,
                   o=cython.Py_ssize_t, c=cython.Py_ssize_t, room=cython.bint, allowed=cython.bint, hand=tuple, played=list,
                   options=list, claimed=list, mud=list)
    cpdef run(self, game, STState state, tuple frame)
    @cython.locals(me=cython.Py_ssize_t, i=cython.Py_ssize_t, hand=tuple, stack=list)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class Place(STStep):
    @cython.locals(me=cython.Py_ssize_t)
    cpdef run(self, game, STState state, tuple frame)
    @cython.locals(i=cython.Py_ssize_t)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class Claim(STStep):
    @cython.locals(me=cython.Py_ssize_t, flags=list, options=list)
    cpdef run(self, game, STState state, tuple frame)
    @cython.locals(me=cython.Py_ssize_t)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class Draw(STStep):
    @cython.locals(me=cython.Py_ssize_t, stack=list, decks=list, tops=list)
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class DrawCard(STStep):
    @cython.locals(deck=cython.Py_ssize_t, role=cython.Py_ssize_t, tops=tuple)
    cpdef run(self, game, STState state, tuple frame)
    @cython.locals(deck=cython.Py_ssize_t, role=cython.Py_ssize_t, i=cython.Py_ssize_t, cards=tuple,
                   rest=tuple, options=tuple, hand=tuple)
    cpdef choose(self, game, STState state, tuple frame, option)
    cpdef visibility(self, STState state, tuple frame, decision, option)
