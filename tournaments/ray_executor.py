"""The ``ray`` executor: matches between trusted plugin bots as Ray tasks (``executor = "ray"``).

Needs the optional extra: ``pip install 'standoff[ray]'``. ``docs/ray.md`` tells how to run a
tournament on a Ray cluster; in short:

* the coordinator (``standoff tournament``) stays where it is: it schedules, plays the matches
  that need its referee (remote entrants, untrusted plugin bots), and is the single writer of
  ``results.jsonl``, ``elo.jsonl`` and the record files;
* every match between trusted plugin bots becomes one Ray task, :func:`play_job` (one CPU): it
  loads the bots by their plugin names (the registry of the node it runs on, with the
  coordinator's ``$STANDOFF_PLUGINS``), plays the match with
  :func:`standoff.tournaments.worker.run_job` (the local executor's code) into a temporary folder,
  and returns the result *and the record files' bytes*: no shared filesystem is needed;
* a task whose worker process dies (a crash, a node lost) is submitted again by the coordinator
  (not by Ray: it counts the attempts) and plays the match again from its seed; results are
  idempotent by match id (the coordinator writes one line per match id, whatever number of
  answers it gets), so retries and duplicates are harmless;
* at most ``concurrency`` tasks are in flight. Waiting never blocks the trio coordinator: each
  task's ``ObjectRef.future()`` wakes the waiting trio task through its trio token.

Failures are one line each (docs/ray.md): connecting is bounded in time (a cluster that does
not answer, or that wants a token, is named with the cause); every node is checked at start
(each entrant's bot loads there, with the coordinator's ``$STANDOFF_PLUGINS``); a match that
fails on a node is an ``error`` result naming the match and the node, and the run goes on, as
with the local executor. A failure of the cluster itself (the coordinator's raylet lost:
:func:`failure_kind`; a GCS that does not answer while a match waits) is never a result: it
stops the run (:class:`ClusterFailed`), the matches not played yet keep no line, and the same
command resumes them. A task never imports from the coordinator's working directory (Ray puts
it on every worker's ``sys.path``, where it exists only on the coordinator's machine), so one
machine behaves as a real cluster does.

``ray_address``: ``"auto"`` (``$RAY_ADDRESS`` or the cluster ``ray start`` started on this
machine), ``"ray://HOST:PORT"`` (Ray Client), ``"HOST:PORT"`` (a cluster's GCS address, from a
node of that cluster), or ``"local"``: a private one-machine cluster, ``ray.init(num_cpus=workers)``
(bound to 127.0.0.1), started for the run and stopped after it. A program that has already
called ``ray.init()`` itself (a test, a notebook) has its session used as it is, and kept open.
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import logging
import os
import queue
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import trio

from ..server.private_files import private_dir
from .errors import ClusterFailed, MatchCrashed, RunError

__all__ = ["ATTEMPTS", "MAX_RETRIES", "RayExecutor", "check_node", "failure_kind", "play_job"]

#: A match whose worker process died is played again this many times (then it is an error).
MAX_RETRIES = 3
#: Attempts at a match whose worker process keeps dying before it is an ``error`` result.
ATTEMPTS = MAX_RETRIES + 1
#: Seconds to reach a cluster's address (TCP) before saying it does not answer.
PROBE_TIMEOUT_S = 10.0
#: Seconds for the whole connection to a cluster before giving up.
CONNECT_TIMEOUT_S = 60.0
#: Seconds for a local cluster's start-up (``ray_address = "local"``; slow on a busy machine).
LOCAL_START_TIMEOUT_S = 180.0
#: Seconds for every node to answer the start-up check (a node starts a worker process for it).
CHECK_TIMEOUT_S = 120.0
#: Seconds a match's task may run without news before the coordinator asks the cluster's GCS
#: whether it is there (one question at a time, for all the tasks in flight).
HEALTH_EVERY_S = 10.0
#: Seconds the GCS has to answer. A GCS lost with the coordinator's node is never reported as a
#: task's failure (Ray learns of a dead raylet from the GCS): without this question the tasks
#: would wait until Ray ends the coordinator itself, after 60 s without its GCS.
GCS_TIMEOUT_S = 20.0


# -- the task (runs in a Ray worker process, on any node) -----------------------------------------

_registries: dict[str, Any] = {}


def _registry(plugins: str, driver_paths: list[str] | tuple[str, ...] = ()) -> Any:
    """The registry of trusted bots for the coordinator's ``$STANDOFF_PLUGINS`` (cached: a Ray
    worker process plays many matches). ``driver_paths``: the folders Ray added to this
    worker's ``sys.path`` from the coordinator (its working directory, its script's folder);
    they are taken out first: they exist on the coordinator's machine only, and a plugin found
    there on one machine would be missing on every other node."""
    for path in driver_paths:
        if path in sys.path:
            sys.path.remove(path)  # one occurrence: the node's own $PYTHONPATH may hold it too
    if plugins not in _registries:
        from ..server.plugins import PLUGINS_ENV, load_registry

        os.environ[PLUGINS_ENV] = plugins  # the registry reads it; same modules as the coordinator
        # Tasks run trusted bots only: built-ins and operator-named $STANDOFF_PLUGINS modules.
        _registries[plugins] = load_registry(entry_points=False)
    return _registries[plugins]


#: Where a task writes a match's records before returning them: memory (tmpfs) where there is
#: one, since the files only live until the task returns (their fsync is then free).
_SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
_scratch: Path | None = None


def _scratch_dir() -> Path:
    """This worker process's scratch folder, ``<tmpfs or temp>/standoff-ray/<pid>``. The first
    task of a process removes the folders of processes that are gone (a worker killed mid-match
    leaves its match's folder behind). Private (``0700``; each match's folder in it too, and
    its records ``0600``): a record names its match's seed."""
    global _scratch
    if _scratch is None or not _scratch.is_dir():
        base = Path(_SCRATCH or tempfile.gettempdir()) / "standoff-ray"
        _scratch = private_dir(base / str(os.getpid()))
        for other in base.iterdir():
            if other.name.isdigit() and not _alive(int(other.name)):
                shutil.rmtree(other, ignore_errors=True)
    return _scratch


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process
    return True


