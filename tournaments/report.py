"""Tournament outputs recomputed from ``results.jsonl``: the Elo log, ``ratings.json`` and the
printed report. Results are the only truth (see :mod:`standoff.tournaments.model`); everything
here is a pure function of them, so the same results always give byte-identical files, whatever
their order in the input.

API
===

* :func:`read_results` — parse ``results.jsonl`` (tolerates a torn last line, rejects garbage
  elsewhere, drops identical duplicates, rejects conflicting ones), sorted by ``index``.
* :func:`elo_lines` — the incremental Elo log (the lines of ``elo.jsonl``).
* :func:`compute_ratings` — the content of ``ratings.json`` (layout below).
* :func:`format_report` — the text ``standoff tournament`` / ``standoff ratings`` print.
* :func:`write_outputs` — atomically rewrite ``elo.jsonl`` and ``ratings.json`` in a run folder.
* :func:`write_ratings` — atomically rewrite ``ratings.json`` alone (a run's index keeps ``elo.jsonl``).
* :func:`ratings_from_aggregates` — ``ratings.json`` from the sums it is made of (:mod:`.aggregates`).
* :func:`ratings_text` / :func:`elo_text` — the exact bytes (as text) of those two files.

Canonical order: results sorted by ``(index, match_id)``; within a match with more than two seats,
its :meth:`~standoff.tournaments.model.Result.pairwise` triples in their order. Matches not played
contribute no game (but their faults and termination are counted).

Matches of more than two roles (a three-player ruleset)
=================================================================

**Choice: pairwise decomposition, not Plackett-Luce.** A match of ``k`` seats is rated as the
``k (k - 1) / 2`` two-player *games* between its seats (:meth:`~.model.Result.pairwise`): each
pair is scored by who scored more in the match (1 / 0.5 / 0). A three-player match has a winner
(scores 1, 0, 0) or is a draw (1/3 each) or a forfeit (0 for the forfeiter, 1/2 for the others),
so the winner beats both others and the two others draw; a drawn match is three drawn games; in
a forfeit both others beat the forfeiter and draw with each other. Everything downstream (the Elo
log, the Bradley-Terry fit, W/D/L, the crosstable, head to head) then works unchanged on games.

Why: the outcome of a match is a winner or nobody, never a full ranking of the seats, which is
what Plackett-Luce models; on "winner vs a tie of the rest" Plackett-Luce reduces to a
Luce-choice model (``P(i wins) = e^θi / Σ e^θj``) with no use for draws, while the decomposition
keeps one model (Bradley-Terry with draws as half points) for two- and three-player
tournaments, so ratings of both read the same way and the ordering is right (the winner is above
both losers). Known costs: the games of one match are not independent (they share a deal), so
the ``±`` intervals and the LOS are somewhat optimistic for multi-player matches, and
``games`` counts pairwise games (a player's games = its matches × (seats − 1)). ``matches.games``
in ``ratings.json`` and the report's first line say so. Pentanomial statistics need two-seat
paired legs: the three legs of a three-player seed give none (``pentanomial`` is ``null``).

``elo.jsonl``
=============

One JSON object per pairwise game, in canonical order, keys in this order::

    {"index": 12, "match_id": "r01-000012", "a": "greedy", "b": "random", "score_a": 1.0,
     "a_before": 1500.0, "b_before": 1500.0, "a_after": 1516.0, "b_after": 1484.0}

``index``/``match_id`` are the match's; ratings start at ``start`` (1500) with factor ``k`` (32)
and are rounded to 4 decimals.

``ratings.json``
================

Written with ``json.dumps(ratings, sort_keys=True, indent=2, allow_nan=False)`` plus a newline.
Floats are rounded to 4 decimals, there are no timestamps; lists are in a meaningful order
(standings, name order), every mapping is keyed by entrant name (or code) and sorted::

    {
      "version": 1,
      "players": [                      # standings: players with games by rating (desc, then
        {"name": "greedy",              # name), then players without games by name
         "rating": 120.5,               # Bradley-Terry, Elo units, mean 0 per component
         "margin": 80.1,                # ± half-width of the 95% interval (Fisher information);
                                        # 0 for a player without games
         "games": 20, "wins": 15, "draws": 2, "losses": 3,   # pairwise games
         "score_pct": 80.0,             # 100 (W + D/2) / games; null without games
         "component": 0},               # index into "components"
        ...],
      "components": [{"players": ["greedy", "random"], "regularized": false}, ...],
                                        # groups linked by games (ratings compare only within
                                        # one); "regularized": the virtual-draw prior was needed
      "los": {"greedy": {"random": 0.9999, ...}, ...},   # P(row stronger than column); no
                                        # diagonal; 0.5 across components
      "pairs": [                        # every pair that played at least one game, a < b by name
        {"a": "greedy", "b": "random",
         "games": 20, "wins": 15, "draws": 2, "losses": 3,   # from a's point of view
         "score_pct": 80.0,
         "trinomial": {"elo": 240.8, "margin": 170.2},       # a's Elo advantage ± 95%
         "pentanomial": {"pairs": 10, "counts": [0, 1, 2, 3, 4], "elo": 250.1, "margin": 90.3}
                                        # or null when no complete paired legs
        }, ...],
      "crosstable": {"greedy": {"random": {"score": 16.0, "games": 20}}, "random": {...}},
                                        # score (points) of row against column; opponents
                                        # never met are absent; every entrant has a row
      "faults": {"greedy": {}, "random": {"timeout": 1}},   # every entrant: kind -> count,
                                        # summed over its seats, all matches (played or not)
      "fallbacks": {"greedy": 0, "random": 0},   # every entrant: fallbacks its bot took after
                                        # an internal error (in-process bots; remote: unseen),
                                        # summed like faults
      "terminations": {"breakthrough": 18, "not_played": 2},   # all matches
      "matches": {"total": 22, "played": 20, "not_played": 2, "error": 0, "games": 20}
                                        # games: pairwise; not_played and error: matches
                                        # without a result (played false), errors apart
    }

Infinities: JSON has no infinity, so a value that is infinite mathematically is written as a
string: ``"+inf"`` / ``"-inf"`` for an Elo difference (a player won, or lost, every game of the
pair: score 100% or 0%) and ``"inf"`` for a margin (the 95% interval of the score reaches 0% or
100%, typical for few games). Finite values are numbers; a value that is not defined (NaN, which
the rating maths does not produce) would be ``null``. :func:`format_report` prints them as
``+inf``, ``-inf`` and ``inf``.

Pentanomial: results sharing a ``pair`` id form a game pair when there are exactly two of them,
legs 0 and 1, both played, each a two-entrant match between the same two entrants. The pair total
of ``a`` (0, 0.5, 1, 1.5 or 2) goes into the counts ``[LL, LD, WL+DD, WD, WW]``. Incomplete groups
(a leg missing or not played) are ignored for the pentanomial (their games still count
everywhere else).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..server.private_files import replace_private
from .model import Result
from .aggregates import Aggregates
from .ranks import standings_ranks
from .ratings import bradley_terry_pairs, elo_log, pentanomial_elo, trinomial_elo

__all__ = [
    "ELO_FILE",
    "RATINGS_FILE",
    "RESULTS_FILE",
    "compute_ratings",
    "elo_lines",
    "elo_text",
    "format_report",
    "ratings_from_aggregates",
    "ratings_text",
    "read_results",
    "write_outputs",
    "write_ratings",
]

RESULTS_FILE = "results.jsonl"
ELO_FILE = "elo.jsonl"
RATINGS_FILE = "ratings.json"

VERSION = 1
_WIDTH = 100  # terminal width the report is laid out for
_NAME_MAX = 20  # names are cut to this in the matrices (the standings show them in full)


# ---------------------------------------------------------------------------------------------
# Reading results.jsonl
# ---------------------------------------------------------------------------------------------


def _parse_line(raw: bytes) -> Result:
    """One results line → :class:`Result`; raises ``ValueError`` / ``json.JSONDecodeError``."""
    return result_of(json.loads(raw.decode("utf-8")))


def result_of(data: Any) -> Result:
    """A results line's JSON value → :class:`Result`; raises ``ValueError`` (not a result)."""
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    try:
        result = Result.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not a result ({type(exc).__name__}: {exc})") from None
    if not isinstance(result.index, int) or isinstance(result.index, bool):
        raise ValueError(f"index must be an integer, got {result.index!r}")
    if not isinstance(result.match_id, str):
        raise ValueError(f"match_id must be a string, got {result.match_id!r}")
    return result


