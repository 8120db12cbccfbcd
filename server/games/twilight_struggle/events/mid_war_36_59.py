"""Mid War events #36-59, in card order (the scoring cards #37 and #38 are in :mod:`.scoring`;
#60-108 in :mod:`.mid_war_60_108`). cards.md §4 is the reference for each card, §5-§8 for the
rules they lean on.

Lasting effects (:mod:`..effects`) and the hooks they act through (:mod:`..hooks`):

* Cuban Missile Crisis ``cuban_missile_crisis:<side>:turn``: COUP_HOOKS (a coup by ``<side>``
  loses the game). The restricted side may cancel it by removing 2 of its own influence (USSR:
  Cuba; US: West Germany or Turkey), "at any moment", "including during the opponent's action
  round" (cards.md #40). Cancelling only lifts the ban on its coups, so we offer it where it
  matters (keys ``choice:<country>``, one per country holding 2 of its influence, and
  ``choice:keep``): when the side starts to act, ``cancel_missile_crisis``, at the start of each
  of its action rounds (ACTION_ROUND_HOOKS) and when an event grants it Operations that could
  coup, in any round (EVENT_OPS_HOOKS: Lone Gunman played by the US); and at the last moment,
  ``missile_crisis_coup``, once it has chosen a coup and before its die (BEFORE_COUP_HOOKS: every
  coup, an event's free coup and Che's included, in any round or the headline). There ``keep``
  makes the coup, which loses the game.
* Nuclear Subs ``nuclear_subs:turn``: DEFCON_EXEMPTIONS (US battleground coups leave DEFCON).
* SALT Negotiations ``salt:turn``: COUP_MODIFIERS (−1 to every coup roll this turn).
* Quagmire ``quagmire`` (US) / Bear Trap ``bear_trap`` (USSR): lasting across turns. An
  ACTION_ROUND_HOOK replaces the trapped side's round by a discard (``trap_discard``, a card worth
  2+ Ops after modifiers; Missile Envy if it must be played and qualifies, FAQ) and a die
  (``trap_roll``): 1-4 frees. With no such card a CARD_FILTER leaves only the scoring cards (none:
  the round is skipped); likewise when a held scoring card is due (no more rounds left this turn
  than scoring cards: cards.md §5.4, scoring cards are played before an event obligation). A
  scoring card played while trapped does not end the trap. A trap round plays no card: no
  ``ar_end`` frame, so AFTER_ROUND_HOOKS do not see it (DEFCON cannot move in it, so NORAD is
  unaffected). Quagmire also ends NORAD (#106) for good.
* Missile Envy ``missile_envy:<side>``: ``<side>`` holds Missile Envy and must play it for
  Operations in its next action round (CARD_FILTERS / USE_FILTERS), unless it must play a scoring
  card first (it holds as many scoring cards as it has rounds left this turn); kept across the
  turn end; paid at the end of the round that plays it (AFTER_ROUND_HOOKS) or when a forced discard
  takes the card (DISCARD_HOOKS). The exchange drops Missile Envy's pending ``dispose`` frame: the
  card goes to the opponent's hand. Its event is unplayable for a side that owes it, and it is not
  a headline candidate (HEADLINE_FILTERS: the obligation cannot be bypassed).
* "We Will Bury You" ``we_will_bury_you``: at the start of the US's next action round
  (ACTION_ROUND_HOOKS) the US answers ``we_will_bury_you``: ``accept`` (the USSR gains 3 VP now,
  before anything the US plays) or, when it can, ``un_intervention``: it commits to play UN
  Intervention as an event this round (``we_will_bury_you:un_intervention`` restricts the round
  to that play; AFTER_ROUND_HOOKS clear it). Asked at every such round where the US holds a card,
  so the question reveals nothing; with no card, or trapped, the VP land at once. An extra round
  the US declines (``extra_action_round``: ``pass``) is no action round: the VP wait for the next
  round it takes. (This keeps the
  FAQ order "3 VP before any VP of the US card" exactly, which a check at the end of the round
  could not.)
* Brezhnev Doctrine ``brezhnev_doctrine:turn``: OPS_BONUSES (USSR cards +1 Op, not above 4).
* Willy Brandt ``willy_brandt``: read by NATO's protection (#21, early_war).
* Flower Power ``flower_power``: the USSR gains 2 VP whenever the US plays a war card, as an event
  (AFTER_EVENT_HOOKS: any event of a war card carried out by the US, headline included) or for
  Operations (OPERATIONS_HOOKS: the US spends a war card's Operations, however it got the card;
  not ``event`` nor ``space``; an opponent's war card counts too, and so does Arab-Israeli War
  after Camp David, whose event is blocked). Each play is counted by exactly one of the two hooks.
  It stops once "An Evil Empire" (#97) has been played (also checked against ``events_played``).

Steps (``STEPS``): ``("trap_roll", side)``; ``("summit_roll", actor, first)``: Summit's two dice
(chance), the player's first, then the opponent's; each side adds 1 per region it dominates or
controls.

Decisions taken where the sources leave room:

* Brush War offers every stability-1/2 country (no influence needed), minus those shielded from
  the player (NATO, ops.shielded).
* Summit's winner is not offered "raise" at DEFCON 5 (it would change nothing).
* Junta offers the coup / realignment only when a target exists in Central/South America, and
  "neither" always; its Ops are this card's value with the player's modifiers (cards.md §6).
* Missile Envy compares the Operations values *after the holder's modifiers* ("for all purposes",
  cards.md §6; herbix does the same); ties: the holder chooses. An opponent holding only scoring
  cards (or nothing) gives nothing: no effect (cards.md §11). The taken opponent-event card gives
  its Ops to influence, realignment or a coup (as UN Intervention; no space race).
* Muslim Revolution offers only the listed countries holding US influence, two different ones
  (fewer if fewer qualify).
* South African Unrest allows splitting the 2 adjacent influence between Angola and Botswana
  (cards.md §11 default; ``SOUTH_AFRICAN_UNREST_SPLIT``).
"""

