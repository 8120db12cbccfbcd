"""A bot whose process dies mid-match, for the tests of a worker's death (issue 44): loaded
through $STANDOFF_PLUGINS (so that tournament worker processes find it too), trusted (it runs in
the worker's process)."""

from __future__ import annotations

import os
import signal

from standoff.bots.random_bot import RandomBot
from standoff.server.plugins import BotSpec, hookimpl

#: The decision of each match at which the bot kills its process.
DIES_AT = 12


class Dier(RandomBot):
    """Plays like ``random`` (from its seed), and at its twelfth decision of every match sends
    its own process SIGKILL, as the out-of-memory killer would: no goodbye, nothing flushed. Each
    attempt at the match dies at the same decision."""

    name = "dier"

    def start(self, match):
        super().start(match)
        self.calls = 0

    def choose(self, decision, view):
        self.calls += 1
        if self.calls == DIES_AT:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(decision, view)


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(Dier, trusted=True)]
