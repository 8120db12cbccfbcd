"""Formations and the claim proof, checked against a brute-force reference."""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations, product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standoff.server.games.schotten_totten.cards import (
    ALEXANDER,
    COMPANION_CAVALRY,
    DARIUS,
    MORALE_MAX,
    MORALE_VALUES,
    SHIELD_BEARERS,
    troop,
)
from standoff.server.games.schotten_totten.formations import (
    BATTALION,
    HOST,
    PHALANX,
    RANK_NAMES,
    SKIRMISH_LINE,
    WEDGE,
    best_completion,
    can_claim,
    strength,
)

RED, ORANGE, YELLOW, GREEN, BLUE, PURPLE = range(6)
A, D, C, S = ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS
ALL_TROOPS = tuple(range(60))

# --- brute-force reference -------------------------------------------------------------------


def _classify(one_colour: bool, values: tuple[int, ...]) -> tuple[int, int]:
    """Rank and sum of concrete cards, straight from rules.md section 3 (colours matter only
    through "all the same colour")."""
    ordered = sorted(values)
    run = all(b == a + 1 for a, b in zip(ordered, ordered[1:]))  # no wrap: 9-10-1 is no run
    if run and one_colour:
        rank = WEDGE
    elif len(set(values)) == 1:
        rank = PHALANX
    elif one_colour:
        rank = BATTALION
    elif run:
        rank = SKIRMISH_LINE
    else:
        rank = HOST
    return rank, sum(values)


