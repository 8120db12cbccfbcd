"""Re-deal what one role cannot see (determinization).

Used by the hidden-information property tests (the role's view must not change) and by search
bots' forward models (sample a full state consistent with everything the role knows). The caller
passes the random generator: the engine itself never draws.
"""

from __future__ import annotations

import random

from ...core.shuffle import shuffle
from .state import TACTICS_DECK, TROOPS, STState


def redeal(state: STState, role: int, rng: random.Random) -> STState:
    """A copy of ``state`` in which every card ``role`` cannot see is re-dealt at random among
    the places it could be: the other hands (except cards ``role`` knows are there), the unknown
    part of each deck, and deck tops put back by others. Troops stay troops and tactics stay
    tactics, because their backs differ; every count stays the same."""
    new = state.copy()
    n = len(state.rules.roles)
    known = set(state.known[role])
    for kind in (TROOPS, TACTICS_DECK):
        troops = kind == TROOPS  # troops are the cards below 60, tactics the others
        pool: list[int] = list(state.decks[kind])
        for card, knower in state.tops[kind]:
            if knower != role:
                pool.append(card)
        for other in range(n):
            if other != role:
                for card in state.hands[other]:
                    if (card < 60) == troops and card not in known:
                        pool.append(card)
        shuffle(rng, pool)
        # Hand them back slot by slot in a fixed order, so that counts are kept.
        new_tops = []
        for card, knower in state.tops[kind]:
            new_tops.append((card, knower) if knower == role else (pool.pop(), knower))
        new.tops[kind] = tuple(new_tops)
        for other in range(n):
            if other == role:
                continue
            hand = []
            for card in new.hands[other]:  # the other kind's cards, and the known ones, stay
                if (card < 60) != troops or card in known:
                    hand.append(card)
            for card in state.hands[other]:
                if (card < 60) == troops and card not in known:
                    hand.append(pool.pop())
            hand.sort()
            new.hands[other] = tuple(hand)
        pool.sort()
        new.decks[kind] = tuple(pool)
    new.pending = None  # the pending decision may list the re-dealt cards of another role
    return new


