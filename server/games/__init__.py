"""The built-in games' rules objects, by name. Pure rules: no I/O.

Everything that looks a game up by name (the wire, the SDK, replays, reports, tournaments) goes
through the plugin registry (:mod:`standoff.server.plugins`), where these games are registered
as default plugins, with their view codecs and text boards, beside the installed game plugins.
``GAMES`` and :func:`get_game` are for code that wants a built-in game's rules directly (bots
and tests of that game)."""

from __future__ import annotations

from ..core.game import Game, RulesError
from .schotten_totten import SchottenTotten
from .twilight_struggle import TwilightStruggle

GAMES: dict[str, Game] = {
    SchottenTotten.name: SchottenTotten(),
    TwilightStruggle.name: TwilightStruggle(),
}


def get_game(name: str) -> Game:
    """The game called ``name``; raises :class:`RulesError` naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None


# The built-in games' position formats, registered for records that start from a position.
from . import positions as _positions  # noqa: E402,F401
