"""What a plugin author imports (all of it re-exported by :mod:`standoff.sdk`): the hook marker,
the specs a plugin returns from its hooks, and the optional capabilities of a game.

A plugin is a module with functions marked ``@hookimpl`` (pluggy project ``"standoff"``), found
through the entry-point group ``standoff.bots``::

    from standoff.sdk import BotSpec, GameSpec, hookimpl

    @hookimpl
    def standoff_games():
        return [GameSpec(MyGame(), codec=..., seat_board=..., state_board=...)]

    @hookimpl
    def standoff_bots():
        return [BotSpec.from_class(MyBot)]

The hooks are specified in :mod:`standoff.server.hookspecs`; ``docs/games.md`` walks through a
whole game plugin.
"""

from __future__ import annotations

import importlib.metadata
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import pluggy

from .boards import HtmlBoard
from .bot import Bot
from .codec_table import register_codec, registered_codec
from .codecs import JsonViewCodec, ViewCodec
from .forward_model import ForwardModel

if TYPE_CHECKING:
    import random

__all__ = [
    "CAPABILITIES",
    "ENTRY_POINT_GROUP",
    "PROJECT",
    "BotSpec",
    "GameCapabilities",
    "GameSpec",
    "capability",
    "discover_installed_games",
    "hookimpl",
]

#: The pluggy project name: hook implementations are marked ``@hookimpl`` of this project.
PROJECT = "standoff"
#: The marker of hook implementations (``standoff.server.plugins.hookimpl`` is the same object).
hookimpl = pluggy.HookimplMarker(PROJECT)
#: The entry-point group installed plugins are found through (bots and games alike).
ENTRY_POINT_GROUP = "standoff.bots"


# ---------------------------------------------------------------------------------------------
# Bots
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotSpec:
    """How to make a bot, and what the referee needs to know about it before making one.

    ``factory(seed)`` returns a new :class:`~standoff.sdk.Bot`. ``games`` empty means every game.
    ``trusted`` bots (the built-ins) may run inside the referee process; the others run in a
    subprocess bot runner. ``distribution`` is the distribution that provided the bot; the loader
    fills it in.
    """

    name: str
    factory: Callable[[int], Bot]
    games: tuple[str, ...] = ()
    description: str = ""
    trusted: bool = False
    distribution: str = ""

    @classmethod
    def from_class(
        cls, bot_class: type[Bot], *, trusted: bool = False, description: str | None = None
    ) -> BotSpec:
        """The spec of a :class:`~standoff.sdk.Bot` subclass: its ``name`` and ``games``, and the
        first line of its own docstring as description (unless ``description`` is given)."""
        if not (isinstance(bot_class, type) and issubclass(bot_class, Bot)):
            raise TypeError(f"BotSpec.from_class needs a subclass of standoff.sdk.Bot, got {bot_class!r}")
        if description is None:
            description = _first_line(bot_class.__doc__)  # its own, not Bot's (not inherited)
        return cls(
            name=bot_class.name,
            factory=bot_class,
            games=(bot_class.games,) if isinstance(bot_class.games, str) else tuple(bot_class.games),
            description=description,
            trusted=trusted,
        )

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games


def _first_line(doc: str | None) -> str:
    lines = inspect.cleandoc(doc or "").strip().splitlines()
    return lines[0].strip() if lines else ""


# ---------------------------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------------------------


@runtime_checkable
class GameCapabilities(Protocol):
    """The optional methods a game object may have besides the engine contract
    (:class:`~standoff.server.core.game.Game`), and who uses them. A game without one simply
    goes without what it gives; look them up with :func:`capability`, never by guessing.
    """

    def determinize(self, state: Any, role: str, rng: random.Random) -> Any:
        """A copy of ``state`` in which everything ``role`` cannot see is re-dealt, consistently
        with what it knows: ``view(copy, role)`` equals ``view(state, role)``. Used by the
        leak tests (conformance and wire), and by search bots to sample worlds."""
        ...

    def render(self, state: Any) -> str:
        """The whole table as text (every hand shown). The omniscient replay board when the
        game's :class:`GameSpec` names no ``state_board``; golden playthroughs."""
        ...

    def flags_claimed(self, state: Any) -> dict[str, int]:
        """Points per role for a lost game of a multi-game match (e.g. flags
        claimed). Tournaments' multi-game matches need it."""
        ...

    def fallback_index(self, state: Any) -> int | None:
        """The option the referee plays for a seat that timed out on a step whose rules name a
        default (e.g. a discard the rules make for a seat); ``None`` where they name none (the fault
        policy decides)."""
        ...

    def to_position(self, state: Any) -> dict[str, Any]:
        """The whole state as a JSON-ready position (docs/positions.md) in the game's public
        words (the game's ``GameSpec.positions`` is made of it unless it gives one).
        ``standoff replay --position`` and ``to_position`` use it."""
        ...

    def option_keys(self, rules: Any) -> list[str]:
        """Every option key a match under ``rules`` can offer, chance's included: the action
        table of the training environments for a game whose spec brings no ``rl`` tables
        (docs/training.md, "Any game")."""
        ...

    def from_position(self, data: Mapping[str, Any]) -> Any:
        """The state a position describes (``from_position(to_position(s))`` asks the same
        decision as ``s``); raises ``standoff.sdk.positions.PositionError`` (a ``ValueError``)
        naming the field at fault. ``standoff play --position``, records that start from a
        position and ``StartMatch.start_position`` use it."""
        ...


