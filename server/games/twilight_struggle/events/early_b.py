"""Early War events (part 2): placements and removals with limits, the Indo-Pakistani War, the
hand reveals (CIA Created, The Cambridge Five), UN Intervention, De-Stalinization and the optional
Special Relationship and NORAD. (cards.md §4 is the reference for each card.)

Frames of the steps defined here (``STEPS``, wired into the game next to the primitives'):

* ``("ev_remove_each", actor, target, picks, per, allowed, chosen)``: ``actor`` picks ``picks``
  different countries of ``allowed`` holding ``target`` influence and removes ``per`` (or all there
  is, if less) from each (East European Unrest in the Late War).
* ``("ev_place_one", actor, amount, allowed)``: ``actor`` puts ``amount`` influence into one
  country of ``allowed`` (Special Relationship with NATO).
* ``("ev_destalinize", actor, before)``: automatic, after De-Stalinization's removals: places as
  many influence as were removed (``before`` is ``actor``'s total influence before them).
"""

from __future__ import annotations

from ....core.flow import Step, log
from ....core.game import make_decision
from .. import board as B
from .. import card_data as CD
from .. import map_data as M
from .. import ops as O
from ..state import SIDE_NAMES, US, USSR, TSState, other
from ..steps import card_side, country_options, remove_from_hand, role
from . import event
from .primitives import (
    N,
    ask,
    choice,
    countries,
    enemy_controlled_neighbours,
    grant_ops,
    place,
    region,
    remove,
    war,
)

LATE_WAR_TURN = 8
UK = M.INDEX["uk"]
#: The region (or Southeast Asia) named on each scoring card (The Cambridge Five).
SCORING_REGION = {
    1: M.ASIA, 2: M.EUROPE, 3: M.MIDDLE_EAST, 37: M.CENTRAL_AMERICA, 38: M.SOUTHEAST_ASIA,
    79: M.AFRICA, 81: M.SOUTH_AMERICA,
}


def _card_ids(cards) -> str:
    return ",".join(CD.CARD_BY_NUMBER[c].id for c in cards)


@event(23)
def marshall_plan(state: TSState, actor: int) -> None:
    """+1 in each of 7 different Western European countries not USSR-controlled (NATO's
    prerequisite is read from ``events_played``)."""
    allowed = [c for c in region(M.WESTERN_EUROPE) if not B.controls(state, USSR, c)]
    place(state, US, 7, allowed, max_per=1)


@event(24)
def indo_pakistani_war(state: TSState, actor: int) -> None:
    """The player picks the country attacked (the target): India or Pakistan."""
    ask(state, actor, "indo_pakistani_war", ("india", "pakistan"))


@choice("indo_pakistani_war")
def _indo_pakistani_target(state: TSState, actor: int, key: str, data) -> None:
    target = M.INDEX[key]
    war(state, actor, target, enemy_controlled_neighbours(state, actor, target))


@event(26)
def cia_created(state: TSState, actor: int) -> None:
    """A one-time look at the USSR hand (seen by the US only), then 1 Op for the US (a fixed
    grant: not changed by Red Scare/Purge)."""
    log(state, role(state, USSR), "reveal_hand", "hand:" + _card_ids(state.hands[USSR]),
        visible_to=(role(state, US),), redacted="hand:hidden")
    grant_ops(state, US, 1)


@event(28)
def suez_crisis(state: TSState, actor: int) -> None:
    remove(state, USSR, US, 4, countries("france", "uk", "israel"), max_per=2)


@event(29)
def east_european_unrest(state: TSState, actor: int) -> None:
    """1 USSR influence from each of 3 different Eastern European countries (2 each in the Late
    War)."""
    if state.turn >= LATE_WAR_TURN:
        state.stack.append(("ev_remove_each", US, USSR, 3, 2, region(M.EASTERN_EUROPE), ()))
    else:
        remove(state, US, USSR, 3, region(M.EASTERN_EUROPE), max_per=1)


@event(30)
def decolonization(state: TSState, actor: int) -> None:
    place(state, USSR, 4, region(M.AFRICA) + region(M.SOUTHEAST_ASIA), max_per=1)


def _opponent_cards(state: TSState, actor: int) -> list[int]:
    return [c for c in state.hands[actor] if card_side(c) == other(actor)]


def _un_intervention_playable(state: TSState, actor: int) -> bool:
    return bool(_opponent_cards(state, actor))


