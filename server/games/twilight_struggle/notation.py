"""The compact text form of Twilight Struggle positions: it says exactly what a position dict says
(``parse(write(p))`` loads to the same state) and is accepted wherever a position file is (the
game's :class:`~standoff.server.core.position.Notation`).

One ``key: value`` line per part, ``#`` starts a comment::

    twilight-struggle deluxe end_turn=10
    turn: 3  action_round: 2  phasing: us  number: 0
    vp: -2  defcon: 3  military_ops: 1/0  space: 2/1  space_attempts: 0/0
    china_card: ussr face_up
    influence: iran 0/2  west_germany 4/0
    hand ussr: fidel nasser
    hand us: nato
    ...
    stack: end_turn | action_round round=3 side=us

Two numbers ``a/b`` are always USSR first, then US (the order of the roles). Lines left out take
the position dict's defaults (no influence, empty piles, the deck of the cards found nowhere
else, the stack of the start of ``phasing``'s action round).

Pure: no I/O.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from typing import Any

from ...core.position import PositionError, fail
from . import position as ts
from .rules import make_rules as ts_rules

#: The first word of the form (and of no other game's notation).
HEAD = "twilight-struggle"


def recognizes(text: str) -> bool:
    """Whether ``text`` is in this form: it starts with :data:`HEAD`."""
    return text.lstrip().startswith(HEAD)


def parse(text: str) -> dict[str, Any]:
    """A Twilight Struggle position dict from its compact form."""
    if not recognizes(text):
        raise PositionError("notation: a Twilight Struggle position's first line is 'twilight-struggle ...'")
    return parse_compact(text.strip())



_PAIR_KEYS = ("military_ops", "space", "space_attempts")
_INT_KEYS = ("turn", "action_round", "number", "vp", "defcon", "chinese_civil_war")
_PLAIN = re.compile(r"^[A-Za-z_][\w\-]*$")


def _value_text(value: Any) -> str:
    if isinstance(value, str) and _PLAIN.match(value) and value not in ("true", "false", "null"):
        return value
    return shlex.quote(json.dumps(value, separators=(",", ":")))


def _value_of(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def write(data: Mapping[str, Any]) -> str:
    """The compact form of a Twilight Struggle position dict (as :func:`ts.to_position` writes it)."""
    defaults = ts_rules(data.get("ruleset")).options
    options = {k: str(v) for k, v in (data.get("options") or {}).items() if defaults.get(k) != str(v)}
    pair = lambda values: f"{values.get('ussr', 0)}/{values.get('us', 0)}"  # noqa: E731
    lines = [" ".join(["twilight-struggle", data.get("ruleset") or "deluxe"]
                      + [f"{k}={v}" for k, v in sorted(options.items())])]
    lines.append(f"turn: {data['turn']}  action_round: {data['action_round']}  phasing: {data['phasing']}  "
                 f"number: {data['number']}")
    lines.append(f"vp: {data['vp']}  defcon: {data['defcon']}  "
                 + "  ".join(f"{k}: {pair(data[k])}" for k in _PAIR_KEYS))
    china = data["china_card"]
    lines.append(f"china_card: {china['holder'] or 'nobody'} {'face_up' if china['face_up'] else 'face_down'}"
                 f"  chinese_civil_war: {data.get('chinese_civil_war', 0)}")
    lines.append("influence: " + "  ".join(f"{c} {pair(v)}" for c, v in data["influence"].items()))
    for side in ("ussr", "us"):
        lines.append(f"hand {side}: " + " ".join(data["hands"][side]))
    lines.append("headline: " + "  ".join(f"{s} {data['headline'][s] or '-'}" for s in ("ussr", "us")))
    for key in ("discard", "removed", "events_played"):
        lines.append(f"{key}: " + " ".join(data[key]))
    lines.append("deck: " + " ".join(data["deck"]))
    effects = data["effects"]
    names = ", ".join(ts.CARD.encode(e["card"]) for e in effects)
    lines.append("effects: " + "  ".join(
        " ".join([str(e["card"])] + [f"{k}={_value_text(v)}" for k, v in e.items() if k != "card"])
        for e in effects) + (f"  # {names}" if effects else ""))
    for side in ("ussr", "us"):
        lines.append(f"seen_by_opponent {side}: " + " ".join(data["seen_by_opponent"][side]))
    lines.append("stack: " + " | ".join(
        " ".join([f["step"]] + [f"{k}={_value_text(v)}" for k, v in f.items() if k != "step"])
        for f in data["stack"]))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def parse_compact(text: str) -> dict[str, Any]:
    """A Twilight Struggle position dict from its compact form."""
    # (number, text) of the lines that say something: a message names a line as an editor numbers it
    numbered = [(n, line.split("#", 1)[0].strip()) for n, line in enumerate(text.splitlines(), start=1)]
    numbered = [(n, line) for n, line in numbered if line]
    lines = [line for _, line in numbered]
    if not lines or not lines[0].startswith("twilight-struggle"):
        raise PositionError("notation: the first line is 'twilight-struggle [ruleset] [option=value...]'")
    head = lines[0].split()[1:]
    data: dict[str, Any] = {"game": ts.GAME, "options": {}}
    for token in head:
        if "=" in token:
            key, _, value = token.partition("=")
            data["options"][key] = value
        else:
            data["ruleset"] = token
    for n, line in numbered[1:]:
        where = f"notation line {n}"
        key, colon, rest = line.partition(":")
        if not colon:
            raise fail(where, f"expected 'key: value', got {line!r}")
        key = key.strip()
        words = rest.split()
        if key in ("hand ussr", "hand us"):
            data.setdefault("hands", {})[key[5:]] = words
        elif key in ("seen_by_opponent ussr", "seen_by_opponent us"):
            data.setdefault("seen_by_opponent", {})[key.split()[1]] = words
        elif key in ("discard", "removed", "events_played", "deck"):
            data[key] = words
        elif key == "influence":
            if len(words) % 2:
                raise fail(where, "influence is written as pairs: country ussr/us")
            influence = data.setdefault("influence", {})
            for country, amounts in zip(words[::2], words[1::2], strict=True):
                influence[country] = _pair(amounts, f"{where} ({country})")
        elif key == "headline":
            if len(words) % 2:
                raise fail(where, "headline is written as: ussr CARD us CARD (- for none)")
            data["headline"] = {s: (None if c == "-" else c) for s, c in zip(words[::2], words[1::2], strict=True)}
        elif key == "effects":
            data["effects"] = _effects(rest, where)
        elif key == "stack":
            data["stack"] = [_frame(part, f"{where} frame {i + 1}") for i, part in enumerate(rest.split(" | "))
                             if part.strip()]
        else:
            _fields(line, data, where)
    return data


def _pair(text: str, where: str) -> dict[str, int]:
    ussr, slash, us = text.partition("/")
    if not slash or not ussr.lstrip("-").isdigit() or not us.lstrip("-").isdigit():
        raise fail(where, f"expected ussr/us numbers, got {text!r}")
    return {"ussr": int(ussr), "us": int(us)}


def _fields(line: str, data: dict[str, Any], where: str) -> None:
    """``key: value  key: value`` on one line (the tracks)."""
    for key, value in re.findall(r"([a-z_]+):\s*(\S+(?:\s+(?:face_up|face_down))?)", line):
        if key in _INT_KEYS:
            if not value.lstrip("-").isdigit():
                raise fail(f"{where} ({key})", f"expected a whole number, got {value!r}")
            data[key] = int(value)
        elif key in _PAIR_KEYS:
            data[key] = _pair(value, f"{where} ({key})")
        elif key == "phasing":
            data[key] = value
        elif key == "china_card":
            holder, _, face = value.partition(" ")
            data[key] = {"holder": None if holder == "nobody" else holder, "face_up": face != "face_down"}
        else:
            raise fail(where, f"unknown key {key!r}")


def _effects(text: str, where: str) -> list[dict[str, Any]]:
    effects: list[dict[str, Any]] = []
    for token in shlex.split(text):
        if token.isdigit():
            effects.append({"card": int(token)})
        elif "=" in token and effects:
            key, _, value = token.partition("=")
            effects[-1][key] = _value_of(value)
        else:
            raise fail(where, f"effects are written as: CARD_NUMBER [played_by=side] ..., got {token!r}")
    return effects


def _frame(text: str, where: str) -> dict[str, Any]:
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise fail(where, str(exc)) from None
    frame: dict[str, Any] = {"step": words[0]}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq:
            raise fail(where, f"expected field=value, got {word!r}")
        frame[key] = _value_of(value)
    return frame
