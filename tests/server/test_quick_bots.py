"""A bot that says it is quick (``Bot.quick``) is asked on the referee's own thread, not in a
worker thread; everything a worker thread would decide, it decides the same: a late answer is a
timeout (found when the bot returns), an exception a crash, a bad index an illegal answer; and a
match of quick bots lets the referee's other tasks run (:data:`INLINE_SLICE_S`).

The seat-level tests run on virtual time (trio's MockClock): a bot "thinks" by jumping it."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
import trio
import trio.testing
from kits.server import ServerThread

from standoff.bots.random_bot import RandomBot
from standoff.sdk.bot import Bot
from standoff.server.answers import SeatAnswer, SeatFault
from standoff.server.core.record import parse_record
from standoff.server.faults import CRASH, ILLEGAL, TIMEOUT
from standoff.server.plugins import BotSpec, load_registry
from standoff.server.seats import INLINE_SLICE_S, LocalSeat
from standoff.v1 import referee_pb2 as pb


def _ask(allowance_ms: int = 1_000) -> SimpleNamespace:
    decision = SimpleNamespace(role="p1", step="s", prompt="", options=("a", "b"))
    return SimpleNamespace(role="p1", number=1, decision=decision, allowance_ms=allowance_ms, clocks={}, attempt=0)


class _Local:
    """An InProcessSeat stand-in: ``answer`` runs ``choose`` (which may jump the clock)."""

    def __init__(self, choose, quick: bool = True) -> None:
        self.choose = choose
        self.quick = quick
        self.threads: list[int] = []

    def prepare(self, state, decision, number, clocks):
        return "prepared"

    def answer(self, prepared, ticket=None):
        self.threads.append(threading.get_ident())
        return self.choose()


CLOCK = trio.testing.MockClock()


def _ask_seat(local: _Local) -> list:
    """One decision asked of a LocalSeat playing ``local``: its result."""
    seat = LocalSeat("p1", "quick", local)
    match = SimpleNamespace(driver=SimpleNamespace(state=None))
    results = []

    async def main() -> None:
        results.append(await seat.ask(match, _ask()))

    trio.run(main, clock=CLOCK)
    return results


def test_a_quick_bot_is_asked_on_the_referee_thread_and_a_slow_one_in_a_worker():
    quick, slow = _Local(lambda: 1), _Local(lambda: 1, quick=False)
    assert _ask_seat(quick) == [SeatAnswer(1, 0.0, {"elapsed_ms": 0.0, "think_ms": 0.0})]
    assert _ask_seat(slow)[0].index == 1
    assert quick.threads == [threading.get_ident()]
    assert slow.threads and slow.threads[0] != threading.get_ident()


def test_a_quick_bot_that_runs_late_is_a_timeout_and_its_answer_is_not_used():
    def late():
        CLOCK.jump(1.5)  # 1,500 ms against 1,000
        return 1

    (result,) = _ask_seat(_Local(late))
    assert result == SeatFault(TIMEOUT, "no answer within 1000 ms", pytest.approx(1500.0))
    (on_time,) = _ask_seat(_Local(lambda: CLOCK.jump(0.9) or 0))
    assert (on_time.index, on_time.elapsed_ms, on_time.timing["think_ms"]) == (0, pytest.approx(900.0), 900.0)


def test_a_quick_bot_that_raises_crashes_and_a_bad_index_is_illegal():
    def boom():
        raise RuntimeError("boom")

    # One line naming the bot, its role and its file:line (as the module is found on sys.path).
    (fault,) = _ask_seat(_Local(boom))
    kind, detail = fault.kind, fault.detail
    assert kind == CRASH
    assert detail.startswith("bot 'quick' (p1) raised RuntimeError: boom at ")
    assert detail.endswith(f"test_quick_bots.py:{boom.__code__.co_firstlineno + 1}")
    assert _ask_seat(_Local(lambda: 2)) == [SeatFault(ILLEGAL, "answered 2; options are 0..1", 0.0)]
    assert _ask_seat(_Local(lambda: "0")) == [SeatFault(ILLEGAL, "answered '0'; options are 0..1", 0.0)]


def test_quick_asks_let_other_tasks_run_once_a_slice_is_used_up():
    """25 asks of a tenth of a slice each: the first opens a slice (yields), then about one in
    ten yields; never none (a match of quick bots would hold the loop), never every one."""
    seat = LocalSeat("p1", "quick", _Local(lambda: CLOCK.jump(INLINE_SLICE_S / 10) or 0))
    match = SimpleNamespace(driver=SimpleNamespace(state=None))
    yields = []

    async def main() -> None:
        for _ in range(25):
            try:
                with trio.testing.assert_no_checkpoints():
                    await seat.ask(match, _ask())
                yields.append(False)
            except AssertionError:
                yields.append(True)

    trio.run(main, clock=CLOCK)
    assert yields[0] and sum(yields) == 3, yields
    runs = "".join("y" if y else "." for y in yields).split("y")
    assert max(len(run) for run in runs) <= 10, yields


def _registry(**bots) -> object:
    registry = load_registry(entry_points=False)
    for name, cls in bots.items():
        registry.bots[name] = BotSpec.from_class(cls, trusted=True)
    return registry


def test_a_quick_bot_in_a_referee_match_plays_on_the_server_thread_with_the_same_moves(tmp_path):
    threads: dict[str, set[int]] = {"quick": set(), "threaded": set()}

    class Quick(RandomBot):
        name = "quick-random"

        def choose(self, decision, view):
            threads["quick"].add(threading.get_ident())
            return super().choose(decision, view)

    class Threaded(Quick):
        name = "threaded-random"
        quick = False

        def choose(self, decision, view):
            threads["threaded"].add(threading.get_ident())
            return RandomBot.choose(self, decision, view)

    srv = ServerThread(tmp_path, registry=_registry(**{"quick-random": Quick, "threaded-random": Threaded})).start()
    try:
        moves = {}
        for name in ("quick-random", "threaded-random"):
            response = srv.start_match([name, "random"], seed=11, wait=True)
            assert not response.summary.result.faults  # played through, no fault
            record = parse_record(srv.record(response.match_id).splitlines())
            moves[name] = [(m["role"], m["key"]) for m in record.moves]
    finally:
        srv.stop()
    assert threads["quick"] == {srv.thread.ident}  # the referee's loop thread, where trio runs
    assert srv.thread.ident not in threads["threaded"]
    assert moves["quick-random"] == moves["threaded-random"] and len(moves["quick-random"]) > 20


def test_a_quick_bot_that_runs_late_in_a_match_forfeits_on_time_as_a_threaded_one_does(tmp_path):
    import time

    class LateQuick(Bot):
        name = "late-quick"
        quick = True  # says so, but is not

        def choose(self, decision, view):
            time.sleep(0.3)
            return 0

    class LateThreaded(LateQuick):
        name = "late-threaded"
        quick = False

    srv = ServerThread(tmp_path, registry=_registry(**{"late-quick": LateQuick, "late-threaded": LateThreaded})).start()
    try:
        results = {}
        for name in ("late-quick", "late-threaded"):
            tc = pb.TimeControl(bank_ms=100, increment_ms=0)
            request = dict(seed=3, wait=True, time_control=tc)
            response = srv.start_match([name, "random"], **request)
            result = response.summary.result
            results[name] = (result.termination, sorted((f.role, f.kind, f.count) for f in result.faults))
    finally:
        srv.stop()
    assert results["late-quick"] == results["late-threaded"] == ("forfeit", [("p1", "timeout", 1)])
