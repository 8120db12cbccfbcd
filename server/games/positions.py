"""Positions of any game: :func:`to_position` and :func:`from_position` (docs/positions.md).

A position is a whole state as JSON-ready data in public vocabulary, so that a bot author or a
test writer sets up a position the way chess players write a FEN: with the names the views and
option keys use, never engine indices. The built-in games write theirs in
``schotten_totten/position.py`` and ``twilight_struggle/position.py``; a plugin game may have the
``to_position`` / ``from_position`` capabilities (methods of its rules object). Besides the JSON
object, each built-in game has a one-line text form (:mod:`.notation`); :func:`from_position`
takes either.

Pure: no I/O (:mod:`standoff.sdk.positions` reads files).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.position import LOADERS, PositionError
from .schotten_totten import position as st_position
from .schotten_totten.state import STState
from .twilight_struggle import position as ts_position
from .twilight_struggle.state import TSState

__all__ = ["PositionError", "from_position", "parse_position", "to_position"]

_MODULES = {st_position.GAME: st_position, ts_position.GAME: ts_position}
# records of matches started from a position load it through server.core (record.start_state)
LOADERS.update({name: module.from_position for name, module in _MODULES.items()})


def _game_name(game: Any) -> str:
    return game if isinstance(game, str) else getattr(game, "name", "")


def to_position(state: Any, game: Any = None) -> dict[str, Any]:
    """The whole of ``state`` as a position: a JSON-ready dict that :func:`from_position` turns
    back into a state asking the same decision with the same options (and, continued with the
    same choices, reaching the same outcome). A plugin game's state needs its ``game``."""
    if isinstance(state, STState):
        return st_position.to_position(state)
    if isinstance(state, TSState):
        return ts_position.to_position(state)
    method = getattr(game, "to_position", None)
    if not callable(method):
        raise PositionError(f"game {_game_name(game) or type(state).__name__!r} has no position format")
    return method(state)


#: What ``until`` may name (``standoff play --until``): where a match stops early, for analysis.
UNTIL = ("action_round", "turn")


def stop_when(state: Any, until: str) -> Any:
    """A predicate over the states of ``state``'s match, asked at each seat's decision: true once
    the action round (Twilight Struggle; the headline counts as one) or the turn of the first
    decision it is asked at is over, i.e. at the first decision of the next one. Raises
    :class:`PositionError` for what the game has not."""
    if until not in UNTIL:
        raise PositionError(f"until: expected one of {', '.join(UNTIL)}, got {until!r}")
    if isinstance(state, TSState):
        where = (lambda s: (s.turn, s.ar, s.phasing)) if until == "action_round" else (lambda s: s.turn)
    elif isinstance(state, STState):
        if until != "turn":
            raise PositionError("until: Schotten Totten has turns only (until turn)")
        where = lambda s: s.turn  # noqa: E731
    else:
        raise PositionError(f"until: game of {type(state).__name__} has no rounds or turns known here")
    first: list[Any] = []

    def over(s: Any) -> bool:
        if not first:  # the round or turn under way at the first decision
            first.append(where(s))
            return False
        return where(s) != first[0]

    return over


def parse_position(game: Any, text: str) -> dict[str, Any]:
    """A position's text (a JSON object, or the game's one-line notation) as a position dict."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None
        return data
    from . import notation  # the one-line forms of the built-in games

    return notation.parse(_game_name(game) or None, stripped)


def from_position(game: Any, data: Mapping[str, Any] | str) -> Any:
    """The state ``data`` describes, for ``game`` (a name or a rules object). ``data`` is a
    position dict, or its text (JSON or the game's one-line notation). Raises
    :class:`PositionError` (a ``ValueError``) with one line naming the field at fault."""
    if isinstance(data, str):
        data = parse_position(game, data)
    if not isinstance(data, Mapping):
        raise PositionError(f"a position is an object, not {type(data).__name__}")
    name = _game_name(game)
    if "game" in data and name and data["game"] != name:
        raise PositionError(f"game: the position is of {data['game']!r}, not {name!r}")
    module = _MODULES.get(name)
    if module is not None:
        return module.from_position(data)
    method = getattr(game, "from_position", None)
    if not callable(method):
        known = ", ".join(sorted(_MODULES))
        raise PositionError(f"game {name!r} has no position format (built-in formats: {known})")
    return method(data)
