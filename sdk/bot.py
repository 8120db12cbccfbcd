"""What a bot author subclasses.

A bot sees a match only through :meth:`Bot.choose`: the pending decision (its step, prompt and
ordered options) and the typed *view* of its seat, decoded from the wire; never the referee's
state. It answers with the index of an option. A bot is deterministic given its seed: use
``self.rng`` for every random choice.

    from standoff.sdk import Bot, run

    class First(Bot):
        name = "first"
        def choose(self, decision, view):
            return 0

    run(First(), "127.0.0.1:50051", token="...")
"""

from __future__ import annotations

import random
from typing import Any

from .types import Decision, MatchInfo, MatchResult


class Bot:
    """Base class of every bot, built-in or third-party.

    Subclasses set ``name`` and ``games`` (the games they play; empty means every game) and
    override :meth:`choose`. ``start`` and ``end`` are optional hooks. ``uses_view = False`` lets
    in-process runners skip building views for bots that never read them.
    """

    name: str = "bot"
    version: str = "0"
    games: tuple[str, ...] = ()
    uses_view: bool = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def start(self, match: MatchInfo) -> None:
        """A match begins; ``match.role`` is this bot's seat. Reseeds ``self.rng`` from the
        match's bot seed so that a match is reproducible from its seed."""
        self.rng = random.Random(match.seed)

    def choose(self, decision: Decision, view: Any) -> int:
        """Return the index of one of ``decision.options``."""
        raise TypeError(f"{type(self).__name__} must define choose(decision, view)")

    def end(self, result: MatchResult) -> None:
        """The match is over."""

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games
