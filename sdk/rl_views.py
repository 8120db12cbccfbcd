"""What an RL observation is built from: one seat's views along a match, with what the seat
remembers of its history, and the public and private parts of a view (OpenSpiel's observation
types: :mod:`standoff.sdk.rl_openspiel`).

A Twilight Struggle seat may know cards of the other hand that its current view does not list:
the scoring cards The Cambridge Five showed the USSR, the whole hand CIA Created or Lone Gunman
showed, and cards that went there in the open (Missile Envy, a Grain Sales card given back, SALT
Negotiations' pick). The view holds them only in its history, so :class:`HandMemory` reads the
history as the seat saw it and keeps them for as long as they stay in that hand: the record the
engine keeps itself (``TSState.known``, which its ``determinize`` re-deals around), rebuilt from
the seat's history alone (tests/test_rl.py compares the two over whole matches). A
:class:`SeatObserver` feeds it each view's new entries, so the environments can ask for views
with only their recent history (``history_from``) and still remember a reveal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..server.core.flow import history_since

__all__ = ["HandMemory", "SeatObserver", "private_part", "public_view"]

#: history entries by the other side that show cards of its hand (``hand:a,b,c``)
_REVEALS = frozenset(("reveal_hand", "reveal_scoring_cards"))


def _named_card(key: str) -> str | None:
    """The card a ``card:<id>`` or ``choice:<id>`` key names (or a word, a country: the caller
    checks it against the cards it knows)."""
    kind, _, name = key.partition(":")
    return name if kind in ("card", "choice") and name else None


class HandMemory:
    """The cards a Twilight Struggle seat knows to be in the other hand, from its history.

    A card becomes known when a reveal of the other side's hand names it (``reveal_hand``,
    ``reveal_scoring_cards``; redacted reveals, ``hand:hidden``, show nothing) or when it goes
    there in the open (``missile_envy_gives``: Missile Envy joins the giver's hand; the other
    side's SALT Negotiations pick; a Grain Sales card the US gives back). It is forgotten when a
    later entry names it: played, discarded, taken at random, chosen by either side, revealed as
    a headline. A known card chosen as the secret headline stays known until the reveal, as in
    the engine (it may be either)."""

    __slots__ = ("me", "seen", "known", "_grain")

    def __init__(self, me: str) -> None:
        self.me = me
        self.seen = 0  # entries numbered up to this one are read (a number's entries come together)
        self.known: set[str] = set()
        self._grain: str | None = None  # the card Grain Sales took, until the US plays or returns it

    def copy(self) -> HandMemory:
        clone = HandMemory(self.me)
        clone.seen, clone.known, clone._grain = self.seen, set(self.known), self._grain
        return clone

    def feed(self, history: Sequence[Sequence[Any]]) -> None:
        """Read the entries of ``history`` (a view's, oldest first) numbered after :attr:`seen`."""
        start = len(history)
        while start and history[start - 1][0] > self.seen:
            start -= 1
        for number, who, step, key in history[start:]:
            self._entry(who, step, key)
            self.seen = number

    def _entry(self, who: str, step: str, key: str) -> None:
        known = self.known
        if step in _REVEALS:
            if who != self.me and key.startswith("hand:") and key != "hand:hidden":
                known.update(c for c in key[5:].split(",") if c)
            return
        card = _named_card(key)
        if card is not None:
            known.discard(card)
        if step == "missile_envy_gives" and who != self.me:
            known.add("missile_envy")
        elif step == "salt_negotiations" and who != self.me and card not in (None, "none"):
            known.add(card)
        elif step == "grain_sales" and who == "chance":
            self._grain = card
        elif step == "grain_sales_to_soviets":
            if key == "choice:return" and who == self.me and self._grain:
                known.add(self._grain)  # the US gives it back to the USSR, in the open
            self._grain = None


class SeatObserver:
    """One seat's observations along one match: the spec's encoder, plus the seat's memory of its
    history (Twilight Struggle: :class:`HandMemory`). Feed it the seat's views in the match's order;
    each view's history must start at or before :meth:`history_from` (a whole history, from 0,
    always does)."""

    __slots__ = ("spec", "role", "memory")

    def __init__(self, spec: Any, role: str) -> None:
        self.spec = spec
        self.role = role
        self.memory = HandMemory(role) if spec.game.name == "twilight-struggle" else None

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
        """The cards the seat knows to be in the other hand and its view does not list (sorted)."""
        return sorted(self.memory.known) if self.memory is not None else []

    def observe(self, view: Mapping[str, Any]) -> Any:
        """The observation vector of ``view`` (the seat's, a dict), its memory read first."""
        self.remember(view)
        return self.spec.encoder.encode(view, self.known())


# -- public and private parts of a view (OpenSpiel's IIGObservationType) --------------------------------


def public_history(state: Any, history_from: int) -> list[list[Any]]:
    """The history as a seat with no private view sees it: every entry shown to only some
    roles (a draw, a secret headline, a reveal) in its redacted form."""
    return [[e.number, e.role, e.step, e.seen_by("")] for e in history_since(state.history, history_from)]


def public_view(game: Any, state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` (a seat's) without its private information: no card of any hand (the seat's own
    hand is given as a count), no card only that seat knows (Schotten Totten's Scout: known cards,
    deck tops it put back; Twilight Struggle: a headline before the reveal, a hand Aldrich Ames
    Remix opened) and the history's private entries redacted (:func:`public_history`)."""
    out = dict(view)
    out["history"] = public_history(state, view.get("history_from") or 0)
    hand = view["hand"]
    out["hand"] = []
    if game.name == "twilight-struggle":
        from ..server.games.twilight_struggle.determinize import headline_revealed

        out["hand_size"] = len(hand)
        out["opponent_hand"] = []
        if not headline_revealed(state):
            out["headline"] = {}
    else:
        from ..server.games.schotten_totten.cards import card_from_name

        troops = sum(1 for c in hand if card_from_name(c) < 60)
        out["hand_size"] = {"troops": troops, "tactics": len(hand) - troops}
        out["opponents"] = {r: {**o, "known": []} for r, o in view["opponents"].items()}
        out["decks"] = {d: {**deck, "top": ["unknown"] * len(deck["top"])} for d, deck in view["decks"].items()}
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
