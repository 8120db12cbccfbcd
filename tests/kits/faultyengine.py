"""A simulated engine bug, for the tests of "errors are never results".

Importing this module (as a test does, or as a worker process does through ``$STANDOFF_PLUGINS``)
patches the built-in Schotten Totten engine so that playing the troop ``red-1`` within the first
:data:`BEFORE` decisions raises: some matches of a tournament hit it, others do not. In-process
tests call ``install()`` and ``restore()`` around themselves."""

from __future__ import annotations

from standoff.sdk.bot import Bot
from standoff.server.games.schotten_totten.game import SchottenTotten
from standoff.server.plugins import BotSpec, hookimpl

BEFORE = 30
TRIGGER = "card:red-1"
_original = SchottenTotten.apply


class EngineBug(RuntimeError):
    pass


def _apply(self, state, option):
    if option.key == TRIGGER and state.number < BEFORE:
        raise EngineBug(f"simulated engine bug: {TRIGGER} at decision {state.number}")
    return _original(self, state, option)


def install() -> None:
    SchottenTotten.apply = _apply


def restore() -> None:
    SchottenTotten.apply = _original


install()  # as a $STANDOFF_PLUGINS module: the bug is in from the import on


class Idle(Bot):
    """Plays the first option (the module must provide a hook to load as a plugin)."""

    name = "idle"

    def choose(self, decision, view):
        return 0


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(Idle, trusted=True)]
