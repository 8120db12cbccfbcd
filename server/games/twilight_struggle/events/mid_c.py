"""Mid War events (mid_c): #62-66, 68-70, 72-75, 78 and the optional #107 Che and #108 Our Man in
Tehran (cards.md §4 is the reference for each card, §8 for the clarifications).

Lasting effects and the hooks they use (:mod:`..hooks`):

* ``death_squads:<ussr|us>:turn`` (Latin American Death Squads, #69): a ``COUP_MODIFIERS`` entry
  gives +1 to that side's coup rolls in Central and South America and −1 to the other side's,
  for every coup (operations, free, Che); military-ops credit unchanged (§8). Played twice in a
  turn (one side's, then the other's after SALT) the two cancel out.
* ``shuttle_diplomacy`` (#73): a ``SCORING_HOOKS`` entry. At the next Asia or Middle East
  scoring *card* (score_region; Southeast Asia scoring and final scoring do not go through it)
  the US names one USSR-controlled battleground of the region (Southeast Asian ones included for
  Asia), added as ``scoring_ignore:<id>`` for that scoring only. The effect is used up by that
  scoring even with no USSR battleground to name (§8/§11 recommendation; herbix keeps it).
  The card stays out "in front of the US" while the effect lasts: the event takes its pending
  ``dispose`` frame off the stack (or the card out of the discard pile if it already got there),
  so a reshuffle cannot bring it back; when used up it goes to the discard pile (not starred).

Steps (``STEPS``):

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

Decisions where the text leaves room: Puppet Governments offers ``done`` ("up to 3", cards.md);
The Voice of America and Colonial Rear Guards must be carried out as far as possible; Lone
Gunman's reveal lists the US hand (The China Card is public anyway), seen by the USSR only.
"""

from __future__ import annotations

from typing import Any

from ....core.flow import Step, log
from ....core.game import CHANCE, make_decision
from .. import board as B
from .. import card_data as CD
from .. import hooks as H
from .. import map_data as M
from .. import ops as O
from ..state import SIDE_NAMES, US, USSR, TSState, other
from ..steps import DONE, card_options, country_options, role
from . import event
from .primitives import ask, choice, countries, grant_ops, place, region, remove

CENTRAL_SOUTH_AMERICA = frozenset(region(M.CENTRAL_AMERICA) + region(M.SOUTH_AMERICA))
OUTSIDE_EUROPE = tuple(c for c in range(len(M.COUNTRIES)) if c not in region(M.EUROPE))
CHE_COUNTRIES = tuple(sorted(
    c for c in region(M.CENTRAL_AMERICA) + region(M.SOUTH_AMERICA) + region(M.AFRICA) if not B.BATTLEGROUND[c]
))
SHUTTLE_DIPLOMACY = 73
CHE = 107
POLAND = M.INDEX["poland"]
EGYPT = M.INDEX["egypt"]


@event(62)
def lone_gunman(state: TSState, actor: int) -> None:
    """The US hand is shown to the USSR only, then the USSR conducts 1 Op (a fixed grant)."""
    ids = ",".join(CD.CARD_BY_NUMBER[c].id for c in state.hands[US])
    log(state, role(state, US), "reveal_hand", "hand:" + ids, visible_to=(role(state, USSR),),
        redacted="hand:hidden")
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


@event(68)
def john_paul_ii_elected_pope(state: TSState, actor: int) -> None:
    """USSR −2 and US +1 in Poland; Solidarity's prerequisite is read from events_played."""
    state.inf[USSR][POLAND] = max(0, state.inf[USSR][POLAND] - 2)
    state.inf[US][POLAND] += 1


@event(69)
def latin_american_death_squads(state: TSState, actor: int) -> None:
    """Rest of turn: the player's coups in Central/South America +1, the opponent's −1."""
    state.add_effect(f"death_squads:{SIDE_NAMES[actor]}:turn")