def _snippet(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace")
    return text if len(text) <= 60 else text[:57] + "..."


def read_results(path: str | os.PathLike[str]) -> list[Result]:
    """The results in ``path`` (a ``results.jsonl``), sorted by ``index``.

    * Blank lines are skipped.
    * A final line without a newline that is not complete JSON (or not complete UTF-8) is a write
      torn by a crash and is ignored; a final line without a newline that parses is kept.
    * Any other line that is not a valid result raises :exc:`ValueError` naming the file and the
      line number (1-based).
    * Lines repeating a ``match_id``: later lines identical to the first (same JSON form) are
      ignored; a different one raises :exc:`ValueError`. Two different matches with the same
      ``index`` also raise (the canonical order would be ambiguous).
    """
    data = Path(path).read_bytes()
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline (or is empty)
    numbered = [(n, line) for n, line in enumerate(lines, 1)]
    torn = tail.strip() != b""
    if torn:
        numbered.append((len(lines) + 1, tail))

    by_id: dict[str, tuple[int, Result, dict[str, Any]]] = {}
    by_index: dict[int, tuple[int, str]] = {}
    for n, raw in numbered:
        if not raw.strip():
            continue
        try:
            result = _parse_line(raw.strip())
        except (ValueError, UnicodeDecodeError) as exc:
            if torn and n == len(lines) + 1 and isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError)):
                break  # incomplete last line: a crash mid-write
            raise ValueError(f"{path}: line {n}: invalid result line {_snippet(raw)!r}: {exc}") from None
        form = result.to_json()
        if result.match_id in by_id:
            first_n, _, first_form = by_id[result.match_id]
            if form != first_form:
                raise ValueError(
                    f"{path}: line {n}: match_id {result.match_id!r} conflicts with line {first_n} "
                    "(same match, different result)"
                )
            continue
        if result.index in by_index:
            first_n, first_id = by_index[result.index]
            raise ValueError(
                f"{path}: line {n}: index {result.index} of match {result.match_id!r} is already "
                f"used by match {first_id!r} on line {first_n}"
            )
        by_id[result.match_id] = (n, result, form)
        by_index[result.index] = (n, result.match_id)
    return sorted((r for _, r, _ in by_id.values()), key=lambda r: (r.index, r.match_id))


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _canonical(results: Iterable[Result]) -> list[Result]:
    return sorted(results, key=lambda r: (r.index, r.match_id))


