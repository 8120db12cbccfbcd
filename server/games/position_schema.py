"""The JSON Schema of position files, made from the position modules' own field types.

``scripts/position_schema.py`` writes it to ``sdk/position.schema.json`` (shipped in the package;
``standoff.sdk.positions.position_schema()`` reads it); a test fails when the file and this
function differ. The schema checks shapes and names; :func:`~.positions.from_position` checks
the rest (a card in two places, counts), with one line naming the field.

Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from ..core.position import stack_schema
from .schotten_totten import cards as STC
from .schotten_totten import position as st
from .schotten_totten.rules import RULESETS as ST_RULESETS
from .twilight_struggle import card_data as CD
from .twilight_struggle import map_data as M
from .twilight_struggle import position as ts

ST_ROLES = ("p1", "p2", "p3")
TS_SIDES = ("ussr", "us")


def _by(keys: tuple[str, ...], value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "propertyNames": {"enum": list(keys)}, "additionalProperties": value}


def _list(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


INT = {"type": "integer"}
BOOL = {"type": "boolean"}
OPTIONS = {"type": "object", "additionalProperties": {"type": ["string", "integer"]}}


def _schotten_totten() -> dict[str, Any]:
    card = st.CARD.schema
    role = {"enum": list(ST_ROLES)}
    role_or_null = {"enum": [*ST_ROLES, None]}
    flag = {
        "type": "object",
        "properties": {
            "flag": st.FLAG.schema,
            "claimed_by": role_or_null,
            "fog": role_or_null,
            "mud": role_or_null,
            "sides": _by(ST_ROLES, _list(card)),
            "placed": _by(ST_ROLES, _list(INT)),
        },
        "additionalProperties": False,
    }
    decks = ("troops", "tactics")
    return {
        "type": "object",
        "description": "A Schotten Totten / Battle Line position (docs/positions.md)",
        "properties": {
            "game": {"const": st.GAME},
            "ruleset": {"enum": list(ST_RULESETS)},
            "options": OPTIONS,
            "number": {"type": "integer", "minimum": 0},
            "turn": {"type": "integer", "minimum": 0},
            "to_move": role,
            "passes": {"type": "integer", "minimum": 0},
            "flags": _list(flag),
            "hands": _by(ST_ROLES, _list(card)),
            "decks": _by(decks, _list(card)),
            "deck_tops": _by(decks, _list({
                "type": "object",
                "properties": {"card": card, "known_by": role},
                "required": ["card", "known_by"],
                "additionalProperties": False,
            })),
            "discards": _by(ST_ROLES, _list(card)),
            "known": _by(ST_ROLES, _list(card)),
            "tactics_played": _by(ST_ROLES, {"type": "integer", "minimum": 0, "maximum": len(STC.TACTICS)}),
            "leader_played": _by(ST_ROLES, BOOL),
            "stack": stack_schema(st.frame_specs(ST_ROLES)),
        },
        "required": ["game"],
        "additionalProperties": False,
    }


def _twilight_struggle() -> dict[str, Any]:
    card = ts.CARD.schema
    side_values = lambda high: _by(TS_SIDES, {"type": "integer", "minimum": 0, "maximum": high})  # noqa: E731
    effect = {
        "type": "object",
        "properties": {
            "card": {"type": "integer", "minimum": 1, "maximum": 110},
            "played_by": {"enum": list(TS_SIDES)},
            "region": {"enum": list(M.REGIONS)},
            "country": ts.COUNTRY.schema,
            "detail": {"type": "string"},
        },
        "required": ["card"],
        "additionalProperties": False,
    }
    probes = {
        step: [(step, 0, name, (), None) for name in [*sorted(ts.CHOICE_DATA), "any"]]
        for step in ("ev_choice", "event_country")
    }
    return {
        "type": "object",
        "description": "A Twilight Struggle position (docs/positions.md)",
        "properties": {
            "game": {"const": ts.GAME},
            "ruleset": {"enum": ["deluxe"]},
            "options": OPTIONS,
            "number": {"type": "integer", "minimum": 0},
            "turn": {"type": "integer", "minimum": 0, "maximum": 10},
            "action_round": {"type": "integer", "minimum": 0, "maximum": 9},
            "phasing": {"enum": list(TS_SIDES)},
            "vp": {"type": "integer", "minimum": -20, "maximum": 20},
            "defcon": {"type": "integer", "minimum": 1, "maximum": 5},
            "military_ops": side_values(5),
            "space": side_values(8),
            "space_attempts": side_values(9),
            "influence": {
                "type": "object",
                "propertyNames": ts.COUNTRY.schema,
                "additionalProperties": side_values(99),
            },
            "hands": _by(TS_SIDES, _list(card)),
            "china_card": {
                "type": "object",
                "properties": {"holder": {"enum": [*TS_SIDES, None]}, "face_up": BOOL},
                "additionalProperties": False,
            },
            "headline": _by(TS_SIDES, ts.CARD_OR_NONE.schema),
            "deck": _list(card),
            "discard": _list(card),
            "removed": _list(card),
            "effects": _list(effect),
            "events_played": _list(card),
            "seen_by_opponent": _by(TS_SIDES, _list(card)),
            "chinese_civil_war": {"type": "integer", "minimum": 0, "maximum": 3},
            "stack": stack_schema(ts.FRAME_SPECS, probes),
        },
        "required": ["game"],
        "additionalProperties": False,
    }


def position_schema() -> dict[str, Any]:
    """The schema of a position file's JSON object (either game)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://standoff.invalid/position.schema.json",
        "title": "Standoff position",
        "description": "A whole state of a Standoff game, in public vocabulary (docs/positions.md). "
                       "Made by scripts/position_schema.py; do not edit.",
        "oneOf": [{"$ref": "#/$defs/schotten-totten"}, {"$ref": "#/$defs/twilight-struggle"}],
        "$defs": {
            "schotten-totten": _schotten_totten(),
            "twilight-struggle": _twilight_struggle(),
            "st-card": {"enum": sorted(STC.CARD_BY_NAME)},
            "ts-card": {"oneOf": [{"enum": sorted(CD.CARD_BY_ID)}, {"type": "integer", "minimum": 1, "maximum": 110}]},
            "ts-country": {"enum": sorted(M.INDEX)},
        },
    }
