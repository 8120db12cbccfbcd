"""Ratings from aggregates (issue 43): ``compute_ratings`` now sums the results into
:class:`~standoff.tournaments.aggregates.Aggregates` and rates those; the figures must be the
same bytes as the full computation before it (the oracle, tests/kits/ratings_oracle.py) on a
seeded history with everything a ladder meets."""

from __future__ import annotations

import random

import pytest
from kits.ratings_oracle import oracle_ratings
from kits.run_history import NAMES, history

from standoff.tournaments.aggregates import Aggregates, pair_total
from standoff.tournaments.ratings import bradley_terry, bradley_terry_pairs
from standoff.tournaments.report import compute_ratings, ratings_from_aggregates, ratings_text


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ratings_from_aggregates_are_the_full_computation_byte_for_byte(seed):
    results = history(seed)
    kinds = {r.termination for r in results}
    assert {"not_played", "error", "stalemate", "forfeit", "breakthrough"} <= kinds  # the history has it all
    assert any(len(r.seats) == 3 for r in results) and any(r.fallbacks for r in results)
    entrants = ["greedy", "random", "never-seated"]
    for end in sorted({len(results), *random.Random(seed).sample(range(1, len(results)), 6)}):
        prefix = results[:end]  # a ladder between rounds, or mid-round: half-finished pairs
        want = ratings_text(oracle_ratings(prefix, entrants=entrants))
        assert ratings_text(compute_ratings(prefix, entrants=entrants)) == want
        shuffled = prefix[:]
        random.Random(end).shuffle(shuffled)
        assert ratings_text(ratings_from_aggregates(Aggregates.of(shuffled), entrants=entrants)) == want


def test_the_history_has_late_joiners_pentanomials_and_waiting_legs():
    results = history(1)
    first_round = {name for r in results if r.round == 1 for name in r.seats.values()}
    assert first_round == set(NAMES[:3]) and {n for r in results for n in r.seats.values()} == set(NAMES)
    ratings = compute_ratings(results)
    assert any(pair["pentanomial"] for pair in ratings["pairs"])
    groups: dict[int, list] = {}
    for r in results:
        if r.pair is not None:
            groups.setdefault(r.pair, []).append(r)
    assert any(len(legs) == 1 for legs in groups.values())  # a leg whose partner never came
    assert any(len(legs) == 2 and not all(r.played for r in legs) for legs in groups.values())


def test_bradley_terry_from_pair_counts_is_bradley_terry_from_games():
    rng = random.Random(7)
    names = ["a", "b", "c", "d", "e"]
    games = []
    for _ in range(60):
        x, y = rng.sample(names[:4], 2)  # e plays nobody: its own component
        games.append((x, y, rng.choice([0.0, 0.5, 1.0])))
    pairs: dict[tuple[str, str], list[int]] = {}
    for x, y, s in games:
        key, s = ((x, y), s) if x < y else ((y, x), 1.0 - s)
        pairs.setdefault(key, [0, 0, 0])[{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
    assert bradley_terry_pairs(pairs, players=names) == bradley_terry(games, players=names)
    # keys in either order, split over both orders, mean the same games
    flipped = {(b, a): [lo, d, w] for (a, b), (w, d, lo) in pairs.items()}
    assert bradley_terry_pairs(flipped, players=names) == bradley_terry(games, players=names)
    with pytest.raises(ValueError, match="itself"):
        bradley_terry_pairs({("a", "a"): [1, 0, 0]})
    with pytest.raises(ValueError, match="non-negative integers"):
        bradley_terry_pairs({("a", "b"): [1, -1, 0]})


def test_a_pair_total_needs_both_legs_played_between_the_same_two():
    win, loss, draw = (("a", "b", 1.0),), (("b", "a", 1.0),), (("a", "b", 0.5),)
    assert pair_total([(0, True, win), (1, True, loss)]) == ("a", "b", 1.0)  # a won, then lost as p2
    assert pair_total([(0, True, win), (1, True, draw)]) == ("a", "b", 1.5)
    assert pair_total([(0, True, win)]) is None  # waiting for its second leg
    assert pair_total([(0, True, win), (1, False, ())]) is None
    assert pair_total([(0, True, win), (0, True, win)]) is None
    assert pair_total([(0, True, win), (1, True, (("a", "c", 1.0),))]) is None