def _r(x: float) -> float:
    """Round to 4 decimals, never ``-0.0``."""
    return round(float(x), 4) + 0.0


def _num(x: float) -> float | str | None:
    """A JSON-safe number: rounded when finite, ``"+inf"``/``"-inf"`` when infinite, ``None`` for
    NaN."""
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return _r(x)


def _margin(x: float) -> float | str | None:
    """Like :func:`_num`, but an (always non-negative) infinite margin is ``"inf"``."""
    if math.isinf(x):
        return "inf"
    return _num(x)


# ---------------------------------------------------------------------------------------------
# The Elo log
# ---------------------------------------------------------------------------------------------


def elo_lines(results: Iterable[Result], k: float = 32.0, start: float = 1500.0) -> list[dict[str, Any]]:
    """The incremental Elo log: one dict per pairwise game in canonical order (see the module
    docstring for the keys), computed with :func:`~standoff.tournaments.ratings.elo_log`. Matches
    not played give no line."""
    games: list[tuple[Result, tuple[str, str, float]]] = []
    for result in _canonical(results):
        for triple in result.pairwise():
            games.append((result, triple))
    log = elo_log([t for _, t in games], k=k, start=start)
    lines = []
    for (result, _), entry in zip(games, log):
        lines.append(
            {
                "index": result.index,
                "match_id": result.match_id,
                "a": entry.player_a,
                "b": entry.player_b,
                "score_a": _r(entry.score_a),
                "a_before": _r(entry.rating_a_before),
                "b_before": _r(entry.rating_b_before),
                "a_after": _r(entry.rating_a_after),
                "b_after": _r(entry.rating_b_after),
            }
        )
    return lines


# ---------------------------------------------------------------------------------------------
# ratings.json
# ---------------------------------------------------------------------------------------------


