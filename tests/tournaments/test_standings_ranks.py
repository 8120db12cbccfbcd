"""Standings print tied players at one place (issue 44): equal ratings ranked "1", "1", "3"
(standard competition ranking) in `standoff ratings` / `standoff tournament`'s table, in
:func:`format_table` and on the report's index page; "tied" is the same rating as printed."""

from __future__ import annotations

import re

from standoff.tournaments.html import _standings
from standoff.tournaments.model import Result
from standoff.tournaments.ranks import standings_ranks
from standoff.tournaments.ratings import bradley_terry, format_table
from standoff.tournaments.report import compute_ratings, format_report


def game(index: int, first: str, second: str, score: float) -> Result:
    """A two-seat match: ``first`` is p1 and scores ``score`` (1, 0.5 or 0)."""
    winner = first if score == 1 else second if score == 0 else None
    role = "p1" if score == 1 else "p2" if score == 0 else None
    return Result(index, f"m{index:04d}", 1, 100 + index, {"p1": first, "p2": second}, True, winner, role,
                  {"p1": float(score), "p2": 1.0 - score}, "draw" if score == 0.5 else "breakthrough", "")


def tied_field() -> list[Result]:
    """alpha and beta draw each other and both beat gamma twice: the same results, one place.
    delta beats gamma once and loses once: a place of its own (between them and gamma)."""
    results = [game(0, "alpha", "beta", 0.5), game(1, "beta", "alpha", 0.5)]
    for who in ("alpha", "beta"):
        results += [game(len(results), who, "gamma", 1), game(len(results) + 1, "gamma", who, 0)]
    results += [game(len(results), "delta", "gamma", 1), game(len(results) + 1, "gamma", "delta", 1)]
    return results


def table_ranks(text: str, head: str) -> dict[str, int]:
    """Player -> the place printed in the standings table under ``head``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == head.split())
    ranks = {}
    for line in lines[start + 2:]:
        match = re.match(r"^\s*(\d+)\s+(\S+)\s+[+-]\d", line)
        if not match:
            break
        ranks[match[2]] = int(match[1])
    return ranks


def test_competition_ranking_of_printed_ratings():
    def players(*ratings):
        return [{"name": f"p{i}", "rating": r, "games": 0 if r is None else 4} for i, r in enumerate(ratings)]

    assert standings_ranks(players(10.0, 10.0, 3.0)) == [1, 1, 3]
    assert standings_ranks(players(10.04, 9.96, 3.0)) == [1, 1, 3]  # both print +10.0
    assert standings_ranks(players(10.1, 10.0, 10.0, 10.0, -30.0)) == [1, 2, 2, 2, 5]
    assert standings_ranks(players(0.04, -0.04, -5.0)) == [1, 1, 3]  # +0.0 and -0.0: one place
    assert standings_ranks(players(5.0, -5.0, None, None)) == [1, 2, 3, 3]  # no games, no rating
    assert standings_ranks(players(1.0, 2.0, 3.0)) == [1, 2, 3]
    assert standings_ranks([]) == []


def test_the_text_report_shares_places():
    ratings = compute_ratings(tied_field(), entrants=["alpha", "beta", "gamma", "delta"])
    by_name = {p["name"]: p for p in ratings["players"]}
    assert f"{by_name['alpha']['rating']:+.1f}" == f"{by_name['beta']['rating']:+.1f}"
    assert table_ranks(format_report(ratings), "Rank Player") == {"alpha": 1, "beta": 1, "delta": 3, "gamma": 4}


def test_format_table_shares_places():
    result = bradley_terry([t for r in tied_field() for t in r.pairwise()])
    assert table_ranks(format_table(result), "Rank Player") == {"alpha": 1, "beta": 1, "delta": 3, "gamma": 4}


def test_the_index_page_shares_places():
    ratings = compute_ratings(tied_field(), entrants=["alpha", "beta", "gamma", "delta"])
    html = _standings(ratings)
    rows = re.findall(r'<tr><td>(\d+)</td><td class="name">([^<]+)</td>', html)
    assert dict((name, int(rank)) for rank, name in rows) == {"alpha": 1, "beta": 1, "delta": 3, "gamma": 4}
