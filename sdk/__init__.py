"""The Standoff SDK: what a bot author imports."""

from .bot import Bot
from .types import Decision, MatchInfo, MatchResult, Option

__all__ = ["Bot", "Decision", "MatchInfo", "MatchResult", "Option"]
