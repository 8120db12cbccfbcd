"""The ``ray`` executor: matches between trusted plugin bots as Ray tasks (``executor = "ray"``).

Needs the optional extra: ``pip install 'standoff[ray]'``. ``docs/ray.md`` tells how to run a
tournament on a Ray cluster; in short:

* the coordinator (``standoff tournament``) stays where it is: it schedules, plays the matches
  that need its referee (remote entrants, untrusted plugin bots), and is the single writer of
  ``results.jsonl``, ``elo.jsonl`` and the record files;
* every match between trusted plugin bots becomes one Ray task, :func:`play_job` (one CPU,
  ``max_retries=3``): it loads the bots by their plugin names (the registry of the node it runs
  on, with the coordinator's ``$STANDOFF_PLUGINS``), plays the match with
  :func:`standoff.tournaments.worker.run_job` (the local executor's code) into a temporary folder,
  and returns the result *and the record files' bytes*: no shared filesystem is needed;
* a task whose worker process dies (a crash, a node lost) is retried by Ray and plays the match
  again from its seed; results are idempotent by match id (the coordinator writes one line per
  match id, whatever number of answers it gets), so retries and duplicates are harmless;
* at most ``concurrency`` tasks are in flight. Waiting never blocks the trio coordinator: each
  task's ``ObjectRef.future()`` wakes the waiting trio task through its trio token.

``ray_address``: ``"auto"`` (``$RAY_ADDRESS`` or the cluster ``ray start`` started on this
machine), ``"ray://HOST:PORT"`` (Ray Client), ``"HOST:PORT"`` (a cluster's GCS address, from a
node of that cluster), or ``"local"``: a private one-machine cluster, ``ray.init(num_cpus=workers)``
(bound to 127.0.0.1), started for the run and stopped after it. A program that has already
called ``ray.init()`` itself (a test, a notebook) has its session used as it is, and kept open.
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import trio

from .errors import RunError

__all__ = ["MAX_RETRIES", "RayExecutor", "play_job"]

#: Ray retries a task whose worker process died this many times (then the run stops).
MAX_RETRIES = 3


# -- the task (runs in a Ray worker process, on any node) -----------------------------------------

_registries: dict[str, Any] = {}


def _registry(plugins: str) -> Any:
    """The registry of trusted bots for the coordinator's ``$STANDOFF_PLUGINS`` (cached: a Ray
    worker process plays many matches)."""
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
    leaves its match's folder behind)."""
    global _scratch
    if _scratch is None or not _scratch.is_dir():
        base = Path(_SCRATCH or tempfile.gettempdir()) / "standoff-ray"
        _scratch = base / str(os.getpid())
        _scratch.mkdir(parents=True, exist_ok=True)
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
    """Play one match (a job of :meth:`standoff.tournaments.runner.Executor._job`) and return
    ``{"result": <results.jsonl line>, "records": {file name: bytes}}``, or ``{"error": ...}``
    (an exception in the match: reported, not retried; a match replays identically)."""
    from .worker import run_job

    try:
        registry = _registry(job.get("plugins") or "")
        with tempfile.TemporaryDirectory(prefix="match-", dir=_scratch_dir()) as folder:
            result = run_job({**job, "records_dir": folder}, registry)
            records = {p.name: p.read_bytes() for p in sorted(Path(folder).glob("*.jsonl"))}
    except Exception:  # noqa: BLE001 - reported to the coordinator, as the local workers do
        return {"error": traceback.format_exc(limit=5)}
    return {"result": result.to_json(), "records": records}


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


# -- the executor (in the coordinator) ----------------------------------------------------------


