"""Region scoring from a view: what scoring a region would give now, and why (rule 10.1; map.md
§6), computed from what any seat sees (the board's influence and the lasting effects) rather than
from the engine's state. The story's scoring sentences and the match page's scoring panel use it;
the engine's :func:`.board.score_region` is the oracle it is tested against.

The rules, as the engine has them: a side has *presence* with at least one controlled country,
*domination* with more countries and more battlegrounds than the other side and at least one
battleground and one non-battleground, *control* with more countries and every battleground of the
region. Each controlled battleground is +1 VP, each controlled country adjacent to the enemy
superpower +1 VP. Controlling Europe when it is scored wins the game (its control tier has no VP).
Lasting effects: Shuttle Diplomacy's ignored battleground (``scoring_ignore:<id>``) does not count;
under Formosan Resolution a US-controlled Taiwan is a battleground in Asia scoring. Southeast Asia
Scoring (#38) is 1 VP per controlled country there, 2 for Thailand. Final scoring scores the six
regions (Europe control still wins) and gives the China Card's holder 1 VP.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import effects as E
from . import map_data as M

__all__ = [
    "FinalScore", "RegionScore", "SideScore", "controller", "final_scoring", "score_region",
    "southeast_asia",
]

SIDES = ("us", "ussr")
LEVELS = ("presence", "domination", "control")


def _other(side: str) -> str:
    return "ussr" if side == "us" else "us"


def _amounts(influence: Mapping[str, Mapping[str, int]], cid: str) -> tuple[int, int]:
    cell = influence.get(cid) or {}
    return int(cell.get("us", 0)), int(cell.get("ussr", 0))


def controller(influence: Mapping[str, Mapping[str, int]], cid: str) -> str | None:
    """``"us"``, ``"ussr"`` or ``None``: who controls country ``cid`` (map.md §5)."""
    us, ussr = _amounts(influence, cid)
    stability = M.COUNTRY_BY_ID[cid].stability
    if us >= stability and us - ussr >= stability:
        return "us"
    if ussr >= stability and ussr - us >= stability:
        return "ussr"
    return None


@dataclass(frozen=True)
class SideScore:
    """One side's standing in a region: the countries it controls (ids, map order), those that
    count as battlegrounds, those adjacent to the enemy superpower, its tier and its VP."""

    countries: tuple[str, ...]
    battlegrounds: tuple[str, ...]
    adjacent: tuple[str, ...]
    level: str | None  # "presence" / "domination" / "control", or None
    tier_vp: int
    vp: int

    def to_json(self) -> dict[str, Any]:
        return {"countries": len(self.countries), "battlegrounds": list(self.battlegrounds),
                "adjacent": list(self.adjacent), "level": self.level, "tier": self.tier_vp, "vp": self.vp}


@dataclass(frozen=True)
class RegionScore:
    """A region scored now: each side's :class:`SideScore`, the battlegrounds in play, the net
    (``us`` VP minus ``ussr`` VP, the track's sign) and, for Europe, who would win by control."""

    region: str
    us: SideScore
    ussr: SideScore
    battlegrounds: int
    ignored: tuple[str, ...] = ()
    europe_winner: str | None = None

    def side(self, side: str) -> SideScore:
        return self.us if side == "us" else self.ussr

    @property
    def net(self) -> int:
        return self.us.vp - self.ussr.vp

    def to_json(self) -> dict[str, Any]:
        out = {"region": self.region, "us": self.us.to_json(), "ussr": self.ussr.to_json(),
               "bgs": self.battlegrounds, "net": self.net}
        if self.ignored:
            out["ignored"] = list(self.ignored)
        if self.europe_winner:
            out["wins"] = self.europe_winner
        return out


def score_region(influence: Mapping[str, Mapping[str, int]], region: str, effects: Iterable[str] = (),
                 ignore: Iterable[str] = ()) -> RegionScore:
    """Scoring ``region`` on this board, with the lasting ``effects`` (a view's ``effects``
    list) and the countries ``ignore``\\ d besides those the effects name (Shuttle Diplomacy's
    choice, told before the scoring). ``influence``: a view's ``influence`` (country id ->
    ``{"us": n, "ussr": m}``; absent countries hold none)."""
    effects = list(effects)
    ignored = set(E.SCORING_IGNORE.args(effects)) | set(ignore)
    countries = [M.COUNTRIES[i].id for i in M.REGION_COUNTRIES[region] if M.COUNTRIES[i].id not in ignored]
    formosan = region == M.ASIA and E.FORMOSAN_RESOLUTION in effects
    owner = {cid: controller(influence, cid) for cid in countries}

    def counts_as_battleground(cid: str, side: str) -> bool:
        return M.COUNTRY_BY_ID[cid].battleground or (formosan and side == "us" and cid == "taiwan")

    all_bgs = sum(1 for cid in countries
                  if M.COUNTRY_BY_ID[cid].battleground or (owner[cid] and counts_as_battleground(cid, owner[cid])))
    mine = {side: [cid for cid in countries if owner[cid] == side] for side in SIDES}
    bgs = {side: [cid for cid in mine[side] if counts_as_battleground(cid, side)] for side in SIDES}
    presence, domination, control = M.SCORING[region]
    scores: dict[str, SideScore] = {}
    winner = None
    for side in SIDES:
        total, o_total = len(mine[side]), len(mine[_other(side)])
        n_bgs, o_bgs = len(bgs[side]), len(bgs[_other(side)])
        level, tier = None, 0
        if total >= 1:
            level, tier = "presence", presence
        if total > o_total and n_bgs > o_bgs and n_bgs >= 1 and total - n_bgs >= 1:
            level, tier = "domination", domination
        if total > o_total and n_bgs == all_bgs and all_bgs > 0:
            level = "control"
            if control is None:
                winner = side  # tier stays at what the other tiers gave (the game is won anyway)
            else:
                tier = control
        adjacent = tuple(cid for cid in mine[side] if cid in M.ADJACENCY_BONUS[side])
        scores[side] = SideScore(tuple(mine[side]), tuple(bgs[side]), adjacent, level, tier,
                                 tier + n_bgs + len(adjacent))
    return RegionScore(region, scores["us"], scores["ussr"], all_bgs, tuple(sorted(ignored & set(
        M.COUNTRIES[i].id for i in M.REGION_COUNTRIES[region]))), winner)


def southeast_asia(influence: Mapping[str, Mapping[str, int]]) -> tuple[int, int, dict[str, str]]:
    """Southeast Asia Scoring (#38): ``(us_vp, ussr_vp, {country id: controller})`` for the
    controlled countries (Thailand 2 VP, the others 1)."""
    result = {"us": 0, "ussr": 0}
    owners: dict[str, str] = {}
    for cid, value in M.SOUTHEAST_ASIA_SCORING.items():
        owner = controller(influence, cid)
        if owner:
            result[owner] += value
            owners[cid] = owner
    return result["us"], result["ussr"], owners


@dataclass(frozen=True)
class FinalScore:
    """Final scoring (turn 10's end): every region in order, the China Card's VP, the net change
    (US positive) and, if a side controls Europe, the winner by it."""

    regions: tuple[RegionScore, ...]
    china: str | None
    europe_winner: str | None

    @property
    def net(self) -> int:
        china = 0 if self.china is None else (1 if self.china == "us" else -1)
        return sum(r.net for r in self.regions) + china

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"regions": [r.to_json() for r in self.regions], "china": self.china, "net": self.net}
        if self.europe_winner:
            out["wins"] = self.europe_winner
        return out


def final_scoring(view: Mapping[str, Any]) -> FinalScore:
    """Final scoring on the board of ``view`` (its ``influence``, ``effects`` and the China
    Card's holder). Europe is scored first: controlling it wins before anything else counts."""
    influence = view.get("influence") or {}
    effects = view.get("effects") or ()
    regions = []
    for region in M.REGIONS:
        score = score_region(influence, region, effects)
        regions.append(score)
        if score.europe_winner:
            return FinalScore(tuple(regions), None, score.europe_winner)
    holder = (view.get("china_card") or {}).get("holder")
    return FinalScore(tuple(regions), holder, None)
