"""The shared conformance suite over every game and ruleset (DESIGN §7)."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from kits.conformance import (
    HEURISTIC,
    LONG,
    SAFE,
    StateChecks,
    check_every_option_applies,
    check_replays,
    check_views_leak_free,
    deep_match,
    fingerprint,
    random_match,
)
from kits.reliability import report
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


# -- Twilight Struggle to the end -----------------------------------------------------------------
#
# Uniform random play ends most Twilight Struggle games in the Early War (DEFCON, a held scoring
# card), so the checks above hardly see a Late War state. These games are played by policies that
# survive (kits.conformance.DefconSafePolicy, and the heuristic bot through the wire adapter): in
# CI at least half reach turn 8 and a quarter end by final scoring, and every per-state check runs
# on states of every turn 1-10 for both sides; the independent oracle (kits.oracles) follows every
# state. Figures: docs/conformance.md.

DEEP = [
    # (id, players, games in CI, games with STANDOFF_LONG=1, check every k-th decision CI / long)
    ("defcon-safe-random", {"ussr": SAFE, "us": SAFE}, 24, 300, 40, 10),
    ("ts-heuristic", {"ussr": HEURISTIC, "us": HEURISTIC}, 12, 60, 40, 10),
]


@pytest.mark.parametrize(("players", "ci_games", "long_games", "ci_every", "long_every"),
                         [d[1:] for d in DEEP], ids=[d[0] for d in DEEP])
def test_twilight_struggle_games_reach_the_end(players, ci_games, long_games, ci_every, long_every):
    game, rules = _rules("twilight-struggle", "deluxe", {})
    games = long_games if LONG else ci_games
    checks = StateChecks(game, long_every if LONG else ci_every)
    started = time.perf_counter()
    turns: Counter[int] = Counter()
    ends: Counter[str] = Counter()
    for seed in range(games):
        record, state = deep_match(game, rules, seed, players, check=checks)
        checks.check_replay(record, state)
        turns[state.turn] += 1
        ends[game.outcome(state).termination] += 1
    coverage = {kind: sorted(cells) for kind, cells in checks.coverage.items()}
    report(
        "ts_deep_conformance",
        players="/".join(sorted(set(players.values()))),
        games=games,
        seconds=round(time.perf_counter() - started, 1),
        last_turn=dict(sorted(turns.items())),
        terminations=dict(ends.most_common()),
        states=checks.states,
        checked_states={kind: sum(cells.values()) for kind, cells in checks.coverage.items()},
        oracle={k: v for k, v in sorted(checks.oracle_stats.items())},
        oracle_violations=len(checks.oracle_violations),
    )
    assert not checks.oracle_violations, "\n".join(checks.oracle_violations[:20])
    assert checks.oracle_stats["stale_headline_views_at_own_decision"] == 0
    assert sum(n for t, n in turns.items() if t >= 8) * 2 >= games, f"fewer than half reach turn 8: {turns}"
    assert ends["final_scoring"] * 4 >= games, f"fewer than a quarter end by final scoring: {ends}"
    every_cell = [(turn, role) for turn in range(1, 11) for role in rules.roles]
    for kind, cells in coverage.items():
        missing = sorted(set(every_cell) - set(cells))
        assert not missing, f"{kind} never checked on (turn, side) {missing}"
