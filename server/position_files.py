"""Position files: read a position from a file or a text, load it as a state, write one back.

    from standoff.sdk.positions import load_position, to_position

    game, state = load_position("tests/positions/ts/coup_at_defcon_2.json")
    decision = game.decision(state)          # the decision the position is at
    text = json.dumps(to_position(state))    # and back

A position file holds a JSON object (docs/positions.md, schema ``position.schema.json`` in the
SDK package) or a game's text form (``GameSpec.notation``). Every mistake raises
:class:`PositionError` (a ``ValueError``) with one line naming the field. The games are found
through the registry (:mod:`standoff.server.positions`); :mod:`standoff.sdk.positions`
re-exports all of this.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .core.position import PositionError
from .plugins import PluginError, game_spec
from .positions import from_position, parse_position, to_position

__all__ = ["PositionError", "from_position", "game_of", "load_position", "read_position", "save_position",
           "source_label", "to_position"]


def read_position(source: str | Path, game: Any = None) -> dict[str, Any]:
    """The position dict in a file (``source`` a path), or in ``source`` itself when it is a
    JSON object or a text form rather than a path."""
    text = str(source)
    if isinstance(source, Path) or _is_file(text):
        try:
            text = Path(text).read_text(encoding="utf-8")
        except OSError as exc:
            raise PositionError(f"cannot read position file {text}: {exc.strerror or exc}") from None
    elif not (text.lstrip().startswith("{") or " " in text.strip() or "\n" in text):
        raise PositionError(f"no position file {text!r}")
    return parse_position(game, text)


def source_label(source: str | Path, inline: str = "position text") -> str:
    """How a message names where a position came from: its path, or ``inline`` for a position
    given as text (never the text itself: a text form may be many lines)."""
    text = str(source)
    if isinstance(source, Path) or _is_file(text):
        return text
    return inline if text.lstrip().startswith("{") or " " in text.strip() or "\n" in text else text


def _game(name: str) -> Any:
    """The rules object of game ``name`` (built-in or of an installed plugin)."""
    try:
        return game_spec(name).game
    except PluginError as exc:
        raise PositionError(f"game: {exc}") from None


def game_of(data: dict[str, Any]) -> Any:
    """The game a position names in its ``game`` field (built-in or of an installed plugin)."""
    name = data.get("game")
    if not isinstance(name, str):
        raise PositionError("game: missing (a position names its game, as `standoff games` lists them)")
    return _game(name)


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a long or odd notation is no path
        return False


def load_position(source: str | Path, game: Any = None) -> tuple[Any, Any]:
    """``(game, state)`` from a position file or text; ``game`` (a name or rules object) is
    taken from the position when not given."""
    data = read_position(source, game)
    if game is None:
        game = game_of(data)
    elif isinstance(game, str):
        game = _game(game)
    return game, from_position(game, data)


def save_position(state: Any, path: str | Path, game: Any = None) -> None:
    """Write ``state``'s position to ``path`` as indented JSON."""
    Path(path).write_text(json.dumps(to_position(state, game), indent=1) + "\n", encoding="utf-8")
