"""A run folder's index (``<run>/index.sqlite``): what a tournament or ladder looks up, in time
independent of the length of its history.

The run's truth stays in its files: ``results.jsonl`` (the hash-chained ledger,
:mod:`standoff.server.ledger`) and ``records/``. The index (:mod:`standoff.server.storage`, kind
``run``, version 1; the tables in ``docs/storage.md, "A run folder"``) holds a row per result and the sums
``ratings.json`` is made of (:mod:`.aggregates`), the current Elo of every entrant, and where it
stands in the files: the ChainPoint of ``results.jsonl`` it holds up to (``results_point``) and of
``elo.jsonl`` (``elo_point``).

**Written in the same step as the files**, under the index's write lock (``BEGIN IMMEDIATE``):
the results lines are appended and fsync'd, then their ``elo.jsonl`` lines, then the rows are
committed (:meth:`RunIndex.add`). A kill leaves the index behind the files, never ahead.

**Repaired from the files at every open** (:meth:`RunIndex.open`), never the other way round:

* the lines after ``results_point`` are indexed (a kill between the append and the commit);
* ``elo.jsonl`` is cut back to ``elo_point`` (lines of results whose rows a kill cut off), then
  appended for the lines caught up; a file that no longer holds ``elo_point`` (edited, cut, lost),
  an Elo ``k``/``start`` changed, or results out of canonical order: rewritten from the rows;
* no index (a run folder written before it), or one of an older version: built from the files.

**What an open checks** (``verify``, the default): the chain from ``results_point`` on
(:func:`~standoff.server.ledger.read_chain`), and every record the new lines name
(:class:`~standoff.server.verify.LineChecker`: exists, named once, its digest, its outcome);
that ``results_point`` is still in the file (else the file was cut or rewritten: refused,
:class:`~standoff.server.verify.VerifyError` naming the first bad line if a full check finds one);
and a ``results.jsonl`` of the same length but written since the index last saw it (changed in
place) is checked whole. **What only ``standoff verify`` checks**: the records of lines indexed
earlier (an edited old record), an edit of old lines that also appends, and the replay of every
record by the rules. Without ``verify`` (``--no-verify``) nothing is checked, lines are only
parsed, a file that no longer holds the point is indexed again, and the index is marked
unchecked: the next open with ``verify`` rebuilds it, checking everything.

Bad index files (corrupt, of another kind, of a newer version, in a read-only folder, on a full
disk) raise :class:`~standoff.server.storage.StorageError` (one line naming the file);
:func:`rebuild` (``standoff reindex``) moves a bad file aside and builds a fresh one.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..server.ledger import ChainPoint, LedgerError, line_digest, read_chain
from ..server.storage import (COMPANIONS, Schema, StorageError, errors_as_storage, get_meta, index_path, move_aside,
                              open_index, set_meta, transaction)
from ..server.verify import LineChecker, VerifyError, verify_folder
from .aggregates import Aggregates, leg_of, pair_total
from .elo_file import EloFile, elo_step
from .errors import RunError
from .model import Result
from .report import ELO_FILE, RESULTS_FILE, _snippet, elo_text, ratings_from_aggregates, result_of

__all__ = ["SCHEMA", "RunIndex", "rebuild", "ratings_from_index", "remove"]

SCHEMA = Schema("run", 1, """
CREATE TABLE results (
    idx INTEGER PRIMARY KEY, match_id TEXT NOT NULL UNIQUE, round INTEGER NOT NULL, pair INTEGER,
    leg INTEGER NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, played INTEGER NOT NULL,
    winner TEXT, winner_role TEXT, scores TEXT NOT NULL, termination TEXT NOT NULL, reason TEXT NOT NULL,
    faults TEXT NOT NULL, fallbacks TEXT NOT NULL, games TEXT NOT NULL, records TEXT NOT NULL,
    line INTEGER NOT NULL);
