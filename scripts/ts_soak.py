"""Play many full Twilight Struggle games and report how they ended.

    python scripts/ts_soak.py 10000 [--end-turn 10] [--seed 0] [--oracle] [--policy random|safe]

Every decision is checked for options (no dead ends); any exception is a crash, counted with its
seed. Prints the distribution of terminations (VP, DEFCON, Europe control, final scoring, held
scoring card, Wargames, Cuban Missile Crisis), the winners, the last turn reached, games/s, and
exits 1 on any crash or dead end.

``--oracle`` also runs the independent oracle of hidden information and card conservation
(tests/kits/oracles.py) on every state of every game: both views of every state, the decisions
asked, and where every card is. It prints what it checked and exits 1 on any violation.
``--policy safe`` plays the DEFCON-safe random policy of the conformance suite
(tests/kits/conformance.py) instead of uniform random choices: its games reach the Late War.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
import traceback
from collections import Counter

from standoff.server.games import get_game
from standoff.server.local import chance_rng, sample_chance

TESTS = pathlib.Path(__file__).resolve().parents[1] / "tests"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", type=int)
    parser.add_argument("--end-turn", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--oracle", action="store_true", help="check every state with the independent oracle")
    parser.add_argument("--policy", choices=("random", "safe"), default="random")
    args = parser.parse_args()
    sys.path.insert(0, str(TESTS))
    from kits.conformance import DefconSafePolicy  # noqa: E402 (tests/ on the path only now)
    from kits.oracles import TSOracle  # noqa: E402

    game = get_game("twilight-struggle")
    rules = game.rules(None, {"end_turn": str(args.end_turn)})
    terminations: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    turns: Counter[int] = Counter()
    oracle_stats: Counter[str] = Counter()
    violations: list[str] = []
    violation_count = 0
    crashes, dead_ends, decisions = [], [], 0
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        state = game.new_state(rules)
        chance = chance_rng(seed)
        players = random.Random(seed ^ 0x5EED)
        safe = {r: DefconSafePolicy(seed * 2 + k + 0x5AFE) for k, r in enumerate(rules.roles)}
        oracle = None
        try:
            if args.oracle:
                game.decision(state)
                oracle = TSOracle(game, state)
                oracle.context = f"seed {seed}: "
            while (decision := game.decision(state)) is not None:
                if not decision.options:
                    dead_ends.append(seed)
                    break
                if decision.role == "chance":
                    index = sample_chance(chance, decision)
                elif args.policy == "safe":
                    index = safe[decision.role].choose(game, state, decision)
                else:
                    index = players.randrange(len(decision.options))
                game.apply(state, decision.options[index])
                decisions += 1
                if oracle is not None:
                    oracle.observe(state)
            if oracle is not None:
                oracle.finish(state)
        except Exception:  # noqa: BLE001 - counted and reported
            crashes.append((seed, traceback.format_exc(limit=3)))
            continue
        finally:
            if oracle is not None:
                oracle_stats.update(oracle.stats)
                violation_count += oracle.violation_count
                violations.extend(oracle.violations[: max(0, 20 - len(violations))])
        outcome = game.outcome(state)
        if outcome is not None:
            terminations[outcome.termination] += 1
            winners[outcome.winner or "draw"] += 1
            turns[state.turn] += 1
    elapsed = time.perf_counter() - started
    total = sum(terminations.values())
    print(f"{args.games} {args.policy} games to turn {args.end_turn}: {total} finished, {len(crashes)} crashes, "
          f"{len(dead_ends)} dead ends; {args.games / elapsed:.1f} games/s, "
          f"{decisions / max(total, 1):.0f} decisions/game ({elapsed:.0f} s)")
    for name, count in terminations.most_common():
        print(f"  {name:22s} {count:6d}  {100 * count / max(total, 1):5.1f}%")
    print("  winners: " + ", ".join(f"{k} {v}" for k, v in winners.most_common()))
    print("  last turn reached: " + ", ".join(f"{t}: {n}" for t, n in sorted(turns.items())))
    if args.oracle:
        print(f"  oracle: {oracle_stats['states']} states, {oracle_stats['views']} views, "
              f"{oracle_stats['decisions_checked']} decisions checked; {violation_count} violations")
        print("  oracle figures: " + ", ".join(f"{k} {v}" for k, v in sorted(oracle_stats.items())
                                                if k not in ("states", "views", "decisions_checked")))
        for line in violations:
            print(f"  violation: {line}")
    for seed, trace in crashes[:3]:
        print(f"crash at seed {seed}:\n{trace}")
    if dead_ends:
        print(f"dead ends at seeds {dead_ends[:10]}")
    return 1 if crashes or dead_ends or violation_count else 0


if __name__ == "__main__":
    sys.exit(main())
