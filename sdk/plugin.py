"""What a plugin author imports (all of it re-exported by :mod:`standoff.sdk`): the hook marker,
the specs a plugin returns from its hooks, and the optional capabilities of a game::

    from standoff.sdk import BotSpec, GameSpec, hookimpl

    @hookimpl
    def standoff_games():
        return [GameSpec(MyGame(), codec=..., seat_board=..., state_board=...)]

    @hookimpl
    def standoff_bots():
        return [BotSpec.from_class(MyBot)]

The specs are the referee's own (:mod:`standoff.server.specs`, beside the hook specifications in
:mod:`standoff.server.hookspecs`); ``docs/games.md`` walks through a whole game plugin.
"""

from ..server.codec_table import add_discovery
from ..server.plugins import register_builtin_codecs
from ..server.specs import (
    CAPABILITIES,
    ENTRY_POINT_GROUP,
    PROJECT,
    BotSpec,
    GameCapabilities,
    GameSpec,
    capability,
    discover_installed_games,
    hookimpl,
)

__all__ = [
    "CAPABILITIES",
    "ENTRY_POINT_GROUP",
    "PROJECT",
    "BotSpec",
    "GameCapabilities",
    "GameSpec",
    "capability",
    "discover_installed_games",
    "hookimpl",
]


# A bot's process decodes the built-in games' views and the installed plugins' without loading
# any registry: the first view of a game it has no codec for looks here.
add_discovery(register_builtin_codecs)
add_discovery(discover_installed_games)
