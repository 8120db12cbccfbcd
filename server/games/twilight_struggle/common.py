"""Shared helpers of the Twilight Struggle steps: the option tables, who decides, hands, the
space race abilities. A leaf: it imports only the data and the state, so the turn flow
(:mod:`.turn`), operations (:mod:`.ops`) and the card events (:mod:`.events`) all build on it
without importing one another.

Option keys: ``card:<id>`` (cards), ``country:<id>``, ``die:N`` (chance), ``done``, ``pass``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.flow import log
from ...core.game import CHANCE, Option
from . import card_data as CD
from . import map_data as M
from .state import NOBODY, US, USSR, TSState, other

CARD_OPTIONS: dict[int, Option] = {
    c.number: Option(f"card:{c.id}", c.name, c.number) for c in CD.CARDS
}
COUNTRY_OPTIONS: tuple[Option, ...] = tuple(
    Option(f"country:{c.id}", c.name, i) for i, c in enumerate(M.COUNTRIES)
)
DIE_OPTIONS: tuple[Option, ...] = tuple(Option(f"die:{n}", str(n), n) for n in range(1, 7))
DONE = Option("done", "stop here", None)
PASS = Option("pass", "pass (keep The China Card)", None)
CHINA = CD.CHINA_CARD


def card_options(cards: Iterable[int]) -> tuple[Option, ...]:
    return tuple(CARD_OPTIONS[c] for c in cards)


def country_options(countries: Iterable[int]) -> tuple[Option, ...]:
    return tuple(COUNTRY_OPTIONS[c] for c in countries)


def role(state: TSState, side: int) -> str:
    return state.rules.roles[side]


def card_side(card: int) -> int | None:
    """The side whose event a card carries, or None for a neutral card."""
    side = CD.CARD_BY_NUMBER[card].side
    return US if side == CD.US else USSR if side == CD.USSR else None


def event_player(card: int, player: int) -> int:
    """Who carries out the event of ``card`` played by ``player``: its owner, or the player for
    a neutral card."""
    owner = card_side(card)
    return player if owner is None else owner


def hand_size(state: TSState) -> int:
    return 8 if state.turn <= 3 else 9


def regular_rounds(state: TSState) -> int:
    """Action rounds per side this turn (6 in the Early War, then 7), extra rounds aside."""
    return 6 if state.turn <= 3 else 7


def remove_from_hand(state: TSState, side: int, card: int) -> None:
    hand = state.hands[side]
    i = hand.index(card)
    state.hands[side] = hand[:i] + hand[i + 1 :]


def add_to_hand(state: TSState, side: int, card: int) -> None:
    state.hands[side] = tuple(sorted(state.hands[side] + (card,)))


def playable_cards(state: TSState, side: int) -> list[int]:
    """The cards ``side`` could play in an action round: its hand, and The China Card face up."""
    cards = list(state.hands[side])
    if state.china == side and state.china_face_up:
        cards.append(CHINA)
    return cards


def reshuffle(state: TSState) -> None:
    """The discard pile becomes the draw pile (a public chance event)."""
    state.deck, state.discard = tuple(sorted(state.discard)), ()
    log(state, CHANCE, "reshuffle", f"deck:{len(state.deck)}")


def space_ability(state: TSState, box: int) -> int:
    """The side holding the ability of space box ``box`` (first there, alone), or NOBODY."""
    for side in (USSR, US):
        if state.space[side] >= box and state.space[other(side)] < box:
            return side
    return NOBODY
