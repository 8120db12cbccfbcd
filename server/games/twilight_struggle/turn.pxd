# Cython's augmenting declarations for turn.py (read only by `standoff accelerate`; see
# server/accelerate.py). The steps of the turn that run at every action round or draw are
# extension types deriving from TSStep (common.pxd), so the game's loop calls their run/choose
# as C methods with the state typed (TSState: its fields are struct members here). The steps run
# once a turn or less (set-up, the headline's reveal, the end of the turn) stay Python classes.
import cython

from ...core.game cimport make_decision
from . cimport board as B
from . cimport ops
from .common cimport (TSStep, add_to_hand, card_options, card_side, country_options, event_player, hand_size, playable_cards,
                      regular_rounds, remove_from_hand, reshuffle, role, scoring_due, space_ability)
from .events.registry cimport event_playable, play_event_for
from .state cimport TSState, other


cdef class SetupPlace(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class Turn(TSStep):
    @cython.locals(stack=list)
    cpdef run(self, game, TSState state, tuple frame)

cdef class Deal(TSStep):
    @cython.locals(size=object, hands=list)
    cpdef _next(self, TSState state)
    cpdef run(self, game, TSState state, tuple frame)
    @cython.locals(deck=tuple, i=cython.Py_ssize_t)
    cpdef choose(self, game, TSState state, tuple frame, option)
    cpdef visibility(self, TSState state, tuple frame, decision, option)

cdef class Headline(TSStep):
    @cython.locals(stack=list)
    cpdef run(self, game, TSState state, tuple frame)

cdef class HeadlineChoose(TSStep):
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)
    cpdef visibility(self, TSState state, tuple frame, decision, option)

cdef class HeadlineResolve(TSStep):
    cpdef run(self, game, TSState state, tuple frame)

cdef class Dispose(TSStep):
    cpdef run(self, game, TSState state, tuple frame)

cdef class ActionRounds(TSStep):
    @cython.locals(stack=list)
    cpdef run(self, game, TSState state, tuple frame)

cdef class ActionRound(TSStep):
    @cython.locals(hooks=list, options=tuple, done=cython.Py_ssize_t)
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class ArEnd(TSStep):
    cpdef run(self, game, TSState state, tuple frame)

cdef class CardUse(TSStep):
    @cython.locals(uses=list)
    cpdef run(self, game, TSState state, tuple frame)
    @cython.locals(stack=list)
    cpdef choose(self, game, TSState state, tuple frame, option)

cdef class EndTurn(TSStep):
    @cython.locals(holders=list)
    cpdef run(self, game, TSState state, tuple frame)

cdef class SpaceDiscard(TSStep):
    @cython.locals(cards=list)
    cpdef run(self, game, TSState state, tuple frame)
    cpdef choose(self, game, TSState state, tuple frame, option)