def play_job(job: dict[str, Any]) -> dict[str, Any]:
    """Play one match (a job of :meth:`standoff.tournaments.dispatch.Executor._job`) and return
    ``{"result": <results.jsonl line>, "records": {file name: bytes}, "node": ...}``, or
    ``{"error": ..., "node": ...}`` (an exception in the match: reported, not retried; a match
    replays identically). ``node``: where it was played (:func:`_this_node`)."""
    from .worker import run_job

    try:
        registry = _registry(job.get("plugins") or "", job.get("driver_paths") or ())
        with tempfile.TemporaryDirectory(prefix="match-", dir=_scratch_dir()) as folder:
            result = run_job({**job, "records_dir": folder}, registry)
            records = {p.name: p.read_bytes() for p in sorted(Path(folder).glob("*.jsonl"))}
    except Exception:  # noqa: BLE001 - reported to the coordinator, as the local workers do
        return {"error": traceback.format_exc(limit=5), "node": _this_node()}
    return {"result": result.to_json(), "records": records, "node": _this_node()}


def _this_node() -> str:
    """This node as the operator finds it in ``ray status`` and ``ray list nodes``: its
    address and the start of its node id (several nodes may share one address)."""
    import ray

    try:
        node_id = ray.get_runtime_context().get_node_id()
        return f"{ray.util.get_node_ip_address()} ({node_id[:8]})"
    except Exception:  # noqa: BLE001 - naming the node must never hide the error itself
        return socket.gethostname()


def check_node(plugins: str, driver_paths: list[str], entrants: list[str]) -> dict[str, Any]:
    """The start-up check, run once on each node: which ``entrants`` this node cannot load
    (with the plugin problems that explain it) and its standoff version; or, first, its compiled
    engine modules older than their sources. Those are named before anything imports the engine
    (nor does this module at its import), which the import guard would refuse with the first
    stale module it met (server/import_guard.py)."""
    from ..server.accelerate import stale

    old = stale()
    if old:
        return {"node": _this_node(), "missing": [], "problems": [], "version": None, "stale": old}
    from ..server.local import code_version

    registry = _registry(plugins, driver_paths)
    missing = [name for name in entrants if name not in registry.bots or not registry.bots[name].trusted]
    return {"node": _this_node(), "missing": missing, "problems": list(registry.problems),
            "version": code_version(), "stale": stale()}


