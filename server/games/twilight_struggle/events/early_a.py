"""Early War events (part A): #5, 7, 10, 11, 13, 14, 15, 16, 17, 19, 20, 22 (cards.md §4).

Three small steps of their own (``STEPS``, collected into the game's steps by ``events.event_steps()``):

* ``("five_year_plan_discard",)``: the random USSR discard of Five Year Plan (a public chance
  decision among the USSR hand cards: the discarded card is revealed).
* ``("event_country", actor, name, countries, data)``: ``actor`` picks one of ``countries``
  (``country:<id>`` keys, decision step ``name``); ``CHOICES[name](state, actor, country, data)``
  carries it out. (Truman Doctrine, Independent Reds, Warsaw Pact Formed's removals.)
* ``("olympic_roll", sponsor, first)``: the two Olympic dice (sponsor's first), ties re-rolled.

Decisions taken where the text leaves room: Independent Reds offers only the countries where the
USSR has more influence than the US (elsewhere it would add nothing); with none, the event happens
with no effect. Truman Doctrine offers only the uncontrolled European countries holding USSR
influence. Warsaw Pact Formed's removal option offers only Eastern European countries holding US
influence (each a separate decision, so they are distinct) and ends early when none is left.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ....core.flow import Step, log
from ....core.game import CHANCE, make_decision
from .. import board as B
from .. import card_data as CD
from .. import map_data as M
from ..ops import ops_value
from ..state import NOBODY, US, USSR, TSState, other
from ..steps import (
    DIE_OPTIONS, card_options, card_side, country_options, play_event_for,
    remove_from_hand, role,
)
from . import event
from .primitives import (
    CHOICES, ask, choice, enemy_controlled_neighbours, grant_ops, place, region, remove, war,
)

EASTERN_EUROPE = region(M.EASTERN_EUROPE)
WESTERN_EUROPE = region(M.WESTERN_EUROPE)
EUROPE = region(M.EUROPE)
INDEPENDENT_REDS = tuple(M.INDEX[c] for c in ("yugoslavia", "romania", "bulgaria", "hungary", "czechoslovakia"))
WEST_GERMANY = M.INDEX["west_germany"]


def ask_country(state: TSState, actor: int, name: str, countries: Iterable[int], data: Any = None) -> None:
    """``actor`` picks one of ``countries`` (nothing happens if there is none)."""
    state.stack.append(("event_country", actor, name, tuple(sorted(set(countries))), data))


# -- events ----------------------------------------------------------------------------------------


@event(5)
def five_year_plan(state: TSState, actor: int) -> None:
    """The USSR discards a random card; a US event on it fires for the US."""
    state.stack.append(("five_year_plan_discard",))


@event(7)
def socialist_governments(state: TSState, actor: int) -> None:
    """The USSR removes 3 US influence in Western Europe, at most 2 per country."""
    remove(state, actor, other(actor), 3, WESTERN_EUROPE, max_per=2)


@event(10)
def blockade(state: TSState, actor: int) -> None:
    """The US discards a card worth 3+ Ops (after modifiers) or loses all its influence in West Germany."""
    us = other(actor)
    cards = [CD.CARD_BY_NUMBER[c].id for c in state.hands[us] if ops_value(state, us, c) >= 3]
    ask(state, us, "blockade", cards + ["lose_west_germany"])


@choice("blockade")
def _blockade(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "lose_west_germany":
        state.inf[side][WEST_GERMANY] = 0
        return
    card = CD.CARD_BY_ID[key].number  # its event does not happen (cards.md §5.3)
    remove_from_hand(state, side, card)
    state.discard = state.discard + (card,)


@event(11)
def korean_war(state: TSState, actor: int) -> None:
    """War on South Korea: −1 per US-controlled neighbour; 4-6 wins 2 VP; 2 military ops."""
    target = M.INDEX["south_korea"]
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target))


@event(13)
def arab_israeli_war(state: TSState, actor: int) -> None:
    """War on Israel: −1 if the US controls Israel and per US-controlled neighbour; 4-6 wins 2 VP."""
    target = M.INDEX["israel"]
    modifier = B.controls(state, other(actor), target) + enemy_controlled_neighbours(state, actor, target)
    war(state, actor, target, modifier)


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
    france = M.INDEX["france"]
    state.inf[other(actor)][france] = max(0, state.inf[other(actor)][france] - 2)
    state.inf[actor][france] += 1
    state.add_effect("de_gaulle")


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


@event(22)
def independent_reds(state: TSState, actor: int) -> None:
    """The US matches USSR influence in one of Yugoslavia, Romania, Bulgaria, Hungary, Czechoslovakia."""
    ask_country(state, actor, "independent_reds",
                [c for c in INDEPENDENT_REDS if state.inf[other(actor)][c] > state.inf[actor][c]])


@choice("independent_reds")
def _independent_reds(state: TSState, actor: int, country: int, data: Any) -> None:
    state.inf[actor][country] = max(state.inf[actor][country], state.inf[other(actor)][country])


# -- steps -----------------------------------------------------------------------------------------


class FiveYearPlanDiscard(Step):
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


class EventCountry(Step):
    """``actor`` picks one country for an event; a registered ``@choice`` callback acts on it."""

    name = "event_country"

    def run(self, game, state, frame):
        _, actor, name, countries, data = frame
        if not countries:
            state.stack.pop()
            return None
        return make_decision(role(state, actor), name, f"choose a country: {name.replace('_', ' ')}",
                             country_options(countries))

    def choose(self, game, state, frame, option):
        _, actor, name, countries, data = frame
        state.stack.pop()
        CHOICES[name](state, actor, option.value, data)


class OlympicRoll(Step):
    """The sponsor's die, then the opponent's; sponsor +2; a tie re-rolls both; 2 VP to the higher."""

    name = "olympic_roll"

    def run(self, game, state, frame):
        who = "sponsor" if not frame[2] else "opponent"
        return make_decision(CHANCE, "die", f"Olympic Games die ({who})", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, sponsor, first = frame
        if not first:
            state.stack[-1] = ("olympic_roll", sponsor, option.value)
            return
        mine, theirs = first + 2, option.value
        if mine == theirs:
            state.stack[-1] = ("olympic_roll", sponsor, 0)
            return
        state.stack.pop()
        winner = sponsor if mine > theirs else other(sponsor)
        log(state, role(state, winner), "olympic_result", f"score:{max(mine, theirs)}:{min(mine, theirs)}")
        B.add_vp(state, winner, 2)


STEPS = (FiveYearPlanDiscard(), EventCountry(), OlympicRoll())
