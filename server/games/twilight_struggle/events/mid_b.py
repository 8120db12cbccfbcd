"""Mid War events (mid_b): #36, 39, 45, 47, 48, 51, 52, 53, 54, 55, 56, 57, 59, 60, 61 (cards.md §4,
§5, §6, §8).

One step of its own (``STEPS``, collected by ``events.event_steps()``):

* ``("summit_roll", actor, first)``: Summit's two dice (chance), the player's first, then the
  opponent's; each side adds 1 per region it dominates or controls.

Lasting effects and their hooks (registered at import, see hooks.py):

* ``brezhnev_doctrine:turn`` (read by ops.ops_value), ``willy_brandt`` (read by ops.protected).
* ``flower_power``: the USSR gains 2 VP whenever the US plays a war card, as an event
  (AFTER_EVENT_HOOKS: any event of a war card carried out by the US, headline included) or for
  Operations (OPERATIONS_HOOKS: the US spends a war card's Operations, however it got the card; not
  ``event`` nor ``space``; an opponent's war card counts too, and so does Arab-Israeli War after
  Camp David, whose event is blocked). Each play is counted by exactly one of the two hooks. It
  stops once "An Evil Empire" (#97) has been played (the effect is also checked against
  ``events_played``).
* ``u2_incident:turn``: UN Intervention (#32) carried out as an event later this turn (by either
  side) gives the USSR 1 more VP, once (AFTER_EVENT_HOOKS; the effect is then dropped).

Decisions taken where the text leaves room: Brush War offers every stability-1/2 country (no
influence needed), minus those NATO shields from the USSR (ops.protected). Summit's winner is not
offered "raise" at DEFCON 5 (it would change nothing). Junta offers the coup / realignment only
when a target exists in Central/South America, and "neither" always; its Ops are this card's
value with the player's modifiers (cards.md §6). Muslim Revolution offers only the listed
countries holding US influence, two different ones (fewer if fewer qualify). South African Unrest
allows splitting the 2 adjacent influence between Angola and Botswana (cards.md §11 default;
``SOUTH_AFRICAN_UNREST_SPLIT``).
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
from ..steps import DIE_OPTIONS, UN_INTERVENTION, role
from . import event
from .early_a import ask_country
from .primitives import N, ask, choice, countries, enemy_controlled_neighbours, grant_ops, place, region, war

#: cards.md §11: the 2 adjacent influence of South African Unrest may be split (False: one country).
SOUTH_AFRICAN_UNREST_SPLIT = True

WAR_CARDS = frozenset(CD.WAR_CARDS)
AN_EVIL_EMPIRE = 97
LATIN_AMERICA = tuple(sorted(region(M.CENTRAL_AMERICA) + region(M.SOUTH_AMERICA)))
MUSLIM_COUNTRIES = countries("sudan", "iran", "iraq", "egypt", "libya", "saudi_arabia", "syria", "jordan")
OPEC_COUNTRIES = countries("egypt", "iran", "libya", "saudi_arabia", "iraq", "gulf_states", "venezuela")
SOUTH_AFRICA = M.INDEX["south_africa"]
WEST_GERMANY = M.INDEX["west_germany"]


# -- events ----------------------------------------------------------------------------------------


@event(36)
def brush_war(state: TSState, actor: int) -> None:
    """War on any stability-1/2 country (not NATO-shielded): 3-6 after modifiers wins 1 VP; 3 milops."""
    targets = [c for c in range(N) if B.STABILITY[c] <= 2 and not O.protected(state, actor, c)]
    ask_country(state, actor, "brush_war", targets)


@choice("brush_war")
def _brush_war(state: TSState, actor: int, target: int, data: Any) -> None:
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target), at_least=3, vp=1, milops=3)


@event(39)
def arms_race(state: TSState, actor: int) -> None:
    """Phasing player's milops above the opponent's: 1 VP, or 3 VP if also at least DEFCON."""
    me = state.phasing
    mine = state.milops[me]
    if mine > state.milops[other(me)]:
        B.add_vp(state, me, 3 if mine >= state.defcon else 1)


@event(45)
def summit(state: TSState, actor: int) -> None:
    """Both roll +1 per dominated/controlled region; the higher gets 2 VP and may move DEFCON ±1."""
    state.stack.append(("summit_roll", actor, 0))


@choice("summit_defcon")
def _summit_defcon(state: TSState, winner: int, key: str, data: Any) -> None:
    if key == "raise_defcon":
        B.set_defcon(state, state.defcon + 1)
    elif key == "lower_defcon":
        B.degrade_defcon(state)  # to 1: the phasing player loses


@event(47)
def junta(state: TSState, actor: int) -> None:
    """+2 in one Central/South American country, then a free coup or free realignments there."""
    uses = []
    if O.coup_targets(state, actor, free=True, among=LATIN_AMERICA):
        uses.append("coup")
    if O.realign_targets(state, actor, free=True, among=LATIN_AMERICA):
        uses.append("realign")
    ask(state, actor, "junta", uses + ["neither"])  # runs after the placement below
    state.stack.append(("ev_place_one", actor, 2, LATIN_AMERICA))


@choice("junta")
def _junta(state: TSState, actor: int, key: str, data: Any) -> None:
    if key != "neither":
        O.push_operations(state, actor, 47, key, free=True, among=LATIN_AMERICA)


def _kitchen_debates_playable(state: TSState, actor: int) -> bool:
    us = sum(1 for c in M.BATTLEGROUNDS if B.controls(state, US, c))
    ussr = sum(1 for c in M.BATTLEGROUNDS if B.controls(state, USSR, c))
    return us > ussr


@event(48, playable=_kitchen_debates_playable)
def kitchen_debates(state: TSState, actor: int) -> None:
    """US +2 VP (playable only if the US controls more printed battlegrounds than the USSR)."""
    B.add_vp(state, US, 2)


@event(51)
def brezhnev_doctrine(state: TSState, actor: int) -> None:
    """USSR cards +1 Ops (not above 4) for the rest of the turn (ops.ops_value)."""
    state.add_effect("brezhnev_doctrine:turn")


@event(52)
def portuguese_empire_crumbles(state: TSState, actor: int) -> None:
    """USSR +2 in SE African States and +2 in Angola."""
    state.inf[actor][M.INDEX["se_african_states"]] += 2
    state.inf[actor][M.INDEX["angola"]] += 2


@event(53)
def south_african_unrest(state: TSState, actor: int) -> None:
    """USSR: +2 in South Africa, or +1 there and +2 in Angola/Botswana."""
    ask(state, actor, "south_african_unrest", ["two_in_south_africa", "one_in_south_africa_two_adjacent"])


@choice("south_african_unrest")
def _south_african_unrest(state: TSState, actor: int, key: str, data: Any) -> None:
    if key == "two_in_south_africa":
        state.inf[actor][SOUTH_AFRICA] += 2
        return
    state.inf[actor][SOUTH_AFRICA] += 1
    adjacent = countries("angola", "botswana")
    if SOUTH_AFRICAN_UNREST_SPLIT:
        place(state, actor, 2, adjacent)
    else:
        state.stack.append(("ev_place_one", actor, 2, adjacent))


@event(54)
def allende(state: TSState, actor: int) -> None:
    """USSR +2 in Chile."""
    state.inf[actor][M.INDEX["chile"]] += 2


@event(55)
def willy_brandt(state: TSState, actor: int) -> None:
    """USSR +1 VP and +1 in West Germany; NATO no longer shields West Germany."""
    state.inf[actor][WEST_GERMANY] += 1
    state.add_effect("willy_brandt")
    B.add_vp(state, actor, 1)


@event(56)
def muslim_revolution(state: TSState, actor: int) -> None:
    """All US influence removed from 2 of Sudan, Iran, Iraq, Egypt, Libya, Saudi Arabia, Syria, Jordan."""
    _muslim_revolution(state, actor, None, 2)


@choice("muslim_revolution")
def _muslim_revolution(state: TSState, actor: int, country: int | None, left: int) -> None:
    enemy = other(actor)
    if country is not None:
        state.inf[enemy][country] = 0
    if left > 0:
        ask_country(state, actor, "muslim_revolution",
                    [c for c in MUSLIM_COUNTRIES if state.inf[enemy][c] > 0], left - 1)


@event(57)
def abm_treaty(state: TSState, actor: int) -> None:
    """DEFCON +1, then 4 Ops of influence, realignment or a coup (a fixed grant)."""
    B.set_defcon(state, state.defcon + 1)
    grant_ops(state, actor, 4)


@event(59)
def flower_power(state: TSState, actor: int) -> None:
    """USSR +2 VP whenever the US plays a war card (event or Ops, not space) until #97."""
    state.add_effect("flower_power")


