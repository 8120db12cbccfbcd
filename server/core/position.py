"""Positions as data: the shared machinery of every game's position format.

A *position* is a whole state as JSON-ready data in public vocabulary only: the words of option
keys and views (card and country ids, role names, 1-based flags), never engine indices. Each game
writes its own format in its package (``<game>/position.py``); what they share lives here:

* :class:`PositionError`, the one error a bad position raises: a ``ValueError`` whose message is
  one line naming the field (``hands.us[3]: unknown card 'nato2'``), so a CLI can print it as is;
* :class:`PositionFormat` and :class:`Notation`, the parts a game brings (``GameSpec.positions``
  and ``GameSpec.notation``);
* the *frame codec*: the engine's pending steps (its stack of frames, plain tuples of engine
  values) written as ``{"step": name, field: value...}`` objects. Each game declares, per step,
  the name and the type of each frame argument (:data:`FieldSpec`); a type is a pair of functions
  (engine value → public value, public value → engine value) so that a side index becomes a role
  name and a country index a country id. Arguments past the declared ones are a bug and raise:
  nothing of the engine leaks unnamed.

Pure: no I/O (files are read by the callers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


class PositionError(ValueError):
    """A position that cannot be loaded (or a state that cannot be written): the message is one
    line and starts with the path of the field at fault (``flags[3].sides.p1``)."""


@dataclass(frozen=True)
class PositionFormat:
    """A game's position format (``GameSpec.positions``): the part of a game that writes its
    states as positions and reads them back. Built-in games make theirs in their own package
    (``<game>/spec.py``); a plugin game may give one, or only the ``to_position`` /
    ``from_position`` capabilities, which make one (:meth:`of_capabilities`).

    * ``write(state) -> dict``: the whole state as a JSON-ready position;
    * ``read(data) -> state``: the state a position dict describes; raises
      :class:`PositionError` naming the field at fault;
    * ``state_type``: the class (or classes) of the game's states, so that a state alone finds
      its format (``to_position(state)`` without its game); ``()``: the game must be named;
    * ``schema() -> dict``: the JSON Schema of the game's position object; definitions it refers
      to as ``#/$defs/<name>`` go in its ``$defs``, which the schema builder hoists to the root;
    * ``stops(until) -> where``: for ``standoff play --until`` (``"action_round"``, ``"turn"``),
      a function of a state that changes when that unit of play is over; raises
      :class:`PositionError` (``"until: ..."``) for a unit the game has not.
    """

    write: Callable[[Any], dict[str, Any]]
    read: Callable[[Mapping[str, Any]], Any]
    state_type: type | tuple[type, ...] = ()
    schema: Callable[[], dict[str, Any]] | None = None
    stops: Callable[[str], Callable[[Any], Any]] | None = None

    @classmethod
    def of_capabilities(cls, game: Any) -> PositionFormat | None:
        """The format of a game object's ``to_position`` / ``from_position`` methods (both
        needed), or ``None``."""
        write, read = getattr(game, "to_position", None), getattr(game, "from_position", None)
        if not (callable(write) and callable(read)):
            return None
        return cls(write=write, read=read)


@dataclass(frozen=True)
class Notation:
    """A game's text form of positions (``GameSpec.notation``), like chess's FEN: ``write(data)``
    gives the text of a position dict, ``parse(text)`` the position dict again (raising
    :class:`PositionError` naming the part at fault), and ``recognizes(text)`` tells whether a
    text is in this notation (a text given without its game is read by the notation that
    recognizes it)."""

    write: Callable[[Mapping[str, Any]], str]
    parse: Callable[[str], dict[str, Any]]
    recognizes: Callable[[str], bool]


#: Position loaders by game name, for records that start from a position (:func:`load_for`):
#: the built-in game table and the plugin registry enter each game's ``PositionFormat.read``.
LOADERS: dict[str, Callable[[Mapping[str, Any]], Any]] = {}


def load_for(game: Any, data: Mapping[str, Any]) -> Any:
    """The state of position ``data`` for ``game`` (the loader entered for its name, else its
    ``from_position`` capability)."""
    loader = LOADERS.get(getattr(game, "name", ""))
    if loader is None:
        loader = getattr(game, "from_position", None)
    if not callable(loader):
        raise PositionError(f"game {getattr(game, 'name', game)!r} has no position format")
    return loader(data)


class FieldType(NamedTuple):
    """How one frame argument is written: ``encode(value)`` gives the public value,
    ``decode(value, where)`` the engine's (raising :class:`PositionError` naming ``where``)."""

    name: str  # documented type name (docs/positions.md)
    encode: Callable[[Any], Any]
    decode: Callable[[Any, str], Any]
    schema: Any = None  # its JSON Schema (the shipped position.schema.json is made from these)


