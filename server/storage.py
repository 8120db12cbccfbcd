"""The embedded index beside a folder's durable files (SQLite, Python's :mod:`sqlite3`).

A server's data folder and a tournament's run folder keep their truth in files: records and a
hash-chained ledger (:mod:`.ledger`). Looking something up in them means reading them all, which
grows with history; an *index* (``index.sqlite`` in the folder) answers the same questions in
time independent of it. The index is derived, never the other way round:

* it is written right after the durable files it describes (a line is in the ledger before its
  row is in the index), so a crash leaves the index *behind* the files, never ahead;
* at every start the owner catches it up from the files (the ledger past the index's last line),
  so a kill at any point leaves index and files agreeing after the next start;
* a missing index is rebuilt from the files; ``standoff reindex FOLDER`` rebuilds one on demand
  (a corrupt or foreign file is moved aside as ``index.sqlite.bad``, never deleted).

This module is the generic part: opening an index file (WAL mode, so a reader such as the
``sqlite3`` shell never blocks the writer, and the writer never blocks readers), checking that it
is an index of the expected kind and version, and turning SQLite's failures into
:class:`StorageError` (one line naming the file). Each owner brings its own schema (a
:class:`Schema`): :mod:`.match_index` for a server, :mod:`standoff.tournaments.run_index` for a run.

The file is private (``0600`` in a ``0700`` folder, :mod:`.private_files`): it holds seeds.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .private_files import FILE_MODE

#: The index file's name in a data folder or a run folder.
INDEX_NAME = "index.sqlite"
#: SQLite's companion files of a database in WAL mode (moved or removed with it).
COMPANIONS = ("-wal", "-shm")


class StorageError(Exception):
    """The index cannot be opened or written: corrupt, foreign, on a full disk or in a read-only
    folder. The message is one line naming the file and what to do; the durable files are
    untouched."""


@dataclass(frozen=True)
class Schema:
    """An index kind: ``name`` and ``version`` (kept in the ``meta`` table; an index of an older
    version is rebuilt from the files, one of another kind is refused) and the ``ddl`` that
    creates its tables (statements separated by ``;``)."""

    name: str
    version: int
    ddl: str


_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def index_path(folder: str | os.PathLike[str]) -> Path:
    return Path(folder) / INDEX_NAME


def _explain(path: Path, exc: BaseException) -> StorageError:
    """SQLite's error as one line naming the file and what to do."""
    text = str(exc)
    low = text.lower()
    if "disk is full" in low or "disk i/o" in low:
        hint = "free some space and start again (the records and ledger are untouched)"
    elif "readonly" in low or "read-only" in low or "unable to open" in low or isinstance(exc, PermissionError):
        hint = "the folder or the file is not writable by this user"
    elif "not a database" in low or "malformed" in low or "corrupt" in low:
        hint = f"not a usable index: run `standoff reindex {path.parent}` to rebuild it from the files"
    else:
        hint = f"run `standoff reindex {path.parent}` to rebuild it from the files"
    return StorageError(f"{path}: {text} ({hint})")


@contextmanager
def errors_as_storage(path: Path) -> Iterator[None]:
    """Raise SQLite's errors (and an OS error on the index) inside the block as StorageError."""
    try:
        yield
    except sqlite3.Error as exc:
        raise _explain(path, exc) from None
    except OSError as exc:
        raise _explain(path, exc) from None


def connect(path: Path, *, readonly: bool = False, wal: bool = True) -> sqlite3.Connection:
    """A connection to the index file ``path`` (created private if missing, unless
    ``readonly``), in WAL mode (unless ``wal`` is false: :func:`open_index` switches to it only
    once the file is known to be an index, so a foreign database is left as it was), autocommit
    (transactions with :func:`transaction`)."""
    with errors_as_storage(path):
        if readonly:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None,
                                   check_same_thread=False)
        else:
            if not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
            os.chmod(path, FILE_MODE)
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            if not readonly and wal:
                _wal(conn)
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error:
            conn.close()
            raise
    return conn


