"""The built-in games' rules objects, by name. Pure rules: no I/O.

Everything that looks a game up by name (the wire, the SDK, replays, reports, tournaments) goes
through the plugin registry (:mod:`standoff.server.plugins`), where these games are registered
as default plugins, with every part their packages bring (``<game>/spec.py``), beside the
installed game plugins.
``GAMES`` and :func:`get_game` are for code that wants a built-in game's rules directly (bots
and tests of that game)."""

from __future__ import annotations

from ..core.game import Game, RulesError
from ..core.position import LOADERS
from .schotten_totten import spec as _schotten_totten
from .twilight_struggle import spec as _twilight_struggle

#: The built-in games' ``spec`` modules, in the order the registry lists them: each assembles
#: its game's :class:`~standoff.server.specs.GameSpec` from the parts in the game's package.
#: The only place outside a game's own package that names it.
BUILTIN = (_schotten_totten, _twilight_struggle)

GAMES: dict[str, Game] = {module.GAME.name: module.GAME for module in BUILTIN}


def builtin_specs(distribution: str) -> tuple:
    """The built-in games' :class:`~standoff.server.specs.GameSpec` objects, credited to
    ``distribution``."""
    return tuple(module.game_spec(distribution) for module in BUILTIN)


def builtin_codecs() -> tuple:
    """The built-in games' view codecs (:mod:`standoff.server.codec_table` enters them)."""
    return tuple(module.codec() for module in BUILTIN)


def get_game(name: str) -> Game:
    """The game called ``name``; raises :class:`RulesError` naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None


# Records that start from a position load it through server.core (record.start_state), which
# knows no registry: the built-in games' position readers are entered by name here.
LOADERS.update({module.GAME.name: module.positions().read for module in BUILTIN})
