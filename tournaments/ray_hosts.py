"""Matches with remote bots hosted on a Ray cluster: a split referee's hosts as Ray actors.

With ``executor = "ray"`` and ``split_referee = true`` a tournament's referee keeps the remote
bots' sessions on the coordinator and plays each of their matches in a Ray actor
(:class:`MatchHostActor`, one CPU, anywhere on the cluster): the engine, every view and its
encoding, the record lines and the built-in opponent (``ismcts``, ``ts-search``...) run on the
actor's node; the coordinator routes each remote seat's bytes (see
:mod:`standoff.server.hosting`). The Ray session is the executor's (:mod:`.ray_executor`), opened
before the first match.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from typing import Any

import trio

from ..server.host_pool import HostGone, HostLink, HostPool


def coordinator_paths() -> list[str]:
    """The folders of the coordinator that Ray puts on every worker's ``sys.path`` (its working
    directory, its script's folder): they exist on this machine only, so hosts take them out
    (a plugin found there would work on one machine and fail on every real node)."""
    return [os.path.abspath(os.curdir), os.path.dirname(os.path.realpath(sys.argv[0]))]


class MatchHostActor:
    """One hosted match in a Ray actor (made a Ray actor class by :func:`_actor_class`)."""

    def __init__(self, job: dict[str, Any], driver_paths: list[str]) -> None:
        from ..server.hosting import MatchHost
        from .ray_executor import _registry

        self.started = time.process_time()
        self.host = MatchHost(job, _registry(job["plugins"], driver_paths))

    def where(self) -> dict[str, Any]:
        import ray

        return {"node": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "pid": os.getpid()}

    def call(self, method: str, *args: Any) -> Any:
        return getattr(self.host, method)(*args)

    def cpu_s(self) -> float:
        """CPU seconds this actor's process has used since it started the match."""
        return time.process_time() - self.started


_ACTOR: Any = None


def _actor_class() -> Any:
    global _ACTOR
    if _ACTOR is None:
        import ray

        _ACTOR = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(MatchHostActor)
    return _ACTOR


async def _get(ref: Any) -> Any:
    import ray

    return await trio.to_thread.run_sync(ray.get, ref, abandon_on_cancel=True)


class _RayLink(HostLink):
    announce_errors = True  # on a cluster: the run prints a line naming the node

    def __init__(self, pool: RayHosts, actor: Any, where: dict[str, Any], match_id: str) -> None:
        super().__init__()
        self.pool, self.actor, self.match_id = pool, actor, match_id
        self.node = where["node"]
        self.where = f"node {where['host']} ({where['node'][:8]}, pid {where['pid']})"

    async def call(self, method: str, *args: Any) -> Any:
        import ray

        try:
            return await _get(self.actor.call.remote(method, *args))
        except ray.exceptions.RayActorError as exc:
            raise HostGone(f"the match's Ray actor died ({_first_line(exc)})") from None
        except ray.exceptions.RayTaskError as exc:
            raise HostGone(_first_line(exc.cause or exc)) from None

    async def stop(self) -> None:
        import ray

        try:
            with trio.move_on_after(10):
                cpu = await _get(self.actor.cpu_s.remote())
                self.pool.cpu_by_node[self.node] = self.pool.cpu_by_node.get(self.node, 0.0) + cpu
            await super().stop()
        except (ray.exceptions.RayError, HostGone):
            pass
        ray.kill(self.actor)


class RayHosts(HostPool):
    """One Ray actor per hosted match. ``driver_paths``: folders of the coordinator that Ray puts
    on its workers' ``sys.path`` (taken out there, see :func:`.ray_executor._registry`)."""

    description = "matches with remote bots hosted by Ray actors"

    def __init__(self, driver_paths: list[str] | None = None) -> None:
        self.driver_paths = list(driver_paths or [])
        self.actor_options: dict[str, Any] = {}  # Ray placement options of the actors (resources...)
        self.cpu_by_node: dict[str, float] = {}  # CPU seconds of finished hosted matches, per node id

    async def open(self, job: dict[str, Any]) -> HostLink:
        import ray

        if not ray.is_initialized():
            raise HostGone("Ray is not connected: hosting on Ray needs executor = \"ray\"")
        actor = _actor_class().options(**self.actor_options).remote(job, self.driver_paths)
        try:
            where = await _get(actor.where.remote())
        except ray.exceptions.RayError as exc:
            ray.kill(actor)
            raise HostGone(f"match {job['match_id']}: could not be hosted on Ray: {_first_line(exc)}") from None
        return _RayLink(self, actor, where, job["match_id"])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[-1] if text else ''}".strip()
