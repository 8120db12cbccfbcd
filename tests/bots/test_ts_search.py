"""The ``ts-search`` Twilight Struggle bot (determinized search over ts-heuristic's candidates):
budgets, legal answers from wire-decoded views, no cheating (the same view gets the same answer
when the hidden cards are re-dealt; its samples come from the view only), determinism given its
seed, and the fallback to the heuristic's answer when the search fails."""

from __future__ import annotations

import random

import pytest
from kits import bots as botkit

from standoff.bots import BUILTIN_BOTS
from standoff.bots import ts_search as ts_search_module
from standoff.bots.ts_heuristic import TSHeuristicBot
from standoff.bots.ts_search import ENV_ITERATIONS, TSSearchBot
from standoff.sdk.simulate import Belief
from standoff.sdk.types import MatchInfo
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import chance_rng, play_match, sample_chance

GAME = get_game("twilight-struggle")
OPTIONS = {"end_turn": "4"}
RULES = GAME.rules(None, OPTIONS)
SEARCHED = ("action_round", "headline")


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    monkeypatch.setattr(TSSearchBot, "strict", True)
    monkeypatch.setattr(TSHeuristicBot, "strict", True)
    monkeypatch.delenv(ENV_ITERATIONS, raising=False)


def wire(decision, view):
    """The decision and view as a bot receives them: encoded to bytes and decoded again."""
    return botkit.wire(GAME, decision, view)


def make(seed: int, role: str, **kwargs) -> TSSearchBot:
    bot = TSSearchBot(seed, **kwargs)
    bot.start(MatchInfo(match_id="m", game=GAME.name, rules_version="", ruleset=RULES.ruleset,
                        options=dict(RULES.options), role=role, seats={r: "bot" for r in RULES.roles}, seed=seed))
    return bot


def positions(seed: int, count: int, steps=SEARCHED):
    """``count`` states of a seeded random game at players' decisions of ``steps`` with a choice."""
    rng, chance = random.Random(seed), chance_rng(seed)
    state = GAME.new_state(RULES)
    found = 0
    while found < count and (d := GAME.decision(state)) is not None:
        if d.role != CHANCE and d.step in steps and len(d.options) > 1 and rng.random() < 0.3:
            yield state.copy(), d
            found += 1
        index = sample_chance(chance, d) if d.role == CHANCE else rng.randrange(len(d.options))
        GAME.apply(state, d.options[index])


def test_registered_and_budgets(monkeypatch):
    assert BUILTIN_BOTS["ts-search"] is TSSearchBot
    assert TSSearchBot.name == "ts-search" and TSSearchBot.games == ("twilight-struggle",)
    assert TSSearchBot(1).iterations == TSSearchBot.ITERATIONS
    assert TSSearchBot(1, iterations=7).iterations == 7
    monkeypatch.setenv(ENV_ITERATIONS, "33")
    assert TSSearchBot(1).iterations == 33
    assert TSSearchBot(1, iterations=5).iterations == 5  # the constructor wins
    monkeypatch.delenv(ENV_ITERATIONS)
    monkeypatch.setattr(TSSearchBot, "ITERATIONS", 12)
    assert TSSearchBot(1).iterations == 12


def test_legal_answers_and_same_view_same_answer():
    """At headlines and action rounds of random games: a legal answer from the wire-decoded view,
    a real search, and the same answer when the hidden cards are re-dealt (no cheating)."""
    checked = searched = 0
    for seed in range(3):
        for state, decision in positions(40 + seed, 3):
            role = decision.role
            world = GAME.determinize(state, role, random.Random(seed))
            assert GAME.view(world, role) == GAME.view(state, role)
            answers = []
            for each in (state, world):
                bot = make(9, role, iterations=6)
                index = bot.choose(*wire(GAME.decision(each), GAME.view(each, role)))
                assert isinstance(index, int) and 0 <= index < len(decision.options)
                answers.append(index)
            searched += bot.searches
            assert answers[0] == answers[1], (seed, decision.step)
            checked += 1
    assert checked == 9 and searched >= 4


def test_samples_come_from_the_view_only(monkeypatch):
    made = []
    real = Belief.__init__

    def spy(self, game, view, **kwargs):
        made.append((view, kwargs))
        real(self, game, view, **kwargs)

    monkeypatch.setattr(Belief, "__init__", spy)
    for state, decision in positions(7, 6, steps=("action_round",)):
        d, view = wire(decision, GAME.view(state, decision.role))
        bot = make(1, decision.role, iterations=4)
        bot.choose(d, view)
        if bot.searches:
            break
    assert made and bot.searches == 1
    given, kwargs = made[-1]
    assert given is view and set(kwargs) <= {"options", "rules", "check"}
    assert ts_search_module.Belief is Belief


def test_a_match_is_deterministic_given_seed():
    """A short match through play_match (wire views): every answer legal (the referee checks),
    the searched use played at the card_use step, and the same record twice."""
    rules = GAME.rules(None, {"end_turn": "1"})
    records = []
    for _ in range(2):
        bot = TSSearchBot(5, iterations=4)
        bots = {"ussr": bot, "us": TSHeuristicBot(6)}
        result = play_match(GAME, rules, bots, 21, timing=False)
        records.append([(m["role"], m["step"], m["key"]) for m in result.record.moves])
        assert bot.searches >= 3 and result.outcome is not None
    assert records[0] == records[1]


def test_fallback_on_a_broken_view(monkeypatch):
    """A view the forward model cannot replay (history entries lost): the search fails, the bot
    answers as the heuristic does; in strict mode the error shows."""
    state, decision = next(positions(3, 1, steps=("action_round",)))
    d, view = wire(decision, GAME.view(state, decision.role))
    del view.history[10:20]
    expected = TSHeuristicBot(4).choose(d, view)
    monkeypatch.setattr(TSSearchBot, "strict", False)
    bot = TSSearchBot(4, iterations=4)
    assert bot.choose(d, view) == expected and bot.searches == 0
    monkeypatch.setattr(TSSearchBot, "strict", True)
    with pytest.raises(Exception):
        TSSearchBot(4, iterations=4).choose(d, view)
