"""Positions for bot authors and test writers: set up any position of any game from a file.

    from standoff.sdk.positions import load_position, to_position

    game, state = load_position("tests/positions/ts/coup_at_defcon_2.json")
    decision = game.decision(state)          # the decision the position is at
    text = json.dumps(to_position(state))    # and back

A position file holds a JSON object (docs/positions.md, schema ``position.schema.json`` in this
package) or a game's text form (its ``GameSpec.notation``). Every mistake raises
:class:`PositionError` (a ``ValueError``) with one line naming the field. The functions are the
server's (:mod:`standoff.server.position_files`, :mod:`standoff.server.positions`), re-exported,
with the parts a game plugin gives its ``GameSpec`` (:class:`PositionFormat`, :class:`Notation`).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..server.position_files import game_of, load_position, read_position, save_position
from ..server.positions import (
    Notation,
    PositionError,
    PositionFormat,
    from_position,
    parse_position,
    to_position,
    write_notation,
)

__all__ = ["Notation", "PositionError", "PositionFormat", "from_position", "game_of", "load_position",
           "parse_position", "position_schema", "read_position", "save_position", "to_position", "write_notation"]


def position_schema() -> dict[str, Any]:
    """The JSON Schema of the built-in games' position files (shipped with the package)."""
    return json.loads(resources.files("standoff.sdk").joinpath("position.schema.json").read_text("utf-8"))
