"""Late War events #82-102 and the optional #109 Yuri and Samantha and #110 AWACS Sale to Saudis,
in card order (cards.md §4 is the reference for each card, §5-§8 for the rules they lean on, §11
for the defaults where sources disagree).

Lasting effects (:mod:`..effects`) and the hooks they act through (:mod:`..hooks`):

* Iranian Hostage Crisis ``iranian_hostage_crisis`` (rest of game): Terrorism (#92) played by the
  USSR makes the US discard 2 random cards.
* North Sea Oil ``north_sea_oil:turn`` (headlined): ACTION_ROUNDS_HOOKS add the US's 8th round
  (optional, as every extra round: turn.ActionRound asks ``extra_action_round`` first).
* The Reformer ``the_reformer`` (rest of game): COUP_BARS (no USSR coups in Europe, free ones too;
  realignments stay allowed); Glasnost (#90) reads it for its 4-Op bonus.
* Iran-Contra Scandal ``iran_contra:turn``: REALIGN_MODIFIERS (−1 on every US realignment die).
* Chernobyl ``chernobyl:<region>:turn`` (``<region>`` spelled as in map_data: "Europe",
  "Middle East", ...): PLACEMENT_BARS (no USSR influence placed *by Operations* in that region;
  events, coups and realignments there are unaffected, §8).
* Aldrich Ames Remix ``aldrich_ames:turn``: OPEN_HANDS (the views show the US hand to the USSR,
  ``opponent_hand``, and determinize keeps it, for the rest of the turn).
* "Tear Down This Wall" (#96) drops ``willy_brandt`` (NATO shields West Germany again); "An Evil
  Empire" (#97) drops ``flower_power`` (Flower Power's hooks also stop once #97 is in
  ``events_played``). Their later events are blocked by card data (``blocked_by``), as
  Solidarity's prerequisite (#68 in ``events_played``) is.
* Yuri and Samantha ``yuri_and_samantha:turn``: AFTER_COUP_HOOKS (the USSR gains 1 VP per US
  coup attempt this turn).
* The blocks of The Iron Lady (Socialist Governments), North Sea Oil (OPEC) and AWACS (Muslim
  Revolution) live in the card data (``blocked_by``, read from ``events_played``).

Step (``STEPS``): ``("terrorism_discard", victim, left)``: a card chosen at random (a public
chance decision: the discard is face up) from ``victim``'s hand is discarded, ``left`` times
(fewer if the hand runs out). The China Card is never in a hand, so never taken.

Decisions taken where the sources leave room:

* The Reformer places 6 instead of 4 only when the USSR is strictly ahead on VP (``vp < 0``) as the
  event resolves (cards.md §4); a tie places 4.
* Star Wars offers every non-scoring card of the discard pile, even one whose event cannot occur now
  (then nothing happens and it is discarded: registry.play_event_for) or one carrying the USSR's
  event (the USSR carries it out, §8). A starred picked card is removed afterwards, else discarded.
  With no non-scoring card in the pile the event happens with no effect (Star Wars is removed).
* North Sea Oil's round: played during the action rounds, a US round ``R + 1`` (``R`` = the turn's
  regular rounds, 7 in the Late War) is inserted just above the turn's ``end_turn`` frame, so it
  comes after every other round of the turn (the Space Station rounds included); the US "may take"
  it: the round starts with ``extra_action_round`` (turn.ActionRound). It does not stack
  with the US's own Space Station round (cards.md §4): when the US already has an extra round
  pending or is playing it, nothing is added.
* KAL-007 and Glasnost: the 4 Operations are a fixed grant (no Red Scare/Purge, §6), used for
  influence (normal Ops placement: adjacency, double cost) or realignment rolls (DEFCON geography
  applies: they are not "free"), never a coup or the space race; "may": ``none`` is offered.
* Ortega: the free coup uses this card's Ops with the USSR's modifiers (§6 default: Brezhnev +1,
  Red Scare −1); optional (``coup`` / ``none``), offered only when Cuba, Honduras or Costa Rica holds
  US influence; the target is then chosen at the ordinary coup step among those.
* Forced discards (Terrorism, Latin American Debt Crisis, Aldrich Ames Remix) never fire the
  discarded card's event, scoring cards included (§5.3); a discarded Missile Envy takes its
  obligation with it (primitives.discard_from_hand).
* Latin American Debt Crisis: the discard option lists the US cards worth 3+ Ops after the US's
  modifiers; "double" is always offered. The USSR then picks two different South American
  countries among those holding USSR influence (doubling nothing changes nothing); fewer if fewer
  qualify. Not starred (§11 default, card data).
* "Tear Down This Wall": the free coup / realignment rolls use this card's Ops with the US's
  modifiers (§6 default: 3, Containment 4, Red Scare 2), in Europe only; each option is offered
  only when it has a target there, "neither" always.
* Pershing II Deployed: "up to 3" lets the USSR stop early (``done``).
* Wargames: playing it as an event *is* the choice to end the game (§11 default: no "decline"
  once the event is carried out; the "may" is the choice of playing it as an event at all). A
  headlined Wargames that finds DEFCON at 2 therefore ends the game too. The 6 VP are added
  without the 20-VP check: the game ends by Wargames, the side ahead winning (termination
  ``wargames``; reaching 20 that way gives the same winner).
* Iran-Iraq War: the choice names the country attacked (the target), as Indo-Pakistani War's;
  starred (§11 default, card data).
"""

