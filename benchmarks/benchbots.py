"""A second uniformly random bot, so that a benchmark tournament can be random vs random
(entrants must be distinct). Loaded through $STANDOFF_PLUGINS by bench_tournament.py."""

from standoff.bots.random_bot import RandomBot
from standoff.server.plugins import BotSpec, hookimpl


class RandomTwin(RandomBot):
    """Chooses uniformly among the options (a twin of `random`)."""

    name = "random-twin"


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(RandomTwin, trusted=True)]
