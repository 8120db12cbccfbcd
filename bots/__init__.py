"""Built-in bots."""

from __future__ import annotations

from ..sdk.bot import Bot
from .greedy import GreedyBot
from .ismcts import IsmctsBot
from .probability import ProbabilityBot
from .random_bot import RandomBot
from .ts_heuristic import TSHeuristicBot
from .ts_search import TSSearchBot

BUILTIN_BOTS: dict[str, type[Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    ProbabilityBot.name: ProbabilityBot,
    IsmctsBot.name: IsmctsBot,
    TSHeuristicBot.name: TSHeuristicBot,
    TSSearchBot.name: TSSearchBot,
}

__all__ = ["BUILTIN_BOTS", "GreedyBot", "IsmctsBot", "ProbabilityBot", "RandomBot", "TSHeuristicBot", "TSSearchBot"]
