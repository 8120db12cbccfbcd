"""Positions of any game: :func:`to_position` and :func:`from_position` (docs/positions.md).

A position is a whole state as JSON-ready data in public vocabulary, so that a bot author or a
test writer sets up a position the way chess players write a FEN: with the names the views and
option keys use, never engine indices. Each game brings its own format
(:class:`~standoff.server.core.position.PositionFormat`, ``GameSpec.positions``; a plugin game
may instead have the ``to_position`` / ``from_position`` capabilities) and may bring a text form
(:class:`~standoff.server.core.position.Notation`, ``GameSpec.notation``); :func:`from_position`
takes a position dict, its JSON text or that text form. This module knows no game: it finds a
game's parts through the registry (:func:`standoff.server.plugins.find_game_spec`).

No I/O (:mod:`standoff.server.position_files` reads files).
"""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .core.position import Notation, PositionError, PositionFormat
from .games import GAMES
from .plugins import find_game_spec
from .specs import GameSpec

__all__ = [
    "UNTIL",
    "Notation",
    "PositionError",
    "PositionFormat",
    "format_of",
    "from_position",
    "notation_of",
    "parse_position",
    "position_schema",
    "stop_when",
    "to_position",
    "write_notation",
]


def _game_name(game: Any) -> str:
    return game if isinstance(game, str) else getattr(game, "name", "")


def _spec_of(game: Any) -> GameSpec | None:
    name = _game_name(game)
    return find_game_spec(name) if name else None


def _builtin_specs() -> Iterator[GameSpec]:
    """The built-in games' specs: what a state or a text given without its game is tried with."""
    for name in GAMES:
        spec = find_game_spec(name)
        if spec is not None:
            yield spec


def format_of(game: Any) -> PositionFormat | None:
    """The position format of ``game`` (a name or a rules object): its spec's ``positions``,
    else the one its ``to_position`` / ``from_position`` capabilities make; ``None`` if none."""
    spec = _spec_of(game)
    if spec is not None and spec.positions is not None:
        return spec.positions
    obj = game if not isinstance(game, str) else (spec.game if spec is not None else None)
    return PositionFormat.of_capabilities(obj) if obj is not None else None


def notation_of(game: Any) -> Notation | None:
    """The text form of ``game``'s positions, or ``None``."""
    spec = _spec_of(game)
    return spec.notation if spec is not None else None


def _format_of_state(state: Any) -> PositionFormat | None:
    for spec in _builtin_specs():
        fmt = spec.positions
        if fmt is not None and fmt.state_type and isinstance(state, fmt.state_type):
            return fmt
    return None


def _no_format(game: Any, what: Any = None) -> PositionError:
    known = ", ".join(spec.name for spec in _builtin_specs() if spec.positions is not None)
    name = _game_name(game) or type(what).__name__
    return PositionError(f"game {name!r} has no position format (built-in formats: {known})")


def to_position(state: Any, game: Any = None) -> dict[str, Any]:
    """The whole of ``state`` as a position: a JSON-ready dict that :func:`from_position` turns
    back into a state asking the same decision with the same options (and, continued with the
    same choices, reaching the same outcome). A plugin game's state needs its ``game``."""
    fmt = _format_of_state(state) or (format_of(game) if game is not None else None)
    if fmt is None:
        raise _no_format(game, state)
    return fmt.write(state)


#: What ``until`` may name (``standoff play --until``): where a match stops early, for analysis.
UNTIL = ("action_round", "turn")


def stop_when(state: Any, until: str, game: Any = None) -> Any:
    """A predicate over the states of ``state``'s match, asked at each seat's decision: true once
    the action round or the turn of the first decision it is asked at is over, i.e. at the first
    decision of the next one (the game's ``PositionFormat.stops`` says what a round or a turn
    is). Raises :class:`PositionError` for what the game has not."""
    if until not in UNTIL:
        raise PositionError(f"until: expected one of {', '.join(UNTIL)}, got {until!r}")
    fmt = _format_of_state(state) or (format_of(game) if game is not None else None)
    if fmt is None or fmt.stops is None:
        raise PositionError(f"until: game of {type(state).__name__} has no rounds or turns known here")
    where = fmt.stops(until)
    first: list[Any] = []

    def over(s: Any) -> bool:
        if not first:  # the round or turn under way at the first decision
            first.append(where(s))
            return False
        return where(s) != first[0]

    return over


