"""Late War events (late_b): #92-102 (cards.md §4 is the reference for each card, §5-§8 for the
rules they lean on, §11 for the defaults where sources disagree).

Lasting effects set here and where they are read (no hook of our own is needed):

* ``iran_contra:turn`` (#93): ops.realign_modifier gives the US −1 on every realignment die.
* ``chernobyl:<region>:turn`` (#94, ``<region>`` spelled as in map_data: "Europe", "Middle East",
  ...): ops.Influence refuses USSR influence placed *by Operations* in that region; events, coups
  and realignments there are unaffected (§8).
* ``aldrich_ames:turn`` (#98): game.view shows the US hand to the USSR (``opponent_hand``) and
  game.determinize keeps it, for the rest of the turn.
* "Tear Down This Wall" (#96) drops ``willy_brandt`` (read by ops.protected: NATO shields West
  Germany again); "An Evil Empire" (#97) drops ``flower_power`` (mid_b's Flower Power hooks also
  stop once #97 is in ``events_played``). Their later events are blocked by card data
  (``blocked_by``), as Solidarity's prerequisite (#68 in ``events_played``) is.
* Terrorism (#92) reads ``iranian_hostage_crisis``, the lasting effect of #82 (late_a).

One step of its own (``STEPS``, collected by ``events.event_steps()``):

* ``("terrorism_discard", victim, left)``: a card chosen at random (a public chance decision: the
  discard is face up) from ``victim``'s hand is discarded, ``left`` times (fewer if the hand runs
  out). The China Card is never in a hand, so never taken.

Decisions taken where the text leaves room:

* Forced discards (Terrorism, Latin American Debt Crisis, Aldrich Ames Remix) never fire the
  discarded card's event, scoring cards included (§5.3); a discarded Missile Envy takes its
  obligation with it (as mid_a's trap discard does).
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

from ....core.flow import Step
from ....core.game import CHANCE, Outcome, make_decision
from .. import board as B
from .. import card_data as CD
from .. import map_data as M
from .. import ops as O
from ..state import SIDE_NAMES, US, USSR, TSState, other
from ..steps import card_options, remove_from_hand
from . import event
from .early_a import ask_country
from .primitives import ask, choice, enemy_controlled_neighbours, region, remove, war

EUROPE = region(M.EUROPE)
WESTERN_EUROPE = region(M.WESTERN_EUROPE)
SOUTH_AMERICA = region(M.SOUTH_AMERICA)
EAST_GERMANY = M.INDEX["east_germany"]
POLAND = M.INDEX["poland"]
TEAR_DOWN_THIS_WALL = 96
MISSILE_ENVY = 49
IRANIAN_HOSTAGE_CRISIS = "iranian_hostage_crisis"
#: Chernobyl's choice keys → the region names of map_data (the effect spells the name).
CHERNOBYL_REGIONS = {name.lower().replace(" ", "_"): name for name in M.REGIONS}


def _id(card: int) -> str:
    return CD.CARD_BY_NUMBER[card].id


def discard_from_hand(state: TSState, side: int, card: int) -> None:
    """A forced discard: the card leaves ``side``'s hand for the discard pile; its event never
    happens (cards.md §5.3). An owed Missile Envy goes with its obligation."""
    remove_from_hand(state, side, card)
    state.discard = state.discard + (card,)
    if card == MISSILE_ENVY:
        state.drop_effect(f"missile_envy:{SIDE_NAMES[side]}")


# -- events ----------------------------------------------------------------------------------------


@event(92)
def terrorism(state: TSState, actor: int) -> None:
    """The opponent discards a random card (the US 2 if the USSR plays it after Iranian Hostage Crisis)."""
    count = 2 if actor == USSR and state.has(IRANIAN_HOSTAGE_CRISIS) else 1
    state.stack.append(("terrorism_discard", other(actor), count))


@event(93)
def iran_contra_scandal(state: TSState, actor: int) -> None:
    """US realignment rolls −1 for the rest of the turn (ops.realign_modifier)."""
    state.add_effect("iran_contra:turn")


@event(94)
def chernobyl(state: TSState, actor: int) -> None:
    """The US names a region: no USSR influence placed there by Operations for the rest of the turn."""
    ask(state, US, "chernobyl", tuple(CHERNOBYL_REGIONS))


@choice("chernobyl")
def _chernobyl(state: TSState, side: int, key: str, data: Any) -> None:
    state.add_effect(f"chernobyl:{CHERNOBYL_REGIONS[key]}:turn")


@event(95)
def latin_american_debt_crisis(state: TSState, actor: int) -> None:
    """The US discards a 3+ Ops card or the USSR doubles its influence in 2 South American countries."""
    cards = [_id(c) for c in state.hands[US] if O.ops_value(state, US, c) >= 3]
    ask(state, US, "latin_american_debt_crisis", cards + ["double_ussr_influence"])


@choice("latin_american_debt_crisis")
def _debt_crisis(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "double_ussr_influence":
        _debt_crisis_double(state, USSR, None, ())
    else:
        discard_from_hand(state, side, CD.CARD_BY_ID[key].number)


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
    state.drop_effect("willy_brandt")
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
    state.drop_effect("flower_power")
    B.add_vp(state, US, 1)


@event(98)
def aldrich_ames_remix(state: TSState, actor: int) -> None:
    """The US hand is open to the USSR this turn; the USSR discards one US card (no event)."""
    state.add_effect("aldrich_ames:turn")
    ask(state, USSR, "aldrich_ames_remix", [_id(c) for c in state.hands[US]])


@choice("aldrich_ames_remix")
def _aldrich_ames(state: TSState, side: int, key: str, data: Any) -> None:
    discard_from_hand(state, US, CD.CARD_BY_ID[key].number)


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
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target))


# -- steps -----------------------------------------------------------------------------------------


class TerrorismDiscard(Step):
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


STEPS = (TerrorismDiscard(),)
