# Cython's augmenting declarations for tactics.py (read only by `standoff accelerate`; see
# server/accelerate.py). The tactics cards' steps are extension types like those of turn.pxd;
# the queries the turn's Play step asks of every hand holding tactics are C functions.
import cython

from ...core.game cimport make_decision
from .board cimport (STStep, _card_options, _discard, _put_on_side, _remove_from_hand, _take_from_side,
                     find_on_table, open_flags)
from .state cimport STState


@cython.locals(o=cython.Py_ssize_t)
cpdef bint tactics_playable(STState state, Py_ssize_t me, Py_ssize_t card, bint room) except -1

@cython.locals(f=cython.Py_ssize_t, claimed=list)
cpdef bint _any_movable(STState state, Py_ssize_t role, bint troops_only) except -1

@cython.locals(sides=list, claimed=list, fog=list, mud=list, result=list)
cpdef list _own_movable(STState state, Py_ssize_t role)

cpdef _flag_of(STState state, card)

@cython.locals(n=cython.Py_ssize_t, k=cython.Py_ssize_t)
cpdef _mud_gone(STState state, Py_ssize_t flag, Py_ssize_t actor)


cdef class Environment(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class ScoutDraw(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class ScoutReturn(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)
    cpdef visibility(self, STState state, tuple frame, decision, option)

cdef class Redeploy(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class RedeployTo(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class MudDiscard(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class Deserter(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class Traitor(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)

cdef class TraitorTo(STStep):
    cpdef run(self, game, STState state, tuple frame)
    cpdef choose(self, game, STState state, tuple frame, option)
