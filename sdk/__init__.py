"""The Standoff SDK: what a bot author imports, and what a plugin author needs to register bots
and games (``hookimpl``, ``BotSpec``, ``GameSpec``, the view codecs) without importing from
``standoff.server``.

The names below are imported on first use (PEP 562), so that importing one module of the SDK
(``standoff bot run``'s command line, ``standoff.sdk.cli``) loads no engine module before the
command has checked the compiled engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each name the SDK exports, and its module.
_EXPORTS = {
    "Bot": "bot",
    "BotSpec": "plugin",
    "Decision": "types",
    "GameCapabilities": "plugin",
    "GameSpec": "plugin",
    "JsonViewCodec": "views",
    "MatchInfo": "types",
    "MatchResult": "types",
    "MessageViewCodec": "views",
    "Option": "types",
    "ViewCodec": "views",
    "as_dict": "views",
    "capability": "plugin",
    "hookimpl": "plugin",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: later reads do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from .bot import Bot
    from .plugin import BotSpec, GameCapabilities, GameSpec, capability, hookimpl
    from .types import Decision, MatchInfo, MatchResult, Option
    from .views import JsonViewCodec, MessageViewCodec, ViewCodec, as_dict
