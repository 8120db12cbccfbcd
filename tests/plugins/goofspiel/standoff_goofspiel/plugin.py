"""The plugin's entry point (group ``standoff.bots``): the game Goofspiel (with its position format
and text form) and its bot."""

from __future__ import annotations

from standoff.sdk import BotSpec, GameSpec, hookimpl
from standoff.sdk.positions import Notation, PositionFormat

from . import position
from .boards import seat_board, state_board
from .bot import GreedyBot
from .codec import CODEC
from .rules import Goofspiel, GoofspielState

GAME = Goofspiel()


@hookimpl
def standoff_games():
    return [GameSpec(
        GAME, codec=CODEC, seat_board=seat_board, state_board=state_board,
        positions=PositionFormat(write=position.to_position, read=position.from_position, state_type=GoofspielState),
        notation=Notation(write=position.write, parse=position.parse, recognizes=position.recognizes),
    )]


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(GreedyBot)]