@event(32, playable=_un_intervention_playable)
def un_intervention(state: TSState, actor: int) -> None:
    """Pair with a card of the opponent's event: no event, discarded even if starred; its Ops
    (with the player's modifiers) go to influence, realignment or a coup (no space race)."""
    ask(state, actor, "un_intervention", [CD.CARD_BY_NUMBER[c].id for c in _opponent_cards(state, actor)])


@choice("un_intervention")
def _un_intervention_card(state: TSState, actor: int, key: str, data) -> None:
    card = CD.CARD_BY_ID[key].number
    remove_from_hand(state, actor, card)
    state.discard = state.discard + (card,)
    uses = ["influence"]
    if O.realign_targets(state, actor):
        uses.append("realign")
    if O.coup_targets(state, actor):
        uses.append("coup")
    ask(state, actor, "un_intervention_ops", uses, card)


@choice("un_intervention_ops")
def _un_intervention_ops(state: TSState, actor: int, key: str, card: int) -> None:
    O.push_operations(state, actor, card, key)


@event(33)
def de_stalinization(state: TSState, actor: int) -> None:
    """Up to 4 of the USSR's own influence taken from anywhere, then as many placed in countries
    the US does not control, at most 2 per country."""
    state.stack.append(("ev_destalinize", USSR, sum(state.inf[USSR])))
    remove(state, USSR, USSR, 4, range(N), optional=True)


def _cambridge_five_playable(state: TSState, actor: int) -> bool:
    return state.turn < LATE_WAR_TURN


@event(104, playable=_cambridge_five_playable)
def the_cambridge_five(state: TSState, actor: int) -> None:
    """The US shows its scoring cards to the USSR, which may add 1 influence in one country of a
    region named on one of them."""
    scoring = [c for c in state.hands[US] if c in SCORING_REGION]
    log(state, role(state, US), "reveal_scoring_cards", "hand:" + _card_ids(scoring),
        visible_to=(role(state, USSR),), redacted="hand:hidden")
    allowed = {c for card in scoring for c in region(SCORING_REGION[card])}
    if allowed:
        place(state, USSR, 1, allowed, optional=True)


@event(105)
def special_relationship(state: TSState, actor: int) -> None:
    """Only with US control of the UK: with NATO, 2 influence into one Western European country
    and 2 VP; without, 1 influence into a country adjacent to the UK."""
    if not B.controls(state, US, UK):
        return
    if state.has("nato"):
        state.stack.append(("ev_place_one", US, 2, region(M.WESTERN_EUROPE)))
        B.add_vp(state, US, 2)
    else:
        place(state, US, 1, M.NEIGHBOURS[UK])


@event(106)
def norad(state: TSState, actor: int) -> None:
    state.add_effect("norad")  # the trigger: steps.ArEnd; Quagmire (#42) drops it


# -- steps -----------------------------------------------------------------------------------------


class EvRemoveEach(Step):
    name = "ev_remove_each"

    def run(self, game, state, frame):
        _, actor, target, picks, per, allowed, chosen = frame
        options = [c for c in allowed if c not in chosen and state.inf[target][c] > 0] if picks > 0 else []
        if not options:
            state.stack.pop()
            return None
        return make_decision(role(state, actor), "event_remove",
                             f"remove {per} {SIDE_NAMES[target]} influence ({picks} countries left)",
                             country_options(options))

    def choose(self, game, state, frame, option):
        _, actor, target, picks, per, allowed, chosen = frame
        c = option.value
        state.inf[target][c] -= min(per, state.inf[target][c])
        state.stack[-1] = ("ev_remove_each", actor, target, picks - 1, per, allowed, chosen + (c,))


class EvPlaceOne(Step):
    name = "ev_place_one"

    def run(self, game, state, frame):
        _, actor, amount, allowed = frame
        return make_decision(role(state, actor), "event_place", f"add {amount} influence to one country",
                             country_options(allowed))

    def choose(self, game, state, frame, option):
        _, actor, amount, allowed = frame
        state.stack.pop()
        state.inf[actor][option.value] += amount


class EvDestalinize(Step):
    name = "ev_destalinize"

    def run(self, game, state, frame):
        _, actor, before = frame
        state.stack.pop()
        moved = before - sum(state.inf[actor])
        allowed = [c for c in range(N) if not B.controls(state, other(actor), c)]
        place(state, actor, moved, allowed, max_per=2)
        return None


STEPS = (EvRemoveEach(), EvPlaceOne(), EvDestalinize())
