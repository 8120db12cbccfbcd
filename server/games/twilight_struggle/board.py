"""Board arithmetic: control, VP and DEFCON with their victory checks, region scoring.

Every VP or DEFCON change goes through :func:`add_vp` / :func:`set_defcon` so that the victory
conditions (20 VP, DEFCON 1) are checked in one place.
"""

from __future__ import annotations

from ...core.game import Outcome
from . import hooks as H
from . import map_data as M
from .state import NOBODY, SIDE_LABELS, SIDE_NAMES, US, USSR, TSState, other

# Termination codes of this game.
VP_20 = "vp_20"
DEFCON_1 = "defcon"
EUROPE_CONTROL = "europe_control"
FINAL_SCORING = "final_scoring"
HELD_SCORING_CARD = "held_scoring_card"
WARGAMES = "wargames"
MISSILE_CRISIS = "cuban_missile_crisis"

STABILITY = tuple(c.stability for c in M.COUNTRIES)
BATTLEGROUND = tuple(c.battleground for c in M.COUNTRIES)
ASIA = frozenset(M.REGION_COUNTRIES[M.ASIA])
SOUTHEAST_ASIA = frozenset(M.SUBREGION_COUNTRIES["Southeast Asia"])
#: per side, the countries whose control earns it a region scoring's adjacency bonus
#: (map_data.ADJACENCY_BONUS, by index)
_ADJACENT = {
    side: frozenset(i for i, c in enumerate(M.COUNTRIES) if c.id in M.ADJACENCY_BONUS[SIDE_NAMES[side]])
    for side in (US, USSR)
}


def controls(state: TSState, side: int, country: int) -> bool:
    mine = state.inf[side][country]
    stability = STABILITY[country]
    return mine >= stability and mine - state.inf[1 - side][country] >= stability


def controller(state: TSState, country: int) -> int:
    if controls(state, US, country):
        return US
    if controls(state, USSR, country):
        return USSR
    return NOBODY


def win(state: TSState, side: int, termination: str, reason: str) -> None:
    if state.outcome is None:
        roles = state.rules.roles
        state.outcome = Outcome.win(roles, roles[side], termination, reason)


def add_vp(state: TSState, side: int, amount: int, check: bool = True) -> None:
    """``side`` gains ``amount`` VP (the track is signed: US positive). With ``check``, reaching
    20 wins at once (not during final scoring), except while an event is being carried out: map.md
    §12 applies all VP changes of a single event (both sides, lasting effects that react to it
    included) before the 20-VP check, which the event's ``after_event`` step then makes."""
    if amount == 0:
        return
    state.vp += amount if side == US else -amount
    if check and not in_event(state):
        check_vp(state)


def in_event(state: TSState) -> bool:
    """Whether an event is being carried out (its ``after_event`` frame is on the stack)."""
    for frame in state.stack:
        if frame[0] == "after_event":
            return True
    return False


def check_vp(state: TSState) -> None:
    if state.vp >= 20:
        win(state, US, VP_20, "the US reached 20 VP")
    elif state.vp <= -20:
        win(state, USSR, VP_20, "the USSR reached 20 VP")


def set_defcon(state: TSState, value: int) -> None:
    """Move DEFCON (never above 5). DEFCON 1 ends the game: the phasing player loses."""
    state.defcon = min(5, value)
    if state.defcon <= 1:
        loser = state.phasing
        win(state, other(loser), DEFCON_1, f"DEFCON 1: nuclear war, {SIDE_LABELS[loser]} (phasing) loses")


def degrade_defcon(state: TSState, by: int = 1) -> None:
    set_defcon(state, state.defcon - by)


def score_region(state: TSState, region: str) -> tuple[int, int, int]:
    """``(us_vp, ussr_vp, europe_winner)`` for scoring ``region`` now (rule 10.1; map.md §6).
    ``europe_winner`` is the side controlling Europe (an automatic win) or NOBODY. Lasting
    effects may leave countries out (hooks.SCORING_EXCLUSIONS: Shuttle Diplomacy) or count more
    battlegrounds for a side controlling them (hooks.EXTRA_BATTLEGROUNDS: Formosan Resolution)."""
    ignored: set[str] = set()
    for exclude in H.SCORING_EXCLUSIONS:
        ignored.update(exclude(state, region))
    countries = [c for c in M.REGION_COUNTRIES[region] if M.COUNTRIES[c].id not in ignored]
    presence, domination, control = M.SCORING[region]
    extra: dict[int, set[int]] = {US: set(), USSR: set()}
    for more in H.EXTRA_BATTLEGROUNDS:
        for side in (US, USSR):
            extra[side].update(more(state, region, side))
    counts = []
    for side in (US, USSR):
        total = bgs = 0
        bonus = 0
        mine = extra[side]
        adjacent = _ADJACENT[side]
        for c in countries:
            if not controls(state, side, c):
                continue
            total += 1
            if BATTLEGROUND[c] or c in mine:
                bgs += 1
            if c in adjacent:
                bonus += 1
        counts.append((total, bgs, bonus))
    all_bgs = 0  # (loops, not generators: compiled, board.pxd makes this a C function)
    for c in countries:
        if BATTLEGROUND[c]:
            all_bgs += 1
            continue
        for side in (US, USSR):
            if c in extra[side] and controls(state, side, c):
                all_bgs += 1
                break
    result = [0, 0]
    europe_winner = NOBODY
    for i, side in enumerate((US, USSR)):
        total, bgs, bonus = counts[i]
        o_total, o_bgs, _ = counts[1 - i]
        vp = 0
        if total >= 1:
            vp = presence
        if total > o_total and bgs > o_bgs and bgs >= 1 and total - bgs >= 1:
            vp = domination
        if total > o_total and bgs == all_bgs and all_bgs > 0:
            if control is None:
                europe_winner = side
            else:
                vp = control
        result[i] = vp + bgs + bonus
    return result[0], result[1], europe_winner


def apply_region_scoring(state: TSState, region: str, *, final: bool = False) -> None:
    us, ussr, europe = score_region(state, region)
    if europe != NOBODY:
        win(state, europe, EUROPE_CONTROL, f"{SIDE_LABELS[europe]} controls Europe")
        return
    state.vp += us - ussr
    if not final:
        check_vp(state)


def southeast_asia_scoring(state: TSState) -> tuple[int, int]:
    """``(us_vp, ussr_vp)``: 1 per controlled SE Asian country, 2 for Thailand."""
    result = [0, 0]
    for country_id, value in M.SOUTHEAST_ASIA_SCORING.items():
        owner = controller(state, M.INDEX[country_id])
        if owner == US:
            result[0] += value
        elif owner == USSR:
            result[1] += value
    return result[0], result[1]
