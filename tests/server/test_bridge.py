"""The asyncio ↔ trio bridge, in both of its drivers: trio's own guest mode (idle waits in a worker
thread, ``STANDOFF_TRIO_GUEST=threads``) and the one-thread driver the server uses by default.
Each behaviour the referee relies on is checked in both: deadlines, trio's own I/O, wake-ups from
asyncio (the inbox), calls both ways, errors, and a clean stop."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys

import pytest
import trio

from standoff.server.bridge import GUEST_ENV, Inbox, TrioBridge


@pytest.fixture(params=["one-thread", "threads"])
def mode(request, monkeypatch):
    if request.param == "threads":
        monkeypatch.setenv(GUEST_ENV, "threads")
    else:
        monkeypatch.delenv(GUEST_ENV, raising=False)
    return request.param


async def _started(bridge: TrioBridge) -> None:
    async def main(task_status=trio.TASK_STATUS_IGNORED):
        task_status.started()

    await bridge.start(main)


def test_the_driver_is_the_one_asked_for(mode):
    # On Linux with this trio the one-thread driver must be in use: if trio's internals change,
    # this fails instead of the server silently falling back to the slower threads.
    assert asyncio.run(_driver_in_use()) is (mode == "one-thread")


def test_deadlines_io_calls_and_wakeups(mode, monkeypatch):
    # Trio's guest mode starts its idle waits with this (a worker thread each): counted.
    from trio._core import _run

    idle_waits_in_threads = []

    def counting(fn, deliver, **kwargs):
        idle_waits_in_threads.append(fn)
        return start_thread_soon(fn, deliver, **kwargs)

    start_thread_soon = _run.start_thread_soon
    monkeypatch.setattr(_run, "start_thread_soon", counting)

    async def go():
        bridge = TrioBridge()
        await _started(bridge)
        try:
            # A trio deadline with trio otherwise idle (the timer path).
            loop = asyncio.get_running_loop()
            began = loop.time()
            await bridge.call(trio.sleep, 0.05)
            slept = loop.time() - began

            # Trio's own I/O (the epoll readiness path): a socket pair, written from asyncio.
            a, b = socket.socketpair()
            a.setblocking(False)

            async def receive():
                sock = trio.socket.from_stdlib_socket(b)
                return await sock.recv(10)

            got = bridge.call(receive)
            await asyncio.sleep(0.02)
            a.send(b"ping")
            received = await got
            a.close()
            b.close()

            # Results and errors of calls.
            async def double(x):
                await trio.sleep(0)
                return 2 * x

            async def fail():
                raise ValueError("from trio")

            doubled = await bridge.call(double, 21)
            with pytest.raises(ValueError, match="from trio"):
                await bridge.call(fail)

            # Wake-ups from asyncio: items pushed from asyncio reach a parked trio task in order,
            # including while it is parked and after asyncio yielded in between.
            inbox = Inbox(bridge, limit=3)

            async def drain():
                items = []
                while (item := await inbox.get()) is not None:
                    items.append(item)
                return items

            drained = bridge.call(drain)
            await asyncio.sleep(0.01)
            assert inbox.push(1) and inbox.push(2)
            await asyncio.sleep(0.01)
            assert inbox.push(3)
            inbox.close()
            items = await drained

            # A bounded inbox refuses past its limit while nobody drains it.
            full = Inbox(bridge, limit=2)
            refused = [full.push(i) for i in range(3)]

            # call_soon (sync code in trio) runs too.
            event = trio.Event()
            bridge.call_soon(event.set)
            await bridge.call(event.wait)
        finally:
            await bridge.stop()
        return slept, received, doubled, items, refused

    slept, received, doubled, items, refused = asyncio.run(go())
    assert slept >= 0.045
    assert received == b"ping"
    assert doubled == 42
    assert items == [1, 2, 3]
    assert refused == [True, True, False]
    # One thread: idle waits happen on the loop itself, never in a worker thread.
    assert bool(idle_waits_in_threads) is (mode == "threads")


def test_each_item_is_stamped_with_trios_clock_when_pushed(mode):
    """``Inbox.arrived`` is when the item being handled was pushed, however long it waited: a
    bot's answer reached the referee then, and its clock stops there (docs/protocol.md)."""

    async def go():
        bridge = TrioBridge()
        await _started(bridge)
        try:
            inbox, windows, stamps = Inbox(bridge, limit=8), [], []
            for item in ("first", "second"):  # nobody consumes yet: both wait in the queue
                before = bridge.clock.current_time()
                assert inbox.push(item)
                windows.append((before, bridge.clock.current_time()))
                await asyncio.sleep(0.02)
            direct_window = []

            async def consume():
                for _ in range(2):
                    await inbox.get()
                    stamps.append((inbox.arrived, trio.current_time()))

            await bridge.call(consume)
            # A direct handler (one-thread driver, nothing queued) sees the stamp of its item.
            inbox.direct = lambda item: stamps.append((inbox.arrived, bridge.clock.current_time()))
            before = bridge.clock.current_time()
            assert inbox.push("third")
            direct_window.append((before, bridge.clock.current_time()))
            if bridge.driver is not None:
                return windows + direct_window, stamps
            await bridge.call(consume_one, inbox, stamps)
            return windows + direct_window, stamps
        finally:
            await bridge.stop()

    async def consume_one(inbox, stamps):
        await inbox.get()
        stamps.append((inbox.arrived, trio.current_time()))

    windows, stamps = asyncio.run(go())
    assert len(stamps) == 3
    for (before, after), (arrived, handled) in zip(windows, stamps):
        assert before <= arrived <= after and arrived <= handled
    assert stamps[0][1] - stamps[0][0] >= 0.035  # "first" waited ~40 ms: stamped at its push


