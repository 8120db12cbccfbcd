"""Early War events, in card order: #4, 5, 7-35 and the optional #103-106 (the scoring cards are
in :mod:`.scoring`; The China Card, #6, has no event). cards.md §4 is the reference for each card.

Lasting effects (:mod:`..effects`) and the hooks they act through (:mod:`..hooks`):

* Vietnam Revolts ``vietnam_revolts:turn``: SOUTHEAST_ASIA_BONUSES (+1 Op for the USSR when every
  point of a play goes to Southeast Asia).
* NATO ``nato``: PROTECTIONS (US-controlled European countries are off limits to USSR coups and
  realignments), except France after De Gaulle Leads France (``de_gaulle``) and West Germany while
  Willy Brandt (#55, ``willy_brandt``) is in effect. Playable only after Marshall Plan or Warsaw
  Pact Formed (card data).
* Containment ``containment:turn``: OPS_BONUSES (US cards +1 Op, not above 4).
* US/Japan Mutual Defense Pact ``us_japan_pact``: PROTECTIONS (Japan, from the USSR).
* Red Scare/Purge ``red_scare:<side>:turn``: OPS_PENALTIES (the opponent's cards −1 Op, not below 1).
* Formosan Resolution ``formosan_resolution``: EXTRA_BATTLEGROUNDS (Taiwan is a battleground for
  the US in Asia scoring while it controls it); CHINA_CARD_HOOKS (ends when the US plays The
  China Card).
* Defectors (#103), not a lasting effect but a card acting outside its event: HEADLINE_HOOKS (a US
  headline cancels the USSR's) and CARD_USE_HOOKS (the USSR playing it for Operations gives the
  US 1 VP).
* NORAD ``norad``: AFTER_ROUND_HOOKS (1 US influence where the US has some when DEFCON moved to 2
  during a round and the US controls Canada, cards.md §8); Quagmire (#42) ends it.
* Korean War (#11) under the Chinese Civil War variant, not an effect of a card but of the
  unclaimed China Card (map.md §13: "the USSR gets −1 on Korean War" until it claims the card):
  WAR_MODIFIERS. The variant names no other war.

Steps of their own (``STEPS``):

* ``("five_year_plan_discard",)``: the random USSR discard of Five Year Plan (a public chance
  decision among the USSR hand cards: the discarded card is revealed).
* ``("olympic_roll", sponsor, first)``: the two Olympic dice (sponsor's first), ties re-rolled.
* ``("ev_destalinize", actor, before)``: automatic, after De-Stalinization's removals: places as
  many influence as were removed (``before`` is ``actor``'s total influence before them).

Decisions taken where the text leaves room: Independent Reds offers only the countries where the
USSR has more influence than the US (elsewhere it would add nothing); with none, the event happens
with no effect. Truman Doctrine offers only the uncontrolled European countries holding USSR
influence. Warsaw Pact Formed's removal option offers only Eastern European countries holding US
influence (each a separate decision, so they are distinct) and ends early when none is left.
Blockade's discard is a plain one (not ``primitives.discard_from_hand``): a Missile Envy the US
owes and gives up this way keeps its obligation until the end of the US's next round.
"""

from __future__ import annotations

from typing import Any

from ....core.flow import log
from ....core.game import CHANCE, make_decision
from .. import board as B
from .. import effects as E
from .. import hooks as H
from .. import map_data as M
from .. import ops as O
from ..common import CARD_OPTIONS, DIE_OPTIONS, TSStep, card_options, card_side, learn, remove_from_hand, role
from ..state import NOBODY, US, USSR, TSState, other
from .primitives import (
    N,
    OpposedRoll,
    ask,
    ask_country,
    card_id,
    card_number,
    china_claimed,
    choice,
    countries,
    enemy_controlled_neighbours,
    grant_ops,
    ops_uses,
    place,
    place_one,
    region,
    remove,
    remove_each,
    set_to_control,
    war,
)
from .registry import event, play_event_for