def compute_ratings(results: Iterable[Result], *, entrants: Iterable[str] | None = None) -> dict[str, Any]:
    """The content of ``ratings.json`` (layout and conventions in the module docstring),
    recomputed from ``results`` only. ``entrants``: names from the configuration; they are listed
    even without games. Every name seated in a result (played or not) is an entrant too.

    The output is JSON-ready (no infinities: see the module docstring), deterministic (the same
    whatever the order of ``results``) and has no timestamps. It is
    :func:`ratings_from_aggregates` of the results' :class:`~.aggregates.Aggregates`: a run's
    index keeps the same sums and gives the same bytes without reading the results.
    """
    return ratings_from_aggregates(Aggregates.of(results), entrants=entrants)


def ratings_from_aggregates(agg: Aggregates, *, entrants: Iterable[str] | None = None) -> dict[str, Any]:
    """The content of ``ratings.json`` from the sums it is made of (:mod:`.aggregates`): what
    :func:`compute_ratings` gives for the results ``agg`` counts, in time independent of their
    number."""
    names: set[str] = set(entrants or ())
    names.update(agg.seated)

    bt = bradley_terry_pairs(agg.wdl, players=sorted(names))

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
    pairs = []
    crosstable: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in names}
    for (a, b), (w, d, lo) in sorted(agg.wdl.items()):
        n = w + d + lo
        if not n:
            continue
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
        counts = list(agg.penta.get((a, b), ()))
        if sum(counts):
            pe = pentanomial_elo(counts)
            entry["pentanomial"] = {
                "pairs": sum(counts),
                "counts": counts,
                "elo": _num(pe.elo),
                "margin": _margin(pe.margin),
            }
        pairs.append(entry)
        crosstable[a][b] = {"score": _r(w + d / 2.0), "games": n}
        crosstable[b][a] = {"score": _r(lo + d / 2.0), "games": n}

    faults: dict[str, dict[str, int]] = {name: {} for name in names}
    for who, kinds in agg.faults.items():
        faults.setdefault(who, {}).update(kinds)
    fallbacks: dict[str, int] = dict.fromkeys(names, 0)
    for who, count in agg.fallbacks.items():
        fallbacks[who] = fallbacks.get(who, 0) + count

    return {
        "version": VERSION,
        "players": players,
        "components": components,
        "los": {a: dict(sorted(row.items())) for a, row in sorted(los_matrix.items())},
        "pairs": pairs,
        "crosstable": {a: dict(sorted(row.items())) for a, row in sorted(crosstable.items())},
        "faults": {a: dict(sorted(row.items())) for a, row in sorted(faults.items())},
        "fallbacks": dict(sorted(fallbacks.items())),
        "terminations": dict(sorted(agg.terminations.items())),
        "matches": {
            "total": agg.total,
            "played": agg.played,
            # Matches without a result (played is false): an error is shown apart from the rest
            # (a seat that never came, or a shutdown), never as a result.
            "not_played": agg.not_played,
            "error": agg.error,
            "games": agg.games,
        },
    }


# ---------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------