CREATE INDEX results_round ON results (round);
CREATE INDEX results_pair ON results (pair) WHERE pair IS NOT NULL;
CREATE INDEX results_error ON results (idx) WHERE termination = 'error';
CREATE TABLE records (name TEXT PRIMARY KEY, match_id TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE pairs (a TEXT NOT NULL, b TEXT NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL,
    losses INTEGER NOT NULL, PRIMARY KEY (a, b));
CREATE TABLE pentanomial (a TEXT NOT NULL, b TEXT NOT NULL, ll INTEGER NOT NULL, ld INTEGER NOT NULL,
    wl_dd INTEGER NOT NULL, wd INTEGER NOT NULL, ww INTEGER NOT NULL, PRIMARY KEY (a, b));
CREATE TABLE paired_legs (pair INTEGER PRIMARY KEY, legs INTEGER NOT NULL, a TEXT, b TEXT, total REAL);
CREATE TABLE entrants (name TEXT PRIMARY KEY, seated INTEGER NOT NULL DEFAULT 0,
    faulted INTEGER NOT NULL DEFAULT 0, fallbacks INTEGER, elo REAL);
CREATE TABLE faults (name TEXT NOT NULL, kind TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (name, kind));
CREATE TABLE terminations (termination TEXT PRIMARY KEY, count INTEGER NOT NULL);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)
""")

#: The tables holding data (all but ``meta``), emptied for a rebuild.
_TABLES = ("results", "records", "pairs", "pentanomial", "paired_legs", "entrants", "faults", "terminations",
           "counters")
#: Lines indexed per transaction when catching up (a kill mid-build keeps what was committed).
BATCH = 2000
_COLUMNS = ("match_id, idx, round, pair, leg, seed, seats, played, winner, winner_role, scores, termination, "
            "reason, faults, fallbacks, games, records, line")
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _point(text: str | None) -> ChainPoint:
    return ChainPoint(**json.loads(text)) if text else ChainPoint()


def _point_text(point: ChainPoint) -> str:
    return json.dumps({"line": point.line, "offset": point.offset, "digest": point.digest}, sort_keys=True)


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _storage(path: Path, exc: sqlite3.Error) -> StorageError:
    """SQLite's error as :mod:`.storage` words it (one line naming the index file)."""
    try:
        with errors_as_storage(path):
            raise exc
    except StorageError as error:
        return error
    return StorageError(f"{path}: {exc}")  # pragma: no cover - errors_as_storage always converts


def _row_result(row: sqlite3.Row | tuple) -> Result:
    (match_id, idx, number, pair, leg, seed, seats, played, winner, winner_role, scores, termination, reason,
     faults, fallbacks, games, records, _line) = row
    return Result(index=idx, match_id=match_id, round=number, seed=seed, seats=json.loads(seats), played=bool(played),
                  winner=winner, winner_role=winner_role, scores=json.loads(scores), termination=termination,
                  reason=reason, faults=json.loads(faults), pair=pair, leg=leg, games=json.loads(games),
                  records=json.loads(records), fallbacks=json.loads(fallbacks))


