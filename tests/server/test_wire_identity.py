"""The faster wire paths give the same bytes and the same decoded views as the plain ones.

The referee's Schotten Totten and Twilight Struggle encoders write their large parts' records by
hand (memoised), the SDK's HistoryBook keeps histories as wire bytes, ``decode_decision`` memoises options. Each is checked
here against a reference: the straightforward implementation it replaced, kept below verbatim, on
every decision of seeded random games (views sent incrementally, with now and then a full
resend, as the referee does after a reconnect).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from standoff.server import codecs
from standoff.server.games.schotten_totten import codec as st_codec
from standoff.server.games.twilight_struggle import codec as ts_codec
from standoff.sdk.types import Decision, HistoryBook, Option, decode_decision
from standoff.sdk.views import as_dict
from standoff.server.games import get_game
from standoff.server.wire import decision_message, encode_view, serialize
from standoff.v1 import referee_pb2 as pb
from standoff.v1 import views_pb2 as vpb

# -- the references: the plain implementations, as they were -------------------------------------


def reference_encode_schotten_totten(view: dict[str, Any]) -> vpb.View:
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


def reference_encode_twilight_struggle(view: dict[str, Any]) -> vpb.View:
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
    ts.control.update(view.get("control", {}))
    event = view.get("event")
    if event:
        ts.event_card = event["card"]
        ts.event_side = event["side"]
    rules = view.get("rules")
    if rules is not None:
        r = ts.rules
        r.ruleset = rules["ruleset"]
        r.optional_cards = rules["optional_cards"]
        r.chinese_civil_war = rules["chinese_civil_war"]
        r.bid_side = rules["bid_side"] or ""
        r.bid = rules["bid"]
        r.end_turn = rules["end_turn"]
    ts.history_from = view.get("history_from", 0)
    add = ts.history.add
    for number, role, step, key in view["history"]:
        add(number=number, role=role, step=step, key=key)
    return msg


class ReferenceHistoryBook:
    """The history book that copied entries message by message (typed views only)."""

    def __init__(self) -> None:
        self._books: dict[str, Any] = {}

    def complete(self, match_id: str, view: Any) -> None:
        book = self._books.get(match_id)
        if book is None or type(book) is not type(view):
            book = self._books[match_id] = type(view)()
        start = view.history_from
        if start == 0:
            book.ClearField("history")
        else:
            history = book.history
            keep = len(history)
            while keep and history[keep - 1].number > start:
                keep -= 1
            del history[keep:]
        book.history.extend(view.history)
        if start:
            view.ClearField("history")
            view.history.extend(book.history)
            view.history_from = 0


def reference_decode_decision(msg: pb.Decision) -> tuple[Decision, Any]:
    decision = Decision(
        match_id=msg.match_id, decision_id=msg.decision_id, role=msg.role, step=msg.step, prompt=msg.prompt,
        options=tuple(Option(o.key, o.label) for o in msg.options),
        clocks={c.role: c.time_left_ms for c in msg.clocks}, attempt=msg.attempt,
    )
    return decision, getattr(msg.view, msg.view.WhichOneof("game"))


# -- seeded games --------------------------------------------------------------------------------


def decisions(game_name: str, seeds: range, ruleset: str | None = None, options: dict[str, str] | None = None):
    """``(match_id, number, decision, view)`` for every player decision of random games, views
    incremental per seat as the referee sends them, every 37th one in full (a resend)."""
    game = get_game(game_name)
    for seed in seeds:
        state = game.new_state(game.rules(ruleset, options or {}))
        rng, sent, number = random.Random(seed), {}, 0
        while (decision := game.decision(state)) is not None:
            number += 1
            if decision.role != "chance":
                since = sent.get(decision.role, 0) if number % 37 else 0
                view = game.view(state, decision.role, since)
                if view["history"]:
                    sent[decision.role] = view["history"][-1][0]
                yield f"m{seed}", number, decision, view
            game.apply(state, decision.options[rng.randrange(len(decision.options))])


@pytest.mark.parametrize("ruleset", ["battle_line", "classic", "three_player"])
def test_schotten_totten_wire_bytes_are_those_of_the_plain_encoder(ruleset):
    count = 0
    for match_id, number, decision, view in decisions("schotten-totten", range(6), ruleset):
        clocks = {"p1": 90_000 - number, "p2": -5} if number % 2 else {}  # a clock may run out below 0
        fast = serialize(decision_message(match_id, number, decision, encode_view("schotten-totten", view), clocks,
                                          number % 3))
        plain = serialize(decision_message(match_id, number, decision, reference_encode_schotten_totten(view),
                                           clocks, number % 3))
        assert fast == plain, (match_id, number)
        assert encode_view("schotten-totten", view) == reference_encode_schotten_totten(view)
        count += 1
    assert count > 300


TS_OPTIONS = [
    {},
    {"chinese_civil_war": "on", "optional_cards": "off", "bid": "us:2", "end_turn": "6"},
    {"bid": "ussr:1", "end_turn": "3"},
]


@pytest.mark.parametrize("options", TS_OPTIONS, ids=["default", "ccw-bid-us", "bid-ussr"])
def test_twilight_struggle_wire_bytes_are_those_of_the_plain_encoder(options):
    """Every decision of seeded games: the deciding seat's view (incremental, now and then in
    full) and the other seat's full view, as decision messages and as view messages."""
    game = get_game("twilight-struggle")
    other = {"ussr": "us", "us": "ussr"}
    count = 0
    for match_id, number, decision, view in decisions("twilight-struggle", range(4), options=options):
        clocks = {"ussr": 90_000 - number, "us": -5} if number % 2 else {}
        fast = serialize(decision_message(match_id, number, decision, encode_view("twilight-struggle", view),
                                          clocks, number % 3))
        plain = serialize(decision_message(match_id, number, decision, reference_encode_twilight_struggle(view),
                                           clocks, number % 3))
        assert fast == plain, (match_id, number)
        assert encode_view("twilight-struggle", view) == reference_encode_twilight_struggle(view)
        count += 1
    assert count > 300
    # the other seat's full views at the same points (another hand, both headlines, ...)
    for seed in range(2):
        state = game.new_state(game.rules(None, options))
        rng = random.Random(seed)
        while (decision := game.decision(state)) is not None:
            if decision.role != "chance":
                view = game.view(state, other[decision.role], 0)
                assert serialize(encode_view("twilight-struggle", view)) == \
                    serialize(reference_encode_twilight_struggle(view))
            game.apply(state, decision.options[rng.randrange(len(decision.options))])


