"""Views on the wire: each game's *view codec*, and typed views as plain dicts.

A game's view travels in three shapes: the engine's ``view(state, role)`` (a JSON-ready dict),
the wire's ``View`` message, and what a bot's ``choose`` receives (a typed message, or a dict).
A :class:`ViewCodec` converts between them for one game. Games register theirs with their
:class:`~standoff.sdk.GameSpec` (``standoff_games()`` hook); this module keeps the process-wide
table (:func:`codec_for`) that the referee's wire (``standoff.server.wire.encode_view``), the SDK's
decoding (:func:`decode_view`, :func:`as_dict`) and the history book look codecs up in.

Three kinds:

* :class:`MemberViewCodec`: a game with a member of its own in the ``View`` oneof (the built-in
  games: ``SchottenTottenView``, ``TwilightStruggleView``). Bots get that message.
* :class:`JsonViewCodec`: the generic codec, for a game without a message of its own:
  ``View.plugin`` (a ``PluginView``) carries the view as canonical JSON; bots get the engine's
  dict back. A game registered without a codec gets this one.
* :class:`MessageViewCodec`: a plugin that brings its own protobuf message. ``PluginView.typed``
  carries it, beside the JSON; bots get the message where the plugin is installed, else the dict.

``as_dict(view)`` turns a decoded view into the engine-style dict: empty strings become ``None``
where the engine says "nobody", history entries are ``[number, role, step, key]`` lists. A dict
passes through as is. ``as_dict(view, lazy_history=True)`` converts history entries only when
they are read (a bot that reads the last few entries of a long match should not convert
thousands at every decision).
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any

from standoff.v1 import views_pb2 as vpb

__all__ = [
    "TYPE_URL_PREFIX",
    "JsonViewCodec",
    "LazyHistory",
    "MemberViewCodec",
    "MessageViewCodec",
    "ViewCodec",
    "as_dict",
    "canonical_json",
    "codec_for",
    "codec_for_message",
    "decode_view",
    "history_rows",
    "register_codec",
    "registered_codec",
]

#: The prefix of ``PackedMessage.type_url`` (as ``google.protobuf.Any``'s).
TYPE_URL_PREFIX = "type.googleapis.com/"


# ---------------------------------------------------------------------------------------------
# History entries
# ---------------------------------------------------------------------------------------------


def _row(e: Any) -> list:
    return [e.number, e.role, e.step, e.key]


class LazyHistory:
    """A wire view's history as ``[number, role, step, key]`` lists, each converted on access."""

    __slots__ = ("_h",)

    def __init__(self, entries: Any) -> None:
        self._h = entries

    def __len__(self) -> int:
        return len(self._h)

    def __bool__(self) -> bool:
        return len(self._h) > 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [_row(self._h[j]) for j in range(*i.indices(len(self._h)))]
        return _row(self._h[i])

    def __iter__(self):
        for e in self._h:
            yield _row(e)

    def __reversed__(self):
        h = self._h
        for i in range(len(h) - 1, -1, -1):
            yield _row(h[i])


def history_rows(entries: Iterable[Any], lazy: bool = False) -> Any:
    """``HistoryEntry`` messages as ``[number, role, step, key]`` lists (a :class:`LazyHistory`
    with ``lazy``): for a plugin's own ``to_dict``."""
    return LazyHistory(entries) if lazy else [_row(e) for e in entries]


_history = history_rows


# ---------------------------------------------------------------------------------------------
# Codecs
# ---------------------------------------------------------------------------------------------


def canonical_json(view: Any) -> str:
    """``view`` as canonical JSON: keys sorted, no spaces, UTF-8 text (no ``\\u`` escapes), no NaN.
    Equal views give equal strings, so equal wire bytes."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class ViewCodec(ABC):
    """How one game's views travel (the base class; see the three kinds in the module doc).

    * ``encode(view)``: the engine's view dict → a ``View`` message (the referee's side). Equal
      views must give equal bytes when serialised deterministically: the wire leak test relies
      on it.
    * ``decode(wire)``: a received ``View`` → what a bot's ``choose`` gets.
    * ``to_dict(decoded, lazy_history=False)``: what ``decode`` returned → the engine-style dict
      (:func:`as_dict`).

    ``message_types``: the classes ``decode`` may return, so that :func:`as_dict` finds the codec
    of a typed view.
    """

    game: str = ""
    message_types: tuple[type, ...] = ()

    @abstractmethod
    def encode(self, view: Mapping[str, Any]) -> vpb.View:
        """See the class docstring."""

    @abstractmethod
    def decode(self, wire: vpb.View) -> Any:
        """See the class docstring."""

    @abstractmethod
    def to_dict(self, decoded: Any, lazy_history: bool = False) -> dict[str, Any]:
        """See the class docstring."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game!r})"


