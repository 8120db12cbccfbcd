"""The asyncio ↔ trio bridge: trio's own guest mode on the asyncio loop (its idle waits in a
worker thread), the only one on trio's public API. Each behaviour the referee relies on is
checked: deadlines, trio's own I/O, wake-ups from asyncio (the inbox and its direct handler),
calls both ways, the stream writer, errors, and a clean stop."""

from __future__ import annotations

import asyncio
import socket

import pytest
import trio

from standoff.server.bridge import GUEST_ENV, GUEST_MODES, Inbox, StreamWriter, TrioBridge


async def _started(bridge: TrioBridge) -> None:
    async def main(task_status=trio.TASK_STATUS_IGNORED):
        task_status.started()

    await bridge.start(main)


def test_deadlines_io_calls_and_wakeups():
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


def test_each_item_is_stamped_with_trios_clock_when_pushed():
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

            async def consume():
                for _ in range(2):
                    await inbox.get()
                    stamps.append((inbox.arrived, trio.current_time()))

            await bridge.call(consume)
            # A direct handler (nothing queued) sees the stamp of its item.
            inbox.direct = lambda item: stamps.append((inbox.arrived, bridge.clock.current_time()))
            before = bridge.clock.current_time()
            assert inbox.push("third")
            windows.append((before, bridge.clock.current_time()))
            return windows, stamps
        finally:
            await bridge.stop()

    windows, stamps = asyncio.run(go())
    assert len(stamps) == 3
    for (before, after), (arrived, handled) in zip(windows, stamps):
        assert before <= arrived <= after and arrived <= handled
    assert stamps[0][1] - stamps[0][0] >= 0.035  # "first" waited ~40 ms: stamped at its push


def test_a_consumers_direct_handler_takes_items_only_with_nothing_queued():
    """``Inbox.direct``: an item pushed while none waits is handled inside the push (the
    consumer's task is not woken for it), and the handler may use trio's sync APIs there (read
    its clock, wake a trio task, which then runs); one that finds an item queued joins the
    queue, so the order holds."""

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
            in_push = list(handled)  # before asyncio yields: handled inside the pushes
            await asyncio.wait_for(waiter, 5)  # the task the handler woke runs
            return got, in_push, [item for item, _ in inbox.items]
        finally:
            await bridge.stop()

    got, in_push, left = asyncio.run(go())
    assert got == ["queued", "behind"]
    assert in_push == [("first", True), ("second", True)] and left == []


class _FakeStream:
    """``context.write`` as grpc.aio's: a coroutine that waits for the write's completion, which
    the test resolves (or fails) by hand; ``handed`` lists the writes begun."""

    def __init__(self, loop):
        self.loop, self.handed, self.pending, self.written = loop, [], [], []

    async def write(self, data):
        self.handed.append(data)
        if data == b"sync-fail":
            raise RuntimeError("RPC already finished")
        future = self.loop.create_future()
        self.pending.append(future)
        await future
        self.written.append(data)


async def _settle() -> None:
    """A few loop rounds: what the writer's task has to do so far is done."""
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_stream_writer_writes_each_message_one_at_a_time_in_order():
    async def go():
        loop = asyncio.get_running_loop()
        stream = _FakeStream(loop)
        out = StreamWriter(stream.write, loop)
        out.put_nowait(b"one")
        out.put_nowait(b"two")
        out.put_nowait(b"three")
        await _settle()
        assert stream.handed == [b"one"] and out.qsize() == 2  # one write in flight at a time
        out.put_nowait(None)
        assert not out.done.done()
        stream.pending[0].set_result(None)
        await _settle()
        assert stream.written == [b"one"] and stream.handed == [b"one", b"two"]
        stream.pending[1].set_result(None)
        await _settle()
        stream.pending[2].set_result(None)
        await asyncio.wait_for(out.done, 5)
        assert stream.written == [b"one", b"two", b"three"] and out.failed is None
        out.put_nowait(b"late")  # over: ignored
        await _settle()
        assert stream.handed == [b"one", b"two", b"three"]

    asyncio.run(go())


def test_a_stream_writer_waits_for_messages_and_ends_when_told():
    async def go():
        loop = asyncio.get_running_loop()
        stream = _FakeStream(loop)
        out = StreamWriter(stream.write, loop)
        await _settle()  # nothing to write: the task waits
        assert stream.handed == [] and not out.done.done()
        out.put_nowait(b"one")  # as trio code does, from a callback of the loop
        await _settle()
        assert stream.handed == [b"one"]
        stream.pending[0].set_result(None)
        await _settle()
        out.put_nowait(None)
        await asyncio.wait_for(out.done, 5)
        return stream.written, out.failed

    assert asyncio.run(go()) == ([b"one"], None)