@event(60)
def u2_incident(state: TSState, actor: int) -> None:
    """USSR +1 VP, and +1 more if UN Intervention is played as an event later this turn."""
    state.add_effect("u2_incident:turn")
    B.add_vp(state, actor, 1)


@event(61)
def opec(state: TSState, actor: int) -> None:
    """USSR +1 VP per controlled Egypt, Iran, Libya, Saudi Arabia, Iraq, Gulf States, Venezuela."""
    B.add_vp(state, actor, sum(1 for c in OPEC_COUNTRIES if B.controls(state, actor, c)))


# -- hooks -----------------------------------------------------------------------------------------


def _flower_power_on(state: TSState) -> bool:
    return state.has("flower_power") and AN_EVIL_EMPIRE not in state.events_played


def flower_power_event_hook(state: TSState, card: int, actor: int) -> None:
    """A war card's event carried out by the US (headline or action round)."""
    if actor == US and card in WAR_CARDS and _flower_power_on(state):
        B.add_vp(state, USSR, 2)


def flower_power_operations_hook(state: TSState, side: int, card: int, kind: str) -> None:
    """Flower Power: a US war card used for Operations (however it reached the US)."""
    if side == US and card in WAR_CARDS and _flower_power_on(state):
        B.add_vp(state, USSR, 2)


