"""Schotten Totten / Battle Line for the RL bridges (:mod:`standoff.sdk.rl`, docs/training.md):
the action table's keys, the observation encoder and the public part of a view, as the game's
:class:`~standoff.server.rl.GameRL` (``GameSpec.rl``). numpy only where a vector is made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...rl import RECENT, Encoder, GameRL, flow_public_history
from . import cards as C
from .state import DECK_NAMES


def keys(rules: Any = None) -> list[str]:
    """Every option key the game can offer, chance included; the same for every ruleset (a
    ruleset offers a subset)."""
    out = [f"card:{C.card_name(c)}" for c in range(70)]
    out += [f"flag:{f}" for f in range(1, 10)]
    out += [f"deck:{name}" for name in DECK_NAMES]
    out += ["pass", "done", "discard"]
    out += [f"role:p{n}" for n in range(1, 4)]  # chance: who starts
    return out


class SchottenTottenEncoder(Encoder):
    """Schotten Totten / Battle Line: hand, the nine flags (cards per seat, claims, Fog, Mud,
    completion), the other seats' hand sizes and known cards, the decks, discards, tactics counts,
    the step and the last history entries."""

    STEPS = ("play", "place", "claim", "draw", "environment", "scout_draw", "scout_return", "redeploy",
             "redeploy_to", "deserter", "traitor", "traitor_to", "mud_discard")

    def _build(self) -> None:
        self.card_index = {C.card_name(c): c for c in range(70)}
        r = len(self.roles)
        self._add("hand", 70)
        for f in range(9):
            for s in range(r):
                self._add(f"flag{f + 1}.seat{s}", 70)
                self._add(f"flag{f + 1}.seat{s}.complete", 1)
            self._add(f"flag{f + 1}.claimed", r + 1)  # by seat 0..r-1, or nobody
            self._add(f"flag{f + 1}.fog", 1)
            self._add(f"flag{f + 1}.mud", 1)
        for s in range(1, r):
            self._add(f"seat{s}.hand_size", 2)  # troops, tactics (/10)
            self._add(f"seat{s}.known", 70)
        self._add("decks", 4)  # sizes /60, /10; cards put back on top (Scout) /3, per deck
        self._add("deck_tops", 70)
        for s in range(r):
            self._add(f"seat{s}.discard", 70)
            self._add(f"seat{s}.tactics", 2)  # tactics played /10, leader played
        self._add("step", len(self.STEPS) + 1)
        self._add("to_move", 1)
        for back in range(RECENT):
            self._add(f"recent{back}", len(self.table) + 2)

    def encode(self, view: Mapping[str, Any], known: Sequence[str] = ()) -> Any:
        # (Scout's known cards are in the view itself: ``known`` is empty for this game)
        out = self.zeros()
        me = view["role"]
        seats = self.seats(me)
        L = self.layout
        self._cards(out, "hand", view["hand"])
        for f, flag in enumerate(view["flags"]):
            sides = flag["sides"]
            for s, role in enumerate(seats):
                side = sides[role]
                self._cards(out, f"flag{f + 1}.seat{s}", side["cards"])
                out[L[f"flag{f + 1}.seat{s}.complete"].start] = side["completed_at"] is not None
            claimed = flag["claimed_by"]
            out[L[f"flag{f + 1}.claimed"].start + (seats.index(claimed) if claimed else len(seats))] = 1.0
            out[L[f"flag{f + 1}.fog"].start] = flag.get("fog") is not None
            out[L[f"flag{f + 1}.mud"].start] = flag.get("mud") is not None
        opponents = view["opponents"]
        for s, role in enumerate(seats[1:], start=1):
            other = opponents[role]
            base = L[f"seat{s}.hand_size"].start
            out[base] = other["troops"] / 10
            out[base + 1] = other["tactics"] / 10
            self._cards(out, f"seat{s}.known", other["known"])
        decks = view["decks"]
        base = L["decks"].start
        out[base] = decks["troops"]["size"] / 60
        out[base + 1] = decks.get("tactics", {"size": 0})["size"] / 10
        for name, deck in decks.items():
            tops = deck["top"]  # from the top down: a card another seat put back is "unknown"
            out[base + (3 if name == "tactics" else 2)] = len(tops) / 3
            self._cards(out, "deck_tops", (c for c in tops if c != "unknown"))
        discards = view.get("discards", {})
        tactics = view.get("tactics_played", {})
        leaders = view.get("leader_played", {})
        for s, role in enumerate(seats):
            self._cards(out, f"seat{s}.discard", discards.get(role, ()))
            base = L[f"seat{s}.tactics"].start
            out[base] = tactics.get(role, 0) / 10
            out[base + 1] = bool(leaders.get(role, False))
        step = view.get("step")
        base = L["step"].start
        out[base + (self.STEPS.index(step) if step in self.STEPS else len(self.STEPS))] = 1.0
        out[L["to_move"].start] = view.get("to_move") == me
        self._recent(out, view, me)
        return out


def public_view(state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` (a seat's) without its private information: no card of any hand (the seat's own
    hand is given as counts), no card only that seat knows (Scout: known cards, deck tops it put
    back) and the history's private entries redacted."""
    out = dict(view)
    out["history"] = flow_public_history(state, view.get("history_from") or 0)
    hand = view["hand"]
    out["hand"] = []
    troops = sum(1 for c in hand if C.card_from_name(c) < 60)
    out["hand_size"] = {"troops": troops, "tactics": len(hand) - troops}
    out["opponents"] = {r: {**o, "known": []} for r, o in view["opponents"].items()}
    out["decks"] = {d: {**deck, "top": ["unknown"] * len(deck["top"])} for d, deck in view["decks"].items()}
    return out


#: The game's part of its spec (``GameSpec.rl``).
RL = GameRL(keys=keys, encoder=SchottenTottenEncoder, public_view=public_view, max_game_length=20_000)
