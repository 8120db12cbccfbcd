"""What a game brings to the RL bridges (:mod:`standoff.sdk.rl`, docs/training.md): the type of
:attr:`GameSpec.rl <standoff.server.specs.GameSpec>` and the pieces a game's tables are built
from (the action table, the observation encoder's base class).

A game's own tables live in its package (the built-in games: ``standoff.server.games.<game>.rl``)
and reach the bridges only through its spec; a game whose spec has no ``rl`` gets the generic
tables of :mod:`standoff.sdk.rl`. numpy is imported where a vector is made, never at import: the
registry and the engines load without the ``rl`` extra.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "RECENT",
    "ActionTable",
    "Encoder",
    "GameRL",
    "SeatMemory",
    "UnknownAction",
    "bucket",
    "flow_public_history",
]

#: history entries at the end of the view encoded as one-hot action ids (what was just played)
RECENT = 3


class UnknownAction(KeyError):
    """An option key that is not in the game's action table (the table is incomplete: a bug)."""


class ActionTable:
    """A fixed, sorted table of every option key a game can offer: key ↔ action id."""

    def __init__(self, game: str, keys: Iterable[str]) -> None:
        self.game = game
        self.keys: tuple[str, ...] = tuple(sorted(set(keys)))
        self.index: dict[str, int] = {k: i for i, k in enumerate(self.keys)}

    def __len__(self) -> int:
        return len(self.keys)

    def id(self, key: str) -> int:
        try:
            return self.index[key]
        except KeyError:
            raise UnknownAction(f"{self.game}: option key {key!r} is not in the action table") from None

    def ids(self, options: Sequence[Any]) -> list[int]:
        """The action id of each option (engine or SDK options: anything with ``.key``), in order."""
        return [self.id(o.key) for o in options]

    def mask(self, options: Sequence[Any]) -> Any:
        """``numpy.int8`` vector, 1 for the ids of ``options``."""
        import numpy as np

        mask = np.zeros(len(self.keys), dtype=np.int8)
        for o in options:
            mask[self.id(o.key)] = 1
        return mask


def bucket(text: str, size: int) -> int:
    """A stable bucket for a free-form name (steps, lasting effects): crc32, not ``hash``."""
    return zlib.crc32(text.encode()) % size


class Encoder(ABC):
    """Builds the observation vector of a view. Subclasses list their slices in ``_build``."""

    def __init__(self, table: ActionTable, roles: Sequence[str]) -> None:
        self.table = table
        self.roles = tuple(roles)
        self.layout: dict[str, slice] = {}
        self.size = 0
        self._build()

    def _add(self, name: str, width: int) -> None:
        self.layout[name] = slice(self.size, self.size + width)
        self.size += width

    def seats(self, me: str) -> list[str]:
        """The roles from ``me``'s seat: ``me`` first, then the others in turn order."""
        i = self.roles.index(me)
        return list(self.roles[i:] + self.roles[:i])

    def zeros(self) -> Any:
        """An empty observation vector (``float32``, length ``size``)."""
        import numpy as np

        return np.zeros(self.size, dtype=np.float32)

    @abstractmethod
    def _build(self) -> None:
        """Lay out the vector: one :meth:`_add` per named slice."""

    @abstractmethod
    def encode(self, view: Mapping[str, Any], known: Sequence[str] = ()) -> Any:
        """The observation vector (``float32``, length ``size``) of ``view``; ``known``: what the
        seat's memory holds beyond the view (:class:`SeatMemory`; empty for a game without one)."""

    def _cards(self, out: Any, name: str, cards: Any) -> None:
        """One-hot ``cards`` in slice ``name`` (subclasses map card ids to ``card_index``)."""
        base = self.layout[name].start
        index = self.card_index
        for c in cards:
            out[base + index[c]] = 1.0

    def _recent(self, out: Any, view: Mapping[str, Any], me: str) -> None:
        """The last history entries: action id one-hot, and whether ``me`` played it (slices
        ``recent0``.. ``recent<RECENT-1>``, each ``len(table) + 2`` wide)."""
        history = view.get("history") or ()
        entries = list(history[-RECENT:]) if len(history) else []
        n = len(self.table)
        for back, entry in enumerate(reversed(entries)):
            _, who, _, key = entry
            base = self.layout[f"recent{back}"].start
            j = self.table.index.get(key)
            if j is not None:
                out[base + j] = 1.0
            out[base + n] = 1.0 if who == me else 0.0
            out[base + n + 1] = 1.0 if who == "chance" else 0.0


class SeatMemory(Protocol):
    """What one seat remembers of its history beyond its current view (a card of another hand
    that a reveal showed it...). Fed the entries of the seat's views in the match's order."""

    #: the number of the last history entry read
    seen: int
    #: what the seat knows now (the encoder's ``known``)
    known: set[str]

    def feed(self, history: Sequence[Sequence[Any]]) -> None:
        """Read the entries of ``history`` (a view's, oldest first) numbered after ``seen``."""
        ...

    def copy(self) -> SeatMemory:
        ...


@dataclass(frozen=True)
class GameRL:
    """A game's own tables for the RL bridges (:attr:`GameSpec.rl`).

    * ``keys(rules)``: every option key the game can offer under ``rules``, chance outcomes
      included (the action table: sorted, one id per key).
    * ``encoder(table, roles)``: the observation :class:`Encoder`; ``None``: the generic one
      (:class:`standoff.sdk.rl.GenericEncoder`: the view's hashed facts).
    * ``memory(role)``: a new :class:`SeatMemory` of that seat, for a game whose views hold part
      of what a seat knows only in their history; ``None``: the views say it all.
    * ``public_view(state, view)``: the seat's view without what only some seats see (OpenSpiel's
      public observation); ``None``: the generic one (:func:`standoff.sdk.rl_views.public_view`).
    * ``max_game_length``: a bound on the decisions of a match, chance included (OpenSpiel's
      ``max_game_length``); 0: the generic bound.
    """

    keys: Callable[[Any], Iterable[str]]
    encoder: Callable[[ActionTable, Sequence[str]], Encoder] | None = None
    memory: Callable[[str], SeatMemory] | None = None
    public_view: Callable[[Any, Mapping[str, Any]], dict[str, Any]] | None = None
    max_game_length: int = 0


def flow_public_history(state: Any, history_from: int) -> list[list[Any]]:
    """The history of a game built on :mod:`standoff.server.core.flow` as a seat with no private
    view sees it: every entry shown to only some roles (a draw, a secret choice, a reveal) in its
    redacted form."""
    from .core.flow import history_since

    return [[e.number, e.role, e.step, e.seen_by("")] for e in history_since(state.history, history_from)]
