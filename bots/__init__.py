"""Built-in bots."""

from __future__ import annotations

from ..sdk.bot import Bot
from .random_bot import RandomBot

BUILTIN_BOTS: dict[str, type[Bot]] = {
    RandomBot.name: RandomBot,
}

__all__ = ["BUILTIN_BOTS", "RandomBot"]
