"""Play many random Schotten Totten games under the independent oracle of hidden information
and card conservation (tests/kits/oracles.py) and report what it checked.

    python scripts/st_soak.py 10000 [--ruleset battle_line] [--seed 0] [-o tactics=off]

Every state of every game (chance included) is checked: all cards accounted for once, no view or
decision naming a card its side may not know, views faithful to the truth. Prints the endings,
the oracle's figures and exits 1 on any crash, dead end or violation.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
import traceback
from collections import Counter

from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import chance_rng, sample_chance

TESTS = pathlib.Path(__file__).resolve().parents[1] / "tests"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", type=int)
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE rule option")
    args = parser.parse_args()
    sys.path.insert(0, str(TESTS))
    from kits.oracles import oracle_for  # noqa: E402 (tests/ on the path only now)

    game = get_game("schotten-totten")
    rules = game.rules(args.ruleset, dict(o.split("=", 1) for o in args.option))
    endings: Counter[str] = Counter()
    stats: Counter[str] = Counter()
    violations: list[str] = []
    crashes, dead_ends = [], []
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        state = game.new_state(rules)
        game.decision(state)
        oracle = oracle_for(game, state)
        oracle.context = f"seed {seed}: "
        chance, players = chance_rng(seed), random.Random(seed ^ 0x5EED)
        try:
            while (decision := game.decision(state)) is not None:
                if not decision.options:
                    dead_ends.append(seed)
                    break
                if decision.role == CHANCE:
                    index = sample_chance(chance, decision)
                else:
                    index = players.randrange(len(decision.options))
                game.apply(state, decision.options[index])
                oracle.observe(state)
            oracle.finish(state)
        except Exception:  # noqa: BLE001 - counted and reported
            crashes.append((seed, traceback.format_exc(limit=3)))
            continue
        stats.update(oracle.stats)
        violations.extend(oracle.violations[: max(0, 20 - len(violations))])
        stats["violations"] += oracle.violation_count
        outcome = game.outcome(state)
        if outcome is not None:
            endings[outcome.termination] += 1
    elapsed = time.perf_counter() - started
    print(f"{args.games} random games ({rules.ruleset}): {sum(endings.values())} finished, {len(crashes)} crashes, "
          f"{len(dead_ends)} dead ends; {args.games / elapsed:.1f} games/s ({elapsed:.0f} s)")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in endings.most_common()))
    print(f"  oracle: {stats['states']} states, {stats['views']} views, {stats['decisions_checked']} decisions "
          f"checked; {stats['violations']} violations")
    print("  oracle figures: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())
                                            if k not in ("states", "views", "decisions_checked", "violations")))
    for line in violations:
        print(f"  violation: {line}")
    for seed, trace in crashes[:3]:
        print(f"crash at seed {seed}:\n{trace}")
    return 1 if crashes or dead_ends or stats["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
