"""How the report's match viewer gets its tracks: each frame's view as a delta on the previous
one (:func:`view_delta`, undone by :func:`apply_delta` and by the viewer's script), option lists
shared within a track (:func:`frame_options` decodes them), and text boards as line deltas.
The viewer's script (:data:`.html_assets.VIEWER_JS`) decodes the same encoding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["apply_delta", "frame_options", "share_options", "text_frames", "view_delta"]


_MISSING = object()


def view_delta(previous: Mapping[str, Any] | None, current: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``previous`` to ``current`` (top-level keys): changed values whole,
    except equal-length lists, sent as ``{"@patch": {index: item}}``, lists that grew at the end
    (``{"@add": [items]}``) and dicts of which a few keys changed (``{"@dict": {key: value},
    "@del": [keys]}``); removed keys in ``"@gone"``. :func:`apply_delta` (and the viewer's
    JavaScript) undo it."""
    if previous is None:
        return dict(current)
    delta: dict[str, Any] = {}
    for key, value in current.items():
        old = previous.get(key, _MISSING)
        if old == value:
            continue
        if isinstance(value, list) and isinstance(old, list) and value and len(value) == len(old):
            delta[key] = {"@patch": {str(i): v for i, (v, o) in enumerate(zip(value, old)) if v != o}}
        elif isinstance(value, list) and isinstance(old, list) and len(value) > len(old) and value[: len(old)] == old:
            delta[key] = {"@add": value[len(old):]}
        elif _sorted_strings(value) and _sorted_strings(old) and set(old) <= set(value) and len(value) == len(set(value)):
            delta[key] = {"@sorted": sorted(set(value) - set(old))}  # merged in, kept sorted
        elif isinstance(value, dict) and isinstance(old, dict) and old:
            changed = {k: v for k, v in value.items() if old.get(k, _MISSING) != v}
            dropped = [k for k in old if k not in value]
            if len(changed) + len(dropped) < len(value):  # smaller than the whole dict
                delta[key] = {"@dict": changed, **({"@del": dropped} if dropped else {})}
            else:
                delta[key] = value
        else:
            delta[key] = value
    gone = [key for key in previous if key not in current]
    if gone:
        delta["@gone"] = gone
    return delta


def _sorted_strings(value: Any) -> bool:
    return (isinstance(value, list) and bool(value) and all(isinstance(v, str) and v.isascii() for v in value)
            and all(a < b for a, b in zip(value, value[1:])))


def apply_delta(previous: Mapping[str, Any] | None, delta: Mapping[str, Any]) -> dict[str, Any]:
    """The view :func:`view_delta` encoded: ``apply_delta(a, view_delta(a, b)) == b``."""
    view = dict(previous or {})
    for key, value in delta.items():
        if key == "@gone":
            for gone in value:
                view.pop(gone, None)
        elif isinstance(value, dict) and "@patch" in value and isinstance(view.get(key), list):
            items = list(view[key])
            for index, item in value["@patch"].items():
                items[int(index)] = item
            view[key] = items
        elif isinstance(value, dict) and "@sorted" in value and isinstance(view.get(key), list):
            view[key] = sorted(list(view[key]) + list(value["@sorted"]))
        elif isinstance(value, dict) and "@add" in value and isinstance(view.get(key), list):
            view[key] = list(view[key]) + list(value["@add"])
        elif isinstance(value, dict) and "@dict" in value and isinstance(view.get(key), dict):
            merged = {**view[key], **value["@dict"]}
            for gone in value.get("@del", ()):
                merged.pop(gone, None)
            view[key] = merged
        else:
            view[key] = value
    return view


def share_options(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """A track's frames with their option lists coded: ``keys``, every option key of the track
    once, and each frame's ``o`` a list of indices into it, or ``"="`` when equal to the
    previous list (a game may ask the same question several times in a row: one influence point
    at a time, say). :func:`frame_options` decodes them."""
    keys: dict[str, int] = {}
    previous = None
    for frame in frames:
        options = frame.get("o")
        if options is None:
            continue
        if options == previous:
            frame["o"] = "="
            continue
        previous = options
        frame["o"] = [keys.setdefault(key, len(keys)) for key in options]
    return {"frames": frames, "keys": list(keys)}


def frame_options(track: Mapping[str, Any]) -> list[list[str] | None]:
    """The option keys of each frame of ``track`` (``None``: a frame without options)."""
    keys, result, previous = track.get("keys") or [], [], None
    for frame in track["frames"]:
        options = frame.get("o")
        if options is None:
            result.append(None)
            continue
        if options != "=":
            previous = [keys[i] for i in options]
        result.append(previous)
    return result


def text_frames(boards: Sequence[str], choices: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Frames of board texts: ``b``, each board's lines as a delta on the previous ones."""
    frames, previous = [], None
    for board, choice in zip(boards, choices):
        current = {"board": board.split("\n")}
        frames.append({"b": view_delta(previous, current), **choice})
        previous = current
    return frames
