"""Mid War events (part A): #40, 41, 42, 43, 44, 46, 49, 50, 58, 67, 71, 76, 77, 80 (cards.md §4,
§8).

Lasting effects (``state.effects``) and where they act:

* ``cuban_missile_crisis:<side>:turn``: ops.resolve_coup makes a coup by ``<side>`` lose. The
  restricted side may cancel it by removing 2 of its own influence (USSR: Cuba; US: West Germany
  or Turkey). The rules allow this "at any moment"; we offer it (``cancel_missile_crisis``) at the
  start of each of the restricted side's action rounds (ACTION_ROUND_HOOKS), where it matters.
* ``nuclear_subs:turn`` / ``salt:turn``: read by ops.resolve_coup.
* ``quagmire`` (US) / ``bear_trap`` (USSR): lasting across turns. An ACTION_ROUND_HOOK replaces
  the trapped side's round by a discard (``trap_discard``, a card worth 2+ Ops after modifiers;
  Missile Envy if it must be played and qualifies, FAQ) and a die (``trap_roll``): 1-4 frees.
  With no such card a CARD_FILTER leaves only the scoring cards (none: the round is skipped);
  likewise when a held scoring card is due (no more rounds left this turn than scoring cards:
  cards.md §5.4, scoring cards are played before an event obligation). A scoring card played
  while trapped does not end the trap. A trap round plays no card: no ``ar_end`` frame, so
  AFTER_ROUND_HOOKS do not see it (DEFCON cannot move in it, so NORAD is unaffected).
* ``missile_envy:<side>``: ``<side>`` holds Missile Envy and must play it for Operations in its
  next action round (CARD_FILTERS / USE_FILTERS), unless it must play a scoring card first (it
  holds as many scoring cards as it has rounds left this turn); kept across the turn end. The
  exchange drops Missile Envy's pending ``dispose`` frame: the card goes to the opponent's hand.
  Its event is unplayable for a side that owes it (a headline cannot bypass the obligation).
* ``we_will_bury_you``: at the start of the US's next action round (ACTION_ROUND_HOOKS) the US
  answers ``we_will_bury_you``: ``accept`` (the USSR gains 3 VP now, before anything the US plays)
  or, when it can, ``un_intervention``: it commits to play UN Intervention as an event this round
  (``we_will_bury_you:un_intervention`` restricts the round to that play; AFTER_ROUND_HOOKS clear
  it). Asked at every such round where the US holds a card, so the question reveals nothing; with
  no card, or trapped, the VP land at once. (This keeps the FAQ order "3 VP before any VP of the
  US card" exactly, which a check at the end of the round could not.)

Steps (``STEPS``): ``("trap_roll", side)``, ``("grain_sales_draw",)`` (a public chance draw from
the USSR hand), ``("ask_not_discard", count)`` and ``("ask_not_draw", left)`` (chance draws seen by
the US only, reshuffling the discard pile when the draw pile runs out).

Decisions taken where the sources leave room (see also each function):

* Missile Envy compares the Operations values *after the holder's modifiers* ("for all purposes",
  cards.md §6; herbix does the same); ties: the holder chooses. An opponent holding only scoring
  cards (or nothing) gives nothing: no effect (cards.md §11). The taken opponent-event card gives
  its Ops to influence, realignment or a coup (as UN Intervention; no space race).
* Grain Sales' fallback Operations are "this card's" 2 Ops with the US's modifiers (cards.md §6
  recommendation), used for influence, realignment or a coup (steps ``event_ops``).
* NORAD (#106) played after Quagmire is *not* blocked: cards.md §7 lists it as cancelled by
  Quagmire (an effect in play), not made unplayable; Quagmire only drops the effect in play.
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
from ..steps import (
    CARD_OPTIONS, DIE_OPTIONS, DONE, add_to_hand, card_options, card_side, play_event_for,
    playable_cards, remove_from_hand, role,
)
from . import event, event_playable
from .early import _china_claimed
from .primitives import ask, choice, grant_ops, place, region

MISSILE_ENVY = 49
UN_INTERVENTION = 32
CUBA = M.INDEX["cuba"]
CANCEL_COUNTRIES = {USSR: (CUBA,), US: (M.INDEX["west_germany"], M.INDEX["turkey"])}
TRAPS = {US: "quagmire", USSR: "bear_trap"}
WWBY = "we_will_bury_you"
WWBY_UN = "we_will_bury_you:un_intervention"


def _id(card: int) -> str:
    return CD.CARD_BY_NUMBER[card].id


def _number(card_id: str) -> int:
    return CD.CARD_BY_ID[card_id].number


def _scoring(card: int) -> bool:
    return CD.CARD_BY_NUMBER[card].scoring


def _missile_crisis(side: int) -> str:
    return f"cuban_missile_crisis:{SIDE_NAMES[side]}:turn"


def _missile_envy(side: int) -> str:
    return f"missile_envy:{SIDE_NAMES[side]}"


def _ops_uses(state: TSState, side: int) -> list[str]:
    uses = ["influence"]
    if O.realign_targets(state, side):
        uses.append("realign")
    if O.coup_targets(state, side):
        uses.append("coup")
    return uses


# -- #40 Cuban Missile Crisis ------------------------------------------------------------------------


@event(40)
def cuban_missile_crisis(state: TSState, actor: int) -> None:
    """DEFCON set to 2; a coup by the opponent this turn loses the game unless it cancels."""
    B.set_defcon(state, 2)
    state.add_effect(_missile_crisis(other(actor)))


def _offer_cancel(state: TSState, side: int) -> bool:
    """Start of the restricted side's round: it may remove 2 of its influence to cancel."""
    if not state.has(_missile_crisis(side)):
        return False
    places = [c for c in CANCEL_COUNTRIES[side] if state.inf[side][c] >= 2]
    if not places:
        return False
    ask(state, side, "cancel_missile_crisis", [M.COUNTRIES[c].id for c in places] + ["keep"])
    return True