def _sql_errors(method: Callable[..., Any]) -> Callable[..., Any]:
    """A query method whose SQLite errors (a damaged page read now, a lock held too long) are
    :class:`StorageError`, one line naming the index file."""
    @functools.wraps(method)
    def wrapper(self: RunIndex, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise _storage(self.path, exc) from None
    return wrapper


def _config_elo(folder: Path) -> tuple[float, float]:
    """The Elo ``k`` and ``start`` of the run's config.json (32 and 1500 without one)."""
    try:
        elo = json.loads((folder / "config.json").read_text(encoding="utf-8")).get("elo") or {}
        return float(elo.get("k", 32.0)), float(elo.get("start", 1500.0))
    except (OSError, ValueError, AttributeError, TypeError):
        return 32.0, 1500.0


class RunIndex:
    """An open run index (see the module docstring). Made by :meth:`open`; :meth:`close` it."""

    def __init__(self, folder: Path, conn: sqlite3.Connection) -> None:
        self.folder = folder
        self.path = index_path(folder)
        self.ledger = folder / RESULTS_FILE
        self.conn = conn
        self.elo_file = EloFile(folder / ELO_FILE)
        self.elo: dict[str, float] = {}  # the current Elo of every entrant that played (unrounded)
        self.k, self.start = 32.0, 1500.0
        self.verify = True
        self.registry: Any = None

    # -- opening and catching up ------------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | os.PathLike[str], *, verify: bool = True, elo: tuple[float, float] | None = None,
             registry: Any = None) -> RunIndex:
        """Open (or build) the index of the run folder ``folder`` and catch it up with the files
        (see the module docstring for what is checked and repaired). ``elo``: the run's Elo
        ``(k, start)``; when they differ from those the log was written with, it is rewritten
        (default: as before; for a new index, the folder's config.json). Raises
        :class:`~standoff.server.verify.VerifyError` (files changed), :class:`RunError` (a line
        that is not a result, a match id twice with different results) or
        :class:`~standoff.server.storage.StorageError`."""
        folder = Path(folder)
        path = index_path(folder)
        conn, fresh = open_index(path, SCHEMA)
        index = cls(folder, conn)
        index.verify, index.registry = verify, registry
        try:
            index._open(fresh, elo)
        except sqlite3.Error as exc:
            conn.close()
            raise _storage(path, exc) from None
        except BaseException:
            conn.close()
            raise
        return index

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> RunIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self, fresh: bool, elo: tuple[float, float] | None) -> None:
        with transaction(self.conn):  # the write lock: a run writing meanwhile waits (and we for it)
            if fresh:
                self._reset(elo or _config_elo(self.folder))
            elif self.verify and get_meta(self.conn, "checked") == "0":  # indexed unchecked: now checked
                self._reset(self._elo_meta())
            else:
                self._check_point()
            self.k, self.start = float(get_meta(self.conn, "elo_k")), float(get_meta(self.conn, "elo_start"))
            rewrite = get_meta(self.conn, "elo_dirty") == "1"  # a rewrite a kill cut short
            if elo is not None and (float(elo[0]), float(elo[1])) != (self.k, self.start):
                self.k, self.start = float(elo[0]), float(elo[1])  # an execution key: the log follows it
                set_meta(self.conn, "elo_k", repr(self.k))
                set_meta(self.conn, "elo_start", repr(self.start))
                rewrite = True
            point = _point(get_meta(self.conn, "elo_point"))
            seen, now = json.loads(get_meta(self.conn, "elo_stat") or "null"), self.elo_file.stat()
            edited = bool(seen and now and now[0] == seen[0] and now[1] != seen[1])  # same length, written since
            if not rewrite and not edited and self.elo_file.has(point):
                self.elo_file.cut(point.offset)
                set_meta(self.conn, "elo_stat", json.dumps(self.elo_file.stat()))
            else:
                rewrite = True
            self.elo = dict(self.conn.execute("SELECT name, elo FROM entrants WHERE elo IS NOT NULL"))
            set_meta(self.conn, "elo_dirty", "1" if rewrite else "0")
        while self._catch_up():
            pass
        if get_meta(self.conn, "elo_dirty") == "1":
            self._rewrite_elo()
        with transaction(self.conn):
            self._record_stat()

    def _reset(self, elo: tuple[float, float]) -> None:
        """Empty the index (to be filled from the files)."""
        for table in _TABLES:
            self.conn.execute(f"DELETE FROM {table}")
        set_meta(self.conn, "results_point", _point_text(ChainPoint()))
        set_meta(self.conn, "elo_point", _point_text(ChainPoint()))
        set_meta(self.conn, "results_stat", "")
        set_meta(self.conn, "elo_stat", "")
        set_meta(self.conn, "elo_k", repr(float(elo[0])))
        set_meta(self.conn, "elo_start", repr(float(elo[1])))
        set_meta(self.conn, "checked", "1" if self.verify else "0")
        set_meta(self.conn, "max_idx", "")
        # elo.jsonl is written again once the rows are there, replacing the old one at once (an
        # open that fails on the way leaves the one there was)
        set_meta(self.conn, "elo_dirty", "1")

    def _check_point(self) -> None:
        """Is the file still the one indexed up to ``results_point``? (See the module docstring.)"""
        point = self.point()
        if not self.ledger.exists():
            if point.line == 0:
                return
            problem = f"{self.ledger}: missing, but the index holds {point.line} lines of it"
        elif not point.still_there(self.ledger):
            problem = (f"{self.ledger}: not the file this index was built from (line {point.line} is no longer "
                       "where it was: lines cut off the end, or the file rewritten)")
        else:
            stat = os.stat(self.ledger)
            seen = json.loads(get_meta(self.conn, "results_stat") or "null")
            if not seen or stat.st_size != seen[0] or stat.st_mtime_ns == seen[1]:
                return  # as it was, or lines appended: caught up next
            if not self.verify:  # written in place, not checked: indexed again
                self._reset(self._elo_meta())
                return
            self._full_check()  # the chain up to the point holds: the lines indexed are the file's
            return
        if not self.verify:
            self._reset(self._elo_meta())
            return
        if self.ledger.exists():
            self._full_check()
        raise VerifyError(f"{problem}; `standoff verify {self.folder}` checks the files, "
                          f"`standoff reindex {self.folder}` indexes them as they are")

    def _elo_meta(self) -> tuple[float, float]:
        """The Elo log's ``(k, start)`` the index has."""
        return float(get_meta(self.conn, "elo_k") or 32.0), float(get_meta(self.conn, "elo_start") or 1500.0)

    def _full_check(self) -> None:
        """The chain and every record of the whole file (what a resume checked before the index)."""
        verify_folder(self.folder, registry=self.registry, replay_records=False)

    def _lines(self, point: ChainPoint) -> Iterator[tuple[int, str, int, Result]]:
        """The complete lines after ``point``: ``(number, text, offset past it, result)``. With
        ``verify``, the chain is checked (from the point) and every record the lines name."""
        if not self.ledger.exists():
            return
        chain = read_chain(self.ledger, start=point) if self.verify else None
        checker = LineChecker(self.folder / "records", self.registry, named_before=self._named) if self.verify else None
        number, offset = point.line, point.offset
        with open(self.ledger, "rb") as file:
            file.seek(offset)
            for raw in file:
                number += 1
                if not raw.endswith(b"\n"):
                    return  # a torn tail (a kill mid-write): not a line yet
                offset += len(raw)
                body = raw[:-1]
                if not body.strip():
                    continue
                if chain is not None and checker is not None:
                    try:
                        checked, obj = next(chain)
                    except (LedgerError, ValueError) as exc:
                        raise VerifyError(str(exc)) from None
                    assert checked == number, (checked, number)
                    checker.check(self.ledger, number, obj)
                    try:
                        result = result_of(obj)
                    except ValueError as exc:
                        raise VerifyError(f"{self.ledger}: line {number}: {exc}") from None
                else:
                    try:
                        result = result_of(json.loads(body.decode("utf-8")))
                    except (ValueError, UnicodeDecodeError) as exc:
                        raise RunError(f"{self.ledger}: line {number}: invalid result line {_snippet(body)!r}: "
                                       f"{exc}") from None
                yield number, body.decode("utf-8"), offset, result

    def _named(self, name: str) -> bool:
        return self.conn.execute("SELECT 1 FROM records WHERE name = ?", (name,)).fetchone() is not None

    def _catch_up(self) -> bool:
        """Index up to :data:`BATCH` lines after ``results_point`` in one transaction; whether
        there were any."""
        with transaction(self.conn):
            point = self.point()  # re-read under the lock: another process may have gone on
            items = []
            for item in self._lines(point):
                items.append(item)
                if len(items) >= BATCH:
                    break
            if not items:
                return False
            number, text, offset, _ = items[-1]
            if not self.verify:
                set_meta(self.conn, "checked", "0")
            self._store([(n, r) for n, _, _, r in items], ChainPoint(number, offset, line_digest(text)))
        return True

    # -- writing -----------------------------------------------------------------------------------

    def add(self, results: list[Result], text: str, append: Callable[[str], None], elo_lines: str) -> None:
        """The run's write step for ``results`` (in canonical order), under the write lock:
        ``append(text)`` (their results lines: appended and made durable by the caller's
        ledger writer), then their ``elo.jsonl`` lines ``elo_lines`` (from :meth:`elo_step`),
        then their rows, committed together."""
        try:
            with transaction(self.conn):
                point = self.point()
                append(text)
                last = text[:-1].rsplit("\n", 1)[-1]
                after = ChainPoint(point.line + text.count("\n"), point.offset + len(text.encode("utf-8")),
                                   line_digest(last))
                self._store([(point.line + 1 + i, r) for i, r in enumerate(results)], after, elo_lines)
        except sqlite3.Error as exc:
            raise _storage(self.path, exc) from None

    def elo_step(self, result: Result) -> str:
        """``result``'s elo.jsonl text, from the current ratings (which it updates)."""
        return elo_text(elo_step(self.elo, result, self.k, self.start))

    def _store(self, numbered: list[tuple[int, Result]], point: ChainPoint, elo_lines: str | None = None) -> None:
        """Rows and sums for ``numbered`` (line number, result), the elo.jsonl lines (computed
        here when ``elo_lines`` is None) and the new points; inside a transaction."""
        delta = Aggregates()
        max_idx = get_meta(self.conn, "max_idx")
        top = int(max_idx) if max_idx else None
        dirty = get_meta(self.conn, "elo_dirty") == "1"
        computed = []
        for number, result in numbered:
            if not self._insert(number, result, delta):
                continue
            if top is not None and result.index < top:
                dirty = True  # out of canonical order: the log is rewritten in order
            top = result.index if top is None else max(top, result.index)
            if elo_lines is None and not dirty:
                computed.append(self.elo_step(result))
        self._apply(delta)
        set_meta(self.conn, "max_idx", "" if top is None else str(top))
        if dirty:
            set_meta(self.conn, "elo_dirty", "1")
        else:
            elo_point = self.elo_file.append("".join(computed) if elo_lines is None else elo_lines,
                                             _point(get_meta(self.conn, "elo_point")))
            set_meta(self.conn, "elo_point", _point_text(elo_point))
            set_meta(self.conn, "elo_stat", json.dumps(self.elo_file.stat()))
            self.conn.executemany(
                "INSERT INTO entrants (name, elo) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET elo = excluded.elo",
                sorted(self.elo.items()))
        set_meta(self.conn, "results_point", _point_text(point))
        self._record_stat()

    def _insert(self, number: int, result: Result, delta: Aggregates) -> bool:
        """Insert ``result`` (line ``number``) and count it into ``delta``; False for a line
        repeating one already indexed (identical: skipped, as :func:`~.report.read_results`
        does). :class:`RunError` for a conflicting repeat or an index used twice."""
        found = self.conn.execute(f"SELECT {_COLUMNS} FROM results WHERE match_id = ?", (result.match_id,)).fetchone()
        if found is not None:
            if _row_result(found).to_json() == result.to_json():
                return False
            raise RunError(f"{self.ledger}: line {number}: match_id {result.match_id!r} conflicts with line "
                           f"{found[-1]} (same match, different result)")
        used = self.conn.execute("SELECT match_id, line FROM results WHERE idx = ?", (result.index,)).fetchone()
        if used is not None:
            raise RunError(f"{self.ledger}: line {number}: index {result.index} of match {result.match_id!r} is "
                           f"already used by match {used[0]!r} on line {used[1]}")
        for field in ("round", "leg", "seed", "pair"):
            value = getattr(result, field)
            if not (value is None and field == "pair") and (
                    not isinstance(value, int) or isinstance(value, bool) or not _INT64[0] <= value <= _INT64[1]):
                raise RunError(f"{self.ledger}: line {number}: {field} must be a whole number, got {value!r}")
        if result.pair is not None:
            legs = [leg_of(r) for r in self.results("pair = ?", (result.pair,))]
            before, after = pair_total(legs), pair_total([*legs, leg_of(result)])
            delta.add_pair_total(before, -1)
            delta.add_pair_total(after)
            a, b, total = after if after is not None else (None, None, None)
            self.conn.execute(
                "INSERT INTO paired_legs (pair, legs, a, b, total) VALUES (?, 1, ?, ?, ?) ON CONFLICT(pair) DO "
                "UPDATE SET legs = legs + 1, a = excluded.a, b = excluded.b, total = excluded.total",
                (result.pair, a, b, total))
        self.conn.execute(
            f"INSERT INTO results ({_COLUMNS}) VALUES ({', '.join('?' * 18)})",
            (result.match_id, result.index, result.round, result.pair, result.leg, result.seed, _dump(result.seats),
             int(bool(result.played)), result.winner, result.winner_role, _dump(result.scores), result.termination,
             result.reason, _dump(result.faults), _dump(result.fallbacks), _dump(result.games),
             _dump(result.records), number))
        self.conn.executemany("INSERT OR IGNORE INTO records (name, match_id) VALUES (?, ?)",
                              [(name, result.match_id) for name in sorted(result.records)])
        delta.add(result)
        return True

    def _apply(self, delta: Aggregates) -> None:
        """Add the sums ``delta`` to the aggregate tables."""
        ex = self.conn.executemany
        ex("INSERT INTO pairs (a, b, wins, draws, losses) VALUES (?, ?, ?, ?, ?) ON CONFLICT(a, b) DO UPDATE SET "
           "wins = wins + excluded.wins, draws = draws + excluded.draws, losses = losses + excluded.losses",
           [(a, b, *counts) for (a, b), counts in sorted(delta.wdl.items())])
        ex("INSERT INTO pentanomial (a, b, ll, ld, wl_dd, wd, ww) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(a, b) DO "
           "UPDATE SET ll = ll + excluded.ll, ld = ld + excluded.ld, wl_dd = wl_dd + excluded.wl_dd, "
           "wd = wd + excluded.wd, ww = ww + excluded.ww",
           [(a, b, *counts) for (a, b), counts in sorted(delta.penta.items())])
        ex("INSERT INTO entrants (name, seated) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET seated = 1",
           [(name,) for name in sorted(delta.seated)])
        ex("INSERT INTO entrants (name, faulted) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET faulted = 1",
           [(name,) for name in sorted(delta.faults)])
        ex("INSERT INTO faults (name, kind, count) VALUES (?, ?, ?) ON CONFLICT(name, kind) DO UPDATE SET "
           "count = count + excluded.count",
           [(name, kind, count) for name, kinds in sorted(delta.faults.items()) for kind, count in sorted(kinds.items())])
        ex("INSERT INTO entrants (name, fallbacks) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET "
           "fallbacks = COALESCE(fallbacks, 0) + excluded.fallbacks", sorted(delta.fallbacks.items()))
        ex("INSERT INTO terminations (termination, count) VALUES (?, ?) ON CONFLICT(termination) DO UPDATE SET "
           "count = count + excluded.count", sorted(delta.terminations.items()))
        ex("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + "
           "excluded.value", [("total", delta.total), ("played", delta.played), ("not_played", delta.not_played),
                              ("error", delta.error), ("games", delta.games)])

    def _rewrite_elo(self) -> None:
        """Write elo.jsonl again from the rows, in canonical order, and the ratings with it."""
        with transaction(self.conn):
            self.elo = {}
            point = self.elo_file.rewrite(self.elo_step(result) for result in self.results())
            set_meta(self.conn, "elo_point", _point_text(point))
            set_meta(self.conn, "elo_stat", json.dumps(self.elo_file.stat()))
            set_meta(self.conn, "elo_dirty", "0")
            self.conn.execute("UPDATE entrants SET elo = NULL")
            self.conn.executemany(
                "INSERT INTO entrants (name, elo) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET elo = excluded.elo",
                sorted(self.elo.items()))

    def _record_stat(self) -> None:
        """What results.jsonl looks like now (length, time written): an open that finds it the
        same length but written since knows it was changed in place."""
        if self.ledger.exists():
            stat = os.stat(self.ledger)
            set_meta(self.conn, "results_stat", json.dumps([stat.st_size, stat.st_mtime_ns]))

    @_sql_errors
    def record_stat(self) -> None:
        """:meth:`_record_stat` on its own (after a torn tail was cut)."""
        with transaction(self.conn):
            self._record_stat()

    # -- reading -----------------------------------------------------------------------------------

    @_sql_errors
    def point(self) -> ChainPoint:
        """Where in results.jsonl the index holds up to."""
        return _point(get_meta(self.conn, "results_point"))

    @_sql_errors
    def count(self) -> int:
        """How many results the run has."""
        row = self.conn.execute("SELECT value FROM counters WHERE name = 'total'").fetchone()
        return row[0] if row else 0

    @_sql_errors
    def last_round(self) -> int | None:
        """The round of the last result (canonical order); None without results."""
        row = self.conn.execute("SELECT round FROM results ORDER BY idx DESC LIMIT 1").fetchone()
        return row[0] if row else None

    @_sql_errors
    def max_round(self) -> int | None:
        row = self.conn.execute("SELECT MAX(round) FROM results").fetchone()
        return row[0] if row else None

    @_sql_errors
    def done_among(self, ids: Iterable[str]) -> set[str]:
        """Those of ``ids`` that have a result."""
        wanted, found = list(ids), set()
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            found.update(row[0] for row in self.conn.execute(
                f"SELECT match_id FROM results WHERE match_id IN ({', '.join('?' * len(chunk))})", chunk))
        return found

    @_sql_errors
    def ids_from_round(self, first: int) -> set[str]:
        """The match ids of the results of rounds ``first`` and later."""
        return {row[0] for row in self.conn.execute("SELECT match_id FROM results WHERE round >= ?", (first,))}

    @_sql_errors
    def lookup(self, ids: Iterable[str]) -> dict[str, Result]:
        """The results of those of ``ids`` that have one."""
        wanted, found = list(ids), {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            for result in self.results(f"match_id IN ({', '.join('?' * len(chunk))})", chunk):
                found[result.match_id] = result
        return found

    def results(self, where: str = "", params: Iterable[Any] = ()) -> Iterator[Result]:
        """The results (those matching the SQL condition ``where``), in canonical order,
        streamed from the index."""
        sql = f"SELECT {_COLUMNS} FROM results" + (f" WHERE {where}" if where else "") + " ORDER BY idx"
        try:
            for row in self.conn.execute(sql, tuple(params)):
                yield _row_result(row)
        except sqlite3.Error as exc:
            raise _storage(self.path, exc) from None

    @_sql_errors
    def aggregates(self) -> Aggregates:
        """The sums ``ratings.json`` is made of, as :meth:`Aggregates.of` gives them for every
        result (:func:`ratings_from_index`)."""
        agg = Aggregates()
        q = self.conn.execute
        for name, seated, faulted, fallbacks in q("SELECT name, seated, faulted, fallbacks FROM entrants"):
            if seated:
                agg.seated.add(name)
            if faulted:
                agg.faults[name] = {}
            if fallbacks is not None:
                agg.fallbacks[name] = fallbacks
        for name, kind, count in q("SELECT name, kind, count FROM faults"):
            agg.faults.setdefault(name, {})[kind] = count
        agg.wdl = {(a, b): [w, d, lo] for a, b, w, d, lo in q("SELECT a, b, wins, draws, losses FROM pairs")}
        agg.penta = {(a, b): list(counts) for a, b, *counts in q("SELECT a, b, ll, ld, wl_dd, wd, ww FROM pentanomial")}
        agg.terminations = dict(q("SELECT termination, count FROM terminations"))
        counters = dict(q("SELECT name, value FROM counters"))
        agg.total, agg.played = counters.get("total", 0), counters.get("played", 0)
        agg.not_played, agg.error = counters.get("not_played", 0), counters.get("error", 0)
        return agg


def ratings_from_index(index: RunIndex, entrants: Iterable[str] | None = None) -> dict[str, Any]:
    """The content of ``ratings.json`` from the index's sums: what
    :func:`~.report.compute_ratings` gives over every result, byte for byte, in time independent
    of their number."""
    return ratings_from_aggregates(index.aggregates(), entrants=entrants)


def remove(folder: str | os.PathLike[str]) -> None:
    """Delete the index of ``folder`` (``--fresh``: a run begun again)."""
    path = index_path(folder)
    for suffix in ("", *COMPANIONS):
        Path(str(path) + suffix).unlink(missing_ok=True)


def rebuild(folder: str | os.PathLike[str], *, verify: bool = True, registry: Any = None) -> int:
    """A fresh index of the run folder ``folder`` from its files alone (``standoff reindex``):
    the chain and every record checked (unless not ``verify``) as a resume checks new lines.
    An index file that cannot be opened (corrupt, of another kind or of a newer version) is
    moved aside (``index.sqlite.bad``); one of ours is replaced. Returns the number of results
    indexed. Raises as :meth:`RunIndex.open` does."""
    folder = Path(folder)
    if not (folder / RESULTS_FILE).is_file():
        raise RunError(f"{folder}: not a run folder (no {RESULTS_FILE})")
    path = index_path(folder)
    try:
        conn, _ = open_index(path, SCHEMA)
        conn.close()
        remove(folder)
    except StorageError:
        move_aside(path)
    with RunIndex.open(folder, verify=verify, registry=registry) as index:
        return index.count()
