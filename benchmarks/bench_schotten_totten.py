"""Random-vs-random Schotten Totten / Battle Line games per second, in-process, on one core.

    python benchmarks/bench_schotten_totten.py [--games 1000] [--rounds 5] [--against REV]
        [--ruleset battle_line] [--option tactics=off] [--clock wall|cpu] [--profile]

The loop is what the referee does minus the bots' thinking and the views: ask the decision, pick
an option uniformly (chance and both players alike: game ``g`` uses ``random.Random(g)``), apply
it. A round plays games 0 .. --games-1 from a fresh interpreter state (no warm-up: the formation
memo starts empty, as in a fresh server). Printed per round and as medians of --rounds:

* games/s: complete games per second (full rules, tactics on by default);
* player decisions/s: decisions of a player (p1/p2: play, place, claim, draw, tactics steps)
  per second of the whole loop; chance decisions (the deal, card draws, who starts) are work of
  the loop too but are *not* counted in it, they are shown per game beside it;
* player / chance decisions per game: the same in both trees when the engines agree.

``--clock cpu`` times the loop with this process's CPU time instead of the wall clock: on a
machine shared with other jobs the wall clock also counts the time the loop waited for a core,
which varies from round to round far more than the engines differ; CPU time mostly does not
(caches and memory bandwidth are still shared). The default stays ``wall``.

With ``--against REV`` the same loop runs on git revision REV too, interleaved round by round in
fresh interpreters (see benchmarks/against.py), and the ratio of the medians is printed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

import against
from standoff.server.games import get_game

METRICS = (
    against.Metric("games/s"),
    against.Metric("player decisions/s"),
    against.Metric("decisions/s incl. chance"),
    against.Metric("player decisions/game", "{:.2f}", "same"),
    against.Metric("chance decisions/game", "{:.2f}", "same"),
)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def play(game, rules, games: int, first_seed: int = 0, clock=time.perf_counter) -> tuple[float, int, int]:
    """Play ``games`` uniformly random games: (seconds, player decisions, chance decisions)."""
    player = chance = 0
    decision = game.decision
    apply = game.apply
    started = clock()
    for seed in range(first_seed, first_seed + games):
        state = game.new_state(rules)
        pick = random.Random(seed).random
        while (d := decision(state)) is not None:
            options = d.options
            if d.role == "chance":
                chance += 1
            else:
                player += 1
            apply(state, options[int(pick() * len(options))])
    return clock() - started, player, chance


def setup(args: argparse.Namespace):
    game = get_game("schotten-totten")
    return game, game.rules(args.ruleset, dict(o.split("=", 1) for o in args.option))


def measure(args: argparse.Namespace) -> dict[str, float]:
    game, rules = setup(args)
    elapsed, player, chance = play(game, rules, args.games, clock=CLOCKS[args.clock])
    return {
        "games/s": args.games / elapsed,
        "player decisions/s": player / elapsed,
        "decisions/s incl. chance": (player + chance) / elapsed,
        "player decisions/game": player / args.games,
        "chance decisions/game": chance / args.games,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per round (default 1000)")
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time the loop by the wall clock (default) or by this process's CPU time")
    parser.add_argument("--profile", action="store_true",
                        help="instead: profile one round on this tree, top functions by own time")
    against.add_arguments(parser)
    args = parser.parse_args()
    if args.profile:
        game, rules = setup(args)
        profiler = cProfile.Profile()
        profiler.enable()
        play(game, rules, args.games)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(20)
        return 0
    game, rules = setup(args)
    title = (f"ruleset {rules.ruleset} {dict(rules.options)}; {args.games} games per round, uniformly random; "
             f"{args.clock} clock")
    return against.run(args, measure, METRICS, title=title)


if __name__ == "__main__":
    sys.exit(main())