def parse_position(game: Any, text: str) -> dict[str, Any]:
    """A position's text (a JSON object, or a game's text form) as a position dict. A text form
    is read by ``game``'s notation if it recognizes it, else by the built-in game's notation that
    does, else by ``game``'s (whose error names the part at fault)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None
        return data
    name = _game_name(game)
    notation = notation_of(game) if name else None
    if notation is not None and notation.recognizes(stripped):
        return notation.parse(stripped)
    for spec in _builtin_specs():  # another game's text (from_position then names the mismatch)
        if spec.notation is not None and spec.notation.recognizes(stripped):
            return spec.notation.parse(stripped)
    if not name:
        raise PositionError("notation: no game's text form starts like this (name the game, or write JSON)")
    if notation is None:
        raise PositionError(f"game {name!r} has no text notation: write the position as a JSON object")
    return notation.parse(stripped)  # its own error names what is wrong


def write_notation(data: Mapping[str, Any]) -> str:
    """The text form of a position dict (its game's notation)."""
    notation = notation_of(data.get("game")) if isinstance(data.get("game"), str) else None
    if notation is None:
        raise PositionError(f"game {data.get('game')!r} has no text notation")
    return notation.write(data)


def from_position(game: Any, data: Mapping[str, Any] | str) -> Any:
    """The state ``data`` describes, for ``game`` (a name or a rules object). ``data`` is a
    position dict, or its text (JSON or the game's text form). Raises :class:`PositionError`
    (a ``ValueError``) with one line naming the field at fault."""
    if isinstance(data, str):
        data = parse_position(game, data)
    if not isinstance(data, Mapping):
        raise PositionError(f"a position is an object, not {type(data).__name__}")
    name = _game_name(game)
    if "game" in data and name and data["game"] != name:
        raise PositionError(f"game: the position is of {data['game']!r}, not {name!r}")
    fmt = format_of(game)
    if fmt is None:
        raise _no_format(game)
    if fmt.schema is not None:
        _check_fields(data, _known_fields(fmt.schema), name or str(data.get("game", "")))
    return fmt.read(data)


@functools.lru_cache(maxsize=None)
def _known_fields(schema: Callable[[], dict[str, Any]]) -> frozenset[str] | None:
    """The top-level fields a format's schema allows, or ``None`` if it allows any."""
    part = schema()
    if part.get("additionalProperties", True) is not False:
        return None
    return frozenset(part.get("properties") or ())


def _check_fields(data: Mapping[str, Any], known: frozenset[str] | None, game: str) -> None:
    """A top-level field the game's schema does not have is an error, as the schema says (a
    misspelt ``defcom`` would otherwise be left out silently, its default played instead)."""
    if known is None:
        return
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(known), 1)
        hint = f"did you mean {close[0]!r}?" if close else f"the fields of a {game} position are in docs/positions.md"
        raise PositionError(f"{unknown[0]}: unknown field ({hint})")


def position_schema(specs: Sequence[GameSpec] | None = None) -> dict[str, Any]:
    """The JSON Schema of a position file's object, for the games of ``specs`` (default: the
    built-in games; ``scripts/position_schema.py`` ships it as ``sdk/position.schema.json``):
    one of the games' own schemas (``PositionFormat.schema``), each under ``$defs/<game>``
    beside the definitions they refer to."""
    chosen = list(_builtin_specs()) if specs is None else list(specs)
    defs: dict[str, Any] = {}
    names = []
    for spec in chosen:
        if spec.positions is None or spec.positions.schema is None:
            continue
        part = dict(spec.positions.schema())
        defs.update(part.pop("$defs", {}))
        defs[spec.name] = part
        names.append(spec.name)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://standoff.invalid/position.schema.json",
        "title": "Standoff position",
        "description": "A whole state of a Standoff game, in public vocabulary (docs/positions.md). "
                       "Made by scripts/position_schema.py; do not edit.",
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in names],
        "$defs": defs,
    }