EASTERN_EUROPE = region(M.EASTERN_EUROPE)
WESTERN_EUROPE = region(M.WESTERN_EUROPE)
EUROPE = region(M.EUROPE)
EUROPE_SET = frozenset(EUROPE)
INDEPENDENT_REDS = tuple(M.INDEX[c] for c in ("yugoslavia", "romania", "bulgaria", "hungary", "czechoslovakia"))
WEST_GERMANY = M.INDEX["west_germany"]
FRANCE = M.INDEX["france"]
JAPAN = M.INDEX["japan"]
TAIWAN = M.INDEX["taiwan"]
CANADA = M.INDEX["canada"]
UK = M.INDEX["uk"]
LATE_WAR_TURN = 8
KOREAN_WAR = 11
DEFECTORS = 103
#: The region (or Southeast Asia) named on each scoring card (The Cambridge Five).
SCORING_REGION = {
    1: M.ASIA, 2: M.EUROPE, 3: M.MIDDLE_EAST, 37: M.CENTRAL_AMERICA, 38: M.SOUTHEAST_ASIA,
    79: M.AFRICA, 81: M.SOUTH_AMERICA,
}


def _card_ids(cards) -> str:
    return ",".join(card_id(c) for c in cards)


@event(4)
def duck_and_cover(state: TSState, actor: int) -> None:
    """DEFCON −1, then the US gains 5 − DEFCON VP."""
    B.degrade_defcon(state)
    if state.outcome is None:
        B.add_vp(state, US, 5 - state.defcon)


@event(5)
def five_year_plan(state: TSState, actor: int) -> None:
    """The USSR discards a random card; a US event on it fires for the US."""
    state.stack.append(("five_year_plan_discard",))


class FiveYearPlanDiscard(TSStep):
    """A card chosen at random (a public chance decision) from the USSR hand is discarded; a US
    event on it is carried out by the US, and a starred one is then removed (play_event_for: a
    blocked US event does not occur and its card is discarded)."""

    name = "five_year_plan_discard"

    def run(self, game, state, frame):
        hand = state.hands[USSR]
        if not hand:
            state.stack.pop()
            return None
        return make_decision(CHANCE, "five_year_plan", "random USSR discard", card_options(hand))

    def choose(self, game, state, frame, option):
        card = option.value
        state.stack.pop()
        remove_from_hand(state, USSR, card)
        if card_side(card) == US:
            play_event_for(state, card, US, dispose=True)
        else:
            state.discard = state.discard + (card,)


@event(7)
def socialist_governments(state: TSState, actor: int) -> None:
    """The USSR removes 3 US influence in Western Europe, at most 2 per country."""
    remove(state, actor, other(actor), 3, WESTERN_EUROPE, max_per=2)


@event(8)
def fidel(state: TSState, actor: int) -> None:
    cuba = M.INDEX["cuba"]
    state.inf[US][cuba] = 0
    set_to_control(state, USSR, cuba)


@event(9)
def vietnam_revolts(state: TSState, actor: int) -> None:
    state.inf[USSR][M.INDEX["vietnam"]] += 2
    state.add_effect(E.VIETNAM_REVOLTS)


def _vietnam_revolts_bonus(state: TSState, side: int, card: int) -> bool:
    return side == USSR and state.has(E.VIETNAM_REVOLTS)


H.SOUTHEAST_ASIA_BONUSES.append(_vietnam_revolts_bonus)


@event(10)
def blockade(state: TSState, actor: int) -> None:
    """The US discards a card worth 3+ Ops (after modifiers) or loses all its influence in West Germany."""
    us = other(actor)
    cards = [card_id(c) for c in state.hands[us] if O.ops_value(state, us, c) >= 3]
    ask(state, us, "blockade", cards + ["lose_west_germany"])


