"""Golden playthroughs: readable text of whole matches for a few seeds, kept in tests/golden/.
A rules change shows up as a diff of these files.

    python scripts/golden.py          # regenerate
    python scripts/golden.py --check  # exit 1 if a file differs (the test suite runs this)

Each file: the match header, one line per decision (number, role, step, chosen key, how many
options there were), the table every 50 decisions and at the end, and the outcome. Bots are the
built-in random bot; chance is sampled from the seed as the referee does.
"""

from __future__ import annotations

import argparse
import difflib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CASES = [
    ("schotten-totten", "battle_line", {}, 3),
    ("schotten-totten", "classic", {}, 4),
    # Random Twilight Struggle games rarely last: seeds chosen to reach turn 10 (final scoring),
    # turn 7 (ended by the Cuban Missile Crisis) and a DEFCON end in turn 2.
    ("twilight-struggle", "deluxe", {}, 2),
    ("twilight-struggle", "deluxe", {}, 487),
    ("twilight-struggle", "deluxe", {}, 1),
]


def playthrough(game_name: str, ruleset: str, options: dict, seed: int) -> str:
    from standoff.bots.random_bot import RandomBot
    from standoff.server.core.record import replay_steps
    from standoff.server.games import get_game
    from standoff.server.local import bot_seed, play_match

    game = get_game(game_name)
    rules = game.rules(ruleset, options)
    bots = {role: RandomBot(bot_seed(seed, role)) for role in rules.roles}
    result = play_match(game, rules, bots, seed, timing=False)
    lines = [f"{game.name} ({rules.ruleset}) {dict(rules.options)} seed {seed}: random bots", ""]
    for step in replay_steps(game, result.record):
        d = step.decision
        lines.append(f"{step.number:5d} {d.role:7s} {d.step:22s} {step.option.key}  ({len(d.options)} options)")
        if step.number % 50 == 0 or game.outcome(step.state) is not None:
            lines.append(game.render(step.state))
    outcome = result.outcome
    lines.append(f"outcome: {outcome.winner or 'draw'} by {outcome.termination}: {outcome.reason}")
    return "\n".join(lines) + "\n"


def path_of(game_name: str, ruleset: str, seed: int) -> pathlib.Path:
    return GOLDEN / f"{game_name}-{ruleset}-seed{seed}.txt"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    failed = False
    for game_name, ruleset, options, seed in CASES:
        text = playthrough(game_name, ruleset, options, seed)
        path = path_of(game_name, ruleset, seed)
        if args.check:
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            if old != text:
                failed = True
                diff = difflib.unified_diff(old.splitlines(), text.splitlines(), str(path), "now", lineterm="", n=1)
                print("\n".join(list(diff)[:40]))
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