@lru_cache(maxsize=None)
def _strength_brute_sorted(cards: tuple[int, ...], fog: bool) -> tuple[int, int]:
    if fog:
        return HOST, sum(c % 10 + 1 if c < 60 else MORALE_MAX[c] for c in cards)
    troop_colours = tuple(c // 10 for c in cards if c < 60)
    troop_values = tuple(c % 10 + 1 for c in cards if c < 60)
    morale = [c for c in cards if c >= 60]
    # Every colour 0..5 and every allowed value for each morale card. Colour and value choices
    # are independent, so enumerate the colour assignments once and keep the outcomes they allow.
    one_colour_outcomes = {
        len(set(troop_colours + colours)) == 1
        for colours in product(range(6), repeat=len(morale))
    }
    return max(
        _classify(one_colour, troop_values + values)
        for values in product(*(MORALE_VALUES[m] for m in morale))
        for one_colour in one_colour_outcomes
    )


def strength_brute(cards, fog: bool) -> tuple[int, int]:
    return _strength_brute_sorted(tuple(sorted(cards)), fog)


def best_completion_brute(cards, size: int, unseen, fog: bool) -> tuple[int, int] | None:
    """Max strength over every k-subset of unseen (None if there are fewer than k cards)."""
    k = size - len(cards)
    if len(unseen) < k:
        return None
    return max(strength_brute(tuple(cards) + extra, fog) for extra in combinations(unseen, k))


def can_claim_brute(mine, mine_at, theirs, theirs_at, size, unseen, fog) -> bool:
    if len(mine) != size:
        return False
    ours = strength_brute(mine, fog)
    k = size - len(theirs)
    if k == 0:
        other = strength_brute(theirs, fog)
        return ours > other or (ours == other and mine_at < theirs_at)
    if len(unseen) < k:
        return True
    # No completion may beat ours strictly; an equal one loses to us (we completed first).
    return not any(strength_brute(tuple(theirs) + extra, fog) > ours
                   for extra in combinations(unseen, k))


# --- hand-written formations -----------------------------------------------------------------

R = lambda v: troop(RED, v)  # noqa: E731
B = lambda v: troop(BLUE, v)  # noqa: E731
G = lambda v: troop(GREEN, v)  # noqa: E731


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        # Troops only.
        ([R(8), R(9), R(10)], (WEDGE, 27)),
        ([R(1), B(1), G(1)], (PHALANX, 3)),
        ([R(1), R(5), R(10)], (BATTALION, 16)),
        ([R(4), B(5), G(6)], (SKIRMISH_LINE, 15)),
        ([R(9), B(10), G(1)], (HOST, 20)),  # values do not wrap
        ([R(9), R(10), R(1)], (BATTALION, 20)),  # not a wedge either
        # Rank before sum: a leader beside two 9s makes a phalanx of 9s (27), not a host of 28.
        ([A, R(9), B(9)], (PHALANX, 27)),
        ([D, R(9), R(10)], (WEDGE, 27)),
        ([A, R(1), R(2)], (WEDGE, 6)),  # not a battalion of 13
        ([A, R(1), B(1)], (PHALANX, 3)),  # two 1s never make a run
        # Companion Cavalry is an 8 of any colour.
        ([C, R(7), R(9)], (WEDGE, 24)),
        ([C, R(8), B(8)], (PHALANX, 24)),
        ([C, R(1), R(2)], (BATTALION, 11)),
        ([C, R(9), B(10)], (SKIRMISH_LINE, 27)),
        ([C, R(5), B(10)], (HOST, 23)),
        # Shield Bearers are a 1, 2 or 3 of any colour.
        ([S, R(2), B(4)], (SKIRMISH_LINE, 9)),  # shield as 3
        ([S, R(2), R(4)], (WEDGE, 9)),
        ([S, R(2), B(2)], (PHALANX, 6)),
        ([S, R(4), R(5)], (WEDGE, 12)),  # shield as 3: 3-4-5
        ([S, R(5), R(6)], (BATTALION, 14)),
        ([S, R(9), B(4)], (HOST, 16)),
        # Two morale cards take distinct values in a run.
        ([A, C, R(10)], (WEDGE, 27)),  # companion 8, leader 9
        ([A, C, R(9)], (WEDGE, 27)),  # companion 8, leader 10
        ([A, C, R(7)], (WEDGE, 24)),  # 7-8-9
        ([A, C, R(8)], (PHALANX, 24)),  # leader as 8: no run holds two 8s
        ([A, S, R(1)], (WEDGE, 6)),  # 1-2-3
        ([A, S, B(5)], (WEDGE, 12)),  # shield 3, leader 4
        ([C, S, R(5)], (BATTALION, 16)),  # 8 and 1..3 are never in one run of three
        # Leader + Companion + Shield Bearers: no run, no common value, but one colour.
        ([D, C, S], (BATTALION, 21)),
    ],
)
def test_strength_three_cards(cards, expected):
    assert strength(cards, False) == expected
    assert strength_brute(cards, False) == expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ([R(7), B(7), G(7), troop(PURPLE, 7)], (PHALANX, 28)),
        ([R(3), R(4), R(5), R(6)], (WEDGE, 18)),
        ([R(3), R(4), R(5), B(6)], (SKIRMISH_LINE, 18)),
        ([R(8), R(9), R(10), B(1)], (HOST, 28)),
        ([R(8), R(9), R(10), R(1)], (BATTALION, 28)),
        ([A, R(3), R(4), R(5)], (WEDGE, 18)),  # leader as 6, not 2
        ([A, R(3), R(5), R(6)], (WEDGE, 18)),  # leader fills the gap
        ([A, R(7), B(7), G(7)], (PHALANX, 28)),
        ([A, C, R(7), R(10)], (WEDGE, 34)),  # 7, 8 (companion), 9 (leader), 10
        ([A, S, R(1), R(4)], (WEDGE, 10)),  # 1, 2 and 3 from the two morale cards
        ([A, C, S, R(2)], (BATTALION, 23)),
        ([A, C, S, B(9)], (BATTALION, 30)),
        ([C, S, R(2), B(9)], (HOST, 22)),
    ],
)
def test_strength_mud(cards, expected):
    assert strength(cards, False) == expected
    assert strength_brute(cards, False) == expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ([A, R(9), B(9)], (HOST, 28)),  # only the sum counts: leader at 10
        ([R(8), R(9), R(10)], (HOST, 27)),
        ([C, S, R(1)], (HOST, 12)),
        ([D, C, S, R(10)], (HOST, 31)),
    ],
)
def test_strength_fog(cards, expected):
    assert strength(cards, True) == expected
    assert strength_brute(cards, True) == expected


def test_strength_is_order_independent_and_names():
    assert strength([R(10), A, R(9)], False) == strength((A, R(9), R(10)), False) == (WEDGE, 27)
    assert RANK_NAMES == {4: "wedge", 3: "phalanx", 2: "battalion", 1: "skirmish line", 0: "host"}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.integers(3, 4).flatmap(
        lambda size: st.tuples(
            st.just(size),
            st.lists(st.sampled_from([A, C, S]), unique=True, max_size=size),
        )
    ).flatmap(
        lambda t: st.tuples(
            st.just(t[1]),
            st.lists(st.integers(0, 59), unique=True, min_size=t[0] - len(t[1]),
                     max_size=t[0] - len(t[1])),
        )
    ),
    st.booleans(),
)
def test_strength_matches_brute_force(side, fog):
    morale, troops = side
    cards = morale + troops
    assert strength(cards, fog) == strength_brute(cards, fog)