@choice("blockade")
def _blockade(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "lose_west_germany":
        state.inf[side][WEST_GERMANY] = 0
        return
    card = card_number(key)  # its event does not happen (cards.md §5.3)
    remove_from_hand(state, side, card)
    state.discard = state.discard + (card,)


@event(11)
def korean_war(state: TSState, actor: int) -> None:
    """War on South Korea: −1 per US-controlled neighbour; 4-6 wins 2 VP; 2 military ops."""
    target = M.INDEX["south_korea"]
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target), card=KOREAN_WAR)


def _civil_war_korean_war(state: TSState, actor: int, card: int, target: int) -> int:
    """Chinese Civil War variant (map.md §13): until the USSR claims The China Card, "the USSR
    gets −1 on Korean War" (on its die: +1 to what is subtracted). The variant names no other
    war."""
    return 1 if card == KOREAN_WAR and actor == USSR and not china_claimed(state, actor) else 0


H.WAR_MODIFIERS.append(_civil_war_korean_war)


@event(12)
def romanian_abdication(state: TSState, actor: int) -> None:
    romania = M.INDEX["romania"]
    state.inf[US][romania] = 0
    set_to_control(state, USSR, romania)


@event(13)
def arab_israeli_war(state: TSState, actor: int) -> None:
    """War on Israel: −1 if the US controls Israel and per US-controlled neighbour; 4-6 wins 2 VP."""
    target = M.INDEX["israel"]
    modifier = B.controls(state, other(actor), target) + enemy_controlled_neighbours(state, actor, target)
    war(state, actor, target, modifier, card=13)


@event(14)
def comecon(state: TSState, actor: int) -> None:
    """The USSR adds 1 influence to each of 4 Eastern European countries not US-controlled."""
    allowed = [c for c in EASTERN_EUROPE if not B.controls(state, other(actor), c)]
    place(state, actor, 4, allowed, max_per=1)


@event(15)
def nasser(state: TSState, actor: int) -> None:
    """The USSR adds 2 influence to Egypt; half the US influence there (rounded up) is removed."""
    egypt = M.INDEX["egypt"]
    state.inf[actor][egypt] += 2
    state.inf[other(actor)][egypt] //= 2  # removing half rounded up leaves half rounded down


@event(16)
def warsaw_pact_formed(state: TSState, actor: int) -> None:
    """The USSR clears US influence from 4 Eastern European countries, or adds 5 there (max 2 each)."""
    ask(state, actor, "warsaw_pact_formed", ["remove_us_influence", "add_ussr_influence"])


@choice("warsaw_pact_formed")
def _warsaw_pact(state: TSState, actor: int, key: str, data: Any) -> None:
    if key == "add_ussr_influence":
        place(state, actor, 5, EASTERN_EUROPE, max_per=2)
    else:
        _warsaw_pact_remove(state, actor, None, 4)


@choice("warsaw_pact_remove")
def _warsaw_pact_remove(state: TSState, actor: int, country: int | None, left: int) -> None:
    us = other(actor)
    if country is not None:
        state.inf[us][country] = 0
    if left > 0:
        ask_country(state, actor, "warsaw_pact_remove", [c for c in EASTERN_EUROPE if state.inf[us][c] > 0],
                    left - 1)


@event(17)
def de_gaulle_leads_france(state: TSState, actor: int) -> None:
    """2 US influence removed from France, USSR +1 there; France loses NATO protection."""
    state.inf[other(actor)][FRANCE] = max(0, state.inf[other(actor)][FRANCE] - 2)
    state.inf[actor][FRANCE] += 1
    state.add_effect(E.DE_GAULLE)


@event(18)
def captured_nazi_scientist(state: TSState, actor: int) -> None:
    O.advance_space(state, actor)  # not an attempt: no roll, no attempt used


@event(19)
def truman_doctrine(state: TSState, actor: int) -> None:
    """All USSR influence removed from one uncontrolled European country (US choice)."""
    enemy = other(actor)
    ask_country(state, actor, "truman_doctrine",
                [c for c in EUROPE if state.inf[enemy][c] > 0 and B.controller(state, c) == NOBODY])