@pytest.mark.parametrize("how", ["synchronously", "in flight", "cancelled"])
def test_a_stream_writer_whose_write_fails_ends_and_raises_nothing_to_the_sender(how):
    async def go():
        loop = asyncio.get_running_loop()
        stream = _FakeStream(loop)
        out = StreamWriter(stream.write, loop)
        if how == "synchronously":
            out.put_nowait(b"sync-fail")  # write raises at once: in the writer's task, not here
            out.put_nowait(b"two")
        else:
            out.put_nowait(b"one")
            out.put_nowait(b"two")
            await _settle()
            if how == "cancelled":
                stream.pending[0].cancel()
            else:
                stream.pending[0].set_exception(ConnectionResetError("client gone"))
        await asyncio.wait_for(out.done, 5)
        out.put_nowait(b"three")
        await _settle()
        return out, stream

    out, stream = asyncio.run(go())
    assert out.failed is not None and out.qsize() == 0
    assert b"two" not in stream.handed and b"three" not in stream.handed and stream.written == []


def test_a_cancelled_stream_writer_ends_and_its_task_is_gone():
    async def go():
        loop = asyncio.get_running_loop()
        stream = _FakeStream(loop)
        out = StreamWriter(stream.write, loop)
        out.put_nowait(b"one")
        out.put_nowait(b"two")
        await _settle()
        out.cancel()  # the stream's handler is leaving
        await _settle()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        return out, stream, others

    out, stream, others = asyncio.run(go())
    assert out.done.done() and others == [] and stream.written == [] and out.qsize() == 0


def test_stop_cancels_trio_and_a_new_guest_run_may_start_after_it():
    async def go():
        bridge = TrioBridge()
        finished = []

        async def main(task_status=trio.TASK_STATUS_IGNORED):
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:
                finished.append(True)

        await bridge.start(main)
        await asyncio.sleep(0.01)
        await bridge.stop()
        # Trio's run is over and its state in this thread cleaned up: another one starts.
        again = TrioBridge()
        await _started(again)
        doubled = await again.call(_double, 4)
        await again.stop()
        return finished, doubled

    assert asyncio.run(go()) == ([True], 8)


async def _double(x):
    await trio.sleep(0)
    return 2 * x


def test_a_failing_start_is_reported():
    async def go():
        bridge = TrioBridge()

        async def main(task_status=trio.TASK_STATUS_IGNORED):
            raise RuntimeError("cannot start")

        await bridge.start(main)

    with pytest.raises(BaseException) as info:
        asyncio.run(go())
    assert "cannot start" in repr(info.value) or any(
        "cannot start" in repr(e) for e in getattr(info.value, "exceptions", ()))


def test_a_remote_match_is_played_alike_whatever_guest_mode_is_named(tmp_path, monkeypatch):
    """The whole referee through the bridge: a seeded match between a remote SDK bot and a
    built-in one, its record (timings aside) the same with the variable unset and with
    ``one-thread``, the old default a deployment may still set."""
    from kits.server import ServerThread, comparable_record

    from standoff.bots.random_bot import RandomBot
    from standoff.sdk.client import run_in_thread

    records = {}
    for mode in ("", "one-thread"):
        monkeypatch.setenv(GUEST_ENV, mode)
        srv = ServerThread(tmp_path / (mode or "unset")).start()
        try:
            thread, box = run_in_thread(RandomBot(7), srv.address, srv.tokens.add("alice"), matches=1)
            started = srv.start_match(["remote:alice", "greedy"], wait=True, seed=1234)
            thread.join(60)
            assert len(box) == 1 and started.summary.result.termination in ("breakthrough", "envelopment")
            records[mode] = comparable_record(srv.record(started.match_id), match_id=False)
        finally:
            srv.stop()
    assert records[""] == records["one-thread"]
    assert len(records[""]) > 50


def test_a_mistyped_guest_mode_is_one_line_and_nothing_starts(tmp_path, monkeypatch):
    import subprocess
    import sys

    monkeypatch.setenv(GUEST_ENV, "thread")
    with pytest.raises(ValueError, match="STANDOFF_TRIO_GUEST='thread' is not a guest mode: use threads or one-thread"):
        asyncio.run(_started(TrioBridge()))
    done = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0",
                           "--data-dir", str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "standoff: error: STANDOFF_TRIO_GUEST='thread' is not a guest mode: use threads or one-thread"]
    for named in GUEST_MODES:  # each documented value starts the bridge
        monkeypatch.setenv(GUEST_ENV, named)
        assert asyncio.run(_runs())


async def _runs() -> bool:
    bridge = TrioBridge()
    await _started(bridge)
    try:
        return await bridge.call(_double, 1) == 2
    finally:
        await bridge.stop()
