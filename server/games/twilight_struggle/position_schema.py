"""The JSON Schema of Twilight Struggle position objects, made from the position module's own field types
(:mod:`.position`), so that the engine's steps and the schema cannot drift apart. The schema
builder (:func:`standoff.server.positions.position_schema`) puts it in the shipped
``position.schema.json``; a test fails when the file and the builder differ.

Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from ...core.position import BOOL_SCHEMA, INT_SCHEMA, OPTIONS_SCHEMA, schema_by, schema_list, stack_schema
from . import card_data as CD
from . import map_data as M
from . import position as ts

TS_SIDES = ("ussr", "us")


def schema() -> dict[str, Any]:
    """The JSON Schema of a Twilight Struggle position object, with the definitions it refers to."""
    card = ts.CARD.schema
    side_values = lambda high: schema_by(TS_SIDES, {"type": "integer", "minimum": 0, "maximum": high})  # noqa: E731
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
            "options": OPTIONS_SCHEMA,
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
            "hands": schema_by(TS_SIDES, schema_list(card)),
            "china_card": {
                "type": "object",
                "properties": {"holder": {"enum": [*TS_SIDES, None]}, "face_up": BOOL_SCHEMA},
                "additionalProperties": False,
            },
            "headline": schema_by(TS_SIDES, ts.CARD_OR_NONE.schema),
            "deck": schema_list(card),
            "discard": schema_list(card),
            "removed": schema_list(card),
            "effects": schema_list(effect),
            "events_played": schema_list(card),
            "seen_by_opponent": schema_by(TS_SIDES, schema_list(card)),
            "chinese_civil_war": {"type": "integer", "minimum": 0, "maximum": 3},
            "stack": stack_schema(ts.FRAME_SPECS, probes),
        },
        "required": ["game"],
        "additionalProperties": False,
        "$defs": {
            "ts-card": {"oneOf": [{"enum": sorted(CD.CARD_BY_ID)}, {"type": "integer", "minimum": 1, "maximum": 110}]},
            "ts-country": {"enum": sorted(M.INDEX)},
        },
    }
