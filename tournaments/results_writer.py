"""The run's results, written in canonical match order whatever order matches end in.

:class:`CanonicalOrder` decides what may be written (each match id once, in schedule order,
early finishers held back); :class:`ResultWriter` is the only writer of ``results.jsonl`` and
``elo.jsonl``, appending, flushing and fsyncing each batch, then indexing it
(:mod:`standoff.tournaments.run_index`). A run killed at any moment therefore leaves a canonical
prefix (and an index behind it, never ahead), which a resume goes on from.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from ..server.ledger import LedgerWriter, digests
from ..server.storage import StorageError
from .config import TournamentConfig
from .errors import RunError
from .model import Result
from .report import write_ratings
from .run_index import RunIndex, ratings_from_index

__all__ = ["CanonicalOrder", "ResultWriter"]


class CanonicalOrder:
    """Results in (in any order, possibly twice), results to write out (in canonical order,
    each match id once).

    :meth:`expect` is called in canonical order as matches are started; :meth:`add` takes a
    finished result and returns those that can now be written. Idempotent by match id: a result
    for an id already written or already waiting (a task retried or completed twice), or for an
    id never expected, is ignored.
    """

    def __init__(self, written: set[str] | None = None) -> None:
        self.written: set[str] = set(written or ())
        self.expected: set[str] = set()
        self.order: deque[str] = deque()
        self.pending: dict[str, Result] = {}
        self.duplicates = 0

    def expect(self, match_id: str) -> None:
        if match_id not in self.written and match_id not in self.expected:
            self.expected.add(match_id)
            self.order.append(match_id)

    def add(self, result: Result) -> list[Result]:
        match_id = result.match_id
        if match_id not in self.expected or match_id in self.pending:
            self.duplicates += 1
            return []
        self.pending[match_id] = result
        ready = []
        while self.order and self.order[0] in self.pending:
            head = self.order.popleft()
            self.expected.discard(head)
            self.written.add(head)
            ready.append(self.pending.pop(head))
        return ready



class ResultWriter:
    """The only writer of results.jsonl and elo.jsonl: appends in canonical order. Each results
    line carries its records' digests and the digest of the line before it
    (:mod:`standoff.server.ledger`). Each batch is one step with the run's index
    (:meth:`~.run_index.RunIndex.add`): results lines appended and fsync'd, their Elo lines
    appended, their rows committed; the Elo ratings are the index's, so nothing here holds or
    reads the history."""

    def __init__(self, folder: Path, index: RunIndex, config: TournamentConfig,
                 entrants: list[str] | None = None) -> None:
        self.folder = folder
        self.index = index
        self.entrants = entrants if entrants is not None else list(config.entrants)
        self.written = 0  # results written by this writer
        # elo.jsonl was repaired from the results when the index was opened; ratings.json from its sums.
        write_ratings(folder, ratings_from_index(index, self.entrants))
        self.ledger = LedgerWriter(folder / "results.jsonl")

    def take(self, result: Result) -> str:
        """Take ``result`` in; return its elo.jsonl text (the same lines as a full recompute
        writes; its results line is made by :meth:`write`, which reads its records)."""
        return self.index.elo_step(result)

    def write(self, results: list[Result], elo_lines: str) -> None:
        """Append the results (in order: each line chains to the one before) and their Elo lines,
        make them durable and index them. Runs in a thread: reading records and fsync must not
        stall the coordinator. A disk that is full or an index that cannot be written stops the
        run with one line (:class:`RunError`): what was written stays, the next start repairs the
        index from it."""
        records = self.folder / "records"
        try:
            text = []
            for result in results:
                result.records = digests(records, result.records)
                text.append(self.ledger.text(result.to_json()))
            self.index.add(results, "".join(text), self.ledger.append, elo_lines)
        except StorageError as exc:
            raise RunError(f"{exc}; the results written so far are kept: run the same command again to go on") from None
        except OSError as exc:
            where = exc.filename or self.folder
            raise RunError(f"{where}: cannot write: {exc.strerror or exc}; the results written so far are kept: run "
                           "the same command again to go on") from None
        self.written += len(results)

    def close(self) -> None:
        self.ledger.close()