from __future__ import annotations

from typing import Any

from ....core.game import CHANCE, Outcome, make_decision
from .. import board as B
from .. import effects as E
from .. import hooks as H
from .. import map_data as M
from .. import ops as O
from ..common import TSStep, card_options, regular_rounds, space_ability
from ..state import SIDE_NAMES, US, USSR, TSState, other
from .primitives import (
    ask,
    ask_country,
    card_id,
    card_number,
    choice,
    countries,
    discard_from_hand,
    enemy_controlled_neighbours,
    is_scoring,
    place,
    region,
    remove,
    war,
)
from .registry import event, play_event_for

IRAN = M.INDEX["iran"]
ARGENTINA = M.INDEX["argentina"]
UK = M.INDEX["uk"]
LIBYA = M.INDEX["libya"]
LEBANON = M.INDEX["lebanon"]
SOUTH_KOREA = M.INDEX["south_korea"]
NICARAGUA = M.INDEX["nicaragua"]
SAUDI_ARABIA = M.INDEX["saudi_arabia"]
EAST_GERMANY = M.INDEX["east_germany"]
POLAND = M.INDEX["poland"]
ORTEGA_TARGETS = countries("cuba", "honduras", "costa_rica")
EUROPE = region(M.EUROPE)
WESTERN_EUROPE = region(M.WESTERN_EUROPE)
SOUTH_AMERICA = region(M.SOUTH_AMERICA)
ORTEGA = 91
TEAR_DOWN_THIS_WALL = 96
#: Chernobyl's choice keys → the region names of map_data (the effect spells the name).
CHERNOBYL_REGIONS = {name.lower().replace(" ", "_"): name for name in M.REGIONS}


@event(82)
def iranian_hostage_crisis(state: TSState, actor: int) -> None:
    """All US influence leaves Iran, USSR +2 there; Terrorism is doubled against the US from now on."""
    state.inf[US][IRAN] = 0
    state.inf[USSR][IRAN] += 2
    state.add_effect(E.IRANIAN_HOSTAGE_CRISIS)


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
    discard = state.discard  # (a local: tests/test_cython_pitfalls.py)
    cards = sorted({c for c in discard if not is_scoring(c)})
    if cards:
        ask(state, US, "star_wars", [card_id(c) for c in cards])


@choice("star_wars")
def _star_wars_pick(state: TSState, side: int, key: str, data: Any) -> None:
    card = card_number(key)
    pile = list(state.discard)
    pile.remove(card)
    state.discard = tuple(pile)
    # Carried out by its owner (the US for a neutral card), then removed if starred, else discarded.
    play_event_for(state, card, US, dispose=True)


@event(86)
def north_sea_oil(state: TSState, actor: int) -> None:
    """OPEC blocked (card data); the US takes one extra (8th) action round this turn."""
    stack = state.stack
    if any(f[0] == "action_rounds" for f in stack):
        state.add_effect(E.NORTH_SEA_OIL)  # headline: the round is added with the turn's rounds
        return
    last = regular_rounds(state)
    pending = any(f[0] == "action_round" and f[2] == US and f[1] > last for f in stack)
    if pending or (state.phasing == US and state.ar > last):
        return  # the US already has its Space Station round: the two do not stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == "end_turn":
            stack.insert(i + 1, ("action_round", last + 1, US))
            return


