"""The match driver (server/match.py): one place for chance, record lines, clocks and "what happens
after this fault", used by play_match and the referee alike."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from standoff.bots.random_bot import RandomBot
from standoff.server.core.flow import SETTLE_BUDGET, StackGame, StackState, Step
from standoff.server.core.game import Decision, Option, Outcome
from standoff.server.faults import DISCONNECT, FORFEIT, ILLEGAL, RANDOM, RETRY, TIMEOUT, TimeControl
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.match import FORFEITED, RETRIED, SUBSTITUTED, MatchDriver


class Rules(NamedTuple):
    ruleset: str = "default"
    options: dict = {}
    roles: tuple = ("p1", "p2")


class Pick(Step):
    """p1 picks one of three letters; the letter's index decides the winner. ``fallback_index``
    names a rules default (like Schotten Totten's Mud discard)."""

    name = "pick"

    def run(self, game, state, frame):
        options = tuple(Option(f"letter:{c}", c, i) for i, c in enumerate("abc"))
        return Decision("p1", "pick", "pick a letter", options)

    def choose(self, game, state, frame, option):
        state.stack.pop()
        winner = "p1" if option.value == 2 else "p2"
        state.outcome = Outcome.win(state.rules.roles, winner, "letter", f"picked {option.label}")


class Forever(Step):
    """A bug: an automatic step that pushes itself again, never asking anything."""

    name = "forever"

    def run(self, game, state, frame):
        state.stack.append(("forever",))
        return None


class Tiny(StackGame):
    name = "tiny"
    rules_version = "1"
    rulesets = ("default",)
    steps = {"pick": Pick(), "forever": Forever()}

    def __init__(self, first: str = "pick") -> None:
        self.first = first

    def rules(self, ruleset=None, options=None):
        return Rules()

    def new_state(self, rules):
        state = StackState(rules)
        state.stack.append((self.first,))
        return state

    def view(self, state, role, history_from=0):
        return {"history": []}

    def fallback_index(self, state: Any) -> int | None:
        return 2


def driver(policy, retries=0, game=None) -> tuple[MatchDriver, list]:
    lines: list = []
    game = game or Tiny()
    d = MatchDriver(game, game.rules(), 1, {"p1": "a", "p2": "b"}, policy=policy, retries=retries,
                    time_control=TimeControl(bank_ms=1000, increment_ms=100), on_line=lines.append)
    return d, lines


def test_a_timeout_at_a_step_with_a_rules_default_plays_the_default_whatever_the_policy():
    d, lines = driver(FORFEIT)
    ask = d.next_ask()
    assert d.fault(ask, TIMEOUT, "no answer", 1500.0) == SUBSTITUTED
    assert d.next_ask() is None and d.outcome.winner == "p1"  # the default, index 2, won
    assert lines[-1] == {"type": "decision", "n": 1, "role": "p1", "step": "pick", "key": "letter:c",
                         "fault": "timeout", "substituted": True}
    assert d.faults == {"p1": {"timeout": 1}} and d.banks["p1"] == 1000 - 1500 + 100


def test_other_faults_follow_the_policy():
    d, _ = driver(FORFEIT)
    assert d.fault(d.next_ask(), ILLEGAL, "index 9") == FORFEITED
    assert d.outcome.termination == "forfeit" and d.outcome.winner == "p2" and d.next_ask() is None
    d, lines = driver(RANDOM)
    assert d.fault(d.next_ask(), ILLEGAL, "index 9") == SUBSTITUTED and lines[-1]["substituted"]
    again, lines_again = driver(RANDOM)
    again.fault(again.next_ask(), ILLEGAL, "index 9")
    assert lines_again[-1]["key"] == lines[-1]["key"]  # the substitute comes from the match seed


def test_retry_asks_again_until_retries_are_used_up_but_never_after_a_disconnect():
    d, _ = driver(RETRY, retries=2)
    ask = d.next_ask()
    assert d.fault(ask, ILLEGAL, "x") == RETRIED
    ask = d.retry(ask)
    assert (ask.attempt, ask.number) == (1, 1)
    assert d.fault(ask, ILLEGAL, "x") == RETRIED
    assert d.fault(d.retry(ask), ILLEGAL, "x") == FORFEITED
    assert d.faults == {"p1": {"illegal_choice": 3}}
    d, _ = driver(RETRY, retries=5)
    assert d.fault(d.next_ask(), DISCONNECT, "gone") == FORFEITED


def test_an_engine_step_that_never_asks_is_an_error_not_a_hang():
    game = Tiny("forever")
    bots = {"p1": RandomBot(1), "p2": RandomBot(2)}
    result = play_match(game, game.rules(), bots, 3)
    assert result.outcome.termination == "error" and "EngineStall" in result.outcome.reason
    assert str(SETTLE_BUDGET) in result.outcome.reason


def test_the_same_seed_gives_the_same_record_with_either_shell():
    """play_match (sync) and the driver stepped by hand give the same record lines."""
    game = get_game("schotten-totten")
    rules = game.rules()
    first = play_match(game, rules, {"p1": RandomBot(1), "p2": RandomBot(2)}, 77, timing=False).record
    d = MatchDriver(game, rules, 77, {"p1": "random", "p2": "random"})
    bots = {"p1": RandomBot(1), "p2": RandomBot(2)}
    for role, bot in bots.items():
        from standoff.sdk.types import decode_match_started

        bot.start(decode_match_started(d.started_message(role).match_started))
    from standoff.server.seats import InProcessSeat

    seats = {role: InProcessSeat(bot, game, "") for role, bot in bots.items()}
    while (ask := d.next_ask()) is not None:
        d.answer(ask, seats[ask.role].ask(d.state, ask.decision, ask.number, {}))
    d.finish()
    assert [m["key"] for m in d.record.moves] == [m["key"] for m in first.moves]
    assert d.record.footer == first.footer


def test_finish_writes_the_outcome_line_once_and_a_match_never_begun_gets_its_header_too():
    d, lines = driver(FORFEIT)
    d.end_without_result("not_played", "never connected: remote:x")
    d.finish()
    d.finish()
    assert [line["type"] for line in lines] == ["header", "outcome"]
    assert lines[-1]["termination"] == "not_played" and lines[-1]["scores"] == {"p1": 0.0, "p2": 0.0}
    with pytest.raises(AssertionError):
        MatchDriver(Tiny(), Rules(), 1, {"p1": "a", "p2": "b"}).finish()


def test_on_the_server_a_stuck_engine_ends_its_match_as_error_and_the_others_play_on(tmp_path):
    from kits.server import ServerThread

    from standoff.server.plugins import load_registry

    class Stuck(Tiny):
        name = "stuck"

    registry = load_registry(entry_points=False)
    registry.games["stuck"] = Stuck("forever")
    server = ServerThread(tmp_path, registry=registry).start()
    try:
        stuck = server.start_match(["random", "random"], game="stuck")
        normal = server.start_match(["greedy", "random"], wait=True)
        ended = server.wait_finished(stuck.match_id)
    finally:
        server.stop()
    assert ended.result.termination == "error" and "EngineStall" in ended.result.reason
    assert normal.summary.result.termination in ("breakthrough", "envelopment", "stalemate")
