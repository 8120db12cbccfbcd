"""Twilight Struggle (Deluxe edition): the map, 110 cards and the turn sequence."""

from .game import TwilightStruggle
from .rules import TSRules, make_rules
from .state import TSState

__all__ = ["TSRules", "TSState", "TwilightStruggle", "make_rules"]
