"""Schotten Totten's view codec: the engine's view → the wire's ``SchottenTottenView`` and back to
the engine-style dict (:class:`~standoff.server.codecs.MemberViewCodec`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from standoff.v1 import views_pb2 as vpb

from ...codecs import MEMO_LIMIT, MemberViewCodec, field_tag, history_rows, length_record, text_field, uint, varint

_FLAGS_MEMO_LIMIT = 20_000  # flags remembered (a key and ~100 bytes each)


def _schotten_totten_encoder() -> Callable[[Mapping[str, Any]], vpb.View]:
    """The Schotten Totten encoder. The flags are most of a view and most of them are as they
    were at the seat's last decision: their records are written by hand, memoised on what the
    flag holds (a key costs far less than the fields), and parsed in one call; the rest is set
    field by field (cheaper than records for single fields)."""
    Flag, Side = vpb.SchottenTottenFlag, vpb.SchottenTottenSide
    map_key, message_value_tag = text_field(varint(1 << 3 | 2)), varint(2 << 3 | 2)  # a map entry's fields
    flags_tag = field_tag(vpb.SchottenTottenView, "flags")
    flag_tag, sides_tag = field_tag(Flag, "flag"), field_tag(Flag, "sides")
    claimed_by, fog, mud = (text_field(field_tag(Flag, n)) for n in ("claimed_by", "fog", "mud"))
    side_card, completed_tag = text_field(field_tag(Side, "cards")), field_tag(Side, "completed_at")
    join = b"".join
    memo: dict[tuple, bytes] = {}
    seen = memo.get

    def flag_record(flag: Mapping[str, Any]) -> bytes:
        parts = [flag_tag, uint(flag["flag"]), claimed_by(flag["claimed_by"] or ""), fog(flag["fog"] or ""),
                 mud(flag["mud"] or "")]
        for name, side in flag["sides"].items():
            body = join(map(side_card, side["cards"]))
            if side["completed_at"] is not None:
                body += completed_tag + uint(side["completed_at"])
            parts.append(length_record(sides_tag, map_key(name) + length_record(message_value_tag, body)))
        return length_record(flags_tag, join(parts))

    def encode(view: Mapping[str, Any]) -> vpb.View:
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
        flags = []
        for flag in view["flags"]:
            key = [flag["flag"], flag["claimed_by"], flag["fog"], flag["mud"]]
            for name, side in flag["sides"].items():
                cards = side["cards"]
                key += (name, len(cards), *cards, side["completed_at"])
            key = tuple(key)
            found = seen(key)
            if found is None:
                found = flag_record(flag)
                if len(memo) >= _FLAGS_MEMO_LIMIT:
                    memo.clear()
                memo[key] = found
            flags.append(found)
        st.MergeFromString(join(flags))
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

    return encode


#: The engine's Schotten Totten view → its wire ``View`` (``schotten_totten`` set).
encode_schotten_totten = _schotten_totten_encoder()


def _schotten_totten(view: vpb.SchottenTottenView, lazy: bool = False) -> dict[str, Any]:
    return {
        "game": "schotten-totten",
        "ruleset": view.ruleset,
        "role": view.role,
        "turn": view.turn,
        "to_move": view.to_move,
        "step": view.step or None,
        "hand": list(view.hand),
        "opponents": {
            role: {"troops": o.troops, "tactics": o.tactics, "known": list(o.known)}
            for role, o in view.opponents.items()
        },
        "flags": [
            {
                "flag": f.flag,
                "claimed_by": f.claimed_by or None,
                "fog": f.fog or None,
                "mud": f.mud or None,
                "sides": {
                    role: {
                        "cards": list(side.cards),
                        "completed_at": side.completed_at if side.HasField("completed_at") else None,
                    }
                    for role, side in f.sides.items()
                },
            }
            for f in view.flags
        ],
        "decks": {name: {"size": d.size, "top": list(d.top)} for name, d in view.decks.items()},
        "discards": {role: list(pile.cards) for role, pile in view.discards.items()},
        "tactics_played": dict(view.tactics_played),
        "leader_played": dict(view.leader_played),
        "history_from": view.history_from,
        "history": history_rows(view.history, lazy),
    }


#: The codec the game's spec names; registered as built in by :mod:`standoff.server.games`.
CODEC = MemberViewCodec("schotten-totten", "schotten_totten", vpb.SchottenTottenView, encode_schotten_totten, _schotten_totten)
