"""grpc.aio lives on asyncio; the referee lives in trio. This module is the only place they meet.

Trio runs as a *guest* of the asyncio loop, with trio's documented guest mode only
(``trio.lowlevel.start_guest_run``): trio's code runs in the loop's thread, in callbacks the loop
runs, and trio waits for its own I/O and deadlines in a worker thread of its own only while it
is idle. So code on either side runs on one thread and never concurrently, and, as trio's guest
mode documents ("you can freely call sync Trio APIs from the host, and call sync host APIs from
Trio"), each side may call the other's *synchronous* APIs directly: asyncio code reschedules trio
tasks, reads trio's clock or sets a trio event; trio code resolves asyncio futures and wakes
asyncio tasks. Async code of one side never runs on the other: each crossing hands a value over
and wakes a task of the other side.

A remote decision crosses here twice: trio code puts the decision's bytes on the session's
:class:`StreamWriter`, whose asyncio task writes them to the bot's gRPC stream
(``await context.write``); the bot's answer, read by the stream's reader task
(``await context.read()``), is pushed into the session's :class:`Inbox`, stamped with trio's
clock there (the bot's clock stops), and handled inside that push when nothing is queued
(:attr:`Inbox.direct`): the match waiting for it is rescheduled then, and runs at trio's next
tick.

Shutdown order (DESIGN §4): stop the gRPC server → :meth:`TrioBridge.stop` cancels trio → wait for
trio to finish → leave the loop.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import outcome as outcome_lib
import trio

#: Kept for the deployments that set it: both of its values now run trio's own guest mode, the
#: only one on trio's public API (``one-thread`` named a driver built on trio's internals, which
#: is gone). Any other value is refused with one line, as before.
GUEST_ENV = "STANDOFF_TRIO_GUEST"
GUEST_MODES = ("threads", "one-thread")


def guest_mode() -> str:
    """The guest mode :data:`GUEST_ENV` names (unset or empty: ``threads``); both values run the
    same guest mode. ValueError with a one-line message for any other value."""
    mode = os.environ.get(GUEST_ENV, "") or "threads"
    if mode not in GUEST_MODES:
        raise ValueError(f"{GUEST_ENV}={mode!r} is not a guest mode: use {' or '.join(GUEST_MODES)}")
    return mode


class TrioBridge:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.token: trio.lowlevel.TrioToken | None = None
        self.nursery: trio.Nursery | None = None
        self._done: asyncio.Future[outcome_lib.Outcome] | None = None
        self._cancel: trio.CancelScope | None = None
        #: Trio's clock (set once trio runs): its ``current_time()`` may be read from asyncio code
        #: (a sync trio API, called from the host).
        self.clock: trio.abc.Clock | None = None

    async def start(self, main: Callable[..., Awaitable[Any]]) -> None:
        """Start trio as a guest and run ``await main(task_status=...)`` in its root nursery;
        returns once ``main`` called ``task_status.started()``. ValueError if :data:`GUEST_ENV`
        names no guest mode (before anything starts)."""
        guest_mode()
        loop = self.loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        started: asyncio.Future[None] = loop.create_future()

        async def root() -> None:
            self.token = trio.lowlevel.current_trio_token()
            self.clock = trio.lowlevel.current_clock()
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
            # Trio's ticks that follow one another on this thread: no self-pipe write for them.
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=done,
            host_uses_signal_set_wakeup_fd=True,  # asyncio's loop does (its signal handlers)
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

    The consumer may set :attr:`direct`, a synchronous handler: an item pushed while none is
    waiting is then handled at once, inside the push, instead of waking the consumer's task for
    it (a trio scheduling round less per item). The handler runs in asyncio code, between trio's
    ticks on the same thread, where it may call trio's sync APIs (reschedule a task, set an
    event, read trio's clock), as trio's guest mode allows the host; it must not need a current
    trio task. Items are still handled one at a time and in order: an item that finds others
    waiting joins the queue. The consumer sets ``direct`` only once it has nothing queued, and
    clears it when it stops.

    Each item is stamped with trio's clock as it is pushed: :attr:`arrived` is the stamp of the
    item being handled (a bot's answer reached the referee then, which stops its clock).
    """

    def __init__(self, bridge: TrioBridge, limit: int) -> None:
        self.bridge = bridge
        self.limit = limit
        self.items: deque[tuple[Any, float]] = deque()  # (item, when it was pushed)
        #: When the item being handled was pushed (trio's clock; 0.0 before any).
        self.arrived = 0.0
        self.closed = False
        self._lot = trio.lowlevel.ParkingLot()
        #: The consumer's synchronous handler, for an item that finds nothing queued (see above).
        self.direct: Callable[[Any], None] | None = None

    def push(self, item: Any) -> bool:
        if self.closed:
            return True
        now = self.bridge.clock.current_time()
        if self.direct is not None and not self.items:
            self.arrived = now
            self.direct(item)
            return True
        if len(self.items) >= self.limit:
            return False
        self.items.append((item, now))
        self._lot.unpark_all()  # a sync trio API, from the host: trio's next tick runs the consumer
        return True

    def close(self) -> None:
        self.closed = True
        self._lot.unpark_all()

    async def get(self) -> Any:
        """The next item, or ``None`` once closed and drained."""
        while not self.items:
            if self.closed:
                return None
            await self._lot.park()
        item, self.arrived = self.items.popleft()
        return item


