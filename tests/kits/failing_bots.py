"""Third-party bots that fail in their own code, loaded through $STANDOFF_PLUGINS: untrusted (the
referee runs them in a ``standoff bot run`` subprocess; ``standoff play`` only with --trust).
``raiser`` raises at its second decision from a helper of its own, whose call into the standard
library is the innermost frame: its location must be the bot's line, not the library's.
``liar`` answers an index that does not exist at its first decision; ``vanisher`` kills its own
process (SIGKILL, as a sandbox limit or the OOM killer would) at its first decision: only ever
run in a subprocess."""

from __future__ import annotations

import os
import random
import signal

from standoff.sdk.bot import Bot
from standoff.server.plugins import BotSpec, hookimpl


def _pick(options):
    return random.choice(options[:0])  # RAISER_LINE: IndexError from the standard library


class Raiser(Bot):
    """Raises IndexError at its second decision."""

    name = "raiser"

    def start(self, match):
        super().start(match)
        self.calls = 0

    def choose(self, decision, view):
        self.calls += 1
        if self.calls == 2:
            return _pick(decision.options)
        return 0


class Liar(Bot):
    """Answers an option index that does not exist, at its first decision."""

    name = "liar"

    def choose(self, decision, view):
        return len(decision.options) + 7


class Vanisher(Bot):
    """Kills its own process at its first decision."""

    name = "vanisher"

    def choose(self, decision, view):
        os.kill(os.getpid(), signal.SIGKILL)


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(cls) for cls in (Raiser, Liar, Vanisher)]
