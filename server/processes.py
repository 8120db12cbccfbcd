"""Worker processes, both sides: a worker that leaves with its parent, and a parent that stops its
workers. Shared by the match workers of a split referee (:mod:`.match_worker`) and the tournament
workers (:mod:`standoff.tournaments.worker`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable

import trio


def die_with_parent() -> None:
    """End this worker as soon as its parent is gone (SIGKILLed, crashed).

    A worker left behind would go on with work nobody will read (and a tournament worker would
    write a record while the resumed coordinator replays the same match in a new worker: two
    writers of one record file). A watcher thread checks every 0.2 s whether the parent changed.
    Not ``PR_SET_PDEATHSIG``: it fires when the parent *thread* that forked us ends, and trio
    starts processes from its thread cache, whose threads end after 10 s idle; the worker would be
    killed in the middle of a long run.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


async def close_processes(processes: Iterable[trio.Process]) -> None:
    """Stop worker processes: close their stdin (they finish what they do and leave), wait up to
    5 s, then kill the ones still there."""
    processes = list(processes)
    for process in processes:
        if process.stdin is not None:
            with trio.move_on_after(1):
                await process.stdin.aclose()
    with trio.move_on_after(5):
        for process in processes:
            await process.wait()
    for process in processes:
        if process.returncode is None:
            process.kill()
