"""The shared conformance suite over every game and ruleset (DESIGN §7)."""

from __future__ import annotations

import random

import pytest

from kits.conformance import (
    check_every_option_applies,
    check_replays,
    check_views_leak_free,
    fingerprint,
    LONG,
    random_match,
)
from standoff.server.games import get_game

# (game, ruleset, options, number of random games). 2000 games in all by default.
CASES = [
    ("schotten-totten", "battle_line", {}, 1000),
    ("schotten-totten", "battle_line", {"claim_timing": "start_of_turn"}, 200),
    ("schotten-totten", "battle_line", {"claim_timing": "end_of_turn"}, 200),
    ("schotten-totten", "battle_line", {"tactics": "off"}, 200),
    ("schotten-totten", "battle_line", {"stalemate": "flags"}, 100),
    ("schotten-totten", "classic", {}, 300),
    ("schotten-totten", "three_player", {}, 200),
    ("twilight-struggle", "deluxe", {"end_turn": "7"}, 300),
    ("twilight-struggle", "deluxe", {}, 200),  # full games: 10 turns
    ("twilight-struggle", "deluxe", {"end_turn": "3", "chinese_civil_war": "on", "bid": "us:2"}, 50),
]
IDS = [f"{g}-{r}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, r, o, _ in CASES]
SCALE = 10 if LONG else 1


def _rules(game_name, ruleset, options):
    game = get_game(game_name)
    return game, game.rules(ruleset, options)


@pytest.mark.parametrize(("game_name", "ruleset", "options", "count"), CASES, ids=IDS)
def test_random_games_terminate_and_replay(game_name, ruleset, options, count):
    """Every match ends, no state is without options, and the record replays to the same final
    state and outcome."""
    game, rules = _rules(game_name, ruleset, options)
    terminations: dict[str, int] = {}
    for seed in range(count * SCALE):
        record, state = random_match(game, rules, seed)
        check_replays(game, record, state)
        terminations[game.outcome(state).termination] = terminations.get(
            game.outcome(state).termination, 0
        ) + 1
    assert sum(terminations.values()) == count * SCALE


@pytest.mark.parametrize(("game_name", "ruleset", "options", "count"), CASES, ids=IDS)
def test_same_seed_same_record(game_name, ruleset, options, count):
    game, rules = _rules(game_name, ruleset, options)
    for seed in range(0, count, 10):
        first, _ = random_match(game, rules, seed)
        second, _ = random_match(game, rules, seed)
        assert list(first.lines()) == list(second.lines())


@pytest.mark.parametrize(("game_name", "ruleset", "options", "count"), CASES, ids=IDS)
def test_every_option_applies_and_copies_are_independent(game_name, ruleset, options, count):
    game, rules = _rules(game_name, ruleset, options)
    for seed in range(max(4, count // 50) * SCALE):

        def check(state, decision, n):
            if n % 5 == 0:
                check_every_option_applies(game, state, decision)

        random_match(game, rules, seed, check=check)


@pytest.mark.parametrize(("game_name", "ruleset", "options", "count"), CASES, ids=IDS)
def test_views_are_leak_free(game_name, ruleset, options, count):
    """Re-dealing every card a role cannot see leaves its view byte-identical."""
    game, rules = _rules(game_name, ruleset, options)
    rng = random.Random(11)
    for seed in range(max(6, count // 25) * SCALE):

        def check(state, decision, n):
            if n % 7 == 3:
                check_views_leak_free(game, state, rng)

        random_match(game, rules, seed, check=check)


def test_fingerprint_sees_hidden_changes():
    """The leak test would be vacuous if re-dealing changed nothing: it must change the state."""
    game, rules = _rules("schotten-totten", "battle_line", {})
    state = game.new_state(rules)
    rng = random.Random(3)
    while game.decision(state).step in ("deal", "first_player"):
        game.apply(state, game.decision(state).options[0])
    changed = sum(
        fingerprint(game, game.determinize(state, "p1", rng)) != fingerprint(game, state)
        for _ in range(5)
    )
    assert changed >= 4