def _wal(conn: sqlite3.Connection) -> None:
    # WAL: readers never block the writer. synchronous=NORMAL loses at most the last commits on
    # a power cut (never on a killed process), which the next start repairs from the files the
    # index is built from.
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any exception)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def get_meta(conn: sqlite3.Connection, key: str, default: str | None = None) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return default if row is None else row[0]


def set_meta(conn: sqlite3.Connection, key: str, value: object) -> None:
    conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (key, str(value)))


def quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """SQLite's ``quick_check`` of every page (it reads the whole file: seconds for a history of
    a million matches, so not at every start); :class:`StorageError` naming the first problem."""
    rows = conn.execute("PRAGMA quick_check").fetchall()
    if rows != [("ok",)]:
        raise StorageError(f"{path}: damaged ({str(rows[0][0]) if rows else 'no answer'}): not a usable index: "
                           f"run `standoff reindex {path.parent}` to rebuild it from the files")


def open_index(path: Path, schema: Schema, *, check: bool = False) -> tuple[sqlite3.Connection, bool]:
    """Open (or create) the index ``path`` of kind ``schema``; returns the connection and
    whether it is *fresh* (just created, or of an older version and emptied): the caller then
    fills it from the files. :class:`StorageError` if the file is not an SQLite database, is an
    index of another kind or of a newer version, or cannot be written. ``check``: also read every
    page (:func:`quick_check`); without it, opening reads a few pages whatever the index's size,
    and a page damaged elsewhere shows (one line, :class:`StorageError`) when a query reads it."""
    conn = connect(path, wal=False)
    with errors_as_storage(path):
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                _wal(conn)
                _create(conn, schema)
                return conn, True
            kind = get_meta(conn, "schema") if "meta" in tables else None
            if kind is None or not kind.startswith(schema.name + "/"):
                raise StorageError(
                    f"{path}: not a {schema.name} index (a file of something else); move it away, or run "
                    f"`standoff reindex {path.parent}`, which moves it to {path.name}.bad")
            version = int(kind.split("/", 1)[1])
            if version > schema.version:
                raise StorageError(f"{path}: an index of a newer version ({kind}) than this one "
                                   f"({schema.name}/{schema.version}): upgrade standoff, or run "
                                   f"`standoff reindex {path.parent}`")
            _wal(conn)  # an index of this kind: from here on it may be written
            if version < schema.version:  # an older layout: rebuilt from the files
                _drop_all(conn)
                _create(conn, schema)
                return conn, True
            # No `PRAGMA quick_check` at an ordinary open: it reads every page (a tenth of a second
            # per 50 MB, seconds for a history of 10⁶ matches). A damaged page raises "database
            # disk image is malformed" when it is read, which the owner turns into StorageError
            # then; ``check`` (reindex) reads every page now.
            if check:
                quick_check(conn, path)
            return conn, False
        except BaseException:
            conn.close()
            raise


def _create(conn: sqlite3.Connection, schema: Schema) -> None:
    with transaction(conn):
        conn.execute(_META)
        for statement in schema.ddl.split(";"):
            if statement.strip():
                conn.execute(statement)
        set_meta(conn, "schema", f"{schema.name}/{schema.version}")


def _drop_all(conn: sqlite3.Connection) -> None:
    with transaction(conn):
        names = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for name in names:
            conn.execute(f'DROP TABLE "{name}"')


def move_aside(path: Path) -> Path:
    """Move the index file ``path`` (and its WAL companions) to ``<name>.bad``, replacing an
    earlier one; returns where it went. For :func:`reindex` of a corrupt or foreign file: never
    deleted, it may be someone's."""
    bad = path.with_name(path.name + ".bad")
    for suffix in ("", *COMPANIONS):
        source = Path(str(path) + suffix)
        if source.exists():
            os.replace(source, Path(str(bad) + suffix))
    return bad


__all__ = ["COMPANIONS", "INDEX_NAME", "Schema", "StorageError", "connect", "errors_as_storage", "get_meta",
           "index_path", "move_aside", "open_index", "quick_check", "set_meta", "transaction"]
