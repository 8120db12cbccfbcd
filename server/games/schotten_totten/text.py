"""Plain-text rendering of a Schotten Totten table, for replays and logs (omniscient)."""

from __future__ import annotations

from .cards import card_name
from .formations import RANK_NAMES, strength
from .state import DECK_NAMES, NO_ONE, STState


def render(state: STState) -> str:
    roles = state.rules.roles
    n = len(roles)
    lines = [f"turn {state.turn}, {roles[state.current]} to move"]
    for f in range(9):
        size = state.capacity(f)
        parts = []
        for r, role in enumerate(roles):
            side = state.sides[f * n + r]
            cards = " ".join(card_name(c) for c in side) or "-"
            note = ""
            if len(side) >= size:
                rank, total = strength(side, state.fog[f] != NO_ONE)
                note = f" ({RANK_NAMES[rank]} {total})"
            parts.append(f"{role}: {cards}{note}")
        tags = []
        if state.fog[f] != NO_ONE:
            tags.append("fog")
        if state.mud[f] != NO_ONE:
            tags.append("mud")
        if state.claimed[f] != NO_ONE:
            tags.append(f"claimed by {roles[state.claimed[f]]}")
        suffix = f"  [{', '.join(tags)}]" if tags else ""
        lines.append(f"  flag {f + 1}: " + "  |  ".join(parts) + suffix)
    for r, role in enumerate(roles):
        hand = " ".join(card_name(c) for c in state.hands[r]) or "-"
        lines.append(f"  {role} hand: {hand}")
    decks = ", ".join(f"{name} {state.deck_size(d)}" for d, name in enumerate(DECK_NAMES))
    lines.append(f"  decks: {decks}")
    for r, role in enumerate(roles):
        if state.discards[r]:
            lines.append(f"  {role} discards: " + " ".join(card_name(c) for c in state.discards[r]))
    return "\n".join(lines)
