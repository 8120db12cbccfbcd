"""Schotten Totten with Battle Line's rules (default) and the classic 54-card ruleset."""

from .game import SchottenTotten
from .rules import STRules, make_rules
from .state import STState

__all__ = ["STRules", "STState", "SchottenTotten", "make_rules"]
