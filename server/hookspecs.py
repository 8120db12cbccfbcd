"""The hooks a standoff plugin may implement (pluggy project ``"standoff"``).

A plugin is a module (or any object) with functions marked ``@hookimpl`` whose names are hooks
specified here. Installed plugins are found through the ``standoff.bots`` entry-point group:

.. code-block:: toml

    # pyproject.toml of your distribution
    [project.entry-points."standoff.bots"]
    mybot = "my_package.standoff_plugin"

.. code-block:: python

    # my_package/standoff_plugin.py
    from standoff.sdk import Bot, BotSpec, hookimpl

    class MyBot(Bot):
        \"\"\"Plays the first option, always.\"\"\"
        name = "mybot"
        games = ("my-game",)

        def choose(self, decision, view):
            return 0

    @hookimpl
    def standoff_bots():
        return [BotSpec.from_class(MyBot)]

A game plugin returns its games from ``standoff_games()`` the same way (``docs/games.md``).

``standoff bots`` lists every bot found and every plugin that was skipped, and why. A plugin that
fails to import, raises in a hook, returns something else than a list of the documented type, or
reuses a name already taken (built-ins are registered first and always win) is skipped and
reported; it never stops the others from loading. Hooks take no arguments and are called once,
when the registry is loaded.

Bots of installed plugins are *untrusted*: the referee runs them in a subprocess bot runner, not
in its own process, whatever their spec says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

from .specs import PROJECT, hookimpl

if TYPE_CHECKING:
    from .specs import BotSpec, GameSpec
    from .core.game import Game

__all__ = ["PROJECT", "hookimpl", "hookspec", "standoff_bots", "standoff_games"]

hookspec = pluggy.HookspecMarker(PROJECT)


@hookspec
def standoff_bots() -> list[BotSpec]:
    """Return the bots this plugin provides, as a list of :class:`~standoff.sdk.BotSpec`.

    The usual spec is ``BotSpec.from_class(MyBot)``, which takes the name and games from the
    class attributes and the description from the first line of its docstring; any callable
    ``factory(seed) -> Bot`` works. Bot names are global: a name already taken is skipped with a
    problem report. ``distribution`` is filled in by the loader, and ``trusted`` is forced to
    ``False`` for installed plugins.
    """


@hookspec
def standoff_games() -> list[GameSpec | Game]:
    """Return the games this plugin provides, each as a :class:`~standoff.sdk.GameSpec`: the
    rules object (the :class:`~standoff.server.core.game.Game` protocol: ``name``,
    ``rules_version``, ``rulesets``, ``rules``, ``new_state``, ``decision``, ``apply``, ``view``,
    ``outcome``; optional methods: :class:`~standoff.sdk.GameCapabilities`) together with its view
    codec and its text boards, which the wire, the SDK, replays and reports look up by the game's
    name. A bare game object is accepted too: it gets the generic codec (JSON) and boards.

    Game names are global: a name already taken (the built-in games come first) is skipped with a
    problem report. Games are rules code and always run inside the referee.
    """
