"""The state of a Twilight Struggle match: plain data, cheap to copy.

Sides are indices: ``USSR = 0``, ``US = 1`` (the order of ``rules.roles``). Countries are indices
into :data:`.map_data.COUNTRIES`. Cards are their Deluxe numbers (1..110).
"""

from __future__ import annotations

from ...core.flow import StackState
from .rules import TSRules

USSR, US = 0, 1
SIDE_NAMES = ("ussr", "us")
#: The sides as the rulebook names them, in prose (outcome reasons, text boards).
SIDE_LABELS = ("USSR", "US")
NOBODY = -1


def other(side: int) -> int:
    return 1 - side


class TSState(StackState):
    __slots__ = (
        "inf",
        "vp",
        "defcon",
        "turn",
        "ar",
        "phasing",
        "milops",
        "space",
        "space_attempts",
        "hands",
        "known",
        "china",
        "china_face_up",
        "deck",
        "discard",
        "removed",
        "effects",
        "events_played",
        "headline",
        "ccw",
    )

    def __init__(self, rules: TSRules, countries: int) -> None:
        super().__init__(rules)
        #: inf[side][country]: influence markers
        self.inf: list[list[int]] = [[0] * countries, [0] * countries]
        self.vp = 0  # positive: the US leads
        self.defcon = 5
        self.turn = 0
        self.ar = 0  # action round within the turn (0 during set-up and headline)
        self.phasing = USSR
        self.milops = [0, 0]
        self.space = [0, 0]
        self.space_attempts = [0, 0]
        #: hands[side]: card numbers, sorted (The China Card is tracked apart)
        self.hands: list[tuple[int, ...]] = [(), ()]
        #: known[side]: cards of ``side``'s hand (or of its headline while that is secret) that the
        #: other side has seen go there or be shown there, for as long as they stay
        #: (common.add_to_hand(public=True), common.learn; common.remove_from_hand forgets). Only
        #: the re-deal reads it (determinize.py): the views never show it.
        self.known: list[frozenset[int]] = [frozenset(), frozenset()]
        self.china = USSR  # holder, or NOBODY (Chinese Civil War variant, before it is claimed)
        self.china_face_up = True
        #: draw pile (order unknown to all: a draw is a chance decision), discard pile, removed
        self.deck: tuple[int, ...] = ()
        self.discard: tuple[int, ...] = ()
        self.removed: tuple[int, ...] = ()
        #: lasting effects in play, by name: the constants of effects.py (e.g. "nato",
        #: "containment:turn", "red_scare:us:turn"); the hooks of hooks.py act on them
        self.effects: frozenset[str] = frozenset()
        #: cards whose events have been carried out (prerequisites such as NATO's)
        self.events_played: frozenset[int] = frozenset()
        #: headline[side]: the card chosen this turn (0 = none yet); hidden until both chose
        self.headline = [0, 0]
        #: USSR influence in the Chinese Civil War space (variant; 3 claims The China Card)
        self.ccw = 0

    def copy(self) -> TSState:
        other_state = TSState.__new__(TSState)
        self._copy_into(other_state)
        other_state.inf = [self.inf[0].copy(), self.inf[1].copy()]
        other_state.vp = self.vp
        other_state.defcon = self.defcon
        other_state.turn = self.turn
        other_state.ar = self.ar
        other_state.phasing = self.phasing
        other_state.milops = self.milops.copy()
        other_state.space = self.space.copy()
        other_state.space_attempts = self.space_attempts.copy()
        other_state.hands = self.hands.copy()
        other_state.known = self.known.copy()
        other_state.china = self.china
        other_state.china_face_up = self.china_face_up
        other_state.deck = self.deck
        other_state.discard = self.discard
        other_state.removed = self.removed
        other_state.effects = self.effects
        other_state.events_played = self.events_played
        other_state.headline = self.headline.copy()
        other_state.ccw = self.ccw
        return other_state

    def has(self, effect: str) -> bool:
        return effect in self.effects

    def add_effect(self, effect: str) -> None:
        self.effects = self.effects | {effect}

    def drop_effect(self, effect: str) -> None:
        if effect in self.effects:
            self.effects = self.effects - {effect}