@choice("cancel_missile_crisis")
def _cancel_missile_crisis(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "keep":
        return
    state.inf[side][M.INDEX[key]] -= 2
    state.drop_effect(_missile_crisis(side))


# -- #41 Nuclear Subs --------------------------------------------------------------------------------


@event(41)
def nuclear_subs(state: TSState, actor: int) -> None:
    """US coups in battlegrounds do not lower DEFCON for the rest of the turn."""
    state.add_effect("nuclear_subs:turn")


# -- #42 Quagmire, #44 Bear Trap -------------------------------------------------------------------


@event(42)
def quagmire(state: TSState, actor: int) -> None:
    """The US is trapped until it rolls 1-4 after a discard; NORAD's effect ends for good."""
    state.add_effect(TRAPS[US])
    state.drop_effect("norad")


@event(44)
def bear_trap(state: TSState, actor: int) -> None:
    """The USSR is trapped until it rolls 1-4 after a discard."""
    state.add_effect(TRAPS[USSR])


def _trap_discards(state: TSState, side: int) -> list[int]:
    """Cards the trapped side may discard: 2+ Ops after modifiers, never a scoring card (nor The
    China Card, which is never in a hand); a Missile Envy it must play, if it qualifies (FAQ)."""
    cards = [c for c in state.hands[side] if not _scoring(c) and O.ops_value(state, side, c) >= 2]
    if MISSILE_ENVY in cards and state.has(_missile_envy(side)):
        return [MISSILE_ENVY]
    return cards


def _trap_round(state: TSState, side: int) -> bool:
    """The trapped side's action round becomes a discard and a die (no other action)."""
    if not state.has(TRAPS[side]):
        return False
    cards = _trap_discards(state, side)
    if not cards or _scoring_due(state, side):
        # The card filter leaves only scoring cards (none: the round is skipped).
        return False
    state.stack.pop()  # the action round itself
    state.stack.append(("trap_roll", side))
    ask(state, side, "trap_discard", [_id(c) for c in cards])
    return True


@choice("trap_discard")
def _trap_discard(state: TSState, side: int, key: str, data: Any) -> None:
    card = _number(key)  # its event never happens (cards.md §5.3)
    remove_from_hand(state, side, card)
    state.discard = state.discard + (card,)
    if card == MISSILE_ENVY:
        state.drop_effect(_missile_envy(side))


class TrapRoll(Step):
    """The trap die: 1-4 ends Quagmire / Bear Trap (the next round is normal)."""

    name = "trap_roll"

    def run(self, game, state, frame):
        trap = TRAPS[frame[1]].replace("_", " ")
        return make_decision(CHANCE, "die", f"{trap} die", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        side = frame[1]
        state.stack.pop()
        freed = option.value <= 4
        if freed:
            state.drop_effect(TRAPS[side])
        log(state, role(state, side), "trap_result", "freed" if freed else "trapped")


# -- #43 SALT Negotiations ----------------------------------------------------------------------------


@event(43)
def salt_negotiations(state: TSState, actor: int) -> None:
    """DEFCON +2, coup rolls −1 this turn; the player may take a non-scoring discard into hand."""
    B.set_defcon(state, state.defcon + 2)
    state.add_effect("salt:turn")
    cards = sorted({c for c in state.discard if not _scoring(c)})
    if cards:
        ask(state, actor, "salt_negotiations", [_id(c) for c in cards] + ["none"])


@choice("salt_negotiations")
def _salt_take(state: TSState, actor: int, key: str, data: Any) -> None:
    if key == "none":
        return
    card = _number(key)  # shown to the opponent: the choice is public
    i = state.discard.index(card)
    state.discard = state.discard[:i] + state.discard[i + 1 :]
    add_to_hand(state, actor, card)


# -- #46 How I Learned to Stop Worrying -------------------------------------------------------------


@event(46)
def how_i_learned_to_stop_worrying(state: TSState, actor: int) -> None:
    """The player sets DEFCON to any level 1-5 (1: the phasing player loses) and gains 5 military ops."""
    ask(state, actor, "how_i_learned_to_stop_worrying", [f"defcon_{n}" for n in range(1, 6)])


@choice("how_i_learned_to_stop_worrying")
def _set_defcon(state: TSState, actor: int, key: str, data: Any) -> None:
    B.set_defcon(state, int(key.rpartition("_")[2]))
    if state.outcome is None:
        state.milops[actor] = min(5, state.milops[actor] + 5)


# -- #49 Missile Envy -----------------------------------------------------------------------------------


def _missile_envy_playable(state: TSState, actor: int) -> bool:
    # A side that must play Missile Envy for Operations never gets its event (e.g. a headline).
    return not state.has(_missile_envy(actor))


@event(49, playable=_missile_envy_playable)
def missile_envy(state: TSState, actor: int) -> None:
    """Swap Missile Envy for the opponent's highest-Ops card and resolve that card at once."""
    holder = other(actor)
    cards = [c for c in state.hands[holder] if not _scoring(c)]
    if not cards:
        return  # only scoring cards, or none: no effect (cards.md §11); Missile Envy is discarded
    best = max(O.ops_value(state, holder, c) for c in cards)
    tied = [c for c in cards if O.ops_value(state, holder, c) == best]
    if len(tied) == 1:
        _missile_envy_exchange(state, holder, _id(tied[0]), actor)
    else:
        ask(state, holder, "missile_envy", [_id(c) for c in tied], actor)


@choice("missile_envy")
def _missile_envy_exchange(state: TSState, holder: int, key: str, taker: int) -> None:
    card = _number(key)
    remove_from_hand(state, holder, card)
    # Missile Envy goes to the holder's hand instead of the discard pile: drop its disposal.
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == "dispose" and stack[i][1] == MISSILE_ENVY:
            del stack[i]
            break
    add_to_hand(state, holder, MISSILE_ENVY)
    state.add_effect(_missile_envy(holder))
    log(state, role(state, holder), "missile_envy_gives", CARD_OPTIONS[card].key)
    owner = card_side(card)
    if owner is None or owner == taker:
        play_event_for(state, card, taker, dispose=True)
        return
    # The opponent's event does not happen (an exception to rule 5.2): the taker uses the Ops.
    state.stack.append(("dispose", card, False))
    ask(state, taker, "missile_envy_ops", _ops_uses(state, taker), card)


@choice("missile_envy_ops")
def _missile_envy_ops(state: TSState, taker: int, key: str, card: int) -> None:
    O.push_operations(state, taker, card, key)


def _rounds_left(state: TSState, side: int) -> int:
    """``side``'s action rounds still to come this turn, the current one included."""
    return sum(1 for f in state.stack if f[0] == "action_round" and f[2] == side)


def _scoring_due(state: TSState, side: int) -> bool:
    """``side`` holds scoring cards and has no more action rounds left this turn than them: one
    must be played now, before any event obligation (Missile Envy, Quagmire/Bear Trap: cards.md
    §5.4 "the scoring card is played first"), or it would be held past the end of the turn."""
    held = sum(1 for c in state.hands[side] if _scoring(c))
    return held > 0 and _rounds_left(state, side) <= held


# -- #50 "We Will Bury You" ------------------------------------------------------------------------------


@event(50)
def we_will_bury_you(state: TSState, actor: int) -> None:
    """DEFCON −1; 3 VP to the USSR at the US's next round unless it plays UN Intervention then."""
    B.degrade_defcon(state)
    if state.outcome is None:
        state.add_effect(WWBY)


def _can_play_un_intervention(state: TSState) -> bool:
    if UN_INTERVENTION not in state.hands[US] or not event_playable(state, UN_INTERVENTION, US):
        return False
    cards = playable_cards(state, US)
    for restrict in H.CARD_FILTERS:
        cards = restrict(state, US, cards)
    return UN_INTERVENTION in cards


def _bury_you_round(state: TSState, side: int) -> bool:
    """The start of the US's next round: the 3 VP land unless it commits to UN Intervention."""
    if side != US or not state.has(WWBY):
        return False
    state.drop_effect(WWBY)
    if not state.hands[US] or state.has(TRAPS[US]):
        B.add_vp(state, USSR, 3)  # no card to play, or a trapped round: nothing can stop them
        return False
    keys = (["un_intervention"] if _can_play_un_intervention(state) else []) + ["accept"]
    ask(state, US, "we_will_bury_you", keys)
    return True


@choice("we_will_bury_you")
def _bury_you(state: TSState, side: int, key: str, data: Any) -> None:
    if key == "un_intervention":
        state.add_effect(WWBY_UN)
    else:
        B.add_vp(state, USSR, 3)


# -- #58 Cultural Revolution, #71 Nixon, #76 Ussuri River Skirmish ---------------------------------


@event(58, playable=_china_claimed)
def cultural_revolution(state: TSState, actor: int) -> None:
    """The USSR takes The China Card face up from the US, or gains 1 VP if it holds it."""
    if state.china == US:
        state.china, state.china_face_up = USSR, True
    elif state.china == USSR:
        B.add_vp(state, USSR, 1)


@event(71)
def nixon_plays_the_china_card(state: TSState, actor: int) -> None:
    """The US takes The China Card face down from the USSR, or gains 2 VP if it holds it."""
    if state.china == USSR:
        state.china, state.china_face_up = US, False
    else:  # the US holds it (or, Chinese Civil War variant, nobody yet: counts as the US, map.md §13)
        B.add_vp(state, US, 2)


@event(76)
def ussuri_river_skirmish(state: TSState, actor: int) -> None:
    """The US takes The China Card face up from the USSR, or adds 4 influence in Asia (2 max each)."""
    if state.china == USSR:
        state.china, state.china_face_up = US, True
    else:  # the US holds it (or nobody yet, Chinese Civil War variant: counts as the US)
        place(state, US, 4, region(M.ASIA), max_per=2)


# -- #67 Grain Sales to Soviets -----------------------------------------------------------------------


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


class GrainSalesDraw(Step):
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
        # the card is then discarded or removed as usual (steps.CardUse).
        state.stack.append(("card_use", card, US))
        return
    add_to_hand(state, USSR, card)
    _grain_sales_ops(state)


# -- #77 "Ask Not What Your Country Can Do For You" -----------------------------------------------


@event(77)
def ask_not_what_your_country_can_do_for_you(state: TSState, actor: int) -> None:
    """The US discards any number of cards (no events, no scoring), then draws as many."""
    state.stack.append(("ask_not_discard", 0))


class AskNotDiscard(Step):
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


class AskNotDraw(Step):
    """The replacement draws: chance decisions seen by the US only (like steps.Deal); the discard
    pile is reshuffled into the draw pile when it runs out."""

    name = "ask_not_draw"
    hidden = True

    def run(self, game, state, frame):
        left = frame[1]
        if left > 0 and not state.deck and state.discard:
            state.deck, state.discard = tuple(sorted(state.discard)), ()
            log(state, CHANCE, "reshuffle", f"deck:{len(state.deck)}")
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


# -- #80 "One Small Step..." -------------------------------------------------------------------------------


def _behind_in_space(state: TSState, actor: int) -> bool:
    return state.space[actor] < state.space[other(actor)]


@event(80, playable=_behind_in_space)
def one_small_step(state: TSState, actor: int) -> None:
    """A player behind in the space race advances 2 boxes, with the VP of the second box only."""
    box = min(8, state.space[actor] + 2)
    state.space[actor] = box
    _, _, first, second = O.SPACE[box]
    # Abilities follow the positions (steps.space_ability), so passing a box is "handled normally".
    B.add_vp(state, actor, first if state.space[other(actor)] < box else second)
    log(state, role(state, actor), "space_race", f"box:{box}")


# -- card and use restrictions, round hooks ----------------------------------------------------------


def _restrict_cards(state: TSState, side: int, cards: list[int]) -> list[int]:
    """Trapped with nothing to discard (or a scoring card due): scoring cards only. Missile Envy
    owed: that card, unless a scoring card is due. Committed UN Intervention: that card."""
    if state.has(TRAPS[side]) and (not _trap_discards(state, side) or _scoring_due(state, side)):
        return [c for c in cards if c != CD.CHINA_CARD and _scoring(c)]
    if state.has(_missile_envy(side)) and MISSILE_ENVY in cards:
        if _scoring_due(state, side):
            return [c for c in cards if c != CD.CHINA_CARD and _scoring(c)]
        return [MISSILE_ENVY]
    if side == US and state.has(WWBY_UN) and UN_INTERVENTION in cards:
        return [UN_INTERVENTION]
    return cards


def _restrict_uses(state: TSState, side: int, card: int, options: list) -> list:
    if card == MISSILE_ENVY and state.has(_missile_envy(side)):
        return [o for o in options if o.value != "event"]  # Operations only (space race included)
    if card == UN_INTERVENTION and side == US and state.has(WWBY_UN):
        return [o for o in options if o.value == "event"]
    return options


def _after_round(state: TSState, side: int, card: int, use: str, defcon_before: int) -> None:
    if MISSILE_ENVY not in state.hands[side]:
        state.drop_effect(_missile_envy(side))  # played (or otherwise gone): the debt is paid
    if side == US:
        state.drop_effect(WWBY_UN)


# Order matters: the cancellation offer, then "We Will Bury You" (before a trap replaces the round).
H.ACTION_ROUND_HOOKS.extend((_offer_cancel, _bury_you_round, _trap_round))
H.CARD_FILTERS.append(_restrict_cards)
H.USE_FILTERS.append(_restrict_uses)
H.AFTER_ROUND_HOOKS.append(_after_round)

STEPS = (TrapRoll(), GrainSalesDraw(), AskNotDiscard(), AskNotDraw())


def _owed_missile_envy_not_headlined(state: TSState, side: int, cards: list[int]) -> list[int]:
    """A side owing Missile Envy plays it for Operations in its first action round (FAQ): it is
    not a headline candidate."""
    if state.has(_missile_envy(side)):
        return [c for c in cards if c != MISSILE_ENVY]
    return cards


H.HEADLINE_FILTERS.append(_owed_missile_envy_not_headlined)
