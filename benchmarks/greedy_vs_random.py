"""Greedy vs random at Schotten Totten: win/draw/loss counts, greedy's score and speed.

    python benchmarks/greedy_vs_random.py [N] [--ruleset classic] [--option k=v ...] [--seed S]

Seats alternate (greedy is p1 in even games, p2 in odd ones); each game is played by the same
loop as `standoff play` (match seed = seed + game; bots get views decoded from wire bytes). The score counts a draw as half
a win.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from standoff.bots.greedy import GreedyBot
from standoff.bots.random_bot import RandomBot
from standoff.server.cli import UsageError, parse_options
from standoff.server.games import get_game
from standoff.server.local import play_match


def play(game, rules, bots: dict, seed: int, clock: dict | None = None):
    """Play one game the way the referee does (bots get wire-decoded views, chance from the
    seed); return the outcome. ``clock[role]`` accumulates each bot's time (view included)."""
    result = play_match(game, rules, bots, seed)
    if clock is not None:
        for move in result.record.moves:
            if "think_ms" in move:
                clock[move["role"]] = clock.get(move["role"], 0.0) + move["think_ms"] / 1000.0
    return result.outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1000, help="number of games (1000)")
    parser.add_argument("--ruleset", default="battle_line", help="battle_line (default) or classic")
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="rules option")
    parser.add_argument("--seed", type=int, default=0, help="base seed (0)")
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
    except UsageError as exc:
        parser.error(str(exc))

    game = get_game("schotten-totten")
    rules = game.rules(args.ruleset, options)
    results: Counter[str] = Counter()
    terminations: Counter[str] = Counter()
    greedy_time = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        greedy_role, random_role = ("p1", "p2") if i % 2 == 0 else ("p2", "p1")
        bots = {greedy_role: GreedyBot(args.seed + i), random_role: RandomBot(args.seed + i + 1)}
        clock: dict[str, float] = {}
        outcome = play(game, rules, bots, args.seed + i, clock)
        greedy_time += clock.get(greedy_role, 0.0)
        terminations[outcome.termination] += 1
        if outcome.winner is None:
            results["draw"] += 1
        elif outcome.winner == greedy_role:
            results["win"] += 1
        else:
            results["loss"] += 1
    elapsed = time.perf_counter() - start
    n = max(args.games, 1)
    score = (results["win"] + 0.5 * results["draw"]) / n
    label = args.ruleset + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    print(f"greedy vs random, {args.games} games, {label}")
    print(f"  wins {results['win']}  draws {results['draw']}  losses {results['loss']}")
    print(f"  greedy score {100 * score:.1f}%")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in terminations.most_common()))
    per_game = 1000 * greedy_time / n
    print(f"  {args.games / elapsed:.1f} games/s; greedy (view + choose) {per_game:.1f} ms/game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
