"""The plugin's entry point (group ``standoff.bots``): the game Goofspiel and its bot."""

from __future__ import annotations

from standoff.sdk import BotSpec, GameSpec, hookimpl

from .boards import seat_board, state_board
from .bot import GreedyBot
from .codec import CODEC
from .rules import Goofspiel

GAME = Goofspiel()


@hookimpl
def standoff_games():
    return [GameSpec(GAME, codec=CODEC, seat_board=seat_board, state_board=state_board)]


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(GreedyBot)]