def test_a_consumers_direct_handler_takes_items_only_with_one_thread_and_nothing_queued(mode):
    """``Inbox.direct``: with the one-thread driver an item pushed while none waits is handled
    inside the push (the consumer's task is not woken for it); one that finds an item queued
    joins the queue, so the order holds. Under trio's own guest mode the handler is never used."""

    async def go():
        bridge = TrioBridge()
        await _started(bridge)
        try:
            inbox = Inbox(bridge, limit=8)
            handled, got = [], []

            def direct(item):
                # What the referee's handler does: read trio's clock, reschedule a trio task.
                handled.append((item, trio.current_time() > 0))
                woken.set()

            woken = trio.Event()
            inbox.items.append(("queued", bridge.clock.current_time()))  # as if pushed before the handler was set
            inbox.direct = direct
            assert inbox.push("behind") and [item for item, _ in inbox.items] == ["queued", "behind"] and handled == []

            async def consume():
                got.append(await inbox.get())
                got.append(await inbox.get())

            await bridge.call(consume)
            waiter = bridge.call(woken.wait)  # a trio task the handler is to wake
            await asyncio.sleep(0.01)
            assert inbox.push("first") and inbox.push("second")
            in_push = list(handled)  # before asyncio yields: handled inside the pushes, or not
            if in_push:
                await asyncio.wait_for(waiter, 5)
            return got, in_push, [item for item, _ in inbox.items]
        finally:
            await bridge.stop()

    got, in_push, left = asyncio.run(go())
    assert got == ["queued", "behind"]
    if mode == "one-thread":
        assert in_push == [("first", True), ("second", True)] and left == []
    else:
        assert in_push == [] and left == ["first", "second"]


def test_a_direct_push_runs_the_task_it_wakes_before_it_returns(mode):
    """With the one-thread driver, trio's tick runs inside the push when trio was idle: the task
    the handler woke (a match waiting for this answer) has run by the time ``push`` returns, and
    what it sends then leaves before the reader reads again. Under trio's own guest mode it runs
    later, on the loop."""

    async def go():
        bridge = TrioBridge()
        await _started(bridge)
        try:
            inbox, ran = Inbox(bridge, limit=8), []
            woken = trio.Event()
            inbox.direct = lambda item: woken.set()

            async def waiter():
                await woken.wait()
                ran.append(trio.current_time() > 0)

            done = bridge.call(waiter)
            await asyncio.sleep(0.01)  # trio idle, the waiter parked
            assert inbox.push("answer")
            in_push = list(ran)
            if bridge.driver is None:  # no direct handler: the item waits for a consumer
                assert [item for item, _ in inbox.items] == ["answer"]
                inbox.items.clear()
                bridge.call_soon(woken.set)
            await asyncio.wait_for(done, 5)
            # trio goes on as usual afterwards: a deadline, then another direct push.
            await bridge.call(trio.sleep, 0.01)
            again = trio.Event()
            inbox.direct = lambda item: again.set()
            second = bridge.call(again.wait)
            await asyncio.sleep(0.01)
            inbox.push("another")
            if bridge.driver is None:
                bridge.call_soon(again.set)
            await asyncio.wait_for(second, 5)
            return in_push, ran
        finally:
            await bridge.stop()

    in_push, ran = asyncio.run(go())
    assert ran == [True]
    assert in_push == ([True] if mode == "one-thread" else [])