class MemberViewCodec(ViewCodec):
    """A game with its own member of the ``View`` oneof: ``member`` names it, ``message_type``
    is its message; ``encode(view) -> View`` and ``to_dict(message, lazy) -> dict`` convert."""

    def __init__(
        self,
        game: str,
        member: str,
        message_type: type,
        encode: Callable[[Mapping[str, Any]], vpb.View],
        to_dict: Callable[[Any, bool], dict[str, Any]],
    ) -> None:
        self.game = game
        self.member = member
        self.message_types = (message_type,)
        self._encode = encode
        # The function itself shadows the method below on the instance: no extra call per view.
        self.encode = encode  # type: ignore[method-assign]
        self._to_dict = to_dict

    def encode(self, view: Mapping[str, Any]) -> vpb.View:
        return self._encode(view)

    def decode(self, wire: vpb.View) -> Any:
        return getattr(wire, self.member)

    def to_dict(self, decoded: Any, lazy_history: bool = False) -> dict[str, Any]:
        return self._to_dict(decoded, lazy_history)


class JsonViewCodec(ViewCodec):
    """The generic codec: the view as canonical JSON in ``View.plugin.json``; bots get the
    engine's dict (``json.loads`` of it: lists where the engine had tuples)."""

    def __init__(self, game: str) -> None:
        self.game = game

    def encode(self, view: Mapping[str, Any]) -> vpb.View:
        msg = vpb.View()
        plugin = msg.plugin
        plugin.game = self.game
        plugin.json = canonical_json(view)
        return msg

    def decode(self, wire: vpb.View) -> Any:
        text = wire.plugin.json
        return json.loads(text) if text else {}

    def to_dict(self, decoded: Any, lazy_history: bool = False) -> dict[str, Any]:
        return decoded


class MessageViewCodec(JsonViewCodec):
    """A plugin's own protobuf message: ``to_message(view) -> message`` builds it from the
    engine's view, ``to_dict(message) -> dict`` gives the engine's dict back (history entries
    as lists: :func:`history_rows`). The message travels in ``View.plugin.typed`` beside the
    canonical JSON: a bot whose process knows this codec gets the message, any other client
    reads the JSON."""

    def __init__(
        self,
        game: str,
        message_type: type,
        to_message: Callable[[Mapping[str, Any]], Any],
        to_dict: Callable[[Any], dict[str, Any]],
    ) -> None:
        super().__init__(game)
        self.message_type = message_type
        self.message_types = (message_type,)
        self.type_url = TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name
        self._to_message = to_message
        self._to_dict = to_dict

    def encode(self, view: Mapping[str, Any]) -> vpb.View:
        msg = super().encode(view)
        typed = msg.plugin.typed
        typed.type_url = self.type_url
        typed.value = self._to_message(view).SerializeToString(deterministic=True)
        return msg

    def decode(self, wire: vpb.View) -> Any:
        typed = wire.plugin.typed
        if typed.type_url == self.type_url:
            return self.message_type.FromString(typed.value)
        return super().decode(wire)

    def to_dict(self, decoded: Any, lazy_history: bool = False) -> dict[str, Any]:
        if isinstance(decoded, dict):
            return decoded
        return self._to_dict(decoded)


# ---------------------------------------------------------------------------------------------
# The codec table
# ---------------------------------------------------------------------------------------------

_CODECS: dict[str, ViewCodec] = {}
_BY_TYPE: dict[type, ViewCodec] = {}
_BUILTIN: set[str] = set()
_FALLBACK: dict[str, JsonViewCodec] = {}  # games found nowhere: the generic codec
_lock = threading.RLock()
_discovery: list[Callable[[], None]] = []  # standoff.sdk.plugin.discover_installed_games
_discovered = False


def register_codec(codec: ViewCodec, *, builtin: bool = False) -> None:
    """Make ``codec`` the codec of its game in this process (a later one replaces an earlier
    one, except that a built-in game's codec stays). ``standoff.server.plugins.load_registry``
    registers every game it accepts; so does the SDK when it looks for installed plugins."""
    if not isinstance(codec, ViewCodec) or not isinstance(codec.game, str) or not codec.game:
        raise TypeError(f"expected a ViewCodec with a game name, got {codec!r}")
    with _lock:
        old = _CODECS.get(codec.game)
        if old is codec:
            return
        if codec.game in _BUILTIN and not builtin:
            raise ValueError(f"game {codec.game!r} is built in: its view codec cannot be replaced")
        if old is not None:
            for t in old.message_types:
                _BY_TYPE.pop(t, None)
        _CODECS[codec.game] = codec
        for t in codec.message_types:
            _BY_TYPE[t] = codec
        _FALLBACK.pop(codec.game, None)
        if builtin:
            _BUILTIN.add(codec.game)


