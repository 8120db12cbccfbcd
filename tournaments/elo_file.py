"""``elo.jsonl``, the run's incremental Elo log: derived from the results, appended as they are
written, repaired from them.

The log is a pure function of the results (:func:`standoff.tournaments.report.elo_lines`, the
layout in :mod:`standoff.tournaments.report`); a run appends each result's lines as it writes the
result (:func:`elo_step`, from the current ratings, which the run's index keeps), so that nothing
reads the whole history to add a line. Where the file stands is a
:class:`~standoff.server.ledger.ChainPoint` (lines, bytes, digest of the last line) kept in the
index: at an open the file is checked against it; lines past it (appended for results whose
index rows a kill cut off) are cut, and a file that no longer has it (cut short, lost), or that
was written since the index last saw it with its length unchanged (edited in place), is
rewritten from the results. The results are never repaired from it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..server.ledger import ChainPoint, line_digest
from ..server.private_files import FILE_MODE, open_private
from .model import Result
from .ratings import elo_update

__all__ = ["EloFile", "elo_step"]


def _r(x: float) -> float:
    """Round to 4 decimals, never ``-0.0`` (as :func:`~.report.elo_lines` writes them)."""
    return round(float(x), 4) + 0.0


def elo_step(elo: dict[str, float], result: Result, k: float, start: float) -> list[dict[str, Any]]:
    """The Elo log lines of ``result`` (one per pairwise game, in order), updating the ratings
    ``elo`` (unrounded; a player missing starts at ``start``). Applied to the results in
    canonical order, the same lines as :func:`~.report.elo_lines` over all of them."""
    lines = []
    for a, b, score in result.pairwise():
        ra, rb = elo.get(a, start), elo.get(b, start)
        na, nb = elo_update(ra, rb, score, k)
        elo[a], elo[b] = na, nb
        lines.append({
            "index": result.index, "match_id": result.match_id, "a": a, "b": b, "score_a": _r(score),
            "a_before": _r(ra), "b_before": _r(rb), "a_after": _r(na), "b_after": _r(nb),
        })
    return lines


class EloFile:
    """The file ``elo.jsonl`` of a run folder, at a :class:`ChainPoint` the index keeps."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def has(self, point: ChainPoint) -> bool:
        """Whether the file holds ``point``: at least ``offset`` bytes, and the line ending
        there has the point's digest (an empty point: any file, or none)."""
        if point.offset == 0:
            return True
        return self.path.exists() and point.still_there(self.path)

    def stat(self) -> list[int] | None:
        """The file's length and the time it was last written (ns); None if there is none."""
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        return [found.st_size, found.st_mtime_ns]

    def cut(self, offset: int) -> None:
        """Cut what lies past ``offset`` (lines of results the index does not hold yet)."""
        if not self.path.exists():
            if offset == 0:
                return
            raise FileNotFoundError(self.path)
        os.chmod(self.path, FILE_MODE)  # private, one an older version left readable too
        if self.path.stat().st_size > offset:
            with open(self.path, "r+b") as file:
                file.truncate(offset)
                file.flush()
                os.fsync(file.fileno())

    def append(self, text: str, point: ChainPoint) -> ChainPoint:
        """Append ``text`` (whole lines) at ``point`` (the file's end); returns the new point."""
        if not text:
            return point
        with open_private(self.path, "a") as file:
            file.write(text)
            file.flush()
        return _advance(point, text)

    def rewrite(self, chunks: Iterable[str]) -> ChainPoint:
        """Replace the file with ``chunks`` (whole lines), atomically (a temporary file, fsync'd,
        renamed over it), streaming; returns its point."""
        point = ChainPoint()
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
                os.fchmod(file.fileno(), FILE_MODE)
                for text in chunks:
                    if text:
                        file.write(text)
                        point = _advance(point, text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return point


def _advance(point: ChainPoint, text: str) -> ChainPoint:
    """``point`` moved past ``text`` (whole lines)."""
    last = text[:-1].rsplit("\n", 1)[-1]
    return ChainPoint(point.line + text.count("\n"), point.offset + len(text.encode("utf-8")), line_digest(last))
