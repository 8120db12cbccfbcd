"""The plugin module (``STANDOFF_PLUGINS=standoff_ts_heuristic_v1.plugin``): bot ``ts-heuristic-v1``."""

from __future__ import annotations

from standoff.sdk import BotSpec, hookimpl

from .bot import TSHeuristicBot


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(TSHeuristicBot)]