@choice("truman_doctrine")
def _truman(state: TSState, actor: int, country: int, data: Any) -> None:
    state.inf[other(actor)][country] = 0


@event(20)
def olympic_games(state: TSState, actor: int) -> None:
    """The opponent chooses: participate (dice, sponsor +2, 2 VP) or boycott (DEFCON −1, sponsor 4 Ops)."""
    ask(state, other(actor), "olympic_games", ["participate", "boycott"], actor)


@choice("olympic_games")
def _olympic(state: TSState, chooser: int, key: str, sponsor: int) -> None:
    if key == "participate":
        state.stack.append(("olympic_roll", sponsor, 0))
        return
    B.degrade_defcon(state)  # at DEFCON 2 the phasing player (the sponsor) loses
    if state.outcome is None:
        grant_ops(state, sponsor, 4)  # influence, realignment or coup; never the space race


class OlympicRoll(OpposedRoll):
    """The sponsor's die, then the opponent's; sponsor +2; a tie re-rolls both; 2 VP to the higher."""

    name = "olympic_roll"
    label = "Olympic Games"
    rollers = ("sponsor", "opponent")

    def resolve(self, state, sponsor, first, second):
        mine, theirs = first + 2, second
        if mine == theirs:
            state.stack[-1] = ("olympic_roll", sponsor, 0)
            return
        state.stack.pop()
        winner = sponsor if mine > theirs else other(sponsor)
        log(state, role(state, winner), "olympic_result", f"score:{max(mine, theirs)}:{min(mine, theirs)}")
        B.add_vp(state, winner, 2)


@event(21)
def nato(state: TSState, actor: int) -> None:
    state.add_effect(E.NATO)  # playable only after Marshall Plan or Warsaw Pact (card data)


def _nato_shield(state: TSState, side: int) -> set[int] | tuple[()]:
    """US-controlled European countries, but France after De Gaulle and West Germany while
    Willy Brandt lasts."""
    if side != USSR or not state.has(E.NATO):
        return ()
    us = state.inf[US]
    shield = {c for c in EUROPE_SET if us[c] and B.controls(state, US, c)}  # (no influence: no control)
    if state.has(E.DE_GAULLE):
        shield.discard(FRANCE)
    if state.has(E.WILLY_BRANDT):
        shield.discard(WEST_GERMANY)
    return shield


H.PROTECTIONS.append(_nato_shield)


@event(22)
def independent_reds(state: TSState, actor: int) -> None:
    """The US matches USSR influence in one of Yugoslavia, Romania, Bulgaria, Hungary, Czechoslovakia."""
    ask_country(state, actor, "independent_reds",
                [c for c in INDEPENDENT_REDS if state.inf[other(actor)][c] > state.inf[actor][c]])


@choice("independent_reds")
def _independent_reds(state: TSState, actor: int, country: int, data: Any) -> None:
    state.inf[actor][country] = max(state.inf[actor][country], state.inf[other(actor)][country])


@event(23)
def marshall_plan(state: TSState, actor: int) -> None:
    """+1 in each of 7 different Western European countries not USSR-controlled (NATO's
    prerequisite is read from ``events_played``)."""
    allowed = [c for c in WESTERN_EUROPE if not B.controls(state, USSR, c)]
    place(state, US, 7, allowed, max_per=1)


@event(24)
def indo_pakistani_war(state: TSState, actor: int) -> None:
    """The player picks the country attacked (the target): India or Pakistan."""
    ask(state, actor, "indo_pakistani_war", ("india", "pakistan"))


@choice("indo_pakistani_war")
def _indo_pakistani_target(state: TSState, actor: int, key: str, data) -> None:
    target = M.INDEX[key]
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target), card=24)


@event(25)
def containment(state: TSState, actor: int) -> None:
    state.add_effect(E.CONTAINMENT)


def _containment(state: TSState, side: int, card: int, value: int) -> int:
    return value + 1 if side == US and value < 4 and state.has(E.CONTAINMENT) else value


