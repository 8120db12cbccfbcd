"""The server's index: ``index.sqlite`` in ``standoff serve --data-dir`` (schema ``server-matches``).

A server's truth is its files: one record per match in ``records/`` and one hash-chained line
per finished match in ``matches.jsonl`` (:mod:`.ledger`). This index, derived from them
(:mod:`.storage`), answers ``ListMatches``, ``GetStandings``, ``GetMatchRecord`` and the
referee's "is this match over?" in time independent of the history's length, and lets a start
read only what was written since the last one. docs/storage.md documents the tables for an
organiser's ``sqlite3`` shell.

Tables (``meta`` is :mod:`.storage`'s):

* ``matches``: one row per match. ``status`` is ``playing`` (its record was begun: a row written
  when the match starts, so that a start finds the records a kill left without a ledger line
  without listing ``records/``), ``finished`` (it has its ledger line, number ``seq``, the
  listing order) or ``aborted`` (its record never got an outcome line: a kill cut the match;
  never listed, never scored). A ``playing`` row has no seed, result or ``seq``.
* ``seats``: ``(match_id, role, bot, seq)``, for the ``bot`` filter (``seq`` repeated so that a
  bot's newest matches are one index range).
* ``standings``: per ``(game, bot)``, played/wins/draws/losses/score over the rated finished
  matches, updated in the transaction that marks a match finished (``GetStandings`` reads it,
  never ``matches``); the unrated terminations (``core.game.UNRATED_TERMINATIONS``) count for nobody.
* ``meta``: ``ledger_point`` (:class:`~.ledger.ChainPoint` as JSON: the ledger line the index has
  read up to), ``built`` (the index was filled from the files: a fill cut short leaves it unset,
  and the next start fills again), ``times_ordered``/``finished_ms_max`` (whether
  ``finished_ms`` never goes back in ledger order: then a time filter is a ``seq`` range).

Crash safety: a ledger line is written (fsync'd) *before* its index row, so the index is only
ever behind the ledger. At start :meth:`MatchIndex.catch_up` reads the ledger past
``ledger_point`` and indexes those lines in one transaction; a point no longer in the ledger
(cut or rewritten) refuses the start (``standoff verify`` / ``standoff reindex``). The
``playing`` rows left by a kill are settled by :meth:`Archive.load <.archive.Archive.load>`.

What a start checks: the chain of the lines after ``ledger_point`` (each against the one before,
the first against the point's digest; the point itself is still the line it was), and each of
those lines against its record (digest, result, seats: :class:`~.verify.LineChecker` without
replay). What only ``standoff verify`` checks: the lines before the point (an edit of an earlier
line, or of a record of an earlier line, shows there and not at start) and replaying the records
by the rules. A missing index (or one of an older layout) is filled from the files at start,
which checks the whole chain and every record's digest, as a start did before the index.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import structlog

from standoff.v1 import referee_pb2 as pb

from .core.game import UNRATED_TERMINATIONS
from .ledger import ChainPoint, LedgerError, last_line, line_digest, read_chain
from .match_store import Filters, decode_token, encode_token, json_text, standings_list, summary_of
from .storage import (
    COMPANIONS,
    Schema,
    StorageError,
    connect,
    errors_as_storage,
    get_meta,
    index_path,
    move_aside,
    open_index,
    quick_check,
    set_meta,
    transaction,
)
from .verify import LineChecker, VerifyError

log = structlog.get_logger("standoff.referee")

#: A server's ledger (in its data folder): one chained line per finished match.
LEDGER_NAME = "matches.jsonl"
PLAYING, FINISHED, ABORTED = "playing", "finished", "aborted"

_DDL = """
CREATE TABLE matches (
    match_id TEXT PRIMARY KEY,
    seq INTEGER UNIQUE,
    game TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'aborted')),
    seats TEXT NOT NULL,
    winner TEXT,
    termination TEXT,
    reason TEXT,
    scores TEXT,
    faults TEXT,
    seed INTEGER,
    started_ms INTEGER,
    finished_ms INTEGER,
    record TEXT NOT NULL,
    record_digest TEXT
);
CREATE INDEX matches_by_game ON matches (game, seq) WHERE seq IS NOT NULL;
CREATE INDEX matches_by_time ON matches (finished_ms, seq) WHERE finished_ms IS NOT NULL;
CREATE INDEX matches_playing ON matches (match_id) WHERE status = 'playing';
CREATE INDEX matches_by_record ON matches (record) WHERE seq IS NOT NULL;
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches (match_id),
    role TEXT NOT NULL,
    bot TEXT NOT NULL,
    seq INTEGER,
    PRIMARY KEY (match_id, role)
) WITHOUT ROWID;
CREATE INDEX seats_by_bot ON seats (bot, seq);
CREATE TABLE standings (
    game TEXT NOT NULL,
    bot TEXT NOT NULL,
    played INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    score REAL NOT NULL,
    PRIMARY KEY (game, bot)
) WITHOUT ROWID
"""
SCHEMA = Schema("server-matches", 1, _DDL)

_COLUMNS = "m.match_id, m.game, m.ruleset, m.seats, m.winner, m.termination, m.reason, m.scores, m.faults, " \
           "m.seed, m.finished_ms, m.seq"
_UPSERT = """
INSERT INTO matches (match_id, seq, game, ruleset, status, seats, winner, termination, reason, scores, faults,
                     seed, started_ms, finished_ms, record, record_digest)
