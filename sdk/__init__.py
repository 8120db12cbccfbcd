"""The Standoff SDK: what a bot author imports, and what a plugin author needs to register bots
and games (``hookimpl``, ``BotSpec``, ``GameSpec``, the view codecs) without importing from
``standoff.server``."""

from .bot import Bot
from .plugin import BotSpec, GameCapabilities, GameSpec, capability, hookimpl
from .types import Decision, MatchInfo, MatchResult, Option
from .views import JsonViewCodec, MessageViewCodec, ViewCodec, as_dict

__all__ = [
    "Bot",
    "BotSpec",
    "Decision",
    "GameCapabilities",
    "GameSpec",
    "JsonViewCodec",
    "MatchInfo",
    "MatchResult",
    "MessageViewCodec",
    "Option",
    "ViewCodec",
    "as_dict",
    "capability",
    "hookimpl",
]
