"""ts-heuristic vs random at Twilight Struggle: W/D/L, the heuristic's score, how games end, how
many reach turn 10, and the heuristic's time per game.

    python benchmarks/ts_heuristic_vs_random.py [N] [--seed S] [--mirror M] [--option k=v ...]

Full games (10 turns unless ``--option end_turn=...``) played by
:func:`standoff.server.local.play_match`, the loop of ``standoff play``: bots get views decoded
from wire bytes, chance is drawn from the match seed (``seed + game``). Seats alternate: the
heuristic is the USSR in even games, the US in odd ones. A draw counts half. ``--mirror M`` also
plays M games of the heuristic against itself and prints how they end (a "defcon" ending there
would be a suicide: DEFCON 1 always loses for the phasing side). Bot time is the referee's
``think_ms`` (view encoding and decoding included).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from standoff.bots.random_bot import RandomBot
from standoff.bots.ts_heuristic import TSHeuristicBot
from standoff.server.cli import UsageError, parse_options
from standoff.server.games import get_game
from standoff.server.local import play_match


def play(game, rules, bots: dict, seed: int):
    """One game; returns (outcome, last turn reached, seconds of thinking per role)."""
    result = play_match(game, rules, bots, seed)
    clock: dict[str, float] = {}
    for move in result.record.moves:
        if "think_ms" in move:
            clock[move["role"]] = clock.get(move["role"], 0.0) + move["think_ms"] / 1000.0
    return result.outcome, result.state.turn, clock


def endings(terminations: Counter) -> str:
    return ", ".join(f"{k} {v}" for k, v in terminations.most_common()) or "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="number of games (200)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (0)")
    parser.add_argument("--mirror", type=int, default=0, metavar="M", help="also M heuristic-vs-heuristic games")
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="rules option")
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
    except UsageError as exc:
        parser.error(str(exc))
    game = get_game("twilight-struggle")
    rules = game.rules(None, options)
    label = "".join(f" {k}={v}" for k, v in sorted(options.items()))

    results: Counter[str] = Counter()
    terminations: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    turn10 = 0
    think = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        mine, other = ("ussr", "us") if i % 2 == 0 else ("us", "ussr")
        bots = {mine: TSHeuristicBot(args.seed + i), other: RandomBot(args.seed + i + 1)}
        outcome, turn, clock = play(game, rules, bots, args.seed + i)
        think += clock.get(mine, 0.0)
        turn10 += turn >= 10
        if outcome.winner is None:
            results["draw"] += 1
            terminations[outcome.termination + " (draw)"] += 1
        elif outcome.winner == mine:
            results["win"] += 1
            terminations[outcome.termination] += 1
        else:
            results["loss"] += 1
            lost[outcome.termination] += 1
    elapsed = time.perf_counter() - start
    n = max(args.games, 1)
    score = (results["win"] + 0.5 * results["draw"]) / n
    print(f"ts-heuristic vs random, {args.games} games{label}")
    print(f"  wins {results['win']}  draws {results['draw']}  losses {results['loss']}")
    print(f"  heuristic score {100 * score:.1f}%")
    print(f"  its wins by: {endings(terminations)}")
    print(f"  its losses by: {endings(lost)}")
    print(f"  games reaching turn 10: {turn10}")
    print(f"  {elapsed / n:.2f} s/game; heuristic (view + choose) {1000 * think / n:.0f} ms/game")

    if args.mirror:
        mirror: Counter[str] = Counter()
        winners: Counter[str] = Counter()
        turn10 = 0
        think = 0.0
        start = time.perf_counter()
        for i in range(args.mirror):
            seed = args.seed + 100_000 + i
            bots = {"ussr": TSHeuristicBot(seed), "us": TSHeuristicBot(seed + 1)}
            outcome, turn, clock = play(game, rules, bots, seed)
            think += sum(clock.values())
            turn10 += turn >= 10
            mirror[outcome.termination] += 1
            winners[outcome.winner or "draw"] += 1
        m = max(args.mirror, 1)
        print(f"ts-heuristic vs itself, {args.mirror} games{label}")
        print(f"  endings: {endings(mirror)}")
        print(f"  winners: {endings(winners)}")
        print(f"  games reaching turn 10: {turn10}")
        print(f"  {(time.perf_counter() - start) / m:.2f} s/game; per side {1000 * think / m / 2:.0f} ms/game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
