"""Built-in bots."""

from __future__ import annotations

from ..sdk.bot import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

BUILTIN_BOTS: dict[str, type[Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
}

__all__ = ["BUILTIN_BOTS", "GreedyBot", "RandomBot"]
