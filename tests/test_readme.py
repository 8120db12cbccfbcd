"""Every command block of README.md runs, in a fresh directory, without a traceback.

The README's ``sh`` blocks are read from the file, so a command that stops working (or a changed
option) fails here. Each line is one command, run from a fresh directory holding copies of the
repository folders the commands name (``tournaments/``, ``examples/``, ``benchmarks/``), with this
environment's ``standoff`` and ``python`` first on PATH; the blocks run in order in that one
directory, as a newcomer follows the README. A command passes when it exits 0 and
prints no ``Traceback``. How the README itself says to run some of them:

* ``... &`` runs in the background until its block ends;
* ``standoff serve`` runs "in another terminal": here in the background, until its block ends,
  then stopped with SIGTERM (it must exit 0). It listens on a port the system picks, not the
  README's (50051 may be taken on the machine running the tests): the README's address in the
  block's later lines becomes the one it printed, and a ``standoff match`` or ``standoff bot``
  line without ``--address`` (the default, 50051) gets it;
* a command the README runs "until Ctrl-C" (a ladder without ``--rounds``) gets SIGINT after a
  few seconds and must exit 130;
* ``<alice's token>`` / ``<ops token>`` are the tokens the block's ``token add`` lines printed;
* block 1 (the two set-up commands: a venv and ``pip install``, then the demo or the whole test
  suite) and the benchmarks block (minutes each) run only with ``STANDOFF_LONG=1``; in CI block 1
  is what ``.ci/run`` does, and each benchmark's arguments are checked with ``--help``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from standoff.server.cli import DEFAULT_ADDRESS

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("STANDOFF_LONG") == "1"
BIN = Path(sys.executable).parent


def blocks() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for body in re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S):
        lines = [_strip_comment(line) for line in body.splitlines()]
        found.append([line for line in lines if line])
    return found


def _strip_comment(line: str) -> str:
    """The command without its trailing ``# comment`` (a ``#`` inside quotes stays)."""
    quote = None
    for i, ch in enumerate(line):
        if ch in "'\"" and quote in (None, ch):
            quote = None if quote else ch
        elif ch == "#" and quote is None and (i == 0 or line[i - 1].isspace()):
            return line[:i].strip()
    return line.strip()


BLOCKS = blocks()
SETUP, BENCHMARKS = 0, next(i for i, b in enumerate(BLOCKS) if any("benchmarks/" in line for line in b))


