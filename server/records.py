"""Record files: one JSONL file per match, appended line by line (each line flushed to the file as it
is written, so that a reader sees the match as it goes), fsync'd at match end.

A record is private (mode ``0600``, :mod:`.private_files`): its header carries the match seed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

from .core.record import Record, ReplayError, dump_line, parse_record
from .private_files import open_private, private_dir


class RecordWriter:
    """Appends a record to ``path`` as the match goes: header first, then each decision, then the
    outcome. Each line is handed to the operating system as it is written (flushed, not fsync'd):
    a process that dies mid-match (a tournament worker killed, a server crash) leaves every
    decision played in the file, for the outcome line written after it (issue 44). ``close()``
    fsyncs: the record is on the disk once the match is over. Usable as a context manager.

    The file is private (``0600`` whatever the umask, an existing one too); missing folders are
    made ``0700``, an existing folder keeps its mode (it may be one the user named: the folders
    of a server or a run are made private by their owners, :class:`~.archive.Archive` and the
    tournament runner)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if self.path.parent != Path(""):
            private_dir(self.path.parent, tighten=False)
        self._file: IO[str] | None = open_private(self.path, "w")

    def write(self, line: dict[str, Any]) -> None:
        assert self._file is not None, "record already closed"
        self._file.write(dump_line(line) + "\n")
        # Flushed (not fsync'd) line by line: a live board (the web face) replays what was played
        # so far, and a process that dies keeps the lines it wrote (a worker's death: the
        # coordinator keeps them, tournaments/dispatch.py).
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RecordFile:
    """A record file opened by its first line: pass it as a match driver's ``on_line``. A match
    that never begins writes nothing until its outcome (then header and outcome line)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.writer: RecordWriter | None = None

    def __call__(self, line: dict[str, Any]) -> None:
        if self.writer is None:
            self.writer = RecordWriter(self.path)
        self.writer.write(line)

    def close(self) -> None:
        """Flush and fsync (if anything was written)."""
        if self.writer is not None:
            self.writer.close()


def write_record(path: str | os.PathLike[str], record: Record) -> None:
    with RecordWriter(path) as writer:
        writer.write(record.header)
        for move in record.moves:
            writer.write(move)
        if record.footer is not None:
            writer.write(record.footer)


def read_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file; raise :class:`ReplayError` (or ``OSError``) with a clear message."""
    with open(path, encoding="utf-8") as file:
        try:
            return parse_record(file)
        except ReplayError as exc:
            raise ReplayError(f"{path}: {exc}") from None


def cut_torn_tail(path: str | os.PathLike[str]) -> None:
    """Cut a line a crash left half-written at the end of an append-only JSONL file. Reads only
    the file's end (a ledger of a million lines is not read whole at every start)."""
    with open(path, "r+b") as file:
        end = file.seek(0, os.SEEK_END)
        if not end:
            return
        file.seek(end - 1)
        if file.read(1) == b"\n":
            return
        keep = _last_newline_end(file, end)
        file.truncate(keep)
        file.flush()
        os.fsync(file.fileno())


def _last_newline_end(file: Any, end: int, block: int = 1 << 16) -> int:
    """The offset just past the last ``\\n`` before ``end`` in the binary ``file`` (0 if none),
    reading backwards a block at a time."""
    position = end
    while position > 0:
        start = max(0, position - block)
        file.seek(start)
        chunk = file.read(position - start)
        found = chunk.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        position = start
    return 0
