"""Misbehaving bots for tournament tests, loaded through $STANDOFF_PLUGINS (so that the worker
processes find them too). Declared trusted: they run in-process in the workers."""

from __future__ import annotations

import time

from standoff.sdk.bot import Bot
from standoff.server.plugins import BotSpec, hookimpl


class Crasher(Bot):
    """Raises at its third decision."""

    name = "crasher"

    def start(self, match):
        super().start(match)
        self.calls = 0

    def choose(self, decision, view):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("crasher crashed")
        return 0


class Hanger(Bot):
    """Never answers its second decision."""

    name = "hanger"

    def start(self, match):
        super().start(match)
        self.calls = 0

    def choose(self, decision, view):
        self.calls += 1
        if self.calls == 2:
            time.sleep(3600)
        return 0


class Liar(Bot):
    """Answers an index that does not exist, at its first decision."""

    name = "liar"
    uses_view = False

    def choose(self, decision, view):
        return len(decision.options) + 7


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(cls, trusted=True) for cls in (Crasher, Hanger, Liar)]
