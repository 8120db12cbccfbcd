"""What "a run folder's index and files agree" means (issue 43), for the index's tests: every
result row is the file's result, every sum is the one recomputed from the file, ``elo.jsonl`` is
the log recomputed from the file, and the ratings from the index are the full computation's
(the oracle: ``compute_ratings`` as it was, tests/kits/ratings_oracle.py)."""

from __future__ import annotations

from pathlib import Path

from kits.ratings_oracle import oracle_ratings

from standoff.server.storage import connect, index_path
from standoff.tournaments.aggregates import Aggregates
from standoff.tournaments.report import elo_lines, elo_text, ratings_text, read_results
from standoff.tournaments.run_index import RunIndex, _config_elo, ratings_from_index


def assert_agree(run: Path, entrants: list[str] | None = None, *, k: float | None = None,
                 start: float | None = None) -> int:
    """Assert that ``run``'s index (as it is: opened read-only, not caught up) and files agree;
    return the number of results. ``k``, ``start``: the Elo log's (default: the config.json's)."""
    if k is None or start is None:
        k, start = _config_elo(run)
    results = read_results(run / "results.jsonl") if (run / "results.jsonl").exists() else []
    conn = connect(index_path(run), readonly=True)
    try:
        index = RunIndex(run, conn)
        rows = list(index.results())
        assert [r.to_json() for r in rows] == [r.to_json() for r in results]
        assert index.count() == len(results)
        assert _sums(index.aggregates()) == _sums(Aggregates.of(results))
        want = ratings_text(oracle_ratings(results, entrants=entrants))
        assert ratings_text(ratings_from_index(index, entrants)) == want
    finally:
        conn.close()
    elo = run / "elo.jsonl"
    assert (elo.read_text() if elo.exists() else "") == elo_text(elo_lines(results, k=k, start=start))
    return len(results)


def _sums(agg: Aggregates) -> Aggregates:
    """``agg`` without pentanomial rows counted in and out again (all zeros: no sample)."""
    agg.penta = {pair: counts for pair, counts in agg.penta.items() if any(counts)}
    return agg


def open_and_check(run: Path, entrants: list[str] | None = None, **kwargs) -> int:
    """Open the index (catching it up and repairing the derived files), close it, and
    :func:`assert_agree`."""
    RunIndex.open(run, **kwargs).close()
    return assert_agree(run, entrants)