#: A step's frame arguments: ``(field name, type, required)`` in frame order; optional fields
#: come last and are present in a frame only when the engine put them there. A step whose
#: fields depend on one of its arguments (an event's choice and its data) declares instead a
#: function of the frame (a tuple, when writing) or of the frame object (a dict, when reading)
#: that returns its fields.
FieldSpec = tuple[tuple[str, FieldType, bool], ...]
Specs = Mapping[str, "FieldSpec | Callable[[Any], FieldSpec]"]


def _spec_of(specs: Specs, name: Any, frame: Any) -> FieldSpec | None:
    spec = specs.get(name) if isinstance(name, str) else None
    return spec(frame) if callable(spec) else spec


def fail(where: str, message: str) -> PositionError:
    return PositionError(f"{where}: {message}" if where else message)


def expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    """``value`` if it is of ``kind`` (``bool`` is never taken for an ``int``), else raise."""
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value
    raise fail(where, f"expected {what}, got {value!r}")


def rules_from(data: Mapping[str, Any], game: str, make_rules: Any) -> Any:
    """The rules a position of ``game`` names (``ruleset``, ``options``), made by the game's
    ``make_rules``; anything but a position object of that game, or a bad name or option, is a
    :class:`PositionError` naming the field."""
    expect(data, dict, "", "a position object")
    if data.get("game", game) != game:
        raise fail("game", f"expected {game!r}, got {data.get('game')!r}")
    ruleset = data.get("ruleset")
    if ruleset is not None:
        expect(ruleset, str, "ruleset", "a ruleset name")
    options = data.get("options") or {}
    expect(options, dict, "options", "an object of rules options")
    try:
        return make_rules(ruleset, {k: str(v) for k, v in options.items()})
    except ValueError as exc:
        raise PositionError(f"options: {exc}") from None


def _int_decode(value: Any, where: str) -> int:
    return expect(value, int, where, "a whole number")


def _bool_decode(value: Any, where: str) -> bool:
    return expect(value, bool, where, "true or false")


def _str_decode(value: Any, where: str) -> str:
    return expect(value, str, where, "a string")


INT = FieldType("integer", int, _int_decode, {"type": "integer"})
BOOL = FieldType("boolean", bool, _bool_decode, {"type": "boolean"})
STR = FieldType("string", str, _str_decode, {"type": "string"})


def _strings_decode(value: Any, where: str) -> tuple[str, ...]:
    expect(value, list, where, "a list of strings")
    return tuple(_str_decode(v, f"{where}[{i}]") for i, v in enumerate(value))


STRINGS = FieldType("list of strings", list, _strings_decode, {"type": "array", "items": {"type": "string"}})


def _nothing_decode(value: Any, where: str) -> None:
    if value is not None:
        raise fail(where, f"expected nothing here, got {value!r}")
    return None


#: An argument the engine keeps as ``None`` in this frame: not written, read back as ``None``.
NOTHING = FieldType("nothing", lambda v: None, _nothing_decode, {"type": "null"})


def enum_type(name: str, names: Sequence[str], *, none: Any = None, nullable: bool = False) -> FieldType:
    """Engine values ``0..len(names)-1`` written as ``names[i]`` (roles, decks); with
    ``nullable``, the engine's ``none`` is ``null``."""
    index = {n: i for i, n in enumerate(names)}

    def encode(value: Any) -> Any:
        if nullable and value == none:
            return None
        return names[value]

    def decode(value: Any, where: str) -> Any:
        if nullable and value is None:
            return none
        if value not in index:
            raise fail(where, f"unknown {name} {value!r} (known: {', '.join(names)})")
        return index[value]

    schema = {"enum": list(names) + ([None] if nullable else [])}
    return FieldType(f"{name} or null" if nullable else name, encode, decode, schema)


def list_of(item: FieldType, *, nullable: bool = False) -> FieldType:
    """A tuple of engine values as a list; with ``nullable``, ``None`` is ``null``."""

    def encode(value: Any) -> Any:
        if nullable and value is None:
            return None
        return [item.encode(v) for v in value]

    def decode(value: Any, where: str) -> Any:
        if nullable and value is None:
            return None
        expect(value, list, where, f"a list of {item.name}")
        return tuple(item.decode(v, f"{where}[{i}]") for i, v in enumerate(value))

    schema: dict[str, Any] = {"type": "array", "items": item.schema or {}}
    if nullable:
        schema = {"oneOf": [schema, {"type": "null"}]}
    return FieldType(f"list of {item.name}" + (" or null" if nullable else ""), encode, decode, schema)


