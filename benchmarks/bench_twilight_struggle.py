"""Random-vs-random Twilight Struggle games per second, in-process, on one core.

    python benchmarks/bench_twilight_struggle.py [--games 500] [--end-turn 10] [--profile]

Same loop as bench_schotten_totten.py: ask the decision, pick uniformly (chance and players
alike), apply. Random play rarely reaches turn 10 (DEFCON suicides, held scoring cards): decisions/s is the steadier figure.
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


def run(game, rules, games: int) -> tuple[float, int]:
    decisions = 0
    started = time.perf_counter()
    for seed in range(games):
        state = game.new_state(rules)
        pick = random.Random(seed).random
        while (d := game.decision(state)) is not None:
            options = d.options
            game.apply(state, options[int(pick() * len(options))])
            decisions += 1
    return time.perf_counter() - started, decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--end-turn", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    game = get_game("twilight-struggle")
    rules = game.rules(None, {"end_turn": str(args.end_turn)})
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    elapsed, decisions = run(game, rules, args.games)
    print(f"{args.games} games to turn {args.end_turn} in {elapsed:.2f} s: {args.games / elapsed:,.0f} games/s, "
          f"{decisions / elapsed:,.0f} decisions/s, {decisions / args.games:.1f} decisions/game")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(game, rules, min(args.games, 200))
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
