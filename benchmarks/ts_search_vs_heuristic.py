"""ts-search vs ts-heuristic at Twilight Struggle: W/D/L, score, Elo ± 95%, time per searched decision.

    python benchmarks/ts_search_vs_heuristic.py [N] [--iterations I] [--seed S] [--jobs J] [--option k=v ...]

Full games (10 turns unless ``--option end_turn=...``) played by
:func:`standoff.server.local.play_match`, the loop of ``standoff play``: bots get views decoded
from wire bytes, chance is drawn from the match seed. Paired seeds: game ``i`` is played on match
seed ``seed + i // 2`` (the same deal, draws and dice), ``ts-search`` being the USSR in even games
and the US in odd ones. A draw counts half. Elo: :func:`standoff.tournaments.ratings.trinomial_elo`.
``--iterations`` is the search bot's rollouts per searched decision (default: the bot's own).
One line per finished game is printed as it comes, then the summary.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from standoff.bots.ts_heuristic import TSHeuristicBot
from standoff.bots.ts_search import TSSearchBot
from standoff.server.cli import UsageError, parse_options
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.tournaments.ratings import trinomial_elo


def play_one(job: tuple) -> tuple:
    """One game: (index, search role, winner, termination, turn, search think s, heuristic think s,
    searched decisions, rollouts, search seconds)."""
    index, iterations, options, base_seed = job
    game = get_game("twilight-struggle")
    rules = game.rules(None, options)
    seed = base_seed + index // 2
    mine, other = ("ussr", "us") if index % 2 == 0 else ("us", "ussr")
    search = TSSearchBot(seed, iterations=iterations)
    bots = {mine: search, other: TSHeuristicBot(seed + 1)}
    result = play_match(game, rules, bots, seed)
    think = {mine: 0.0, other: 0.0}
    for move in result.record.moves:
        if "think_ms" in move:
            think[move["role"]] += move["think_ms"] / 1000.0
    return (index, mine, result.outcome.winner, result.outcome.termination, result.state.turn,
            think[mine], think[other], search.searches, search.total_iterations, search.search_seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=40, help="number of games (40; even: pairs)")
    parser.add_argument("--iterations", type=int, default=None, help="search rollouts per decision")
    parser.add_argument("--seed", type=int, default=0, help="base seed (0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="rules option")
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
    except UsageError as exc:
        parser.error(str(exc))
    iterations = args.iterations if args.iterations is not None else TSSearchBot(0).iterations
    label = "".join(f" {k}={v}" for k, v in sorted(options.items()))
    print(f"# ts-search (iterations={iterations}) vs ts-heuristic{label}; seed {args.seed}; {args.jobs} job(s); "
          f"{os.cpu_count()} CPUs; Python {platform.python_version()}", flush=True)
    work = [(i, iterations, options, args.seed) for i in range(args.games)]
    start = time.perf_counter()
    results = []
    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs)
        stream = pool.map(play_one, work, chunksize=1)
    else:
        pool = None
        stream = map(play_one, work)
    for r in stream:
        results.append(r)
        index, mine, winner, termination, turn, t_search, t_heur, searches, its, secs = r
        outcome = "draw" if winner is None else "win" if winner == mine else "loss"
        print(f"game {index:3d} seed {args.seed + index // 2} ts-search {mine:4s}: {outcome:4s} "
              f"({termination}, turn {turn}); think {t_search:.1f} s vs {t_heur:.2f} s; "
              f"{1000 * secs / max(searches, 1):.0f} ms per searched decision", flush=True)
    if pool is not None:
        pool.shutdown()
    elapsed = time.perf_counter() - start
    wdl: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    by_side: Counter[str] = Counter()
    t_search = t_heur = secs = 0.0
    searches = its = 0
    for index, mine, winner, termination, turn, a, b, n, k, s in results:
        outcome = "draw" if winner is None else "win" if winner == mine else "loss"
        wdl[outcome] += 1
        endings[f"{termination} ({outcome})"] += 1
        by_side[f"{mine} {outcome}"] += 1
        t_search += a
        t_heur += b
        searches += n
        its += k
        secs += s
    n = max(len(results), 1)
    w, d, l = wdl["win"], wdl["draw"], wdl["loss"]
    est = trinomial_elo(w, d, l)
    elo = f"{est.elo:+.0f} ± {est.margin:.0f}" if est.margin != float("inf") else f"{est.elo:+.0f} (margin ∞)"
    print(f"ts-search vs ts-heuristic: {len(results)} games")
    print(f"  W/D/L {w}/{d}/{l}   score {100 * (w + 0.5 * d) / n:.1f}%   Elo {elo}")
    print("  by side: " + ", ".join(f"{k} {v}" for k, v in sorted(by_side.items())))
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in endings.most_common()))
    print(f"  wall {elapsed:.0f} s; bot time per game: ts-search {t_search / n:.1f} s, ts-heuristic {t_heur / n:.2f} s")
    print(f"  ts-search: {searches / n:.0f} searched decisions per game, {its / max(searches, 1):.0f} rollouts and "
          f"{1000 * secs / max(searches, 1):.0f} ms per searched decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