class StreamWriter:
    """An outbox (:class:`~standoff.server.sessions.Outbox`) whose asyncio task writes each message
    to a gRPC stream, in order, one at a time (as gRPC requires): ``await write(message)``, with
    ``write`` the stream's ``context.write``.

    :meth:`put_nowait` may be called from trio code (it runs in the loop's thread): it queues the
    message and wakes the task, which writes it at the loop's next round. ``None`` ends the
    outbox: :attr:`done` resolves once every message before it is written. A write that fails
    (the stream is over, the client gone) ends it too, dropping what waits: :attr:`failed` says
    so, and nothing raises into the code that put the message. :meth:`cancel` stops the task
    (the stream's handler is leaving).
    """

    def __init__(self, write: Callable[[bytes], Awaitable[Any]], loop: asyncio.AbstractEventLoop) -> None:
        self._write = write
        self._loop = loop
        self._waiting: deque[bytes] = deque()
        self._ending = False  # None was put
        self._wakeup: asyncio.Future[None] | None = None  # the task waits for a message on it
        self.failed: BaseException | None = None
        #: Resolves (to None) once the outbox is over: ended and written out, or a write failed.
        self.done: asyncio.Future[None] = loop.create_future()
        self._task = loop.create_task(self._run())

    def qsize(self) -> int:
        """Messages waiting to be written (not counting the one being written)."""
        return len(self._waiting)

    def put_nowait(self, item: bytes | None) -> None:
        if self._ending or self.done.done():
            return
        if item is None:
            self._ending = True
        else:
            self._waiting.append(item)
        wakeup = self._wakeup
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    def cancel(self) -> None:
        """Stop writing (what waits is dropped) and end the outbox."""
        self._task.cancel()
        self._finish()

    async def _run(self) -> None:
        try:
            while True:
                while not self._waiting:
                    if self._ending:
                        return
                    self._wakeup = self._loop.create_future()
                    await self._wakeup
                await self._write(self._waiting.popleft())
        except asyncio.CancelledError as exc:
            self._fail(exc)
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this task was cancelled (cancel()), not a write
        except Exception as exc:  # noqa: BLE001 - the stream is over: the outbox ends here
            self._fail(exc)
        finally:
            self._finish()

    def _fail(self, exc: BaseException) -> None:
        self.failed = exc
        self._waiting.clear()

    def _finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)
