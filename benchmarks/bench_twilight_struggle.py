"""Random-vs-random Twilight Struggle games per second, in-process, on one core.

    python benchmarks/bench_twilight_struggle.py [--games 100] [--end-turn 10] [--views | --encode]
        [--rounds 5] [--against REV] [--profile]

Same loop as bench_schotten_totten.py: ask the decision, pick uniformly (chance and players
alike: game ``g`` uses ``random.Random(g)``), apply. Three levels of work per player decision:

* (default) the engine alone: ``decision`` and ``apply``;
* ``--views``: also the deciding player's view, incrementally (the entries since that player's
  previous view, ``history_from`` = the last entry it was sent), as a referee's seat builds it;
* ``--encode``: what a referee's seat does per decision in full (``server/seats.py``): that view,
  then its wire message (``wire.encode_view``: the TS view codec), the ``Decision`` envelope
  (``wire.decision_message``) and its deterministic bytes (``wire.serialize``).

A round starts from a fresh interpreter state (no warm-up). Printed per round and as medians of
--rounds:

* games/s: games played to their end (a win, or final scoring after --end-turn);
* player decisions/s: decisions of USSR/USA per second of the whole loop; chance decisions
  (shuffles, draws, dice) are not counted in it, they are shown per game beside it;
* player decisions/CPU s: the same per second of this process's CPU time (``time.process_time``),
  steadier than the wall-clock figures when other work shares the machine;
* player / chance decisions per game: the same in both trees when the engines agree.

Random play rarely reaches turn 10 (DEFCON suicides, held scoring cards): player decisions/s is
the steadier figure. With ``--against REV`` the same loop runs on git revision REV too,
interleaved round by round in fresh interpreters (see benchmarks/against.py).
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
    against.Metric("games/s", "{:,.1f}"),
    against.Metric("player decisions/s"),
    against.Metric("decisions/s incl. chance"),
    against.Metric("player decisions/CPU s"),
    against.Metric("player decisions/game", "{:.2f}", "same"),
    against.Metric("chance decisions/game", "{:.2f}", "same"),
)


def play(game, rules, games: int, views: bool = False, encode: bool = False) -> tuple[float, float, int, int]:
    """Play ``games`` uniformly random games: (seconds, CPU seconds of this process, player
    decisions, chance decisions)."""
    if encode:
        from standoff.server.wire import decision_message, encode_view, serialize
    player = chance = 0
    decision = game.decision
    apply = game.apply
    view = game.view
    name = game.name
    clocks = {role: 60_000 for role in rules.roles}
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(games):
        state = game.new_state(rules)
        pick = random.Random(seed).random
        seen: dict[str, int] = {}  # per role: the last history entry its views carried
        number = 0
        while (d := decision(state)) is not None:
            options = d.options
            if d.role == "chance":
                chance += 1
            else:
                player += 1
                if views or encode:
                    built = view(state, d.role, seen.get(d.role, 0))
                    if built["history"]:
                        seen[d.role] = built["history"][-1][0]
                    if encode:
                        serialize(decision_message("bench", number, d, encode_view(name, built), clocks))
            apply(state, options[int(pick() * len(options))])
            number += 1
    return time.perf_counter() - started, time.process_time() - cpu_started, player, chance


def setup(args: argparse.Namespace):
    game = get_game("twilight-struggle")
    return game, game.rules(None, {"end_turn": str(args.end_turn)})


def measure(args: argparse.Namespace) -> dict[str, float]:
    game, rules = setup(args)
    elapsed, cpu, player, chance = play(game, rules, args.games, args.views, args.encode)
    return {
        "games/s": args.games / elapsed,
        "player decisions/s": player / elapsed,
        "decisions/s incl. chance": (player + chance) / elapsed,
        "player decisions/CPU s": player / cpu,
        "player decisions/game": player / args.games,
        "chance decisions/game": chance / args.games,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per round (default 100)")
    parser.add_argument("--end-turn", type=int, default=10)
    parser.add_argument("--views", action="store_true",
                        help="build the deciding player's view before each of its decisions")
    parser.add_argument("--encode", action="store_true",
                        help="as --views, and encode each view to its wire message and serialise the "
                             "decision envelope, as a referee's seat does")
    parser.add_argument("--profile", action="store_true",
                        help="instead: profile one round on this tree, top functions by own time")
    against.add_arguments(parser)
    args = parser.parse_args()
    if args.profile:
        game, rules = setup(args)
        profiler = cProfile.Profile()
        profiler.enable()
        play(game, rules, args.games, args.views, args.encode)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(20)
        return 0
    title = (f"{args.games} games per round to turn {args.end_turn}, uniformly random"
             + (", a view encoded and serialised per player decision" if args.encode
                else ", a view per player decision" if args.views else ", engine only"))
    return against.run(args, measure, METRICS, title=title)


if __name__ == "__main__":
    raise SystemExit(main())
