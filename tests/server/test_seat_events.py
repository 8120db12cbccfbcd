"""A remote seat's event queue (:class:`standoff.server.seats.SeatEvents`): what the match loop
relies on, written from its contract: events in order, none lost, one receiver, a checkpoint at
every receive, and a cancelled receive takes nothing."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from standoff.server.seats import SeatEvents


def test_events_queued_before_the_receive_come_out_in_order():
    events = SeatEvents()

    async def main() -> list:
        for n in range(5):
            events.send_nowait(("choice", n))
        assert len(events) == 5
        got = [await events.receive() for _ in range(5)]
        assert len(events) == 0
        return got

    assert trio.run(main) == [("choice", n) for n in range(5)]


def test_an_event_sent_to_a_waiting_receiver_wakes_it_and_is_not_queued():
    events = SeatEvents()
    got: list = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            async def receiver() -> None:
                got.append(await events.receive())
                got.append(await events.receive())

            nursery.start_soon(receiver)
            await trio.testing.wait_all_tasks_blocked()
            events.send_nowait(("choice", 1))
            assert len(events) == 0  # handed over, not queued
            events.send_nowait(("disconnect",))  # the receiver has not run yet: this one waits
            assert len(events) == 1

    trio.run(main)
    assert got == [("choice", 1), ("disconnect",)]


def test_a_cancelled_receive_takes_nothing_and_the_next_receive_gets_the_event():
    events = SeatEvents()

    async def main() -> tuple:
        with trio.move_on_after(0.01) as scope:
            await events.receive()
        assert scope.cancelled_caught
        events.send_nowait(("choice", 7))  # after the cancelled wait: no receiver left to take it
        assert len(events) == 1
        with trio.CancelScope() as cancelled:
            cancelled.cancel()
            await events.receive()  # a checkpoint even with an event waiting: raises, takes none
        assert len(events) == 1
        return await events.receive()

    assert trio.run(main) == ("choice", 7)


def test_receive_is_a_checkpoint_with_an_event_waiting():
    events = SeatEvents()

    async def main() -> tuple:
        events.send_nowait(("choice", 1))
        with trio.testing.assert_checkpoints():  # a yield to the scheduler, as trio's channels do
            return await events.receive()

    assert trio.run(main) == ("choice", 1)


def test_a_second_receiver_is_refused():
    events = SeatEvents()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(events.receive)
            await trio.testing.wait_all_tasks_blocked()
            with pytest.raises(trio.BusyResourceError):
                await events.receive()
            nursery.cancel_scope.cancel()

    trio.run(main)
