"""Twilight Struggle for the RL bridges (:mod:`standoff.sdk.rl`, docs/training.md): the action
table's keys, the observation encoder, what a seat remembers of the other hand from its history
(:class:`HandMemory`) and the public part of a view, as the game's
:class:`~standoff.server.rl.GameRL` (``GameSpec.rl``). numpy only where a vector is made.

A seat may know cards of the other hand that its current view does not list: the scoring cards
The Cambridge Five showed the USSR, the whole hand CIA Created or Lone Gunman showed, and cards
that went there in the open (Missile Envy, a Grain Sales card given back, SALT Negotiations'
pick). The view holds them only in its history, so :class:`HandMemory` reads the history as the
seat saw it and keeps them for as long as they stay in that hand: the record the engine keeps
itself (``TSState.known``, which its ``determinize`` re-deals around), rebuilt from the seat's
history alone (tests/test_rl.py compares the two over whole matches).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...rl import RECENT, Encoder, GameRL, bucket, flow_public_history
from . import card_data as CD
from . import map_data as M
from .determinize import headline_revealed
from .turn import USE_OPTIONS

#: ``choice:<key>`` literals of Twilight Struggle's event choices (events/*.py, ``ask(...)``);
#: the others are card ids, country ids and regions, added below.
TS_CHOICE_WORDS = (
    "accept", "add_ussr_influence", "boycott", "coup", "defcon_1", "defcon_2", "defcon_3", "defcon_4",
    "defcon_5", "double_ussr_influence", "influence", "keep", "leave_defcon", "lose_west_germany",
    "lower_defcon", "neither", "none", "one_in_south_africa_two_adjacent", "participate", "play",
    "raise_defcon", "realign", "remove_us_influence", "return", "two_in_south_africa", "un_intervention",
)


def keys(rules: Any = None) -> list[str]:
    """Every option key the game can offer, chance included (cards, countries, dice, card uses,
    event choices); the same for every ruleset."""
    cards = [c.id for c in CD.CARDS]
    countries = [c.id for c in M.COUNTRIES]
    regions = [name.lower().replace(" ", "_") for name in M.REGIONS]
    out = [f"card:{c}" for c in cards]
    out += [f"country:{c}" for c in countries] + ["country:chinese_civil_war"]
    out += [f"die:{n}" for n in range(1, 7)]
    out += [o.key for o in USE_OPTIONS.values()]
    out += ["done", "pass"]
    out += [f"choice:{k}" for k in (*cards, *countries, *regions, *TS_CHOICE_WORDS)]
    return out


class TwilightStruggleEncoder(Encoder):
    """Twilight Struggle: hand, the known cards of the other hand, influence and control per
    country, the tracks (VP, DEFCON, military operations, space race, turn, action round), The
    China Card, headlines, the event under way, the piles (discard, removed, events played),
    lasting effects (hashed), the step (hashed) and the last history entries."""

    STEP_BUCKETS = 64
    EFFECT_BUCKETS = 64

    def _build(self) -> None:
        self.card_index = {c.id: i for i, c in enumerate(CD.CARDS)}
        self.country_index = {c.id: i for i, c in enumerate(M.COUNTRIES)}
        nc, nk = len(self.card_index), len(self.country_index)
        self._add("side", 2)
        self._add("hand", nc)
        self._add("opponent_hand", nc)
        self._add("opponent_hand_size", 1)
        for s in range(2):
            self._add(f"seat{s}.influence", nk)
            self._add(f"seat{s}.control", nk)
            self._add(f"seat{s}.tracks", 2)  # military ops /5, space /8
        self._add("tracks", 6)  # vp /20, defcon /5, turn /10, action round /8, phasing is me, deck size /100
        self._add("china", 3)  # held by me, by the other, face up
        for s in range(2):
            self._add(f"seat{s}.headline", nc)
        self._add("event", nc + 2)  # card under way, by me, by the other
        self._add("discard", nc)
        self._add("removed", nc)
        self._add("events_played", nc)
        self._add("effects", self.EFFECT_BUCKETS)
        self._add("step", self.STEP_BUCKETS)
        self._add("misc", 2)  # chinese civil war, bid
        for back in range(RECENT):
            self._add(f"recent{back}", len(self.table) + 2)

    def encode(self, view: Mapping[str, Any], known: Sequence[str] = ()) -> Any:
        out = self.zeros()
        me = view["role"]
        seats = self.seats(me)
        L = self.layout
        out[L["side"].start + self.roles.index(me)] = 1.0
        self._cards(out, "hand", view["hand"])
        # the other hand as far as the seat knows it: open (Aldrich Ames Remix) or shown earlier
        # (The Cambridge Five, CIA Created, Lone Gunman...: ``known``)
        self._cards(out, "opponent_hand", {*(view.get("opponent_hand") or ()), *known})
        out[L["opponent_hand_size"].start] = view.get("opponent_hand_size", 0) / 10
        influence = view["influence"]
        control = view.get("control", {})
        countries = self.country_index
        for s, role in enumerate(seats):
            base = L[f"seat{s}.influence"].start
            cbase = L[f"seat{s}.control"].start
            for country, amounts in influence.items():
                out[base + countries[country]] = min(amounts.get(role, 0), 80) / 10
            for country, who in control.items():
                if who == role:
                    out[cbase + countries[country]] = 1.0
            base = L[f"seat{s}.tracks"].start
            out[base] = view.get("military_ops", {}).get(role, 0) / 5
            out[base + 1] = view.get("space", {}).get(role, 0) / 8
        base = L["tracks"].start
        vp = view.get("vp", 0)
        vp = max(-20, min(20, vp))  # the game ends at 20 (a final scoring may overshoot)
        out[base] = (vp if me == self.roles[1] else -vp) / 20  # positive: good for me
        out[base + 1] = view.get("defcon", 5) / 5
        out[base + 2] = view.get("turn", 0) / 10
        out[base + 3] = view.get("action_round", 0) / 8
        out[base + 4] = view.get("phasing") == me
        out[base + 5] = view.get("deck_size", 0) / 100
        china = view.get("china_card") or {}
        base = L["china"].start
        out[base] = china.get("holder") == me
        out[base + 1] = china.get("holder") not in (None, me)
        out[base + 2] = bool(china.get("face_up"))
        headline = view.get("headline") or {}
        for s, role in enumerate(seats):
            card = headline.get(role)
            if card:
                self._cards(out, f"seat{s}.headline", (card,))
        event = view.get("event")
        if event:
            base = L["event"].start
            out[base + self.card_index[event["card"]]] = 1.0
            out[base + len(self.card_index) + (0 if event.get("side") == me else 1)] = 1.0
        self._cards(out, "discard", view.get("discard", ()))
        self._cards(out, "removed", view.get("removed", ()))
        self._cards(out, "events_played", view.get("events_played", ()))
        base = L["effects"].start
        for effect in view.get("effects", ()):
            out[base + bucket(effect, self.EFFECT_BUCKETS)] = 1.0
        step = view.get("step")
        if step:
            out[L["step"].start + bucket(step, self.STEP_BUCKETS)] = 1.0
        base = L["misc"].start
        out[base] = view.get("chinese_civil_war", 0) / 3
        out[base + 1] = (view.get("rules") or {}).get("bid", 0) / 5
        self._recent(out, view, me)
        return out


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


def public_view(state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` (a seat's) without its private information: no card of any hand (the seat's own
    hand is given as a count), a headline before the reveal, a hand Aldrich Ames Remix opened,
    and the history's private entries redacted."""
    out = dict(view)
    out["history"] = flow_public_history(state, view.get("history_from") or 0)
    out["hand"] = []
    out["hand_size"] = len(view["hand"])
    out["opponent_hand"] = []
    if not headline_revealed(state):
        out["headline"] = {}
    return out


#: The game's part of its spec (``GameSpec.rl``).
RL = GameRL(keys=keys, encoder=TwilightStruggleEncoder, memory=HandMemory, public_view=public_view,
            max_game_length=50_000)
