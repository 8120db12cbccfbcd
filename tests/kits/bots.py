"""Test kit for bots: decisions and views exactly as a bot receives them."""

from __future__ import annotations

from typing import Any

from standoff.sdk.types import decode_decision
from standoff.server.wire import decision_message, encode_view, serialize
from standoff.v1 import referee_pb2 as pb


def wire(game: Any, decision: Any, view: dict[str, Any], match_id: str = "m") -> tuple[Any, Any]:
    """``(decision, typed view)`` as the referee's bytes decode in a bot: encoded and decoded."""
    message = decision_message(match_id, 1, decision, encode_view(game.name, view), {})
    return decode_decision(pb.PlayResponse.FromString(serialize(message)).decision)
