"""Late War events (late_a): #82-91 and the optional #109 Yuri and Samantha and #110 AWACS Sale to
Saudis (cards.md §4 is the reference for each card, §5-§8 for the rules they lean on).

Lasting effects set here and who reads them:

* ``iranian_hostage_crisis`` (#82, rest of game): Terrorism (#92, events/late_b) played by the USSR
  makes the US discard 2 random cards.
* ``the_reformer`` (#87, rest of game): ops.coup_targets bars USSR coups in Europe (free ones too;
  realignments stay allowed); Glasnost (#90) reads it for its 4-Op bonus.
* ``yuri_and_samantha:turn`` (#109): ops.resolve_coup gives the USSR 1 VP per US coup attempt.
* ``north_sea_oil:turn`` (#86 headlined): steps.ActionRounds adds the US's 8th round.
* The blocks of The Iron Lady (Socialist Governments), North Sea Oil (OPEC) and AWACS (Muslim
  Revolution) live in the card data (``blocked_by``, read from ``events_played``).

No hook is needed: every effect is either immediate or read by the engine where it acts.

Decisions taken where the sources leave room:

* The Reformer places 6 instead of 4 only when the USSR is strictly ahead on VP (``vp < 0``) as the
  event resolves (cards.md §4); a tie places 4.
* Star Wars offers every non-scoring card of the discard pile, even one whose event cannot occur now
  (then nothing happens and it is discarded: steps.play_event_for) or one carrying the USSR's event
  (the USSR carries it out, §8). A starred picked card is removed afterwards, else discarded. With
  no non-scoring card in the pile the event happens with no effect (Star Wars is removed).
* North Sea Oil's round: played during the action rounds, a US round ``R + 1`` (``R`` = the turn's
  regular rounds, 7 in the Late War) is inserted just above the turn's ``end_turn`` frame, so it
  comes after every other round of the turn (the Space Station rounds included). It does not stack
  with the US's own Space Station round (cards.md §4): when the US already has an extra round
  pending or is playing it, nothing is added.
* KAL-007 and Glasnost: the 4 Operations are a fixed grant (no Red Scare/Purge, §6), used for
  influence (normal Ops placement: adjacency, double cost) or realignment rolls (DEFCON geography
  applies: they are not "free"), never a coup or the space race; "may": ``none`` is offered.
* Ortega: the free coup uses this card's Ops with the USSR's modifiers (§6 default: Brezhnev +1,
  Red Scare −1); optional (``coup`` / ``none``), offered only when Cuba, Honduras or Costa Rica holds
  US influence; the target is then chosen at the ordinary coup step among those.
"""

from __future__ import annotations

from typing import Any

from .. import board as B
from .. import card_data as CD
from .. import map_data as M
from .. import ops as O
from ..state import US, USSR, TSState
from ..steps import play_event_for
from . import event
from .primitives import ask, choice, countries, place, region, remove

IRAN = M.INDEX["iran"]
ARGENTINA = M.INDEX["argentina"]
UK = M.INDEX["uk"]
LIBYA = M.INDEX["libya"]
LEBANON = M.INDEX["lebanon"]
SOUTH_KOREA = M.INDEX["south_korea"]
NICARAGUA = M.INDEX["nicaragua"]
SAUDI_ARABIA = M.INDEX["saudi_arabia"]
ORTEGA_TARGETS = countries("cuba", "honduras", "costa_rica")
ORTEGA = 91


@event(82)
def iranian_hostage_crisis(state: TSState, actor: int) -> None:
    """All US influence leaves Iran, USSR +2 there; Terrorism is doubled against the US from now on."""
    state.inf[US][IRAN] = 0
    state.inf[USSR][IRAN] += 2
    state.add_effect("iranian_hostage_crisis")


@event(83)
def the_iron_lady(state: TSState, actor: int) -> None:
    """US +1 VP, USSR +1 in Argentina, all USSR influence leaves the UK (Socialist Governments blocked)."""
    state.inf[USSR][ARGENTINA] += 1
    state.inf[USSR][UK] = 0
    B.add_vp(state, US, 1)


