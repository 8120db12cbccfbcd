"""What a bot author subclasses.

A bot sees a match only through :meth:`Bot.choose`: the pending decision (its step, prompt and
ordered options) and the *view* of its role, never the referee's state. It answers with the index
of an option. A bot is deterministic given its seed: use ``self.rng`` for every random choice.
"""

from __future__ import annotations

import random
from typing import Any


class Bot:
    """Base class of every bot, built-in or third-party.

    Subclasses set ``name`` and ``games`` (the games they play; empty means every game) and
    override :meth:`choose`. ``start`` and ``end`` are optional hooks.
    """

    name: str = "bot"
    games: tuple[str, ...] = ()

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def start(self, game: str, role: str, ruleset: str, options: dict[str, str]) -> None:
        """A match begins: ``role`` is this bot's seat."""

    def choose(self, decision: Any, view: Any) -> int:
        """Return the index of one of ``decision.options``."""
        raise TypeError(f"{type(self).__name__} must define choose(decision, view)")

    def end(self, outcome: Any) -> None:
        """The match is over."""

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games
