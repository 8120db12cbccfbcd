"""Bad input around a run folder's index (issue 43): a corrupt or foreign index file, one of a
newer version, a full disk (simulated: SQLite's page limit), a read-only run folder. ``standoff
tournament``, ``ladder`` and ``ratings`` say so in one line and exit non-zero, and the durable
files (results.jsonl, records) are byte for byte what they were; a missing index is rebuilt."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import pytest
from kits.run_checks import assert_agree

import standoff.server.storage as storage
from standoff.server.storage import index_path
from standoff.tournaments.cli import main

KINDS = {"tournament": dict(games_per_pairing=2), "ladder": dict(games_per_pairing=2, format="ladder")}


def write_config(folder: Path, kind: str) -> Path:
    lines = [f'name = "{kind}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"',
             'entrants = ["greedy", "random"]', "master_seed = 5", "workers = 1"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in KINDS[kind].items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished tournament and a ladder of one round, made once (copied by each test)."""
    folder = tmp_path_factory.mktemp("played")
    for kind in KINDS:
        args = [kind, str(write_config(folder, kind))] + (["--rounds", "1"] if kind == "ladder" else [])
        assert main(args) == 0
    return folder


@pytest.fixture
def runs(played, tmp_path):
    """``{kind: (config, run folder)}``, a copy of the played runs (configs naming the copy)."""
    shutil.copytree(played / "runs", tmp_path / "runs")
    return {kind: (write_config(tmp_path, kind), tmp_path / "runs" / kind) for kind in KINDS}


def durable(run: Path) -> dict[str, bytes]:
    """The run's durable files, and elo.jsonl (derived, but a failed open leaves it as it was)."""
    return {p.name: p.read_bytes() for p in [run / "results.jsonl", run / "elo.jsonl",
                                              *sorted((run / "records").iterdir())]}


def commands(config: Path, run: Path, kind: str) -> list[list[str]]:
    return [[kind, str(config)] + (["--rounds", "1"] if kind == "ladder" else []), ["ratings", str(run)]]


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("standoff: error:")]
    assert len(errors) == 1 and err.rstrip("\n").endswith(errors[0]), err
    return errors[0]


def break_index(path: Path, how: str) -> None:
    for suffix in ("", *storage.COMPANIONS):
        Path(str(path) + suffix).unlink(missing_ok=True)
    if how == "garbage":
        path.write_bytes(b"this is no database " * 300)
        return
    conn = sqlite3.connect(path)
    if how == "foreign":  # e.g. a server's data folder index copied here, or anything else
        conn.execute("CREATE TABLE matches (id TEXT)")
    else:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('schema', 'run/99')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("how", ["garbage", "foreign", "newer"])
def test_a_bad_index_file_is_one_line_and_the_files_stay(runs, capsys, how):
    for kind, (config, run) in runs.items():
        before = durable(run)
        break_index(index_path(run), how)
        for args in commands(config, run, kind):
            assert main(args) == 2, args
            line = one_line_error(capsys)
            assert str(index_path(run)) in line and ("reindex" in line or "upgrade" in line), line
            assert durable(run) == before


def test_a_missing_index_is_rebuilt_from_the_files(runs, capsys):
    for kind, (config, run) in runs.items():
        for args in commands(config, run, kind)[::-1]:
            for suffix in ("", *storage.COMPANIONS):
                Path(str(index_path(run)) + suffix).unlink(missing_ok=True)
            assert main(args) == 0, capsys.readouterr().err
            assert index_path(run).exists()
            assert_agree(run, ["greedy", "random"])


def full_disk(monkeypatch, run: Path, pages: int | None = None) -> None:
    """The run's index cannot grow past its size now (or ``pages`` pages): SQLite's "database
    or disk is full", as on a full disk."""
    real = storage.connect
    path = index_path(run)

    def connect(where, **kwargs):
        conn = real(where, **kwargs)
        if Path(where) == path:
            (count,) = conn.execute("PRAGMA page_count").fetchone()
            conn.execute(f"PRAGMA max_page_count = {pages if pages is not None else max(count, 1)}")
        return conn
    monkeypatch.setattr(storage, "connect", connect)


def test_a_full_disk_when_the_index_is_built_is_one_line(runs, capsys, monkeypatch):
    for kind, (config, run) in runs.items():
        before = durable(run)
        for args in commands(config, run, kind):
            for suffix in ("", *storage.COMPANIONS):  # a run folder from before the index: built now
                Path(str(index_path(run)) + suffix).unlink(missing_ok=True)
            with monkeypatch.context() as patch:
                full_disk(patch, run, pages=3)
                assert main(args) == 2, args
            line = one_line_error(capsys)
            assert "full" in line and str(index_path(run)) in line, line
            assert durable(run) == before
        assert main(["ratings", str(run)]) == 0  # space again: built
        assert_agree(run, ["greedy", "random"])


def test_a_full_disk_mid_ladder_stops_it_with_one_line_and_the_next_start_repairs(runs, capsys, monkeypatch):
    config, run = runs["ladder"]
    lines = (run / "results.jsonl").read_bytes()
    with monkeypatch.context() as patch:
        full_disk(patch, run)
        assert main(["ladder", str(config), "--rounds", "20"]) == 2
    line = one_line_error(capsys)
    assert "full" in line and "run the same command again" in line, line
    now = (run / "results.jsonl").read_bytes()
    assert now.startswith(lines) and len(now) > len(lines)  # what was written stays: the index is behind
    assert main(["ladder", str(config), "--rounds", "1"]) == 0
    assert (run / "results.jsonl").read_bytes().startswith(now)
    assert_agree(run, ["greedy", "random"])


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to act as user nobody")
def test_a_read_only_run_folder_is_one_line(runs, capsys):
    """The run folder belongs to someone else: user nobody may read its files, not write in it."""
    nobody = 65534
    root = Path(tempfile.mkdtemp(prefix="standoff-readonly-"))
    try:
        root.chmod(0o755)
        for kind, (config, run) in runs.items():
            assert main(commands(config, run, kind)[1]) == 0  # every module the commands need is loaded
            capsys.readouterr()
            target = root / kind
            shutil.copytree(run, target)
            (root / f"{kind}.toml").write_text(config.read_text().replace(str(run.parent), str(root)))
            for path in [target, *target.rglob("*")]:
                if path != target:
                    os.chown(path, nobody, nobody)
            target.chmod(0o755)  # root's: nobody reads in it, creates nothing
            before = durable(target)
            for args in commands(root / f"{kind}.toml", target, kind):
                code, err = _as_nobody(args, nobody)
                errors = [line for line in err.splitlines() if line.startswith("standoff: error:")]
                assert code == 2 and len(errors) == 1, (args, err)
                assert durable(target) == before
    finally:
        shutil.rmtree(root)


def _as_nobody(args: list[str], uid: int) -> tuple[int, str]:
    """``main(args)`` in a child process of user ``uid``: its exit code and stderr."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(reader)
            sys.stderr = open(writer, "w", closefd=False)  # noqa: SIM115 - the child's whole life
            os.setgid(uid)
            os.setuid(uid)
            code = main(args)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, never raised in a fork
            print(f"child: {type(exc).__name__}: {exc}", file=sys.stderr)
            code = 99
        finally:
            sys.stderr.flush()
            os._exit(code if isinstance(code, int) else 98)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        err = pipe.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), err
