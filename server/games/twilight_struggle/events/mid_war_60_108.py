"""Mid War events #60-80 and the optional #107 Che and #108 Our Man in Tehran, in card order (the
scoring cards #79 and #81 are in :mod:`.scoring`; #36-59 in :mod:`.mid_war_36_59`). cards.md §4
is the reference for each card, §8 for the clarifications.

Lasting effects (:mod:`..effects`) and the hooks they act through (:mod:`..hooks`):

* U2 Incident ``u2_incident:turn``: UN Intervention (#32) carried out as an event later this turn
  (by either side) gives the USSR 1 more VP, once (AFTER_EVENT_HOOKS; the effect is then dropped).
* Latin American Death Squads ``death_squads:<ussr|us>:turn``: COUP_MODIFIERS, +1 to that side's
  coup rolls in Central and South America and −1 to the other side's, for every coup (operations,
  free, Che); military-ops credit unchanged (§8). Played twice in a turn (one side's, then the
  other's after SALT) the two cancel out.
* Shuttle Diplomacy ``shuttle_diplomacy``: SCORING_HOOKS. At the next Asia or Middle East scoring
  *card* (``score_region``; Southeast Asia scoring and final scoring do not go through it) the US
  names one USSR-controlled battleground of the region (Southeast Asian ones included for Asia),
  added as ``scoring_ignore:<id>`` (SCORING_EXCLUSIONS) for that scoring only
  (AFTER_SCORING_HOOKS clear it). The effect is used up by that scoring even with no USSR
  battleground to name (§8/§11 recommendation; herbix keeps it). The card stays out "in front of
  the US" while the effect lasts: the event takes its pending ``dispose`` frame off the stack (or
  the card out of the discard pile if it already got there), so a reshuffle cannot bring it back;
  when used up it goes to the discard pile (not starred).

Steps (``STEPS``):

* ``("grain_sales_draw",)``: a public chance draw from the USSR hand.
* ``("ask_not_discard", count)`` and ``("ask_not_draw", left)``: "Ask Not"'s discards, then its
  draws (chance decisions seen by the US only, reshuffling the discard pile when the draw pile
  runs out).
* ``("che_coup", value, excluded, first)``: the USSR picks a coup target for Che (a
  non-battleground country of Central America, South America or Africa with US influence, not
  ``excluded``) or ``done`` (the coups are optional: "may"); the coup is an ordinary coup roll
  with this card's Ops after the USSR's modifiers (Brezhnev +1, Red Scare −1), military ops
  credited (§11: not free). The targets never lie where DEFCON forbids coups and are never
  battlegrounds, so DEFCON is untouched.
* ``("che_check", country, us_before, value)``: after the first coup, a second one is offered
  (another country) only if US influence in ``country`` went down.
* ``("tehran_draw", left, drawn)``: Our Man in Tehran's draws, chance decisions seen by the US
  only; with fewer than 5 cards in the draw pile the US draws what is there (§8, no reshuffle).
* ``("tehran_discard", drawn)``: the US discards any of them face up, one per decision, or
  ``done``; their events do not occur (§5.3). The rest go back to the draw pile, which has no
  order in this engine (every draw is a chance decision), so "return to the top and reshuffle"
  is simply: back into the pile. The drawn cards wait in the frame meanwhile (only chance and the
  US decide then).

Decisions where the text leaves room:

* Grain Sales' fallback Operations are "this card's" 2 Ops with the US's modifiers (cards.md §6
  recommendation), used for influence, realignment or a coup (steps ``event_ops``).
* Puppet Governments offers ``done`` ("up to 3", cards.md); The Voice of America and Colonial
  Rear Guards must be carried out as far as possible; Lone Gunman's reveal lists the US hand (The
  China Card is public anyway), seen by the USSR only.
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
from ..common import DONE, TSStep, add_to_hand, card_options, country_options, learn, remove_from_hand, reshuffle, role
from ..state import US, USSR, TSState, other
from .primitives import (
    ask,
    card_id,
    choice,
    countries,
    drop_disposal,
    grant_ops,
    place,
    region,
    remove,
)
from .registry import event

UN_INTERVENTION = 32
SHUTTLE_DIPLOMACY = 73
CHE = 107
OPEC_COUNTRIES = countries("egypt", "iran", "libya", "saudi_arabia", "iraq", "gulf_states", "venezuela")
CENTRAL_SOUTH_AMERICA = frozenset(region(M.CENTRAL_AMERICA) + region(M.SOUTH_AMERICA))
OUTSIDE_EUROPE = tuple(c for c in range(len(M.COUNTRIES)) if c not in region(M.EUROPE))
CHE_COUNTRIES = tuple(sorted(
    c for c in region(M.CENTRAL_AMERICA) + region(M.SOUTH_AMERICA) + region(M.AFRICA) if not B.BATTLEGROUND[c]
))
POLAND = M.INDEX["poland"]
EGYPT = M.INDEX["egypt"]


# -- #60 U2 Incident, #61 OPEC ---------------------------------------------------------------------


@event(60)
def u2_incident(state: TSState, actor: int) -> None:
    """USSR +1 VP, and +1 more if UN Intervention is played as an event later this turn."""
    state.add_effect(E.U2_INCIDENT)
    B.add_vp(state, actor, 1)


def u2_incident_hook(state: TSState, card: int, actor: int) -> None:
    """UN Intervention as an event after U2 Incident this turn: USSR +1 VP (once)."""
    if card == UN_INTERVENTION and state.has(E.U2_INCIDENT):
        state.drop_effect(E.U2_INCIDENT)
        B.add_vp(state, USSR, 1)


H.AFTER_EVENT_HOOKS.append(u2_incident_hook)


@event(61)
def opec(state: TSState, actor: int) -> None:
    """USSR +1 VP per controlled Egypt, Iran, Libya, Saudi Arabia, Iraq, Gulf States, Venezuela."""
    B.add_vp(state, actor, sum(1 for c in OPEC_COUNTRIES if B.controls(state, actor, c)))


# -- #62 Lone Gunman ... #66 Puppet Governments ----------------------------------------------------


@event(62)
def lone_gunman(state: TSState, actor: int) -> None:
    """The US hand is shown to the USSR only, then the USSR conducts 1 Op (a fixed grant)."""
    ids = ",".join(card_id(c) for c in state.hands[US])
    log(state, role(state, US), "reveal_hand", "hand:" + ids, visible_to=(role(state, USSR),),
        redacted="hand:hidden")
    learn(state, US, state.hands[US])
    grant_ops(state, USSR, 1)


@event(63)
def colonial_rear_guards(state: TSState, actor: int) -> None:
    """US +1 in each of 4 different countries of Africa and/or Southeast Asia."""
    place(state, US, 4, region(M.AFRICA) + region(M.SOUTHEAST_ASIA), max_per=1)


@event(64)
def panama_canal_returned(state: TSState, actor: int) -> None:
    """US +1 in Panama, Costa Rica and Venezuela."""
    for c in countries("panama", "costa_rica", "venezuela"):
        state.inf[US][c] += 1


@event(65)
def camp_david_accords(state: TSState, actor: int) -> None:
    """US +1 VP, +1 in Israel, Jordan, Egypt (Arab-Israeli War's event is blocked: card data)."""
    for c in countries("israel", "jordan", "egypt"):
        state.inf[US][c] += 1
    B.add_vp(state, US, 1)


@event(66)
def puppet_governments(state: TSState, actor: int) -> None:
    """US +1 in each of up to 3 countries holding no influence of either side (now)."""
    empty = [c for c in range(len(M.COUNTRIES)) if state.inf[US][c] == 0 and state.inf[USSR][c] == 0]
    place(state, US, 3, empty, max_per=1, optional=True)


# -- #67 Grain Sales to Soviets --------------------------------------------------------------------


@event(67)
def grain_sales_to_soviets(state: TSState, actor: int) -> None:
    """The US draws a random USSR card: plays it, or returns it and uses Grain Sales' 2 Ops."""
    if state.hands[USSR]:
        state.stack.append(("grain_sales_draw",))
    else:
        _grain_sales_ops(state)


def _grain_sales_ops(state: TSState) -> None:
    # "this card's" Ops: 2 with the US's modifiers (cards.md §6); influence, realignment or a coup
    grant_ops(state, US, O.ops_value(state, US, 67))


class GrainSalesDraw(TSStep):
    """A card drawn at random (a public chance decision) from the USSR hand (The China Card is
    never in a hand); the US then plays it or gives it back."""

    name = "grain_sales_draw"

    def run(self, game, state, frame):
        return make_decision(CHANCE, "grain_sales", "random card from the USSR hand", card_options(state.hands[USSR]))

    def choose(self, game, state, frame, option):
        card = option.value
        state.stack.pop()
        remove_from_hand(state, USSR, card)
        ask(state, US, "grain_sales_to_soviets", ["play", "return"], card)


@choice("grain_sales_to_soviets")
def _grain_sales(state: TSState, side: int, key: str, card: int) -> None:
    if key == "play":
        # As if from its own hand: event, Operations (a USSR event then fires too) or space race;
        # the card is then discarded or removed as usual (turn.CardUse).
        state.stack.append(("card_use", card, US))
        return
    add_to_hand(state, USSR, card, public=True)  # given back in the open
    _grain_sales_ops(state)


# -- #68 John Paul II ... #70 OAS Founded ----------------------------------------------------------


@event(68)
def john_paul_ii_elected_pope(state: TSState, actor: int) -> None:
    """USSR −2 and US +1 in Poland; Solidarity's prerequisite is read from events_played."""
    state.inf[USSR][POLAND] = max(0, state.inf[USSR][POLAND] - 2)
    state.inf[US][POLAND] += 1


@event(69)
def latin_american_death_squads(state: TSState, actor: int) -> None:
    """Rest of turn: the player's coups in Central/South America +1, the opponent's −1."""
    state.add_effect(E.DEATH_SQUADS[actor])


def _death_squads(state: TSState, side: int, country: int) -> int:
    if country not in CENTRAL_SOUTH_AMERICA:
        return 0
    mine = state.has(E.DEATH_SQUADS[side])
    theirs = state.has(E.DEATH_SQUADS[other(side)])
    return int(mine) - int(theirs)


H.COUP_MODIFIERS.append(_death_squads)


@event(70)
def oas_founded(state: TSState, actor: int) -> None:
    """US +2 in Central and/or South America (split allowed)."""
    place(state, US, 2, CENTRAL_SOUTH_AMERICA)


# -- #71 Nixon Plays the China Card, #72 Sadat Expels Soviets --------------------------------------


@event(71)
def nixon_plays_the_china_card(state: TSState, actor: int) -> None:
    """The US takes The China Card face down from the USSR, or gains 2 VP if it holds it."""
    if state.china == USSR:
        state.china, state.china_face_up = US, False
    else:  # the US holds it (or, Chinese Civil War variant, nobody yet: counts as the US, map.md §13)
        B.add_vp(state, US, 2)


@event(72)
def sadat_expels_soviets(state: TSState, actor: int) -> None:
    """All USSR influence leaves Egypt; US +1 there."""
    state.inf[USSR][EGYPT] = 0
    state.inf[US][EGYPT] += 1


# -- #73 Shuttle Diplomacy -------------------------------------------------------------------------


@event(73)
def shuttle_diplomacy(state: TSState, actor: int) -> None:
    """Lasting until the next Asia / Middle East scoring card; the card stays out meanwhile."""
    state.add_effect(E.SHUTTLE_DIPLOMACY)
    if drop_disposal(state, SHUTTLE_DIPLOMACY):
        return
    if SHUTTLE_DIPLOMACY in state.discard:
        pile = list(state.discard)
        pile.remove(SHUTTLE_DIPLOMACY)
        state.discard = tuple(pile)


def _shuttle_scoring(state: TSState, region_name: str) -> bool:
    if region_name not in (M.ASIA, M.MIDDLE_EAST) or not state.has(E.SHUTTLE_DIPLOMACY):
        return False
    state.drop_effect(E.SHUTTLE_DIPLOMACY)
    zones = (state.deck, state.discard, state.removed, *state.hands)
    if not any(SHUTTLE_DIPLOMACY in zone for zone in zones):
        state.discard = state.discard + (SHUTTLE_DIPLOMACY,)
    targets = [
        M.COUNTRIES[c].id for c in M.REGION_COUNTRIES[region_name]
        if B.BATTLEGROUND[c] and B.controls(state, USSR, c)
    ]
    if not targets:
        return False
    ask(state, US, "shuttle_diplomacy", targets)
    return True


@choice("shuttle_diplomacy")
def _shuttle_ignore(state: TSState, actor: int, key: str, data: Any) -> None:
    state.add_effect(E.SCORING_IGNORE(key))


def _ignored_in_scoring(state: TSState, region_name: str) -> list[str]:
    return E.SCORING_IGNORE.args(state.effects)


def _ignore_once(state: TSState, region_name: str) -> None:
    effects = state.effects  # (a local: tests/test_cython_pitfalls.py)
    state.effects = frozenset(e for e in effects if e not in E.SCORING_IGNORE)


H.SCORING_HOOKS.append(_shuttle_scoring)
H.SCORING_EXCLUSIONS.append(_ignored_in_scoring)
H.AFTER_SCORING_HOOKS.append(_ignore_once)


# -- #74 The Voice of America ... #78 Alliance for Progress ----------------------------------------


@event(74)
def the_voice_of_america(state: TSState, actor: int) -> None:
    """The US removes 4 USSR influence outside Europe, at most 2 per country."""
    remove(state, US, USSR, 4, OUTSIDE_EUROPE, max_per=2)


@event(75)
def liberation_theology(state: TSState, actor: int) -> None:
    """USSR +3 in Central America, at most 2 per country."""
    place(state, USSR, 3, region(M.CENTRAL_AMERICA), max_per=2)


@event(76)
def ussuri_river_skirmish(state: TSState, actor: int) -> None:
    """The US takes The China Card face up from the USSR, or adds 4 influence in Asia (2 max each)."""
    if state.china == USSR:
        state.china, state.china_face_up = US, True
    else:  # the US holds it (or nobody yet, Chinese Civil War variant: counts as the US)
        place(state, US, 4, region(M.ASIA), max_per=2)


@event(77)
def ask_not_what_your_country_can_do_for_you(state: TSState, actor: int) -> None:
    """The US discards any number of cards (no events, no scoring), then draws as many."""
    state.stack.append(("ask_not_discard", 0))


class AskNotDiscard(TSStep):
    """One discard at a time (scoring cards included), or ``done``: then draw that many."""

    name = "ask_not_discard"

    def run(self, game, state, frame):
        if not state.hands[US]:
            state.stack[-1] = ("ask_not_draw", frame[1])
            return None
        return make_decision(role(state, US), "ask_not_discard", f"discard a card ({frame[1]} so far) or done",
                             card_options(state.hands[US]) + (DONE,))

    def choose(self, game, state, frame, option):
        count = frame[1]
        if option.value is None:
            state.stack[-1] = ("ask_not_draw", count)
            return
        remove_from_hand(state, US, option.value)
        state.discard = state.discard + (option.value,)
        state.stack[-1] = ("ask_not_discard", count + 1)


class AskNotDraw(TSStep):
    """The replacement draws: chance decisions seen by the US only (like turn.Deal); the discard
    pile is reshuffled into the draw pile when it runs out."""

    name = "ask_not_draw"
    hidden = True

    def run(self, game, state, frame):
        left = frame[1]
        if left > 0 and not state.deck and state.discard:
            reshuffle(state)
        if left <= 0 or not state.deck:
            state.stack.pop()
            return None
        return make_decision(CHANCE, "deal", f"draw a card for the us ({left} left)", card_options(state.deck))

    def choose(self, game, state, frame, option):
        deck = state.deck
        i = deck.index(option.value)
        state.deck = deck[:i] + deck[i + 1 :]
        add_to_hand(state, US, option.value)
        state.stack[-1] = ("ask_not_draw", frame[1] - 1)

    def visibility(self, state, frame, decision, option):
        return (role(state, US),), "card:hidden"


@event(78)
def alliance_for_progress(state: TSState, actor: int) -> None:
    """US +1 VP per US-controlled battleground in Central and South America."""
    B.add_vp(state, US, sum(1 for c in CENTRAL_SOUTH_AMERICA if B.BATTLEGROUND[c] and B.controls(state, US, c)))


# -- #80 "One Small Step..." -----------------------------------------------------------------------


def _behind_in_space(state: TSState, actor: int) -> bool:
    return state.space[actor] < state.space[other(actor)]


@event(80, playable=_behind_in_space)
def one_small_step(state: TSState, actor: int) -> None:
    """A player behind in the space race advances 2 boxes, with the VP of the second box only."""
    box = min(8, state.space[actor] + 2)
    state.space[actor] = box
    _, _, first, second = O.SPACE[box]
    # Abilities follow the positions (common.space_ability), so passing a box is "handled normally".
    B.add_vp(state, actor, first if state.space[other(actor)] < box else second)
    log(state, role(state, actor), "space_race", f"box:{box}")


# -- #107 Che --------------------------------------------------------------------------------------


@event(107)
def che(state: TSState, actor: int) -> None:
    """Optional coup with this card's (modified) Ops; a second one if the first took US influence."""
    state.stack.append(("che_coup", O.ops_value(state, USSR, CHE), -1, True))


class CheCoup(TSStep):
    name = "che_coup"

    def run(self, game, state, frame):
        _, value, excluded, first = frame
        among = tuple(c for c in CHE_COUNTRIES if c != excluded)
        targets = O.coup_targets(state, USSR, among=among)
        if not targets:
            state.stack.pop()
            return None
        which = "first" if first else "second"
        return make_decision(role(state, USSR), "che_coup", f"Che: {which} coup ({value} ops) or done",
                             country_options(targets) + (DONE,))

    def choose(self, game, state, frame, option):
        _, value, excluded, first = frame
        state.stack.pop()
        c = option.value
        if c is None:
            return
        if first:
            state.stack.append(("che_check", c, state.inf[US][c], value))
        O.push_coup_roll(state, USSR, c, value, False)


class CheCheck(TSStep):
    name = "che_check"

    def run(self, game, state, frame):
        _, c, us_before, value = frame
        state.stack.pop()
        if state.inf[US][c] < us_before:
            state.stack.append(("che_coup", value, c, False))
        return None


# -- #108 Our Man in Tehran ------------------------------------------------------------------------


def _us_controls_middle_east(state: TSState, actor: int) -> bool:
    return any(B.controls(state, US, c) for c in region(M.MIDDLE_EAST))


@event(108, playable=_us_controls_middle_east)
def our_man_in_tehran(state: TSState, actor: int) -> None:
    """The US draws 5 (or what is left), discards any face up, returns the rest to the pile."""
    state.stack.append(("tehran_draw", 5, ()))


class TehranDraw(TSStep):
    name = "tehran_draw"
    hidden = True

    def run(self, game, state, frame):
        _, left, drawn = frame
        if left <= 0 or not state.deck:
            state.stack[-1] = ("tehran_discard", drawn)
            return None
        return make_decision(CHANCE, "tehran_draw", f"Our Man in Tehran: draw a card for the US ({left} left)",
                             card_options(state.deck))

    def choose(self, game, state, frame, option):
        _, left, drawn = frame
        deck = state.deck
        i = deck.index(option.value)
        state.deck = deck[:i] + deck[i + 1 :]
        state.stack[-1] = ("tehran_draw", left - 1, drawn + (option.value,))

    def visibility(self, state, frame, decision, option):
        return (role(state, US),), "card:hidden"


class TehranDiscard(TSStep):
    name = "tehran_discard"

    def run(self, game, state, frame):
        drawn = frame[1]
        if not drawn:
            state.stack.pop()
            return None
        return make_decision(role(state, US), "tehran_discard", "Our Man in Tehran: discard a drawn card (or done)",
                             card_options(drawn) + (DONE,))

    def choose(self, game, state, frame, option):
        drawn = frame[1]
        if option.value is None:
            state.stack.pop()
            state.deck = tuple(sorted(state.deck + drawn))
            return
        i = drawn.index(option.value)
        state.discard = state.discard + (option.value,)
        state.stack[-1] = ("tehran_discard", drawn[:i] + drawn[i + 1 :])


STEPS = (GrainSalesDraw(), AskNotDiscard(), AskNotDraw(), CheCoup(), CheCheck(), TehranDraw(), TehranDiscard())