def ratings_text(ratings: Mapping[str, Any]) -> str:
    """The exact text of ``ratings.json``."""
    return json.dumps(ratings, sort_keys=True, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def elo_text(lines: Iterable[Mapping[str, Any]]) -> str:
    """The exact text of ``elo.jsonl`` (one compact JSON object per line)."""
    return "".join(json.dumps(line, allow_nan=False, ensure_ascii=False) + "\n" for line in lines)


def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file next to ``path``, fsync it, then ``os.replace`` it over
    ``path``: readers see the old file or the new one, never half of one. Private (``0600``,
    :mod:`standoff.server.private_files`), as the results they are computed from: while a run
    goes on they tell how its matches ended."""
    replace_private(path, text)
    try:  # make the rename itself durable (POSIX; not possible everywhere)
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def write_ratings(run_dir: str | os.PathLike[str], ratings: Mapping[str, Any]) -> None:
    """Rewrite ``ratings.json`` in ``run_dir`` (atomically) with ``ratings``: a run's index
    computes them from its sums (:func:`~.run_index.ratings_from_index`) and keeps ``elo.jsonl``
    itself, so that neither reads the whole history."""
    _atomic_write(Path(run_dir) / RATINGS_FILE, ratings_text(ratings))


def write_outputs(
    run_dir: str | os.PathLike[str],
    results: Iterable[Result],
    *,
    entrants: Iterable[str] | None = None,
    k: float = 32.0,
    start: float = 1500.0,
) -> dict[str, Any]:
    """Rewrite ``elo.jsonl`` and ``ratings.json`` in ``run_dir`` from ``results`` (each file
    atomically: temp file, fsync, ``os.replace``) and return the ratings dict. Re-running with
    the same results gives identical bytes."""
    run = Path(run_dir)
    results = list(results)
    ratings = compute_ratings(results, entrants=entrants)
    _atomic_write(run / ELO_FILE, elo_text(elo_lines(results, k=k, start=start)))
    _atomic_write(run / RATINGS_FILE, ratings_text(ratings))
    return ratings


# ---------------------------------------------------------------------------------------------
# The printed report
# ---------------------------------------------------------------------------------------------


def _fmt(value: Any, spec: str, width: int) -> str:
    """A number formatted with ``spec``; ``±inf`` strings as they are; ``None`` as ``-``."""
    if value is None:
        text = "-"
    elif isinstance(value, str):
        text = value
    elif isinstance(value, float) and math.isinf(value):
        text = ("+inf" if value > 0 else "-inf") if "+" in spec else ("inf" if value > 0 else "-inf")
    else:
        text = format(value, spec)
    return f"{text:>{width}}"


def _short(name: str, width: int = _NAME_MAX) -> str:
    return name if len(name) <= width else name[: width - 1] + "~"


def _points(x: float) -> str:
    return f"{x:g}"


def _matrix(title: str, names: list[str], cell, cell_width: int) -> list[str]:
    """A square table (rows: rank + name; columns: ranks), split into column blocks that fit the
    terminal width."""
    label = min(_NAME_MAX, max(len(n) for n in names))
    prefix = 4 + 2 + label
    per_block = max(1, (_WIDTH - prefix) // cell_width)
    lines = [title]
    for first in range(0, len(names), per_block):
        cols = range(first, min(first + per_block, len(names)))
        if first:
            lines.append("")
        lines.append(f"{'':>4}  {'':<{label}}" + "".join(f"{c + 1:>{cell_width}}" for c in cols))
        for r, name in enumerate(names):
            lines.append(f"{r + 1:>4}  {_short(name):<{label}}" + "".join(f"{cell(r, c):>{cell_width}}" for c in cols))
    return lines


def format_report(ratings: Mapping[str, Any]) -> str:
    """The tournament report printed by ``standoff tournament`` / ``standoff ratings``, from a
    :func:`compute_ratings` dict (or the same dict read back from ``ratings.json``): standings,
    likelihood of superiority, crosstable, per-pair statistics, faults, fallbacks, terminations. Laid out for
    a 100-column terminal (matrices are split into column blocks); no trailing newline."""
    players = list(ratings.get("players", []))
    out: list[str] = []
    matches = ratings.get("matches", {})
    errors = f", {matches['error']} ended by an error" if matches.get("error") else ""
    out.append(
        f"Matches: {matches.get('total', 0)} ({matches.get('played', 0)} played, "
        f"{matches.get('not_played', 0)} not played{errors}), {matches.get('games', 0)} pairwise games"
    )
    out.append("")
    if not players:
        out.append("No players.")
        return "\n".join(out)

    # Standings.
    components = list(ratings.get("components", []))
    many = len(components) > 1
    width = max(6, max(len(p["name"]) for p in players))
    head = (
        f"{'Rank':>4}  {'Player':<{width}}  {'Rating':>7}  {'±':>6}  {'Games':>5}  "
        f"{'W':>4}  {'D':>4}  {'L':>4}  {'Score':>6}"
    )
    if many:
        head += "  Grp"
    out += ["Standings", head, "-" * len(head)]
    for rank, p in zip(standings_ranks(players), players):  # tied ratings share a place
        games = p.get("games", 0)
        margin = _fmt(p.get("margin"), ".1f", 6) if games else f"{'-':>6}"
        pct = _fmt(p.get("score_pct"), ".1f", 5) + ("%" if p.get("score_pct") is not None else " ")
        line = (
            f"{rank:>4}  {p['name']:<{width}}  {_fmt(p.get('rating'), '+.1f', 7)}  {margin}  {games:>5}  "
            f"{p.get('wins', 0):>4}  {p.get('draws', 0):>4}  {p.get('losses', 0):>4}  {pct}"
        )
        if many:
            line += f"  {p.get('component', 0) + 1:>3}"
        out.append(line)
    if many:
        out.append("Ratings compare only within a group (Grp): no games link the groups.")
    flagged = [i for i, c in enumerate(components) if c.get("regularized")]
    if flagged:
        where = f" (groups {', '.join(str(i + 1) for i in flagged)})" if many else ""
        out.append(f"Regularised{where}: 1 virtual draw per player vs a 0-rated opponent (no finite ML fit).")
    out.append("Rating: Bradley-Terry (Elo scale), mean 0; ± is the 95% interval (Fisher information).")

    names = [p["name"] for p in players]
    comp = {p["name"]: p.get("component", 0) for p in players}

    # LOS.
    if len(players) > 1:
        los = ratings.get("los", {})

        def los_cell(r: int, c: int) -> str:
            a, b = names[r], names[c]
            if r == c:
                return "-"
            if comp[a] != comp[b]:
                return "?"
            value = los.get(a, {}).get(b)
            return "-" if value is None else f"{100.0 * value:.1f}"

        out.append("")
        out += _matrix("Likelihood of superiority (row better than column, %)", names, los_cell, 7)

        # Crosstable.
        cross = ratings.get("crosstable", {})

        def cross_cell(r: int, c: int) -> str:
            if r == c:
                return "-"
            cell = cross.get(names[r], {}).get(names[c])
            if not cell:
                return "."
            return f"{_points(cell['score'])}/{cell['games']}"

        cell_width = max(
            [7] + [len(cross_cell(r, c)) + 2 for r in range(len(names)) for c in range(len(names))]
        )
        out.append("")
        out += _matrix("Crosstable (points of row against column / games)", names, cross_cell, cell_width)

    # Pairs.
    pairs = list(ratings.get("pairs", []))
    out.append("")
    if pairs:
        label = min(2 * _NAME_MAX + 4, max(len(f"{_short(q['a'])} vs {_short(q['b'])}") for q in pairs))
        label = max(label, 4)
        head = (
            f"{'Pair':<{label}}  {'Games':>5}  {'W':>4}  {'D':>4}  {'L':>4}  {'Score':>6}  "
            f"{'Diff':>7}  {'±':>6}"
        )
        out += ["Head to head (first player's view; Diff: rating difference ± 95%, trinomial per game;",
                "              pentanomial per pair below it)"]
        out += [head, "-" * len(head)]
        for q in pairs:
            tri = q.get("trinomial") or {}
            out.append(
                f"{_short(q['a']) + ' vs ' + _short(q['b']):<{label}}  {q['games']:>5}  {q['wins']:>4}  "
                f"{q['draws']:>4}  {q['losses']:>4}  {_fmt(q.get('score_pct'), '.1f', 5)}%  "
                f"{_fmt(tri.get('elo'), '+.1f', 7)}  {_fmt(tri.get('margin'), '.1f', 6)}"
            )
            pe = q.get("pentanomial")
            if pe:
                counts = " ".join(str(c) for c in pe["counts"])
                out.append(
                    f"{'':<{label}}  pentanomial {pe['pairs']} pairs [LL LD WL+DD WD WW] = [{counts}]: "
                    f"{_fmt(pe.get('elo'), '+.1f', 0)} ± {_fmt(pe.get('margin'), '.1f', 0)}"
                )
    else:
        out.append("Head to head: no games played.")

    # Faults.
    faults = {name: kinds for name, kinds in ratings.get("faults", {}).items() if kinds}
    out.append("")
    if faults:
        out.append("Faults")
        for name in sorted(faults):
            kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(faults[name].items()))
            out.append(f"  {name}: {kinds}")
    else:
        out.append("Faults: none")

    # Fallbacks (absent from a ratings.json written before they were counted: nothing to say).
    if "fallbacks" in ratings:
        taken = {name: n for name, n in ratings["fallbacks"].items() if n}
        if taken:
            out.append("Fallbacks after a bot's internal error (in-process bots)")
            for name in sorted(taken):
                out.append(f"  {name}: {taken[name]}")
        else:
            out.append("Fallbacks after a bot's internal error: none (in-process bots)")

    # Terminations.
    terms = ratings.get("terminations", {})
    out.append("")
    if terms:
        out.append("Terminations")
        tw = max(len(code) for code in terms)
        for code, count in sorted(terms.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"  {code:<{tw}}  {count:>5}")
    else:
        out.append("Terminations: none")
    return "\n".join(out)