H.OPS_BONUSES.append(_containment)


@event(26)
def cia_created(state: TSState, actor: int) -> None:
    """A one-time look at the USSR hand (seen by the US only), then 1 Op for the US (a fixed
    grant: not changed by Red Scare/Purge)."""
    log(state, role(state, USSR), "reveal_hand", "hand:" + _card_ids(state.hands[USSR]),
        visible_to=(role(state, US),), redacted="hand:hidden")
    learn(state, USSR, state.hands[USSR])
    grant_ops(state, US, 1)


@event(27)
def us_japan_mutual_defense_pact(state: TSState, actor: int) -> None:
    set_to_control(state, US, JAPAN)
    state.add_effect(E.US_JAPAN_PACT)


def _us_japan_shield(state: TSState, side: int) -> tuple[int, ...]:
    return (JAPAN,) if side == USSR and state.has(E.US_JAPAN_PACT) else ()


H.PROTECTIONS.append(_us_japan_shield)


@event(28)
def suez_crisis(state: TSState, actor: int) -> None:
    remove(state, USSR, US, 4, countries("france", "uk", "israel"), max_per=2)


@event(29)
def east_european_unrest(state: TSState, actor: int) -> None:
    """1 USSR influence from each of 3 different Eastern European countries (2 each in the Late
    War)."""
    if state.turn >= LATE_WAR_TURN:
        remove_each(state, US, USSR, 3, 2, EASTERN_EUROPE)
    else:
        remove(state, US, USSR, 3, EASTERN_EUROPE, max_per=1)


@event(30)
def decolonization(state: TSState, actor: int) -> None:
    place(state, USSR, 4, region(M.AFRICA) + region(M.SOUTHEAST_ASIA), max_per=1)


@event(31, playable=lambda state, actor: actor == US or china_claimed(state, actor))
def red_scare_purge(state: TSState, actor: int) -> None:
    state.add_effect(E.RED_SCARE[other(actor)])


def _red_scare(state: TSState, side: int, card: int, value: int) -> int:
    return max(1, value - 1) if state.has(E.RED_SCARE[side]) else value


H.OPS_PENALTIES.append(_red_scare)


def _opponent_cards(state: TSState, actor: int) -> list[int]:
    return [c for c in state.hands[actor] if card_side(c) == other(actor)]


def _un_intervention_playable(state: TSState, actor: int) -> bool:
    return bool(_opponent_cards(state, actor))


@event(32, playable=_un_intervention_playable)
def un_intervention(state: TSState, actor: int) -> None:
    """Pair with a card of the opponent's event: no event, discarded even if starred; its Ops
    (with the player's modifiers) go to influence, realignment or a coup (no space race)."""
    ask(state, actor, "un_intervention", [card_id(c) for c in _opponent_cards(state, actor)])


@choice("un_intervention")
def _un_intervention_card(state: TSState, actor: int, key: str, data) -> None:
    card = card_number(key)
    remove_from_hand(state, actor, card)
    state.discard = state.discard + (card,)
    ask(state, actor, "un_intervention_ops", ops_uses(state, actor), card)


@choice("un_intervention_ops")
def _un_intervention_ops(state: TSState, actor: int, key: str, card: int) -> None:
    O.push_operations(state, actor, card, key)


@event(33)
def de_stalinization(state: TSState, actor: int) -> None:
    """Up to 4 of the USSR's own influence taken from anywhere, then as many placed in countries
    the US does not control, at most 2 per country."""
    state.stack.append(("ev_destalinize", USSR, sum(state.inf[USSR])))
    remove(state, USSR, USSR, 4, range(N), optional=True)


class EvDestalinize(TSStep):
    name = "ev_destalinize"

    def run(self, game, state, frame):
        _, actor, before = frame
        state.stack.pop()
        moved = before - sum(state.inf[actor])
        allowed = [c for c in range(N) if not B.controls(state, other(actor), c)]
        place(state, actor, moved, allowed, max_per=2)
        return None