@event(84)
def reagan_bombs_libya(state: TSState, actor: int) -> None:
    """The US gains 1 VP per 2 USSR influence in Libya (fractions dropped)."""
    B.add_vp(state, US, state.inf[USSR][LIBYA] // 2)


def _us_ahead_in_space(state: TSState, actor: int) -> bool:
    return state.space[US] > state.space[USSR]


@event(85, playable=_us_ahead_in_space)
def star_wars(state: TSState, actor: int) -> None:
    """The US (strictly ahead in space) picks a non-scoring discard; its event happens at once."""
    cards = sorted({c for c in state.discard if not CD.CARD_BY_NUMBER[c].scoring})
    if cards:
        ask(state, US, "star_wars", [CD.CARD_BY_NUMBER[c].id for c in cards])


@choice("star_wars")
def _star_wars_pick(state: TSState, side: int, key: str, data: Any) -> None:
    card = CD.CARD_BY_ID[key].number
    pile = list(state.discard)
    pile.remove(card)
    state.discard = tuple(pile)
    # Carried out by its owner (the US for a neutral card), then removed if starred, else discarded.
    play_event_for(state, card, US, dispose=True)


def _regular_rounds(state: TSState) -> int:
    return 6 if state.turn <= 3 else 7


@event(86)
def north_sea_oil(state: TSState, actor: int) -> None:
    """OPEC blocked (card data); the US takes one extra (8th) action round this turn."""
    stack = state.stack
    if any(f[0] == "action_rounds" for f in stack):
        state.add_effect("north_sea_oil:turn")  # headline: steps.ActionRounds adds the round
        return
    last = _regular_rounds(state)
    pending = any(f[0] == "action_round" and f[2] == US and f[1] > last for f in stack)
    if pending or (state.phasing == US and state.ar > last):
        return  # the US already has its Space Station round: the two do not stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == "end_turn":
            stack.insert(i + 1, ("action_round", last + 1, US))
            return


@event(87)
def the_reformer(state: TSState, actor: int) -> None:
    """USSR +4 in Europe (+6 if ahead on VP), 2 max per country; no more USSR coups in Europe."""
    place(state, USSR, 6 if state.vp < 0 else 4, region(M.EUROPE), max_per=2)
    state.add_effect("the_reformer")


@event(88)
def marine_barracks_bombing(state: TSState, actor: int) -> None:
    """All US influence leaves Lebanon, then the USSR removes 2 more US influence in the Middle East."""
    state.inf[US][LEBANON] = 0
    remove(state, USSR, US, 2, region(M.MIDDLE_EAST))


def _offer_ops(state: TSState, side: int, name: str) -> None:
    """``side`` may use 4 Operations for influence or realignment rolls (``none`` declines)."""
    keys = ["influence"] + (["realign"] if O.realign_targets(state, side) else []) + ["none"]
    ask(state, side, name, keys)


@choice("kal_007_ops")
@choice("glasnost_ops")
def _four_ops(state: TSState, side: int, key: str, data: Any) -> None:
    if key != "none":
        O.push_operations(state, side, 0, key, value=4)  # a fixed grant: no Ops modifiers


@event(89)
def soviets_shoot_down_kal_007(state: TSState, actor: int) -> None:
    """DEFCON −1, US +2 VP; then, with US control of South Korea, 4 Ops of influence or realignment."""
    B.degrade_defcon(state)
    if state.outcome is None:
        B.add_vp(state, US, 2)
    if state.outcome is None and B.controls(state, US, SOUTH_KOREA):
        _offer_ops(state, US, "kal_007_ops")


@event(90)
def glasnost(state: TSState, actor: int) -> None:
    """USSR +2 VP, DEFCON +1; with The Reformer in effect, 4 Ops of influence or realignment."""
    B.add_vp(state, USSR, 2)
    if state.outcome is None:
        B.set_defcon(state, state.defcon + 1)
        if state.has("the_reformer"):
            _offer_ops(state, USSR, "glasnost_ops")


@event(91)
def ortega_elected_in_nicaragua(state: TSState, actor: int) -> None:
    """All US influence leaves Nicaragua; the USSR may then coup Cuba, Honduras or Costa Rica for free."""
    state.inf[US][NICARAGUA] = 0
    if O.coup_targets(state, USSR, free=True, among=ORTEGA_TARGETS):
        ask(state, USSR, "ortega_elected_in_nicaragua", ["coup", "none"])


@choice("ortega_elected_in_nicaragua")
def _ortega_coup(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "coup":
        O.push_operations(state, USSR, ORTEGA, "coup", free=True, among=ORTEGA_TARGETS)


@event(109)
def yuri_and_samantha(state: TSState, actor: int) -> None:
    """For the rest of the turn the USSR gains 1 VP per US coup attempt (ops.resolve_coup)."""
    state.add_effect("yuri_and_samantha:turn")


@event(110)
def awacs_sale_to_saudis(state: TSState, actor: int) -> None:
    """US +2 in Saudi Arabia (Muslim Revolution blocked: card data)."""
    state.inf[US][SAUDI_ARABIA] += 2