def u2_incident_hook(state: TSState, card: int, actor: int) -> None:
    """UN Intervention as an event after U2 Incident this turn: USSR +1 VP (once)."""
    if card == UN_INTERVENTION and state.has("u2_incident:turn"):
        state.drop_effect("u2_incident:turn")
        B.add_vp(state, USSR, 1)


H.AFTER_EVENT_HOOKS.append(flower_power_event_hook)
H.AFTER_EVENT_HOOKS.append(u2_incident_hook)
H.OPERATIONS_HOOKS.append(flower_power_operations_hook)


# -- steps -----------------------------------------------------------------------------------------


def summit_regions(state: TSState, side: int) -> int:
    """Regions (of the six; Europe and Asia with their sub-regions) ``side`` dominates or controls."""
    count = 0
    for name in M.REGIONS:
        places = M.REGION_COUNTRIES[name]
        mine = [c for c in places if B.controls(state, side, c)]
        theirs = sum(1 for c in places if B.controls(state, other(side), c))
        if len(mine) <= theirs:
            continue
        bgs = sum(1 for c in mine if B.BATTLEGROUND[c])
        their_bgs = sum(1 for c in places if B.BATTLEGROUND[c] and B.controls(state, other(side), c))
        all_bgs = sum(1 for c in places if B.BATTLEGROUND[c])
        control = bgs == all_bgs
        domination = bgs > their_bgs and bgs >= 1 and len(mine) - bgs >= 1
        count += control or domination
    return count


class SummitRoll(Step):
    """The player's die, then the opponent's; no re-roll on a tie."""

    name = "summit_roll"

    def run(self, game, state, frame):
        who = "player" if not frame[2] else "opponent"
        return make_decision(CHANCE, "die", f"Summit die ({who})", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, actor, first = frame
        if not first:
            state.stack[-1] = ("summit_roll", actor, option.value)
            return
        state.stack.pop()
        mine = first + summit_regions(state, actor)
        theirs = option.value + summit_regions(state, other(actor))
        log(state, role(state, actor), "summit_result",
            f"{SIDE_NAMES[actor]}:{mine}:{SIDE_NAMES[other(actor)]}:{theirs}")
        if mine == theirs:
            return
        winner = actor if mine > theirs else other(actor)
        B.add_vp(state, winner, 2)
        if state.outcome is None:
            keys = (["raise_defcon"] if state.defcon < 5 else []) + ["lower_defcon", "leave_defcon"]
            ask(state, winner, "summit_defcon", keys)


STEPS = (SummitRoll(),)
