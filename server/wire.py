"""Engine values → wire messages (``standoff.v1``).

The engine's ``view(state, role)`` is JSON-ready data; here each game's view becomes its typed
protobuf message, so a client in any language reads it with generated code. Every message leaves
the referee serialised with ``deterministic=True`` (map entries sorted), so equal views are equal
bytes: the wire-level leak test relies on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from standoff.v1 import referee_pb2 as pb
from standoff.v1 import views_pb2 as vpb

from .core.game import Decision


def _schotten_totten(view: dict[str, Any]) -> vpb.View:
    msg = vpb.View()
    st = msg.schotten_totten
    st.ruleset = view["ruleset"]
    st.role = view["role"]
    st.turn = view["turn"]
    st.to_move = view["to_move"]
    st.step = view["step"] or ""
    st.hand.extend(view["hand"])
    for role, other in view["opponents"].items():
        entry = st.opponents[role]
        entry.troops = other["troops"]
        entry.tactics = other["tactics"]
        entry.known.extend(other["known"])
    for flag in view["flags"]:
        f = st.flags.add()
        f.flag = flag["flag"]
        f.claimed_by = flag["claimed_by"] or ""
        f.fog = flag["fog"] or ""
        f.mud = flag["mud"] or ""
        for role, side in flag["sides"].items():
            s = f.sides[role]
            s.cards.extend(side["cards"])
            if side["completed_at"] is not None:
                s.completed_at = side["completed_at"]
    for name, deck in view["decks"].items():
        d = st.decks[name]
        d.size = deck["size"]
        d.top.extend(deck["top"])
    for role, cards in view["discards"].items():
        st.discards[role].cards.extend(cards)
    for role, count in view["tactics_played"].items():
        st.tactics_played[role] = count
    for role, played in view["leader_played"].items():
        st.leader_played[role] = played
    st.history_from = view.get("history_from", 0)
    add = st.history.add
    for number, role, step, key in view["history"]:
        add(number=number, role=role, step=step, key=key)
    return msg


def _twilight_struggle(view: dict[str, Any]) -> vpb.View:
    msg = vpb.View()
    ts = msg.twilight_struggle
    ts.role = view["role"]
    ts.turn = view["turn"]
    ts.action_round = view["action_round"]
    ts.phasing = view["phasing"]
    ts.step = view["step"] or ""
    ts.vp = view["vp"]
    ts.defcon = view["defcon"]
    ts.military_ops.update(view["military_ops"])
    ts.space.update(view["space"])
    ts.hand.extend(view["hand"])
    ts.opponent_hand_size = view["opponent_hand_size"]
    ts.opponent_hand.extend(view.get("opponent_hand", ()))
    ts.china_card.holder = view["china_card"]["holder"] or ""
    ts.china_card.face_up = view["china_card"]["face_up"]
    ts.headline.update(view["headline"])
    for country, amounts in view["influence"].items():
        entry = ts.influence[country]
        entry.us = amounts["us"]
        entry.ussr = amounts["ussr"]
    ts.deck_size = view["deck_size"]
    ts.discard.extend(view["discard"])
    ts.removed.extend(view["removed"])
    ts.effects.extend(view["effects"])
    ts.events_played.extend(view["events_played"])
    ts.chinese_civil_war = view.get("chinese_civil_war", 0)
    ts.history_from = view.get("history_from", 0)
    add = ts.history.add
    for number, role, step, key in view["history"]:
        add(number=number, role=role, step=step, key=key)
    return msg


VIEW_ENCODERS: dict[str, Callable[[dict[str, Any]], vpb.View]] = {
    "schotten-totten": _schotten_totten,
    "twilight-struggle": _twilight_struggle,
}


def encode_view(game: str, view: dict[str, Any]) -> vpb.View:
    """The typed wire view of ``game`` for an engine view."""
    return VIEW_ENCODERS[game](view)


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
