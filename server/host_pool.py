"""Where a split referee's matches are hosted: the front's side of :mod:`.hosting`.

A :class:`HostPool` opens a :class:`HostLink` per match; the front (trio) awaits the link's
calls, which run :class:`~.hosting.MatchHost` methods wherever the match lives:

* :class:`ProcessHosts`: worker processes on this machine (``python -m
  standoff.server.match_worker``), each hosting several matches; a new match goes to the worker
  with the fewest;
* ``standoff.tournaments.ray_hosts.RayHosts``: one Ray actor per match, anywhere on a cluster.

A worker that dies ends the matches it hosted as ``error`` (never a result): their remote bots
were mid-game, a replay from the seed would ask them again what they already answered.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from abc import ABC, abstractmethod
from typing import Any

import trio

from .match_worker import frame, take_frames
from .processes import close_processes

#: How long the front waits for a host's answer before taking its worker for stuck. Built-in bots
#: think inside a host's answer: this bounds their time, far above any time control in use.
HOST_ANSWER_TIMEOUT_S = 3600.0


class HostGone(RuntimeError):
    """The worker (process, Ray actor or node) hosting a match is gone, or refused it."""


class HostLink(ABC):
    """One hosted match, seen from the front."""

    #: where the match runs, for messages (``worker 2 (pid 1234)``, ``node 10.0.0.5``)
    where = ""
    #: whether a tournament prints a line for a match of this host that ended by an error
    #: (``standoff: error: match M on node N: ...``, as for the Ray executor's matches)
    announce_errors = False

    def __init__(self) -> None:
        #: set when the host is gone (its process or node died): the match ends at once
        self.gone = trio.Event()
        self.gone_reason = ""
        self.over = False  # the host said the match is over (and let it go)

    def lost(self, reason: str) -> None:
        if not self.gone.is_set():
            self.gone_reason = reason
            self.gone.set()

    @abstractmethod
    async def call(self, method: str, *args: Any) -> Any:
        """``MatchHost.method(*args)`` on the host; raises :class:`HostGone`."""

    async def begin(self, history: dict[str, int]) -> dict[str, Any]:
        return self._note(await self.call("begin", history))

    async def advance(self, answer: tuple, counts: list, history: dict[str, int]) -> dict[str, Any]:
        return self._note(await self.call("advance", answer, counts, history))

    def _note(self, step: dict[str, Any]) -> dict[str, Any]:
        if "over" in step:
            self.over = True  # the host has let the match go: nothing to stop
        return step

    async def message(self, role: str, history_from: int) -> tuple[bytes, int | None]:
        return await self.call("message", role, history_from)

    async def stop(self) -> None:
        """Let the host go (best effort: a host already gone is fine)."""
        if self.over:
            return
        try:
            with trio.move_on_after(5):
                await self.call("stop")
        except HostGone:
            pass


class HostPool(ABC):
    """Opens hosted matches; started and closed by the referee."""

    #: shown by ``standoff serve`` at start
    description = ""

    async def start(self, nursery: trio.Nursery) -> None:  # noqa: B027 - optional
        """Start whatever the pool needs (tasks go in ``nursery``)."""

    @abstractmethod
    async def open(self, job: dict[str, Any]) -> HostLink:
        """Host the match of ``job`` (:func:`~.hosting.host_job`); raises :class:`HostGone`."""

    async def aclose(self) -> None:  # noqa: B027 - optional
        """Stop every worker."""


# -- worker processes on this machine ---------------------------------------------------------------


class _Worker:
    """One match worker process and the requests waiting for its answers."""

    def __init__(self, number: int, process: trio.Process) -> None:
        self.number = number
        self.process = process
        self.matches = 0
        self.waiting: dict[int, trio.MemoryChannelPair] = {}
        self.ids = itertools.count(1)
        self.send_lock = trio.Lock()
        self.gone: str = ""
        self.links: set[_ProcessLink] = set()

    @property
    def where(self) -> str:
        return f"match worker {self.number} (pid {self.process.pid})"

    async def call(self, match_id: str, method: str, args: tuple) -> Any:
        if self.gone:
            raise HostGone(f"{self.where} is gone: {self.gone}")
        request_id = next(self.ids)
        send, receive = trio.open_memory_channel(1)
        self.waiting[request_id] = send
        try:
            data = frame((request_id, match_id, method, args))
            async with self.send_lock:
                assert self.process.stdin is not None
                try:
                    await self.process.stdin.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                    raise HostGone(f"{self.where} is gone: {exc}") from None
            with trio.fail_after(HOST_ANSWER_TIMEOUT_S):
                ok, value = await receive.receive()
        except trio.TooSlowError:
            raise HostGone(f"{self.where} did not answer within {HOST_ANSWER_TIMEOUT_S:g} s") from None
        finally:
            self.waiting.pop(request_id, None)
        if not ok:
            raise HostGone(f"{self.where}: {value}")
        return value

    async def read(self) -> None:
        """Hand each answer to its caller; at the end of the stream fail every caller."""
        assert self.process.stdout is not None
        buffer = bytearray()
        try:
            while True:
                chunk = await self.process.stdout.receive_some(1 << 16)
                if not chunk:
                    break
                buffer += chunk
                for request_id, ok, value in take_frames(buffer):
                    send = self.waiting.get(request_id)
                    if send is not None:
                        send.send_nowait((ok, value))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        code = await self.process.wait()
        self.gone = f"exited with code {code}"
        for send in list(self.waiting.values()):
            send.send_nowait((False, f"the process exited with code {code} while hosting the match"))
        for link in list(self.links):
            link.lost(f"{self.where} exited with code {code} while hosting the match")


class _ProcessLink(HostLink):
    def __init__(self, worker: _Worker, match_id: str) -> None:
        super().__init__()
        self.worker, self.match_id = worker, match_id
        self.where = worker.where
        self.closed = False
        worker.links.add(self)

    async def call(self, method: str, *args: Any) -> Any:
        return await self.worker.call(self.match_id, method, args)

    async def stop(self) -> None:
        if not self.closed:
            self.closed = True
            self.worker.matches -= 1
            self.worker.links.discard(self)
            if not self.gone.is_set():
                await super().stop()


class ProcessHosts(HostPool):
    """``size`` match worker processes on this machine, started with the referee."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("match workers must be at least 1")
        self.size = size
        self.workers: list[_Worker] = []
        self.nursery: trio.Nursery | None = None
        self.numbers = itertools.count(1)
        self.description = f"matches hosted by {size} worker process{'es' if size > 1 else ''}"

    async def _spawn(self) -> _Worker:
        assert self.nursery is not None
        process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "standoff.server.match_worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        worker = _Worker(next(self.numbers), process)
        self.workers.append(worker)
        self.nursery.start_soon(worker.read)
        return worker

    async def start(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery
        for _ in range(self.size):
            await self._spawn()

    async def open(self, job: dict[str, Any]) -> HostLink:
        for worker in [w for w in self.workers if w.gone]:  # replace the dead, for new matches
            self.workers.remove(worker)
            await self._spawn()
        worker = min(self.workers, key=lambda w: w.matches)
        await worker.call(job["match_id"], "open", (job,))
        worker.matches += 1
        return _ProcessLink(worker, job["match_id"])

    async def aclose(self) -> None:
        await close_processes(worker.process for worker in self.workers)
