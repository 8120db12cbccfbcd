"""Views on the wire: each game's *view codec*, and typed views as plain dicts.

A game's view travels in three shapes: the engine's ``view(state, role)`` (a JSON-ready dict),
the wire's ``View`` message, and what a bot's ``choose`` receives (a typed message, or a dict).
A :class:`ViewCodec` converts between them for one game. Games register theirs with their
:class:`~standoff.sdk.GameSpec` (``standoff_games()`` hook); :mod:`standoff.server.codec_table` keeps the
process-wide table (``codec_for``) that the referee's wire (``standoff.server.wire.encode_view``), the SDK's
decoding (``decode_view``, ``as_dict``) and the history book look codecs up in.

Three kinds:

* :class:`MemberViewCodec`: a game with a member of its own in the ``View`` oneof (the built-in
  games, each in its package's ``codec.py``). Bots get that message.
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
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from standoff.v1 import views_pb2 as vpb

__all__ = [
    "TYPE_URL_PREFIX",
    "JsonViewCodec",
    "LazyHistory",
    "MemberViewCodec",
    "MessageViewCodec",
    "ViewCodec",
    "canonical_json",
    "field_tag",
    "history_rows",
    "length_record",
    "text_field",
    "uint",
    "varint",
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
      (``codec_table.as_dict``).

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
# Protobuf wire records written by hand
# ---------------------------------------------------------------------------------------------
#
# Setting a message's fields one by one costs a Python-to-C call each. Where a codec can reuse
# what it wrote before (a board's unchanged parts), it writes the wire records itself, memoised,
# and parses them into the message in one call. Only the parsed *message* leaves: the referee
# serialises it deterministically as before, so the bytes on the wire are those the field-by-
# field build gave (records in another order or unsorted map entries parse to the same message).

MEMO_LIMIT = 4096  # strings remembered per field (a game's vocabulary is far smaller)


def varint(value: int) -> bytes:
    """``value`` (>= 0) as a protobuf varint."""
    if value < 0:
        raise ValueError(f"expected a non-negative integer, got {value}")
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL = tuple(varint(i) for i in range(1 << 14))


def uint(value: int) -> bytes:
    """An unsigned integer field's value as a varint (small ones from a table)."""
    if type(value) is int and 0 <= value < 16384:
        return _SMALL[value]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return varint(value)


def field_tag(message_type: type, name: str) -> bytes:
    """The record tag of field ``name`` of ``message_type``: its number and wire type (0 for
    unsigned integers and booleans, 2 for strings, messages, maps and packed repeats)."""
    field = message_type.DESCRIPTOR.fields_by_name[name]
    if field.type in (field.TYPE_STRING, field.TYPE_BYTES, field.TYPE_MESSAGE) or field.is_repeated:
        wire_type = 2
    elif field.type in (field.TYPE_UINT32, field.TYPE_UINT64, field.TYPE_BOOL):
        wire_type = 0
    else:  # signed, fixed-width, floating: not written by hand here
        raise ValueError(f"{message_type.__name__}.{name}: no hand-written records for its type")
    return varint(field.number << 3 | wire_type)


def length_record(tag: bytes, body: bytes) -> bytes:
    """A length-delimited record: a message field, a map entry."""
    return tag + uint(len(body)) + body


def text_field(tag: bytes) -> Callable[[str], bytes]:
    """``encode(text) -> bytes``: the record of a string field with ``tag`` (memoised)."""
    memo: dict[str, bytes] = {}
    get = memo.get

    def encode(text: str) -> bytes:
        found = get(text)
        if found is None:
            if not isinstance(text, str):
                raise TypeError(f"expected a string, got {text!r}")
            data = text.encode("utf-8")
            found = tag + uint(len(data)) + data
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[str(text)] = found
        return found

    return encode
