"""Hostile plugin bots, one per attack on the machine that runs them (issue 41's suite:
tests/sandbox/test_hostile_bots.py). A plugin for ``$STANDOFF_PLUGINS``, *untrusted*: the
referee runs each in a sandbox of its own (:mod:`standoff.server.sandbox`).

Each bot answers its first decision (so the test sees that it ran, in its sandbox, and
connected), then makes its attack at its second. What it found cannot be written anywhere the
test could read (that is the point), so it is told by how the bot plays:

* the attack **succeeded** (a secret read, a connection made, the limit not there): the bot
  answers an option index that does not exist: an ``illegal`` fault in its record;
* the attack **failed as the sandbox makes it fail** (the file is not there, no route, the
  limit hit...): the bot plays on normally (option 0), and the record shows its answers;
* anything else (an unexpected error): it raises, a ``crash`` fault.

What each attack aims at comes from the module :data:`TARGET_MODULE`, which the test writes into
a folder on ``PYTHONPATH`` (bound read-only into the sandbox): the server's process id and port,
a loopback port listening beside it, the paths of the secrets and the secret environment
variable. Nothing here ever sends a byte off this machine: the "outside" address is a
TEST-NET-1 address (RFC 5737, 192.0.2.1) that is only connected to, with a short timeout, and
inside the sandbox there is no route to it at all.
"""

from __future__ import annotations

import ctypes
import errno
import glob
import importlib
import os
import socket
import subprocess
import time

from standoff.sdk.bot import Bot
from standoff.server.plugins import BotSpec, hookimpl

#: The module holding the targets (written by the test).
TARGET_MODULE = "hostile_target"
#: An index no decision has: the bot's way of saying "the attack worked".
SUCCEEDED = 1_000_000
#: TEST-NET-1 (RFC 5737): documentation only, never routed to a real host.
OUTSIDE = ("192.0.2.1", 80)
#: How many processes the fork bomb tries for (a sandbox stops it far below: 64).
FORK_BOMB = 300


def _target():
    return importlib.import_module(TARGET_MODULE)


class _Hostile(Bot):
    """Attacks once, at its second decision (``attack`` returns True if it worked), and plays
    option 0 otherwise."""

    uses_view = False
    decisions = 0

    def choose(self, decision, view):
        self.decisions += 1
        if self.decisions == 2 and self.attack():
            return SUCCEEDED
        return 0

    def attack(self) -> bool:
        raise NotImplementedError


def _reads(path: str) -> bool:
    """Whether ``path`` can be read (the sandbox: it is not there, or not readable)."""
    try:
        with open(path, "rb") as handle:
            handle.read(1)
        return True
    except (FileNotFoundError, PermissionError, NotADirectoryError):
        return False


class ReadMasterSeed(_Hostile):
    name = "hostile-read-master-seed"

    def attack(self) -> bool:
        return _reads(_target().MASTER_SEED)


class ReadRunningRecord(_Hostile):
    """Any record of the server's data folder, the running match beside it's included."""

    name = "hostile-read-record"

    def attack(self) -> bool:
        target = _target()
        return bool(glob.glob(os.path.join(target.RECORDS, "*.jsonl"))) or _reads(target.RUNNING_RECORD)


class ReadTokenFile(_Hostile):
    name = "hostile-read-tokens"

    def attack(self) -> bool:
        return _reads(_target().TOKENS)


class ReadEnvironments(_Hostile):
    """The server's secret variable in its own environment, or any environment it can read in
    /proc: another entrant's (its token) or the server's."""

    name = "hostile-read-environ"

    def attack(self) -> bool:
        target = _target()
        if os.environ.get(target.SECRET_ENV) == target.SECRET_VALUE:
            return True
        own = os.environ.get("STANDOFF_TOKEN", "").encode()
        for path in glob.glob("/proc/[0-9]*/environ"):
            try:
                with open(path, "rb") as handle:
                    text = handle.read()
            except (PermissionError, FileNotFoundError, ProcessLookupError):
                continue
            if target.SECRET_VALUE.encode() in text:
                return True
            tokens = [v for v in text.split(b"\0") if v.startswith(b"STANDOFF_TOKEN=")]
            if any(v != b"STANDOFF_TOKEN=" + own for v in tokens):
                return True  # another entrant's token
        return False


class ReadServerEnviron(_Hostile):
    name = "hostile-read-server-environ"

    def attack(self) -> bool:
        target = _target()
        try:
            with open(f"/proc/{target.SERVER_PID}/environ", "rb") as handle:
                return target.SECRET_VALUE.encode() in handle.read()
        except (FileNotFoundError, PermissionError, ProcessLookupError):
            return False


