"""Goofspiel's text boards: one seat's (from its view alone) and the whole table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _cards(cards: Sequence[int]) -> str:
    return " ".join(map(str, cards)) or "-"


def _round(played: Mapping[str, Any]) -> str:
    bids = "/".join(str(b) for b in played["bids"].values())
    return f"{played['prize']}:{bids}>{played['winner'] or 'tie'}"


def seat_board(view: Mapping[str, Any]) -> str:
    """The board a seat sees: the prize up, its hand and bid, what the others have not shown."""
    me = view["role"]
    scores = ", ".join(f"{role} {points}" for role, points in view["scores"].items())
    lines = [
        f"goofspiel, {view['cards']} cards - as seen by {me}",
        f"  prize up: {view['prize'] or '-'}   prizes face down: {_cards(view['prizes_left'])}",
        f"  score: {scores}",
        f"  your hand: {_cards(view['hand'])}   your bid: {view['bid'] or '-'}",
    ]
    for role, other in view["opponents"].items():
        placed = "has bid" if other["bid_placed"] else "has not bid"
        lines.append(f"  {role} not shown: {_cards(other['cards'])} ({placed})")
    if view["rounds"]:
        lines.append("  rounds (prize:bids>winner): " + " ".join(_round(r) for r in view["rounds"]))
    recent = view.get("history") or []
    if recent:
        lines.append("  recent: " + "; ".join(f"{n} {role} {step} {key}" for n, role, step, key in recent[-6:]))
    return "\n".join(lines)


def state_board(state: Any) -> str:
    """The whole table: every hand and every pending bid."""
    roles = state.rules.roles
    lines = [
        f"goofspiel, {state.rules.cards} cards - everything",
        f"  prize up: {state.prize or '-'}   prizes face down: {_cards(state.prizes_left)}",
        "  score: " + ", ".join(f"{role} {points}" for role, points in zip(roles, state.scores)),
    ]
    for i, role in enumerate(roles):
        lines.append(f"  {role} hand: {_cards(state.hands[i])}   bid: {state.bids[i] or '-'}")
    return "\n".join(lines)
