"""Twilight Struggle's text board of one seat, from its view dict alone (replays per seat, the
report's text toggle). The whole table is the game's own ``render``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...boards import history_lines
from . import map_data as TM


def seat_board(view: Mapping[str, Any]) -> str:
    """A seat's board (``GameSpec.seat_board``), from its view dict alone: tracks, then every
    region's countries with influence (US/USSR, and who controls them), the hands as visible,
    effects."""

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
