# Cython's augmenting declarations for mid_war_36_59.py (read only by `standoff accelerate`; see
# server/accelerate.py). The lasting effects' hooks (hooks.py) that the rules ask at nearly every
# action round, card played or die rolled take the state typed (TSState, state.pxd): its fields
# and methods are C-level here. The events themselves (decorated) stay Python functions.
from .. cimport board as B
from ..common cimport scoring_due
from ..state cimport TSState, other


cpdef _missile_crisis_coup(TSState state, side, country)

cpdef _offer_to_cancel(TSState state, side, name)

cpdef _offer_cancel(TSState state, side)

cpdef _offer_cancel_for_ops(TSState state, side)

cpdef _offer_cancel_before_coup(TSState state, side, country)

cpdef _nuclear_subs(TSState state, side, country)

cpdef _trap_round(TSState state, side)

cpdef _salt_coups(TSState state, side, country)

cpdef _missile_envy_discarded(TSState state, side, card)

cpdef _bury_you_round(TSState state, side)

cpdef _brezhnev_doctrine(TSState state, side, card, value)

cpdef _flower_power_on(TSState state)

cpdef flower_power_event_hook(TSState state, card, actor)

cpdef flower_power_operations_hook(TSState state, side, card, kind)

cpdef _restrict_cards(TSState state, side, cards)

cpdef _restrict_uses(TSState state, side, card, options)

cpdef _after_round(TSState state, side, card, use, defcon_before)

cpdef _owed_missile_envy_not_headlined(TSState state, side, cards)
