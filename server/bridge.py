"""grpc.aio lives on asyncio; the referee lives in trio. This module is the only place they meet.

Trio runs as a *guest* of the asyncio loop (``trio.lowlevel.start_guest_run``), in the same
thread: trio's callbacks are scheduled with ``loop.call_soon_threadsafe``. So code on either side
runs on one thread and never concurrently, but each side may only call the other's scheduling
APIs: asyncio → trio through :meth:`TrioBridge.call_soon` / :meth:`TrioBridge.call` (which go
through the trio token), trio → asyncio by resolving asyncio futures and queues directly (trio code
runs inside an asyncio callback, so that is safe).

Trio's own guest mode waits for I/O in a worker thread whenever it is idle, so every wake-up from
asyncio (a bot's answer arriving) costs two thread hand-offs and the GIL twice: ~80 µs of the
~165 µs an answer took to reach its match (benchmarks/bench_referee.py). :class:`_OneThreadGuest`
drives the same guest run without that thread: when trio is idle, the asyncio loop itself watches
trio's epoll descriptor (readable when any of trio's I/O is ready, or when trio is woken) and
trio's next deadline. It uses trio internals (the guest run's generator), so it is used only where
they are as expected (checked at start, trio pinned); otherwise, or with
``STANDOFF_TRIO_GUEST=threads``, trio's own guest mode runs, unchanged in behaviour.

A remote decision crosses here twice, each time without a loop round: trio code writes the
decision to the bot's gRPC stream at once (:class:`EagerWriter`), and the bot's answer, pushed
into its session's :class:`Inbox` by the stream's reader, is handled inside that push and, trio
being idle, trio's tick runs there too (:meth:`_OneThreadGuest.take_over`), so the match plays
on to its next decision before the reader reads again.

Shutdown order (DESIGN §4): stop the gRPC server → :meth:`TrioBridge.stop` cancels trio → wait for
trio to finish → leave the loop.
"""

from __future__ import annotations

import asyncio
import math
import os
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import outcome as outcome_lib
import trio
from sniffio import thread_local as sniffio_library

#: ``threads``: trio's own guest mode (idle waits in a worker thread) instead of
#: :class:`_OneThreadGuest` (``one-thread``, the default): for troubleshooting, and to test both.
GUEST_ENV = "STANDOFF_TRIO_GUEST"
GUEST_MODES = ("one-thread", "threads")


