"""The run's results, written in canonical match order whatever order matches end in.

:class:`CanonicalOrder` decides what may be written (each match id once, in schedule order,
early finishers held back); :class:`ResultWriter` is the only writer of ``results.jsonl`` and
``elo.jsonl``, appending, flushing and fsyncing each batch. A run killed at any moment therefore
leaves a canonical prefix, which a resume goes on from.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from ..server.ledger import LedgerWriter, digests
from ..server.private_files import open_private
from .config import TournamentConfig
from .model import Result
from .ratings import elo_update
from .report import elo_text, write_outputs

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
    (:mod:`standoff.server.ledger`)."""

    def __init__(self, folder: Path, done: list[Result], config: TournamentConfig,
                 entrants: list[str] | None = None) -> None:
        self.folder = folder
        self.results = list(done)
        self.k, self.start = config.elo_k, config.elo_start
        # elo.jsonl is derived: rewrite it from the results so far, then append as they come.
        write_outputs(folder, self.results, entrants=entrants if entrants is not None else list(config.entrants),
                      k=self.k, start=self.start)
        self.elo = {}
        for result in self.results:
            self._update_elo(result)
        self.ledger = LedgerWriter(folder / "results.jsonl")
        self.elo_file = open_private(folder / "elo.jsonl", "a")

    def _update_elo(self, result: Result) -> list[dict[str, Any]]:
        lines = []
        for a, b, score in result.pairwise():
            ra, rb = self.elo.get(a, self.start), self.elo.get(b, self.start)
            na, nb = elo_update(ra, rb, score, self.k)
            self.elo[a], self.elo[b] = na, nb
            lines.append({
                "index": result.index, "match_id": result.match_id, "a": a, "b": b, "score_a": score,
                "a_before": round(ra, 4), "b_before": round(rb, 4), "a_after": round(na, 4), "b_after": round(nb, 4),
            })
        return lines

    def take(self, result: Result) -> str:
        """Take ``result`` in; return its elo.jsonl text (its results line is made by
        :meth:`write`, which reads its records)."""
        self.results.append(result)
        # elo lines are the same as a full recompute writes
        return elo_text(self._update_elo(result))

    def write(self, results: list[Result], elo_lines: str) -> None:
        """Append the results (in order: each line chains to the one before) and their Elo lines
        and make them durable. Runs in a thread: reading records and fsync must not stall the
        coordinator."""
        records = self.folder / "records"
        text = []
        for result in results:
            result.records = digests(records, result.records)
            text.append(self.ledger.text(result.to_json()))
        self.ledger.append("".join(text))
        self.elo_file.write(elo_lines)
        self.elo_file.flush()

    def close(self) -> None:
        self.ledger.close()
        self.elo_file.close()
