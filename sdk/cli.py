"""The SDK's command: ``standoff bot run NAME``, a plugin bot playing on a referee server as a
client (:func:`standoff.sdk.client.run`). Added to the ``standoff`` command by
:mod:`standoff.tournaments.cli`."""

from __future__ import annotations

import argparse
import os
import sys

from ..server import cli as server_cli
from ..server.cli_common import DEFAULT_ADDRESS, UsageError
from ..server.cli_common import plugin_registry as _registry


def add_commands(sub) -> None:
    """``bot run``, on the ``standoff`` command's subparsers."""
    bot = sub.add_parser("bot", help="run a plugin bot as a client of a referee server")
    bot.add_argument("action", choices=["run"])
    bot.add_argument("name")
    bot.add_argument("--address", default=DEFAULT_ADDRESS)
    bot.add_argument("--token", default=None, help="default $STANDOFF_TOKEN")
    bot.add_argument("--matches", type=int, default=0, help="stop after this many matches (0 = never)")
    bot.add_argument("--concurrency", type=server_cli.positive, default=1,
                     help="matches played at once, each seat with a bot object of its own (default 1)")
    bot.set_defaults(func=cmd_bot_run)


def cmd_bot_run(args: argparse.Namespace) -> int:
    """Play a plugin bot on a server. The bot's own exception is its failure, not ours: its
    traceback, then one line naming the bot, the match and its file:line (the last line on
    stderr: a referee that started this runner reads it), exit status
    :data:`~standoff.server.cli.BOT_FAILED`."""
    from ..server.bot_failures import BotFailed
    from ..server.core.seeds import derive_seed
    from .client import SessionError, run

    registry = _registry()
    seed = derive_seed("runner", args.name)
    server_cli.make_bot(registry, args.name, "", seed)  # an unknown name is one line now, not at the first match

    def bot():  # a bot object per seat: no state shared between matches (Bot.start reseeds it)
        return server_cli.make_bot(registry, args.name, "", seed)

    token = args.token or os.environ.get("STANDOFF_TOKEN")

    def ended(result) -> None:  # each match as it ends, not all at the end
        who = f"{result.winner} wins" if result.winner else ("draw" if result.rated else "no result")
        print(f"{result.match_id} ({result.role}): {who} by {result.termination}", flush=True)

    try:
        run(bot, args.address, token, matches=args.matches, on_result=ended, concurrency=args.concurrency)
    except SessionError as exc:
        raise UsageError(f"session refused: {exc}") from None
    except BotFailed as exc:
        _bot_failed(exc)
        return server_cli.BOT_FAILED
    return 0


def _bot_failed(exc: Exception) -> None:
    """The bot's exception's traceback, then the one line, on stderr."""
    import traceback

    cause = exc.__cause__ or exc
    traceback.print_exception(type(cause), cause, cause.__traceback__, file=sys.stderr)
    print(f"standoff: error: {exc}", file=sys.stderr, flush=True)


if __name__ == "__main__":  # the bot runner the referee starts: `python -m standoff.sdk.cli bot run NAME ...`
    sys.exit(server_cli.main(client_commands=add_commands))
