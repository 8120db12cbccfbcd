"""The ``standoff`` command line.

Every user error (unknown game, bot, ruleset or option, unreadable record) is one clear line on
stderr and exit status 2; nothing is half-written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..bots import BUILTIN_BOTS
from .core.game import CHANCE, RulesError
from .core.record import ReplayError, replay_steps
from .core.seeds import derive_seed
from .games import GAMES, get_game
from .local import BadChoice, bot_seed, play_match
from .records import RecordWriter, read_record


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {pair!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def _make_bot(name: str, game: str, seed: int):
    cls = BUILTIN_BOTS.get(name)
    if cls is None:
        raise UsageError(f"unknown bot {name!r} (known: {', '.join(sorted(BUILTIN_BOTS))})")
    bot = cls(seed)
    if not bot.plays(game):
        raise UsageError(f"bot {name!r} does not play {game} (it plays {', '.join(bot.games)})")
    return bot


def cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    rules = game.rules(args.ruleset, _parse_options(args.option))
    roles = rules.roles
    if len(args.bot) != len(roles):
        raise UsageError(
            f"{game.name} ({rules.ruleset}) needs {len(roles)} bots, one per role "
            f"({', '.join(roles)}); got {len(args.bot)}"
        )
    seed = args.seed if args.seed is not None else derive_seed("play", game.name)
    bots = {role: _make_bot(name, game.name, bot_seed(seed, role)) for role, name in zip(roles, args.bot)}
    names = dict(zip(roles, args.bot, strict=True))
    writer = RecordWriter(args.record) if args.record else None
    try:
        result = play_match(
            game, rules, bots, seed, bot_names=names, on_line=writer.write if writer else None
        )
    finally:
        if writer is not None:
            writer.close()
    outcome = result.outcome
    matchup = " vs ".join(f"{role} {names[role]}" for role in roles)
    print(f"{game.name} ({rules.ruleset}) seed {seed}: {matchup}")
    if outcome.winner is None:
        print(f"draw by {outcome.termination}: {outcome.reason}")
    else:
        print(f"{outcome.winner} ({names[outcome.winner]}) wins by {outcome.termination}: {outcome.reason}")
    print(f"{len(result.record.moves)} decisions")
    if args.record:
        print(f"record: {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.record)
    except OSError as exc:
        raise UsageError(f"cannot read {args.record}: {exc.strerror or exc}") from None
    game = get_game(record.header.get("game", "?"))
    render = getattr(game, "render", None)
    header = record.header
    roles = header.get("roles", {})
    print(
        f"{game.name} ({header.get('ruleset')}) seed {header.get('seed')}: "
        + " vs ".join(f"{role} {bot}" for role, bot in roles.items())
    )
    state = None
    for step in replay_steps(game, record):
        state = step.state
        d = step.decision
        line = f"[{step.number}] {d.role} {d.step} ({len(d.options)} options) -> {step.option.key}"
        think = record.moves[step.number - 1].get("think_ms")
        if think is not None and d.role != CHANCE:
            line += f"  ({think} ms)"
        print(line)
        if render is not None and not args.quiet:
            print(render(state))
    outcome = game.outcome(state) if state is not None else None
    footer = record.footer or {}
    if outcome is not None:
        who = f"{outcome.winner} wins" if outcome.winner else "draw"
        print(f"{who} by {outcome.termination}: {outcome.reason}")
        if footer and (footer.get("winner"), footer.get("termination")) != (
            outcome.winner,
            outcome.termination,
        ):
            raise ReplayError("the replayed outcome differs from the record's outcome line")
    elif footer:
        print(f"stopped by the referee: {footer.get('termination')}: {footer.get('reason')}")
    else:
        print("the record ends before the match is over")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="standoff", description="Standoff: a referee for card-game bots.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play one match in-process and print its outcome")
    play.add_argument("game", help=f"one of: {', '.join(sorted(GAMES))}")
    play.add_argument("--bot", action="append", default=[], metavar="NAME", help="one per role, in role order")
    play.add_argument("--seed", type=int, default=None, help="match seed (chance and bots derive from it)")
    play.add_argument("--ruleset", default=None)
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    play.add_argument("--record", default=None, metavar="PATH", help="write the match record (JSONL)")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="re-apply a record and print every step")
    rep.add_argument("record", metavar="RECORD")
    rep.add_argument("--quiet", action="store_true", help="steps only, no board after each")
    rep.set_defaults(func=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (UsageError, RulesError, ReplayError, BadChoice) as exc:
        print(f"standoff: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `standoff replay x | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