@pytest.fixture
def workdir(tmp_path):
    for folder in ("tournaments", "examples", "benchmarks"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    return tmp_path


def environment() -> dict[str, str]:
    env = dict(os.environ, PATH=os.pathsep.join([str(BIN), os.environ.get("PATH", "")]))
    env.pop("STANDOFF_TOKEN", None)
    return env


def _check(line: str, run: subprocess.CompletedProcess, expected: int = 0) -> None:
    output = run.stdout + run.stderr
    assert "Traceback" not in output, f"{line}\n{output[-3000:]}"
    assert run.returncode == expected, f"{line}: exit {run.returncode}\n{output[-3000:]}"


def option(words: list[str], name: str) -> str | None:
    """The value of ``name`` (``--name VALUE`` or ``--name=VALUE``) in a command, or None."""
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(name + "="):
            return word.partition("=")[2]
    return None


def with_option(words: list[str], name: str, value: str) -> list[str]:
    """The command with ``name`` set to ``value``: replaced where it is given, else appended."""
    out, i = [], 0
    while i < len(words):
        if words[i] == name:
            i += 2
        elif words[i].startswith(name + "="):
            i += 1
        else:
            out.append(words[i])
            i += 1
    return out + [name, value]


#: The commands that connect to a referee server, at DEFAULT_ADDRESS unless given ``--address``.
CLIENTS = (["standoff", "match"], ["standoff", "bot"])


def to_server(words: list[str], readme_address: str, address: str) -> list[str]:
    """The command aimed at the server the test started (``address``) instead of the one the
    README names (``readme_address``, 50051 by default: maybe taken here by something else)."""
    words = [word.replace(readme_address, address) for word in words]
    if words[:2] in CLIENTS and option(words, "--address") is None:
        words = with_option(words, "--address", address)
    return words


def run_block(lines: list[str], cwd: Path) -> None:
    env = environment()
    tokens: dict[str, str] = {}
    served: tuple[str, str] | None = None  # (the README's address, the one the server listens on)
    background: list[tuple[str, subprocess.Popen, bool]] = []
    try:
        for line in lines:
            for name, token in tokens.items():
                line = line.replace(f"<{name}'s token>", token).replace(f"<{name} token>", token)
            words = shlex.split(line.rstrip("&").strip())
            assignments = {}
            while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
                key, _, value = words.pop(0).partition("=")
                assignments[key] = value
            command_env = dict(env, **assignments)
            if served:
                words = to_server(words, *served)
            if words[:2] == ["standoff", "serve"]:
                readme_address = option(words, "--address") or DEFAULT_ADDRESS
                words = with_option(words, "--address", "127.0.0.1:0")
            if line.endswith("&") or words[:2] == ["standoff", "serve"]:
                process = subprocess.Popen(words, cwd=cwd, env=command_env, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True)
                if words[:2] == ["standoff", "serve"]:
                    listening = process.stdout.readline()
                    assert "listening on" in listening, process.stderr.read()
                    served = (readme_address, listening.split()[-1])
                background.append((line, process, words[:2] == ["standoff", "serve"]))
                continue
            if words[:2] == ["standoff", "ladder"] and "--rounds" not in words:
                # "rounds until Ctrl-C": a few seconds, then Ctrl-C, as a user would
                process = subprocess.Popen(words, cwd=cwd, env=command_env, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True)
                time.sleep(4)
                process.send_signal(signal.SIGINT)
                out, err = process.communicate(timeout=60)
                _check(line, subprocess.CompletedProcess(words, process.returncode, out, err), 130)
                continue
            run = subprocess.run(words, cwd=cwd, env=command_env, capture_output=True, text=True, timeout=600,
                                 stdin=subprocess.DEVNULL)
            _check(line, run)
            if words[:3] == ["standoff", "token", "add"]:
                tokens[words[3]] = run.stdout.strip()
    finally:
        for line, process, graceful in background:
            if graceful:
                process.send_signal(signal.SIGTERM)
                out, err = process.communicate(timeout=60)
                _check(line, subprocess.CompletedProcess(line, process.returncode, out, err))
            else:
                process.kill()
                process.communicate(timeout=30)


@contextlib.contextmanager
def occupied(address: str) -> Iterator[None]:
    """A listening socket on ``address`` (host:port) meanwhile; when something else holds the
    port already, it is just as taken."""
    host, _, port = address.rpartition(":")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        try:
            holder.bind((host, int(port)))
            holder.listen()
        except OSError:
            pass
        yield


def test_the_readme_command_blocks_run_in_order(workdir):
    """As a newcomer follows the README: top to bottom, in one directory (later blocks use what
    earlier ones made, e.g. `standoff report runs/demo`). The README's port (50051) is taken
    meanwhile, as it may be on a machine running the tests: the blocks must not need it."""
    with occupied(DEFAULT_ADDRESS):
        for number, lines in enumerate(BLOCKS):
            if number not in (SETUP, BENCHMARKS):
                run_block(lines, workdir)


def test_the_readme_opens_with_the_two_set_up_commands():
    first = BLOCKS[SETUP]
    assert len(first) == 2 and "standoff tournament tournaments/demo.toml" in first[0]
    assert first[1].endswith(".venv/bin/python -m pytest -q -n 2")
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci == first[1], "the CI script runs exactly the README's test command"


def test_every_benchmark_command_takes_its_arguments():
    for line in BLOCKS[BENCHMARKS]:
        words = shlex.split(line)
        if "benchmarks/" not in line:
            continue
        script = ROOT / words[1]
        run = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
        _check(f"{line} (--help)", run)
        for option in (w for w in words[2:] if w.startswith("--")):
            assert option in run.stdout, f"{line}: {option} is not an option of {words[1]}"


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set STANDOFF_LONG=1")
@pytest.mark.parametrize("number", [SETUP, BENCHMARKS])
def test_long_readme_blocks_run(number, tmp_path):
    # Block 1 runs from a fresh clone (it makes a venv); the benchmarks from the repository.
    if number == SETUP:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(tmp_path / "clone")], check=True)
        cwd = tmp_path / "clone"
        lines = BLOCKS[number][:1]  # the demo; the second is the suite running this test
    else:
        cwd, lines = ROOT, BLOCKS[number]
    for line in lines:
        run = subprocess.run(line, shell=True, cwd=cwd, capture_output=True, text=True, timeout=5400)
        _check(line, run)


def test_the_cli_reference_is_current():
    """docs/cli.md is generated from the argparse definitions: options cannot drift from it."""
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "cli_reference.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