@event(34)
def nuclear_test_ban(state: TSState, actor: int) -> None:
    B.add_vp(state, actor, max(0, state.defcon - 2))
    if state.outcome is None:
        B.set_defcon(state, state.defcon + 2)


@event(35, playable=china_claimed)
def formosan_resolution(state: TSState, actor: int) -> None:
    state.add_effect(E.FORMOSAN_RESOLUTION)


def _taiwan_battleground(state: TSState, region_name: str, side: int) -> tuple[int, ...]:
    if region_name == M.ASIA and side == US and state.has(E.FORMOSAN_RESOLUTION):
        return (TAIWAN,)
    return ()


def _formosan_ends(state: TSState, side: int) -> None:
    """The US playing The China Card ends Formosan Resolution."""
    if side == US:
        state.drop_effect(E.FORMOSAN_RESOLUTION)


H.EXTRA_BATTLEGROUNDS.append(_taiwan_battleground)
H.CHINA_CARD_HOOKS.append(_formosan_ends)


@event(103)
def defectors(state: TSState, actor: int) -> None:
    """Its effects act outside the event: a US headline cancels the USSR headline; the USSR
    playing it for operations gives the US 1 VP (the hooks below). Played as an event in an
    action round it does nothing."""


def _defectors_headline(state: TSState) -> tuple[int, ...]:
    """Defectors headlined by the US cancels the USSR headline (discarded, no event)."""
    cards = state.headline
    if cards[US] == DEFECTORS and cards[USSR]:
        state.discard = state.discard + (cards[USSR],)
        log(state, role(state, US), "headline_cancel", CARD_OPTIONS[cards[USSR]].key)
        return (USSR,)
    return ()


def _defectors_for_operations(state: TSState, side: int, card: int, use: str) -> None:
    if card == DEFECTORS and side == USSR:
        B.add_vp(state, US, 1)


H.HEADLINE_HOOKS.append(_defectors_headline)
H.CARD_USE_HOOKS.append(_defectors_for_operations)


def _cambridge_five_playable(state: TSState, actor: int) -> bool:
    return state.turn < LATE_WAR_TURN


@event(104, playable=_cambridge_five_playable)
def the_cambridge_five(state: TSState, actor: int) -> None:
    """The US shows its scoring cards to the USSR, which may add 1 influence in one country of a
    region named on one of them."""
    scoring = [c for c in state.hands[US] if c in SCORING_REGION]
    log(state, role(state, US), "reveal_scoring_cards", "hand:" + _card_ids(scoring),
        visible_to=(role(state, USSR),), redacted="hand:hidden")
    learn(state, US, scoring)
    allowed = {c for card in scoring for c in region(SCORING_REGION[card])}
    if allowed:
        place(state, USSR, 1, allowed, optional=True)


@event(105)
def special_relationship(state: TSState, actor: int) -> None:
    """Only with US control of the UK: with NATO, 2 influence into one Western European country
    and 2 VP; without, 1 influence into a country adjacent to the UK."""
    if not B.controls(state, US, UK):
        return
    if state.has(E.NATO):
        place_one(state, US, 2, WESTERN_EUROPE)
        B.add_vp(state, US, 2)
    else:
        place(state, US, 1, M.NEIGHBOURS[UK])


@event(106)
def norad(state: TSState, actor: int) -> None:
    state.add_effect(E.NORAD)  # Quagmire (#42) drops it


def _norad(state: TSState, side: int, card: int, use: str, defcon_before: int) -> None:
    """DEFCON moved to 2 during the round and the US controls Canada: 1 US influence in a
    country where it has some."""
    if (
        state.has(E.NORAD) and state.defcon == 2 and defcon_before != 2
        and B.controls(state, US, CANADA)
    ):
        place(state, US, 1, [c for c in range(N) if state.inf[US][c] > 0])


H.AFTER_ROUND_HOOKS.append(_norad)

STEPS = (FiveYearPlanDiscard(), OlympicRoll(), EvDestalinize())
