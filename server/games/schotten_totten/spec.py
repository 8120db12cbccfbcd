"""Schotten Totten as the registry sees it: the rules object and every optional part the game
brings (:class:`~standoff.server.specs.GameSpec`). The one place that assembles them."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .game import SchottenTotten

if TYPE_CHECKING:
    from ...core.position import Notation, PositionFormat
    from ...forward_model import ForwardModel
    from ...specs import GameSpec

#: The rules object (one per process: every spec and table shares it).
GAME = SchottenTotten()


#: Where people read the rules (the rulesets: ``battle_line`` the default, ``classic`` the
#: 54-card Schotten Totten).
RULES_LINKS = (
    ("Battle Line (BoardGameGeek)", "https://boardgamegeek.com/boardgame/760/battle-line"),
    ("Schotten Totten (BoardGameGeek)", "https://boardgamegeek.com/boardgame/372/schotten-totten"),
)


def codec() -> Any:
    """The game's view codec (protobuf: imported on first use, outside the engine's imports)."""
    from .codec import CODEC

    return CODEC


def forward_model() -> ForwardModel:
    """The game's forward model for search bots (its own module: loaded on first use)."""
    from .belief import FORWARD_MODEL

    return FORWARD_MODEL


def positions() -> PositionFormat:
    """The game's position format: its states as positions and back, and their JSON Schema."""
    from ...core.position import PositionFormat
    from . import position, position_schema
    from .state import STState

    return PositionFormat(write=position.to_position, read=position.from_position, state_type=STState,
                          schema=position_schema.schema, stops=position.stops)


def notation() -> Notation:
    """The game's text form of positions."""
    from ...core.position import Notation
    from . import notation as text

    return Notation(write=text.write, parse=text.parse, recognizes=text.recognizes)


def game_spec(distribution: str) -> GameSpec:
    """The spec the registry enters for the game, credited to ``distribution``."""
    from ...specs import GameSpec  # the registry's (not pure: kept out of the engine's imports)
    from . import text
    from .html_board import html_board
    from .rl import RL
    from .story import STStory

    return GameSpec(
        GAME,
        codec=codec(),
        seat_board=text.seat_board,
        state_board=functools.partial(text.table_board, GAME),
        html_board=html_board(GAME),
        rl=RL,
        notation=notation(),
        positions=positions(),
        forward_model=forward_model(),
        rules_links=RULES_LINKS,
        story=STStory,
        distribution=distribution,
    )
