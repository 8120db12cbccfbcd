"""``goofspiel-greedy``: bids the smallest card that still matches the prize."""

from __future__ import annotations

from standoff.sdk import Bot, as_dict


class GreedyBot(Bot):
    """Bids the smallest card at least as high as the prize, else its smallest card."""

    name = "goofspiel-greedy"
    games = ("goofspiel",)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.typed_views = 0  # views received as this plugin's own message (not a dict)

    def choose(self, decision, view) -> int:
        if not isinstance(view, dict):
            self.typed_views += 1
        state = as_dict(view)  # the plugin's message or the JSON dict: the same dict
        prize = state["prize"] or 0
        cards = [int(key.split(":")[1]) for key in decision.keys()]
        high_enough = [c for c in cards if c >= prize]
        return cards.index(min(high_enough) if high_enough else min(cards))
