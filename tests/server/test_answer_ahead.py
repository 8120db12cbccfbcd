"""No answer before its question (docs/protocol.md): a remote bot that answers a decision id it
was not sent yet (guessing the next id, to be charged nothing when the decision comes) is refused
on arrival as stale; when that decision is sent, it waits for a real answer. Driven through the
referee's own answer path (``Referee._choice``) and a seat's ask, on trio's virtual clock."""

from __future__ import annotations

from types import MethodType, SimpleNamespace

import trio
import trio.testing

from standoff.server import seats as seats_module
from standoff.server.faults import FORFEIT, RANDOM, STALE
from standoff.server.match import MatchDriver
from standoff.server.referee import Referee
from standoff.server.seats import RemoteSeat
from standoff.v1 import referee_pb2 as pb


class _Driver:
    def __init__(self) -> None:
        self.answers: list[int] = []
        self.counted: list[tuple[str, str]] = []
        self.faults: list[str] = []
        self.state = None

    def answer(self, ask, index, elapsed_ms, timing) -> None:
        self.answers.append(index)

    def count(self, role, kind) -> None:
        self.counted.append((role, kind))

    def fault(self, ask, kind, detail, elapsed_ms, counted=True):
        self.faults.append(kind)

    settle = MatchDriver.settle  # the real dispatch, onto the stand-ins above


class _Session:
    def __init__(self) -> None:
        self.errors: list[tuple[int, str, int]] = []
        self.on_send = lambda: None
        self.inbox = SimpleNamespace(arrived=0.0)

    def send(self, message) -> None:
        self.on_send()

    def error(self, code, message, match_id="", decision_id=0) -> None:
        self.errors.append((code, message, decision_id))


def _table(policy: int):
    seat = RemoteSeat("p1", "remote:alice", "alice")
    session = seat.session = _Session()
    match = SimpleNamespace(id="m1", status=pb.MATCH_STATUS_RUNNING, seats={"p1": seat}, driver=_Driver(),
                            game=None, grace_s=1.0, policy=policy, remote_seats=lambda: [seat])
    referee = SimpleNamespace(matches={"m1": match})
    referee._notify = MethodType(Referee._notify, referee)

    def choice(decision_id: int, index: int) -> None:
        Referee._choice(referee, session, pb.Choice(match_id="m1", decision_id=decision_id, option_index=index))

    return seat, session, match, choice


def _ask(number: int) -> SimpleNamespace:
    decision = SimpleNamespace(role="p1", step="s", prompt="", options=("a", "b"))
    return SimpleNamespace(role="p1", number=number, decision=decision, allowance_ms=60_000, clocks={}, attempt=0)


def test_an_answer_before_its_decision_is_refused_and_the_decision_waits_for_a_real_one(monkeypatch):
    monkeypatch.setattr(seats_module, "decision_bytes", lambda *args: (b"decision", None))
    seat, session, match, choice = _table(RANDOM)

    async def main() -> None:
        choice(1, 1)  # the guess: decision 1 was not sent yet
        assert session.errors == [(pb.ERROR_CODE_STALE_DECISION, "decision id 1 was not sent yet", 1)]
        session.on_send = lambda: choice(1, 0)  # the real answer, once the decision is there
        await Referee._ask(None, match, _ask(1))

    trio.run(main, clock=trio.testing.MockClock())
    assert match.driver.answers == [0]  # the real answer, not the guess
    assert match.driver.counted == [("p1", STALE)]


def test_an_answer_ahead_forfeits_under_forfeit(monkeypatch):
    monkeypatch.setattr(seats_module, "decision_bytes", lambda *args: (b"decision", None))
    seat, session, match, choice = _table(FORFEIT)

    async def main() -> None:
        choice(1, 0)
        session.on_send = lambda: choice(1, 0)
        await Referee._ask(None, match, _ask(1))

    trio.run(main, clock=trio.testing.MockClock())
    assert match.driver.faults == [STALE] and match.driver.answers == []


def test_a_decision_already_sent_is_not_ahead(monkeypatch):
    """An answer to the decision sent (and, after a reconnect, re-sent) is taken; one to the
    decision after it is not, even while the seat is between decisions."""
    monkeypatch.setattr(seats_module, "decision_bytes", lambda *args: (b"decision", None))
    seat, session, match, choice = _table(RANDOM)

    async def main() -> None:
        session.on_send = lambda: choice(4, 1)
        await Referee._ask(None, match, _ask(4))
        assert seat.last_sent == 4
        choice(5, 1)  # between decisions: 5 was not sent
        session.on_send = lambda: choice(5, 0)
        await Referee._ask(None, match, _ask(5))

    trio.run(main, clock=trio.testing.MockClock())
    assert match.driver.answers == [1, 0]
    assert [e[1] for e in session.errors] == ["decision id 5 was not sent yet"]
