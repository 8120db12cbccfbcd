"""No built-in bot cheats: its answer is a function of its view (and its seed).

For every built-in bot and every game it plays: at positions of seeded random games, the state is
re-dealt where the deciding role cannot see (``game.determinize``: the other hand, the deck, a
secret headline), the role's view is checked unchanged, and two bots with the same seed, one
shown each world through the wire (bytes encoded and decoded, as the referee sends them), must
give the same answer. A bot that peeked at anything hidden would answer differently in some world.
"""

from __future__ import annotations

import random

import pytest
from kits.bots import wire

from standoff.bots import BUILTIN_BOTS
from standoff.sdk.types import MatchInfo
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import chance_rng, sample_chance

GAMES = {"schotten-totten": {}, "twilight-struggle": {"end_turn": "4"}}
CASES = [
    (name, game)
    for name, cls in sorted(BUILTIN_BOTS.items())
    for game in GAMES
    if not cls.games or game in cls.games
]
#: small budgets for the search bots: the property does not depend on the budget
ARGS = {"ismcts": {"iterations": 30}, "ts-search": {"iterations": 4}}


def positions(game, rules, seed: int, count: int):
    """``count`` states of a seeded random game at players' decisions with a real choice."""
    rng, chance = random.Random(seed), chance_rng(seed)
    state = game.new_state(rules)
    found = 0
    while found < count and (d := game.decision(state)) is not None:
        if d.role != CHANCE and len(d.options) > 1 and rng.random() < 0.15:
            yield state.copy(), d
            found += 1
        index = sample_chance(chance, d) if d.role == CHANCE else rng.randrange(len(d.options))
        game.apply(state, d.options[index])


def make(name: str, game, rules, role: str, seed: int):
    bot = BUILTIN_BOTS[name](seed, **ARGS.get(name, {}))
    bot.start(MatchInfo(match_id="m", game=game.name, rules_version="", ruleset=rules.ruleset,
                        options=dict(rules.options), role=role, seats={r: "bot" for r in rules.roles}, seed=seed))
    return bot


@pytest.mark.parametrize(("name", "game_name"), CASES)
def test_same_view_same_answer(name, game_name):
    game = get_game(game_name)
    rules = game.rules(None, GAMES[game_name])
    checked = hidden_differs = 0
    for seed in range(4):
        for state, decision in positions(game, rules, 300 + seed, 5):
            role = decision.role
            world = game.determinize(state, role, random.Random(seed))
            assert game.view(world, role) == game.view(state, role)
            # the re-deal changed something: the other side's own view of its hand differs
            hidden_differs += any(game.view(world, r) != game.view(state, r) for r in rules.roles if r != role)
            answers = []
            for each in (state, world):
                bot = make(name, game, rules, role, 7)
                answers.append(bot.choose(*wire(game, game.decision(each), game.view(each, role))))
            assert answers[0] == answers[1], (name, game_name, seed, decision.step)
            checked += 1
    assert checked >= 12 and hidden_differs >= checked // 2