def registered_codec(game: str) -> ViewCodec | None:
    """The codec registered for ``game`` in this process, if any (no lookup, no fallback)."""
    return _CODECS.get(game)


def _set_discovery(find: Callable[[], None]) -> None:
    """How to look for installed game plugins when a game is unknown (set once by
    :mod:`standoff.sdk.plugin`)."""
    _discovery[:] = [find]


def _discover_once() -> None:
    global _discovered
    if not _discovered:
        _discovered = True
        for find in _discovery:
            find()


def codec_for(game: str) -> ViewCodec:
    """The view codec of ``game``: the registered one; for a game registered nowhere in this
    process, the installed game plugins are looked at once; failing that, the generic
    :class:`JsonViewCodec`. Never raises."""
    codec = _CODECS.get(game)
    if codec is not None:
        return codec
    with _lock:
        _discover_once()
        codec = _CODECS.get(game)
        if codec is None:
            codec = _FALLBACK.get(game)
            if codec is None:
                codec = _FALLBACK[game] = JsonViewCodec(game)
        return codec


def codec_for_message(message_type: type) -> ViewCodec | None:
    """The codec whose ``decode`` returns messages of ``message_type``, if any."""
    return _BY_TYPE.get(message_type)


def decode_view(wire: vpb.View) -> Any:
    """What a bot gets for a wire ``View``: the member message of a game with its own member,
    the plugin's message or dict for a ``PluginView`` (see :class:`MessageViewCodec`), ``None``
    when no member is set (a view newer than this SDK)."""
    which = wire.WhichOneof("game")
    if which is None:
        return None
    if which != "plugin":
        return getattr(wire, which)
    codec = codec_for(wire.plugin.game)
    if not isinstance(codec, JsonViewCodec):  # a game with a member of its own, sent as plugin
        codec = JsonViewCodec(wire.plugin.game)
    return codec.decode(wire)


def as_dict(view: Any, *, lazy_history: bool = False) -> dict[str, Any]:
    """The engine-style dict for a typed view (a dict is returned unchanged). With
    ``lazy_history`` the history is a :class:`LazyHistory` (a read-only sequence) instead of a list."""
    if isinstance(view, dict):
        return view
    codec = _BY_TYPE.get(type(view))
    if codec is None:
        raise TypeError(f"no dict form for view type {type(view).__name__}")
    return codec.to_dict(view, lazy_history)


# ---------------------------------------------------------------------------------------------
# Protobuf wire records written by hand
# ---------------------------------------------------------------------------------------------
#
# Setting a message's fields one by one costs a Python-to-C call each. Where a codec can reuse
# what it wrote before (the Schotten Totten flags), it writes the wire records itself, memoised,
# and parses them into the message in one call. Only the parsed *message* leaves: the referee
# serialises it deterministically as before, so the bytes on the wire are those the field-by-
# field build gave (records in another order or unsorted map entries parse to the same message).

_MEMO_LIMIT = 4096  # strings remembered per field (a game's vocabulary is far smaller)
_FLAGS_MEMO_LIMIT = 20_000  # Schotten Totten flags remembered (a key and ~100 bytes each)


def _varint(value: int) -> bytes:
    """``value`` (>= 0) as a protobuf varint."""
    if value < 0:
        raise ValueError(f"expected a non-negative integer, got {value}")
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL = tuple(_varint(i) for i in range(1 << 14))


def _uint(value: int) -> bytes:
    """An unsigned integer field's value as a varint (small ones from a table)."""
    if type(value) is int and 0 <= value < 16384:
        return _SMALL[value]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return _varint(value)


def _field_tag(message_type: type, name: str) -> bytes:
    """The record tag of field ``name`` of ``message_type``: its number and wire type (0 for
    unsigned integers and booleans, 2 for strings, messages, maps and packed repeats)."""
    field = message_type.DESCRIPTOR.fields_by_name[name]
    if field.type in (field.TYPE_STRING, field.TYPE_BYTES, field.TYPE_MESSAGE) or field.is_repeated:
        wire_type = 2
    elif field.type in (field.TYPE_UINT32, field.TYPE_UINT64, field.TYPE_BOOL):
        wire_type = 0
    else:  # signed, fixed-width, floating: not written by hand here
        raise ValueError(f"{message_type.__name__}.{name}: no hand-written records for its type")
    return _varint(field.number << 3 | wire_type)


def _record(tag: bytes, body: bytes) -> bytes:
    """A length-delimited record: a message field, a map entry."""
    return tag + _uint(len(body)) + body


