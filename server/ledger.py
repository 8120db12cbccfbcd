"""Tamper-evident result files: every line carries the digests of its match records and the
SHA-256 of the line before it (a hash chain).

A tournament's ``results.jsonl`` and a server's ``matches.jsonl`` are *ledgers*: JSON lines
appended in order, each with

* ``records``: ``{file name: digest}`` of the record files in ``records/`` the line stands on
  (:func:`record_digest`);
* ``prev``: the SHA-256 (hex) of the previous line's text (without its newline), or
  :data:`GENESIS` for the first line.

Editing one line (a winner, a score) changes its digest, so the next line's ``prev`` no longer
matches; editing a record changes its digest. ``standoff verify`` (:mod:`standoff.server.verify`)
checks both, and replays every record against its line. What the chain cannot show: lines cut
off the *end* of the file (compare the count with the schedule), and an editor who rewrites the
whole chain after the edited line (there is no secret key: this is evidence against accidents
and casual edits, not a signature).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .private_files import open_private

#: ``prev`` of the first line.
GENESIS = "0" * 64
#: Record fields that vary from run to run (wall-clock measurements) and are left out of a
#: record's digest, so that the same match gives the same digest, and the same results file, on
#: every run.
TIMING_FIELDS = frozenset({"think_ms", "elapsed_ms", "rtt_ms"})


class LedgerError(ValueError):
    """A ledger or record that fails a check; the message names the file and line."""


def _object(text: str, path: Any, number: int) -> dict[str, Any]:
    """One JSON-object line of ``path``; :class:`LedgerError` naming it otherwise."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LedgerError(f"{path}: line {number} is not JSON ({exc.msg})") from None
    if not isinstance(obj, dict):
        raise LedgerError(f"{path}: line {number} is not a JSON object")
    return obj