def node_faults(answers: list[dict[str, Any]], version: str) -> list[str]:
    """What keeps each node from playing, one clause per node, from the start-up check's answers
    (:func:`check_node`) and the coordinator's ``version``."""
    faults = []
    for answer in answers:
        if "error" in answer:
            faults.append(f'node {answer["node"]} cannot run standoff tasks: {answer["error"]}')
        elif answer.get("stale"):
            # A compiled engine module older than its source would play old rules on that node.
            faults.append(f'node {answer["node"]} has a stale compiled engine ({", ".join(answer["stale"])}: '
                          "run `standoff accelerate` again there, or `standoff accelerate --remove`)")
        elif answer["missing"]:
            why = "; ".join(answer["problems"]) or "no plugin there declares them (trusted)"
            faults.append(f'node {answer["node"]} cannot load {", ".join(answer["missing"])}: {why}')
        elif answer["version"] != version:
            faults.append(f'node {answer["node"]} runs {answer["version"]}, the coordinator {version}')
    return faults


_remote_play: Any = None


def _import_ray(local: bool) -> Any:
    if local and "ray" not in sys.modules:
        # A "local" cluster is private to this machine: Ray then binds every service to
        # 127.0.0.1 (on Linux it otherwise uses the machine's network address). Read once, when
        # ray is first imported; harmless if ray was imported already.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    import ray

    return ray


# -- trio <-> concurrent futures ----------------------------------------------------------------


async def wait_future(future: concurrent.futures.Future[Any]) -> Any:
    """Wait for a ``concurrent.futures.Future`` without blocking trio (nor holding a thread):
    its done-callback, run in whatever thread completes it, wakes this task."""
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def wake(_: Any) -> None:
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass  # the run is over: nobody waits any more

    future.add_done_callback(wake)
    await done.wait()
    return future.result()