def _north_sea_oil_round(state: TSState, rounds: int) -> None:
    """Headlined: the US's extra round comes after every other one, unless the US has its own
    Space Station round."""
    if state.has(E.NORTH_SEA_OIL) and space_ability(state, 8) != US:
        state.stack.append(("action_round", rounds + 1, US))


H.ACTION_ROUNDS_HOOKS.append(_north_sea_oil_round)


@event(87)
def the_reformer(state: TSState, actor: int) -> None:
    """USSR +4 in Europe (+6 if ahead on VP), 2 max per country; no more USSR coups in Europe."""
    place(state, USSR, 6 if state.vp < 0 else 4, EUROPE, max_per=2)
    state.add_effect(E.THE_REFORMER)


def _reformer_bars(state: TSState, side: int) -> tuple[int, ...]:
    return EUROPE if side == USSR and state.has(E.THE_REFORMER) else ()


H.COUP_BARS.append(_reformer_bars)


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
        if state.has(E.THE_REFORMER):
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


@event(92)
def terrorism(state: TSState, actor: int) -> None:
    """The opponent discards a random card (the US 2 if the USSR plays it after Iranian Hostage Crisis)."""
    count = 2 if actor == USSR and state.has(E.IRANIAN_HOSTAGE_CRISIS) else 1
    state.stack.append(("terrorism_discard", other(actor), count))


class TerrorismDiscard(TSStep):
    """One random card of the victim's hand (a public chance decision) is discarded, no event."""

    name = "terrorism_discard"

    def run(self, game, state, frame):
        _, victim, left = frame
        hand = state.hands[victim]
        if left <= 0 or not hand:
            state.stack.pop()
            return None
        return make_decision(CHANCE, "terrorism", f"random {SIDE_NAMES[victim]} discard ({left} left)",
                             card_options(hand))

    def choose(self, game, state, frame, option):
        _, victim, left = frame
        discard_from_hand(state, victim, option.value)
        state.stack[-1] = ("terrorism_discard", victim, left - 1)


@event(93)
def iran_contra_scandal(state: TSState, actor: int) -> None:
    """US realignment rolls −1 for the rest of the turn."""
    state.add_effect(E.IRAN_CONTRA)


def _iran_contra(state: TSState, side: int, country: int) -> int:
    return -1 if side == US and state.has(E.IRAN_CONTRA) else 0


H.REALIGN_MODIFIERS.append(_iran_contra)


@event(94)
def chernobyl(state: TSState, actor: int) -> None:
    """The US names a region: no USSR influence placed there by Operations for the rest of the turn."""
    ask(state, US, "chernobyl", tuple(CHERNOBYL_REGIONS))


@choice("chernobyl")
def _chernobyl(state: TSState, side: int, key: str, data: Any) -> None:
    state.add_effect(E.CHERNOBYL(CHERNOBYL_REGIONS[key]))


def _chernobyl_bars(state: TSState, side: int) -> set[int]:
    """The named regions (Europe and Asia with their sub-regions), for the USSR's Operations."""
    barred: set[int] = set()
    if side == USSR:
        for name in E.CHERNOBYL.args(state.effects):
            barred.update(M.REGION_COUNTRIES[name])
    return barred


H.PLACEMENT_BARS.append(_chernobyl_bars)


@event(95)
def latin_american_debt_crisis(state: TSState, actor: int) -> None:
    """The US discards a 3+ Ops card or the USSR doubles its influence in 2 South American countries."""
    cards = [card_id(c) for c in state.hands[US] if O.ops_value(state, US, c) >= 3]
    ask(state, US, "latin_american_debt_crisis", cards + ["double_ussr_influence"])


