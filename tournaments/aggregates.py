"""What ``ratings.json`` is computed from: per-pair and per-entrant sums over a run's results.

Every figure of ``ratings.json`` (:func:`standoff.tournaments.report.compute_ratings`) is a
function of a few sums over the results, never of the results one by one: the pairwise games'
wins, draws and losses per pair of entrants (all the Bradley-Terry fit needs,
:func:`~standoff.tournaments.ratings.bradley_terry_pairs`), the pentanomial counts of complete
paired legs, faults and fallbacks per entrant, terminations, and match counters. An
:class:`Aggregates` holds those sums. :meth:`Aggregates.of` makes them from a list of results
(what ``compute_ratings`` does); a run's index keeps the same sums in its tables, updated as
results are written (:mod:`standoff.tournaments.run_index`), so a ladder's ratings between
rounds cost the same after a million matches as after a thousand. Both go through
:meth:`Aggregates.add` and :func:`pair_total`, so the two ways cannot drift apart.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .model import Result

__all__ = ["Aggregates", "Leg", "pair_total"]

#: One leg of a paired-seed group, as the pentanomial sees it: its ``leg`` number, whether it was
#: played, and its pairwise games (:meth:`~standoff.tournaments.model.Result.pairwise`).
Leg = tuple[Any, bool, tuple[tuple[str, str, float], ...]]

_SLOT = {1.0: 0, 0.5: 1, 0.0: 2}  # a's score -> index into [wins, draws, losses]


def leg_of(result: Result) -> Leg:
    return (result.leg, bool(result.played), tuple(result.pairwise()))


def pair_total(legs: Sequence[Leg]) -> tuple[str, str, float] | None:
    """The pentanomial sample of one paired-seed group (the results sharing a ``pair``): ``(a,
    b, total of a)`` with ``a < b`` when the group is exactly two legs, 0 and 1, both played,
    each one game between the same two entrants; None otherwise (a leg missing or not played,
    more legs, more seats: the group gives no pentanomial sample; its games count elsewhere)."""
    if len(legs) != 2 or sorted(leg for leg, _, _ in legs) != [0, 1]:
        return None
    if not all(played for _, played, _ in legs):
        return None
    triples = [games for _, _, games in legs]
    if any(len(t) != 1 for t in triples):
        return None
    names = {frozenset(t[0][:2]) for t in triples}
    if len(names) != 1:
        return None
    a, b = sorted(next(iter(names)))
    total = 0.0
    for ((x, _, s),) in triples:
        total += s if x == a else 1.0 - s
    return a, b, total


@dataclass
class Aggregates:
    """The sums ``ratings.json`` is made of (see the module docstring). Pairs are keyed ``(a,
    b)`` with ``a < b``, counted from ``a``'s side."""

    seated: set[str] = field(default_factory=set)  # every name seated in a result, played or not
    wdl: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # [wins, draws, losses] of a
    penta: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # [LL, LD, WL+DD, WD, WW] of a
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # who -> kind -> count
    fallbacks: dict[str, int] = field(default_factory=dict)  # who -> count
    terminations: dict[str, int] = field(default_factory=dict)
    total: int = 0
    played: int = 0
    not_played: int = 0  # without a result, other than by an error
    error: int = 0  # ended by an engine or referee error

    @property
    def games(self) -> int:
        """Pairwise games (every played match's :meth:`~.model.Result.pairwise` triples)."""
        return sum(sum(counts) for counts in self.wdl.values())

    def add(self, result: Result) -> None:
        """Count ``result`` in (everything but the pentanomial, which needs its group:
        :meth:`add_pair_total`). Faults and fallbacks go to the entrant in the seat (the role
        itself when nobody sits there), summed over all matches, played or not."""
        self.seated.update(result.seats.values())
        for a, b, s in result.pairwise():
            key, s = ((a, b), s) if a < b else ((b, a), 1.0 - s)
            self.wdl.setdefault(key, [0, 0, 0])[_SLOT[s]] += 1
        for role, kinds in (result.faults or {}).items():
            bucket = self.faults.setdefault(result.seats.get(role, role), {})
            for kind, count in kinds.items():
                bucket[kind] = bucket.get(kind, 0) + int(count)
        for role, count in (result.fallbacks or {}).items():
            who = result.seats.get(role, role)
            self.fallbacks[who] = self.fallbacks.get(who, 0) + int(count)
        self.terminations[result.termination] = self.terminations.get(result.termination, 0) + 1
        self.total += 1
        if result.played:
            self.played += 1
        elif result.termination == "error":
            self.error += 1
        else:
            self.not_played += 1

    def add_pair_total(self, sample: tuple[str, str, float] | None, sign: int = 1) -> None:
        """Count one group's :func:`pair_total` in (``sign`` -1: out again)."""
        if sample is not None:
            a, b, total = sample
            self.penta.setdefault((a, b), [0, 0, 0, 0, 0])[int(total * 2)] += sign

    @classmethod
    def of(cls, results: Iterable[Result]) -> Aggregates:
        """The aggregates of a list of results (any order)."""
        agg = cls()
        groups: dict[Any, list[Leg]] = {}
        for result in results:
            agg.add(result)
            if result.pair is not None:
                groups.setdefault(result.pair, []).append(leg_of(result))
        for legs in groups.values():
            agg.add_pair_total(pair_total(legs))
        return agg