from __future__ import annotations

from typing import Any

from ....core.flow import log
from ....core.game import CHANCE, make_decision
from .. import board as B
from .. import card_data as CD
from .. import effects as E
from .. import hooks as H
from .. import map_data as M
from .. import ops as O
from ..common import (
    CARD_OPTIONS, DIE_OPTIONS, TSStep, add_to_hand, card_side, playable_cards, remove_from_hand, role, scoring_due,
)
from ..state import SIDE_LABELS, SIDE_NAMES, US, USSR, TSState, other
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
    discard_from_hand,
    drop_disposal,
    enemy_controlled_neighbours,
    grant_ops,
    is_scoring,
    ops_uses,
    place,
    place_one,
    region,
    war,
)
from .registry import event, event_playable, play_event_for

#: cards.md §11: the 2 adjacent influence of South African Unrest may be split (False: one country).
SOUTH_AFRICAN_UNREST_SPLIT = True

UN_INTERVENTION = 32
MISSILE_ENVY = 49
AN_EVIL_EMPIRE = 97
WAR_CARDS = frozenset(CD.WAR_CARDS)
CUBA = M.INDEX["cuba"]
CANCEL_COUNTRIES = {USSR: (CUBA,), US: (M.INDEX["west_germany"], M.INDEX["turkey"])}
TRAPS = {US: E.QUAGMIRE, USSR: E.BEAR_TRAP}
LATIN_AMERICA = tuple(sorted(region(M.CENTRAL_AMERICA) + region(M.SOUTH_AMERICA)))
MUSLIM_COUNTRIES = countries("sudan", "iran", "iraq", "egypt", "libya", "saudi_arabia", "syria", "jordan")
SOUTH_AFRICA = M.INDEX["south_africa"]
WEST_GERMANY = M.INDEX["west_germany"]


