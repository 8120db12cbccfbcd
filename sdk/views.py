"""Typed views as plain dicts, for bots that prefer them.

``as_dict(view)`` turns a wire view message (e.g. ``SchottenTottenView``) into the same JSON-ready
structure the engine's ``view()`` builds: empty strings become ``None`` where the engine says
"nobody", history entries are ``[number, role, step, key]`` lists. A dict passes through as is.
``as_dict(view, lazy_history=True)`` converts history entries only when they are read (a bot that
reads the last few entries of a long match should not convert thousands at every decision).
"""

from __future__ import annotations

from typing import Any

from standoff.v1 import views_pb2 as vpb


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


def _history(entries: Any, lazy: bool) -> Any:
    return LazyHistory(entries) if lazy else [_row(e) for e in entries]


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
    return {
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
        "deck_size": view.deck_size,
        "discard": list(view.discard),
        "removed": list(view.removed),
        "effects": list(view.effects),
        "events_played": list(view.events_played),
        "chinese_civil_war": view.chinese_civil_war,
        "history_from": view.history_from,
        "history": _history(view.history, lazy),
    }


_CONVERTERS = {vpb.SchottenTottenView: _schotten_totten, vpb.TwilightStruggleView: _twilight_struggle}


def as_dict(view: Any, *, lazy_history: bool = False) -> dict[str, Any]:
    """The engine-style dict for a typed view (a dict is returned unchanged). With
    ``lazy_history`` the history is a :class:`LazyHistory` (a read-only sequence) instead of a list."""
    if isinstance(view, dict):
        return view
    convert = _CONVERTERS.get(type(view))
    if convert is None:
        raise TypeError(f"no dict form for view type {type(view).__name__}")
    return convert(view, lazy_history)
