"""Views on the wire: the view codecs and typed views as plain dicts, for bot and plugin authors.

The codec machinery is the referee's (:mod:`standoff.server.codecs`, whose docstring explains the
three kinds of codec, and :mod:`standoff.server.codec_table`); each built-in game's codec lives in its own package
(``standoff.server.games.<game>.codec``) and is reached through :func:`codec_for`.
"""

from . import plugin as _plugin  # noqa: F401 - a bot's process finds the games' view codecs (discovery)
from ..server.codec_table import as_dict, codec_for, codec_for_message, decode_view, register_codec, registered_codec
from ..server.codecs import (
    TYPE_URL_PREFIX,
    JsonViewCodec,
    LazyHistory,
    MemberViewCodec,
    MessageViewCodec,
    ViewCodec,
    canonical_json,
    history_rows,
)

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