#: JSON Schema pieces the games' position schemas share.
INT_SCHEMA: dict[str, Any] = {"type": "integer"}
BOOL_SCHEMA: dict[str, Any] = {"type": "boolean"}
OPTIONS_SCHEMA: dict[str, Any] = {"type": "object", "additionalProperties": {"type": ["string", "integer"]}}


def schema_by(keys: Sequence[str], value: dict[str, Any]) -> dict[str, Any]:
    """The schema of an object keyed by ``keys`` (roles, decks) whose values are ``value``."""
    return {"type": "object", "propertyNames": {"enum": list(keys)}, "additionalProperties": value}


def schema_list(item: dict[str, Any]) -> dict[str, Any]:
    """The schema of a list of ``item``."""
    return {"type": "array", "items": item}


def stack_schema(specs: Specs, probes: Mapping[str, Sequence[Any]] | None = None) -> dict[str, Any]:
    """The JSON Schema of a game's ``stack``: one object schema per step (``probes`` gives, for
    a step whose fields depend on an argument, sample frames whose fields are all its fields)."""
    variants = []
    for step in sorted(specs):
        spec = specs[step]
        fields: dict[str, tuple[FieldType, bool]] = {}
        samples = (probes or {}).get(step, ()) if callable(spec) else (None,)
        for sample in samples:
            for field, kind, required in (spec(sample) if callable(spec) else spec):
                if kind is NOTHING:
                    continue
                always = required and not callable(spec) or field in ("actor", "choice", "keys", "countries")
                fields[field] = (kind, always)
        properties: dict[str, Any] = {"step": {"const": step}}
        properties.update({field: kind.schema or {} for field, (kind, _) in fields.items()})
        variants.append({
            "type": "object",
            "properties": properties,
            "required": ["step"] + [field for field, (_, always) in fields.items() if always],
            "additionalProperties": False,
        })
    return {"type": "array", "items": {"oneOf": variants}}


def encode_stack(stack: Sequence[tuple], specs: Specs) -> list[dict[str, Any]]:
    """The engine's frames (bottom first) as public objects. Raises ``ValueError`` for a step
    or an argument the game did not declare (a bug of the game's position module)."""
    frames = []
    for frame in stack:
        name = frame[0]
        spec = _spec_of(specs, name, frame)
        if spec is None:
            raise ValueError(f"step {name!r} has no declared frame fields (position module out of date)")
        args = frame[1:]
        if len(args) > len(spec) or any(required for _, _, required in spec[len(args):]):
            raise ValueError(f"frame {frame!r} does not match the declared fields of step {name!r}")
        out: dict[str, Any] = {"step": name}
        for (field, kind, _), value in zip(spec, args, strict=False):
            if kind is NOTHING:
                if value is not None:
                    raise ValueError(f"frame {frame!r}: field {field!r} of step {name!r} should be None")
                continue
            out[field] = kind.encode(value)
        frames.append(out)
    return frames


def decode_stack(data: Any, specs: Specs, where: str = "stack") -> list[tuple]:
    """Public frame objects (bottom first) back to the engine's tuples."""
    expect(data, list, where, "a list of frames")
    stack = []
    for i, item in enumerate(data):
        at = f"{where}[{i}]"
        expect(item, dict, at, 'a frame object {"step": ...}')
        name = item.get("step")
        spec = _spec_of(specs, name, item)
        if spec is None:
            raise fail(f"{at}.step", f"unknown step {name!r}")
        fields = {field for field, _, _ in spec}
        for key in item:
            if key != "step" and key not in fields:
                raise fail(f"{at}.{key}", f"step {name!r} has no field {key!r}")
        args: list[Any] = []
        for field, kind, required in spec:
            if kind is NOTHING:
                args.append(_nothing_decode(item.get(field), f"{at}.{field}"))
                continue
            if field not in item:
                if required:
                    raise fail(f"{at}.{field}", f"missing (step {name!r} needs it)")
                break  # optional fields are trailing: the first one missing ends the frame
            args.append(kind.decode(item[field], f"{at}.{field}"))
        stack.append((name, *args))
    return stack


def field_docs(specs: Specs) -> dict[str, list[str]]:
    """Each step's fields as ``"name: type"`` (``?`` for optional ones), for the docs (steps
    whose fields depend on an argument are listed as ``see docs``)."""
    return {
        step: (["(fields depend on the choice: docs/positions.md)"] if callable(spec) else [
            f"{field}{'' if required else '?'}: {kind.name}" for field, kind, required in spec if kind is not NOTHING
        ])
        for step, spec in sorted(specs.items())
    }