# --- hand-written completions and claims -----------------------------------------------------


def test_best_completion_examples():
    everything = ALL_TROOPS
    # Empty side, everything unseen: the red 8-9-10 (any colour would do) is the best.
    (rank_sum, witness) = best_completion([], 3, everything, False)
    assert rank_sum == (WEDGE, 27) and strength(witness, False) == (WEDGE, 27)
    assert best_completion([], 4, everything, False)[0] == (WEDGE, 34)
    # Two reds waiting for their wedge.
    assert best_completion([R(9), R(10)], 3, [B(1), R(8), G(5)], False) == ((WEDGE, 27), (R(8),))
    # No red 8: a 9 and a 10 never make a phalanx, so the best is a battalion with the red 5.
    assert best_completion([R(9), R(10)], 3, [B(9), R(5), G(8)], False) == (
        (BATTALION, 24), (R(5),))
    # ...and without any red a skirmish line with the green 8.
    assert best_completion([R(9), R(10)], 3, [B(9), G(8)], False) == ((SKIRMISH_LINE, 27), (G(8),))
    # A leader and exactly two cards left: both must be taken.
    assert best_completion([A], 3, [R(9), B(9)], False) == ((PHALANX, 27), (R(9), B(9)))
    # Not enough cards left, or nothing to add.
    assert best_completion([R(1)], 3, [R(2)], False) is None
    assert best_completion([R(1), R(2), R(3)], 3, [], False) == ((WEDGE, 6), ())
    # Fog: the k highest values, morale at its maximum.
    assert best_completion([C], 3, [R(1), B(10), G(10), R(9)], True) == ((HOST, 28), (G(10), B(10)))


def test_can_claim_examples():
    everything = tuple(c for c in ALL_TROOPS if c not in (R(8), R(9), R(10), B(10)))
    # The best wedge anyone can make only ties, and a tie loses to the side completed first.
    assert can_claim([R(8), R(9), R(10)], 5, [], 0, 3, everything, False) == (True, None)
    # Three 9s lose to a blue 8-9-10 that is still possible.
    nines = [R(9), G(9), troop(YELLOW, 9)]
    unseen = [B(8), B(9), R(1)]
    assert can_claim(nines, 5, [B(10)], 0, 3, unseen, False) == (False, (B(8), B(9)))
    # Without the blue 8 the best left is a host of 10 + 9 + 1.
    assert can_claim(nines, 5, [B(10)], 0, 3, [B(9), R(1)], False) == (True, None)
    # Both complete: strength first, then who completed first.
    assert can_claim([R(1), R(2), R(3)], 7, [B(1), B(2), B(3)], 4, 3, [], False) == (False, None)
    assert can_claim([R(1), R(2), R(3)], 3, [B(1), B(2), B(3)], 4, 3, [], False) == (True, None)
    assert can_claim([R(2), R(3), R(4)], 9, [B(1), B(2), B(3)], 4, 3, [], False) == (True, None)
    # Incomplete side: never claimable, even with "unbeatable" cards.
    assert can_claim([R(9), R(10)], 1, [], 0, 3, everything, False) == (False, None)
    # Fewer unseen troops than the opponent needs: it can never complete.
    assert can_claim([R(1), B(5), G(9)], 1, [B(10)], 0, 3, [G(10)], False) == (True, None)
    # Mud: a complete 3-card side is not complete any more.
    assert can_claim([R(8), R(9), R(10)], 1, [], 0, 4, everything, False) == (False, None)
    # Fog: only the sum counts, the leader counts 10.
    assert can_claim([A, R(9), B(9)], 1, [G(10), G(9)], 0, 3, [B(8), R(1)], True) == (True, None)
    assert can_claim([A, R(9), B(9)], 1, [G(10), G(9)], 0, 3, [B(8), R(10)], True) == (
        False, (R(10),))


# --- randomized cross-check against the brute force ------------------------------------------

# Largest unseen size for which the brute force enumerates at most ~2000 k-subsets.
_MAX_UNSEEN = {k: max(u for u in range(k, 56) if comb(u, k) <= 2000) for k in range(5)}


