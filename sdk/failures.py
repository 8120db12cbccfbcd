"""How a bot's own failure is named in one line (file:line of the bot's code): shared by the
referee's in-process seats and the SDK's client (:mod:`standoff.server.bot_failures`)."""

from ..server.bot_failures import BotFailed, failure_line, where

__all__ = ["BotFailed", "failure_line", "where"]
