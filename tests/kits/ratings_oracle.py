"""The oracle of the ratings computed from aggregates: ``compute_ratings`` as it was before the
run folder's index (issue 43), word for word, over the whole list of results. The figures from
aggregates, from a list or from an index, must equal it byte for byte (tests/tournaments/
test_aggregates.py, tests/tournaments/test_run_index.py). It rates with
:func:`~standoff.tournaments.ratings.bradley_terry` over the games (its own tests pin it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from standoff.tournaments.model import Result
from standoff.tournaments.ratings import bradley_terry, pentanomial, pentanomial_elo, trinomial_elo
from standoff.tournaments.report import VERSION, _margin, _num, _r


def _canonical(results: Iterable[Result]) -> list[Result]:
    return sorted(results, key=lambda r: (r.index, r.match_id))


def _pair_legs(results: list[Result]) -> dict[tuple[str, str], list[float]]:
    """Pair totals (of the smaller name) per entrant pair, from complete paired legs."""
    groups: dict[Any, list[Result]] = {}
    for result in results:
        if result.pair is not None:
            groups.setdefault(result.pair, []).append(result)
    totals: dict[tuple[str, str], list[float]] = {}
    for key in sorted(groups, key=repr):
        legs = groups[key]
        if len(legs) != 2 or sorted(r.leg for r in legs) != [0, 1]:
            continue
        if not all(r.played for r in legs):
            continue
        triples = [r.pairwise() for r in legs]
        if any(len(t) != 1 for t in triples):
            continue
        names = {frozenset(t[0][:2]) for t in triples}
        if len(names) != 1:
            continue
        a, b = sorted(next(iter(names)))
        total = 0.0
        for ((x, _, s),) in triples:
            total += s if x == a else 1.0 - s
        totals.setdefault((a, b), []).append(total)
    return totals


def oracle_ratings(results: Iterable[Result], *, entrants: Iterable[str] | None = None) -> dict[str, Any]:
    """The content of ``ratings.json`` (layout and conventions in the module docstring),
    recomputed from ``results`` only. ``entrants``: names from the configuration; they are listed
    even without games. Every name seated in a result (played or not) is an entrant too.

    The output is JSON-ready (no infinities: see the module docstring), deterministic (the same
    whatever the order of ``results``) and has no timestamps.
    """
    ordered = _canonical(results)
    names: set[str] = set(entrants or ())
    for result in ordered:
        names.update(result.seats.values())

    triples = [t for result in ordered for t in result.pairwise()]
    bt = bradley_terry(triples, players=sorted(names))

    # Standings: players with games in Bradley-Terry order, then those without, by name.
    with_games = [p for p in bt.players if p.games]
    without = sorted((p for p in bt.players if not p.games), key=lambda p: p.name)
    players = [
        {
            "name": p.name,
            "rating": _r(p.rating),
            "margin": _margin(p.margin),
            "games": p.games,
            "wins": p.wins,
            "draws": p.draws,
            "losses": p.losses,
            "score_pct": None if p.score_pct is None else _r(p.score_pct),
            "component": p.component,
        }
        for p in with_games + without
    ]
    components = [
        {"players": list(members), "regularized": bool(reg)}
        for members, reg in zip(bt.components, bt.regularized)
    ]

    los_matrix: dict[str, dict[str, float]] = {}
    for i, p in enumerate(bt.players):
        los_matrix[p.name] = {q.name: _r(bt.los[i][j]) for j, q in enumerate(bt.players) if j != i}

    # Head to head, from the smaller name's point of view, and the crosstable.
    wdl: dict[tuple[str, str], list[int]] = {}
    for a, b, s in triples:
        key, s = ((a, b), s) if a < b else ((b, a), 1.0 - s)
        wdl.setdefault(key, [0, 0, 0])[{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
    penta = _pair_legs(ordered)
    pairs = []
    crosstable: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in names}
    for (a, b), (w, d, lo) in sorted(wdl.items()):
        n = w + d + lo
        tri = trinomial_elo(w, d, lo)
        entry: dict[str, Any] = {
            "a": a,
            "b": b,
            "games": n,
            "wins": w,
            "draws": d,
            "losses": lo,
            "score_pct": _r(100.0 * (w + d / 2.0) / n),
            "trinomial": {"elo": _num(tri.elo), "margin": _margin(tri.margin)},
            "pentanomial": None,
        }
        totals = penta.get((a, b), [])
        if totals:
            counts = pentanomial(totals)
            pe = pentanomial_elo(counts)
            entry["pentanomial"] = {
                "pairs": len(totals),
                "counts": counts,
                "elo": _num(pe.elo),
                "margin": _margin(pe.margin),
            }
        pairs.append(entry)
        crosstable[a][b] = {"score": _r(w + d / 2.0), "games": n}
        crosstable[b][a] = {"score": _r(lo + d / 2.0), "games": n}

    faults: dict[str, dict[str, int]] = {name: {} for name in names}
    fallbacks: dict[str, int] = dict.fromkeys(names, 0)
    terminations: dict[str, int] = {}
    for result in ordered:
        for role, kinds in (result.faults or {}).items():
            who = result.seats.get(role, role)
            bucket = faults.setdefault(who, {})
            for kind, count in kinds.items():
                bucket[kind] = bucket.get(kind, 0) + int(count)
        for role, count in (result.fallbacks or {}).items():
            who = result.seats.get(role, role)
            fallbacks[who] = fallbacks.get(who, 0) + int(count)
        terminations[result.termination] = terminations.get(result.termination, 0) + 1
    played = sum(1 for r in ordered if r.played)

    return {
        "version": VERSION,
        "players": players,
        "components": components,
        "los": {a: dict(sorted(row.items())) for a, row in sorted(los_matrix.items())},
        "pairs": pairs,
        "crosstable": {a: dict(sorted(row.items())) for a, row in sorted(crosstable.items())},
        "faults": {a: dict(sorted(row.items())) for a, row in sorted(faults.items())},
        "fallbacks": dict(sorted(fallbacks.items())),
        "terminations": dict(sorted(terminations.items())),
        "matches": {
            "total": len(ordered),
            "played": played,
            # Matches without a result (played is false): an error is shown apart from the rest
            # (a seat that never came, or a shutdown), never as a result.
            "not_played": sum(1 for r in ordered if not r.played and r.termination != "error"),
            "error": sum(1 for r in ordered if not r.played and r.termination == "error"),
            "games": len(triples),
        },
    }