def line_digest(text: str) -> str:
    """The SHA-256 of one ledger line's text (without the newline)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_digest(path: str | os.PathLike[str]) -> str:
    """The digest of a record file: SHA-256 over its lines with :data:`TIMING_FIELDS` removed,
    each line re-encoded with sorted keys (so the digest is of the record's content, not of its
    bytes' formatting). Raises ``OSError`` or :class:`LedgerError` (not a record)."""
    digest = hashlib.sha256()
    with open(path, encoding="utf-8") as file:
        for number, raw in enumerate(file, start=1):
            if not raw.strip():
                continue
            obj = _object(raw, path, number)
            for key in TIMING_FIELDS & obj.keys():
                del obj[key]
            digest.update(json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
            digest.update(b"\n")
    return digest.hexdigest()


def digests(records_dir: Path, names: Iterable[str]) -> dict[str, str]:
    """``{name: record_digest}`` for record files of ``records_dir`` (sorted by name)."""
    return {name: record_digest(records_dir / name) for name in sorted(names)}


def chain_text(line: dict[str, Any], prev: str) -> str:
    """The text of a ledger line: ``line`` with ``prev`` added, keys sorted."""
    return json.dumps({**line, "prev": prev}, sort_keys=True)


def last_line(path: Path) -> tuple[str, int] | None:
    """The last complete (newline-ended), non-blank line of ``path`` without its newline, and the
    offset just past that newline; None if there is none. Reads only the file's end, whatever
    its length (a ledger of a million lines is not read whole at every start)."""
    if not path.exists():
        return None
    with open(path, "rb") as file:
        end = file.seek(0, os.SEEK_END)
        size = 1 << 14
        while True:
            start = max(0, end - size)
            file.seek(start)
            data = file.read(end - start)
            pos = data.rfind(b"\n") + 1  # past the last newline: a torn tail is not a line
            while pos > 0:
                newline = data.rfind(b"\n", 0, pos - 1)  # the one before the line ending at pos
                if newline < 0 and start > 0:
                    break  # the line may begin before the block: read a larger one
                raw = data[newline + 1:pos - 1]
                if raw.strip():
                    return raw.decode("utf-8"), start + pos
                pos = newline + 1
            if start == 0:
                return None
            size *= 4


def last_digest(path: Path) -> str:
    """The digest of the last complete line of ledger ``path`` (:data:`GENESIS` if none)."""
    last = last_line(path)
    return line_digest(last[0]) if last else GENESIS


def read_chain(path: Path, *, start: ChainPoint | None = None,
               chained: bool = True) -> Iterator[tuple[int, dict[str, Any]]]:
    """The lines of ledger ``path`` as ``(line number, object)``, checking the chain as it goes;
    raises :class:`LedgerError` naming the first line that breaks it. A torn last line (no
    newline: a write cut by a crash) is skipped, as a resume cuts it.

    ``start``: go on from a point checked earlier (an index's last line, :class:`ChainPoint`)
    instead of the first line: only the lines after it are read and checked, the first of them
    against ``start.digest``. What lies before is taken as checked then (``standoff verify``
    reads from the first line). ``chained=False`` (``--no-verify``): the same lines, ``prev`` not
    looked at."""
    point = start or ChainPoint()
    prev, number = point.digest, point.line
    with open(path, encoding="utf-8", newline="\n") as file:
        file.seek(point.offset)
        for raw in file:
            number += 1
            if not raw.endswith("\n"):
                return  # torn tail
            text = raw[:-1]
            if not text.strip():
                continue
            obj = _object(text, path, number)
            if not chained:
                yield number, obj
                continue
            if "prev" not in obj:
                raise LedgerError(
                    f"{path}: line {number} has no 'prev' digest (written by a version without "
                    "tamper-evident results; pass --no-verify to read it anyway)"
                )
            if obj["prev"] != prev:
                raise LedgerError(
                    f"{path}: line {number} does not follow line {number - 1}: the chain is broken "
                    f"(line {number - 1} was edited, or a line was removed or inserted)"
                    if number > 1 else f"{path}: line 1 does not start the chain (edited?)"
                )
            prev = line_digest(text)
            yield number, obj


@dataclass(frozen=True)
class ChainPoint:
    """A point of a ledger checked up to: the number of lines before it (``line``), the byte
    offset just past them (``offset``) and the digest of the last of them (``digest``;
    :data:`GENESIS` at the start). An index keeps one so that a start reads only what was
    appended since."""

    line: int = 0
    offset: int = 0
    digest: str = GENESIS

    def still_there(self, path: Path) -> bool:
        """Whether ``path`` still has, just before ``offset``, a line whose digest is ``digest``
        (the file was not cut or rewritten at that point; lines before it are not re-read)."""
        if self.offset == 0:
            return True
        try:
            with open(path, "rb") as file:
                if file.seek(0, os.SEEK_END) < self.offset:
                    return False
                back = min(self.offset, 1 << 16)
                while True:
                    file.seek(self.offset - back)
                    data = file.read(back)
                    if not data.endswith(b"\n"):
                        return False
                    body = data[:-1]
                    cut = body.rfind(b"\n")
                    if cut >= 0 or back == self.offset:
                        return line_digest(body[cut + 1:].decode("utf-8")) == self.digest
                    back = min(self.offset, back * 4)
        except (OSError, UnicodeDecodeError):
            return False


class LedgerWriter:
    """Appends chained lines to a ledger; ``prev`` continues from the file's last line. The
    file is private (``0600``; one an older version left readable is set so when opened)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.prev = last_digest(path)
        self._file = open_private(path, "a")

    def text(self, line: dict[str, Any]) -> str:
        """The next line's text (with its newline); advances the chain."""
        text = chain_text(line, self.prev)
        self.prev = line_digest(text)
        return text + "\n"

    def append(self, text: str) -> None:
        """Write lines made by :meth:`text` and make them durable."""
        self._file.write(text)
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


__all__ = [
    "ChainPoint", "GENESIS", "LedgerError", "LedgerWriter", "TIMING_FIELDS", "chain_text", "digests", "last_digest", "last_line",
    "line_digest", "read_chain", "record_digest",
]
