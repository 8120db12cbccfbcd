"""A decision's clock runs from when the referee sends it (docs/protocol.md, "clocks"), not from
when the referee began building the bot's view, until the answer reached the referee, not until
the match loop took it: the referee's own work is never charged to a bot. Checked on virtual time
(trio's MockClock): building the view, or getting round to the answer, "takes" 5 s, the bot
answers at once, and the charge must be about nothing."""

from __future__ import annotations

from types import SimpleNamespace

import trio
import trio.testing

from standoff.server import seats as seats_module
from standoff.server.faults import FORFEIT
from standoff.server.match import MatchDriver
from standoff.server.referee import Referee
from standoff.server.seats import LocalSeat, RemoteSeat

BUILD_S = 5.0


class _Driver:
    def __init__(self) -> None:
        self.charged: list[float] = []
        self.state = None

    def answer(self, ask, index, elapsed_ms, timing) -> None:
        self.charged.append(elapsed_ms)

    settle = MatchDriver.settle  # the real dispatch, onto answer() above


def _ask(number: int = 1) -> SimpleNamespace:
    decision = SimpleNamespace(role="p1", step="s", prompt="", options=("a", "b"))
    return SimpleNamespace(role="p1", number=number, decision=decision, allowance_ms=60_000, clocks={}, attempt=0)


def _charged_remote(clock, send, before=lambda seat: None) -> list[float]:
    """What the referee charges a remote seat for one decision, on ``clock``: ``send(seat)``
    runs as the decision is sent (the bot's side), ``before(seat)`` before it is asked."""
    seat = RemoteSeat("p1", "remote:alice", "alice")
    seat.session = SimpleNamespace(send=lambda message: send(seat))
    driver = _Driver()
    match = SimpleNamespace(seats={"p1": seat}, driver=driver, id="m1", game=None, grace_s=1.0, policy=FORFEIT)

    async def main() -> None:
        before(seat)
        await Referee._ask(None, match, _ask())

    trio.run(main, clock=clock)
    return driver.charged


def _answer_now(seat) -> None:
    seat.events.send_nowait(("choice", 1, 1, 0, trio.current_time()))


def test_a_remote_seat_is_charged_from_the_send(monkeypatch):
    clock = trio.testing.MockClock()

    def slow_build(game, state, role, match_id, ask, history_from):
        clock.jump(BUILD_S)  # the referee builds the view: virtual seconds pass
        return b"decision", None

    monkeypatch.setattr(seats_module, "decision_bytes", slow_build)
    # The bot answers the moment the decision reaches it: not the 5,000 ms the view took.
    assert _charged_remote(clock, _answer_now) == [0.0]


def test_a_remote_seat_is_charged_until_its_answer_arrived_not_until_the_match_ran_again(monkeypatch):
    """The answer reaches the referee at once; then 5 virtual seconds pass before the match loop
    takes it (the referee busy elsewhere): the bot is charged nothing for them."""
    clock = trio.testing.MockClock()
    monkeypatch.setattr(seats_module, "decision_bytes", lambda *args: (b"decision", None))

    def answer_then_wait(seat) -> None:
        _answer_now(seat)  # arrived now...
        clock.jump(BUILD_S)  # ... and the referee gets round to it 5 s later

    assert _charged_remote(clock, answer_then_wait) == [0.0]  # not 5,000 ms


def test_an_answer_queued_before_its_decision_was_sent_is_charged_nothing_not_less(monkeypatch):
    """An answer already in the seat's queue when its decision is sent is charged 0, never a
    negative time that would add to its bank. (The referee refuses an answer to a decision not
    sent yet on arrival, so none reaches the queue that way: tests/server/test_answer_ahead.py;
    the clamp stays as the clock's own guard.)"""
    clock = trio.testing.MockClock()
    monkeypatch.setattr(seats_module, "decision_bytes", lambda *args: (b"decision", None))

    def early(seat) -> None:
        _answer_now(seat)
        clock.jump(BUILD_S)

    assert _charged_remote(clock, lambda seat: None, before=early) == [0.0]


def test_a_local_seat_is_charged_from_the_hand_over(monkeypatch):
    clock = trio.testing.MockClock()

    class Local:
        quick = False  # asked in a worker thread (the inline path: tests/server/test_quick_bots.py)

        def prepare(self, state, decision, number, clocks):
            clock.jump(BUILD_S)
            return "prepared"

        def answer(self, prepared, ticket=None):
            return 0

    seat = LocalSeat("p1", "random", Local())
    driver = _Driver()
    match = SimpleNamespace(seats={"p1": seat}, driver=driver, id="m1", game=None, grace_s=1.0, policy=FORFEIT)

    async def main() -> None:
        await Referee._ask(None, match, _ask())

    trio.run(main, clock=clock)
    assert driver.charged == [0.0]