def test_twilight_struggle_views_off_the_engine_path_encode_as_before():
    """Views a plugin or a test builds by hand: no rules, no control, an event, an empty board,
    large amounts, a view with the China Card nowhere (all defaults)."""
    view = next(v for *_, v in decisions("twilight-struggle", range(1)))
    variants = [
        {k: v for k, v in view.items() if k not in ("rules", "control", "opponent_hand", "chinese_civil_war",
                                                      "history_from")},
        dict(view, event={"card": "duck_and_cover", "side": "us"}, influence={}, control={}, history=[]),
        dict(view, influence={"cuba": {"us": 300, "ussr": 0}, "panama": {"us": 0, "ussr": 0}},
             control={"cuba": "us"}, opponent_hand=["nato"], headline={"us": "nato", "ussr": "blockade"}),
        dict(view, china_card={"holder": None, "face_up": False}, step=None, vp=-20,
             rules=dict(view["rules"], bid_side=None, bid=0, optional_cards=False)),
    ]
    for variant in variants:
        for _ in range(2):  # written, then from the memos
            fast = ts_codec.encode_twilight_struggle(variant)
            assert serialize(fast) == serialize(reference_encode_twilight_struggle(variant))
            assert fast == reference_encode_twilight_struggle(variant)
    with pytest.raises(TypeError):
        ts_codec.encode_twilight_struggle(dict(view, hand=[4]))
    with pytest.raises(TypeError):
        ts_codec.encode_twilight_struggle(dict(view, influence={7: {"us": 1, "ussr": 0}}))


def test_twilight_struggle_records_stay_right_when_their_memos_are_cleared(monkeypatch):
    monkeypatch.setattr(ts_codec, "_TS_MEMO_LIMIT", 3)  # cleared again and again
    monkeypatch.setattr(ts_codec, "_TS_PARTS_MEMO_LIMIT", 2)
    encode = ts_codec._twilight_struggle_encoder()
    for _, _, _, view in decisions("twilight-struggle", range(1)):
        assert encode(view) == reference_encode_twilight_struggle(view)


