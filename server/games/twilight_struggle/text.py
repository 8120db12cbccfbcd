"""Twilight Struggle's text boards: one seat's (:func:`seat_board`, from its view dict alone:
replays per seat, the report's text toggle) and the whole table (:func:`state_board`, the game's
``render``: omniscient replays, golden playthroughs).

Both speak as the position notation and the rulebook do (issue 44): the sides in the game's role
order, USSR first (``influence: iran 2/0`` is USSR 2, US 0, as in ``standoff replay --position
--notation``), named as the rulebook names them (USSR, US); a battleground is starred and the
side in control follows in brackets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...boards import history_lines
from . import card_data as CD
from . import map_data as TM
from .state import NOBODY, SIDE_LABELS, SIDE_NAMES

#: The sides in the game's role order, as the rulebook names them.
LABEL = dict(zip(SIDE_NAMES, SIDE_LABELS))
#: How the region lines read (the notation's order).
LEGEND = "influence USSR/US (* battleground, [side] in control):"


def _label(role: Any) -> str:
    return LABEL.get(role, str(role)) if role else "nobody"


def _tracks(vp: int, defcon: int, milops: Mapping[str, int], space: Mapping[str, int]) -> str:
    def pair(values: Mapping[str, int]) -> str:
        return " ".join(f"{LABEL[s]} {values.get(s, 0)}" for s in SIDE_NAMES)

    return f"VP {vp:+d} (+ = US)  DEFCON {defcon}  military ops {pair(milops)}  space {pair(space)}"


def _regions(influence: Mapping[str, Mapping[str, int]], controller: Any) -> list[str]:
    """A line per region: ``Europe: West Germany* 0/4 [USSR], ...`` (countries with influence)."""
    lines = [LEGEND]
    for region in TM.REGIONS:
        cells = []
        for i in TM.REGION_COUNTRIES[region]:
            country = TM.COUNTRIES[i]
            amounts = influence.get(country.id)
            if amounts and (amounts.get("ussr") or amounts.get("us")):
                held = controller(country, amounts)
                cells.append(f"{country.name}{'*' if country.battleground else ''} "
                             f"{amounts.get('ussr', 0)}/{amounts.get('us', 0)}{f' [{_label(held)}]' if held else ''}")
        lines.append(f"  {region}: " + (", ".join(cells) or "-"))
    return lines


def _headline(headline: Mapping[str, Any]) -> list[str]:
    shown = [f"{LABEL[s]} {headline[s]}" for s in SIDE_NAMES if headline.get(s)]
    return ["headline: " + ", ".join(shown)] if shown else []


def seat_board(view: Mapping[str, Any]) -> str:
    """A seat's board (``GameSpec.seat_board``), from its view dict alone: tracks, then every
    region's countries with influence (USSR/US, and who controls them), the hands as visible,
    effects."""

    def controller(country: Any, amounts: Mapping[str, int]) -> str | None:
        us, ussr = amounts.get("us", 0), amounts.get("ussr", 0)
        if us >= country.stability and us - ussr >= country.stability:
            return "us"
        if ussr >= country.stability and ussr - us >= country.stability:
            return "ussr"
        return None

    china = view.get("china_card") or {}
    me = view["role"]
    other = next((s for s in SIDE_NAMES if s != me), "")
    lines = [
        f"turn {view['turn']}, action round {view['action_round']}, {_label(view['phasing'])} phasing, "
        f"step {view.get('step')}",
        _tracks(view["vp"], view["defcon"], view["military_ops"], view["space"]),
        f"China Card: {_label(china.get('holder'))} ({'face up' if china.get('face_up') else 'face down'})",
    ]
    lines += _headline(view.get("headline") or {})
    lines += _regions(view.get("influence") or {}, controller)
    lines.append(f"{_label(me)} hand (yours): " + (" ".join(view.get("hand") or []) or "-"))
    lines.append(f"{_label(other)} hand: {view.get('opponent_hand_size', 0)} cards; deck {view.get('deck_size', 0)}, "
                 f"discard {len(view.get('discard') or [])}, removed {len(view.get('removed') or [])}")
    if view.get("effects"):
        lines.append("effects: " + ", ".join(view["effects"]))
    lines += history_lines(view.get("history") or [])
    return "\n".join(lines)


def state_board(state: Any) -> str:
    """The whole table (``GameSpec.state_board``, the game's ``render``): every hand face up."""
    from . import board as B

    def cards(cards: Sequence[int]) -> str:
        return " ".join(CD.CARD_BY_NUMBER[c].id for c in cards)

    sides = dict(zip(SIDE_NAMES, range(len(SIDE_NAMES))))
    influence = {TM.COUNTRIES[i].id: {s: state.inf[side][i] for s, side in sides.items()}
                 for i in range(len(TM.COUNTRIES))}

    def controller(country: Any, amounts: Mapping[str, int]) -> str | None:
        side = B.controller(state, TM.INDEX[country.id])
        return None if side == NOBODY else SIDE_NAMES[side]

    lines = [
        f"turn {state.turn}, action round {state.ar}, {_label(SIDE_NAMES[state.phasing])} phasing",
        _tracks(state.vp, state.defcon, {s: state.milops[i] for s, i in sides.items()},
                {s: state.space[i] for s, i in sides.items()}),
    ]
    lines += _headline({s: CD.CARD_BY_NUMBER[state.headline[i]].id for s, i in sides.items() if state.headline[i]})
    lines += _regions(influence, controller)
    for side, i in sides.items():
        lines.append(f"{LABEL[side]} hand: " + (cards(state.hands[i]) or "-"))
    holder = SIDE_NAMES[state.china] if state.china != NOBODY else None
    lines.append(f"China Card: {_label(holder)} ({'face up' if state.china_face_up else 'face down'}); "
                 f"deck {len(state.deck)}, discard {len(state.discard)}, removed {len(state.removed)}")
    if state.effects:
        lines.append("effects: " + ", ".join(sorted(state.effects)))
    return "\n".join(lines)