@choice("latin_american_debt_crisis")
def _debt_crisis(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "double_ussr_influence":
        _debt_crisis_double(state, USSR, None, ())
    else:
        discard_from_hand(state, side, card_number(key))


@choice("latin_american_debt_crisis_double")
def _debt_crisis_double(state: TSState, actor: int, country: int | None, chosen: tuple[int, ...]) -> None:
    if country is not None:
        state.inf[actor][country] *= 2
        chosen += (country,)
    if len(chosen) < 2:
        ask_country(state, actor, "latin_american_debt_crisis_double",
                    [c for c in SOUTH_AMERICA if c not in chosen and state.inf[actor][c] > 0], chosen)


@event(96)
def tear_down_this_wall(state: TSState, actor: int) -> None:
    """Ends Willy Brandt; US +3 in East Germany, then a free coup or realignments in Europe, or neither."""
    state.drop_effect(E.WILLY_BRANDT)
    state.inf[US][EAST_GERMANY] += 3
    uses = []
    if O.coup_targets(state, US, free=True, among=EUROPE):
        uses.append("coup")
    if O.realign_targets(state, US, free=True, among=EUROPE):
        uses.append("realign")
    ask(state, US, "tear_down_this_wall", uses + ["neither"])


@choice("tear_down_this_wall")
def _tear_down_this_wall(state: TSState, side: int, key: str, data: Any) -> None:
    if key != "neither":
        O.push_operations(state, side, TEAR_DOWN_THIS_WALL, key, free=True, among=EUROPE)


@event(97)
def an_evil_empire(state: TSState, actor: int) -> None:
    """US +1 VP; cancels Flower Power (its event is blocked from now on by card data)."""
    state.drop_effect(E.FLOWER_POWER)
    B.add_vp(state, US, 1)


@event(98)
def aldrich_ames_remix(state: TSState, actor: int) -> None:
    """The US hand is open to the USSR this turn; the USSR discards one US card (no event)."""
    state.add_effect(E.ALDRICH_AMES)
    ask(state, USSR, "aldrich_ames_remix", [card_id(c) for c in state.hands[US]])


@choice("aldrich_ames_remix")
def _aldrich_ames(state: TSState, side: int, key: str, data: Any) -> None:
    discard_from_hand(state, US, card_number(key))


def _aldrich_ames_open_hand(state: TSState, side: int) -> bool:
    return side == USSR and state.has(E.ALDRICH_AMES)


H.OPEN_HANDS.append(_aldrich_ames_open_hand)


@event(99)
def pershing_ii_deployed(state: TSState, actor: int) -> None:
    """USSR +1 VP; the USSR removes 1 US influence from each of up to 3 Western European countries."""
    B.add_vp(state, USSR, 1)
    remove(state, USSR, US, 3, WESTERN_EUROPE, max_per=1, optional=True)


def _defcon_two(state: TSState, actor: int) -> bool:
    return state.defcon == 2


@event(100, playable=_defcon_two)
def wargames(state: TSState, actor: int) -> None:
    """At DEFCON 2 only: the opponent gains 6 VP, then the game ends; the side ahead wins (0: draw)."""
    B.add_vp(state, other(actor), 6, check=False)
    if state.vp > 0:
        B.win(state, US, B.WARGAMES, f"Wargames: US ahead by {state.vp} VP")
    elif state.vp < 0:
        B.win(state, USSR, B.WARGAMES, f"Wargames: USSR ahead by {-state.vp} VP")
    elif state.outcome is None:
        state.outcome = Outcome.draw(state.rules.roles, B.WARGAMES, "Wargames: VP level")


@event(101)
def solidarity(state: TSState, actor: int) -> None:
    """US +3 in Poland (only after John Paul II Elected Pope: card data prerequisite)."""
    state.inf[US][POLAND] += 3


@event(102)
def iran_iraq_war(state: TSState, actor: int) -> None:
    """War on Iran or Iraq (player's choice): −1 per enemy-controlled neighbour; 4-6 wins 2 VP."""
    ask(state, actor, "iran_iraq_war", ("iran", "iraq"))


@choice("iran_iraq_war")
def _iran_iraq_target(state: TSState, actor: int, key: str, data: Any) -> None:
    target = M.INDEX[key]
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target), card=102)


@event(109)
def yuri_and_samantha(state: TSState, actor: int) -> None:
    """For the rest of the turn the USSR gains 1 VP per US coup attempt."""
    state.add_effect(E.YURI_AND_SAMANTHA)


def _yuri_and_samantha(state: TSState, side: int, country: int) -> None:
    if side == US and state.has(E.YURI_AND_SAMANTHA):
        B.add_vp(state, USSR, 1)


H.AFTER_COUP_HOOKS.append(_yuri_and_samantha)


@event(110)
def awacs_sale_to_saudis(state: TSState, actor: int) -> None:
    """US +2 in Saudi Arabia (Muslim Revolution blocked: card data)."""
    state.inf[US][SAUDI_ARABIA] += 2


STEPS = (TerrorismDiscard(),)