VALUES (?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (match_id) DO UPDATE SET
    seq = excluded.seq, game = excluded.game, ruleset = excluded.ruleset, status = 'finished',
    seats = excluded.seats, winner = excluded.winner, termination = excluded.termination,
    reason = excluded.reason, scores = excluded.scores, faults = excluded.faults, seed = excluded.seed,
    started_ms = COALESCE(excluded.started_ms, matches.started_ms), finished_ms = excluded.finished_ms,
    record = excluded.record, record_digest = excluded.record_digest
"""
_STANDING = """
INSERT INTO standings (game, bot, played, wins, draws, losses, score) VALUES (?, ?, 1, ?, ?, ?, ?)
ON CONFLICT (game, bot) DO UPDATE SET
    played = played + 1, wins = wins + excluded.wins, draws = draws + excluded.draws,
    losses = losses + excluded.losses, score = score + excluded.score
"""
_NO_SEQ = 1 << 62  # above every ledger line number: "no upper bound"


class MatchIndex:
    """The index of the data folder ``data_dir``: the :class:`~.match_store.MatchStore` queries,
    on a read-only connection per thread (the gRPC handlers' loop, trio's thread), and the
    writes, on one writer connection that its owner (:class:`~.archive.Archive`, under its lock,
    from trio's worker threads) uses from one thread at a time. WAL: the readers see committed
    rows and never block the writer."""

    def __init__(self, data_dir: Path, conn: sqlite3.Connection) -> None:
        self.data_dir = Path(data_dir)
        self.path = index_path(self.data_dir)
        self.ledger = self.data_dir / LEDGER_NAME
        self.records = self.data_dir / "records"
        self._conn = conn
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()

    @classmethod
    def open(cls, data_dir: Path) -> tuple[MatchIndex, bool]:
        """Open (or create) the index of ``data_dir``; with whether it must be filled from the
        files (:meth:`fill`): new, of an older layout, or a fill cut short. :class:`StorageError`
        (one line) if it is corrupt, foreign, of a newer version or cannot be written."""
        path = index_path(data_dir)
        if not path.exists():  # a WAL left without its database would be replayed into the new one
            with errors_as_storage(path):
                for suffix in COMPANIONS:
                    Path(str(path) + suffix).unlink(missing_ok=True)
        conn, fresh = open_index(path, SCHEMA)
        with errors_as_storage(path):
            try:
                fresh = fresh or get_meta(conn, "built") is None
            except BaseException:
                conn.close()
                raise
        return cls(data_dir, conn), fresh

    def close(self) -> None:
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            conn.close()
        self._conn.close()

    # -- filling and catching up (the writer) --------------------------------------------------------

    def point(self) -> ChainPoint:
        """The ledger point the index has read up to."""
        with errors_as_storage(self.path):
            text = get_meta(self._conn, "ledger_point")
        if text is None:
            return ChainPoint()
        try:
            obj = json.loads(text)
            return ChainPoint(int(obj["line"]), int(obj["offset"]), str(obj["digest"]))
        except (ValueError, KeyError, TypeError):
            raise StorageError(f"{self.path}: its ledger point {text[:80]!r} is not one this server wrote "
                               f"(run `standoff reindex {self.data_dir}`)") from None

    def fill(self, checker: LineChecker | None, *, chained: bool = True) -> int:
        """Build the index from the files alone, in one transaction (a kill leaves the index as it
        was): every ledger line (checked by ``checker`` if given; the chain if ``chained``), then
        a ``playing`` row for every record of ``records/`` the ledger lacks (settled like those a
        kill leaves: :meth:`.archive.Archive.load`). Returns the number of ledger lines."""
        with errors_as_storage(self.path), transaction(self._conn) as conn:
            for table in ("seats", "standings", "matches"):
                conn.execute(f"DELETE FROM {table}")
            conn.execute("DELETE FROM meta WHERE key != 'schema'")
            count = self._index_lines(conn, ChainPoint(), checker, chained) if self.ledger.exists() else 0
            self._unledgered(conn)
            set_meta(conn, "built", 1)
        return count

    def catch_up(self, checker: LineChecker | None, *, chained: bool = True, at_start: bool = True) -> int:
        """Index the ledger lines after the index's point, in one transaction; returns how many.
        ``at_start``: first make sure the point is still in the ledger (:class:`StorageError`
        if the ledger was cut or rewritten there); a running server, the ledger's one writer,
        skips that look."""
        point = self.point()
        if at_start and not point.still_there(self.ledger):
            raise StorageError(
                f"{self.ledger}: the line {point.line} the index {self.path} was built up to is no longer "
                f"there (the ledger was cut or rewritten): `standoff verify {self.data_dir}` shows what "
                f"changed; `standoff reindex {self.data_dir}` rebuilds the index from the files as they are")
        if not self.ledger.exists():
            return 0
        with errors_as_storage(self.path), transaction(self._conn) as conn:
            return self._index_lines(conn, point, checker, chained)

    def _index_lines(self, conn: sqlite3.Connection, point: ChainPoint, checker: LineChecker | None,
                     chained: bool) -> int:
        count, number = 0, point.line
        times = _Times(conn)
        try:
            for number, line in _ledger_lines(self.ledger, point, chained):
                headers = None
                if checker is not None:
                    checker.check(self.ledger, number, line)
                    headers = checker.headers
                self._finished(conn, number, line, headers, times)
                count += 1
        except LedgerError as exc:
            raise VerifyError(str(exc)) from None
        except OSError as exc:
            raise StorageError(f"{self.ledger}: cannot read it ({exc.strerror or exc})") from None
        if count:
            last = last_line(self.ledger)
            assert last is not None
            text, offset = last
            set_meta(conn, "ledger_point", json.dumps({"line": number, "offset": offset, "digest": line_digest(text)}))
            times.save()
        return count

    def _finished(self, conn: sqlite3.Connection, number: int, line: dict[str, Any],
                  headers: dict[str, dict[str, Any]] | None, times: _Times) -> None:
        """Line ``number`` of the ledger: its match's row finished, its seats, its standings."""
        try:
            (name, digest), = line["records"].items()
            match_id, game, termination = str(line["match_id"]), str(line["game"]), str(line["termination"])
            seats_line, scores_line = dict(line["seats"]), dict(line["scores"])
        except (KeyError, TypeError, ValueError, AttributeError):
            raise VerifyError(f"{self.ledger}: line {number} is not a line of a server's ledger "
                              f"(`standoff verify {self.data_dir}` checks it)") from None
        header = headers.get(name) if headers is not None else _header(self.records / name)
        roles = list(seats_line)
        if header is not None and isinstance(header.get("roles"), dict) and set(header["roles"]) == set(roles):
            roles = list(header["roles"])  # role order (the ledger's keys are sorted)
        seats = {role: str(seats_line[role]) for role in roles}
        scores = {role: float(scores_line[role]) for role in roles if role in scores_line}
        seed = header.get("seed") if header is not None else None
        before = conn.execute("SELECT status FROM matches WHERE match_id = ?", (match_id,)).fetchone()
        if before is not None and before[0] == FINISHED:
            log.warning("a match on two ledger lines: the later one is not indexed", match=match_id, line=number)
            return
        finished_ms = _int_or_none(line.get("finished_ms"))
        conn.execute(_UPSERT, (
            match_id, number, game, str(line.get("ruleset", "")), json_text(seats), line.get("winner"), termination,
            str(line.get("reason", "")), json_text(scores), json_text(line.get("faults") or {}),
            seed if isinstance(seed, int) else None, _int_or_none(line.get("started_ms")), finished_ms, name, digest,
        ))
        conn.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
        conn.executemany("INSERT INTO seats (match_id, role, bot, seq) VALUES (?, ?, ?, ?)",
                         [(match_id, role, bot, number) for role, bot in seats.items()])
        if termination not in UNRATED_TERMINATIONS:  # no result: counts for nobody
            for role, bot in seats.items():
                score = scores.get(role, 0.0)
                win = score == 1.0
                draw = not win and score > 0  # as GetStandings always counted: a win is 1, a loss 0
                conn.execute(_STANDING, (game, bot, int(win), int(draw), int(not win and not draw), score))
        times.add(finished_ms)

    def _unledgered(self, conn: sqlite3.Connection) -> None:
        """A ``playing`` row for each record of ``records/`` no indexed line names (read once,
        when the index is filled: afterwards a match's row is written when it starts)."""
        if not self.records.is_dir():
            return
        with os.scandir(self.records) as entries:
            for entry in entries:
                if not entry.name.endswith(".jsonl") or not entry.is_file():
                    continue
                match_id = entry.name[: -len(".jsonl")]
                if conn.execute("SELECT 1 FROM matches WHERE match_id = ?", (match_id,)).fetchone():
                    continue
                header = _header(Path(entry.path))
                if header is None:
                    log.warning("unreadable record skipped", path=entry.path)
                    continue
                roles = header.get("roles") if isinstance(header.get("roles"), dict) else {}
                self._playing(conn, match_id, str(header.get("game", "")), str(header.get("ruleset", "")),
                              {str(r): str(b) for r, b in roles.items()}, entry.name, None)

    def begin(self, match_id: str, game: str, ruleset: str, seats: dict[str, str], record: str,
              started_ms: int) -> None:
        """A match's record is begun: its ``playing`` row (no seed: the match is not over)."""
        with errors_as_storage(self.path), transaction(self._conn) as conn:
            self._playing(conn, match_id, game, ruleset, seats, record, started_ms)

    @staticmethod
    def _playing(conn: sqlite3.Connection, match_id: str, game: str, ruleset: str, seats: dict[str, str],
                 record: str, started_ms: int | None) -> None:
        conn.execute("INSERT INTO matches (match_id, game, ruleset, status, seats, started_ms, record) "
                     "VALUES (?, ?, ?, 'playing', ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
                     (match_id, game, ruleset, json_text(seats), started_ms, record))
        conn.executemany("INSERT INTO seats (match_id, role, bot, seq) VALUES (?, ?, ?, NULL) "
                         "ON CONFLICT (match_id, role) DO NOTHING",
                         [(match_id, role, bot) for role, bot in seats.items()])

    def playing(self) -> list[tuple[str, str, int | None]]:
        """``(match_id, record name, started_ms)`` of the ``playing`` rows, by id."""
        with errors_as_storage(self.path):
            return self._conn.execute(
                "SELECT match_id, record, started_ms FROM matches WHERE status = 'playing' ORDER BY match_id").fetchall()

    def abort(self, match_ids: list[str]) -> None:
        """These ``playing`` matches were cut by a kill (their records have no outcome line)."""
        with errors_as_storage(self.path), transaction(self._conn) as conn:
            conn.executemany("UPDATE matches SET status = 'aborted' WHERE match_id = ? AND status = 'playing'",
                             [(match_id,) for match_id in match_ids])

    def last_finished_ms(self) -> int:
        """The latest ``finished_ms`` indexed (0 if none)."""
        with errors_as_storage(self.path):
            return int(get_meta(self._conn, "finished_ms_max", "0") or 0)

    # -- queries (MatchStore; any thread, each its own read-only connection) -------------------

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path, readonly=True)
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def page(self, filters: Filters, page_token: str, limit: int) -> tuple[list[pb.MatchSummary], str]:
        """Finished matches passing ``filters``, newest first, below the token's line; at most
        ``limit``, and the next page's token ("" when there is none). :class:`PageTokenError`
        for a token this server did not make."""
        before = decode_token(page_token) or _NO_SEQ
        with errors_as_storage(self.path):
            conn = self._reader()
            low, high = self._seq_range(conn, filters)
            if low > high:
                return [], ""
            rows = list(self._rows(conn, filters, min(before, high + 1), low, limit + 1))
        if len(rows) <= limit:
            return [_summary(row) for row in rows], ""
        last = rows[limit - 1][-1] if limit else rows[0][-1] + 1
        return [_summary(row) for row in rows[:limit]], encode_token(last)

    def _seq_range(self, conn: sqlite3.Connection, filters: Filters) -> tuple[int, int]:
        """The ledger lines a time filter can match: when ``finished_ms`` never goes back in
        ledger order (``times_ordered``), the lines from the first finished at or after
        ``finished_after_ms`` to the last finished before ``finished_before_ms``; else all."""
        low, high = 1, _NO_SEQ
        if not filters.timed or get_meta(conn, "times_ordered", "1") != "1":
            return low, high
        if filters.finished_after_ms:
            row = conn.execute("SELECT seq FROM matches WHERE finished_ms >= ? ORDER BY finished_ms, seq LIMIT 1",
                               (filters.finished_after_ms,)).fetchone()
            low = row[0] if row else _NO_SEQ
        if filters.finished_before_ms:
            row = conn.execute("SELECT seq FROM matches WHERE finished_ms < ? "
                               "ORDER BY finished_ms DESC, seq DESC LIMIT 1", (filters.finished_before_ms,)).fetchone()
            high = row[0] if row else 0
        return low, high

    @staticmethod
    def _rows(conn: sqlite3.Connection, filters: Filters, before: int, low: int, count: int) -> Iterator[tuple]:
        """Up to ``count`` finished rows with ``low <= seq < before`` passing ``filters``, newest
        first. With a bot: its seats newest first (one index range), each joined to its match,
        a match it sits twice in (self-play) once."""
        where, args = [], []
        if filters.game:
            where.append("m.game = ?")
            args.append(filters.game)
        if filters.finished_after_ms:
            where.append("m.finished_ms >= ?")
            args.append(filters.finished_after_ms)
        if filters.finished_before_ms:
            where.append("m.finished_ms < ?")
            args.append(filters.finished_before_ms)
        more = "".join(f" AND {term}" for term in where)
        if count <= 0:
            return
        if not filters.bot:
            yield from conn.execute(
                f"SELECT {_COLUMNS} FROM matches m WHERE m.seq < ? AND m.seq >= ?{more} ORDER BY m.seq DESC LIMIT ?",
                (before, low, *args, count))
            return
        cursor = conn.execute(
            f"SELECT {_COLUMNS} FROM seats s CROSS JOIN matches m ON m.seq = s.seq "
            f"WHERE s.bot = ? AND s.seq < ? AND s.seq >= ?{more} ORDER BY s.seq DESC",
            (filters.bot, before, low, *args))
        try:
            seen = None
            for row in cursor:
                if row[-1] == seen:
                    continue
                seen = row[-1]
                yield row
                count -= 1
                if not count:
                    return
        finally:
            cursor.close()

    def get(self, match_id: str) -> pb.MatchSummary | None:
        with errors_as_storage(self.path):
            row = self._reader().execute(
                f"SELECT {_COLUMNS} FROM matches m WHERE m.match_id = ? AND m.status = 'finished'", (match_id,)).fetchone()
        return _summary(row) if row else None

    def has(self, match_id: str) -> bool:
        with errors_as_storage(self.path):
            return self._reader().execute("SELECT 1 FROM matches WHERE match_id = ? AND status = 'finished'",
                                          (match_id,)).fetchone() is not None

    def names_record(self, name: str) -> bool:
        """Whether a ledger line already indexed names the record file ``name`` (a line after
        the point naming it again is refused: :class:`~.verify.LineChecker`'s ``named_before``)."""
        with errors_as_storage(self.path):
            return self._reader().execute("SELECT 1 FROM matches WHERE record = ? AND seq IS NOT NULL",
                                          (name,)).fetchone() is not None

    def record_of(self, match_id: str) -> str | None:
        """The record file name of a finished match (None if it is not one)."""
        with errors_as_storage(self.path):
            row = self._reader().execute("SELECT record FROM matches WHERE match_id = ? AND status = 'finished'",
                                         (match_id,)).fetchone()
        return row[0] if row else None

    def standings(self, game: str) -> list[pb.BotStanding]:
        with errors_as_storage(self.path):
            conn = self._reader()
            if game:
                rows = conn.execute("SELECT bot, played, wins, draws, losses, score FROM standings WHERE game = ?",
                                    (game,)).fetchall()
            else:
                rows = conn.execute("SELECT bot, SUM(played), SUM(wins), SUM(draws), SUM(losses), SUM(score) "
                                    "FROM standings GROUP BY bot").fetchall()
        return standings_list(rows)


class _Times:
    """Whether ``finished_ms`` stays in ledger order (``meta``: ``times_ordered``,
    ``finished_ms_max``), kept up to date as lines are indexed."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.ordered = get_meta(conn, "times_ordered", "1") == "1"
        self.latest = int(get_meta(conn, "finished_ms_max", "0") or 0)

    def add(self, finished_ms: int | None) -> None:
        if finished_ms is None:
            return
        if finished_ms < self.latest:
            self.ordered = False
        self.latest = max(self.latest, finished_ms)

    def save(self) -> None:
        set_meta(self.conn, "times_ordered", "1" if self.ordered else "0")
        set_meta(self.conn, "finished_ms_max", self.latest)


def _summary(row: tuple) -> pb.MatchSummary:
    match_id, game, ruleset, seats, winner, termination, reason, scores, faults, seed, finished_ms, _ = row
    return summary_of(match_id, game, ruleset, json.loads(seats), winner=winner, scores=json.loads(scores or "{}"),
                      termination=termination or "", reason=reason or "", faults=json.loads(faults or "{}"),
                      seed=seed, finished_ms=finished_ms)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _header(path: Path) -> dict[str, Any] | None:
    """A record's first line (its header), or None if it cannot be read as one. Only the first
    line is read: the seed and role order of a line indexed without checking its record."""
    try:
        with open(path, encoding="utf-8") as file:
            header = json.loads(file.readline())
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) and header.get("type") == "header" else None


def _ledger_lines(path: Path, point: ChainPoint, chained: bool) -> Iterator[tuple[int, dict[str, Any]]]:
    """The ledger's lines after ``point``: :func:`~.ledger.read_chain` (the chain checked unless
    ``chained`` is off: ``standoff serve --no-verify``)."""
    return read_chain(path, start=point, chained=chained)


def _unusable(path: Path) -> bool:
    """Whether the file ``path`` is no index of this kind and version that this server can read:
    not SQLite, corrupt, foreign or newer (:func:`rebuild` moves such a file aside)."""
    try:
        conn = connect(path, readonly=True)
    except StorageError:
        return True
    try:
        kind = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        quick_check(conn, path)
    except (sqlite3.Error, StorageError):
        return True
    finally:
        conn.close()
    if kind is None or not str(kind[0]).startswith(SCHEMA.name + "/"):
        return True
    try:
        return int(str(kind[0]).split("/", 1)[1]) > SCHEMA.version
    except ValueError:
        return True


def rebuild(data_dir: Path, *, registry: Any = None, check: bool = True) -> tuple[int, Path | None]:
    """``standoff reindex DATA_DIR``: build the index of a server's data folder from its files
    alone (stop the server first). A corrupt, foreign or newer ``index.sqlite`` is moved aside
    (``index.sqlite.bad``, never deleted) and a new one made. ``check``: check the whole chain
    and every line against its record's digest and outcome (:class:`~.verify.LineChecker`);
    :class:`VerifyError` names the first line that fails. Records the ledger lacks become
    ``playing`` rows, settled at the next start (a ledger line if the record is complete, else
    ``aborted``): this function writes no durable file. Returns (ledger lines indexed, where a bad
    file went or None)."""
    data_dir = Path(data_dir)
    path = index_path(data_dir)
    moved = move_aside(path) if path.exists() and _unusable(path) else None
    index, _ = MatchIndex.open(data_dir)
    try:
        checker = LineChecker(index.records, registry, False) if check else None
        count = index.fill(checker, chained=True)
    finally:
        index.close()
    return count, moved


__all__ = ["ABORTED", "FINISHED", "LEDGER_NAME", "MatchIndex", "PLAYING", "SCHEMA", "rebuild"]
