"""The places printed in a standings table: tied players share one (issue 44).

Standings are ordered by Bradley-Terry rating; players with equal ratings are put in name order,
which is not a sporting criterion, so numbering the rows 1, 2, 3 ranked one of two equal players
above the other. A table uses standard competition ranking ("1", "1", "3"), as a chess tournament
table does for players equal on every criterion it is ordered by.

What "tied" means: the same rating *as the table prints it* (one decimal), the only criterion of
the order. A chess table compares the numbers it shows (points, then its tie-breaks); here a
difference below the printed precision is far inside any rating's 95% interval and is rounding
noise of the fit (two players with the same results against the same opponents may differ in
the last digits), so it decides no place. Score is not a tie-break: in a round robin an equal
rating means an equal score, and between different schedules the rating already weighs the
opponents' strength, which a raw score does not. Players without games have no
rating (printed ``-``): they share the place after the rated ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PRECISION", "standings_ranks"]

#: Decimals a standings table prints a rating with: ratings equal at this precision are tied.
PRECISION = 1


def _printed(player: Mapping[str, Any] | Any) -> float | None:
    """The rating as the table prints it, ``None`` without games (no rating)."""
    get = player.get if isinstance(player, Mapping) else lambda name, default=None: getattr(player, name, default)
    rating = get("rating")
    if not get("games", 0) or not isinstance(rating, (int, float)):
        return None
    return round(float(rating), PRECISION) + 0.0  # -0.0 and 0.0 are one place


def standings_ranks(players: Sequence[Mapping[str, Any] | Any]) -> list[int]:
    """The place of each player of ``players`` (in standings order: ``ratings.json``'s
    ``players`` dicts or :class:`~.ratings.PlayerRating`\\ s): one more than the number of
    players above it with a different printed rating, so tied players share the better place
    and the next one skips ("1", "1", "3")."""
    ranks: list[int] = []
    for i, player in enumerate(players):
        if i and _printed(player) == _printed(players[i - 1]):
            ranks.append(ranks[-1])
        else:
            ranks.append(i + 1)
    return ranks