#: The names :func:`capability` knows (the methods of :class:`GameCapabilities`).
CAPABILITIES = ("determinize", "render", "flags_claimed", "fallback_index", "to_position", "from_position",
                "option_keys")


def capability(game: Any, name: str) -> Callable[..., Any] | None:
    """The game's method ``name`` (one of :data:`CAPABILITIES`), or ``None`` if it has none."""
    if name not in CAPABILITIES:
        raise ValueError(f"unknown game capability {name!r} (known: {', '.join(CAPABILITIES)})")
    method = getattr(game, name, None)
    return method if callable(method) else None


@dataclass(frozen=True)
class GameSpec:
    """A game as a plugin registers it: the rules object and how its views travel and read.

    * ``game``: the rules object (:class:`~standoff.server.core.game.Game`; may have the
      optional :class:`GameCapabilities`).
    * ``codec``: its :class:`~standoff.sdk.views.ViewCodec`; ``None``: the generic
      :class:`~standoff.sdk.views.JsonViewCodec` (the view as canonical JSON; bots get dicts).
    * ``seat_board(view) -> str``: one seat's board as text, from that seat's view dict alone
      (replays per seat, the report's seat boards). ``None``: a generic listing of the view.
    * ``state_board(state) -> str``: the whole table as text (omniscient replays, the report).
      ``None``: the game's ``render`` capability if it has one, else every seat's board.
    * ``html_board``: a :class:`~standoff.server.boards.HtmlBoard` (script, style, data, whole
      table): how the report's viewer draws this game's views; ``None``: the report shows the
      text boards (``seat_board``'s, else the generic one).
    * ``forward_model``: what search bots simulate with, a
      :class:`~standoff.server.forward_model.ForwardModel` (``belief``: the state a seat's view
      comes from, and worlds sampled from it; ``infer_rules``; ``random_playout``: a fast
      uniform playout); ``None``: the SDK's generic model built on the game's ``determinize``
      capability, if it has one (:mod:`standoff.sdk.determinized`).
    * ``rl``: a :class:`~standoff.server.rl.GameRL`, the game's tables for the training
      environments (action keys, observation encoder, seat memory, public view); ``None``:
      generic ones from the game's ``option_keys(rules)`` and its views (docs/training.md).
    * ``notation``: the text form of the game's positions, like chess's FEN
      (:class:`~standoff.server.core.position.Notation`: ``write``, ``parse``, ``recognizes``);
      ``None``: positions are JSON only.
    * ``positions``: the game's position format
      (:class:`~standoff.server.core.position.PositionFormat`: ``write``, ``read``, its states'
      type, its JSON Schema, its rounds and turns for ``--until``); ``None``: the one the
      game's ``to_position``/``from_position`` capabilities make, if it has both.
    * ``rules_links``: ``(title, address)`` pairs for the game's rules documentation.
    * ``story()``: makes a :class:`~standoff.server.story.StoryTeller` for one match (a class
      will do): the match told in sentences grouped by turn, for the text replay and the
      report's log; ``None``: they show the raw history keys.
    * ``distribution``: filled in by the loader.

    Every optional part belongs to the game's own package (the built-in games:
    ``standoff.server.games.<game>``); generic code reaches it only through the spec.
    A plugin's ``standoff_games()`` may also return a bare game object: it gets
    ``GameSpec.of(game)``.
    """

    game: Any
    codec: ViewCodec | None = None
    seat_board: Callable[[Mapping[str, Any]], str] | None = None
    state_board: Callable[[Any], str] | None = None
    html_board: HtmlBoard | None = None
    forward_model: ForwardModel | None = None
    rl: Any = None
    notation: Any = None
    positions: Any = None
    rules_links: tuple[tuple[str, str], ...] = ()
    story: Any = None
    distribution: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.codec is None and isinstance(getattr(self.game, "name", None), str):
            object.__setattr__(self, "codec", JsonViewCodec(self.game.name))
        if self.state_board is None:
            render = capability(self.game, "render")
            if render is not None:
                object.__setattr__(self, "state_board", render)

    @property
    def name(self) -> str:
        return self.game.name

    @classmethod
    def of(cls, item: Any) -> GameSpec:
        """``item`` if it is a spec, else the spec of a bare game object (generic codec and
        boards)."""
        return item if isinstance(item, GameSpec) else cls(item)


# ---------------------------------------------------------------------------------------------
# Installed game plugins, for the SDK (a bot's process may load no registry)
# ---------------------------------------------------------------------------------------------


def discover_installed_games() -> None:
    """Register the view codec of every game of the installed plugins (entry points of
    :data:`ENTRY_POINT_GROUP`) whose name is still free. Tolerant: a plugin that fails to import
    or whose ``standoff_games()`` fails is skipped silently (``standoff bots`` reports it).

    The SDK calls this once, the first time it meets a game it has no codec for, so that a bot
    gets a plugin's own view message wherever the plugin is installed.
    """
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            plugin = ep.load()
            hook = getattr(plugin, "standoff_games", None)
            if hook is None or not hasattr(hook, f"{PROJECT}_impl"):
                continue
            items = hook()
        except BaseException as exc:  # a plugin's import may do anything, even sys.exit()
            if isinstance(exc, KeyboardInterrupt):
                raise
            continue
        for item in items if isinstance(items, (list, tuple)) else ():
            try:
                codec = GameSpec.of(item).codec
                if isinstance(codec, ViewCodec) and registered_codec(codec.game) is None:
                    register_codec(codec)
            except Exception:  # noqa: BLE001 - a broken spec: `standoff bots` reports it
                continue