class DriverThread:
    """One long-lived *daemon* thread that runs the Ray driver calls (``ray.init``,
    ``ray.shutdown``, the start-up check): Ray's driver state must not belong to a thread that
    ends, and a call that hangs (a cluster that never answers) must neither block trio nor keep
    the process alive once the run has given up on it (a pooled thread is joined at exit)."""

    def __init__(self) -> None:
        self.calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="standoff-ray", daemon=True)
        self.thread.start()

    def submit(self, fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.calls.put((future, fn, args))
        return future

    def _serve(self) -> None:
        while (call := self.calls.get()) is not None:
            future, fn, args = call
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as exc:  # noqa: BLE001 - handed to the waiting trio task
                    future.set_exception(exc)

    def shutdown(self) -> None:
        """Let the thread end after the calls already queued."""
        self.calls.put(None)


# -- the executor (in the coordinator) ----------------------------------------------------------


class RayExecutor:
    """Plays jobs as Ray tasks; see the module docstring. ``entrants``: the bots the tasks will
    load (checked on every node at start)."""

    name = "ray"

    def __init__(self, address: str = "auto", *, workers: int = 2, concurrency: int = 2,
                 entrants: list[str] | tuple[str, ...] = ()) -> None:
        if importlib.util.find_spec("ray") is None:
            raise ImportError("No module named 'ray'")
        self.address = address
        self.workers = workers
        self.concurrency = concurrency
        self.entrants = list(entrants)
        self.ray: Any = None
        self.remote: Any = None
        self.in_flight: set[Any] = set()
        self.owned = False  # whether we called ray.init (then we call ray.shutdown)
        self.thread: DriverThread | None = None
        self.slots: trio.Semaphore | None = None
        self.startup_s = 0.0
        self.cluster_cpus = 0.0
        self.where = ""
        self.found = ""  # how "auto" found its cluster, for the error lines
        self.nodes = 0
        self.connecting = False  # ray.init running in the driver thread
        self.health: concurrent.futures.Future[Any] | None = None  # the last question to the GCS
        self.health_at = 0.0  # when it was asked (time.monotonic)
        # Folders Ray puts on every worker's sys.path from this process (see _registry).
        self.driver_paths = [os.path.abspath(os.curdir), os.path.dirname(os.path.realpath(sys.argv[0]))]

    # start / stop

    async def start(self) -> None:
        global _remote_play
        started = time.perf_counter()
        self.slots = trio.Semaphore(self.concurrency)
        local = self.address == "local"
        # `import ray` takes a second: not on the trio thread (unless it is imported already)
        self.ray = ray = sys.modules.get("ray") or await trio.to_thread.run_sync(_import_ray, local)
        self.thread = DriverThread()
        if ray.is_initialized():
            self.where = "the Ray session this program opened"
            self.cluster_cpus = float(ray.cluster_resources().get("CPU", 0))
        else:
            self.connecting = True
            try:
                with trio.fail_after(LOCAL_START_TIMEOUT_S if local else CONNECT_TIMEOUT_S):
                    self.cluster_cpus = await wait_future(self.thread.submit(self._connect))
                self.connecting = False
            except trio.TooSlowError:
                # The connecting thread is a daemon: it is left behind, and never keeps the
                # process alive. If it connects after all, it disconnects again.
                self._abandon_connect()
                raise RunError(self._timeout_error()) from None
            except RunError:
                self.connecting = False
                self._drop_thread()
                raise
            except Exception as exc:
                self.connecting = False
                self._drop_thread()
                raise RunError(self._connect_error(exc)) from None
            self.owned = True
        if self.cluster_cpus < 1:
            # Tasks need one CPU each: they would wait for ever, without a word.
            await self.aclose()
            raise RunError(f'executor = "ray": {self.where} has no CPUs for tasks (`ray status`); start '
                           "nodes with --num-cpus >= 1")
        if _remote_play is None:
            _remote_play = ray.remote(max_retries=0)(play_job)  # retried by run(): it counts
        self.remote = _remote_play
        await self._check_nodes()
        self.startup_s = time.perf_counter() - started

    def _abandon_connect(self) -> None:
        """Give up on a ``ray.init`` still running (timed out, or Ctrl-C): the daemon thread is
        left to it, and disconnects if it connects after all."""
        if self.thread is not None and self.connecting:
            self.thread.submit(self.ray.shutdown)
        self.connecting = False
        self._drop_thread()

    def _drop_thread(self) -> None:
        if self.thread is not None:
            self.thread.shutdown()
            self.thread = None

    def _connect(self) -> float:
        ray = self.ray
        # ray.init runs in our driver thread on purpose (above): its warning that it therefore
        # sets no SIGTERM handler would only alarm the operator (SIGTERM ends the process anyway).
        logging.getLogger("ray._private.worker").addFilter(_not_sigterm_warning)
        if self.address == "local":
            # address="local": a new cluster even if $RAY_ADDRESS names another one
            ray.init(address="local", num_cpus=self.workers, include_dashboard=False)
            self.where = "a local Ray cluster (127.0.0.1)"
        else:
            self._probe()
            ray.init(address=self.address)
            self.where = f"the Ray cluster at {self.address!r}"
        return float(ray.cluster_resources().get("CPU", 0))

    def _probe(self) -> None:
        """Before ``ray.init`` (which retries a silent address for a long time, and reports a
        missing token as "Failed to connect"): is there a cluster at the address, and does it
        accept us? Raises :class:`RunError` with the cause."""
        gcs = self._gcs_address()
        if gcs is None:
            return
        if gcs.startswith("ray://"):
            self._reach(gcs[len("ray://"):])  # Ray Client: its own protocol, TCP only
            return
        self._reach(gcs)
        try:
            from ray._private.authentication.authentication_token_setup import (
                maybe_enable_token_auth_if_token_available,
            )
            from ray._raylet import GcsClient
        except ImportError:  # Ray's internals moved: ray.init reports what it finds
            return
        if self.address == "auto":
            # What ray.init does for "auto": token auth on if a token is there and
            # RAY_AUTH_MODE is unset (never for an explicit address).
            maybe_enable_token_auth_if_token_available(warn_if_disabled=False)
        try:
            GcsClient(address=gcs)
        except self.ray.exceptions.AuthenticationError:
            raise RunError(self._auth_error(gcs)) from None
        except Exception:  # noqa: BLE001 - anything else: ray.init says it (time-bounded)
            return

    def _gcs_address(self) -> str | None:
        """The cluster's address: the config's, or the one "auto" finds as ``ray.init`` does
        ($RAY_ADDRESS, the last `ray start` on this machine, any Ray cluster running here);
        None if Ray's internals moved (then ray.init finds it)."""
        if self.address != "auto":
            return self.address
        env = os.environ.get("RAY_ADDRESS", "").strip()
        try:
            from ray._private.services import get_ray_address_from_environment
        except ImportError:
            return None
        try:
            found = get_ray_address_from_environment("auto", None)
        except ConnectionError:
            raise RunError(
                'executor = "ray": no running Ray cluster found: $RAY_ADDRESS is not set and no Ray '
                "cluster runs on this machine; start one (`ray start --head`), set RAY_ADDRESS or "
                'ray_address, or use ray_address = "local"'
            ) from None
        self.found = " (from $RAY_ADDRESS)" if env and env != "auto" else " (found on this machine)"
        return found

    def _reach(self, address: str) -> None:
        host, _, port = address.rpartition(":")
        host = host.strip("[]")
        try:
            with socket.create_connection((host, int(port)), timeout=PROBE_TIMEOUT_S):
                pass
        except socket.timeout:
            raise RunError(f'executor = "ray": no Ray cluster answers at {address}{self.found}: no '
                           f"answer within {PROBE_TIMEOUT_S:g} s (a wrong address, or a firewall?)") from None
        except (OSError, ValueError) as exc:
            what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RunError(f'executor = "ray": no Ray cluster answers at {address}{self.found}: '
                           f"{what} (is it started? is the address right?)") from None

    def _auth_error(self, gcs: str) -> str:
        mode = os.environ.get("RAY_AUTH_MODE", "")
        if mode.lower() != "token":
            return (f'executor = "ray": the Ray cluster at {gcs}{self.found} requires token '
                    f"authentication: set RAY_AUTH_MODE=token (RAY_AUTH_MODE is "
                    f"{mode or 'unset'}) and give its token (~/.ray/auth_token, "
                    "$RAY_AUTH_TOKEN_PATH or $RAY_AUTH_TOKEN)")
        return (f'executor = "ray": the Ray cluster at {gcs}{self.found} refused the token: use the '
                "cluster's token (~/.ray/auth_token, $RAY_AUTH_TOKEN_PATH or $RAY_AUTH_TOKEN)")

    def _timeout_error(self) -> str:
        if self.address == "local":
            return (f'executor = "ray": a local Ray cluster did not start within {LOCAL_START_TIMEOUT_S:g} s '
                    "(a busy machine? try again, or use executor = \"local\")")
        return (f'executor = "ray": the Ray cluster at {self.address!r}{self.found} did not answer '
                f"within {CONNECT_TIMEOUT_S:g} s (is the address a Ray cluster's? same Ray version?)")

    def _connect_error(self, exc: Exception) -> str:
        text = " ".join(str(exc).split()) or type(exc).__name__
        if self.address == "local":
            hint = "could not start a local Ray cluster"
        else:
            hint = f"could not connect to {self.address!r}{self.found}"
        return f"executor = \"ray\": {hint}: {text}"

    async def _check_nodes(self) -> None:
        """Every node with CPUs loads every entrant's bot (one task pinned to each node) and
        runs the same standoff: a node that cannot is named now, not after hours of matches."""
        if not self.entrants or self.thread is None:
            return
        with trio.move_on_after(CHECK_TIMEOUT_S) as scope:
            answers = await wait_future(self.thread.submit(self._check_all))
        if scope.cancelled_caught:
            raise RunError(f'executor = "ray": the nodes did not answer the start-up check within '
                           f"{CHECK_TIMEOUT_S:g} s (`ray status` shows them)")
        from ..server.local import code_version

        faults = node_faults(answers, code_version())
        if faults:
            raise RunError(f'executor = "ray": {"; ".join(faults)} (every node needs the same standoff and '
                           "the plugin bots installed; the coordinator's working directory is not shipped)")
        self.nodes = len(answers)

    def _check_all(self) -> list[dict[str, Any]]:
        ray = self.ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        from ..server.plugins import PLUGINS_ENV

        check = ray.remote(max_retries=0)(check_node)
        plugins = os.environ.get(PLUGINS_ENV, "")
        nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) >= 1]
        refs = [(node, check.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False))
                 .remote(plugins, self.driver_paths, self.entrants)) for node in nodes]
        answers = []
        gone = tuple(getattr(ray.exceptions, name) for name in ("NodeDiedError", "TaskUnschedulableError")
                     if hasattr(ray.exceptions, name))
        for node, ref in refs:
            try:
                answers.append(ray.get(ref))
            except gone:
                continue  # the node left meanwhile: no task will go there
            except ray.exceptions.RayError as exc:
                name = f"{node.get('NodeManagerAddress', '?')} ({node['NodeID'][:8]})"
                answers.append({"node": name, "error": _first_line(exc)})
        return answers

    def describe(self) -> str | None:
        line = (f"ray: matches between plugin bots run as Ray tasks on {self.where}: "
                f"{self.cluster_cpus:g} CPUs")
        if self.nodes:
            line += f" on {self.nodes} node{'s' if self.nodes != 1 else ''} (each checked: it loads every bot)"
        line += f", at most {self.concurrency} tasks at once (Ray ready in {self.startup_s:.1f} s)"
        if self.cluster_cpus > self.concurrency:
            line += "; raise `concurrency` to use every CPU"
        return line

    async def aclose(self) -> None:
        ray = self.ray
        if ray is None:
            return
        # Matches still running are abandoned (a rerun plays them again from their seeds).
        for ref in list(self.in_flight):
            try:
                ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001 - finished meanwhile, or the cluster is gone
                pass
        self.in_flight.clear()
        if self.connecting:  # stopped while connecting
            self._abandon_connect()
        if self.thread is not None:
            try:
                if self.owned:
                    with trio.move_on_after(60):
                        await wait_future(self.thread.submit(ray.shutdown))
            finally:
                self._drop_thread()
                self.owned = False

    # play

    async def run(self, job: dict[str, Any]) -> dict[str, Any]:
        """Play ``job``. An error in the match, or a match Ray cannot start on its node (its task
        raised: ``RayTaskError``), is an answer with ``"error"`` and ``"node"``; a match whose
        worker process died in :data:`ATTEMPTS` attempts is a :class:`MatchCrashed` naming the
        attempts made: both are the match's own failures, an ``error`` result, and the run goes
        on, as with the local executor. A node lost under the match costs an attempt too. Anything
        else Ray raises is the cluster's failure, not the match's (the coordinator's raylet or the
        GCS lost, the match's node lost in :data:`ATTEMPTS` attempts): a :class:`ClusterFailed`,
        which stops the run and leaves the match unplayed."""
        assert self.slots is not None and self.remote is not None, "start() first"
        match_id = job["spec"]["match_id"]
        deaths = lost = 0  # attempts whose worker died / whose node was lost
        async with self.slots:  # at most `concurrency` tasks in flight
            while True:
                try:
                    return await self._attempt(job)
                except self.ray.exceptions.RayTaskError as exc:
                    # play_job itself could not run there (standoff missing or broken on that node)
                    return {"error": _first_line(exc), "node": _node_of(exc)}
                except self.ray.exceptions.RayError as exc:
                    kind = failure_kind(exc, self.ray.exceptions)
                    if kind == "cluster":
                        raise ClusterFailed(f"the Ray cluster failed ({_first_line(exc)})") from None
                    deaths, lost = deaths + (kind == "worker"), lost + (kind == "node")
                    if deaths == ATTEMPTS:
                        made = f"each of its {deaths}" if not lost else f"{deaths} of its {deaths + lost}"
                        raise MatchCrashed(f"Ray could not play match {match_id}: its worker process died in "
                                           f"{made} attempts ({_first_line(exc)})") from None
                    if lost == ATTEMPTS:
                        raise ClusterFailed(f"the Ray cluster failed (the node playing match {match_id} was "
                                            f"lost in {lost} attempts: {_first_line(exc)})") from None

    async def _attempt(self, job: dict[str, Any]) -> dict[str, Any]:
        """One attempt at ``job``: one Ray task, with no retry of Ray's own (the coordinator
        retries, so that it knows how many attempts were made and why each failed)."""
        ref = self.remote.remote({**job, "driver_paths": self.driver_paths})
        self.in_flight.add(ref)
        try:
            answer = ref.future()
            while True:
                with trio.move_on_after(HEALTH_EVERY_S):
                    return await wait_future(answer)
                await self._check_gcs()  # a long match, or a cluster that is gone?
        finally:
            self.in_flight.discard(ref)

    async def _check_gcs(self) -> None:
        """Raise :class:`ClusterFailed` unless the cluster's GCS answers (``ray.nodes()``) within
        :data:`GCS_TIMEOUT_S`. One question at a time, in a daemon thread (a GCS that is gone
        leaves it hanging); an answer serves every task for :data:`HEALTH_EVERY_S`."""
        now = time.monotonic()
        if self.health is None or (self.health.done() and now - self.health_at >= HEALTH_EVERY_S):
            self.health, self.health_at = concurrent.futures.Future(), now
            threading.Thread(target=_ask_gcs, args=(self.ray, self.health), name="standoff-ray-gcs",
                             daemon=True).start()
        with trio.move_on_after(max(0.0, self.health_at + GCS_TIMEOUT_S - now)):
            try:
                await wait_future(self.health)
            except Exception as exc:  # noqa: BLE001 - whatever Ray says: the cluster's failure
                raise ClusterFailed(f"the Ray cluster failed (its GCS: {_first_line(exc)})") from None
            return
        raise ClusterFailed(f"the Ray cluster failed (its GCS did not answer within {GCS_TIMEOUT_S:g} s)")


