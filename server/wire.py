"""Engine values → wire messages (``standoff.v1``).

The engine's ``view(state, role)`` is JSON-ready data; here each game's view becomes its wire
message through the view codec the game registered (:mod:`standoff.sdk.views`): the built-in
games' typed messages, so a client in any language reads them with generated code; a plugin's
own message or canonical JSON in a ``PluginView``. Every message leaves
the referee serialised with ``deterministic=True`` (map entries sorted), so equal views are equal
bytes: the wire-level leak test relies on it.
"""

from __future__ import annotations

from typing import Any

from standoff.v1 import referee_pb2 as pb
from standoff.v1 import views_pb2 as vpb

from .codec_table import codec_for
from .core.game import Decision


def encode_view(game: str, view: dict[str, Any]) -> vpb.View:
    """The wire view of ``game`` for an engine view: the game's registered view codec
    (:func:`standoff.sdk.views.codec_for`: the built-in games' typed messages, a plugin's own
    codec, or the generic JSON ``PluginView`` for a game without one)."""
    return codec_for(game).encode(view)


def decision_message(
    match_id: str,
    decision_id: int,
    decision: Decision,
    view: vpb.View,
    clocks: dict[str, int],
    attempt: int = 0,
) -> pb.PlayResponse:
    """The ``Decision`` envelope a seat receives."""
    msg = pb.PlayResponse()
    d = msg.decision
    d.match_id = match_id
    d.decision_id = decision_id
    d.role = decision.role
    d.step = decision.step
    d.prompt = decision.prompt
    add = d.options.add
    for option in decision.options:
        add(key=option.key, label=option.label)
    d.view.CopyFrom(view)
    for role, left in clocks.items():
        d.clocks.add(role=role, time_left_ms=left)
    d.attempt = attempt
    return msg


def serialize(message: Any) -> bytes:
    """Deterministic bytes: equal messages give equal bytes (map entries sorted)."""
    return message.SerializeToString(deterministic=True)


def match_started_message(
    match_id: str,
    game: Any,
    rules: Any,
    role: str,
    seats: dict[str, str],
    seed: int,
    *,
    bank_ms: int = 0,
    increment_ms: int = 0,
    max_per_decision_ms: int = 0,
    fault_policy: int = 0,
) -> pb.PlayResponse:
    msg = pb.PlayResponse()
    m = msg.match_started
    m.match_id = match_id
    m.game = game.name
    m.rules_version = game.rules_version
    m.ruleset = rules.ruleset
    m.options.update(rules.options)
    m.role = role
    for r in rules.roles:
        m.seats.add(role=r, bot=seats[r])
    m.seed = seed
    m.time_control.bank_ms = bank_ms
    m.time_control.increment_ms = increment_ms
    m.time_control.max_per_decision_ms = max_per_decision_ms
    m.fault_policy = fault_policy
    return msg


def match_ended_message(
    match_id: str, outcome: Any, roles: tuple[str, ...], faults: dict[str, dict[str, int]] | None = None,
    role: str = "",
) -> pb.PlayResponse:
    """``MatchEnded`` for the seat ``role`` (empty: the match's result in a summary)."""
    msg = pb.PlayResponse()
    m = msg.match_ended
    m.match_id = match_id
    m.role = role
    m.winner = outcome.winner or ""
    for role, score in zip(roles, outcome.scores, strict=True):
        m.scores.add(role=role, score=score)
    m.termination = outcome.termination
    m.reason = outcome.reason
    for role in roles:
        for kind, count in sorted((faults or {}).get(role, {}).items()):
            m.faults.add(role=role, kind=kind, count=count)
    return msg
