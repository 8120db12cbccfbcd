"""Twilight Struggle's view codec: the engine's view → the wire's ``TwilightStruggleView`` and back
to the engine-style dict (:class:`~standoff.server.codecs.MemberViewCodec`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from standoff.v1 import views_pb2 as vpb

from ...codecs import MEMO_LIMIT, MemberViewCodec, field_tag, history_rows, length_record, text_field, uint, varint

_TS_MEMO_LIMIT = 20_000  # Twilight Struggle records remembered per table (~40 bytes each)
_TS_PARTS_MEMO_LIMIT = 2_000  # Twilight Struggle tracks, headlines, China Card and rules remembered
_amounts = itemgetter("us", "ussr")


def _twilight_struggle_encoder() -> Callable[[Mapping[str, Any]], vpb.View]:
    """The Twilight Struggle encoder. The influence and control maps are most of a view's fields
    (one entry per country on the board, two or three setter calls each): their entries'
    records are written by hand, memoised per (country, amounts) and (country, role), looked up
    in C. The tracks, headlines, China Card and rules, which change rarely, are kept as the
    bytes the field setters gave them, memoised on their values. These are parsed in one call.
    Scalars, card lists and the history are set as before: per view they are new (a memo's key
    or a record costs more than ``extend`` and ``add``; measured, issue 22)."""
    View, Influence = vpb.TwilightStruggleView, vpb.TwilightStruggleInfluence
    key_tag, value_tag = varint(1 << 3 | 2), varint(2 << 3 | 2)  # a map entry's fields
    influence_tag, control_tag = field_tag(View, "influence"), field_tag(View, "control")
    us_tag, ussr_tag = field_tag(Influence, "us"), field_tag(Influence, "ussr")
    join = b"".join
    influence_memo: dict[tuple, bytes] = {}  # (country, (us, ussr)) → its map entry's record
    control_memo: dict[tuple, bytes] = {}  # (country, role) → its map entry's record
    parts: dict[tuple, bytes] = {}  # the rarely changing parts' values → their records
    seen_part = parts.get

    def influence_record(country: str, amounts: tuple[int, int]) -> bytes:
        us, ussr = amounts
        if not isinstance(country, str):
            raise TypeError(f"expected a country id, got {country!r}")
        value = (us_tag + uint(us) if us else b"") + (ussr_tag + uint(ussr) if ussr else b"")
        return length_record(influence_tag, length_record(key_tag, country.encode("utf-8")) + length_record(value_tag, value))

    def control_record(country: str, side: str) -> bytes:
        if not isinstance(country, str) or not isinstance(side, str):
            raise TypeError(f"expected a country id and a role, got {country!r}: {side!r}")
        return length_record(control_tag, length_record(key_tag, country.encode("utf-8"))
                       + length_record(value_tag, side.encode("utf-8")))

    def records_of(memo: dict, write: Callable[..., bytes], keys: list) -> list[bytes]:
        """The records of ``keys`` (the memo's keys): looked up in C, written for the misses."""
        found = list(map(memo.get, keys))
        if not all(found):  # a miss (records are never empty)
            if len(memo) + len(keys) > _TS_MEMO_LIMIT:
                memo.clear()
            for i, key in enumerate(keys):
                if found[i] is None:
                    found[i] = memo[key] = write(*key)
        return found

    def small_parts(military_ops: Any, space: Any, headline: Any, china: Any, rules: Any) -> bytes:
        """The records the field setters give these parts (presence of the China Card and the
        rules messages included)."""
        ts = View()
        ts.military_ops.update(military_ops)
        ts.space.update(space)
        ts.headline.update(headline)
        ts.china_card.holder = china["holder"] or ""
        ts.china_card.face_up = china["face_up"]
        if rules is not None:
            r = ts.rules
            r.ruleset = rules["ruleset"]
            r.optional_cards = rules["optional_cards"]
            r.chinese_civil_war = rules["chinese_civil_war"]
            r.bid_side = rules["bid_side"] or ""
            r.bid = rules["bid"]
            r.end_turn = rules["end_turn"]
        return ts.SerializeToString(deterministic=True)

    def encode(view: Mapping[str, Any]) -> vpb.View:
        msg = vpb.View()
        ts = msg.twilight_struggle
        ts.role = view["role"]
        ts.turn = view["turn"]
        ts.action_round = view["action_round"]
        ts.phasing = view["phasing"]
        ts.step = view["step"] or ""
        ts.vp = view["vp"]
        ts.defcon = view["defcon"]
        ts.opponent_hand_size = view["opponent_hand_size"]
        ts.deck_size = view["deck_size"]
        ts.chinese_civil_war = view.get("chinese_civil_war", 0)
        event = view.get("event")
        if event:
            ts.event_card = event["card"]
            ts.event_side = event["side"]
        ts.history_from = view.get("history_from", 0)
        # the parts that change rarely: one key, built in C
        military_ops, space, headline = view["military_ops"], view["space"], view["headline"]
        china, rules = view["china_card"], view.get("rules")
        small_key = (tuple(military_ops.items()), tuple(space.items()), tuple(headline.items()),
                     china["holder"], china["face_up"], None if rules is None else tuple(rules.items()))
        found = seen_part(small_key)
        if found is None:
            found = small_parts(military_ops, space, headline, china, rules)
            if len(parts) >= _TS_PARTS_MEMO_LIMIT:
                parts.clear()
            parts[small_key] = found
        records = [found]
        # the board, per country (a whole board repeats too seldom to pay for its key)
        influence = view["influence"]
        records += records_of(influence_memo, influence_record, list(zip(influence, map(_amounts, influence.values()))))
        records += records_of(control_memo, control_record, list(view.get("control", {}).items()))
        ts.MergeFromString(join(records))
        ts.hand.extend(view["hand"])
        ts.opponent_hand.extend(view.get("opponent_hand", ()))
        ts.discard.extend(view["discard"])
        ts.removed.extend(view["removed"])
        ts.effects.extend(view["effects"])
        ts.events_played.extend(view["events_played"])
        add = ts.history.add
        for number, role, step, key in view["history"]:
            add(number=number, role=role, step=step, key=key)
        return msg

    return encode


#: The engine's Twilight Struggle view → its wire ``View`` (``twilight_struggle`` set).
encode_twilight_struggle = _twilight_struggle_encoder()


def _twilight_struggle(view: vpb.TwilightStruggleView, lazy: bool = False) -> dict[str, Any]:
    decoded = {
        "game": "twilight-struggle",
        "role": view.role,
        "turn": view.turn,
        "action_round": view.action_round,
        "phasing": view.phasing,
        "step": view.step or None,
        "vp": view.vp,
        "defcon": view.defcon,
        "military_ops": dict(view.military_ops),
        "space": dict(view.space),
        "hand": list(view.hand),
        "opponent_hand_size": view.opponent_hand_size,
        "opponent_hand": list(view.opponent_hand),
        "china_card": {"holder": view.china_card.holder or None, "face_up": view.china_card.face_up},
        "headline": dict(view.headline),
        "influence": {c: {"us": i.us, "ussr": i.ussr} for c, i in view.influence.items()},
        "control": dict(view.control),
        "event": {"card": view.event_card, "side": view.event_side} if view.event_card else None,
        "deck_size": view.deck_size,
        "discard": list(view.discard),
        "removed": list(view.removed),
        "effects": list(view.effects),
        "events_played": list(view.events_played),
        "chinese_civil_war": view.chinese_civil_war,
        "history_from": view.history_from,
        "history": history_rows(view.history, lazy),
    }
    if view.HasField("rules"):  # absent in views of servers older than the field
        r = view.rules
        decoded["rules"] = {
            "ruleset": r.ruleset,
            "optional_cards": r.optional_cards,
            "chinese_civil_war": r.chinese_civil_war,
            "bid_side": r.bid_side or None,
            "bid": r.bid,
            "end_turn": r.end_turn,
        }
    return decoded


#: The codec the game's spec names; registered as built in by :mod:`standoff.server.games`.
CODEC = MemberViewCodec(
    "twilight-struggle", "twilight_struggle", vpb.TwilightStruggleView, encode_twilight_struggle, _twilight_struggle
)
