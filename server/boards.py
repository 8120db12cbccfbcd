"""Text boards: the built-in games' boards (what ``standoff replay`` and the report show), and the
generic board of any view.

A game registers its boards with its :class:`~standoff.sdk.GameSpec` (``seat_board(view)``: one
seat's board from its view dict alone; ``state_board(state)``: the whole table). The built-in
games' specs (:mod:`standoff.server.plugins`) name the functions below; a game without boards
gets :func:`generic_board`.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "WIDTH",
    "generic_board",
    "history_lines",
    "schotten_totten_seat",
    "schotten_totten_table",
    "table_view",
    "twilight_struggle_seat",
    "twilight_struggle_table",
]

#: Text is wrapped for a terminal this wide.
WIDTH = 100


def generic_board(view: Mapping[str, Any]) -> str:
    """Any view as text: one ``key: JSON value`` line per entry (wrapped), then the recent history."""
    lines = []
    for key, value in view.items():
        if key in ("history", "history_from"):
            continue
        text = f"  {key}: {json.dumps(value, ensure_ascii=False)}"
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="      ", break_on_hyphens=False) or [text]
    lines += history_lines(view.get("history") or [])
    return "\n".join(lines)


def table_view(game: Any, state: Any) -> dict[str, Any]:
    """The whole table as one view dict, for omniscient boards: the first seat's view (no
    history) with ``role`` ``None`` and ``hands`` (every seat's hand, face up). What only one seat
    sees of the table is merged in: Twilight Struggle's secret headlines, Schotten Totten's deck
    tops put back with Scout. Drawn by the same board as a seat's view, so the omniscient page and
    the seat pages agree; built from ``game.view`` alone, so it agrees with the text boards too."""
    roles = list(state.rules.roles)
    views = {role: game.view(state, role, getattr(state, "number", 0)) for role in roles}
    table = dict(views[roles[0]])
    for key in ("history", "history_from", "opponents", "opponent_hand", "opponent_hand_size", "hand"):
        table.pop(key, None)
    table["role"] = None
    table["hands"] = {role: list(views[role].get("hand") or []) for role in roles}
    if isinstance(table.get("headline"), dict):
        headline: dict[str, Any] = {}
        for role in roles:
            headline.update(views[role].get("headline") or {})
        table["headline"] = {role: headline[role] for role in roles if role in headline}
    decks = table.get("decks")
    if isinstance(decks, dict):
        merged = {}
        for name, deck in decks.items():
            tops = [list((views[role].get("decks") or {}).get(name, {}).get("top") or []) for role in roles]
            size = max((len(t) for t in tops), default=0)
            top = [next((t[i] for t in tops if i < len(t) and t[i] != "unknown"), "unknown") for i in range(size)]
            merged[name] = {**deck, "top": top}
        table["decks"] = merged
    return table


def history_lines(history: Sequence[Sequence[Any]], indent: str = "  ") -> list[str]:
    """``recent: 12 p1 play card:red-5; 13 p1 place flag:4; ...``, wrapped between entries."""
    lines: list[str] = []
    current = f"{indent}recent:"
    for n, role, step, key in history:
        entry = f"{n} {role} {step} {key}"
        if len(current) + len(entry) + 2 > WIDTH and not current.endswith(":"):
            lines.append(current + ";")
            current = indent + " " * len("recent:")
        else:
            current += ";" if not current.endswith(":") else ""
        current += " " + entry
    if history:
        lines.append(current)
    return lines


def _st_strength(cards: Sequence[str], fog: bool) -> str:
    """``(phalanx 24)`` for a complete side (computed from the card names on the table)."""
    from .games.schotten_totten.cards import card_from_name
    from .games.schotten_totten.formations import RANK_NAMES, strength

    try:
        rank, total = strength([card_from_name(c) for c in cards], fog)
    except (KeyError, AssertionError):
        return ""
    return f"({RANK_NAMES[rank]} {total})"


def _st_side(side: Mapping[str, Any], fog: bool) -> str:
    cards = list(side.get("cards") or [])
    text = " ".join(cards) or "-"
    if side.get("completed_at") is not None and cards:
        text += " " + _st_strength(cards, fog)
    return text


def _st_board(view: Mapping[str, Any], hands: Mapping[str, Sequence[str]] | None = None) -> str:
    """The Schotten Totten table. ``hands`` (omniscient boards): every role's hand, shown in
    full; otherwise the viewer's hand in full and the others as counts and known cards."""
    viewer = view.get("role")
    flags = list(view.get("flags") or [])
    roles: list[str] = list(flags[0]["sides"]) if flags else [viewer]
    if hands is None and viewer in roles:  # the viewer on the left
        roles = [viewer] + [r for r in roles if r != viewer]
    step = view.get("step")
    head = f"turn {view.get('turn')}, {view.get('to_move')} to move"
    if step:
        head += f" ({step})"
    head += " - everything" if hands is not None else f" - as seen by {viewer}"
    rows = []
    for entry in flags:
        fog = entry.get("fog") is not None
        cells = [_st_side(entry["sides"].get(role, {}), fog) for role in roles]
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


def schotten_totten_seat(view: Mapping[str, Any]) -> str:
    """A Schotten Totten seat's board: the table, its own hand, the other hands as counts."""
    return _st_board(view)


def schotten_totten_table(game: Any, state: Any) -> str:
    """Every hand, built from every seat's view (the table is the same in all of them)."""
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
    return _st_board(table, hands={role: views[role]["hand"] for role in roles})


def twilight_struggle_seat(view: Mapping[str, Any]) -> str:
    """A Twilight Struggle seat's board: tracks, then every region's countries with influence
    (US/USSR, and who controls them), the hands as visible, effects."""
    from .games.twilight_struggle import map_data as TM

    def controller(cid: str, us: int, ussr: int) -> str:
        stability = TM.COUNTRY_BY_ID[cid].stability
        if us >= stability and us - ussr >= stability:
            return " [US]"
        if ussr >= stability and ussr - us >= stability:
            return " [USSR]"
        return ""

    china = view.get("china_card") or {}
    lines = [
        f"turn {view['turn']}, action round {view['action_round']}, {view['phasing']} phasing, step {view.get('step')}",
        f"VP {view['vp']:+d} (+ = US)  DEFCON {view['defcon']}  military ops US {view['military_ops'].get('us', 0)} "
        f"USSR {view['military_ops'].get('ussr', 0)}  space US {view['space'].get('us', 0)} USSR {view['space'].get('ussr', 0)}",
        f"China Card: {china.get('holder') or 'nobody'} ({'face up' if china.get('face_up') else 'face down'})",
    ]
    if view.get("headline"):
        lines.append("headline: " + ", ".join(f"{r} {c}" for r, c in sorted(view["headline"].items())))
    influence = view.get("influence") or {}
    for region in TM.REGIONS:
        cells = []
        for i in TM.REGION_COUNTRIES[region]:
            country = TM.COUNTRIES[i]
            amounts = influence.get(country.id)
            if amounts:
                bg = "*" if country.battleground else ""
                cells.append(f"{country.name}{bg} {amounts['us']}/{amounts['ussr']}"
                             f"{controller(country.id, amounts['us'], amounts['ussr'])}")
        lines.append(f"{region}: " + (", ".join(cells) or "-"))
    lines.append(f"hand of {view['role']}: " + (" ".join(view.get("hand") or []) or "-"))
    lines.append(f"other hand: {view.get('opponent_hand_size', 0)} cards; deck {view.get('deck_size', 0)}, "
                 f"discard {len(view.get('discard') or [])}, removed {len(view.get('removed') or [])}")
    if view.get("effects"):
        lines.append("effects: " + ", ".join(view["effects"]))
    lines += history_lines(view.get("history") or [])
    return "\n".join(lines)


def twilight_struggle_table(game: Any, state: Any) -> str:
    """The whole Twilight Struggle table: the game's own ``render``."""
    return game.render(state)
