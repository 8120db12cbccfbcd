"""Random-vs-random Schotten Totten games per second, in-process, on one core.

    python benchmarks/bench_schotten_totten.py [--games 2000] [--ruleset battle_line]
        [--option tactics=off] [--profile]

The loop is what the referee does minus the bots' thinking: ask the decision, pick an option
uniformly (chance and both players alike), apply it. Reported with the machine it ran on; these
machines are shared and noisy, so compare figures from the same run or repeat a few times.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import sys
import time

from standoff.server.games import get_game


def run(game, rules, games: int, first_seed: int = 0) -> tuple[float, int]:
    decisions = 0
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        state = game.new_state(rules)
        pick = random.Random(seed).random
        decision = game.decision
        apply = game.apply
        while (d := decision(state)) is not None:
            options = d.options
            apply(state, options[int(pick() * len(options))])
            decisions += 1
    return time.perf_counter() - started, decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--repeat", type=int, default=3, help="report the best of this many runs")
    parser.add_argument("--profile", action="store_true", help="print the top functions by own time")
    args = parser.parse_args()
    game = get_game("schotten-totten")
    rules = game.rules(args.ruleset, dict(o.split("=", 1) for o in args.option))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        f" ({platform.python_implementation()}); ruleset {rules.ruleset} {dict(rules.options)}"
    )
    run(game, rules, 50, first_seed=10**6)  # warm caches (formation memo) like a long run would
    best = None
    for _ in range(args.repeat):
        elapsed, decisions = run(game, rules, args.games)
        rate = args.games / elapsed
        print(f"{args.games} games in {elapsed:.2f} s: {rate:,.0f} games/s, {decisions / elapsed:,.0f} decisions/s, "
              f"{decisions / args.games:.1f} decisions/game")
        best = rate if best is None else max(best, rate)
    print(f"best: {best:,.0f} games/s on one core")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(game, rules, min(args.games, 500))
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
