"""The ``probability`` bot: flag weights, formation odds, legal answers in odd positions, and
determinism given its seed when playing from wire-decoded views."""

from __future__ import annotations

import random

import pytest

from standoff.bots import BUILTIN_BOTS
from standoff.bots.greedy import GreedyBot
from standoff.bots.probability import FlagOdds, ProbabilityBot, flag_weights, game_value
from standoff.bots.random_bot import RandomBot
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import chance_rng, play_match, sample_chance

GAME = get_game("schotten-totten")


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    monkeypatch.setattr(GreedyBot, "strict", True)


def test_registered():
    assert BUILTIN_BOTS["probability"] is ProbabilityBot
    assert ProbabilityBot.games == ("schotten-totten",)


def test_game_value_and_weights():
    assert game_value([1.0] * 9) == 1.0
    assert game_value([0.0] * 9) == 0.0
    assert game_value([0.5] * 9) == pytest.approx(0.5)
    assert game_value([1, 1, 1] + [0] * 6) == 0.5  # both hold a breakthrough: a coin flip
    assert game_value([1, 1] + [0.5] * 7) > 0.5
    # holding flags 1 and 2: flag 3 completes a breakthrough, flag 9 only counts toward five
    w = flag_weights([1.0, 1.0] + [0.5] * 7)
    assert w[2] == max(w[2:]) and w[2] > w[8] > 0
    assert w[0] == w[1] == 0.0 or all(x >= 0 for x in w)


def test_flag_weights_are_the_difference_of_two_game_values_to_the_last_bit():
    """flag_weights shares work between its 18 game values; the result must be the one of the
    definition exactly (a weight that moved by a rounding error could change a close choice)."""
    rng = random.Random(7)
    sixths = [k / 6 for k in range(7)]
    for _ in range(3000):
        p = [rng.choice([0.0, 1.0, rng.random(), rng.choice(sixths), rng.randrange(25) / 24]) for _ in range(9)]
        expected = []
        for f in range(9):
            hi, lo = list(p), list(p)
            hi[f], lo[f] = 1.0, 0.0
            expected.append(game_value(hi) - game_value(lo))
        assert flag_weights(p) == expected, p


def test_planned_answers_as_choose_does_when_the_plan_decides():
    """``planned`` (used by ismcts's lines, without a view) gives the index ``_choose`` gives at a
    target step whose answer the play's plan names, uses the plan up as ``_choose`` does, and
    is None (plan kept) where the plan does not decide: then ``_choose`` answers."""
    rng = random.Random(3)
    decided = 0
    for seed in range(15):
        state = GAME.new_state(GAME.rules())
        chance = chance_rng(seed)
        bots = {"p1": ProbabilityBot(seed), "p2": ProbabilityBot(seed + 100)}
        while (d := GAME.decision(state)) is not None:
            if d.role == CHANCE:
                GAME.apply(state, d.options[sample_chance(chance, d)])
                continue
            bot = bots[d.role]
            view = GAME.view(state, d.role)
            if d.step != "play" and len(d.options) > 1:
                plan = dict(bot._plan)
                index = bot.planned(d)
                if index is None:
                    assert bot._plan == plan
                    index = bot._choose(d, view)
                    index = 0 if index is None else index
                else:
                    decided += 1
                    assert bot._plan == {}
                    bot._plan = plan
                    bot.rng = random.Random(seed)
                    assert bot._choose(d, view) == index
            else:
                index = rng.randrange(len(d.options)) if len(d.options) > 1 and rng.random() < 0.2 else None
                if index is None:
                    index = bot._choose(d, view) if len(d.options) > 1 else 0
                else:
                    bot._plan = {}  # a random play: the plan is not for this card
            GAME.apply(state, d.options[index])
    assert decided > 200


def test_formation_odds_from_the_unseen_cards():
    rng = random.Random(5)
    state = GAME.new_state(GAME.rules())
    chance = chance_rng(5)
    while (d := GAME.decision(state)) is not None and state.number < 80:
        index = sample_chance(chance, d) if d.role == CHANCE else rng.randrange(len(d.options))
        GAME.apply(state, d.options[index])
    role = GAME.decision(state).role
    if role == CHANCE:
        role = "p1"
    view = GAME.view(state, role)
    odds = FlagOdds(view, role, random.Random(1))
    values = odds.values()
    assert len(values) == 9 and all(0.0 <= p <= 1.0 for p in values)
    for f in range(9):
        if view["flags"][f]["claimed_by"] is None:
            table = odds.formations(f)
            for side in ("us", "them"):
                assert sum(table[side].values()) == pytest.approx(1.0)
                assert set(table[side]) <= {"wedge", "phalanx", "battalion", "skirmish line", "host", "none"}


FUZZ = [
    ("battle_line", {}, 5),
    ("battle_line", {"claim_timing": "start_of_turn"}, 2),
    ("classic", {}, 2),
    ("three_player", {}, 1),
]


@pytest.mark.parametrize(("ruleset", "options", "games"), FUZZ)
def test_legal_answers_in_random_positions(ruleset, options, games):
    """The bot answers every decision of random games (tactics steps included)."""
    rules = GAME.rules(ruleset, options)
    steps = set()
    for g in range(games):
        rng = random.Random(300 + g)
        bots = {role: ProbabilityBot(g) for role in rules.roles}
        state = GAME.new_state(rules)
        while (d := GAME.decision(state)) is not None:
            if d.role != CHANCE:
                index = bots[d.role].choose(d, GAME.view(state, d.role))
                assert isinstance(index, int) and 0 <= index < len(d.options)
                steps.add(d.step)
            GAME.apply(state, d.options[rng.randrange(len(d.options))])
    assert {"play", "place"} <= steps


def test_deterministic_given_seed_from_wire_views():
    """play_match hands bots views decoded from wire bytes; the same seeds give the same record."""
    rules = GAME.rules()
    records = []
    for _ in range(2):
        bots = {"p1": ProbabilityBot(3), "p2": RandomBot(4)}
        result = play_match(GAME, rules, bots, 11, timing=False)
        records.append([(m["role"], m["step"], m["key"]) for m in result.record.moves])
    assert records[0] == records[1]
    assert result.outcome.winner != "p2"  # it does not lose to random (a stalemate is possible)
