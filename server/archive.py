"""Finished matches of a referee: their summaries (rebuilt from the records at start, never a
mutable store) and the server's ledger (``matches.jsonl``, :mod:`.ledger`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import structlog
import trio

from standoff.v1 import referee_pb2 as pb

from .ledger import LedgerWriter, read_chain, record_digest
from .private_files import private_dir
from .records import cut_torn_tail, read_record
from .verify import verify_folder

log = structlog.get_logger("standoff.referee")

#: A server's ledger (in its data folder): one chained line per finished match.
LEDGER_NAME = "matches.jsonl"


class Archive:
    """What a referee keeps of its finished matches. ``ledger``: keep ``matches.jsonl`` (a
    tournament's referee does not: the run's results are its ledger); ``verify``: check it at
    start (:func:`standoff.server.verify.verify_folder`, which raises ``VerifyError``)."""

    def __init__(self, data_dir: Path, registry: Any, *, ledger: bool = True, verify: bool = True) -> None:
        self.data_dir = data_dir
        self.registry = registry
        self.wants_ledger, self.verify = ledger, verify
        self.ledger: LedgerWriter | None = None
        self.lock = trio.Lock()  # ledger lines are chained: one writer at a time, in finishing order
        self.finished: list[pb.MatchSummary] = []
        self.finished_ids: set[str] = set()

    @property
    def records(self) -> Path:
        return self.data_dir / "records"

    # -- at start ----------------------------------------------------------------------------------

    def load(self) -> None:
        """Finished matches of earlier runs, from their records. With a ledger, a finished record
        it lacks (the server was killed between the two writes) gets its line now. The data folder
        and ``records/`` are made private (``0700``), those of an older version too."""
        private_dir(self.data_dir)
        private_dir(self.records)
        named = self._open_ledger() if self.wants_ledger else set()
        missing: list[str] = []
        for path in sorted(self.records.glob("*.jsonl")):
            try:
                record = read_record(path)
            except (OSError, ValueError) as exc:
                log.warning("unreadable record skipped", path=str(path), error=str(exc))
                continue
            footer = record.footer
            if footer is None:
                continue
            summary = _summary(record.header, footer, path.stem)
            self.finished.append(summary)
            self.finished_ids.add(summary.match_id)
            if self.ledger is not None and path.name not in named:
                missing.append(self._ledger_text(summary, path.name, footer.get("faults") or {}))
        if missing:
            log.warning("finished records added to the ledger", count=len(missing))
            self.ledger.append("".join(missing))

    def _open_ledger(self) -> set[str]:
        """Open ``matches.jsonl`` (checked first unless ``verify`` is off: its chain, and every
        record it names against its digest and line); returns the record names it has."""
        path = self.data_dir / LEDGER_NAME
        if path.exists():
            cut_torn_tail(path)
            if self.verify:
                verify_folder(self.data_dir, registry=self.registry, replay_records=False)
        named = {name for _, line in read_chain(path) for name in line.get("records", {})} if path.exists() else set()
        self.ledger = LedgerWriter(path)
        return named

    # -- as matches finish -------------------------------------------------------------------------

    async def add(self, summary: pb.MatchSummary, record: Path | None, faults: dict[str, Any]) -> None:
        """A match is over and its record closed: its ledger line (fsync'd), then it is listed."""
        if self.ledger is not None and record is not None:
            async with self.lock:
                text = self._ledger_text(summary, record.name, faults)
                await trio.to_thread.run_sync(self.ledger.append, text)
        self.finished.append(summary)
        self.finished_ids.add(summary.match_id)

    def _ledger_text(self, summary: pb.MatchSummary, name: str, faults: dict[str, Any]) -> str:
        assert self.ledger is not None
        result = summary.result
        line = {
            "match_id": summary.match_id, "game": summary.game, "ruleset": summary.ruleset,
            "seats": {s.role: s.bot for s in summary.seats}, "winner": result.winner or None,
            "scores": {s.role: s.score for s in result.scores}, "termination": result.termination,
            "reason": result.reason, "faults": faults,
            "records": {name: record_digest(self.records / name)},
        }
        return self.ledger.text(line)


def _summary(header: dict[str, Any], footer: dict[str, Any], stem: str) -> pb.MatchSummary:
    summary = pb.MatchSummary(
        match_id=header.get("match_id") or stem,
        game=header.get("game", ""),
        ruleset=header.get("ruleset", ""),
        status=pb.MATCH_STATUS_FINISHED,
        seed=int(header.get("seed", 0)),
    )
    for role, bot in header.get("roles", {}).items():
        summary.seats.add(role=role, bot=bot)
    result = summary.result
    result.match_id = summary.match_id
    result.winner = footer.get("winner") or ""
    for role, score in (footer.get("scores") or {}).items():
        result.scores.add(role=role, score=score)
    result.termination = footer.get("termination", "")
    result.reason = footer.get("reason", "")
    return summary
