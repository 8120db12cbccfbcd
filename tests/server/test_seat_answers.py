"""One result type between a seat and the match driver (server/answers.py): whichever shell asks
an in-process bot (the referee's LocalSeat in trio, a match host's thread pool, play_match with
SIGALRM), the driver is handed a SeatAnswer or a SeatFault, settled the same way; and
:func:`ask_in_process`, the one synchronous asker, settles what a bot did. Its clock is faked
here: no timed assertion."""

from __future__ import annotations

import pickle
from types import SimpleNamespace

import pytest
import trio
import trio.testing

from standoff.sdk.bot import Bot
from standoff.server import answers
from standoff.server.answers import DecisionTimeout, SeatAnswer, SeatFault, ask_in_process
from standoff.server.faults import CRASH, FORFEIT, ILLEGAL, TIMEOUT, TimeControl
from standoff.server.games import get_game
from standoff.server.hosting import MatchHost, host_job
from standoff.server.local import play_match
from standoff.server.match import ANSWERED, FORFEITED, MatchDriver
from standoff.server.plugins import BotSpec, load_registry
from standoff.server.seats import InProcessSeat, LocalSeat


class _Clock:
    """``time.perf_counter`` stand-in: each reading is ``step_s`` later than the one before."""

    def __init__(self, step_s: float) -> None:
        self.now, self.step_s = 0.0, step_s

    def perf_counter(self) -> float:
        self.now += self.step_s
        return self.now


class _Seat:
    """An InProcessSeat stand-in: ``answer`` runs ``choose``."""

    def __init__(self, choose) -> None:
        self.choose = choose

    def prepare(self, state, decision, number, clocks):
        return "prepared"

    def answer(self, prepared, ticket=None):
        return self.choose()


def _ask(allowance_ms: int = 1_000) -> SimpleNamespace:
    decision = SimpleNamespace(role="p1", step="s", prompt="", options=("a", "b"))
    return SimpleNamespace(role="p1", number=1, decision=decision, allowance_ms=allowance_ms, clocks={}, attempt=0)


def _direct(answer, prepared, ask):
    return answer(prepared)


def _asked(monkeypatch, choose, *, step_s=0.005, call=_direct, late=False):
    monkeypatch.setattr(answers, "time", _Clock(step_s))
    return ask_in_process(_Seat(choose), None, _ask(), call, lambda exc: f"crashed: {exc}", late=late)


def test_an_answer_is_timed_around_the_call_and_checked(monkeypatch):
    assert _asked(monkeypatch, lambda: 1) == SeatAnswer(1, 5.0, {"think_ms": 5.0})
    assert _asked(monkeypatch, lambda: 7) == SeatFault(ILLEGAL, "answered 7; options are 0..1", 5.0)
    assert _asked(monkeypatch, lambda: True) == SeatFault(ILLEGAL, "answered True; options are 0..1", 5.0)


def test_a_crash_a_timeout_and_a_late_answer_are_faults_charged_their_time(monkeypatch):
    def boom():
        raise ValueError("boom")

    def expired(answer, prepared, ask):
        raise DecisionTimeout()

    assert _asked(monkeypatch, boom) == SeatFault(CRASH, "crashed: boom", 5.0)
    assert _asked(monkeypatch, lambda: 1, call=expired) == SeatFault(TIMEOUT, "no answer within 1000 ms", 5.0)
    late = SeatFault(TIMEOUT, "answered after 1500 ms; the limit was 1000 ms", 1500.0)
    assert _asked(monkeypatch, lambda: 1, step_s=1.5, late=True) == late
    # Not late-checked (a call that interrupts the bot itself): the answer stands.
    assert _asked(monkeypatch, lambda: 1, step_s=1.5) == SeatAnswer(1, 1500.0, {"think_ms": 1500.0})


def test_results_cross_a_process_boundary_unchanged():
    """A match host gets the front's result pickled (a worker's pipe, Ray)."""
    for result in (SeatAnswer(1, 2.5, {"elapsed_ms": 2.5}), SeatFault("disconnect", "gone", 3.0, False)):
        assert pickle.loads(pickle.dumps(result, pickle.HIGHEST_PROTOCOL)) == result