def _random_side(rng: random.Random, free: list[int], morale: list[int], n_troops: int
                 ) -> list[int]:
    """Morale cards plus n_troops troops from free (removed from it), often clustered so that
    wedges, phalanxes and runs actually occur."""
    style = rng.random()
    if style < 0.3:  # one colour, close values
        colour, low = rng.randrange(6), rng.randrange(10)
        pool = [c for c in free if c // 10 == colour and low <= c % 10 < low + 5]
    elif style < 0.45:  # one value
        value = rng.randrange(10)
        pool = [c for c in free if c % 10 == value]
    elif style < 0.6:  # close values, any colour
        low = rng.randrange(10)
        pool = [c for c in free if low <= c % 10 < low + 4]
    else:
        pool = free
    if len(pool) < n_troops:
        pool = free
    troops = rng.sample(pool, n_troops)
    for c in troops:
        free.remove(c)
    return morale + troops


def _random_position(rng: random.Random, large: bool = False):
    size = rng.choice((3, 4))
    fog = rng.random() < 0.2
    free = list(ALL_TROOPS)
    # Morale cards are unique on the table; each player owns at most one leader.
    leaders = [A, D]
    rng.shuffle(leaders)
    pool_theirs = [leaders[0], C, S]
    n_morale = rng.choice((0, 0, 0, 1, 1, 2, 3))
    theirs_morale = rng.sample(pool_theirs, min(n_morale, size))
    k = rng.randint(0, 2) if large else rng.randint(0, size - len(theirs_morale))
    n_theirs_troops = size - len(theirs_morale) - k
    if n_theirs_troops < 0:
        k += n_theirs_troops
        n_theirs_troops = 0
    theirs = _random_side(rng, free, theirs_morale, n_theirs_troops)
    pool_mine = [leaders[1]] + [m for m in (C, S) if m not in theirs_morale]
    mine_morale = rng.sample(pool_mine, min(len(pool_mine), rng.choice((0, 0, 0, 1, 1, 2))))
    if rng.random() < 0.9:
        mine = _random_side(rng, free, mine_morale, size - len(mine_morale))
    else:  # an incomplete side may not claim
        mine_morale = mine_morale[:1]
        mine = _random_side(rng, free, mine_morale, rng.randint(0, size - 1 - len(mine_morale)))
    cap = 55 if large else _MAX_UNSEEN[k]
    n_unseen = rng.randint(max(0, k - 1), min(cap, len(free)))
    if not large and rng.random() < 0.5:  # favour small sets: cheaper brute force, sharper cases
        n_unseen = rng.randint(max(0, k - 1), min(k + 8, cap, len(free)))
    unseen = rng.sample(free, n_unseen)
    mine_at, theirs_at = rng.sample(range(20), 2)
    return mine, mine_at, theirs, theirs_at, size, unseen, fog


def _check_position(mine, mine_at, theirs, theirs_at, size, unseen, fog):
    expected = best_completion_brute(theirs, size, unseen, fog)
    got = best_completion(theirs, size, unseen, fog)
    context = (theirs, size, sorted(unseen), fog)
    if expected is None:
        assert got is None, context
    else:
        assert got is not None, context
        rank_sum, witness = got
        assert rank_sum == expected, context
        k = size - len(theirs)
        assert len(witness) == k and list(witness) == sorted(witness), context
        assert set(witness) <= set(unseen), context
        assert strength(tuple(theirs) + witness, fog) == rank_sum, context

    claimable, witness = can_claim(mine, mine_at, theirs, theirs_at, size, unseen, fog)
    assert claimable == can_claim_brute(mine, mine_at, theirs, theirs_at, size, unseen, fog), (
        mine, mine_at, theirs, theirs_at, size, sorted(unseen), fog)
    if witness is not None:
        assert not claimable and len(witness) == size - len(theirs)
        assert set(witness) <= set(unseen)
        assert strength_brute(tuple(theirs) + witness, fog) > strength_brute(mine, fog)
    else:
        assert claimable or len(mine) != size or len(theirs) == size


@pytest.mark.parametrize("chunk", range(20))
def test_cross_check_random_positions(chunk):
    rng = random.Random(1000 + chunk)
    for _ in range(500):  # 20 x 500 = 10,000 positions
        _check_position(*_random_position(rng))


def test_cross_check_large_unseen():
    rng = random.Random(7)
    for _ in range(300):
        _check_position(*_random_position(rng, large=True))
