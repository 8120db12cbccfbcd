"""Schotten Totten as text: the state's own rendering (:func:`render`, the game's ``render``
capability) and the boards replays and reports show (:func:`seat_board` from one seat's view,
:func:`table_board` from every seat's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...boards import history_lines
from .cards import card_from_name, card_name
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


def _strength(cards: Sequence[str], fog: bool) -> str:
    """``(phalanx 24)`` for a complete side (computed from the card names on the table)."""
    try:
        rank, total = strength([card_from_name(c) for c in cards], fog)
    except (KeyError, AssertionError):
        return ""
    return f"({RANK_NAMES[rank]} {total})"


def _side(side: Mapping[str, Any], fog: bool) -> str:
    cards = list(side.get("cards") or [])
    text = " ".join(cards) or "-"
    if side.get("completed_at") is not None and cards:
        text += " " + _strength(cards, fog)
    return text


def _board(view: Mapping[str, Any], hands: Mapping[str, Sequence[str]] | None = None) -> str:
    """The Schotten Totten table. ``hands`` (omniscient boards): every role's hand, shown in
    full; otherwise the viewer's hand in full and the others as counts and known cards."""
    viewer = view.get("role")
    flags = list(view.get("flags") or [])
    roles: list[str] = list(flags[0]["sides"]) if flags else [viewer]
    if hands is None and viewer in roles:  # the viewer on the left
        roles = [viewer] + [r for r in roles if r != viewer]
    step = view.get("step")
    # No decision pending: the match is over, nobody is to move (the final position of a replay).
    head = f"turn {view.get('turn')}, " + (f"{view.get('to_move')} to move ({step})" if step else "the match is over")
    head += " - everything" if hands is not None else f" - as seen by {viewer}"
    rows = []
    for entry in flags:
        fog = entry.get("fog") is not None
        cells = [_side(entry["sides"].get(role, {}), fog) for role in roles]
        tags = []
        if entry.get("claimed_by"):
            tags.append(f"{entry['claimed_by']} won")
        if entry.get("fog"):
            tags.append("fog")
        if entry.get("mud"):
            tags.append("mud")
        rows.append((entry.get("flag"), ", ".join(tags), cells))
    status = max([0] + [len(tags) for _, tags, _ in rows])
    label = [(f"{role} (you)" if role == viewer and hands is None else role) for role in roles]
    widths = [max([len(label[i])] + [len(cells[i]) for _, _, cells in rows]) for i in range(len(roles))]
    widths[-1] = 0  # no padding after the last column
    lines = [head]
    pad = " " * (len("  flag 9: ") + status + (2 if status else 0))
    lines.append((pad + " | ".join(f"{text:<{w}}" for text, w in zip(label, widths))).rstrip())
    for number, tags, cells in rows:
        line = f"  flag {number}: " + (f"{tags:<{status}}  " if status else "")
        line += " | ".join(f"{c:<{w}}" for c, w in zip(cells, widths))
        lines.append(line.rstrip())
    if hands is not None:
        for role in roles:
            hand = list(hands.get(role) or [])
            lines.append(f"  {role} hand ({len(hand)}): " + (" ".join(hand) or "-"))
    else:
        hand = list(view.get("hand") or [])
        lines.append(f"  your hand ({len(hand)}): " + (" ".join(hand) or "-"))
        for role, other in (view.get("opponents") or {}).items():
            known = list(other.get("known") or [])
            troops, tactics = other.get("troops", 0), other.get("tactics", 0)
            text = f"  {role} hand: {troops} troop{'s' * (troops != 1)}, {tactics} tactic{'s' * (tactics != 1)}"
            if known:
                text += "; you know: " + " ".join(known)
            lines.append(text)
    decks = []
    for name, deck in (view.get("decks") or {}).items():
        text = f"{name} {deck.get('size', 0)}"
        if deck.get("top"):
            text += " (top down: " + " ".join(deck["top"]) + ")"
        decks.append(text)
    if decks:
        lines.append("  decks: " + ", ".join(decks))
    discards = view.get("discards") or {}
    if any(discards.values()):
        lines.append(
            "  discards: " + "; ".join(f"{role} " + (" ".join(cards) or "-") for role, cards in discards.items())
        )
    tactics = view.get("tactics_played") or {}
    if any(tactics.values()):
        leaders = [role for role, played in (view.get("leader_played") or {}).items() if played]
        text = "  tactics played: " + ", ".join(f"{role} {n}" for role, n in tactics.items())
        if leaders:
            text += "; leader on the table: " + ", ".join(leaders)
        lines.append(text)
    lines += history_lines(view.get("history") or [])
    return "\n".join(lines)


def seat_board(view: Mapping[str, Any]) -> str:
    """A seat's board (``GameSpec.seat_board``): the table, its own hand, the other hands as
    counts, from the seat's view dict alone."""
    return _board(view)


def table_board(game: Any, state: Any) -> str:
    """The whole table (``GameSpec.state_board``, ``game`` bound): every hand, built from every
    seat's view (the table is the same in all of them)."""
    roles = state.rules.roles
    views = {role: game.view(state, role, state.number) for role in roles}
    table = dict(views[roles[0]])
    table.pop("history", None)
    # Deck tops a seat put back with Scout: known to it, shown to the omniscient reviewer.
    decks = {}
    for name, deck in (table.get("decks") or {}).items():
        tops = [list(views[role]["decks"][name]["top"]) for role in roles]
        merged = [next((t[i] for t in tops if t[i] != "unknown"), "unknown") for i in range(len(tops[0]))]
        decks[name] = {"size": deck.get("size", 0), "top": merged}
    table["decks"] = decks
    return _board(table, hands={role: views[role]["hand"] for role in roles})
