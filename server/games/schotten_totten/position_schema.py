"""The JSON Schema of Schotten Totten / Battle Line position objects, made from the position
module's own field types (:mod:`.position`), so that the engine's steps and the schema cannot
drift apart. The schema builder (:func:`standoff.server.positions.position_schema`) puts it in the shipped
``position.schema.json``; a test fails when the file and the builder differ.

Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from ...core.position import BOOL_SCHEMA, INT_SCHEMA, OPTIONS_SCHEMA, schema_by, schema_list, stack_schema
from . import cards as STC
from . import position as st
from .rules import RULESETS as ST_RULESETS

ST_ROLES = ("p1", "p2", "p3")


def schema() -> dict[str, Any]:
    """The JSON Schema of a Schotten Totten position object, with the definitions it refers to."""
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
            "sides": schema_by(ST_ROLES, schema_list(card)),
            "placed": schema_by(ST_ROLES, schema_list(INT_SCHEMA)),
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
            "options": OPTIONS_SCHEMA,
            "number": {"type": "integer", "minimum": 0},
            "turn": {"type": "integer", "minimum": 0},
            "to_move": role,
            "passes": {"type": "integer", "minimum": 0},
            "flags": schema_list(flag),
            "hands": schema_by(ST_ROLES, schema_list(card)),
            "decks": schema_by(decks, schema_list(card)),
            "deck_tops": schema_by(decks, schema_list({
                "type": "object",
                "properties": {"card": card, "known_by": role},
                "required": ["card", "known_by"],
                "additionalProperties": False,
            })),
            "discards": schema_by(ST_ROLES, schema_list(card)),
            "known": schema_by(ST_ROLES, schema_list(card)),
            "tactics_played": schema_by(ST_ROLES, {"type": "integer", "minimum": 0, "maximum": len(STC.TACTICS)}),
            "leader_played": schema_by(ST_ROLES, BOOL_SCHEMA),
            "stack": stack_schema(st.frame_specs(ST_ROLES)),
        },
        "required": ["game"],
        "additionalProperties": False,
        "$defs": {"st-card": {"enum": sorted(STC.CARD_BY_NAME)}},
    }