def _death_squads(state: TSState, side: int, country: int) -> int:
    if country not in CENTRAL_SOUTH_AMERICA:
        return 0
    mine = state.has(f"death_squads:{SIDE_NAMES[side]}:turn")
    theirs = state.has(f"death_squads:{SIDE_NAMES[other(side)]}:turn")
    return int(mine) - int(theirs)


H.COUP_MODIFIERS.append(_death_squads)


@event(70)
def oas_founded(state: TSState, actor: int) -> None:
    """US +2 in Central and/or South America (split allowed)."""
    place(state, US, 2, CENTRAL_SOUTH_AMERICA)


@event(72)
def sadat_expels_soviets(state: TSState, actor: int) -> None:
    """All USSR influence leaves Egypt; US +1 there."""
    state.inf[USSR][EGYPT] = 0
    state.inf[US][EGYPT] += 1


@event(73)
def shuttle_diplomacy(state: TSState, actor: int) -> None:
    """Lasting until the next Asia / Middle East scoring card; the card stays out meanwhile."""
    state.add_effect("shuttle_diplomacy")
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == "dispose" and stack[i][1] == SHUTTLE_DIPLOMACY:
            del stack[i]
            return
    if SHUTTLE_DIPLOMACY in state.discard:
        pile = list(state.discard)
        pile.remove(SHUTTLE_DIPLOMACY)
        state.discard = tuple(pile)


def _shuttle_scoring(state: TSState, region_name: str) -> bool:
    if region_name not in (M.ASIA, M.MIDDLE_EAST) or not state.has("shuttle_diplomacy"):
        return False
    state.drop_effect("shuttle_diplomacy")
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
    state.add_effect(f"scoring_ignore:{key}")


H.SCORING_HOOKS.append(_shuttle_scoring)


@event(74)
def the_voice_of_america(state: TSState, actor: int) -> None:
    """The US removes 4 USSR influence outside Europe, at most 2 per country."""
    remove(state, US, USSR, 4, OUTSIDE_EUROPE, max_per=2)


@event(75)
def liberation_theology(state: TSState, actor: int) -> None:
    """USSR +3 in Central America, at most 2 per country."""
    place(state, USSR, 3, region(M.CENTRAL_AMERICA), max_per=2)


@event(78)
def alliance_for_progress(state: TSState, actor: int) -> None:
    """US +1 VP per US-controlled battleground in Central and South America."""
    B.add_vp(state, US, sum(1 for c in CENTRAL_SOUTH_AMERICA if B.BATTLEGROUND[c] and B.controls(state, US, c)))


@event(107)
def che(state: TSState, actor: int) -> None:
    """Optional coup with this card's (modified) Ops; a second one if the first took US influence."""
    state.stack.append(("che_coup", O.ops_value(state, USSR, CHE), -1, True))


def _us_controls_middle_east(state: TSState, actor: int) -> bool:
    return any(B.controls(state, US, c) for c in region(M.MIDDLE_EAST))


@event(108, playable=_us_controls_middle_east)
def our_man_in_tehran(state: TSState, actor: int) -> None:
    """The US draws 5 (or what is left), discards any face up, returns the rest to the pile."""
    state.stack.append(("tehran_draw", 5, ()))


# -- steps -----------------------------------------------------------------------------------------


class CheCoup(Step):
    name = "che_coup"

    def run(self, game, state, frame):
        _, value, excluded, first = frame
        among = tuple(c for c in CHE_COUNTRIES if c != excluded)
        targets = O.coup_targets(state, USSR, CHE, among=among)
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
        state.stack.append(("coup_roll", USSR, c, value, False))


class CheCheck(Step):
    name = "che_check"

    def run(self, game, state, frame):
        _, c, us_before, value = frame
        state.stack.pop()
        if state.inf[US][c] < us_before:
            state.stack.append(("che_coup", value, c, False))
        return None


class TehranDraw(Step):
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


class TehranDiscard(Step):
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


STEPS = (CheCoup(), CheCheck(), TehranDraw(), TehranDiscard())
