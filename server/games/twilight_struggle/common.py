"""Shared helpers of the Twilight Struggle steps: the option tables, who decides, hands, the
space race abilities. A leaf: it imports only the data and the state, so the turn flow
(:mod:`.turn`), operations (:mod:`.ops`) and the card events (:mod:`.events`) all build on it
without importing one another.

Option keys: ``card:<id>`` (cards), ``country:<id>``, ``die:N`` (chance), ``done``, ``pass``,
``choice:accept`` (an extra action round taken).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.flow import Step, log
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
#: An extra action round (Space Station, North Sea Oil) is optional: taken, or declined (``pass``).
TAKE_EXTRA_ROUND = Option("choice:accept", "take the extra action round", True)
DECLINE_EXTRA_ROUND = Option("pass", "pass (decline the extra action round)", None)
CHINA = CD.CHINA_CARD


class TSStep(Step):
    """The base of this game's steps (:mod:`.turn`, :mod:`.ops`, :mod:`.events`): a :class:`Step`
    whose state is a :class:`TSState`. It only restates ``Step``'s methods: in the compiled
    engine it is the extension type that declares them with typed arguments (common.pxd), so
    that the game's loop (game.py) calls a step's ``run`` and ``choose`` as C methods."""

    def run(self, game, state: TSState, frame):
        return Step.run(self, game, state, frame)

    def choose(self, game, state: TSState, frame, option) -> None:
        Step.choose(self, game, state, frame, option)

    def visibility(self, state: TSState, frame, decision, option):
        return None


def card_options(cards: Iterable[int]) -> tuple[Option, ...]:
    # (a comprehension, not map: compiled, a C loop; pure Python, as fast)
    return tuple([CARD_OPTIONS[c] for c in cards])


def country_options(countries: Iterable[int]) -> tuple[Option, ...]:
    return tuple([COUNTRY_OPTIONS[c] for c in countries])


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
    """``card`` leaves ``side``'s hand (and what the other side knew of it there)."""
    hand = state.hands[side]
    i = hand.index(card)
    state.hands[side] = hand[:i] + hand[i + 1 :]
    known = state.known[side]
    if card in known:
        state.known[side] = known - {card}


def add_to_hand(state: TSState, side: int, card: int, public: bool = False) -> None:
    """``card`` joins ``side``'s hand; ``public``: in the other side's sight (Missile Envy, a Grain
    Sales card given back, SALT's pick), which then knows it is there (``state.known``)."""
    state.hands[side] = tuple(sorted(state.hands[side] + (card,)))
    if public:
        state.known[side] = state.known[side] | {card}


def learn(state: TSState, side: int, cards: Iterable[int]) -> None:
    """The other side is shown ``cards`` of ``side``'s hand (CIA Created, Lone Gunman, The
    Cambridge Five): it knows them there while they stay (``state.known``; only the re-deal of
    determinize.py reads it)."""
    state.known[side] = state.known[side] | frozenset(cards)


def rounds_left(state: TSState, side: int) -> int:
    """``side``'s action rounds still to come this turn, the current one included (an extra
    round, Space Station or North Sea Oil, counts: the side may take it)."""
    count = 0
    for f in state.stack:  # (a loop: common.pxd types the state; tests/test_cython_pitfalls.py)
        if f[0] == "action_round" and f[2] == side:
            count += 1
    return count


def scoring_due(state: TSState, side: int) -> bool:
    """``side`` holds scoring cards and has no more action rounds left this turn than them: one
    must be played now or it would be held past the end of the turn (cards.md §5.4: scoring cards
    beat everything). What it bars: The China Card (map.md §13: it "may not be played if doing so
    would leave a scoring card unplayed") and an event obligation (Missile Envy, Quagmire / Bear
    Trap: "the scoring card is played first"). Not declining an extra round: that one is the
    side's to take (the held card then loses at the end of the turn, map.md §10 F)."""
    held = 0
    for c in state.hands[side]:  # (a loop: compiled, common.pxd makes this a C function)
        if CD.CARD_BY_NUMBER[c].scoring:
            held += 1
    return held > 0 and rounds_left(state, side) <= held


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
