"""A run with entrants the referee plays: the referee's gRPC server, its match hosts and sandbox.

Remote entrants connect to this server (``address``) with their tokens; untrusted plugin bots and
submissions are started by the referee in its sandbox (``[sandbox]``); with ``split_referee`` its
matches are hosted in worker processes or Ray actors. :func:`run_served` starts the server, plays
the run on its referee and stops it, Ctrl-C included.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import trio

from .config import TournamentConfig, is_remote
from .errors import RunError
from .run_folder import Prepared

__all__ = ["needs_referee", "referee_hosts", "run_served", "tournament_sandbox"]

T = TypeVar("T")


def needs_referee(config: TournamentConfig, registry: Any) -> bool:
    """Whether some entrant must play through the referee server (remote, or an untrusted
    plugin bot, which runs in a subprocess of its own), or may (submissions, a ladder's later ones
    too)."""
    if config.submissions is not None:
        return True
    for entrant in config.entrants:
        if is_remote(entrant):
            return True
        spec = registry.bots.get(entrant)
        if spec is None or not spec.trusted:
            return True
    return False


def referee_hosts(config: TournamentConfig) -> Any:
    """Where the referee's matches are hosted (``split_referee = true``): ``workers`` worker
    processes, or Ray actors with the Ray executor; None: in the referee's own process."""
    if not config.split_referee:
        return None
    if config.executor == "ray":
        from .ray_hosts import RayHosts, coordinator_paths

        return RayHosts(coordinator_paths())
    from ..server.host_pool import ProcessHosts

    return ProcessHosts(config.workers)


def tournament_sandbox(config: TournamentConfig, registry: Any) -> Any:
    """The referee's sandbox for the run's untrusted entrants (``[sandbox]``, ``unsandboxed``);
    :class:`RunError` (one line naming the package) if some entrant needs one and none can be
    made here: before anything is played, not at each of its matches."""
    from ..server.sandbox import LIMIT_NAMES, Sandbox, SandboxLimits, backend_problem

    sandbox = Sandbox(enabled=not config.unsandboxed,
                      limits=SandboxLimits(**{name: config.sandbox[name] for name in LIMIT_NAMES}),
                      uid_base=config.sandbox["uid_base"])
    if config.submissions is not None and sandbox.enabled and (problem := backend_problem()) is not None:
        # submitted bots, also those a ladder's later rounds add: said now, not at their first match
        raise RunError(f"{config.source}: submitted bots run only in a sandbox: {problem} "
                       "(or unsandboxed = true / --unsandboxed)")
    untrusted = [e for e in config.entrants if not is_remote(e) and not getattr(registry.bots.get(e), "trusted", False)]
    if untrusted and (refusal := sandbox.refusal(untrusted[0])) is not None:
        raise RunError(f"{config.source}: {refusal} (or unsandboxed = true / --unsandboxed)")
    return sandbox


def run_served(prepared: Prepared, registry: Any, tokens: Any, announce: Callable[[str], None] | None,
               play: Callable[[Any], Awaitable[T]]) -> T:
    """Serve the referee for the run in ``prepared`` (``tokens``: a
    :class:`~standoff.server.auth.TokenRegistry`, else an empty one; ``announce``: told the
    address bound) and return ``await play(referee)``, run in trio as the referee's task. The
    server stops when it returns; Ctrl-C (in the main thread) stops it too and raises
    :class:`KeyboardInterrupt` once the unfinished run has stopped cleanly."""
    from ..server.auth import TokenRegistry
    from ..server.rpc import start_server

    config = prepared.config

    def with_submissions(referee: Any) -> None:
        if config.submissions is not None:  # NAME@VERSION entrants resolve through it
            referee.submissions = Path(config.submissions)

    sandbox = tournament_sandbox(config, registry)

    async def main() -> T:
        running = await start_server(
            config.address, tokens=tokens if tokens is not None else TokenRegistry(),
            registry=registry, data_dir=prepared.folder, on_referee=with_submissions, ledger=False,
            hosts=referee_hosts(config), sandbox=sandbox,
        )
        loop = asyncio.get_running_loop()
        interrupted = asyncio.Event()
        handle_sigint = threading.current_thread() is threading.main_thread()
        stop = asyncio.ensure_future(interrupted.wait())
        work = None
        try:
            if handle_sigint:
                loop.add_signal_handler(signal.SIGINT, interrupted.set)
            if announce is not None:
                announce(running.address)
            work = running.bridge.call(play, running.referee)
            await asyncio.wait({work, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if handle_sigint:
                loop.remove_signal_handler(signal.SIGINT)
            stop.cancel()
            await running.stop(grace=1.0)  # cancels trio: an unfinished run stops cleanly
        assert work is not None
        if work.done() and not work.cancelled() and work.exception() is None:
            return work.result()
        if work.done() and not work.cancelled() and not isinstance(work.exception(), trio.Cancelled):
            raise work.exception()
        raise KeyboardInterrupt

    return asyncio.run(main())