def _text_field(tag: bytes) -> Callable[[str], bytes]:
    """``encode(text) -> bytes``: the record of a string field with ``tag`` (memoised)."""
    memo: dict[str, bytes] = {}
    get = memo.get

    def encode(text: str) -> bytes:
        found = get(text)
        if found is None:
            if not isinstance(text, str):
                raise TypeError(f"expected a string, got {text!r}")
            data = text.encode("utf-8")
            found = tag + _uint(len(data)) + data
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[str(text)] = found
        return found

    return encode


# ---------------------------------------------------------------------------------------------
# The built-in games' codecs
# ---------------------------------------------------------------------------------------------


def _schotten_totten_encoder() -> Callable[[Mapping[str, Any]], vpb.View]:
    """The Schotten Totten encoder. The flags are most of a view and most of them are as they
    were at the seat's last decision: their records are written by hand, memoised on what the
    flag holds (a key costs far less than the fields), and parsed in one call; the rest is set
    field by field (cheaper than records for single fields)."""
    Flag, Side = vpb.SchottenTottenFlag, vpb.SchottenTottenSide
    map_key, message_value_tag = _text_field(_varint(1 << 3 | 2)), _varint(2 << 3 | 2)  # a map entry's fields
    flags_tag = _field_tag(vpb.SchottenTottenView, "flags")
    flag_tag, sides_tag = _field_tag(Flag, "flag"), _field_tag(Flag, "sides")
    claimed_by, fog, mud = (_text_field(_field_tag(Flag, n)) for n in ("claimed_by", "fog", "mud"))
    side_card, completed_tag = _text_field(_field_tag(Side, "cards")), _field_tag(Side, "completed_at")
    join = b"".join
    memo: dict[tuple, bytes] = {}
    seen = memo.get

    def flag_record(flag: Mapping[str, Any]) -> bytes:
        parts = [flag_tag, _uint(flag["flag"]), claimed_by(flag["claimed_by"] or ""), fog(flag["fog"] or ""),
                 mud(flag["mud"] or "")]
        for name, side in flag["sides"].items():
            body = join(map(side_card, side["cards"]))
            if side["completed_at"] is not None:
                body += completed_tag + _uint(side["completed_at"])
            parts.append(_record(sides_tag, map_key(name) + _record(message_value_tag, body)))
        return _record(flags_tag, join(parts))

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
    key_tag, value_tag = _varint(1 << 3 | 2), _varint(2 << 3 | 2)  # a map entry's fields
    influence_tag, control_tag = _field_tag(View, "influence"), _field_tag(View, "control")
    us_tag, ussr_tag = _field_tag(Influence, "us"), _field_tag(Influence, "ussr")
    join = b"".join
    influence_memo: dict[tuple, bytes] = {}  # (country, (us, ussr)) → its map entry's record
    control_memo: dict[tuple, bytes] = {}  # (country, role) → its map entry's record
    parts: dict[tuple, bytes] = {}  # the rarely changing parts' values → their records
    seen_part = parts.get

    def influence_record(country: str, amounts: tuple[int, int]) -> bytes:
        us, ussr = amounts
        if not isinstance(country, str):
            raise TypeError(f"expected a country id, got {country!r}")
        value = (us_tag + _uint(us) if us else b"") + (ussr_tag + _uint(ussr) if ussr else b"")
        return _record(influence_tag, _record(key_tag, country.encode("utf-8")) + _record(value_tag, value))

    def control_record(country: str, side: str) -> bytes:
        if not isinstance(country, str) or not isinstance(side, str):
            raise TypeError(f"expected a country id and a role, got {country!r}: {side!r}")
        return _record(control_tag, _record(key_tag, country.encode("utf-8"))
                       + _record(value_tag, side.encode("utf-8")))

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
        "history": _history(view.history, lazy),
    }


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
        "history": _history(view.history, lazy),
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


#: The built-in games' codecs (their :class:`~standoff.sdk.GameSpec` names them too). In the
#: table from the start: a bot decodes, and the wire encodes, the built-in games without loading
#: any registry.
SCHOTTEN_TOTTEN_CODEC = MemberViewCodec(
    "schotten-totten", "schotten_totten", vpb.SchottenTottenView, encode_schotten_totten, _schotten_totten
)
TWILIGHT_STRUGGLE_CODEC = MemberViewCodec(
    "twilight-struggle", "twilight_struggle", vpb.TwilightStruggleView, encode_twilight_struggle, _twilight_struggle
)
register_codec(SCHOTTEN_TOTTEN_CODEC, builtin=True)
register_codec(TWILIGHT_STRUGGLE_CODEC, builtin=True)
