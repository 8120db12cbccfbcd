"""The sandbox an untrusted bot plays in: bubblewrap (``bwrap``, Debian package ``bubblewrap``).

Every bot that is neither built in nor trusted (:attr:`~standoff.sdk.BotSpec.trusted`) runs as
``standoff bot run NAME --address unix:/run/standoff/referee.sock --matches 1`` inside a sandbox
of its own (:func:`sandboxed`), unless the organiser says ``--unsandboxed``. Inside:

* **no network**: a network namespace of its own (``--unshare-net``: only a loopback of its own,
  no route out, no name resolution). Its one channel to the referee is the referee's Unix-domain
  socket, bind-mounted alone at :data:`INSIDE_SOCKET` (the referee's folder holding it is
  private, ``0700``, and seen by nobody else);
* **a read-only view of the system** (``/usr``, ``/etc``, the ``/bin``-like links) and of the
  bot's own environment (:attr:`Launch.read_only`: its Python, its site-packages, the SDK it
  imports); nothing else of the host's files: not ``/root``, ``/home``, ``/work``, ``/var``,
  ``/run``, the host's ``/tmp``, so none of the server's data folder, run folders, records,
  token file or master seed;
* **a private empty /tmp**, a tmpfs of :attr:`SandboxLimits.tmp_mb` (and ``/dev/shm`` alike);
* **no environment of the server's**: only ``STANDOFF_TOKEN`` (its own seat's token, minted for
  this seat alone and forgotten when the match ends), ``PATH``, ``LANG``, ``HOME=/tmp`` and what
  :attr:`Launch.env` names (where its code is: ``PYTHONPATH``, ``STANDOFF_PLUGINS``). The token
  goes in the environment of the ``bwrap`` process, never on a command line (``ps`` shows those);
* **its own PID namespace** (``--unshare-pid``): it sees and can signal only its own processes.
  bwrap's own init is PID 1 inside; when it ends (the bot's main process exited, or bwrap was
  killed: ``--die-with-parent``), the kernel kills every process left in the namespace, so
  nothing a bot started outlives its match. ``--new-session``: no terminal to inject into;
* **limits** (:class:`SandboxLimits`), set with ``prlimit`` on bwrap and inherited by everything
  inside: address space (``RLIMIT_AS``), CPU seconds (``RLIMIT_CPU``: per process, so a match's
  bot process and each process it starts), open files (``RLIMIT_NOFILE``), file size
  (``RLIMIT_FSIZE``) and processes (``RLIMIT_NPROC``, see below).

**Its own user.** When the server runs as root, bwrap makes the mounts as root and then the
bot runs as a user of its own, ``uid_base + slot`` (``setpriv``: no supplementary groups, no
capabilities, an empty bounding set, ``no_new_privs``), one uid per sandbox running at once
(:class:`Slots`). ``RLIMIT_NPROC`` counts every process *and thread* of a real uid on the whole
host, and is not enforced for root at all: so only under a uid of its own does a fork bomb stop
at :attr:`SandboxLimits.processes`, without starving another bot's threads. The uid owns no file
(it cannot even read a ``0700`` folder of root's), cannot signal or ptrace the server (another
uid, another PID namespace). Two servers on one machine should each get their own
``uid_base``.

When the server is not root, bwrap runs unprivileged (in a user namespace of its own, which the
kernel must allow: :func:`backend_problem` tries it) and the bot keeps the server's uid outside:
files, network, environment, PID namespace and the other limits are as above, but
``RLIMIT_NPROC`` would count every process and thread of the server's own user, so it is not
set: a fork bomb is then held only by the PID namespace being torn down at the match's end and
by the memory limit of each process. Run the server as root (it switches to the sandbox uids
itself) or under a user of its own to have the processes limit.

A bot that exceeds a limit dies (``SIGKILL``, ``SIGXCPU``, ``SIGXFSZ``) or fails
(``MemoryError``, ``EMFILE``, ``EAGAIN`` on fork): its runner's end is its own seat's fault in
its own match; the referee, its other matches and the other sandboxes never see it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import trio

__all__ = [
    "DEFAULT_UID_BASE",
    "INSIDE_SOCKET",
    "INSTALL_HINT",
    "Launch",
    "RunnerProcess",
    "Sandbox",
    "SandboxLimits",
    "Sandboxed",
    "Slots",
    "backend_problem",
    "plugin_launch",
    "private_socket_dir",
    "sandboxed",
    "start_runner",
]

#: The referee's socket as a sandboxed bot sees it (``--address unix:/run/standoff/referee.sock``).
INSIDE_SOCKET = "/run/standoff/referee.sock"
#: The socket's file name in the referee's private folder (:func:`private_socket_dir`).
SOCKET_NAME = "referee.sock"
#: The key of :attr:`Sandboxed.options` that tells :func:`start_runner` it starts a sandbox.
SANDBOXED = "sandboxed"
#: Seconds a killed sandbox gets to be gone (its PID namespace torn down) before its process
#: group is killed as well.
KILL_WAIT_S = 2.0
#: What to install where bubblewrap is missing (the one line a refusal names).
INSTALL_HINT = "apt-get install bubblewrap"
#: The first uid of the sandboxes when the server is root: far above any user or subordinate-uid
#: range (``/etc/subuid`` ranges start at 100000 and go up by 65536), below the 32-bit limit.
DEFAULT_UID_BASE = 1_700_000_000
#: System folders bound read-only (when present), and the ``/bin``-like names that may be links.
SYSTEM_DIRS = ("/usr", "/etc")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Environment variables passed to a plugin bot's runner because they say where its code is.
CODE_ENV = ("PYTHONPATH", "STANDOFF_PLUGINS")


@dataclass(frozen=True)
class SandboxLimits:
    """What one sandboxed bot may use (tournament config ``[sandbox]``, ``standoff serve``
    ``--sandbox-*`` flags). Sizes in MiB, times in seconds; each at least 1.

    ``memory_mb`` is address space per process (``RLIMIT_AS``: a Python bot with gRPC maps
    ~600 MiB before it allocates anything of its own); ``cpu_s_per_match`` CPU seconds per
    process (its runner plays one match); ``processes`` processes and threads of its uid
    (``RLIMIT_NPROC``, root only: see the module's docs); ``open_files`` descriptors per process;
    ``file_size_mb`` the largest file it may write; ``tmp_mb`` the size of its ``/tmp`` (and
    ``/dev/shm``), held in the host's memory."""

    memory_mb: int = 2048
    cpu_s_per_match: int = 600
    processes: int = 64
    open_files: int = 256
    file_size_mb: int = 64
    tmp_mb: int = 64

    def __post_init__(self) -> None:
        for name, value in self.items():
            if type(value) is not int or value < 1:
                raise ValueError(f"sandbox {name}: expected a whole number >= 1, got {value!r}")

    def items(self) -> list[tuple[str, int]]:
        """``(name, value)`` of every limit, in the documented order."""
        return [(name, getattr(self, name)) for name in LIMIT_NAMES]


#: The names of :class:`SandboxLimits`, in order (config keys and ``--sandbox-NAME`` flags).
LIMIT_NAMES = ("memory_mb", "cpu_s_per_match", "processes", "open_files", "file_size_mb", "tmp_mb")


@dataclass(frozen=True)
class Launch:
    """What to run in a sandbox: ``python`` with ``argv_tail`` (e.g. ``-m standoff.sdk.cli
    bot run NAME --address unix:... --matches 1``), seeing ``read_only`` (folders or files, bound
    read-only at the same paths) besides the system, with ``env`` added to its environment
    (``(name, value)`` pairs naming where its code is; never a secret)."""

    python: Path
    argv_tail: tuple[str, ...]
    read_only: tuple[Path, ...]
    env: tuple[tuple[str, str], ...] = ()

    def at(self, address: str) -> tuple[str, ...]:
        """``argv_tail`` with its ``--address`` value replaced by ``address`` (unsandboxed: the
        referee's TCP address)."""
        tail = list(self.argv_tail)
        if "--address" in tail[:-1]:
            tail[tail.index("--address") + 1] = address
        return tuple(tail)


def runner_argv(name: str, address: str = f"unix:{INSIDE_SOCKET}") -> tuple[str, ...]:
    """The tail of the command that plays one match as bot ``name`` through the SDK."""
    return ("-m", "standoff.sdk.cli", "bot", "run", name, "--address", address, "--matches", "1")


def plugin_launch(name: str) -> Launch:
    """The :class:`Launch` of plugin bot ``name`` installed beside the server: this Python
    (``sys.executable``), its installation and environment, the folders the ``standoff``
    packages are imported from (an editable install maps them into a source tree), and the
    ``PYTHONPATH`` entries and ``$STANDOFF_PLUGINS`` modules the server was given."""
    env = tuple((key, os.environ[key]) for key in CODE_ENV if os.environ.get(key))
    return Launch(Path(sys.executable), runner_argv(name), _environment_paths(os.environ.get("PYTHONPATH", "")), env)


@functools.lru_cache(maxsize=4)
def _environment_paths(pythonpath: str) -> tuple[Path, ...]:
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(os.path.realpath(sys.executable)).parent}
    import site

    paths.update(Path(p) for p in site.getsitepackages())
    for package in ("sdk", "server", "bots", "tournaments", "v1"):
        spec = importlib.util.find_spec(f"standoff.{package}")
        if spec is not None and spec.submodule_search_locations:
            paths.update(Path(p) for p in spec.submodule_search_locations)
    paths.update(Path(p) for p in pythonpath.split(os.pathsep) if os.path.isabs(p))
    return _outermost(p for p in paths if p.exists())