def test_the_driver_settles_an_answer_and_a_fault_as_answer_and_fault_do():
    game = get_game("schotten-totten")
    lines: list = []
    driver = MatchDriver(game, game.rules(), 5, {"p1": "a", "p2": "b"}, policy=FORFEIT,
                         time_control=TimeControl(bank_ms=1_000, increment_ms=0), on_line=lines.append)
    ask = driver.next_ask()
    assert driver.settle(ask, SeatAnswer(0, 250.0, {"think_ms": 1.5})) == ANSWERED
    assert lines[-1]["think_ms"] == 1.5 and driver.banks[ask.role] == 750
    ask = driver.next_ask()
    bank = driver.banks[ask.role]
    assert driver.settle(ask, SeatFault(ILLEGAL, "answered 9", 100.0, counted=False)) == FORFEITED
    assert driver.faults == {} and driver.banks[ask.role] == bank - 100
    assert driver.outcome.termination == "forfeit" and driver.outcome.reason.endswith("forfeits: answered 9")


class _Answers(Bot):
    """A trusted bot answering ``ANSWER`` at every decision."""

    name = "answers"
    ANSWER: object = 99

    def choose(self, decision, view):
        return self.ANSWER


def _every_shell(answer: object) -> dict[str, object]:
    """What each shell's in-process asking makes of a bot answering ``answer`` at its first
    decision: the referee's LocalSeat (in a worker thread, and inline), a match host's and
    play_match's (the forfeit line: policy forfeit)."""
    game = get_game("schotten-totten")
    bot = type("Bot", (_Answers,), {"ANSWER": answer})
    results: dict[str, object] = {}
    for quick in (False, True):
        driver = MatchDriver(game, game.rules(), 3, {"p1": "answers", "p2": "answers"}, policy=FORFEIT)
        ask = driver.next_ask()
        local = InProcessSeat(bot(1), game, "m1")
        local.quick = quick
        seat = LocalSeat(ask.role, "answers", local)

        async def main(seat=seat, ask=ask, driver=driver) -> None:
            results["inline" if quick else "thread"] = await seat.ask(SimpleNamespace(driver=driver), ask)

        trio.run(main, clock=trio.testing.MockClock())
    registry = load_registry(entry_points=False)
    registry.bots["answers"] = BotSpec.from_class(bot, trusted=True)
    job = host_job("m1", "schotten-totten", "", {}, 3, {"p1": "answers", "p2": "answers"}, [], TimeControl(),
                   FORFEIT, 0, None)
    host = MatchHost(job, registry)
    try:
        results["host"] = host._ask_local(host.driver.next_ask())
    finally:
        host.stop()
    played = play_match(game, game.rules(), {"p1": bot(1), "p2": bot(2)}, 3, policy=FORFEIT)
    results["play_match"] = played.outcome.reason
    return results


@pytest.mark.parametrize("answer", [99, "0", None])
def test_every_shell_settles_a_bad_answer_to_the_same_fault(answer):
    results = _every_shell(answer)
    detail = results["thread"].detail
    assert detail.startswith(f"answered {answer!r}; options are 0..")
    assert {(r.kind, r.detail) for r in (results["thread"], results["inline"], results["host"])} == {(ILLEGAL, detail)}
    assert results["play_match"].endswith(f"forfeits: {detail}")


def test_every_shell_settles_a_good_answer_to_an_answer_with_the_bots_think_time():
    results = _every_shell(0)
    for shell in ("thread", "inline", "host"):
        assert type(results[shell]) is SeatAnswer and results[shell].index == 0
        assert set(results[shell].timing) == {"elapsed_ms", "think_ms"}
    assert "forfeits" not in results["play_match"]


class _Raises(Bot):
    """A trusted bot whose choose raises."""

    name = "raises"

    def choose(self, decision, view):
        raise ValueError("boom")


def test_a_crash_in_a_match_host_is_named_as_everywhere_else():
    """A built-in bot that raises in a hosted match (split referee) is a crash whose detail names
    the bot, the match and the bot's own file:line, as in the referee and play_match."""
    registry = load_registry(entry_points=False)
    registry.bots["raises"] = BotSpec.from_class(_Raises, trusted=True)
    job = host_job("m1", "schotten-totten", "", {}, 3, {"p1": "raises", "p2": "raises"}, [], TimeControl(),
                   FORFEIT, 0, None)
    host = MatchHost(job, registry)
    try:
        ask = host.driver.next_ask()
        result = host._ask_local(ask)
    finally:
        host.stop()
    assert result.kind == "crash"
    assert result.detail.startswith(f"bot 'raises' (match m1, {ask.role}) raised ValueError: boom at "), result.detail
    assert "test_seat_answers.py:" in result.detail
