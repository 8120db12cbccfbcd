"""Bad input around the server's index (issue 43): a corrupt or foreign ``index.sqlite``, one of
a newer version, a read-only folder, a full disk. ``standoff serve`` exits non-zero with one
line naming the file and what to do, and the durable files (records, ledger) are byte for byte
what they were. A missing index is rebuilt from the files (logged)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from kits.data_folder import write_finished_matches
from kits.server import ServerThread

from standoff.server.match_index import rebuild
from standoff.v1 import referee_pb2 as pb


def durable_files(data: Path) -> dict[str, bytes]:
    """Every file of the folder but the index (and its companions), with its bytes."""
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*"))
            if p.is_file() and not p.name.startswith("index.sqlite") and p.name != "tokens.json"}


def serve(data: Path, patch: str = "") -> subprocess.CompletedProcess:
    """``standoff serve`` on ``data`` (with ``patch``, Python run first in the process: a fault
    injected); it must refuse to start, so it returns."""
    script = (f"{patch}\nimport sys\nfrom standoff.tournaments.cli import main\n"
              f"sys.exit(main(['serve', '--address', '127.0.0.1:0', '--data-dir', {str(data)!r}]))\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def one_line(run: subprocess.CompletedProcess, *needles: str) -> str:
    assert "Traceback" not in run.stderr, run.stderr
    errors = [line for line in run.stderr.splitlines() if line.startswith("standoff:")]
    assert run.returncode == 2 and len(errors) == 1, (run.returncode, run.stderr)
    for needle in needles:
        assert needle in errors[0], errors[0]
    return errors[0]


@pytest.fixture
def served(tmp_path) -> Path:
    """A data folder with 12 finished matches and its index (a server started and stopped)."""
    write_finished_matches(tmp_path, 12, seed=3)
    ServerThread(tmp_path).start().stop()
    assert (tmp_path / "index.sqlite").is_file()
    return tmp_path


def test_a_corrupt_index_file_is_refused_in_one_line(served):
    before = durable_files(served)
    (served / "index.sqlite").write_bytes(os.urandom(3) + b"garbage" * 2000)
    one_line(serve(served), "index.sqlite", "standoff reindex")
    assert durable_files(served) == before


def damage_page(path: Path, number: int) -> None:
    """Overwrite page ``number`` (1-based, 4096 bytes) of an SQLite file with noise."""
    data = bytearray(path.read_bytes())
    assert len(data) >= number * 4096
    data[(number - 1) * 4096:number * 4096] = os.urandom(4096)
    path.write_bytes(bytes(data))


def root_page(path: Path, name: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]


def test_an_index_with_a_damaged_page_start_reads_is_refused_in_one_line(served):
    before = durable_files(served)
    path = served / "index.sqlite"
    damage_page(path, root_page(path, "sqlite_autoindex_meta_1"))  # the meta table's keys: read at every start
    one_line(serve(served), "index.sqlite", "standoff reindex")
    assert durable_files(served) == before


def test_a_page_damaged_elsewhere_shows_when_read_and_reindex_finds_it(served):
    """A start reads a few pages whatever the index's size (no whole-file check: seconds for a
    million matches); a damaged page it did not read shows, in one line, to the call that reads
    it. ``standoff reindex`` checks every page: it moves the file aside and builds a new one."""
    import grpc

    before = durable_files(served)
    path = served / "index.sqlite"
    damage_page(path, root_page(path, "sqlite_autoindex_matches_2"))  # the seq index: ListMatches reads it
    server = ServerThread(served).start()
    try:
        with pytest.raises(grpc.RpcError) as info:
            server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
        assert "index.sqlite" in info.value.details() and "standoff reindex" in info.value.details()
    finally:
        server.stop()
    count, moved = rebuild(served)
    assert count == 12 and moved == served / "index.sqlite.bad"
    assert durable_files(served) == before
    server = ServerThread(served).start()
    try:
        assert len(server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse).matches) == 12
    finally:
        server.stop()


def test_a_foreign_sqlite_file_is_refused_in_one_line(served):
    before = durable_files(served)
    (served / "index.sqlite").unlink()
    with sqlite3.connect(served / "index.sqlite") as conn:
        conn.execute("CREATE TABLE photos (name TEXT)")
    one_line(serve(served), "not a server-matches index", "standoff reindex")
    assert durable_files(served) == before
    # `standoff reindex` (rebuild): the foreign file is moved aside, never deleted, and a new index made
    count, moved = rebuild(served)
    assert count == 12 and moved == served / "index.sqlite.bad"
    with sqlite3.connect(moved) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("photos",)]
    assert durable_files(served) == before and (served / "index.sqlite").is_file()


def test_an_index_of_a_newer_version_is_refused_in_one_line(served):
    before = durable_files(served)
    with sqlite3.connect(served / "index.sqlite") as conn:
        conn.execute("UPDATE meta SET value = 'server-matches/99' WHERE key = 'schema'")
    one_line(serve(served), "newer version", "upgrade standoff")
    assert durable_files(served) == before


def test_a_read_only_folder_is_refused_in_one_line(served):
    """The index cannot be opened for writing (SQLite's error when the folder is read-only:
    injected, since the owner of a folder, and root, may write it whatever its mode)."""
    before = durable_files(served)
    patch = ("import sqlite3\n_connect = sqlite3.connect\n"
             "def connect(path, *a, **k):\n"
             "    if 'mode=ro' not in str(path): raise sqlite3.OperationalError('attempt to write a readonly database')\n"
             "    return _connect(path, *a, **k)\n"
             "sqlite3.connect = connect\n")
    one_line(serve(served, patch), "index.sqlite", "not writable")
    assert durable_files(served) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file")
def test_a_read_only_index_file_is_refused_in_one_line(served):
    before = durable_files(served)
    (served / "index.sqlite").chmod(0o400)
    try:
        one_line(serve(served), "index.sqlite")
    finally:
        (served / "index.sqlite").chmod(0o600)
    assert durable_files(served) == before


FULL_DISK = ("import sqlite3\nfrom standoff.server import match_index\n"
             "def full(*args, **kwargs): raise sqlite3.OperationalError('database or disk is full')\n"
             "match_index.MatchIndex._finished = full\n")


def test_a_full_disk_while_the_index_is_filled_is_refused_and_leaves_no_half_index(tmp_path):
    write_finished_matches(tmp_path, 12, seed=4)
    before = durable_files(tmp_path)
    one_line(serve(tmp_path, FULL_DISK), "disk is full", "free some space")
    assert durable_files(tmp_path) == before
    # the fill was one transaction: nothing of it stayed, and the next start fills the index
    server = ServerThread(tmp_path).start()
    try:
        assert len(server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse).matches) == 12
    finally:
        server.stop()


def test_a_full_disk_while_catching_up_is_refused(served):
    write_finished_matches(served, 3, seed=5, first=12)  # lines the index has not read yet
    before = durable_files(served)
    one_line(serve(served, FULL_DISK), "disk is full")
    assert durable_files(served) == before


def test_a_missing_index_is_rebuilt_from_the_files(served, capsys):
    before = durable_files(served)
    (served / "index.sqlite").unlink()
    server = ServerThread(served).start()
    try:
        listing = server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse)
        assert len(listing.matches) == 12
    finally:
        server.stop()
    assert durable_files(served) == before
    assert (served / "index.sqlite").is_file()
