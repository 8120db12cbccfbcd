"""Early War events (part 1): scoring cards and the events that need no choice or only a
simple one. (cards.md §4 is the reference for each card.)"""

from __future__ import annotations

from .. import board as B
from .. import map_data as M
from ..ops import advance_space
from ..state import SIDE_NAMES, US, USSR, TSState, other
from . import event
from .primitives import set_to_control


@event(1)
def asia_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.ASIA))


@event(2)
def europe_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.EUROPE))


@event(3)
def middle_east_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.MIDDLE_EAST))


@event(4)
def duck_and_cover(state: TSState, actor: int) -> None:
    """DEFCON −1, then the US gains 5 − DEFCON VP."""
    B.degrade_defcon(state)
    if state.outcome is None:
        B.add_vp(state, US, 5 - state.defcon)


@event(8)
def fidel(state: TSState, actor: int) -> None:
    cuba = M.INDEX["cuba"]
    state.inf[US][cuba] = 0
    set_to_control(state, USSR, cuba)


@event(9)
def vietnam_revolts(state: TSState, actor: int) -> None:
    state.inf[USSR][M.INDEX["vietnam"]] += 2
    state.add_effect("vietnam_revolts:turn")


@event(12)
def romanian_abdication(state: TSState, actor: int) -> None:
    romania = M.INDEX["romania"]
    state.inf[US][romania] = 0
    set_to_control(state, USSR, romania)


@event(18)
def captured_nazi_scientist(state: TSState, actor: int) -> None:
    advance_space(state, actor)  # not an attempt: no roll, no attempt used


@event(21)
def nato(state: TSState, actor: int) -> None:
    state.add_effect("nato")  # playable only after Marshall Plan or Warsaw Pact (card data)


@event(25)
def containment(state: TSState, actor: int) -> None:
    state.add_effect("containment:turn")


@event(27)
def us_japan_mutual_defense_pact(state: TSState, actor: int) -> None:
    set_to_control(state, US, M.INDEX["japan"])
    state.add_effect("us_japan_pact")


def _china_claimed(state: TSState, actor: int) -> bool:
    """Chinese Civil War variant: until the USSR claims The China Card, Red Scare/Purge (for
    the USSR) and Formosan Resolution cannot be events (map.md §13)."""
    return not (state.rules.chinese_civil_war and state.china == -1)


@event(31, playable=lambda state, actor: actor == US or _china_claimed(state, actor))
def red_scare_purge(state: TSState, actor: int) -> None:
    state.add_effect(f"red_scare:{SIDE_NAMES[other(actor)]}:turn")


@event(34)
def nuclear_test_ban(state: TSState, actor: int) -> None:
    B.add_vp(state, actor, max(0, state.defcon - 2))
    if state.outcome is None:
        B.set_defcon(state, state.defcon + 2)


@event(35, playable=_china_claimed)
def formosan_resolution(state: TSState, actor: int) -> None:
    state.add_effect("formosan_resolution")


@event(103)
def defectors(state: TSState, actor: int) -> None:
    """Its effects live elsewhere: a US headline cancels the USSR headline (headline_reveal);
    the USSR playing it for operations gives the US 1 VP (card_use). Played as an event in an
    action round it does nothing."""
