"""What an RL observation is built from: one seat's views along a match, with what the seat
remembers of its history, and the public and private parts of a view (OpenSpiel's observation
types: :mod:`standoff.sdk.rl_openspiel`).

A game's view may hold part of what a seat knows only in its history (a card of another hand
that a reveal showed it earlier): the game's ``GameRL.memory`` (:class:`~standoff.server.rl.SeatMemory`)
reads the history as the seat saw it and keeps that knowledge. A :class:`SeatObserver` feeds it
each view's new entries, so the environments can ask for views with only their recent history
(``history_from``) and still remember a reveal. A game without a memory needs none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SeatObserver", "generic_public_view", "private_part", "public_view"]


class SeatObserver:
    """One seat's observations along one match: the spec's encoder, plus the seat's memory of its
    history (the game's ``GameRL.memory``, if it has one). Feed it the seat's views in the match's order;
    each view's history must start at or before :meth:`history_from` (a whole history, from 0,
    always does)."""

    __slots__ = ("spec", "role", "memory")

    def __init__(self, spec: Any, role: str) -> None:
        self.spec = spec
        self.role = role
        parts = spec.parts
        self.memory = parts.memory(role) if parts is not None and parts.memory is not None else None

    def copy(self) -> SeatObserver:
        clone = SeatObserver.__new__(SeatObserver)
        clone.spec, clone.role = self.spec, self.role
        clone.memory = self.memory.copy() if self.memory is not None else None
        return clone

    def history_from(self, applied: int) -> int:
        """The ``history_from`` of the next view to ask for, ``applied`` decisions into the match:
        the entries the memory has not read and the recent ones the encoder shows (16 back)."""
        recent = max(0, applied - 16)
        return recent if self.memory is None else min(recent, self.memory.seen)

    def remember(self, view: Mapping[str, Any]) -> None:
        """Read the view's new history entries (``ValueError`` if it starts after them)."""
        memory = self.memory
        if memory is None:
            return
        start = view.get("history_from") or 0
        if start > memory.seen:
            raise ValueError(f"view history from {start}, but the observer has read only up to {memory.seen}: "
                             "pass the views in order, from history_from = observer.history_from(applied)")
        memory.feed(view.get("history") or ())

    def known(self) -> list[str]:
        """What the seat's memory knows beyond its view (sorted; empty without a memory)."""
        return sorted(self.memory.known) if self.memory is not None else []

    def observe(self, view: Mapping[str, Any]) -> Any:
        """The observation vector of ``view`` (the seat's, a dict), its memory read first."""
        self.remember(view)
        return self.spec.encoder.encode(view, self.known())


# -- public and private parts of a view (OpenSpiel's IIGObservationType) --------------------------------


def public_view(spec: Any, state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` (a seat's) without its private information: the game's ``GameRL.public_view``,
    else the generic public view (:func:`generic_public_view`). ``spec``: an
    :class:`~standoff.sdk.rl.RLSpec`."""
    parts = spec.parts
    if parts is not None and parts.public_view is not None:
        return parts.public_view(state, view)
    return generic_public_view(spec.game, spec.roles, state, view)


#: the key a history entry has in the generic public view when the seats see it differently
HIDDEN = "hidden"


def generic_public_view(game: Any, roles: Any, state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    """The public part of ``view`` for a game that does not say what is public: what every seat
    sees alike (``roles``: the match's). A field of the view is kept when every role's view has the same value (the
    others are left out: a hand, a pending secret choice, a seat's own notes); a history entry
    keeps its key when every role's view shows the same key, else it reads ``"hidden"``. The
    role, ``history_from`` and the history's numbers and actors are kept.

    This relies on what the views show, not on what the game means: a field that two seats see
    alike by coincidence (two private hands that happen to be equal) is kept. A game with such
    fields gives its spec a ``GameRL.public_view``. A history entry's redacted key must not be
    one of its real keys (true of every built-in game and the test plugin)."""
    start = view.get("history_from") or 0
    views = [view if r == view["role"] else game.view(state, r, start) for r in roles]
    out: dict[str, Any] = {"role": view["role"], "history_from": start}
    for key, value in view.items():
        if key not in out and key != "history" and all(key in v and v[key] == value for v in views):
            out[key] = value
    histories = [v.get("history") or [] for v in views]
    out["history"] = [
        [entry[0], entry[1], entry[2], entry[3] if all(list(e) == list(entry) for e in same) else HIDDEN]
        for entry, *same in zip(*histories, strict=True)
    ]
    return out


def private_part(view: Mapping[str, Any], public: Mapping[str, Any]) -> dict[str, Any]:
    """What ``view`` shows beyond its public part ``public`` (:func:`public_view`): its fields that
    differ, the history's entries that differ (numbered), and the seat's role."""
    out: dict[str, Any] = {"role": view["role"]}
    for key, value in view.items():
        if key in ("history", "history_from"):
            continue
        if public.get(key) != value:
            out[key] = value
    history = [mine for mine, seen in zip(view.get("history") or (), public.get("history") or (), strict=True)
               if list(mine) != list(seen)]
    if history:
        out["history"] = history
    return out
