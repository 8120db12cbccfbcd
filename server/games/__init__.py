"""The games the referee knows, by name. Pure rules: no I/O."""

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