def failure_kind(exc: BaseException, exceptions: Any) -> str:
    """Whose failure an exception from a match's Ray task is (``exceptions``: ``ray.exceptions``):

    * ``"worker"``: the task's worker process died under it (a crash in the match, an
      out-of-memory kill of it): the match's own, as a worker that dies with the local executor;
    * ``"node"``: the node the task ran on was lost: the cluster's, an ordinary one (the match
      is played again elsewhere);
    * ``"cluster"``: anything else (the coordinator's own raylet lost, the GCS out of reach, an
      object lost, a task Ray cannot schedule...): the cluster failed, not the match. Unknown
      kinds land here: a failure that is not known to be the match's is never its result.

    A task that raised (``RayTaskError``) is none of these: it ran, and its error is the match's."""
    def one_of(*names: str) -> tuple[type, ...]:
        return tuple(getattr(exceptions, name) for name in names if hasattr(exceptions, name))

    if isinstance(exc, one_of("WorkerCrashedError", "OutOfMemoryError")):
        return "worker"
    if isinstance(exc, one_of("NodeDiedError")):
        return "node"
    return "cluster"


def _ask_gcs(ray: Any, answer: concurrent.futures.Future[Any]) -> None:
    """Ask the cluster's GCS for its nodes (a cheap question it answers if it is there)."""
    try:
        answer.set_result(len(ray.nodes()))
    except BaseException as exc:  # noqa: BLE001 - handed to the waiting trio task
        answer.set_exception(exc)


def _not_sigterm_warning(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith("SIGTERM handler is not set")


def _first_line(exc: BaseException) -> str:
    """An exception from Ray as one line: the last line of its message (a task's traceback
    ends with the exception that ended it), named by its type unless it names one itself."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if re.match(r"^[\w.]+(Error|Exception|Exit|Interrupt)\b", last):
        return last
    return f"{type(exc).__name__}: {last}".rstrip(": ")


def _node_of(exc: BaseException) -> str:
    """The node a failed task ran on, from Ray's message (``ray::play_job() (pid=1, ip=10.0.0.5)``)."""
    found = re.search(r"\bip=([0-9A-Fa-f.:]+)", str(exc))
    return found.group(1) if found else "?"