def _outermost(paths) -> tuple[Path, ...]:
    """``paths`` resolved, without those inside another one, sorted (a deterministic command)."""
    resolved = sorted({Path(os.path.realpath(p)) for p in paths})
    kept: list[Path] = []
    for path in resolved:
        if not any(path.is_relative_to(outer) for outer in kept):
            kept.append(path)
    return tuple(kept)


# -- the backend ------------------------------------------------------------------------------------


def backend_problem() -> str | None:
    """None if bubblewrap can make a sandbox here; else ONE line saying why and naming the
    package to install. Tried once per process (a ``bwrap`` that cannot make namespaces, e.g.
    unprivileged user namespaces disabled, counts as missing)."""
    return _backend_problem()


@functools.lru_cache(maxsize=1)
def _backend_problem() -> str | None:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return f"bubblewrap (bwrap) is not installed: {INSTALL_HINT}, or run untrusted bots --unsandboxed"
    missing = [tool for tool in ("prlimit", "setpriv") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found (Debian package util-linux), needed for the sandbox's limits"
    probe = [bwrap, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "--die-with-parent", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap does not work here ({exc}); run untrusted bots --unsandboxed"
    if done.returncode != 0:
        reason = " ".join(done.stderr.split())[:200] or f"exit status {done.returncode}"
        return f"bubblewrap cannot make a sandbox here ({reason}); run untrusted bots --unsandboxed"
    return None


# -- the command ------------------------------------------------------------------------------------


class Sandboxed(NamedTuple):
    """How to start a sandboxed bot: ``argv`` (``prlimit ... bwrap ... python ...``), its whole
    environment ``env``, and ``options`` for :func:`start_runner` (:class:`subprocess.Popen`'s,
    and :data:`SANDBOXED`).
    No ``preexec_fn``: the uid switch is ``setpriv``'s and the limits ``prlimit``'s, in the
    command itself (a Python function between fork and exec is unsafe in a threaded server)."""

    argv: list[str]
    env: dict[str, str]
    options: dict[str, object]


def sandboxed(launch: Launch, *, socket_dir: Path, token: str, limits: SandboxLimits, slot: int,
              uid_base: int = DEFAULT_UID_BASE) -> Sandboxed:
    """The command that runs ``launch`` in a sandbox (see the module's docs), its only channel
    ``socket_dir/referee.sock`` seen at :data:`INSIDE_SOCKET`, its token ``token``, under
    ``limits``; as uid ``uid_base + slot`` when this process is root."""
    root = os.geteuid() == 0
    mib = 1 << 20
    rlimits = [f"--as={limits.memory_mb * mib}", f"--cpu={limits.cpu_s_per_match}",
               f"--nofile={limits.open_files}", f"--fsize={limits.file_size_mb * mib}"]
    if root:
        rlimits.append(f"--nproc={limits.processes}")
    argv = [_tool("prlimit"), *rlimits, "--", _tool("bwrap"),
            "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", "--hostname", "sandbox"]
    if not root:
        argv.append("--unshare-user")
    argv += _filesystem(launch, socket_dir, limits.tmp_mb * mib)
    argv += ["--chdir", "/tmp", "--"]
    if root:
        uid = str(uid_base + slot)
        argv += [_tool("setpriv"), "--reuid", uid, "--regid", uid, "--clear-groups", "--inh-caps=-all",
                 "--bounding-set=-all", "--no-new-privs", "--pdeathsig", "keep", "--"]
    argv += [str(launch.python), *launch.argv_tail]
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", **dict(launch.env),
           "STANDOFF_TOKEN": token}
    return Sandboxed(argv, env, {"start_new_session": True, SANDBOXED: True})


def _tool(name: str) -> str:
    return shutil.which(name) or name


def _filesystem(launch: Launch, socket_dir: Path, tmp_bytes: int) -> list[str]:
    """bwrap's mounts: a fresh root (bwrap's tmpfs) holding the system read-only, the launch's
    paths read-only, the referee's socket, /proc of its own PID namespace, a minimal /dev, and
    size-limited tmpfs /tmp and /dev/shm. Folders made on the way are ``0755``, so that a
    sandbox uid can pass through to a bound path (its host parent, e.g. ``/root``, may be
    ``0700``: the sandbox does not see it)."""
    # /tmp first: a path bound below it (a plugin in a temporary folder) goes on top of it.
    args: list[str] = ["--size", str(tmp_bytes), "--perms", "1777", "--tmpfs", "/tmp"]
    made: set[str] = {"/", "/tmp"}

    def parents(path: str) -> None:
        parent = os.path.dirname(path)
        if parent in made:
            return
        parents(parent)
        args.extend(["--perms", "0755", "--dir", parent])
        made.add(parent)

    for link in SYSTEM_LINKS:
        if os.path.islink(link):
            args.extend(["--symlink", os.readlink(link), link])
        elif os.path.isdir(link):
            args.extend(["--ro-bind", link, link])
    for folder in SYSTEM_DIRS:
        if os.path.isdir(folder):
            args.extend(["--ro-bind", folder, folder])
            made.add(folder)
    # The private /tmp before the read-only binds: bwrap mounts in order, and a path bound
    # under /tmp (a registry or PYTHONPATH folder there) would be hidden by a later tmpfs.
    args.extend(["--proc", "/proc", "--dev", "/dev",
                 "--size", str(tmp_bytes), "--perms", "1777", "--tmpfs", "/dev/shm"])
    made.update(("/proc", "/dev", "/tmp", "/dev/shm"))
    for path in _outermost(launch.read_only):
        text = str(path)
        if any(text == d or text.startswith(d + "/") for d in SYSTEM_DIRS):
            continue  # already seen, read-only
        parents(text)
        args.extend(["--ro-bind", text, text])
        made.add(text)
    parents(INSIDE_SOCKET)
    args.extend(["--bind", str(Path(socket_dir) / SOCKET_NAME), INSIDE_SOCKET])
    return args


def private_socket_dir() -> Path:
    """A new private folder (``0700``, this process's user) for the referee's Unix socket;
    the caller removes it (:func:`shutil.rmtree`) when the server stops."""
    return Path(tempfile.mkdtemp(prefix="standoff-referee-"))


def open_socket(socket_dir: Path) -> None:
    """Let the sandbox uids connect to the referee's socket (``0666``): connecting needs write
    permission on it; its folder stays ``0700``, so on the host only this user reaches it."""
    os.chmod(Path(socket_dir) / SOCKET_NAME, 0o666)


# -- uids of their own -----------------------------------------------------------------------------


class Slots:
    """Numbers for the sandboxes running at once in this process, the lowest free first: a
    sandbox's uid is ``uid_base + slot``, so no two running bots share a uid (and its process
    count). A slot is given back once its sandbox is gone (its PID namespace with it)."""

    def __init__(self) -> None:
        self._taken: set[int] = set()
        self._lock = threading.Lock()

    def take(self) -> int:
        with self._lock:
            slot = next(n for n in range(len(self._taken) + 1) if n not in self._taken)
            self._taken.add(slot)
            return slot

    def give_back(self, slot: int) -> None:
        with self._lock:
            self._taken.discard(slot)


#: The slots of every referee in this process (one process, one range of uids).
SLOTS = Slots()


@dataclass(frozen=True)
class Sandbox:
    """A referee's sandbox setting: ``enabled`` (False: ``--unsandboxed``, untrusted bots run
    as plain subprocesses with the server's user, environment and network), the ``limits``, and
    ``uid_base`` (root only)."""

    enabled: bool = True
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    uid_base: int = DEFAULT_UID_BASE

    def refusal(self, bot: str) -> str | None:
        """Why untrusted bot ``bot`` cannot run here (one line), or None."""
        if not self.enabled:
            return None
        problem = backend_problem()
        if problem is None:
            return None
        return f"bot {bot!r} is an untrusted plugin and runs only in a sandbox: {problem}"


# -- running it ------------------------------------------------------------------------------------


class RunnerProcess:
    """A started bot runner (sandboxed or not), awaited from trio.

    Started with :func:`start_runner` on the calling thread, not in a worker thread as
    ``trio.run_process`` does: bwrap's ``--die-with-parent`` is ``PR_SET_PDEATHSIG``, which
    fires when the *thread* that forked it ends, and trio's worker threads end when idle; the
    referee's own thread lives as long as the referee."""

    def __init__(self, popen: subprocess.Popen, sandboxed: bool = False) -> None:
        self.popen = popen
        self.sandboxed = sandboxed
        self.pid = popen.pid
        self._pidfd = os.pidfd_open(popen.pid)

    async def wait(self) -> int:
        """The exit status, once the process is gone (negative: killed by that signal)."""
        try:
            while self.popen.poll() is None:
                await trio.lowlevel.wait_readable(self._pidfd)
        finally:
            if self.popen.returncode is not None:
                self._close()
        return self.popen.returncode

    def kill(self) -> None:
        """End it now, and everything in its sandbox; unsandboxed, its process group."""
        if self.popen.returncode is not None:
            return
        if self.sandboxed:
            # bwrap's child is the sandbox's PID 1: killed, the kernel kills and reaps every
            # process of the namespace before it is gone, and only then does bwrap exit. So once
            # bwrap is reaped, nothing of the sandbox is left (killing bwrap first would leave
            # the namespace's end to happen later, unwatched).
            for child in _children(self.pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(child, signal.SIGKILL)
            return
        self.kill_group()

    def kill_group(self) -> None:
        """SIGKILL its process group (``start_new_session``: the group's id is its pid)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def _close(self) -> None:
        if self._pidfd >= 0:
            trio.lowlevel.notify_closing(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = -1

    async def run(self) -> int:
        """Wait for its end; cancelled, kill it first (and reap it, shielded)."""
        try:
            return await self.wait()
        finally:
            if self.popen.returncode is None:
                with trio.CancelScope(shield=True):
                    await self.stop()

    async def stop(self) -> None:
        """Kill it (:meth:`kill`) and wait until it is gone; a sandbox whose bwrap is still
        there after :data:`KILL_WAIT_S` (no child found to kill) loses its process group."""
        self.kill()
        with trio.move_on_after(KILL_WAIT_S):
            await self.wait()
        if self.popen.returncode is None:
            self.kill_group()
            await self.wait()


def start_runner(argv: list[str], env: dict[str, str], options: dict[str, object] | None = None,
                 **popen: object) -> RunnerProcess:
    """Start ``argv`` (stdin empty) on this thread; ``popen`` may redirect ``stderr``."""
    options = dict(options or {})
    sandbox = bool(options.pop(SANDBOXED, False))
    process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, **options, **popen)
    return RunnerProcess(process, sandbox)


def _children(pid: int) -> list[int]:
    """The direct children of process ``pid`` (Linux's ``/proc/PID/task/*/children``)."""
    found: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in children.read_text().split()]
    return found
