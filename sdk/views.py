"""Typed views as plain dicts, for bots that prefer them.

``as_dict(view)`` turns a wire view message (e.g. ``SchottenTottenView``) into the same JSON-ready
structure the engine's ``view()`` builds: empty strings become ``None`` where the engine says
"nobody", history entries are ``[number, role, step, key]`` lists. A dict passes through as is.
"""

from __future__ import annotations

from typing import Any

from standoff.v1 import views_pb2 as vpb


def _schotten_totten(view: vpb.SchottenTottenView) -> dict[str, Any]:
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
        "history": [[e.number, e.role, e.step, e.key] for e in view.history],
    }


def _twilight_struggle(view: vpb.TwilightStruggleView) -> dict[str, Any]:
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
        "history": [[e.number, e.role, e.step, e.key] for e in view.history],
    }


_CONVERTERS = {vpb.SchottenTottenView: _schotten_totten, vpb.TwilightStruggleView: _twilight_struggle}


def as_dict(view: Any) -> dict[str, Any]:
    """The engine-style dict for a typed view (a dict is returned unchanged)."""
    if isinstance(view, dict):
        return view
    convert = _CONVERTERS.get(type(view))
    if convert is None:
        raise TypeError(f"no dict form for view type {type(view).__name__}")
    return convert(view)