def guest_mode() -> str:
    """The guest mode :data:`GUEST_ENV` asks for (unset or empty: ``one-thread``); ValueError
    with a one-line message for any other value."""
    mode = os.environ.get(GUEST_ENV, "") or "one-thread"
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
        #: Set when trio runs on :class:`_OneThreadGuest`: then asyncio code may reschedule trio
        #: tasks directly (:meth:`wake`), trio being idle between its ticks on this thread.
        self.driver: _OneThreadGuest | None = None
        #: Trio's clock (set once trio runs): its ``current_time()`` may be read from asyncio code,
        #: on any thread (the system clock is the monotonic clock plus a fixed offset).
        self.clock: trio.abc.Clock | None = None

    async def start(self, main: Callable[..., Awaitable[Any]]) -> None:
        """Start trio as a guest and run ``await main(task_status=...)`` in its root nursery;
        returns once ``main`` called ``task_status.started()``. ValueError if :data:`GUEST_ENV`
        names no guest mode (before anything starts)."""
        mode = guest_mode()
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

        first: list[Callable[[], Any]] = []

        def not_threadsafe(fn: Callable[[], Any]) -> None:
            # The first call hands over the guest run's first tick: kept, to choose a driver.
            if first:
                loop.call_soon(fn)
            else:
                first.append(fn)

        trio.lowlevel.start_guest_run(
            root,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=not_threadsafe,
            done_callback=done,
            host_uses_signal_set_wakeup_fd=True,
        )
        self.driver = _OneThreadGuest.of(loop, first[0]) if mode == "one-thread" else None
        # The first tick: the driver's, or trio's own guest ticks from here on.
        loop.call_soon(first[0] if self.driver is None else self.driver.tick)
        await started

    @property
    def one_thread(self) -> bool:
        """Whether trio runs on :class:`_OneThreadGuest` (its idle waits on the loop itself)."""
        return self.driver is not None

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run the synchronous ``fn(*args)`` inside trio, soon (from asyncio code)."""
        assert self.token is not None
        self.token.run_sync_soon(fn, *args)

    def wake(self, lot: trio.lowlevel.ParkingLot) -> None:
        """Wake the trio tasks parked in ``lot`` (from asyncio code). With one thread, at once:
        asyncio code runs only between trio's ticks, and trio allows the host to reschedule its
        tasks then (``unrolled_run``'s comments: "some code in the host thread rescheduled a
        task"); the next tick runs them. Otherwise through the token, like :meth:`call_soon`."""
        if self.driver is not None:
            if lot:
                self.driver.resume_soon()  # before trio would write its wake-up socket
            lot.unpark_all()
        else:
            self.call_soon(lot.unpark_all)

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

    With the one-thread driver the consumer may set :attr:`direct`, a synchronous handler: an item
    pushed while none is waiting is then handled at once, inside the push, instead of waking the
    consumer's task for it. That is a trio scheduling round less per item (~50 us of a remote
    decision's ~500, benchmarks/bench_referee.py), and safe because asyncio code runs only between
    trio's ticks on that thread, where the handler may do what trio's tasks do synchronously
    (reschedule tasks, read trio's clock). Items are still handled one at a time and in order: an
    item that finds others waiting joins the queue. The consumer sets ``direct`` only once it has
    nothing queued, and clears it when it stops.

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
        #: The consumer's synchronous handler, used only with the one-thread driver (see above).
        self.direct: Callable[[Any], None] | None = None

    def push(self, item: Any) -> bool:
        if self.closed:
            return True
        bridge = self.bridge
        now = bridge.clock.current_time()
        driver = bridge.driver
        if driver is not None and self.direct is not None and not self.items:
            # Before the handler reschedules a trio task: a tick without trio's wake-up write.
            owed = driver.take_over()
            self.arrived = now
            try:
                self.direct(item)
            finally:
                if owed:
                    # Trio's tick now, inside this push: the task the handler woke (a match
                    # waiting for this answer) runs before the reader re-arms its read, with
                    # no loop iteration between (~40 us of a remote decision).
                    driver.run_now()
            return True
        if len(self.items) >= self.limit:
            return False
        self.items.append((item, now))
        bridge.wake(self._lot)
        return True

    def close(self) -> None:
        self.closed = True
        self.bridge.wake(self._lot)

    async def get(self) -> Any:
        """The next item, or ``None`` once closed and drained."""
        while not self.items:
            if self.closed:
                return None
            await self._lot.park()
        item, self.arrived = self.items.popleft()
        return item


class EagerWriter:
    """An outbox (:class:`~standoff.server.sessions.Outbox`) that starts each write at once, on
    the caller's stack, instead of waking a task of the loop to do it.

    ``write`` is an asyncio coroutine function (a grpc.aio stream's ``context.write``). Trio code
    runs inside the loop's callbacks on the loop's thread (the guest run), so it may start one:
    :meth:`put_nowait` drives the coroutine by hand up to its first wait, which is where grpc.aio
    has handed the message to gRPC's core (``grpc_call_start_batch``); the rest of it (the wait
    for the write to complete) is driven by the loop's callbacks, as a task would. A message put
    while a write is in flight waits in order for it, as one would on a queue: one write at a time,
    as gRPC requires. That is one loop round less per message than a queue the stream's handler
    takes from (~30 us of a remote decision, benchmarks/bench_referee.py).

    ``None`` ends the outbox: :attr:`done` resolves once every message before it is written.
    A write that fails (the stream is over, the client gone) ends it too, dropping what waits:
    :attr:`failed` says so, and nothing raises into the code that put the message.
    """

    def __init__(self, write: Callable[[bytes], Awaitable[Any]], loop: asyncio.AbstractEventLoop) -> None:
        self._write = write
        self._loop = loop
        self._waiting: deque[bytes] = deque()
        self._busy = False  # a write in flight
        self._ending = False  # None was put
        self.failed: BaseException | None = None
        #: Resolves (to None) once the outbox is over: ended and written out, or a write failed.
        self.done: asyncio.Future[None] = loop.create_future()

    def qsize(self) -> int:
        return len(self._waiting)

    def put_nowait(self, item: bytes | None) -> None:
        if self._ending or self.done.done():
            return
        if item is None:
            self._ending = True
            if not self._busy:
                self._finish()
        elif self._busy:
            self._waiting.append(item)
        else:
            self._start(item)

    def _start(self, data: bytes) -> None:
        self._busy = True
        self._step(self._write(data))

    def _step(self, coro: Any) -> None:
        try:
            waited = coro.send(None)
        except StopIteration:
            self._written()
            return
        except BaseException as exc:  # noqa: BLE001 - the stream is over: the outbox ends here
            self._fail(exc)
            return
        if isinstance(waited, asyncio.Future):  # an asyncio future (grpc.aio's batch): its result
            waited.add_done_callback(lambda _future: self._step(coro))
        else:  # a bare yield (``asyncio.sleep(0)``): the next loop round
            self._loop.call_soon(self._step, coro)

    def _written(self) -> None:
        self._busy = False
        if self._waiting:
            self._start(self._waiting.popleft())
        elif self._ending:
            self._finish()

    def _fail(self, exc: BaseException) -> None:
        self.failed = exc
        self._busy = False
        self._waiting.clear()
        self._finish()

    def _finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class _OneThreadGuest:
    """Trio's guest run, driven by the asyncio loop alone (see the module's docstring).

    Each :meth:`tick` is trio's ``GuestState.guest_tick`` but for the idle wait: instead of
    ``get_events(timeout)`` in a worker thread, the loop watches trio's epoll descriptor and a
    timer for ``timeout``, then polls trio's I/O without blocking (:meth:`ready`). ``get_events``
    answers falsy only when nothing happened, which is what a wait that ran out answers too.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, guest: Any) -> None:
        self.loop = loop
        self.guest = guest
        self.runner = guest.runner
        self.io = guest.runner.io_manager
        self.fd = self.io._epoll.fileno()
        self.timer: asyncio.TimerHandle | None = None
        self.idle = False  # waiting on the loop (for trio's descriptor, and the timer if set)
        # The loop watches trio's descriptor from the first idle wait to the end of the run, not
        # from each wait to the next tick: adding and removing a reader costs two epoll_ctl
        # calls and the selector's bookkeeping (~10 us), at least twice a decision. While trio
        # is not idle, a readable descriptor calls :meth:`ready` for nothing (see there).
        self.watching = False

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop, first_tick: Callable[[], Any]) -> _OneThreadGuest | None:
        """The driver for the guest run whose first tick is ``first_tick``, or None where it
        cannot drive it: trio's internals are not as it expects, or the loop does not wait with a
        selector (Windows' proactor, uvloop), so cannot watch trio's descriptor."""
        if not isinstance(loop, asyncio.SelectorEventLoop):
            return None
        guest = getattr(first_tick, "__self__", None)
        runner = getattr(guest, "runner", None)
        io = getattr(runner, "io_manager", None)
        expected = (
            getattr(first_tick, "__name__", "") == "guest_tick"
            and all(hasattr(guest, name) for name in ("unrolled_run_gen", "unrolled_run_next_send", "done_callback"))
            and hasattr(runner, "guest_tick_scheduled")
            and hasattr(runner, "main_task_outcome")
            and callable(getattr(io, "get_events", None))
            and hasattr(getattr(io, "_epoll", None), "fileno")
        )
        return cls(loop, guest) if expected else None

    def tick(self) -> None:
        guest = self.guest
        previous, sniffio_library.name = sniffio_library.name, "trio"
        try:
            timeout = guest.unrolled_run_next_send.send(guest.unrolled_run_gen)
        except StopIteration:
            self._unwatch_for_good()
            guest.done_callback(self.runner.main_task_outcome)
            return
        except trio.TrioInternalError as exc:
            self._crashed(exc)
            return
        finally:
            sniffio_library.name = previous
        events = outcome_lib.capture(self.io.get_events, 0)
        if timeout <= 0 or isinstance(events, outcome_lib.Error) or events.value:
            guest.unrolled_run_next_send = events
            self.runner.guest_tick_scheduled = True
            self.loop.call_soon(self.tick)
            return
        # Idle: trio's force_guest_tick_asap (a task rescheduled from outside, the token) now
        # writes its wake-up socket, which makes the epoll descriptor readable.
        self.runner.guest_tick_scheduled = False
        self.idle = True
        if not self.watching:
            self.watching = True
            self.loop.add_reader(self.fd, self.ready)
        if timeout != math.inf:
            self.timer = self.loop.call_later(timeout, self.ready)

    def ready(self) -> None:
        """Trio's I/O is ready, it was woken, or its deadline came: its next tick. Nothing if
        trio is not idle (its descriptor stays watched: its tick to come polls the events)."""
        if self.idle:
            self._leave_idle()
            self._resume()

    def resume_soon(self) -> None:
        """A tick soon, if trio is idle (from asyncio code about to reschedule a trio task): the
        same as trio writing its wake-up socket and the loop seeing it, one syscall and one
        poll fewer."""
        if self.idle:
            self._leave_idle()
            self.runner.guest_tick_scheduled = True  # so trio's reschedule does not write it
            self.loop.call_soon(self._resume)

    def take_over(self) -> bool:
        """Like :meth:`resume_soon`, but the caller runs the tick itself (:meth:`run_now`, once it
        has rescheduled its trio tasks): True if it must, trio having been idle. For asyncio code
        that runs between trio's ticks (never inside one: trio calls no asyncio code that would
        come back here), so the tick it runs is not nested in another."""
        if not self.idle:
            return False
        self._leave_idle()
        self.runner.guest_tick_scheduled = True  # so trio's reschedule does not write its socket
        return True

    def run_now(self) -> None:
        """The tick :meth:`take_over` made the caller's. Trio's failure is reported as the run's
        (its done callback), never raised into the caller: a gRPC reader must not take trio's
        crash for the end of its stream."""
        try:
            self._resume()
        except Exception as exc:  # noqa: BLE001 - trio wraps its own errors; this is a last guard
            self._crashed(exc)

    def _crashed(self, exc: BaseException) -> None:
        """Trio's run failed with ``exc``: the loop stops watching it and the run reports it."""
        self._unwatch_for_good()
        self.guest.done_callback(outcome_lib.Error(exc))

    def _leave_idle(self) -> None:
        """Trio is no longer idle: its timer, if any, is cancelled (its descriptor stays watched)."""
        if self.idle:
            self.idle = False
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def _unwatch_for_good(self) -> None:
        """The run is over: trio closes its descriptor, so the loop must no longer watch it."""
        self._leave_idle()
        if self.watching:
            self.watching = False
            self.loop.remove_reader(self.fd)

    def _resume(self) -> None:
        self.guest.unrolled_run_next_send = outcome_lib.capture(self.io.get_events, 0)
        self.runner.guest_tick_scheduled = True
        self.tick()
