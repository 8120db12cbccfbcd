"""What can reveal a running match is its owner's alone: every file a server or a tournament run
writes is 0600 in 0700 folders whatever the umask (server/private_files.py), an older folder is
tightened when it is used again, and another account cannot read a record, the results or the
master seed. The HTML report is the one exception (it is meant to be shared)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from standoff.server.private_files import private_dir
from standoff.server.records import RecordWriter

#: A umask that takes nothing away: files and folders get exactly the mode they are created with.
PERMISSIVE = 0o000


def standoff(*args: str, umask: int = PERMISSIVE, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                         timeout=timeout, stdin=subprocess.DEVNULL, umask=umask, **kwargs)
    assert run.returncode == 0, run.stderr
    return run


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def modes(root: Path, *, skip: str | None = None) -> dict[str, int]:
    """``{path relative to root: mode}`` of ``root`` and everything under it (but ``skip``)."""
    found = {".": mode(root)}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if skip is None or not (name == skip or name.startswith(skip + "/")):
            found[name] = mode(path)
    return found


def private(found: dict[str, int], root: Path) -> dict[str, int]:
    """The entries of ``found`` that are not private (``0700`` folders, ``0600`` files)."""
    return {name: m for name, m in found.items() if m != (0o700 if (root / name).is_dir() else 0o600)}


def write_config(folder: Path, name: str = "p", **extra: object) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', 'entrants = ["greedy", "random"]',
             "games_per_pairing = 2", f"output_dir = {json.dumps(str(folder / 'runs'))}"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


# -- the helper ----------------------------------------------------------------------------------

HELPER = """
import os, sys
from pathlib import Path
from standoff.server.private_files import open_private, private_dir, replace_private

root = Path(sys.argv[1])
private_dir(root / "new" / "deeper")                  # missing parents made private too
(root / "old").mkdir(mode=0o755); os.chmod(root / "old", 0o755)
private_dir(root / "old")                             # a folder of an older version: tightened
(root / "mine").mkdir(); os.chmod(root / "mine", 0o755)
private_dir(root / "mine", tighten=False)             # a folder the user named: left alone
(root / "old.txt").write_text("x"); os.chmod(root / "old.txt", 0o644)
with open_private(root / "old.txt", "a") as f:        # reopened: tightened
    f.write("y")
with open_private(root / "new.bin", "wb") as f:
    f.write(b"z")
