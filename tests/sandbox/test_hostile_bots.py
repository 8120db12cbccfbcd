"""Issue 41's hostile-bot suite: each untrusted plugin bot of ``kits.hostile`` makes one attack
from its sandbox (bubblewrap), in a real match against a built-in bot on a real referee, while
a healthy match of a sandboxed bot goes on beside it.

Each attack fails (the bot says so by how it plays: ``kits.hostile``), the attacker's match ends
normally or as the attacker's own fault, the match beside it ends without a fault, the server
goes on serving, and nothing of the sandboxes is left running afterwards. A control plays the
harmless attacks *unsandboxed* (``--unsandboxed``) and sees them succeed: the suite's verdicts
are not empty.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import time
from pathlib import Path

import grpc
import pytest

from standoff.server.faults import CRASH, ILLEGAL, TIMEOUT
from standoff.server.plugins import load_registry
from standoff.server.sandbox import DEFAULT_UID_BASE, Sandbox, backend_problem
from standoff.v1 import referee_pb2 as pb

from kits.server import ServerThread

pytestmark = pytest.mark.skipif(backend_problem() is not None,
                                reason=f"no sandbox here: {backend_problem()} (CI installs bubblewrap)")

TESTS = Path(__file__).resolve().parents[1]
SECRET_ENV = "STANDOFF_HOSTILE_TEST_SECRET"
#: Attacks judged by the attacker's answer alone (it played on: each failed).
READS = ["hostile-read-master-seed", "hostile-read-record", "hostile-read-tokens", "hostile-read-environ",
         "hostile-read-server-environ"]
NETWORK = ["hostile-connect-server", "hostile-connect-loopback", "hostile-connect-outside", "hostile-resolve"]
PROCESSES = ["hostile-signal-server", "hostile-ptrace-server"]
RESOURCES = ["hostile-fork-bomb", "hostile-allocate", "hostile-fill-tmp"]
#: A benign untrusted bot for the match beside: ``hostile-outlive`` plays normally and its
#: leftover is looked for after the match (sandboxed, there is none).
BESIDE = "hostile-outlive"


class Target:
    """The machine the attacks aim at: a server in this process with a secret environment
    variable, a data folder holding a master seed, records and the token file, a loopback port
    listening beside it; and the module that tells the bots about it."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch, sandbox: Sandbox) -> None:
        self.data = root / "data"
        self.data.mkdir()
        self.master_seed = self.data / "run" / "master_seed"
        self.master_seed.parent.mkdir()
        self.master_seed.write_text(str(secrets.randbits(63)))
        self.master_seed.chmod(0o600)
        self.secret = secrets.token_hex(16)
        self.mark = f"3600.{secrets.randbelow(10**6)}"  # `sleep 3600.NNN`: an outliver's command line
        self.listener = socket.create_server(("127.0.0.1", 0))
        params = root / "params"
        params.mkdir()
        monkeypatch.setenv(SECRET_ENV, self.secret)
        monkeypatch.setenv("STANDOFF_PLUGINS", "kits.hostile")
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), str(params)]))
        self.server = ServerThread(self.data, registry=load_registry(entry_points=False))
        self.server.sandbox = sandbox
        self.server.start()
        (params / "hostile_target.py").write_text(
            f"SERVER_PID = {os.getpid()}\n"
            f"SERVER_PORT = {int(self.server.address.rsplit(':', 1)[1])}\n"
            f"LOOPBACK_PORT = {self.listener.getsockname()[1]}\n"
            f"MASTER_SEED = {str(self.master_seed)!r}\n"
            f"RECORDS = {str(self.data / 'records')!r}\n"
            f"RUNNING_RECORD = ''\n"
            f"TOKENS = {str(self.data / 'tokens.json')!r}\n"
            f"SECRET_ENV = {SECRET_ENV!r}\n"
            f"SECRET_VALUE = {self.secret!r}\n"
            f"OUTLIVER_MARK = {self.mark!r}\n"
        )

    def close(self) -> None:
        self.server.stop()
        self.listener.close()
        _kill_marked(self.mark)  # a control's outliver (unsandboxed, it outlives the match)

    def play(self, attacker: str, *, max_ms: int = 30_000) -> tuple[dict, dict]:
        """The attacker's match and a healthy match beside it, at once: each one's record as
        (header, moves, outcome)."""
        tc = pb.TimeControl(max_per_decision_ms=max_ms)
        beside = self.server.start_match([BESIDE, "random"], seed=7, connect_timeout_ms=60_000)
        attacked = self.server.start_match([attacker, "random"], seed=11, connect_timeout_ms=60_000,
                                           time_control=tc)
        for response in (beside, attacked):
            self.server.wait_finished(response.match_id, timeout=180)
        return _record(self.server, attacked.match_id), _record(self.server, beside.match_id)


