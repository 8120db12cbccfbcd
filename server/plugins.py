"""Discovering bots and games: built-ins and installed plugins, through pluggy.

:func:`load_registry` builds a :class:`Registry`. The built-in bots (``standoff.bots.plugin``)
and games (this module) are registered first, as default plugins, then every entry point of the
``standoff.bots`` group. Loading is tolerant: an installed plugin that fails to import, fails
validation, raises in a hook, returns garbage or reuses a taken name is skipped and described in
``Registry.problems`` (naming its distribution and entry point); the others load normally.

Games are registered with their view codec and text boards (:class:`~standoff.sdk.GameSpec`);
every game a registry accepts is also entered in this process's game table, which the wire and
the SDK (view codecs: :func:`standoff.sdk.views.codec_for`), replays and reports
(:func:`game_spec`) look games up in by name. There is no other list of games.

Hooks are specified in :mod:`standoff.server.hookspecs`; plugin authors import ``hookimpl``,
``BotSpec`` and ``GameSpec`` from :mod:`standoff.sdk` (the same objects are importable from here).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.metadata
import os
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pluggy

from .bot import Bot
from .specs import ENTRY_POINT_GROUP, PROJECT, BotSpec, GameSpec, hookimpl
from . import hookspecs
from .codec_table import add_discovery, register_codec
from .codecs import ViewCodec
from .core.game import Game
from .core.position import LOADERS

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "ENTRY_POINT_GROUP",
    "BotSpec",
    "GameSpec",
    "PluginError",
    "Registry",
    "UnknownBot",
    "UnknownGame",
    "UnsupportedGame",
    "find_game_spec",
    "format_bots",
    "format_games",
    "game_spec",
    "hookimpl",
    "load_registry",
]

#: Environment variable naming extra plugin modules to load (comma-separated).
PLUGINS_ENV = "STANDOFF_PLUGINS"
#: ``BotSpec.distribution`` of the bots and games that ship with standoff.
BUILTIN_DISTRIBUTION = "standoff"
#: The module of the built-in bots' plugin (its ``@hookimpl`` functions).
BUILTIN_BOTS_PLUGIN = "standoff.bots.plugin"

#: The methods a game object must have (see :class:`~standoff.server.core.game.Game`).
_GAME_METHODS = ("rules", "new_state", "decision", "apply", "view", "outcome")


class PluginError(Exception):
    """A bot or game cannot be found or made. The message is one line, fit for the user."""


class UnknownBot(PluginError, LookupError):
    """No bot has that name."""


class UnknownGame(PluginError, LookupError):
    """No game has that name."""


class UnsupportedGame(PluginError, ValueError):
    """The bot does not play that game."""


@dataclass
class Registry:
    """Every bot and game found, in registration order (built-ins first), and what was skipped."""

    bots: dict[str, BotSpec] = field(default_factory=dict)
    games: dict[str, Game] = field(default_factory=dict)
    #: Each game's spec (codec, boards), by name: the same keys as ``games``.
    specs: dict[str, GameSpec] = field(default_factory=dict)
    #: One line per skipped plugin, bot or game: ``"<distribution> (entry point <ep>): <error>"``.
    problems: list[str] = field(default_factory=list)
    #: The plugin manager, to call later hooks; ``None`` for a registry built by hand.
    plugin_manager: pluggy.PluginManager | None = field(default=None, repr=False, compare=False)

    def bot(self, name: str) -> BotSpec:
        """The spec of bot ``name``; :class:`UnknownBot` names the known bots."""
        try:
            return self.bots[name]
        except KeyError:
            raise UnknownBot(
                f"unknown bot {name!r} (known: {', '.join(sorted(self.bots)) or 'none'})"
                + self._skipped_hint()
            ) from None

    def game(self, name: str) -> Game:
        """The game ``name``; :class:`UnknownGame` names the known games."""
        try:
            return self.games[name]
        except KeyError:
            raise UnknownGame(
                f"unknown game {name!r} (known: {', '.join(sorted(self.games)) or 'none'})"
                + self._skipped_hint()
            ) from None

    def spec(self, name: str) -> GameSpec:
        """The spec of game ``name`` (a game put in ``games`` by hand gets its bare spec);
        :class:`UnknownGame` names the known games."""
        spec = self.specs.get(name)
        return spec if spec is not None else GameSpec.of(self.game(name))

    def make_bot(self, name: str, seed: int, game: str | None = None) -> Bot:
        """A new bot ``name`` seeded with ``seed``; with a ``game`` (not ``None`` nor ``""``), check
        first that it plays it.

        This only makes the object: whether it may then run in-process is ``bot(name).trusted``.
        """
        spec = self.bot(name)
        if game and not spec.plays(game):
            raise UnsupportedGame(f"bot {name!r} does not play {game} (it plays {', '.join(spec.games)})")
        try:
            bot = spec.factory(seed)
        except Exception as exc:
            raise PluginError(
                f"bot {name!r} (from {spec.distribution or '?'}) failed to start: {_describe(exc)}"
            ) from exc
        if not isinstance(bot, Bot):
            raise PluginError(
                f"bot {name!r} (from {spec.distribution or '?'}): its factory returned "
                f"{_short_repr(bot)}, not a standoff.sdk.Bot"
            )
        return bot

    def _skipped_hint(self) -> str:
        n = len(self.problems)
        if not n:
            return ""
        return f"; {n} plugin problem{'s' if n != 1 else ''}, see `standoff bots`"


# --- the built-in games plugin -----------------------------------------------------------------


@functools.cache
def builtin_game_specs() -> tuple[GameSpec, ...]:
    """The specs of the games that ship with standoff (made once: the same objects every time)."""
    from .games import builtin_specs

    return builtin_specs(BUILTIN_DISTRIBUTION)


def register_builtin_codecs() -> None:
    """Enter the built-in games' view codecs in this process's table (the discovery of a process
    that has not loaded a registry yet: the referee's, and a bot's through the SDK)."""
    from .games import builtin_codecs

    for codec in builtin_codecs():
        register_codec(codec, builtin=True)


add_discovery(register_builtin_codecs)  # a process that has not loaded a registry yet


@hookimpl
def standoff_games() -> list[GameSpec]:
    """The games that ship with standoff."""
    return list(builtin_game_specs())


# --- the process's game table --------------------------------------------------------------------

_SPECS: dict[str, GameSpec] = {}
_MISSED: set[str] = set()  # names a full load_registry() did not find either
_lock = threading.RLock()


def _enter(spec: GameSpec) -> None:
    """Make ``spec`` the game of its name in this process: its codec for the wire and the SDK,
    its boards for replays and reports, its position reader for records that start from a
    position (a later registry's game replaces an earlier one's; built-in games are never
    replaced: registries refuse their names)."""
    with _lock:
        if spec.codec is not None:
            register_codec(spec.codec, builtin=spec.distribution == BUILTIN_DISTRIBUTION)
        _SPECS[spec.name] = spec
        _MISSED.discard(spec.name)
        if spec.positions is not None:  # records that start from a position load it by name
            LOADERS[spec.name] = spec.positions.read
        else:
            LOADERS.pop(spec.name, None)


def find_game_spec(name: str) -> GameSpec | None:
    """The spec of game ``name`` in this process: the games of the registries loaded so far;
    the built-in games; else the installed plugins (a :func:`load_registry` once per unknown
    name). ``None`` if no plugin provides it."""
    spec = _SPECS.get(name)
    if spec is not None:
        return spec
    with _lock:
        if not _SPECS:
            for builtin in builtin_game_specs():
                _enter(builtin)
        if name not in _SPECS and name not in _MISSED:
            load_registry()
            if name not in _SPECS:
                _MISSED.add(name)
        return _SPECS.get(name)


def game_spec(name: str) -> GameSpec:
    """:func:`find_game_spec`, raising :class:`UnknownGame` (naming the known games)."""
    spec = find_game_spec(name)
    if spec is None:
        known = ", ".join(sorted(_SPECS)) or "none"
        raise UnknownGame(f"unknown game {name!r} (known: {known})")
    return spec


# --- loading -----------------------------------------------------------------------------------


@dataclass
class _Source:
    """A registered plugin and how to name it in problem reports."""

    plugin: object
    label: str  # "<distribution> (entry point <name>)", or the distribution for built-ins
    distribution: str
    kind: str  # "builtin", "extra" or "entry point"


def load_registry(*, entry_points: bool = True, extra_plugins: Sequence[object] = ()) -> Registry:
    """Find every bot and game: the built-ins, then ``extra_plugins`` (modules or objects with
    ``@hookimpl`` functions; their specs keep their own ``trusted`` flag), then the installed
    plugins of entry-point group ``standoff.bots`` (unless ``entry_points`` is false).

    Never raises because of a plugin: every installed or extra plugin that cannot be used is
    skipped and described in ``Registry.problems``. Bot and game names are first come, first
    served, so a plugin cannot replace a built-in. Every game accepted is entered in this
    process's game table (:func:`game_spec`, :func:`standoff.sdk.views.codec_for`): a later
    registry's game replaces an earlier one's of the same name.
    """
    # The built-in bots are a plugin like any other, loaded by module name as pytest loads its
    # own plugins: the server imports no package above it (docs/architecture.md, "Layers").
    builtin_bots = importlib.import_module(BUILTIN_BOTS_PLUGIN)

    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    registry = Registry(plugin_manager=pm)
    sources: list[_Source] = []

    def register(plugin: object, name: str | None, source: _Source) -> None:
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # PluginValidationError (bad signature), ValueError (twice)
            registry.problems.append(f"{source.label}: {_describe(exc)}")
            return
        if not pm.get_hookcallers(plugin):
            registry.problems.append(
                f"{source.label}: defines no @hookimpl (expected standoff_bots and/or standoff_games, "
                "marked with standoff.sdk.hookimpl)"
            )
            pm.unregister(plugin)
            return
        sources.append(source)

    # 1. Built-ins: our own code, so a failure here is a bug and propagates.
    pm.register(builtin_bots, name="standoff.bots")
    pm.register(_this_module(), name="standoff.games")
    sources += [
        _Source(builtin_bots, BUILTIN_DISTRIBUTION, BUILTIN_DISTRIBUTION, "builtin"),
        _Source(_this_module(), BUILTIN_DISTRIBUTION, BUILTIN_DISTRIBUTION, "builtin"),
    ]

    # 2. Plugins handed in by the caller, and modules the operator names in $STANDOFF_PLUGINS
    #    (comma-separated, like PYTEST_PLUGINS): these are operator-declared, so their specs keep
    #    their own `trusted` flag; it also reaches worker processes, which inherit the variable.
    extra = list(extra_plugins)
    for module_name in filter(None, (m.strip() for m in os.environ.get(PLUGINS_ENV, "").split(","))):
        try:
            extra.append(importlib.import_module(module_name))
        except Exception as exc:  # noqa: BLE001 - reported like any broken plugin
            registry.problems.append(f"{module_name} (from ${PLUGINS_ENV}): failed to import: {_describe(exc)}")
    for plugin in extra:
        name = getattr(plugin, "__name__", None) or type(plugin).__qualname__
        register(plugin, None, _Source(plugin, f"{name} (extra plugin)", name, "extra"))

    # 3. Installed plugins, one entry point at a time.
    if entry_points:
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            dist = ep.dist.name if ep.dist is not None else "?"
            label = f"{dist} (entry point {ep.name} = {ep.value})"
            if pm.has_plugin(f"{dist}:{ep.name}"):
                continue  # the same distribution found twice on sys.path: the first one counts
            try:
                plugin = ep.load()
            except BaseException as exc:  # a plugin's import may do anything, even sys.exit()
                if isinstance(exc, KeyboardInterrupt):
                    raise
                registry.problems.append(f"{label}: failed to import: {_describe(exc)}")
                continue
            register(plugin, f"{dist}:{ep.name}", _Source(plugin, label, dist, "entry point"))

    # 4. Hook implementations that match no hookspec (a typo, usually): skip that plugin.
    while True:
        try:
            pm.check_pending()
            break
        except pluggy.PluginValidationError as exc:
            source = next((s for s in sources if s.plugin is exc.plugin), None)
            if source is None or source.kind == "builtin":
                raise
            registry.problems.append(f"{source.label}: {_describe(exc)}")
            pm.unregister(exc.plugin)
            sources.remove(source)

    # 5. Call the hooks plugin by plugin, so that one failure only costs that plugin.
    game_sources: dict[str, str] = {}
    for source in sources:
        for item in _call(pm, "standoff_bots", source, registry.problems):
            spec = _check_bot(item, source, registry)
            if spec is not None:
                registry.bots[spec.name] = spec
        for item in _call(pm, "standoff_games", source, registry.problems):
            spec = _check_game(item, source, registry, game_sources)
            if spec is not None:
                registry.games[spec.name] = spec.game
                registry.specs[spec.name] = spec
                game_sources[spec.name] = source.distribution
    for spec in registry.specs.values():
        _enter(spec)
    return registry


def _this_module() -> Any:
    return sys.modules[__name__]


def _call(pm: pluggy.PluginManager, hook: str, source: _Source, problems: list[str]) -> list[Any]:
    """What ``source``'s implementation of ``hook`` returns, as a list; ``[]`` if it has none or
    it failed (the failure is added to ``problems``)."""
    impls = [impl for impl in getattr(pm.hook, hook).get_hookimpls() if impl.plugin is source.plugin]
    items: list[Any] = []
    for impl in impls:
        if impl.hookwrapper or impl.wrapper:
            problems.append(f"{source.label}: {hook}() may not be a hook wrapper")
            continue
        if source.kind == "builtin":
            result = impl.function()  # our own code: a failure is a bug
        else:
            try:
                result = impl.function()
            except Exception as exc:
                problems.append(f"{source.label}: {hook}() raised {_describe(exc)}")
                continue
        if not isinstance(result, (list, tuple)):
            problems.append(f"{source.label}: {hook}() returned {_short_repr(result)}, expected a list")
            continue
        items.extend(result)
    return items


def _check_bot(item: Any, source: _Source, registry: Registry) -> BotSpec | None:
    """``item`` as a valid spec of a new bot name, with distribution and trust set, or ``None``
    (and a problem)."""

    def problem(message: str) -> None:
        registry.problems.append(f"{source.label}: {message}")

    if not isinstance(item, BotSpec):
        problem(f"standoff_bots() returned {_short_repr(item)}, expected a standoff.sdk.BotSpec")
        return None
    if not isinstance(item.name, str) or not item.name or item.name != item.name.strip() or " " in item.name:
        problem(f"bot name {item.name!r} is not a non-empty name without spaces")
        return None
    if not callable(item.factory):
        problem(f"bot {item.name!r}: factory {_short_repr(item.factory)} is not callable")
        return None
    games = (item.games,) if isinstance(item.games, str) else item.games
    if not isinstance(games, Iterable) or not all(isinstance(g, str) for g in games):
        problem(f"bot {item.name!r}: games {_short_repr(item.games)} is not a tuple of game names")
        return None
    taken = registry.bots.get(item.name)
    if taken is not None:
        problem(f"bot {item.name!r} is already provided by {taken.distribution}; this one is ignored")
        return None
    if source.kind == "builtin":
        distribution, trusted = BUILTIN_DISTRIBUTION, item.trusted
    elif source.kind == "extra":
        distribution, trusted = item.distribution or source.distribution, item.trusted
    else:
        distribution, trusted = source.distribution, False  # installed plugins never run in-process
    return dataclasses.replace(
        item, games=tuple(games), distribution=distribution, trusted=bool(trusted)
    )


def _check_game(item: Any, source: _Source, registry: Registry, sources: dict[str, str]) -> GameSpec | None:
    """``item`` (a :class:`GameSpec` or a bare game) as the valid spec of a new game name, with
    its distribution set, or ``None`` (and a problem)."""

    def problem(message: str) -> None:
        registry.problems.append(f"{source.label}: {message}")

    game = item.game if isinstance(item, GameSpec) else item
    name = getattr(game, "name", None)
    missing = [m for m in _GAME_METHODS if not callable(getattr(game, m, None))]
    if not isinstance(name, str) or not name or missing:
        why = f"no methods {', '.join(missing)}" if missing else "no name"
        problem(f"standoff_games() returned {_short_repr(item)} ({why}), expected a Game or a GameSpec")
        return None
    spec = GameSpec.of(item)
    if not isinstance(spec.codec, ViewCodec) or spec.codec.game != name:
        problem(f"game {name!r}: codec {_short_repr(spec.codec)} is not a ViewCodec of game {name!r}")
        return None
    for board in ("seat_board", "state_board"):
        value = getattr(spec, board)
        if value is not None and not callable(value):
            problem(f"game {name!r}: {board} {_short_repr(value)} is not callable")
            return None
    links = spec.rules_links
    if not (isinstance(links, tuple) and all(isinstance(link, tuple) and len(link) == 2 and all(
            isinstance(x, str) for x in link) and link[1].startswith(("https://", "http://")) for link in links)):
        problem(f"game {name!r}: rules_links {_short_repr(links)} is not a tuple of (title, http(s) address) pairs")
        return None
    for part, kind in _part_types().items():  # a part of another type would fail far from here
        value = getattr(spec, part)
        if value is not None and not isinstance(value, kind):
            problem(f"game {name!r}: {part} {_short_repr(value)} is not a {kind.__name__} (docs/games.md)")
            return None
    if name in registry.games:
        problem(f"game {name!r} is already provided by {sources.get(name, '?')}; this one is ignored")
        return None
    distribution = BUILTIN_DISTRIBUTION if source.kind == "builtin" else source.distribution
    return dataclasses.replace(spec, distribution=distribution)


def _part_types() -> dict[str, type]:
    """The type of each optional part of a :class:`GameSpec` (``None``: the generic part)."""
    from .boards import HtmlBoard
    from .core.position import Notation, PositionFormat
    from .forward_model import ForwardModel
    from .rl import GameRL

    return {"html_board": HtmlBoard, "rl": GameRL, "positions": PositionFormat, "notation": Notation,
            "forward_model": ForwardModel}


def _describe(exc: BaseException) -> str:
    """``"Type: message"`` on one line."""
    text = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _short_repr(value: object, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{text} ({type(value).__name__})" if not isinstance(value, (type(None), bool)) else text


# --- `standoff bots` ---------------------------------------------------------------------------


def format_bots(registry: Registry) -> str:
    """What ``standoff bots`` prints (``print(format_bots(registry))``; no trailing newline): one
    row per bot, built-ins first, then one ``skipped plugin …: …`` line per problem."""
    header = ("NAME", "GAMES", "RUNS", "DISTRIBUTION", "DESCRIPTION")
    rows = [
        (
            spec.name,
            ", ".join(spec.games) or "any",
            "in-process" if spec.trusted else "subprocess",
            spec.distribution or "?",
            spec.description,
        )
        for spec in sorted(registry.bots.values(), key=lambda s: (s.distribution != BUILTIN_DISTRIBUTION, s.name))
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    lines = [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[-1]]).rstrip()
        for row in [header, *rows]
    ]
    if registry.problems:
        lines.append("")
        lines += [f"skipped plugin {problem}" for problem in registry.problems]
    return "\n".join(lines)


# --- `standoff games` --------------------------------------------------------------------------


def format_games(registry: Registry) -> str:
    """What ``standoff games`` prints: one row per game (built-ins first) with its roles, its
    rulesets, how its views travel and where it comes from, then the problems."""
    header = ("NAME", "ROLES", "RULESETS", "VIEW", "DISTRIBUTION")
    rows = []
    for name in registry.games:
        spec = registry.spec(name)
        try:
            roles = ", ".join(spec.game.rules().roles)
        except Exception:  # noqa: BLE001 - a plugin's rules() without defaults
            roles = "?"
        codec = spec.codec
        view = getattr(codec, "member", None) or getattr(getattr(codec, "message_type", None), "DESCRIPTOR", None)
        view = view if isinstance(view, str) else (f"plugin: {view.full_name}" if view is not None else "plugin: json")
        rows.append((name, roles, ", ".join(getattr(spec.game, "rulesets", ())) or "-", view,
                     spec.distribution or "?"))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    lines = [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[-1]]).rstrip()
        for row in [header, *rows]
    ]
    links = [f"{name} rules: {title} {address}" for name in registry.games
             for title, address in registry.spec(name).rules_links]
    if links:
        lines += ["", *links]
    if registry.problems:
        lines.append("")
        lines += [f"skipped plugin {problem}" for problem in registry.problems]
    return "\n".join(lines)
