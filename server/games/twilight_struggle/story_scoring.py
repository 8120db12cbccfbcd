"""Scoring in the story's words (:mod:`.story`): a region scored ("Europe scored: USSR
domination 7, US presence 3, battlegrounds USSR 3, US 1: USSR +6 VP") with one detail line per
side, Southeast Asia Scoring, and final scoring region by region. The numbers come from
:mod:`.scoring_view` (the same as the match page's scoring panel)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...story import StoryLine
from . import map_data as M
from . import scoring_view as SV
from .story_words import SIDE, country_name, join, vp_change

__all__ = ["Scored", "final_lines", "scoring_line", "side_detail", "southeast_asia_line"]


@dataclass(frozen=True)
class Scored:
    """A scoring sentence before its VP is told: its text and detail lines."""

    text: str
    detail: tuple[str, ...]


def side_detail(score: SV.RegionScore, side: str) -> str:
    """One side's line under a scoring: "USSR: domination, 4 countries, battlegrounds 3 of 5
    (Poland, East Germany, Italy), adjacent 1 (Canada): 7 + 3 + 1 = 11 VP"."""
    mine = score.side(side)
    if not mine.countries:
        return f"{SIDE[side]}: no country controlled, 0 VP"
    bgs = f"battlegrounds {len(mine.battlegrounds)} of {score.battlegrounds}"
    if mine.battlegrounds:
        bgs += f" ({join([country_name(c) for c in mine.battlegrounds])})"
    adjacent = f", adjacent to the enemy superpower {len(mine.adjacent)} ({join([country_name(c) for c in mine.adjacent])})" \
        if mine.adjacent else ""
    level = mine.level or "no presence"
    if side == score.europe_winner:
        return f"{SIDE[side]}: control of Europe (wins the game), {len(mine.countries)} countries, {bgs}{adjacent}"
    sums = " + ".join(str(n) for n in (mine.tier_vp, len(mine.battlegrounds), len(mine.adjacent)) if n)
    total = f"{sums} = {mine.vp}" if "+" in sums else str(mine.vp)
    return (f"{SIDE[side]}: {level}, {len(mine.countries)} countr{'y' if len(mine.countries) == 1 else 'ies'}, "
            f"{bgs}{adjacent}: {total} VP")


def scoring_line(score: SV.RegionScore) -> tuple[Scored, int]:
    """The sentence of a region scored and its net VP (US positive): "Europe scored: USSR
    domination 7, US presence 3, battlegrounds USSR 3, US 1, adjacent USSR 1"."""
    parts = []
    for side in ("ussr", "us"):
        mine = score.side(side)
        if side == score.europe_winner:
            parts.append(f"{SIDE[side]} control")
        elif mine.level:
            parts.append(f"{SIDE[side]} {mine.level}" + (f" {mine.tier_vp}" if mine.tier_vp else ""))
    bgs = [f"{SIDE[s]} {len(score.side(s).battlegrounds)}" for s in ("ussr", "us") if score.side(s).battlegrounds]
    if bgs:
        parts.append("battlegrounds " + ", ".join(bgs))
    adjacent = [f"{SIDE[s]} {len(score.side(s).adjacent)}" for s in ("ussr", "us") if score.side(s).adjacent]
    if adjacent:
        parts.append("adjacent " + ", ".join(adjacent))
    if not parts:
        parts.append("nobody controls a country there")
    if score.ignored:
        parts.append(f"{join([country_name(c) for c in score.ignored])} left out (Shuttle Diplomacy)")
    text = f"{score.region} scored: " + ", ".join(parts)
    if score.europe_winner:
        text += f"; the {SIDE[score.europe_winner]} controls Europe and wins the game"
    detail = tuple(side_detail(score, s) for s in ("ussr", "us"))
    return Scored(text, detail), score.net


def southeast_asia_line(view: Mapping[str, Any]) -> tuple[Scored, int]:
    """Southeast Asia Scoring (#38): 1 VP per controlled country there, 2 for Thailand."""
    us, ussr, owners = SV.southeast_asia(view.get("influence") or {})
    detail = []
    for side, vp in (("ussr", ussr), ("us", us)):
        mine = [country_name(c) + (" (2)" if c == "thailand" else "") for c, s in owners.items() if s == side]
        detail.append(f"{SIDE[side]}: {join(mine) if mine else 'nothing controlled'}: {vp} VP")
    return Scored(f"Southeast Asia scored: USSR {ussr}, US {us}", tuple(detail)), us - ussr


def final_lines(final: SV.FinalScore, vp: int) -> list[StoryLine]:
    """Final scoring region by region (the VP track from ``vp``, before it), then The China
    Card; it stops at Europe if a side controls it."""
    lines = []
    for score in final.regions:
        scored, net = scoring_line(score)
        if score.europe_winner:
            lines.append(StoryLine(scored.text + ".", "scoring", None, scored.detail))
            return lines
        vp += net
        told = vp_change(net, vp) if net else "no VP change"
        lines.append(StoryLine(f"{scored.text}: {told}.", "scoring", None, scored.detail))
    if final.china:
        vp += 1 if final.china == "us" else -1
        lines.append(StoryLine(f"The China Card, held by the {SIDE[final.china]}: "
                               f"{vp_change(1 if final.china == 'us' else -1, vp)}.", "scoring", final.china))
    return lines


def region_names() -> tuple[str, ...]:
    return M.REGIONS