class RayExecutor:
    """Plays jobs as Ray tasks; see the module docstring."""

    name = "ray"

    def __init__(self, address: str = "auto", *, workers: int = 2, concurrency: int = 2) -> None:
        if importlib.util.find_spec("ray") is None:
            raise ImportError("No module named 'ray'")
        self.address = address
        self.workers = workers
        self.concurrency = concurrency
        self.ray: Any = None
        self.remote: Any = None
        self.in_flight: set[Any] = set()
        self.owned = False  # whether we called ray.init (then we call ray.shutdown)
        # ray.init and ray.shutdown run in this one long-lived thread: Ray's driver state must not
        # belong to a thread that ends (a pooled thread that exits leaves later calls hanging).
        self.thread: concurrent.futures.ThreadPoolExecutor | None = None
        self.slots: trio.Semaphore | None = None
        self.startup_s = 0.0
        self.cluster_cpus = 0.0
        self.where = ""

    # start / stop

    async def start(self) -> None:
        global _remote_play
        started = time.perf_counter()
        self.slots = trio.Semaphore(self.concurrency)
        local = self.address == "local"
        # `import ray` takes a second: not on the trio thread (unless it is imported already)
        self.ray = ray = sys.modules.get("ray") or await trio.to_thread.run_sync(_import_ray, local)
        if ray.is_initialized():
            self.where = "the Ray session this program opened"
            self.cluster_cpus = float(ray.cluster_resources().get("CPU", 0))
        else:
            self.thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="standoff-ray")
            try:
                self.cluster_cpus = await wait_future(self.thread.submit(self._connect))
            except Exception as exc:
                self.thread.shutdown(wait=False)
                self.thread = None
                raise RunError(self._connect_error(exc)) from exc
            self.owned = True
        if _remote_play is None:
            _remote_play = ray.remote(max_retries=MAX_RETRIES)(play_job)
        self.remote = _remote_play
        self.startup_s = time.perf_counter() - started

    def _connect(self) -> float:
        ray = self.ray
        if self.address == "local":
            # address="local": a new cluster even if $RAY_ADDRESS names another one
            ray.init(address="local", num_cpus=self.workers, include_dashboard=False)
            self.where = "a local Ray cluster (127.0.0.1)"
        else:
            ray.init(address=self.address)
            self.where = f"the Ray cluster at {self.address!r}"
        return float(ray.cluster_resources().get("CPU", 0))

    def _connect_error(self, exc: Exception) -> str:
        text = " ".join(str(exc).split()) or type(exc).__name__
        if self.address == "auto":
            hint = ("no running Ray cluster found? Start one (`ray start --head`), set RAY_ADDRESS, or "
                    "use ray_address = \"local\"")
        elif self.address == "local":
            hint = "could not start a local Ray cluster"
        else:
            hint = f"could not connect to {self.address!r}"
        return f"executor = \"ray\": {hint}: {text}"

    def describe(self) -> str | None:
        line = (f"ray: matches between plugin bots run as Ray tasks on {self.where}: "
                f"{self.cluster_cpus:g} CPUs, at most {self.concurrency} tasks at once "
                f"(Ray ready in {self.startup_s:.1f} s)")
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
        if self.thread is not None:
            try:
                if self.owned:
                    with trio.move_on_after(60):
                        await wait_future(self.thread.submit(ray.shutdown))
            finally:
                self.thread.shutdown(wait=False)
                self.thread = None
                self.owned = False

    # play

    async def run(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.slots is not None and self.remote is not None, "start() first"
        async with self.slots:  # at most `concurrency` tasks in flight
            ref = self.remote.remote(job)
            self.in_flight.add(ref)
            try:
                return await wait_future(ref.future())
            except self.ray.exceptions.RayError as exc:
                raise RunError(self._task_error(job, exc)) from exc
            finally:
                self.in_flight.discard(ref)

    def _task_error(self, job: dict[str, Any], exc: Exception) -> str:
        match_id = job["spec"]["match_id"]
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if isinstance(exc, self.ray.exceptions.RayTaskError):
            return (f"match {match_id} failed on the Ray cluster (is the same standoff, with the "
                    f"plugin bots, installed on every node?): {type(exc).__name__}: {first}")
        return (f"Ray could not play match {match_id} ({MAX_RETRIES + 1} attempts; workers or nodes "
                f"died?): {type(exc).__name__}: {first}")