# -- #36 Brush War ---------------------------------------------------------------------------------


@event(36)
def brush_war(state: TSState, actor: int) -> None:
    """War on any stability-1/2 country (not shielded): 3-6 after modifiers wins 1 VP; 3 milops."""
    shield = O.shielded(state, actor)
    targets = [c for c in range(N) if B.STABILITY[c] <= 2 and c not in shield]
    ask_country(state, actor, "brush_war", targets)


@choice("brush_war")
def _brush_war(state: TSState, actor: int, target: int, data: Any) -> None:
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target), card=36, at_least=3, vp=1,
        milops=3)


# -- #39 Arms Race ---------------------------------------------------------------------------------


@event(39)
def arms_race(state: TSState, actor: int) -> None:
    """Phasing player's milops above the opponent's: 1 VP, or 3 VP if also at least DEFCON."""
    me = state.phasing
    mine = state.milops[me]
    if mine > state.milops[other(me)]:
        B.add_vp(state, me, 3 if mine >= state.defcon else 1)


# -- #40 Cuban Missile Crisis ----------------------------------------------------------------------


@event(40)
def cuban_missile_crisis(state: TSState, actor: int) -> None:
    """DEFCON set to 2; a coup by the opponent this turn loses the game unless it cancels."""
    B.set_defcon(state, 2)
    state.add_effect(E.CUBAN_MISSILE_CRISIS[other(actor)])


def _missile_crisis_coup(state: TSState, side: int, country: int) -> bool:
    """A coup by the restricted side loses the game (the coup does not happen)."""
    if not state.has(E.CUBAN_MISSILE_CRISIS[side]):
        return False
    B.win(state, other(side), B.MISSILE_CRISIS, f"{SIDE_LABELS[side]} attempted a coup during the Cuban Missile Crisis")
    return True


H.COUP_HOOKS.append(_missile_crisis_coup)


def _offer_to_cancel(state: TSState, side: int, name: str) -> bool:
    """If ``side`` is restricted and holds 2 influence where it may remove them, ask ``name``:
    one key per such country (cards.md #40: the USSR Cuba; the US West Germany or Turkey), then
    ``keep``. True if asked."""
    if not state.has(E.CUBAN_MISSILE_CRISIS[side]):
        return False
    mine = state.inf[side]
    places = [M.COUNTRIES[c].id for c in CANCEL_COUNTRIES[side] if mine[c] >= 2]
    if not places:
        return False
    places.append("keep")
    ask(state, side, name, places)
    return True


def _offer_cancel(state: TSState, side: int) -> bool:
    """Start of the restricted side's round: it may remove 2 of its influence to cancel."""
    return _offer_to_cancel(state, side, "cancel_missile_crisis")


def _offer_cancel_for_ops(state: TSState, side: int) -> bool:
    """An event grants the restricted side Operations (in any round: Lone Gunman played by the
    US): before it picks their use, if a coup is among them."""
    if not state.has(E.CUBAN_MISSILE_CRISIS[side]) or not O.operation_uses(state, side)[1]:
        return False
    return _offer_to_cancel(state, side, "cancel_missile_crisis")


def _offer_cancel_before_coup(state: TSState, side: int, country: int) -> None:
    """The restricted side has chosen a coup: its last moment to cancel, before the die (``keep``
    makes the coup, which loses the game)."""
    _offer_to_cancel(state, side, "missile_crisis_coup")


