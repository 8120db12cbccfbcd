"""The process's table of view codecs: which :class:`~standoff.server.codecs.ViewCodec` encodes and
decodes each game's views (:func:`codec_for`), and the decoding every bot uses
(:func:`decode_view`, :func:`as_dict`). The referee's registry enters each game's codec
(:mod:`standoff.server.plugins`); a bot's process gets the built-in games' and the installed
plugins' through the SDK's discovery (:func:`standoff.sdk.plugin.discover_installed_games`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from standoff.v1 import views_pb2 as vpb

from .codecs import JsonViewCodec, ViewCodec

__all__ = ["as_dict", "codec_for", "codec_for_message", "decode_view", "register_codec", "registered_codec"]


_CODECS: dict[str, ViewCodec] = {}
_BY_TYPE: dict[type, ViewCodec] = {}
_BUILTIN: set[str] = set()
_FALLBACK: dict[str, JsonViewCodec] = {}  # games found nowhere: the generic codec
_lock = threading.RLock()
_discovery: list[Callable[[], None]] = []  # add_discovery
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


def add_discovery(find: Callable[[], None]) -> None:
    """Run ``find()`` (once) the first time a game or a view type is met that has no codec here:
    how a process that loaded no registry finds the built-in games' codecs and the installed
    plugins' (the referee's registry and the SDK add theirs; each is added once)."""
    with _lock:
        if find not in _discovery:
            _discovery.append(find)
            global _discovered
            _discovered = False


def _discover_once() -> None:
    global _discovered
    if not _discovered:
        _discovered = True
        for find in tuple(_discovery):
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
        with _lock:
            _discover_once()
        codec = _BY_TYPE.get(type(view))
    if codec is None:
        raise TypeError(f"no dict form for view type {type(view).__name__}")
    return codec.to_dict(view, lazy_history)