_BROKEN_TICK = """
import asyncio, os
import trio
from standoff.server.bridge import Inbox, TrioBridge

async def go():
    bridge = TrioBridge()

    async def main(task_status=trio.TASK_STATUS_IGNORED):
        task_status.started()

    await bridge.start(main)
    inbox = Inbox(bridge, limit=8)
    inbox.direct = lambda item: None
    await asyncio.sleep(0.01)  # trio idle
    assert bridge.driver is not None and bridge.driver.idle

    def broken():
        raise RuntimeError("trio broke")

    bridge.driver._resume = broken
    print("push returned", inbox.push("answer"), flush=True)  # nothing raised here
    try:
        await asyncio.wait_for(bridge.stop(), 5)
    except RuntimeError as exc:
        print("the run failed with", exc, flush=True)

asyncio.run(go())
os._exit(0)  # the broken run is never finished: leave without waiting for it
"""


def test_trio_failing_in_a_tick_run_inside_a_push_is_the_runs_failure_not_the_readers():
    # A last guard (trio wraps its own errors): the reader that pushed must not see it, or it
    # would take trio's crash for the end of its stream; the bridge's run reports it instead.
    # In a process of its own: a guest run that never finishes leaves trio's state in its thread.
    env = {k: v for k, v in os.environ.items() if k != GUEST_ENV}
    run = subprocess.run([sys.executable, "-c", _BROKEN_TICK], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["push returned True", "the run failed with trio broke"], run.stdout


class _FakeStream:
    """``context.write`` as grpc.aio's: the message handed over on the first step (synchronously),
    then a wait for the write's completion, which the test resolves (or fails) by hand."""

    def __init__(self, loop):
        self.loop, self.handed, self.pending, self.written = loop, [], [], []

    async def write(self, data):
        self.handed.append(data)
        if data == b"sync-fail":
            raise RuntimeError("RPC already finished")
        if data == b"bare":
            await asyncio.sleep(0)  # a bare yield, not a future
        else:
            future = self.loop.create_future()
            self.pending.append(future)
            await future
        self.written.append(data)


def test_an_eager_writer_hands_each_message_over_at_once_one_at_a_time_in_order():
    from standoff.server.bridge import EagerWriter

    async def go():
        loop = asyncio.get_running_loop()
        stream = _FakeStream(loop)
        out = EagerWriter(stream.write, loop)
        out.put_nowait(b"one")
        assert stream.handed == [b"one"]  # on the caller's stack: no loop round needed
        out.put_nowait(b"two")
        out.put_nowait(b"bare")
        assert stream.handed == [b"one"] and out.qsize() == 2  # one write in flight at a time
        out.put_nowait(None)
        assert not out.done.done()
        stream.pending[0].set_result(None)
        await asyncio.sleep(0)
        assert stream.written == [b"one"] and stream.handed == [b"one", b"two"]
        stream.pending[1].set_result(None)
        await asyncio.wait_for(out.done, 5)
        assert stream.written == [b"one", b"two", b"bare"] and out.failed is None
        out.put_nowait(b"late")  # over: ignored
        assert stream.handed == [b"one", b"two", b"bare"]

    asyncio.run(go())


@pytest.mark.parametrize("how", ["synchronously", "in flight", "cancelled"])
def test_an_eager_writer_whose_write_fails_ends_and_raises_nothing_to_the_sender(how):
    from standoff.server.bridge import EagerWriter

    async def go():
        loop = asyncio.get_running_loop()
        stream = _FakeStream(loop)
        out = EagerWriter(stream.write, loop)
        if how == "synchronously":
            out.put_nowait(b"sync-fail")  # raises inside write's first step: not here
        else:
            out.put_nowait(b"one")
            out.put_nowait(b"two")
            if how == "cancelled":
                stream.pending[0].cancel()
            else:
                stream.pending[0].set_exception(ConnectionResetError("client gone"))
        await asyncio.wait_for(out.done, 5)
        out.put_nowait(b"three")
        return out, stream

    out, stream = asyncio.run(go())
    assert out.failed is not None and out.qsize() == 0
    assert b"two" not in stream.handed and b"three" not in stream.handed and stream.written == []


def test_stop_cancels_trio_and_the_loop_is_left_clean(mode):
    async def go():
        bridge = TrioBridge()
        finished = []

        async def main(task_status=trio.TASK_STATUS_IGNORED):
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:
                finished.append(True)

        loop = asyncio.get_running_loop()
        before = set(loop._selector.get_map())  # the descriptors the loop watches (asyncio's own)
        await bridge.start(main)
        await asyncio.sleep(0.01)
        during = set(loop._selector.get_map())
        await bridge.stop()
        await asyncio.sleep(0.01)  # nothing of trio's is left to run on the loop
        # Trio's descriptor was watched while it ran (one thread); the loop no longer watches a
        # descriptor trio has closed.
        return finished, len(during - before), set(loop._selector.get_map()) - before

    finished, watched, left = asyncio.run(go())
    assert finished == [True]
    assert watched == (1 if mode == "one-thread" else 0) and left == set()


def test_a_failing_start_is_reported(mode):
    async def go():
        bridge = TrioBridge()

        async def main(task_status=trio.TASK_STATUS_IGNORED):
            raise RuntimeError("cannot start")

        await bridge.start(main)

    with pytest.raises(BaseException) as info:
        asyncio.run(go())
    assert "cannot start" in repr(info.value) or any(
        "cannot start" in repr(e) for e in getattr(info.value, "exceptions", ()))


def test_a_remote_match_is_played_alike_on_both_drivers(tmp_path, monkeypatch):
    """The whole referee on each driver: a seeded match between a remote SDK bot and a built-in
    one, its record (timings aside) the same on both."""
    from kits.server import ServerThread, comparable_record

    from standoff.bots.random_bot import RandomBot
    from standoff.sdk.client import run_in_thread

    records = {}
    for mode in ("one-thread", "threads"):
        if mode == "threads":
            monkeypatch.setenv(GUEST_ENV, "threads")
        else:
            monkeypatch.delenv(GUEST_ENV, raising=False)
        srv = ServerThread(tmp_path / mode).start()
        try:
            thread, box = run_in_thread(RandomBot(7), srv.address, srv.tokens.add("alice"), matches=1)
            started = srv.start_match(["remote:alice", "greedy"], wait=True, seed=1234)
            thread.join(60)
            assert len(box) == 1 and started.summary.result.termination in ("breakthrough", "envelopment")
            records[mode] = comparable_record(srv.record(started.match_id), match_id=False)
        finally:
            srv.stop()
    assert records["one-thread"] == records["threads"]
    assert len(records["one-thread"]) > 50


def test_a_mistyped_guest_mode_is_one_line_and_nothing_starts(tmp_path, monkeypatch):
    import subprocess
    import sys

    monkeypatch.setenv(GUEST_ENV, "thread")
    with pytest.raises(ValueError, match="STANDOFF_TRIO_GUEST='thread' is not a guest mode: use one-thread or threads"):
        asyncio.run(_started(TrioBridge()))
    done = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0",
                           "--data-dir", str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "standoff: error: STANDOFF_TRIO_GUEST='thread' is not a guest mode: use one-thread or threads"]
    monkeypatch.setenv(GUEST_ENV, "one-thread")  # the default, named
    assert asyncio.run(_driver_in_use())


async def _driver_in_use() -> bool:
    bridge = TrioBridge()
    await _started(bridge)
    try:
        return bridge.one_thread
    finally:
        await bridge.stop()
