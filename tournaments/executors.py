"""Match executors: where the matches between trusted plugin bots are played.

The coordinator (:mod:`standoff.tournaments.runner`) hands each such match to an executor as a
JSON-ready *job* (:meth:`standoff.tournaments.dispatch.Executor._job`) and gets an *answer* back:
``{"result": {...}}`` (a ``results.jsonl`` line) or ``{"error": "traceback"}``, and, from an
executor whose matches run where the run folder is not, ``"records": {file name: bytes}`` (the
record files of the match, which the coordinator writes). Every executor plays a job with
:func:`standoff.tournaments.worker.run_job`, so every executor gives the same results.

``executor`` in the tournament config chooses one:

* ``local`` (:class:`WorkerPool`, the default): ``workers`` worker processes on this machine;
* ``ray`` (:class:`standoff.tournaments.ray_executor.RayExecutor`, the optional extra
  ``standoff[ray]``): each match is a Ray task, anywhere on a Ray cluster (``docs/ray.md``).

Matches with a remote entrant or an untrusted plugin bot never reach an executor: the
coordinator's referee plays them, whichever executor is chosen.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import trio

from .config import TournamentConfig
from ..server.private_files import private_dir, replace_private
from ..server.processes import close_processes
from .errors import MatchCrashed, RunError

__all__ = ["MatchCrashed", "MatchExecutor", "RunError", "Worker", "WorkerPool", "make_executor", "store_records"]




class MatchExecutor(Protocol):
    """What the coordinator needs from an executor."""

    #: ``"local"`` or ``"ray"``: the config's ``executor``.
    name: str

    async def start(self) -> None:
        """Get ready (start processes, connect to a cluster)."""

    async def run(self, job: dict[str, Any]) -> dict[str, Any]:
        """Play one job; return its answer (see the module docstring). Raises :class:`RunError`
        when the match cannot be played at all (its workers keep dying)."""

    def describe(self) -> str | None:
        """One line for the operator once started (where matches run), or None."""

    async def aclose(self) -> None:
        """Stop; a match still running is abandoned (a rerun plays it again from its seed)."""


def make_executor(config: TournamentConfig, registry: Any = None) -> MatchExecutor:
    """The executor ``config.executor`` names. ``registry``: the coordinator's; the Ray
    executor checks at start that every node loads the trusted entrants it has."""
    if config.executor == "ray":
        try:
            from .ray_executor import RayExecutor
        except ImportError as exc:
            raise RunError(
                f"executor = \"ray\" needs Ray: pip install 'standoff[ray]' ({exc})"
            ) from None
        trusted = [] if registry is None else [
            name for name in config.entrants if getattr(registry.bots.get(name), "trusted", False)
        ]
        return RayExecutor(config.ray_address, workers=max(1, config.workers),
                           concurrency=max(1, config.concurrency), entrants=trusted)
    return WorkerPool(max(1, config.workers))


def store_records(records_dir: Path, records: Mapping[str, bytes]) -> None:
    """Write record files received from an executor, each one atomically (a temporary file,
    fsync'd, renamed): a record is there complete or not at all, and writing the same record
    twice (a retried or duplicated task) is harmless. Private, as every record (``0600`` in a
    ``0700`` folder: :mod:`standoff.server.private_files`)."""
    private_dir(records_dir)
    for name, data in records.items():
        if Path(name).name != name or not name.endswith(".jsonl"):
            raise RunError(f"refusing a record file name from an executor: {name!r}")
        replace_private(records_dir / name, data)


# -- local: worker processes on this machine ---------------------------------------------------


class Worker:
    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self.buffer = b""

    async def request(self, line: bytes) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        await self.process.stdin.send_all(line)
        while b"\n" not in self.buffer:
            chunk = await self.process.stdout.receive_some(65536)
            if not chunk:
                raise EOFError("worker exited")
            self.buffer += chunk
        answer, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(answer)


class WorkerPool:
    """The ``local`` executor: ``size`` worker processes (``python -m
    standoff.tournaments.worker``); a job goes to an idle one. A worker that dies is replaced and
    the job is tried again (a match replays from its seed). The workers write the record files
    straight into the run folder."""

    name = "local"

    def __init__(self, size: int) -> None:
        self.size = size
        self.idle_send, self.idle_receive = trio.open_memory_channel[Worker](math.inf)
        self.workers: list[Worker] = []

    async def _spawn(self) -> Worker:
        process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "standoff.tournaments.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        worker = Worker(process)
        self.workers.append(worker)
        return worker

    async def start(self) -> None:
        for _ in range(self.size):
            self.idle_send.send_nowait(await self._spawn())

    def describe(self) -> str | None:
        return None

    async def run(self, job: dict[str, Any], attempts: int = 3) -> dict[str, Any]:
        line = (json.dumps(job) + "\n").encode()
        for attempt in range(attempts):
            worker = await self.idle_receive.receive()
            try:
                answer = await worker.request(line)
            except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
                worker.process.kill()
                self.workers.remove(worker)
                self.idle_send.send_nowait(await self._spawn())
                if attempt == attempts - 1:
                    raise MatchCrashed(f"worker processes died {attempts} times on match {job['spec']['match_id']}") from None
                continue
            except BaseException:
                # Cancelled mid-request: this worker's state is unknown, never reuse it.
                worker.process.kill()
                raise
            self.idle_send.send_nowait(worker)
            return answer
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        await close_processes(worker.process for worker in self.workers)