replace_private(root / "replaced.txt", "text")
"""


def test_the_helper_makes_folders_0700_and_files_0600_whatever_the_umask(tmp_path):
    subprocess.run([sys.executable, "-c", HELPER, str(tmp_path)], check=True, umask=PERMISSIVE)
    assert modes(tmp_path) == {
        ".": mode(tmp_path), "mine": 0o755, "new": 0o700, "new/deeper": 0o700, "new.bin": 0o600,
        "old": 0o700, "old.txt": 0o600, "replaced.txt": 0o600,
    }
    assert (tmp_path / "old.txt").read_text() == "xy" and (tmp_path / "replaced.txt").read_text() == "text"


def test_a_file_in_the_way_of_a_private_folder_is_the_error_mkdir_gives(tmp_path):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "afile").chmod(0o644)
    with pytest.raises(NotADirectoryError, match="afile"):
        private_dir(tmp_path / "afile" / "run")
    with pytest.raises(FileExistsError, match="afile"):
        private_dir(tmp_path / "afile")
    assert mode(tmp_path / "afile") == 0o644  # a file is never made a private *folder*


# -- what a server, a run and `standoff play` write ------------------------------------------------


def test_play_record_is_private_and_an_existing_folder_keeps_its_mode(tmp_path):
    tmp_path.chmod(0o755)
    standoff("play", "schotten-totten", "--bot", "random", "--bot", "random", "--seed", "4",
             "--record", str(tmp_path / "r.jsonl"))
    standoff("play", "schotten-totten", "--bot", "random", "--bot", "random", "--seed", "4",
             "--record", str(tmp_path / "made" / "r.jsonl"))
    assert modes(tmp_path) == {".": 0o755, "r.jsonl": 0o600, "made": 0o700, "made/r.jsonl": 0o600}


def test_a_servers_data_folder_is_private_after_a_match(tmp_path):
    data = tmp_path / "data"
    token = standoff("token", "add", "ops", "--admin", "--data-dir", str(data)).stdout.strip()
    server = subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, umask=PERMISSIVE,
    )
    try:
        line = server.stdout.readline()
        assert "listening on" in line, server.stderr.read()
        standoff("match", "--address", line.split()[-1], "--game", "schotten-totten", "--bot", "greedy",
                 "--bot", "random", "--seed", "3", env=dict(os.environ, STANDOFF_TOKEN=token))
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    found = modes(data)
    assert {"tokens.json", "matches.jsonl", "records"} <= found.keys()
    assert len([name for name in found if name.startswith("records/")]) == 1
    assert private(found, data) == {}


def test_a_tournament_run_folder_is_private_but_for_its_report(tmp_path):
    standoff("tournament", str(write_config(tmp_path)))  # no master_seed: a secret one is kept
    standoff("report", str(tmp_path / "runs" / "p"), umask=0o022)
    run = tmp_path / "runs" / "p"
    found = modes(run, skip="report")
    assert {"config.json", "results.jsonl", "elo.jsonl", "ratings.json", "master_seed"} <= found.keys()
    assert len([name for name in found if name.startswith("records/")]) == 2
    assert private(found, run) == {}
    assert mode(tmp_path / "runs") == 0o700  # output_dir was missing: made by the run, privately
    # The exception: the report, meant to be shared, has the modes the umask gives.
    assert mode(run / "report") == 0o755 and mode(run / "report" / "index.html") == 0o644


def test_an_older_run_folder_and_data_folder_are_tightened_when_used_again(tmp_path):
    config = write_config(tmp_path, master_seed=2)
    standoff("tournament", str(config))
    run = tmp_path / "runs" / "p"
    for path in [run, *run.rglob("*")]:  # as a version before private files left them
        path.chmod(0o755 if path.is_dir() else 0o644)
    standoff("tournament", str(config))  # nothing left to play: a resume that opens everything
    assert modes(run)["."] == 0o700 and modes(run)["records"] == 0o700
    assert {name: m for name, m in modes(run).items() if "/" not in name and m != 0o700} == {
        "config.json": 0o600, "elo.jsonl": 0o600, "ratings.json": 0o600, "results.jsonl": 0o600,
        "index.sqlite": 0o600,  # the run's index (issue 43): private as the results it holds
    }
    # A server's data folder of an older version, served again.
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    for folder in (data, data / "records"):
        folder.chmod(0o755)
    server = subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert "listening on" in server.stdout.readline()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    assert mode(data) == 0o700 and mode(data / "records") == 0o700


# -- as another account --------------------------------------------------------------------------

def read_as_nobody(*paths: Path) -> dict[str, str]:
    """What account ``nobody`` gets opening each of ``paths``: ``"PermissionError"`` (or another
    error's name), or the start of what it read. A forked child takes nobody's ids and tries (no
    program is run: the interpreter may lie where nobody may not enter)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: only os calls, then _exit (never back into pytest)
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            outcome = []
            for path in paths:
                try:
                    fd = os.open(path, os.O_RDONLY)
                    outcome.append("read: " + os.read(fd, 40).decode("utf-8", "replace"))
                    os.close(fd)
                except OSError as exc:
                    outcome.append(type(exc).__name__)
            os.write(writer, json.dumps(outcome).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        answer = pipe.read()
    os.waitpid(pid, 0)
    return dict(zip([path.name for path in paths], json.loads(answer), strict=True))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to act as user nobody")
def test_another_account_reads_no_record_result_or_seed():
    # Outside pytest's temporary folder (only root may enter it): a folder anyone may pass through,
    # as a home or a shared disk is, so that only the modes standoff gives keep the files private.
    root = Path(tempfile.mkdtemp(prefix="standoff-private-"))
    try:
        root.chmod(0o755)
        (root / "probe").write_text("readable\n")
        (root / "probe").chmod(0o644)
        assert read_as_nobody(root / "probe") == {"probe": "read: readable\n"}  # the check can read

        standoff("tournament", str(write_config(root)), umask=0o022)
        run = root / "runs" / "p"
        record = sorted((run / "records").glob("*.jsonl"))[0]
        # A match being played: its header (with the seed) written and flushed, the record open.
        playing = RecordWriter(root / "playing.jsonl")
        try:
            playing.write({"type": "header", "seed": 12345})
            playing._file.flush()
            seen = read_as_nobody(record, run / "results.jsonl", run / "master_seed", run / "elo.jsonl",
                                  run / "ratings.json", run / "config.json", run / "index.sqlite",
                                  root / "playing.jsonl")
        finally:
            playing.close()
        assert seen == dict.fromkeys([record.name, "results.jsonl", "master_seed", "elo.jsonl", "ratings.json",
                                      "config.json", "index.sqlite", "playing.jsonl"], "PermissionError")
        # Even with the run folder opened to everyone, its files stay unreadable.
        run.chmod(0o755)
        (run / "records").chmod(0o755)
        assert set(read_as_nobody(record, run / "results.jsonl", run / "master_seed").values()) == {"PermissionError"}
    finally:
        shutil.rmtree(root)