def _record(server: ServerThread, match_id: str) -> dict:
    """A finished match's record (served once the match is gone from the running ones, just
    after it is marked finished)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            text = server.record(match_id)
            break
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.FAILED_PRECONDITION or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    lines = [json.loads(line) for line in text.splitlines()]
    moves = [line for line in lines[1:] if line.get("type") != "outcome"]
    return {"header": lines[0], "moves": moves, "outcome": lines[-1]}


def _faults(record: dict, role: str = "p1") -> dict:
    return record["outcome"].get("faults", {}).get(role, {})


def _answered(record: dict, role: str = "p1") -> int:
    """Decisions the bot answered itself, over the wire."""
    return sum(1 for m in record["moves"] if m.get("role") == role and "rtt_ms" in m)


def _processes() -> list[tuple[int, int, str]]:
    """(pid, real uid, command line) of every process on the machine."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        uid = int(next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1])
        found.append((int(entry.name), uid, cmdline))
    return found


def _left_behind(mark: str) -> list[tuple[int, int, str]]:
    """Processes of the sandbox uids, or marked by an outliver, or children of this process
    running a bot (a runner not reaped)."""
    me = os.getpid()
    left = []
    for pid, uid, cmdline in _processes():
        sandbox_uid = DEFAULT_UID_BASE <= uid < DEFAULT_UID_BASE + 10_000
        if sandbox_uid or mark in cmdline or (_parent(pid) == me and "bot run" in cmdline):
            left.append((pid, uid, cmdline))
    return left


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def _nothing_left(mark: str) -> list:
    """What is left behind once the matches are over, looked at until it is gone (a killed
    sandbox's processes are reaped by the kernel as its PID namespace ends: at most a few
    seconds) or for 20 s; an empty list is the pass."""
    deadline = time.monotonic() + 20
    while (left := _left_behind(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _kill_marked(mark: str) -> None:
    for pid, _, cmdline in _processes():
        if mark in cmdline:
            try:
                os.kill(pid, 9)
            except OSError:
                pass


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory):
    with pytest.MonkeyPatch.context() as monkeypatch:
        found = Target(tmp_path_factory.mktemp("hostile"), monkeypatch, Sandbox())
        try:
            yield found
        finally:
            found.close()


def _check_beside(beside: dict) -> None:
    """The healthy match beside the attack: played to its end, no fault, the sandboxed bot
    answering over the wire."""
    assert beside["outcome"]["termination"] not in ("error", "forfeit", "not_played", "shutdown"), beside["outcome"]
    assert not beside["outcome"].get("faults"), beside["outcome"]
    assert _answered(beside) > 0


@pytest.mark.parametrize("attacker", READS + NETWORK + PROCESSES)
def test_attack_fails_and_the_attacker_plays_on(target: Target, attacker: str):
    """The attack failed (the bot played on: no ``illegal`` answer, not even a crash: it met
    the failure the sandbox gives), the bot really ran in its sandbox (it answered its first
    decision over the wire), and the match beside it is untouched."""
    attacked, beside = target.play(attacker)
    assert ILLEGAL not in _faults(attacked), f"{attacker} succeeded: {attacked['outcome']}"
    assert not _faults(attacked), attacked["outcome"]
    assert _answered(attacked) > 1
    assert attacked["outcome"]["termination"] not in ("error", "not_played", "shutdown")
    _check_beside(beside)
    assert _nothing_left(target.mark) == []


@pytest.mark.parametrize("attacker", RESOURCES)
def test_a_limit_stops_the_attack_and_hurts_only_the_attacker(target: Target, attacker: str):
    """A fork bomb stops at the processes limit, 8 GiB at the memory limit, 4 GiB in /tmp at
    the file size limit: the bot either plays on (it met the failure: ``MemoryError``, ``EFBIG``)
    or its runner dies or stalls of the limit (gRPC cannot start a thread while the bomb holds
    every process slot): then its own ``crash`` or ``timeout``, in its own match. Never ``illegal`` (the
    attack worked), never the match beside or the server."""
    attacked, beside = target.play(attacker, max_ms=10_000)
    faults = _faults(attacked)
    assert ILLEGAL not in faults, f"{attacker} succeeded: {attacked['outcome']}"
    assert faults in ({}, {CRASH: 1}, {TIMEOUT: 1}), attacked["outcome"]
    if faults:
        assert attacked["outcome"]["termination"] == "forfeit" and attacked["outcome"]["winner"] == "p2"
        assert "hostile" in attacked["outcome"]["reason"], attacked["outcome"]
    assert _answered(attacked) >= 1  # it ran, connected and answered before its attack
    _check_beside(beside)
    assert _nothing_left(target.mark) == []


def test_sleeping_forever_is_the_sleepers_timeout(target: Target):
    attacked, beside = target.play("hostile-sleep", max_ms=3_000)
    assert _faults(attacked) == {TIMEOUT: 1}, attacked["outcome"]
    assert attacked["outcome"]["winner"] == "p2" and attacked["outcome"]["termination"] == "forfeit"
    _check_beside(beside)
    assert _nothing_left(target.mark) == []  # the sleeper was killed with its sandbox


def test_a_process_started_to_outlive_the_match_does_not(target: Target):
    """``hostile-outlive`` starts ``sleep`` in a session of its own and plays on: once the
    match is over, the process is gone with the sandbox's PID namespace."""
    attacked, beside = target.play("hostile-outlive")
    assert not _faults(attacked) and _answered(attacked) > 1
    _check_beside(beside)
    assert _nothing_left(target.mark) == []


def test_the_server_serves_on_after_every_attack(target: Target):
    """After the whole suite (this test runs last in the module): a plain match is played."""
    response = target.server.start_match(["greedy", "random"], seed=3, wait=True)
    assert response.summary.result.termination not in ("error", "not_played")


# -- the control: the same attacks unsandboxed succeed --------------------------------------------

#: Attacks that are harmless to make for real on this machine (they read or connect locally).
CONTROL = ["hostile-read-master-seed", "hostile-read-tokens", "hostile-read-environ", "hostile-connect-server",
           "hostile-connect-loopback", "hostile-signal-server"]


@pytest.fixture(scope="module")
def unsandboxed(tmp_path_factory: pytest.TempPathFactory):
    with pytest.MonkeyPatch.context() as monkeypatch:
        found = Target(tmp_path_factory.mktemp("control"), monkeypatch, Sandbox(enabled=False))
        try:
            yield found
        finally:
            found.close()


@pytest.mark.parametrize("attacker", CONTROL)
def test_control_unsandboxed_the_attack_succeeds(unsandboxed: Target, attacker: str):
    """What ``--unsandboxed`` risks: the same bot reads the secret, connects, could signal the
    server. The suite's bots do tell a success (an ``illegal`` answer)."""
    attacked, _ = unsandboxed.play(attacker)
    assert _faults(attacked).get(ILLEGAL) == 1, attacked["outcome"]
