"""``random``: chooses uniformly among the options. The baseline every bot must beat."""

from __future__ import annotations

from typing import Any

from ..sdk.bot import Bot


class RandomBot(Bot):
    name = "random"
    games = ()  # every game
    uses_view = False  # in-process runners may skip building views for it
    quick = True  # a microsecond a decision: the referee asks it inline, not in a worker thread

    def choose(self, decision: Any, view: Any) -> int:
        return self.rng.randrange(len(decision.options))
