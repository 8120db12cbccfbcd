"""Play many random full Twilight Struggle games and report how they ended.

    python scripts/ts_soak.py 10000 [--end-turn 10] [--seed 0]

Every decision is checked for options (no dead ends); any exception is a crash, counted with its
seed. Prints the distribution of terminations (VP, DEFCON, Europe control, final scoring, held
scoring card, Wargames, Cuban Missile Crisis), the winners, games/s, and exits 1 on any crash or
dead end.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter

from standoff.server.games import get_game
from standoff.server.local import chance_rng, sample_chance


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", type=int)
    parser.add_argument("--end-turn", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = get_game("twilight-struggle")
    rules = game.rules(None, {"end_turn": str(args.end_turn)})
    terminations: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    turns: Counter[int] = Counter()
    crashes, dead_ends, decisions = [], [], 0
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        state = game.new_state(rules)
        chance = chance_rng(seed)
        players = random.Random(seed ^ 0x5EED)
        try:
            while (decision := game.decision(state)) is not None:
                if not decision.options:
                    dead_ends.append(seed)
                    break
                if decision.role == "chance":
                    index = sample_chance(chance, decision)
                else:
                    index = players.randrange(len(decision.options))
                game.apply(state, decision.options[index])
                decisions += 1
        except Exception:  # noqa: BLE001 - counted and reported
            crashes.append((seed, traceback.format_exc(limit=3)))
            continue
        outcome = game.outcome(state)
        if outcome is not None:
            terminations[outcome.termination] += 1
            winners[outcome.winner or "draw"] += 1
            turns[state.turn] += 1
    elapsed = time.perf_counter() - started
    total = sum(terminations.values())
    print(f"{args.games} random games to turn {args.end_turn}: {total} finished, {len(crashes)} crashes, "
          f"{len(dead_ends)} dead ends; {args.games / elapsed:.1f} games/s, {decisions / max(total, 1):.0f} decisions/game")
    for name, count in terminations.most_common():
        print(f"  {name:22s} {count:6d}  {100 * count / max(total, 1):5.1f}%")
    print("  winners: " + ", ".join(f"{k} {v}" for k, v in winners.most_common()))
    print("  last turn reached: " + ", ".join(f"{t}: {n}" for t, n in sorted(turns.items())))
    for seed, trace in crashes[:3]:
        print(f"crash at seed {seed}:\n{trace}")
    if dead_ends:
        print(f"dead ends at seeds {dead_ends[:10]}")
    return 1 if crashes or dead_ends else 0


if __name__ == "__main__":
    sys.exit(main())
