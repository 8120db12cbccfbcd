"""grpc.aio lives on asyncio; the referee lives in trio. This module is the only place they meet.

Trio runs as a *guest* of the asyncio loop (``trio.lowlevel.start_guest_run``), in the same
thread: trio's callbacks are scheduled with ``loop.call_soon_threadsafe``. So code on either side
runs on one thread and never concurrently, but each side may only call the other's scheduling
APIs: asyncio → trio through :meth:`TrioBridge.call_soon` / :meth:`TrioBridge.call` (which go
through the trio token), trio → asyncio by resolving asyncio futures and queues directly (trio code
runs inside an asyncio callback, so that is safe).

Shutdown order (DESIGN §4): stop the gRPC server → :meth:`TrioBridge.stop` cancels trio → wait for
trio to finish → leave the loop.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import outcome as outcome_lib
import trio


class TrioBridge:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.token: trio.lowlevel.TrioToken | None = None
        self.nursery: trio.Nursery | None = None
        self._done: asyncio.Future[outcome_lib.Outcome] | None = None
        self._cancel: trio.CancelScope | None = None

    async def start(self, main: Callable[..., Awaitable[Any]]) -> None:
        """Start trio as a guest and run ``await main(task_status=...)`` in its root nursery;
        returns once ``main`` called ``task_status.started()``."""
        loop = self.loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        started: asyncio.Future[None] = loop.create_future()

        async def root() -> None:
            self.token = trio.lowlevel.current_trio_token()
            with trio.CancelScope() as cancel:
                self._cancel = cancel
                async with trio.open_nursery() as nursery:
                    self.nursery = nursery
                    await nursery.start(main)
                    if not started.done():
                        started.set_result(None)
                    await trio.sleep_forever()

        def done(result: outcome_lib.Outcome) -> None:
            if not self._done.done():
                self._done.set_result(result)
            if not started.done():
                try:
                    result.unwrap()
                except BaseException as exc:  # noqa: BLE001 - reported to the starter
                    started.set_exception(exc)
                else:
                    started.set_exception(RuntimeError("trio stopped before it started"))

        trio.lowlevel.start_guest_run(
            root,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=done,
            host_uses_signal_set_wakeup_fd=True,
        )
        await started

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run the synchronous ``fn(*args)`` inside trio, soon (from asyncio code)."""
        assert self.token is not None
        self.token.run_sync_soon(fn, *args)

    def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> asyncio.Future[Any]:
        """Run ``await fn(*args)`` as a trio task; its result or exception resolves the returned
        asyncio future. Cancelling that future does not cancel the trio task."""
        assert self.loop is not None
        future: asyncio.Future[Any] = self.loop.create_future()

        async def task() -> None:
            try:
                result = await fn(*args)
            except Exception as exc:  # noqa: BLE001 - handed to the asyncio caller
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)

        def spawn() -> None:
            assert self.nursery is not None
            self.nursery.start_soon(task)

        self.call_soon(spawn)
        return future

    async def stop(self) -> None:
        """Cancel everything in trio and wait until trio has finished."""
        if self._done is None:
            return
        if self._cancel is not None and not self._done.done():
            self.call_soon(self._cancel.cancel)
        result = await self._done
        try:
            result.unwrap()
        except trio.Cancelled:
            pass


class Inbox:
    """A bounded queue from asyncio (a gRPC reader) to trio (a session task).

    :meth:`push` runs on the asyncio side and refuses an item when ``limit`` items are already
    waiting (the session is flooding); :meth:`get` runs in trio.
    """

    def __init__(self, bridge: TrioBridge, limit: int) -> None:
        self.bridge = bridge
        self.limit = limit
        self.items: deque[Any] = deque()
        self.closed = False
        self._lot = trio.lowlevel.ParkingLot()

    def push(self, item: Any) -> bool:
        if self.closed:
            return True
        if len(self.items) >= self.limit:
            return False
        self.items.append(item)
        self.bridge.call_soon(self._lot.unpark_all)
        return True

    def close(self) -> None:
        self.closed = True
        self.bridge.call_soon(self._lot.unpark_all)

    async def get(self) -> Any:
        """The next item, or ``None`` once closed and drained."""
        while not self.items:
            if self.closed:
                return None
            await self._lot.park()
        return self.items.popleft()
