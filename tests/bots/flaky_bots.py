"""Built-in bots whose internal model fails once per match, for the fallback tests: loaded through
$STANDOFF_PLUGINS (so that tournament worker processes find them too), trusted (in-process)."""

from __future__ import annotations

from standoff.bots.greedy import GreedyBot
from standoff.server.plugins import BotSpec, hookimpl


class FlakyGreedy(GreedyBot):
    """``greedy`` whose evaluation of a card raises at its third ``play`` decision of each match
    (and only then): greedy falls back to a safe option, once per match."""

    name = "flaky-greedy"
    strict = False

    def start(self, match):
        super().start(match)
        self.plays_seen = 0

    def _play(self, pos, keys):
        self.plays_seen = getattr(self, "plays_seen", 0) + 1
        return super()._play(pos, keys)

    def _evaluate_card(self, pos, card, open_flags):
        if getattr(self, "plays_seen", 0) == 3:
            raise RuntimeError("flaky evaluation")
        return super()._evaluate_card(pos, card, open_flags)


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(FlakyGreedy, trusted=True)]