def _connects(address: tuple[str, int]) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(2)
        try:
            sock.connect(address)
            return True
        except (ConnectionRefusedError, socket.timeout, OSError) as exc:
            if isinstance(exc, OSError) and exc.errno not in (
                None, errno.ECONNREFUSED, errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ETIMEDOUT, errno.EACCES,
                errno.EPERM, errno.EADDRNOTAVAIL,
            ):
                raise
            return False


class ConnectServerPort(_Hostile):
    name = "hostile-connect-server"

    def attack(self) -> bool:
        return _connects(("127.0.0.1", _target().SERVER_PORT))


class ConnectLoopback(_Hostile):
    name = "hostile-connect-loopback"

    def attack(self) -> bool:
        return _connects(("127.0.0.1", _target().LOOPBACK_PORT))


class ConnectOutside(_Hostile):
    name = "hostile-connect-outside"

    def attack(self) -> bool:
        return _connects(OUTSIDE)


class ResolveName(_Hostile):
    name = "hostile-resolve"

    def attack(self) -> bool:
        try:
            return bool(socket.getaddrinfo("example.com", 80, type=socket.SOCK_STREAM))
        except socket.gaierror:
            return False


class ForkBomb(_Hostile):
    """Forks children that sleep until :data:`FORK_BOMB` of them run (a success) or a fork
    fails (the processes limit). Then it kills them, to play on: while they live, its own
    runner cannot start a thread either (the limit counts threads), and dies of it."""

    name = "hostile-fork-bomb"

    def attack(self) -> bool:
        children = []
        try:
            for _ in range(FORK_BOMB):
                try:
                    pid = os.fork()
                except BlockingIOError:  # EAGAIN: RLIMIT_NPROC
                    return False
                if pid == 0:
                    time.sleep(3600)
                    os._exit(0)
                children.append(pid)
            return True
        finally:
            for pid in children:
                os.kill(pid, 9)
                os.waitpid(pid, 0)


class Allocate8GiB(_Hostile):
    name = "hostile-allocate"

    def attack(self) -> bool:
        try:
            block = bytearray(8 << 30)
        except MemoryError:
            return False
        del block
        return True


class Fill4GiB(_Hostile):
    """Writes 4 GiB to /tmp in 1 MiB blocks: the file size limit or the tmpfs's size stop it."""

    name = "hostile-fill-tmp"

    def attack(self) -> bool:
        block = b"x" * (1 << 20)
        written = 0
        try:
            with open("/tmp/fill", "wb") as handle:
                while written < 4 << 30:
                    handle.write(block)
                    written += len(block)
        except OSError as exc:  # EFBIG (RLIMIT_FSIZE; Python ignores SIGXFSZ), ENOSPC (the tmpfs)
            if exc.errno not in (errno.EFBIG, errno.ENOSPC):
                raise
            return False
        finally:
            try:
                os.unlink("/tmp/fill")
            except OSError:
                pass
        return True


class Outlive(_Hostile):
    """Starts a process of its own session that sleeps for an hour, with a mark the test looks
    for among the machine's processes once the match is over. Plays on: the attack is judged
    after the match."""

    name = "hostile-outlive"

    def attack(self) -> bool:
        subprocess.Popen(["sleep", _target().OUTLIVER_MARK], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return False


class SignalServer(_Hostile):
    """Signal 0 to the server's process: whether it could be signalled (nothing is sent)."""

    name = "hostile-signal-server"

    def attack(self) -> bool:
        try:
            os.kill(_target().SERVER_PID, 0)
            return True
        except (ProcessLookupError, PermissionError):
            return False


class PtraceServer(_Hostile):
    """``PTRACE_SEIZE`` on the server's process (it does not stop the tracee), detached at once
    if it worked."""

    name = "hostile-ptrace-server"

    def attack(self) -> bool:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
        pid = _target().SERVER_PID
        if libc.ptrace(0x4206, pid, None, None) == 0:  # PTRACE_SEIZE
            libc.ptrace(17, pid, None, None)  # PTRACE_DETACH
            return True
        return False


class SleepForever(_Hostile):
    name = "hostile-sleep"

    def attack(self) -> bool:
        time.sleep(10**6)
        return True


ATTACKERS = (ReadMasterSeed, ReadRunningRecord, ReadTokenFile, ReadEnvironments, ReadServerEnviron, ConnectServerPort,
             ConnectLoopback, ConnectOutside, ResolveName, ForkBomb, Allocate8GiB, Fill4GiB, Outlive, SignalServer,
             PtraceServer, SleepForever)


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(cls, trusted=False) for cls in ATTACKERS]
