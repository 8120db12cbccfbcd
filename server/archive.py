"""Finished matches of a referee: the server's ledger (``matches.jsonl``, :mod:`.ledger`) and
its index (``index.sqlite``, :mod:`.match_index`), which every look-up asks; nothing per match is
kept in memory, however long the history.

A tournament's referee (``ledger=False``) keeps neither: its run folder has its own results
ledger and its own index (:mod:`standoff.tournaments.run_index`, also named ``index.sqlite``, so
the server's is not opened there). It keeps the matches finished by this process, the last
:data:`~.match_store.RECENT_MATCHES` of them (:class:`~.match_store.RecentMatches`), and serves a
record of ``records/`` that has its outcome line (:meth:`Archive.record_text`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import structlog
import trio

from standoff.v1 import referee_pb2 as pb

from .ledger import LedgerWriter, record_digest
from .match_index import LEDGER_NAME, MatchIndex
from .match_store import Filters, MatchStore, RecentMatches
from .private_files import private_dir
from .records import cut_torn_tail, read_record
from .storage import StorageError
from .verify import LineChecker, VerifyError

log = structlog.get_logger("standoff.referee")

__all__ = ["LEDGER_NAME", "Archive", "ledger_line"]


def _now_ms() -> int:
    return int(time.time() * 1000)


class Archive:
    """What a referee keeps of its finished matches. ``ledger``: keep ``matches.jsonl`` and the
    index (a tournament's referee does not: the run's results are its ledger); ``verify``: check
    at start the ledger lines written since the index's last point (:mod:`.match_index`: what a
    start checks, and what only ``standoff verify`` does); a failed check raises ``VerifyError``,
    an unusable index ``StorageError``."""

    def __init__(self, data_dir: Path, registry: Any, *, ledger: bool = True, verify: bool = True) -> None:
        self.data_dir = data_dir
        self.registry = registry
        self.wants_ledger, self.verify = ledger, verify
        self.ledger: LedgerWriter | None = None
        self.index: MatchIndex | None = None
        self.recent = RecentMatches()  # ledger=False: this process's finished matches (bounded)
        # Ledger lines are chained and the index has one writer: one at a time, in finishing order.
        self.lock = trio.Lock()
        self._started: dict[str, int] = {}  # match id -> wall-clock ms it started (matches being played)
        self._last_ms = 0  # the latest ledger line's finished_ms: a line's never goes back

    @property
    def records(self) -> Path:
        return self.data_dir / "records"

    @property
    def store(self) -> MatchStore:
        """Where the finished matches are looked up (:class:`~.match_store.MatchStore`)."""
        return self.index if self.index is not None else self.recent

    # -- at start ----------------------------------------------------------------------------------

    def load(self) -> None:
        """Open the index and bring it up to the files: the ledger lines written since its point
        (checked, unless ``verify`` is off), then the matches a kill left ``playing`` (a record
        with its outcome line gets its ledger line now; one without was cut: ``aborted``). A
        missing index is filled from the files (and ``records/`` looked through once for records
        the ledger lacks, as every start did before the index). The data folder and ``records/``
        are made private (``0700``), those of an older version too."""
        private_dir(self.data_dir)
        private_dir(self.records)
        if not self.wants_ledger:
            return
        path = self.data_dir / LEDGER_NAME
        if path.exists():
            cut_torn_tail(path)
        self.index, fresh = MatchIndex.open(self.data_dir)
        try:
            checker = LineChecker(self.records, self.registry, False,
                                  named_before=None if fresh else self.index.names_record) if self.verify else None
            if fresh:
                count = self.index.fill(checker, chained=self.verify)
                log.warning("index built from the files", index=str(self.index.path), ledger_lines=count)
            else:
                count = self.index.catch_up(checker, chained=self.verify)
                if count:
                    log.info("index caught up with the ledger", lines=count)
            self.ledger = LedgerWriter(path)
            self._last_ms = self.index.last_finished_ms()
            self._settle()
        except BaseException:
            self.close()
            raise

    def _settle(self) -> None:
        """The ``playing`` rows a kill left: ledger lines for the complete records (then their
        rows), ``aborted`` for the cut ones."""
        assert self.index is not None and self.ledger is not None
        texts, cut = [], []
        for match_id, name, started_ms in self.index.playing():
            path = self.records / name
            try:
                record = read_record(path)
                finished_ms = max(int(path.stat().st_mtime * 1000), self._last_ms)
            except (OSError, ValueError):
                record = None
            if record is None or record.footer is None:
                cut.append(match_id)
                continue
            header, footer = record.header, record.footer
            self._last_ms = finished_ms
            texts.append(self.ledger.text(ledger_line(
                match_id, header.get("game", ""), header.get("ruleset", ""), header.get("roles") or {},
                footer, name, record_digest(path), started_ms, finished_ms)))
        if cut:
            log.warning("matches cut by a kill marked aborted (their records have no outcome line)", count=len(cut))
            self.index.abort(cut)
        if texts:
            log.warning("finished records added to the ledger", count=len(texts))
            self.ledger.append("".join(texts))
            self.index.catch_up(None, at_start=False)

    def close(self) -> None:
        if self.ledger is not None:
            self.ledger.close()
            self.ledger = None
        if self.index is not None:
            self.index.close()
            self.index = None

    # -- as matches start and finish ---------------------------------------------------------------

    async def begin(self, match_id: str, game: str, ruleset: str, seats: dict[str, str], record: Path) -> None:
        """A match starts (before its record's first line): its ``playing`` row, so that a start
        after a kill finds its record without looking through ``records/``. An index that cannot
        be written is logged; the match is played all the same."""
        self._started[match_id] = started = _now_ms()
        if self.index is None:
            return
        async with self.lock:
            try:
                await trio.to_thread.run_sync(self.index.begin, match_id, game, ruleset, seats, record.name, started)
            except StorageError as exc:
                log.error("could not index the match's start", match=match_id, error=str(exc))

    async def add(self, summary: pb.MatchSummary, record: Path | None, faults: dict[str, Any]) -> None:
        """A match is over and its record closed: its ledger line (fsync'd), then its index row.
        The index row of a line that could not be indexed (a full disk) comes with the next
        match's, or at the next start: the index only ever lags the ledger."""
        started = self._started.pop(summary.match_id, None)
        if self.index is None or self.ledger is None:
            summary.finished_ms = _now_ms()
            self.recent.add(summary)
            return
        if record is None:
            return
        async with self.lock:
            await trio.to_thread.run_sync(self._write, summary, record.name, faults, started)

    def _write(self, summary: pb.MatchSummary, name: str, faults: dict[str, Any], started: int | None) -> None:
        """In a worker thread, under the lock: the ledger line, then the index catches up."""
        assert self.index is not None and self.ledger is not None
        finished = max(_now_ms(), self._last_ms)  # a wall clock set back does not reorder the ledger
        seats = {s.role: s.bot for s in summary.seats}
        result = summary.result
        footer = {"winner": result.winner or None, "scores": {s.role: s.score for s in result.scores},
                  "termination": result.termination, "reason": result.reason, "faults": faults}
        prev = self.ledger.prev
        text = self.ledger.text(ledger_line(summary.match_id, summary.game, summary.ruleset, seats, footer, name,
                                             record_digest(self.records / name), started, finished))
        try:
            self.ledger.append(text)
        except BaseException:
            self.ledger.prev = prev  # not written: the next line chains to the last one that was
            raise
        self._last_ms = finished
        try:
            self.index.catch_up(None, at_start=False)
        except (StorageError, VerifyError) as exc:
            log.error("the index lags the ledger (caught up at the next match or start)", error=str(exc))

    # -- look-ups ----------------------------------------------------------------------------------

    def page(self, filters: Filters, page_token: str, limit: int) -> tuple[list[pb.MatchSummary], str]:
        return self.store.page(filters, page_token, limit)

    def get(self, match_id: str) -> pb.MatchSummary | None:
        return self.store.get(match_id)

    def has(self, match_id: str) -> bool:
        """Whether ``match_id`` is a finished match (for a tournament's referee: one this
        process finished, of the last ones)."""
        return self.store.has(match_id)

    def standings(self, game: str) -> list[pb.BotStanding]:
        return self.store.standings(game)

    def record_text(self, match_id: str) -> str | None:
        """The record of the finished match ``match_id``, or None. The caller refuses a match
        still being played first. With an index: the record its row names. A tournament's
        referee: ``records/<match_id>.jsonl`` if it has its outcome line (its matches are over;
        the run's own records are its results' truth, served as they are)."""
        if self.index is not None:
            name = self.index.record_of(match_id)
            if name is None:
                return None
            path = self.records / name
        else:
            path = self.records / f"{Path(match_id).name}.jsonl"
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        if self.index is None and not _has_outcome(text):
            return None
        return text


def ledger_line(match_id: str, game: str, ruleset: str, seats: dict[str, str], footer: dict[str, Any], name: str,
                 digest: str, started_ms: int | None, finished_ms: int) -> dict[str, Any]:
    """A server ledger line (:mod:`.ledger` adds ``prev``). ``started_ms``/``finished_ms``: the
    wall-clock ms the match started (absent if unknown) and its line was written."""
    line = {
        "match_id": match_id, "game": game, "ruleset": ruleset, "seats": dict(seats),
        "winner": footer.get("winner") or None, "scores": dict(footer.get("scores") or {}),
        "termination": footer.get("termination", ""), "reason": footer.get("reason", ""),
        "faults": footer.get("faults") or {}, "records": {name: digest}, "finished_ms": finished_ms,
    }
    if started_ms is not None:
        line["started_ms"] = started_ms
    return line


def _has_outcome(text: str) -> bool:
    """Whether a record's last line is its outcome line (the match is over)."""
    last = text.rstrip("\n").rpartition("\n")[2]
    try:
        return json.loads(last).get("type") == "outcome"
    except (ValueError, AttributeError):
        return False
