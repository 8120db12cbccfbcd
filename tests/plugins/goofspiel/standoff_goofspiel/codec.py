"""The Goofspiel view as this plugin's own protobuf message (``goofspiel.v1.GoofspielView``).

``to_message`` builds it from the engine's view dict; ``to_dict`` gives the same dict back (the
round trip is exact: tests check it), so that a bot may read either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standoff.sdk import MessageViewCodec
from standoff.sdk.views import history_rows

from . import goofspiel_pb2 as gpb
from .rules import NAME


def to_message(view: Mapping[str, Any]) -> gpb.GoofspielView:
    msg = gpb.GoofspielView(
        ruleset=view["ruleset"],
        role=view["role"],
        cards=view["cards"],
        step=view["step"] or "",
        prize=view["prize"] or 0,
        prizes_left=view["prizes_left"],
        hand=view["hand"],
        bid=view["bid"] or 0,
        scores=view["scores"],
        history_from=view.get("history_from", 0),
    )
    for role, other in view["opponents"].items():
        entry = msg.opponents[role]
        entry.cards.extend(other["cards"])
        entry.bid_placed = other["bid_placed"]
    for played in view["rounds"]:
        msg.rounds.add(prize=played["prize"], bids=played["bids"], winner=played["winner"] or "")
    add = msg.history.add
    for number, role, step, key in view["history"]:
        add(number=number, role=role, step=step, key=key)
    return msg


def to_dict(msg: gpb.GoofspielView) -> dict[str, Any]:
    return {
        "game": NAME,
        "ruleset": msg.ruleset,
        "role": msg.role,
        "cards": msg.cards,
        "step": msg.step or None,
        "prize": msg.prize or None,
        "prizes_left": list(msg.prizes_left),
        "hand": list(msg.hand),
        "bid": msg.bid or None,
        "opponents": {
            role: {"cards": list(o.cards), "bid_placed": o.bid_placed} for role, o in msg.opponents.items()
        },
        "scores": dict(msg.scores),
        "rounds": [
            {"prize": r.prize, "bids": dict(r.bids), "winner": r.winner or None} for r in msg.rounds
        ],
        "history_from": msg.history_from,
        "history": history_rows(msg.history),
    }


CODEC = MessageViewCodec(NAME, gpb.GoofspielView, to_message, to_dict)