@choice("cancel_missile_crisis")
@choice("missile_crisis_coup")
def _cancel_missile_crisis(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "keep":
        return
    state.inf[side][M.INDEX[key]] -= 2
    state.drop_effect(E.CUBAN_MISSILE_CRISIS[side])


H.EVENT_OPS_HOOKS.append(_offer_cancel_for_ops)
H.BEFORE_COUP_HOOKS.append(_offer_cancel_before_coup)


# -- #41 Nuclear Subs ------------------------------------------------------------------------------


@event(41)
def nuclear_subs(state: TSState, actor: int) -> None:
    """US coups in battlegrounds do not lower DEFCON for the rest of the turn."""
    state.add_effect(E.NUCLEAR_SUBS)


def _nuclear_subs(state: TSState, side: int, country: int) -> bool:
    return side == US and state.has(E.NUCLEAR_SUBS)


H.DEFCON_EXEMPTIONS.append(_nuclear_subs)


# -- #42 Quagmire, #44 Bear Trap -------------------------------------------------------------------


@event(42)
def quagmire(state: TSState, actor: int) -> None:
    """The US is trapped until it rolls 1-4 after a discard; NORAD's effect ends for good."""
    state.add_effect(TRAPS[US])
    state.drop_effect(E.NORAD)


def _trap_discards(state: TSState, side: int) -> list[int]:
    """Cards the trapped side may discard: 2+ Ops after modifiers, never a scoring card (nor The
    China Card, which is never in a hand); a Missile Envy it must play, if it qualifies (FAQ)."""
    cards = [c for c in state.hands[side] if not is_scoring(c) and O.ops_value(state, side, c) >= 2]
    if MISSILE_ENVY in cards and state.has(E.MISSILE_ENVY[side]):
        return [MISSILE_ENVY]
    return cards


def _trap_round(state: TSState, side: int) -> bool:
    """The trapped side's action round becomes a discard and a die (no other action)."""
    if not state.has(TRAPS[side]):
        return False
    cards = _trap_discards(state, side)
    if not cards or scoring_due(state, side):
        # The card filter leaves only scoring cards (none: the round is skipped).
        return False
    state.stack.pop()  # the action round itself
    state.stack.append(("trap_roll", side))
    ask(state, side, "trap_discard", [card_id(c) for c in cards])
    return True


@choice("trap_discard")
def _trap_discard(state: TSState, side: int, key: str, data: Any) -> None:
    discard_from_hand(state, side, card_number(key))  # its event never happens (cards.md §5.3)


class TrapRoll(TSStep):
    """The trap die: 1-4 ends Quagmire / Bear Trap (the next round is normal)."""

    name = "trap_roll"

    def run(self, game, state, frame):
        trap = TRAPS[frame[1]].replace("_", " ")
        return make_decision(CHANCE, "die", f"die of {role(state, frame[1])}: {trap}", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        side = frame[1]
        state.stack.pop()
        freed = option.value <= 4
        if freed:
            state.drop_effect(TRAPS[side])
        log(state, role(state, side), "trap_result", "freed" if freed else "trapped")


# -- #43 SALT Negotiations -------------------------------------------------------------------------


@event(43)
def salt_negotiations(state: TSState, actor: int) -> None:
    """DEFCON +2, coup rolls −1 this turn; the player may take a non-scoring discard into hand."""
    B.set_defcon(state, state.defcon + 2)
    state.add_effect(E.SALT_NEGOTIATIONS)
    discard = state.discard  # (a local: tests/test_cython_pitfalls.py)
    cards = sorted({c for c in discard if not is_scoring(c)})
    if cards:
        ask(state, actor, "salt_negotiations", [card_id(c) for c in cards] + ["none"])


@choice("salt_negotiations")
def _salt_take(state: TSState, actor: int, key: str, data: Any) -> None:
    if key == "none":
        return
    card = card_number(key)  # shown to the opponent: the choice is public
    i = state.discard.index(card)
    state.discard = state.discard[:i] + state.discard[i + 1 :]
    add_to_hand(state, actor, card, public=True)


def _salt_coups(state: TSState, side: int, country: int) -> int:
    return -1 if state.has(E.SALT_NEGOTIATIONS) else 0


H.COUP_MODIFIERS.append(_salt_coups)


@event(44)
def bear_trap(state: TSState, actor: int) -> None:
    """The USSR is trapped until it rolls 1-4 after a discard (see #42)."""
    state.add_effect(TRAPS[USSR])


# -- #45 Summit ------------------------------------------------------------------------------------


@event(45)
def summit(state: TSState, actor: int) -> None:
    """Both roll +1 per dominated/controlled region; the higher gets 2 VP and may move DEFCON ±1."""
    state.stack.append(("summit_roll", actor, 0))


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


class SummitRoll(OpposedRoll):
    """The player's die, then the opponent's; no re-roll on a tie."""

    name = "summit_roll"
    label = "Summit"

    def resolve(self, state, actor, first, second):
        state.stack.pop()
        mine = first + summit_regions(state, actor)
        theirs = second + summit_regions(state, other(actor))
        log(state, role(state, actor), "summit_result",
            f"{SIDE_NAMES[actor]}:{mine}:{SIDE_NAMES[other(actor)]}:{theirs}")
        if mine == theirs:
            return
        winner = actor if mine > theirs else other(actor)
        B.add_vp(state, winner, 2)
        if state.outcome is None:
            keys = (["raise_defcon"] if state.defcon < 5 else []) + ["lower_defcon", "leave_defcon"]
            ask(state, winner, "summit_defcon", keys)


@choice("summit_defcon")
def _summit_defcon(state: TSState, winner: int, key: str, data: Any) -> None:
    if key == "raise_defcon":
        B.set_defcon(state, state.defcon + 1)
    elif key == "lower_defcon":
        B.degrade_defcon(state)  # to 1: the phasing player loses


# -- #46 How I Learned to Stop Worrying ------------------------------------------------------------


@event(46)
def how_i_learned_to_stop_worrying(state: TSState, actor: int) -> None:
    """The player sets DEFCON to any level 1-5 (1: the phasing player loses) and gains 5 military ops."""
    ask(state, actor, "how_i_learned_to_stop_worrying", [f"defcon_{n}" for n in range(1, 6)])


@choice("how_i_learned_to_stop_worrying")
def _set_defcon(state: TSState, actor: int, key: str, data: Any) -> None:
    B.set_defcon(state, int(key.rpartition("_")[2]))
    if state.outcome is None:
        state.milops[actor] = min(5, state.milops[actor] + 5)


# -- #47 Junta, #48 Kitchen Debates ----------------------------------------------------------------


@event(47)
def junta(state: TSState, actor: int) -> None:
    """+2 in one Central/South American country, then a free coup or free realignments there."""
    uses = []
    if O.coup_targets(state, actor, free=True, among=LATIN_AMERICA):
        uses.append("coup")
    if O.realign_targets(state, actor, free=True, among=LATIN_AMERICA):
        uses.append("realign")
    ask(state, actor, "junta", uses + ["neither"])  # runs after the placement below
    place_one(state, actor, 2, LATIN_AMERICA)


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


# -- #49 Missile Envy ------------------------------------------------------------------------------


def _missile_envy_playable(state: TSState, actor: int) -> bool:
    # A side that must play Missile Envy for Operations never gets its event (e.g. a headline).
    return not state.has(E.MISSILE_ENVY[actor])


@event(49, playable=_missile_envy_playable)
def missile_envy(state: TSState, actor: int) -> None:
    """Swap Missile Envy for the opponent's highest-Ops card and resolve that card at once."""
    holder = other(actor)
    cards = [c for c in state.hands[holder] if not is_scoring(c)]
    if not cards:
        return  # only scoring cards, or none: no effect (cards.md §11); Missile Envy is discarded
    best = max(O.ops_value(state, holder, c) for c in cards)
    tied = [c for c in cards if O.ops_value(state, holder, c) == best]
    if len(tied) == 1:
        _missile_envy_exchange(state, holder, card_id(tied[0]), actor)
    else:
        ask(state, holder, "missile_envy", [card_id(c) for c in tied], actor)


@choice("missile_envy")
def _missile_envy_exchange(state: TSState, holder: int, key: str, taker: int) -> None:
    card = card_number(key)
    remove_from_hand(state, holder, card)
    # Missile Envy goes to the holder's hand instead of the discard pile: drop its disposal.
    drop_disposal(state, MISSILE_ENVY)
    add_to_hand(state, holder, MISSILE_ENVY, public=True)
    state.add_effect(E.MISSILE_ENVY[holder])
    log(state, role(state, holder), "missile_envy_gives", CARD_OPTIONS[card].key)
    owner = card_side(card)
    if owner is None or owner == taker:
        play_event_for(state, card, taker, dispose=True)
        return
    # The opponent's event does not happen (an exception to rule 5.2): the taker uses the Ops.
    state.stack.append(("dispose", card, False))
    ask(state, taker, "missile_envy_ops", ops_uses(state, taker), card)


@choice("missile_envy_ops")
def _missile_envy_ops(state: TSState, taker: int, key: str, card: int) -> None:
    O.push_operations(state, taker, card, key)


def _missile_envy_discarded(state: TSState, side: int, card: int) -> None:
    """A forced discard of an owed Missile Envy takes the obligation with it."""
    if card == MISSILE_ENVY:
        state.drop_effect(E.MISSILE_ENVY[side])


H.DISCARD_HOOKS.append(_missile_envy_discarded)


# -- #50 "We Will Bury You" ------------------------------------------------------------------------


@event(50)
def we_will_bury_you(state: TSState, actor: int) -> None:
    """DEFCON −1; 3 VP to the USSR at the US's next round unless it plays UN Intervention then."""
    B.degrade_defcon(state)
    if state.outcome is None:
        state.add_effect(E.WE_WILL_BURY_YOU)


def _can_play_un_intervention(state: TSState) -> bool:
    if UN_INTERVENTION not in state.hands[US] or not event_playable(state, UN_INTERVENTION, US):
        return False
    cards = playable_cards(state, US)
    for restrict in H.CARD_FILTERS:
        cards = restrict(state, US, cards)
    return UN_INTERVENTION in cards


def _bury_you_round(state: TSState, side: int) -> bool:
    """The start of the US's next round: the 3 VP land unless it commits to UN Intervention."""
    if side != US or not state.has(E.WE_WILL_BURY_YOU):
        return False
    state.drop_effect(E.WE_WILL_BURY_YOU)
    if not state.hands[US] or state.has(TRAPS[US]):
        B.add_vp(state, USSR, 3)  # no card to play, or a trapped round: nothing can stop them
        return False
    keys = (["un_intervention"] if _can_play_un_intervention(state) else []) + ["accept"]
    ask(state, US, "we_will_bury_you", keys)
    return True


@choice("we_will_bury_you")
def _bury_you(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "un_intervention":
        state.add_effect(E.WE_WILL_BURY_YOU_UN)
    else:
        B.add_vp(state, USSR, 3)


# -- #51 Brezhnev Doctrine ... #57 ABM Treaty ------------------------------------------------------


@event(51)
def brezhnev_doctrine(state: TSState, actor: int) -> None:
    """USSR cards +1 Ops (not above 4) for the rest of the turn."""
    state.add_effect(E.BREZHNEV_DOCTRINE)


def _brezhnev_doctrine(state: TSState, side: int, card: int, value: int) -> int:
    return value + 1 if side == USSR and value < 4 and state.has(E.BREZHNEV_DOCTRINE) else value


H.OPS_BONUSES.append(_brezhnev_doctrine)


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
        place_one(state, actor, 2, adjacent)


@event(54)
def allende(state: TSState, actor: int) -> None:
    """USSR +2 in Chile."""
    state.inf[actor][M.INDEX["chile"]] += 2


@event(55)
def willy_brandt(state: TSState, actor: int) -> None:
    """USSR +1 VP and +1 in West Germany; NATO no longer shields West Germany."""
    state.inf[actor][WEST_GERMANY] += 1
    state.add_effect(E.WILLY_BRANDT)
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


# -- #58 Cultural Revolution, #59 Flower Power -----------------------------------------------------


@event(58, playable=china_claimed)
def cultural_revolution(state: TSState, actor: int) -> None:
    """The USSR takes The China Card face up from the US, or gains 1 VP if it holds it."""
    if state.china == US:
        state.china, state.china_face_up = USSR, True
    elif state.china == USSR:
        B.add_vp(state, USSR, 1)


@event(59)
def flower_power(state: TSState, actor: int) -> None:
    """USSR +2 VP whenever the US plays a war card (event or Ops, not space) until #97."""
    state.add_effect(E.FLOWER_POWER)


def _flower_power_on(state: TSState) -> bool:
    return state.has(E.FLOWER_POWER) and AN_EVIL_EMPIRE not in state.events_played


def flower_power_event_hook(state: TSState, card: int, actor: int) -> None:
    """A war card's event carried out by the US (headline or action round)."""
    if actor == US and card in WAR_CARDS and _flower_power_on(state):
        B.add_vp(state, USSR, 2)


def flower_power_operations_hook(state: TSState, side: int, card: int, kind: str) -> None:
    """Flower Power: a US war card used for Operations (however it reached the US)."""
    if side == US and card in WAR_CARDS and _flower_power_on(state):
        B.add_vp(state, USSR, 2)


H.AFTER_EVENT_HOOKS.append(flower_power_event_hook)
H.OPERATIONS_HOOKS.append(flower_power_operations_hook)


# -- the obligations of #40-50: card and use restrictions, round hooks -----------------------------


def _restrict_cards(state: TSState, side: int, cards: list[int]) -> list[int]:
    """Trapped with nothing to discard (or a scoring card due): scoring cards only. Missile Envy
    owed: that card, unless a scoring card is due. Committed UN Intervention: that card."""
    if state.has(TRAPS[side]) and (not _trap_discards(state, side) or scoring_due(state, side)):
        return [c for c in cards if c != CD.CHINA_CARD and is_scoring(c)]
    if state.has(E.MISSILE_ENVY[side]) and MISSILE_ENVY in cards:
        if scoring_due(state, side):
            return [c for c in cards if c != CD.CHINA_CARD and is_scoring(c)]
        return [MISSILE_ENVY]
    if side == US and state.has(E.WE_WILL_BURY_YOU_UN) and UN_INTERVENTION in cards:
        return [UN_INTERVENTION]
    return cards


def _restrict_uses(state: TSState, side: int, card: int, options: list) -> list:
    if card == MISSILE_ENVY and state.has(E.MISSILE_ENVY[side]):
        return [o for o in options if o.value != "event"]  # Operations only (space race included)
    if card == UN_INTERVENTION and side == US and state.has(E.WE_WILL_BURY_YOU_UN):
        return [o for o in options if o.value == "event"]
    return options


def _after_round(state: TSState, side: int, card: int, use: str, defcon_before: int) -> None:
    if MISSILE_ENVY not in state.hands[side]:
        state.drop_effect(E.MISSILE_ENVY[side])  # played (or otherwise gone): the debt is paid
    if side == US:
        state.drop_effect(E.WE_WILL_BURY_YOU_UN)


def _owed_missile_envy_not_headlined(state: TSState, side: int, cards: list[int]) -> list[int]:
    """A side owing Missile Envy plays it for Operations in its first action round (FAQ): it is
    not a headline candidate."""
    if state.has(E.MISSILE_ENVY[side]):
        return [c for c in cards if c != MISSILE_ENVY]
    return cards


# Order matters: the cancellation offer, then "We Will Bury You" (before a trap replaces the round).
H.ACTION_ROUND_HOOKS.extend((_offer_cancel, _bury_you_round, _trap_round))
H.CARD_FILTERS.append(_restrict_cards)
H.USE_FILTERS.append(_restrict_uses)
H.AFTER_ROUND_HOOKS.append(_after_round)
H.HEADLINE_FILTERS.append(_owed_missile_envy_not_headlined)

STEPS = (TrapRoll(), SummitRoll())
