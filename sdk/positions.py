"""Positions for bot authors and test writers: set up any position of either game from a file.

    from standoff.sdk.positions import load_position, to_position

    game, state = load_position("tests/positions/ts/coup_at_defcon_2.json")
    decision = game.decision(state)          # the decision the position is at
    text = json.dumps(to_position(state))    # and back

A position file holds a JSON object (docs/positions.md, schema ``position.schema.json`` in this
package) or a game's one-line notation (Schotten Totten) / compact form (Twilight Struggle). Every
mistake raises :class:`PositionError` (a ``ValueError``) with one line naming the field.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..server.core.position import PositionError
from ..server.games import get_game
from ..server.games.positions import from_position, parse_position, to_position

__all__ = ["PositionError", "from_position", "load_position", "position_schema", "read_position", "save_position",
           "to_position"]


def read_position(source: str | Path, game: Any = None) -> dict[str, Any]:
    """The position dict in a file (``source`` a path), or in ``source`` itself when it is a
    JSON object or a one-line notation rather than a path."""
    text = str(source)
    if isinstance(source, Path) or _is_file(text):
        try:
            text = Path(text).read_text(encoding="utf-8")
        except OSError as exc:
            raise PositionError(f"cannot read position file {text}: {exc.strerror or exc}") from None
    elif not (text.lstrip().startswith("{") or " " in text.strip() or "\n" in text):
        raise PositionError(f"no position file {text!r}")
    return parse_position(game, text)


def game_of(data: dict[str, Any]) -> Any:
    """The built-in game a position names in its ``game`` field."""
    name = data.get("game")
    if not isinstance(name, str):
        raise PositionError("game: missing (a position names its game: schotten-totten, twilight-struggle)")
    try:
        return get_game(name)
    except ValueError as exc:
        raise PositionError(f"game: {exc}") from None


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
        game = get_game(game)
    return game, from_position(game, data)


def save_position(state: Any, path: str | Path, game: Any = None) -> None:
    """Write ``state``'s position to ``path`` as indented JSON."""
    Path(path).write_text(json.dumps(to_position(state, game), indent=1) + "\n", encoding="utf-8")


def position_schema() -> dict[str, Any]:
    """The JSON Schema of position files (shipped with the package)."""
    return json.loads(resources.files("standoff.sdk").joinpath("position.schema.json").read_text("utf-8"))
