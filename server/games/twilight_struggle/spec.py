"""Twilight Struggle as the registry sees it: the rules object and every optional part the game
brings (:class:`~standoff.server.specs.GameSpec`). The one place that assembles them."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .game import TwilightStruggle

if TYPE_CHECKING:
    from ...specs import GameSpec

#: The rules object (one per process: every spec and table shares it).
GAME = TwilightStruggle()


def codec() -> Any:
    """The game's view codec (protobuf: imported on first use, outside the engine's imports)."""
    from .codec import CODEC

    return CODEC


def forward_model() -> Any:
    """The game's forward model for search bots (its own module: loaded on first use)."""
    from .belief import FORWARD_MODEL

    return FORWARD_MODEL


def game_spec(distribution: str) -> GameSpec:
    """The spec the registry enters for the game, credited to ``distribution``."""
    from ... import boards
    from ...specs import GameSpec  # the registry's (not pure: kept out of the engine's imports)

    return GameSpec(
        GAME,
        codec=codec(),
        seat_board=boards.twilight_struggle_seat,
        state_board=functools.partial(boards.twilight_struggle_table, GAME),
        html_board=True,
        forward_model=forward_model(),
        distribution=distribution,
    )
