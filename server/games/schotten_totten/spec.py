"""Schotten Totten as the registry sees it: the rules object and every optional part the game
brings (:class:`~standoff.server.specs.GameSpec`). The one place that assembles them."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .game import SchottenTotten

if TYPE_CHECKING:
    from ...specs import GameSpec

#: The rules object (one per process: every spec and table shares it).
GAME = SchottenTotten()


def codec() -> Any:
    """The game's view codec (protobuf: imported on first use, outside the engine's imports)."""
    from .codec import CODEC

    return CODEC


def game_spec(distribution: str) -> GameSpec:
    """The spec the registry enters for the game, credited to ``distribution``."""
    from ...specs import GameSpec  # the registry's (not pure: kept out of the engine's imports)
    from . import text
    from .html_board import html_board

    return GameSpec(
        GAME,
        codec=codec(),
        seat_board=text.seat_board,
        state_board=functools.partial(text.table_board, GAME),
        html_board=html_board(GAME),
        distribution=distribution,
    )
