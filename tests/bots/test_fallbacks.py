"""Built-in bots never fail silently: a fallback taken after an internal error is counted
(``Bot.fallbacks``, per match), logged once at warning level with the match id, and carried into
the tournament's result line and report; a tournament without fallbacks writes the same result
lines as before they were counted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import flaky_bots
import pytest
from structlog.testing import capture_logs

from standoff.bots.greedy import GreedyBot
from standoff.bots.ismcts import IsmctsBot
from standoff.bots.probability import ProbabilityBot
from standoff.bots.random_bot import RandomBot
from standoff.bots.ts_heuristic import TSHeuristicBot
from standoff.bots.ts_search import TSSearchBot
from standoff.sdk.bot import Bot
from standoff.sdk.types import Decision, Option
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.plugins import load_registry
from standoff.tournaments.config import load_config
from standoff.tournaments.model import Result
from standoff.tournaments.report import compute_ratings, format_report
from standoff.tournaments.runner import run_tournament
from standoff.tournaments.worker import run_job

HERE = Path(__file__).resolve().parent
ST = get_game("schotten-totten")
TS = get_game("twilight-struggle")
TS_RULES = TS.rules(None, {"end_turn": "3"})


@pytest.fixture(autouse=True)
def not_strict(monkeypatch):
    """In play (not strict) the bots fall back instead of raising: what is tested here."""
    for cls in (GreedyBot, TSHeuristicBot, TSSearchBot, IsmctsBot):
        monkeypatch.setattr(cls, "strict", False)


def fallback_logs(logs):
    return [e for e in logs if e["event"] == "bot fell back after an internal error"]


def fail_once(monkeypatch, cls, method, error=RuntimeError("model exploded"), when=None):
    """Make ``cls.method`` raise ``error`` at its first call for which ``when(args)`` holds
    (every call: None); later calls run the real method. Returns the list of calls made."""
    real = getattr(cls, method)
    state = {"raised": 0}

    def patched(self, *args, **kwargs):
        if not state["raised"] and (when is None or when(args)):
            state["raised"] += 1
            raise error
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cls, method, patched)
    return state


# -- the SDK helper ----------------------------------------------------------------------------


def test_count_fallback_counts_and_logs_the_bot_match_step_and_error():
    bot = Bot(1)
    decision = Decision("m-7", 3, "p1", "play", "", (Option("pass", "pass"),))
    with capture_logs() as logs:
        bot.count_fallback(KeyError("flag"), decision)
    assert bot.fallbacks == 1
    (entry,) = fallback_logs(logs)
    assert entry["log_level"] == "warning"
    assert (entry["bot"], entry["match"], entry["step"]) == ("bot", "m-7", "play")
    assert (entry["error_type"], entry["error"]) == ("KeyError", "'flag'")


def test_a_helper_counts_on_the_bot_that_adopted_it_and_start_resets_the_count():
    outer, helper = Bot(1), Bot(2)
    outer.name, helper.name = "outer", "helper"
    outer.adopt(helper)
    with capture_logs() as logs:
        helper.count_fallback("no answer", object(), context="search")
    assert (outer.fallbacks, helper.fallbacks) == (1, 0)
    (entry,) = fallback_logs(logs)
    assert (entry["bot"], entry["helper"], entry["context"], entry["error_type"]) == (
        "outer", "helper", "search", "NoAnswer")
    from standoff.sdk.types import MatchInfo

    outer.start(MatchInfo("m-8", "g", "", "", {}, "p1", {}, 5))
    assert outer.fallbacks == 0 and outer.fallback_match == "m-8"


# -- each built-in bot that falls back ---------------------------------------------------------


def test_greedy_counts_one_fallback_when_its_evaluation_raises(monkeypatch):
    raised = fail_once(monkeypatch, GreedyBot, "_evaluate_card")
    bots = {"p1": GreedyBot(1), "p2": RandomBot(2)}
    with capture_logs() as logs:
        result = play_match(ST, ST.rules(), bots, 11, match_id="fb-greedy")
    assert raised["raised"] == 1 and result.outcome.termination != "error"
    assert bots["p1"].fallbacks == 1
    (entry,) = fallback_logs(logs)
    assert (entry["bot"], entry["match"], entry["step"]) == ("greedy", "fb-greedy", "play")
    assert (entry["error_type"], entry["error"]) == ("RuntimeError", "model exploded")


def test_greedy_counts_a_handler_that_finds_no_answer(monkeypatch):
    monkeypatch.setattr(GreedyBot, "_step_place", lambda self, pos, keys, plan: None)
    bot = GreedyBot(1)
    with capture_logs() as logs:
        play_match(ST, ST.rules(), {"p1": bot, "p2": RandomBot(2)}, 12, match_id="fb-none")
    assert bot.fallbacks >= 1
    assert len(fallback_logs(logs)) == bot.fallbacks
    assert {(e["error_type"], e["step"], e["match"]) for e in fallback_logs(logs)} == {("NoAnswer", "place", "fb-none")}


def test_a_match_without_errors_has_no_fallback():
    bots = {"p1": GreedyBot(1), "p2": ProbabilityBot(2)}
    with capture_logs() as logs:
        play_match(ST, ST.rules(), bots, 13, match_id="fb-clean")
    assert bots["p1"].fallbacks == bots["p2"].fallbacks == 0 and not fallback_logs(logs)


def test_ts_heuristic_counts_one_fallback_when_its_evaluation_raises(monkeypatch):
    raised = fail_once(monkeypatch, TSHeuristicBot, "_choose", when=lambda args: args[1].step == "action_round")
    bots = {"ussr": TSHeuristicBot(1), "us": RandomBot(2)}
    with capture_logs() as logs:
        result = play_match(TS, TS_RULES, bots, 21, match_id="fb-ts")
    assert raised["raised"] == 1 and result.outcome.termination != "error"
    assert bots["ussr"].fallbacks == 1
    (entry,) = fallback_logs(logs)
    assert (entry["bot"], entry["match"], entry["step"], entry["error_type"]) == (
        "ts-heuristic", "fb-ts", "action_round", "RuntimeError")


def test_ts_search_counts_one_fallback_when_its_search_raises(monkeypatch):
    calls = {"n": 0}

    def search(self, decision, view, base):
        calls["n"] += 1
        if calls["n"] == 1:
            raise ValueError("search exploded")
        return base  # no rollouts: the test is about the count, not the search

    monkeypatch.setattr(TSSearchBot, "_search", search)
    bot = TSSearchBot(1, iterations=4)
    with capture_logs() as logs:
        play_match(TS, TS_RULES, {"ussr": RandomBot(2), "us": bot}, 22, match_id="fb-tss")
    assert calls["n"] > 1 and bot.fallbacks == 1
    (entry,) = fallback_logs(logs)
    assert (entry["bot"], entry["match"], entry["error_type"]) == ("ts-search", "fb-tss", "ValueError")
    assert entry["step"] in ("headline", "action_round")


def test_ts_search_counts_its_heuristics_fallbacks_in_play_and_in_rollouts(monkeypatch):
    fail_once(monkeypatch, TSHeuristicBot, "_choose", when=lambda args: args[1].step == "action_round")
    monkeypatch.setattr(TSSearchBot, "_search", lambda self, decision, view, base: base)
    bot = TSSearchBot(1, iterations=4)
    with capture_logs() as logs:
        play_match(TS, TS_RULES, {"ussr": bot, "us": RandomBot(2)}, 23, match_id="fb-tss2")
    assert bot.fallbacks == 1 and bot.heuristic.fallbacks == 0
    (entry,) = fallback_logs(logs)
    assert (entry["bot"], entry["helper"], entry["match"]) == ("ts-search", "ts-heuristic", "fb-tss2")
    # A rollout's heuristic counts on ts-search too, marked as taken in the search.
    rollout = bot._rollout_bot(5)
    with capture_logs() as logs:
        rollout.count_fallback(RuntimeError("in a rollout"), object())
    assert bot.fallbacks == 2
    (entry,) = fallback_logs(logs)
    assert (entry["bot"], entry["context"], entry["match"]) == ("ts-search", "search", "fb-tss2")


def test_ismcts_counts_one_fallback_when_its_search_raises_and_its_helpers_too(monkeypatch):
    real_search = IsmctsBot._search
    calls = {"n": 0}

    def search(self, belief, keys):
        calls["n"] += 1
        if calls["n"] == 1:
            raise ValueError("search exploded")
        return 0 if calls["n"] > 3 else real_search(self, belief, keys)

    monkeypatch.setattr(IsmctsBot, "_search", search)
    fail_once(monkeypatch, ProbabilityBot, "_draw")  # its helper (draws), inside greedy's choose
    bot = IsmctsBot(1, iterations=10)
    with capture_logs() as logs:
        result = play_match(ST, ST.rules(), {"p1": bot, "p2": RandomBot(2)}, 31, match_id="fb-ismcts")
    assert result.outcome.termination != "error"
    assert bot.fallbacks == 2 and bot.fallback.fallbacks == 0
    # Its first play (searched) comes before its first draw (the helper's).
    assert [(e["bot"], e["match"], e.get("helper"), e["step"], e["error_type"]) for e in fallback_logs(logs)] == [
        ("ismcts", "fb-ismcts", None, "play", "ValueError"),
        ("ismcts", "fb-ismcts", "probability", "draw", "RuntimeError"),
    ]


# -- into results and reports ------------------------------------------------------------------


def job(seats, *, match_games=None):
    return {
        "spec": {"index": 0, "match_id": "r01-000000", "round": 1, "seats": list(seats), "seed": 77,
                 "pair": None, "leg": 0},
        "game": "schotten-totten", "ruleset": None, "options": {}, "time_control": {},
        "policy": "forfeit", "retries": 0, "match_games": match_games, "target_score": None,
    }


def test_the_result_line_carries_fallbacks_per_role_summed_over_the_games(tmp_path):
    registry = load_registry(entry_points=False, extra_plugins=[flaky_bots])
    result = run_job({**job(["random", "flaky-greedy"]), "records_dir": str(tmp_path)}, registry)
    assert result.fallbacks == {"p2": 1}
    line = result.to_json()
    assert line["fallbacks"] == {"p2": 1} and Result.from_json(line).fallbacks == {"p2": 1}
    series = run_job({**job(["flaky-greedy", "random"], match_games=3), "records_dir": str(tmp_path)}, registry)
    assert series.termination == "series" and series.fallbacks == {"p1": 3}


def test_a_result_without_fallbacks_has_no_fallbacks_key(tmp_path):
    registry = load_registry(entry_points=False)
    result = run_job({**job(["greedy", "random"]), "records_dir": str(tmp_path)}, registry)
    assert result.fallbacks == {} and "fallbacks" not in result.to_json()


def write_config(folder: Path, name: str, entrants, games: int) -> Path:
    path = folder / f"{name}.toml"
    path.write_text("\n".join([
        f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"',
        f"entrants = {json.dumps(entrants)}", f"games_per_pairing = {games}", "master_seed = 5",
        "workers = 2", "concurrency = 2",
    ]) + "\n")
    return path


#: The keys of a result line before fallbacks were counted (``prev``: the ledger's chain).
LINE_KEYS = {"index", "match_id", "round", "seed", "pair", "leg", "seats", "played", "winner", "winner_role",
             "scores", "termination", "reason", "faults", "records", "prev"}


def test_a_tournament_reports_fallbacks_per_bot(tmp_path, monkeypatch):
    monkeypatch.setenv("STANDOFF_PLUGINS", "flaky_bots")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    registry = load_registry(entry_points=False)
    summary = run_tournament(load_config(write_config(tmp_path, "flaky", ["flaky-greedy", "random"], 4),
                                         registry=registry), registry=registry)
    assert summary.complete and len(summary.results) == 4
    lines = [json.loads(x) for x in (summary.run_dir / "results.jsonl").read_text().splitlines()]
    for line in lines:
        role = next(r for r, name in line["seats"].items() if name == "flaky-greedy")
        assert line["fallbacks"] == {role: 1}
        assert set(line) == LINE_KEYS | {"fallbacks"}
    ratings = json.loads((summary.run_dir / "ratings.json").read_text())
    assert ratings["fallbacks"] == {"flaky-greedy": 4, "random": 0}
    text = format_report(ratings)
    assert "Fallbacks after a bot's internal error (in-process bots)\n  flaky-greedy: 4" in text


def test_a_tournament_without_fallbacks_writes_the_lines_it_wrote_before(tmp_path):
    summary = run_tournament(load_config(write_config(tmp_path, "clean", ["greedy", "random"], 4)))
    text = (summary.run_dir / "results.jsonl").read_text()
    assert "fallbacks" not in text
    assert all(set(json.loads(x)) == LINE_KEYS for x in text.splitlines())
    ratings = json.loads((summary.run_dir / "ratings.json").read_text())
    assert ratings["fallbacks"] == {"greedy": 0, "random": 0}
    assert "Fallbacks after a bot's internal error: none (in-process bots)" in format_report(ratings)
    assert compute_ratings(summary.results, entrants=["greedy", "random"])["fallbacks"] == ratings["fallbacks"]
