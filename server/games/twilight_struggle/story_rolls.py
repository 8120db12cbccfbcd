"""The arithmetic behind the story's dice (:mod:`.story`): a card's Operations, coup, realignment
and war modifiers and the space race's targets, worked out from the views the reader saw (the
board, the lasting effects) as the rules define them (map.md §5, §7; the engine's ``ops`` and
``events.primitives`` compute the same on the state). Each function returns the number and the
reasons a player would give for it ("+1 for more influence").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import card_data as CD
from . import effects as E
from . import map_data as M
from .ops import SPACE
from .state import SIDE_NAMES
from .story_words import SIDE, country_name, other

ASIA = frozenset(M.COUNTRIES[i].id for i in M.REGION_COUNTRIES[M.ASIA])
SOUTHEAST_ASIA = frozenset(M.COUNTRIES[i].id for i in M.SUBREGION_COUNTRIES[M.SOUTHEAST_ASIA])
LATIN_AMERICA = frozenset(M.COUNTRIES[i].id for r in (M.CENTRAL_AMERICA, M.SOUTH_AMERICA)
                          for i in M.REGION_COUNTRIES[r])
NEIGHBOURS = {c.id: tuple(a for a in c.adjacent if a in M.COUNTRY_BY_ID) for c in M.COUNTRIES}

#: A side's index in the engine's per-side tables (effects.per_side names: USSR, US).
_SIDE = {name: i for i, name in enumerate(SIDE_NAMES)}
#: War cards: card id -> (fixed target or None, wins on at least, VP, military ops).
WARS = {
    "korean_war": ("south_korea", 4, 2, 2), "arab_israeli_war": ("israel", 4, 2, 2),
    "indo_pakistani_war": (None, 4, 2, 2), "iran_iraq_war": (None, 4, 2, 2), "brush_war": (None, 3, 1, 3),
}


def _effects(view: Mapping[str, Any]) -> list[str]:
    return list(view.get("effects") or [])


def _controls(view: Mapping[str, Any], side: str, cid: str) -> bool:
    return (view.get("control") or {}).get(cid) == side


def _amount(view: Mapping[str, Any], side: str, cid: str) -> int:
    return int(((view.get("influence") or {}).get(cid) or {}).get(side, 0))


def ops_value(view: Mapping[str, Any], side: str, cid: str) -> tuple[int, list[str]]:
    """A card's Operations for ``side`` with the lasting modifiers in ``view`` (Containment,
    Brezhnev Doctrine: +1 up to 4; Red Scare/Purge: −1 down to 1), and the reasons."""
    card = CD.CARD_BY_ID.get(cid)
    if card is None:
        return 0, []
    value = 4 if cid == "the_china_card" else card.ops
    reasons: list[str] = []
    effects = _effects(view)
    bonus = E.CONTAINMENT if side == "us" else E.BREZHNEV_DOCTRINE
    if bonus in effects and value < 4:
        value += 1
        reasons.append(f"+1 {'Containment' if side == 'us' else 'Brezhnev Doctrine'}")
    if E.RED_SCARE[_SIDE[side]] in effects and value > 1:
        value -= 1
        reasons.append("−1 Red Scare/Purge")
    return value, reasons


def coup_modifiers(view: Mapping[str, Any], side: str, cid: str) -> tuple[int, list[str]]:
    """What lasting effects add to ``side``'s coup roll in ``cid`` (SALT Negotiations, Latin
    American Death Squads)."""
    effects = _effects(view)
    mod, reasons = 0, []
    if E.SALT_NEGOTIATIONS in effects:
        mod -= 1
        reasons.append("−1 SALT Negotiations")
    if cid in LATIN_AMERICA:
        squads = int(E.DEATH_SQUADS[_SIDE[side]] in effects) - int(E.DEATH_SQUADS[_SIDE[other(side)]] in effects)
        if squads:
            mod += squads
            reasons.append(f"{'+' if squads > 0 else '−'}1 Latin American Death Squads")
    return mod, reasons


def coup_bonus(side: str, cid: str, card: str | None, effects: list[str]) -> tuple[int, list[str]]:
    """The Asia bonuses of a coup by Operations: The China Card in Asia, Vietnam Revolts in
    Southeast Asia (USSR)."""
    bonus, reasons = 0, []
    if card == "the_china_card" and cid in ASIA:
        bonus += 1
        reasons.append("+1 China Card in Asia")
    if side == "ussr" and cid in SOUTHEAST_ASIA and E.VIETNAM_REVOLTS in effects and card:
        bonus += 1
        reasons.append("+1 Vietnam Revolts")
    return bonus, reasons


def realign_modifier(view: Mapping[str, Any], side: str, cid: str) -> tuple[int, list[str]]:
    """``side``'s realignment modifier in ``cid`` (map.md §7): +1 per adjacent country it
    controls, +1 for more influence there, +1 next to its own superpower; Iran-Contra −1 (US)."""
    mod, reasons = 0, []
    adjacent = [n for n in NEIGHBOURS[cid] if _controls(view, side, n)]
    if adjacent:
        mod += len(adjacent)
        reasons.append(f"+{len(adjacent)} adjacent control")
    if _amount(view, side, cid) > _amount(view, other(side), cid):
        mod += 1
        reasons.append("+1 more influence")
    if cid in M.SUPERPOWER_NEIGHBOURS[side]:
        mod += 1
        reasons.append(f"+1 next to the {SIDE[side]}" if side == "us" else "+1 next to the USSR")
    if side == "us" and E.IRAN_CONTRA in _effects(view):
        mod -= 1
        reasons.append("−1 Iran-Contra Scandal")
    return mod, reasons


def war_modifier(view: Mapping[str, Any], card: str, actor: str, target: str) -> tuple[int, list[str]]:
    """What is subtracted from ``actor``'s war die against ``target``: 1 per enemy-controlled
    neighbour (a bordering enemy superpower counts as one), 1 more in the Arab-Israeli War if
    the enemy controls Israel; Korean War under the Chinese Civil War variant: 1 more for the
    USSR until it holds The China Card."""
    enemy = other(actor)
    count = sum(1 for n in NEIGHBOURS[target] if _controls(view, enemy, n))
    count += target in M.SUPERPOWER_NEIGHBOURS[enemy]
    reasons = [f"{count} {SIDE[enemy]}-controlled neighbour{'s' if count != 1 else ''}"] if count else []
    mod = count
    if card == "arab_israeli_war" and _controls(view, enemy, target):
        mod += 1
        reasons.append(f"{SIDE[enemy]} controls {country_name(target)}")
    rules = view.get("rules") or {}
    china = (view.get("china_card") or {}).get("holder")
    if card == "korean_war" and actor == "ussr" and rules.get("chinese_civil_war") and china is None:
        mod += 1
        reasons.append("Chinese Civil War")
    return mod, reasons


def space_target(box: int) -> tuple[int, int, int, int] | None:
    """Box ``box`` of the space race: (Ops needed, highest succeeding roll, VP to the first
    there, VP to the second)."""
    return SPACE.get(box)


def mods_text(reasons: list[str]) -> str:
    """``(+1 adjacent control, +1 more influence)``, or nothing."""
    return f" ({', '.join(reasons)})" if reasons else ""