@pytest.mark.parametrize("game_name, seeds", [("schotten-totten", range(6)), ("twilight-struggle", range(2))])
def test_decoded_decisions_and_views_are_those_of_the_plain_decoder(game_name, seeds):
    fast_book, plain_book = HistoryBook(), ReferenceHistoryBook()
    count = 0
    for match_id, number, decision, view in decisions(game_name, seeds):
        data = serialize(decision_message(match_id, number, decision, encode_view(game_name, view), {"p1": 7}))
        fast_decision, fast_view = decode_decision(pb.PlayResponse.FromString(data).decision)
        plain_decision, plain_view = reference_decode_decision(pb.PlayResponse.FromString(data).decision)
        key = f"{match_id}/{decision.role}"
        fast_book.complete(key, fast_view)
        plain_book.complete(key, plain_view)
        assert fast_decision == plain_decision
        assert fast_view == plain_view
        assert fast_view.history_from == 0
        assert json.dumps(as_dict(fast_view), sort_keys=True) == json.dumps(as_dict(plain_view), sort_keys=True)
        count += 1
    assert count > 100


def test_history_book_drops_the_entries_a_resend_replaces():
    def view(start: int, numbers: list[int], key: str = "k") -> vpb.SchottenTottenView:
        v = vpb.SchottenTottenView(history_from=start)
        for n in numbers:
            v.history.add(number=n, role="p1", step="play", key=f"{key}{n}")
        return v

    book = HistoryBook()
    book.complete("m/p1", view(0, [1, 2, 3]))
    book.complete("m/p1", view(3, [4, 5]))
    resent = view(3, [4, 5, 6], key="again")  # from 3 again: 4 and 5 are replaced
    book.complete("m/p1", resent)
    assert [(e.number, e.key) for e in resent.history] == [(1, "k1"), (2, "k2"), (3, "k3"), (4, "again4"),
                                                           (5, "again5"), (6, "again6")]
    assert resent.history_from == 0
    full = view(0, [1, 2])  # a full history starts over
    book.complete("m/p1", full)
    later = view(2, [3])
    book.complete("m/p1", later)
    assert [e.number for e in later.history] == [1, 2, 3]
    other = vpb.TwilightStruggleView(history_from=2)  # another view type under the same key
    other.history.add(number=3, role="ussr", step="headline", key="card:1")
    book.complete("m/p1", other)
    assert [e.number for e in other.history] == [3]
    book.forget("m/p1")
    after = view(2, [3])
    book.complete("m/p1", after)
    assert [e.number for e in after.history] == [3]


def test_history_book_leaves_empty_and_untyped_views_alone():
    book = HistoryBook()
    book.complete("m/p1", None)
    empty = vpb.SchottenTottenView(history_from=4)
    book.complete("m/p1", empty)
    assert list(empty.history) == [] and empty.history_from == 0
    plugin = {"history_from": 1, "history": [[2, "p1", "play", "x"]]}
    book.complete("g/p1", {"history_from": 0, "history": [[1, "p1", "play", "w"]]})
    book.complete("g/p1", plugin)
    assert plugin == {"history_from": 0, "history": [[1, "p1", "play", "w"], [2, "p1", "play", "x"]]}


def test_flag_records_stay_right_when_their_memo_is_cleared(monkeypatch):
    monkeypatch.setattr(st_codec, "_FLAGS_MEMO_LIMIT", 3)  # cleared again and again
    encode = st_codec._schotten_totten_encoder()
    for _, _, _, view in decisions("schotten-totten", range(2)):
        assert encode(view) == reference_encode_schotten_totten(view)


def test_varints_are_protobufs():
    assert codecs.uint(0) == b"\x00"
    for value in (1, 127, 128, 300, 16383, 16384, 2**32 - 1, 2**63, 2**64 - 1):
        message = pb.Decision(decision_id=value)
        assert codecs.field_tag(pb.Decision, "decision_id") + codecs.uint(value) == message.SerializeToString()
    with pytest.raises(ValueError):
        codecs.varint(-1)
    for bad in (True, 1.0, "1"):
        with pytest.raises(TypeError):
            codecs.uint(bad)
    with pytest.raises(ValueError, match="no hand-written records"):
        codecs.field_tag(pb.RoleClock, "time_left_ms")  # int64: not written by hand


def test_text_records_are_protobufs_and_refuse_non_strings():
    encode = codecs.text_field(codecs.field_tag(pb.Option, "key"))
    for text in ("flag:4", "é" * 200):
        assert encode(text) == pb.Option(key=text).SerializeToString()
        assert encode(text) == pb.Option(key=text).SerializeToString()  # from the memo
    with pytest.raises(TypeError):
        encode(4)
