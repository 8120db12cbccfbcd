"""Twilight Struggle's board in the report's match viewer (``GameSpec.html_board``): the script
and style in ``board.js`` and ``board.css`` beside this module, the map's layout they draw from
(:func:`layout`, the page's ``#board-data``) and the whole table as one view (:func:`table_view`).
Imported by ``spec.game_spec`` only (not by the engine's imports).

The layout gives a position for each of the 84 countries and the two superpower spaces, placed
as on the printed (Deluxe) board, and what the page's script needs to draw the map, the tracks
and the cards. Pure presentation data. The countries themselves (names, regions, stability,
battlegrounds, adjacency) come from the engine's :mod:`.map_data`, the cards from its
``card_data`` and the lasting effects' cards from its ``effects``: only the positions, short
labels and colours are written here.

Coordinates are box centres in a ``WIDTH`` x ``HEIGHT`` drawing; a country box is ``BOX_W`` x
``BOX_H``. The printed board's layout: North America on the left with the USA space above
Central America, South America below it; Europe top centre with the USSR space to its right;
the Middle East and Africa below Europe; Asia on the right, Southeast Asia in its lower corner.
As on the printed board, the USA-Japan adjacency runs off the map's right edge and comes back
at its left (``WRAPPED``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ... import boards
from . import card_data as CD
from . import effects as FX
from . import map_data as M
from . import scoring_view as SV

__all__ = ["BOX_H", "BOX_W", "HEIGHT", "POSITIONS", "REGION_COLOURS", "SPACES", "WIDTH", "WRAPPED", "edges", "html_board",
           "layout", "panels", "table_view"]

WIDTH, HEIGHT = 1300, 815
BOX_W, BOX_H = 68, 36
#: The superpower spaces: centre and size (``"USA"`` and ``"USSR"``, as ``Country.adjacent`` names them).
SPACES: dict[str, tuple[int, int, int, int]] = {"USA": (120, 80, 110, 50), "USSR": (860, 150, 110, 50)}

# fmt: off
#: Country id -> (x, y): the centre of its box.
POSITIONS: dict[str, tuple[int, int]] = {
    # Europe
    "canada": (280, 50), "uk": (380, 75), "norway": (470, 40), "sweden": (550, 80), "finland": (640, 40),
    "denmark": (480, 125), "benelux": (400, 130), "west_germany": (470, 175), "east_germany": (550, 150),
    "poland": (630, 125), "france": (330, 200), "czechoslovakia": (630, 185), "austria": (520, 225),
    "hungary": (610, 245), "spain_portugal": (315, 270), "italy": (450, 270), "yugoslavia": (560, 300),
    "romania": (680, 290), "greece": (545, 350), "bulgaria": (640, 340), "turkey": (720, 375),
    # Middle East
    "lebanon": (710, 430), "syria": (790, 420), "israel": (700, 485), "iraq": (870, 465),
    "iran": (950, 410), "libya": (565, 470), "egypt": (640, 525), "jordan": (790, 490),
    "gulf_states": (910, 530), "saudi_arabia": (820, 565),
    # Asia
    "afghanistan": (1010, 340), "pakistan": (1020, 430), "india": (1070, 505), "burma": (1140, 470),
    "laos_cambodia": (1130, 550), "thailand": (1130, 620), "vietnam": (1210, 560), "malaysia": (1150, 690),
    "indonesia": (1240, 695), "philippines": (1262, 615), "australia": (1250, 775), "japan": (1215, 225),
    "taiwan": (1140, 320), "south_korea": (1100, 245), "north_korea": (1100, 180),
    # Africa
    "morocco": (360, 430), "algeria": (450, 410), "tunisia": (530, 410), "west_african_states": (350, 520),
    "saharan_states": (460, 490), "nigeria": (460, 560), "ivory_coast": (370, 600), "cameroon": (500, 630),
    "zaire": (580, 640), "angola": (520, 710), "botswana": (600, 775), "south_africa": (510, 780),
    "se_african_states": (720, 760), "zimbabwe": (650, 710), "sudan": (680, 590), "ethiopia": (760, 630),
    "somalia": (850, 650), "kenya": (780, 700),
    # Central America
    "mexico": (60, 190), "guatemala": (60, 255), "el_salvador": (40, 320), "honduras": (120, 305),
    "costa_rica": (80, 390), "panama": (125, 450), "nicaragua": (155, 365), "cuba": (180, 195),
    "haiti": (250, 230), "dominican_republic": (235, 295),
    # South America
    "venezuela": (240, 510), "colombia": (150, 510), "ecuador": (80, 570), "peru": (130, 630),
    "brazil": (280, 590), "bolivia": (210, 660), "chile": (130, 720), "argentina": (220, 780),
    "paraguay": (220, 720), "uruguay": (300, 700),
}
# fmt: on

#: Labels shorter than the country's name, for the narrow boxes.
SHORT = {
    "dominican_republic": "Dominican Rep.", "west_african_states": "W. African St.",
    "se_african_states": "SE African St.", "saharan_states": "Saharan States",
    "czechoslovakia": "Czechoslov.", "spain_portugal": "Spain/Portugal", "laos_cambodia": "Laos/Cambodia",
    "saudi_arabia": "Saudi Arabia", "gulf_states": "Gulf States",
}

#: Adjacencies drawn off the map's edge and back (the printed board's USA-Japan line).
WRAPPED: frozenset[frozenset[str]] = frozenset({frozenset({"japan", "USA"})})

#: Region fill colours, near the printed board's (light; battlegrounds get a dark banner).
REGION_COLOURS: dict[str, str] = {
    M.EUROPE: "#c9b3d9", M.MIDDLE_EAST: "#b9d7ee", M.ASIA: "#f3cf9a", M.AFRICA: "#f1e69a",
    M.CENTRAL_AMERICA: "#b9e0c3", M.SOUTH_AMERICA: "#c8dfa3",
}
#: Eastern / Western Europe (the printed board tints the halves).
SUBREGION_COLOURS: dict[str, str] = {M.WESTERN_EUROPE: "#c9c3e6", M.EASTERN_EUROPE: "#e0b8cf"}


def edges() -> list[tuple[str, str]]:
    """Every adjacency once (superpower spaces included, as ``"USA"``/``"USSR"``), sorted."""
    pairs = {tuple(sorted((c.id, a))) for c in M.COUNTRIES for a in c.adjacent}
    return sorted(pairs)  # type: ignore[arg-type]


def _fill(country: M.Country) -> str:
    if country.region == M.EUROPE and len(country.subregions) == 1:
        return SUBREGION_COLOURS[country.subregions[0]]
    return REGION_COLOURS[country.region]


def layout() -> dict[str, Any]:
    """What the page's script needs to draw the board (JSON-ready, the same every call):
    ``countries`` ``[id, label, region, stability, battleground, x, y, fill, flags]`` (flags: ``w``
    western Europe, ``e`` eastern, ``s`` Southeast Asia), ``spaces``, ``edges`` ``[a, b, wrapped]``,
    ``regions`` (colours), ``cards`` ``id -> [name, ops, side, starred, underlined, scoring]``,
    ``texts`` ``id -> [period, summary]`` (the summary: the reference's paraphrase of the event,
    the card's text on hover) and ``effects`` (effect name or prefix -> card id)."""
    countries = []
    for c in M.COUNTRIES:
        x, y = POSITIONS[c.id]
        flags = "".join(f for f, s in (("w", M.WESTERN_EUROPE), ("e", M.EASTERN_EUROPE), ("s", M.SOUTHEAST_ASIA))
                        if s in c.subregions)
        countries.append([c.id, SHORT.get(c.id, c.name), c.region, c.stability, int(c.battleground), x, y,
                          _fill(c), flags])
    cards = {
        c.id: [c.name, c.ops, c.side, int(c.removed), int(c.underlined), int(c.scoring)] for c in CD.CARDS
    }
    return {
        "w": WIDTH,
        "h": HEIGHT,
        "box": [BOX_W, BOX_H],
        "countries": countries,
        "spaces": {name: list(box) for name, box in SPACES.items()},
        "edges": [[a, b, int(frozenset((a, b)) in WRAPPED)] for a, b in edges()],
        "regions": dict(REGION_COLOURS),
        "cards": cards,
        "texts": {c.id: [c.period, c.summary] for c in CD.CARDS},
        "effects": {name: CD.CARD_BY_NUMBER[number].id for name, number in sorted(FX.CARD_OF.items())},
    }


def table_view(game: Any, state: Any) -> dict[str, Any]:
    """The whole table (:func:`standoff.server.boards.table_view`) without what each seat's view
    says of the other's hand, and with both headline cards while they are still secret (each
    seat's view holds its own)."""
    views = boards.seat_views(game, state)
    table = boards.table_view(game, state, views)
    for key in ("opponent_hand", "opponent_hand_size"):
        table.pop(key, None)
    if isinstance(table.get("headline"), dict):
        headline: dict[str, Any] = {}
        for view in views.values():
            headline.update(view.get("headline") or {})
        table["headline"] = {role: headline[role] for role in views if role in headline}
    return table


def _side_panel(score: SV.SideScore) -> list[Any]:
    """``[tier, countries, battlegrounds, adjacent to the enemy superpower, VP]`` (counts; the
    page names the countries from the view it shows: a short list per frame)."""
    return [score.level, len(score.countries), len(score.battlegrounds), len(score.adjacent), score.vp]


def panels(view: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring panel of a frame (``HtmlBoard.panels``), from the view it shows (a seat's or
    the table's: the board is public, so every seat's panel is the same): each region as
    scoring it now would go (:mod:`.scoring_view`: per side ``[tier, countries, battlegrounds,
    countries next to the enemy superpower, VP]``, the battlegrounds in play, the net, Europe's
    automatic win), Southeast Asia Scoring's VP while its card is in play, and final scoring
    (the six regions and The China Card's VP, and the VP track it would leave). ``final.done``:
    the game is over at the end of the last turn (the page shows the final scoring itself)."""
    influence = view.get("influence") or {}
    effects = list(view.get("effects") or [])
    out: dict[str, Any] = {}
    for region in M.REGIONS:
        score = SV.score_region(influence, region, effects)
        entry = {"ussr": _side_panel(score.ussr), "us": _side_panel(score.us), "bgs": score.battlegrounds,
                 "net": score.net}
        if score.europe_winner:
            entry["wins"] = score.europe_winner
        if score.ignored:
            entry["ignored"] = list(score.ignored)
        out[region] = entry
    if "southeast_asia_scoring" not in (view.get("removed") or []):
        us, ussr, _ = SV.southeast_asia(influence)
        out["sea"] = {"us": us, "ussr": ussr, "net": us - ussr}
    final = SV.final_scoring(view)
    end_turn = int((view.get("rules") or {}).get("end_turn") or 10)
    vp = int(view.get("vp") or 0)
    done = (view.get("step") is None and int(view.get("turn") or 0) >= end_turn and int(view.get("defcon") or 5) > 1
            and not any(m for m in (view.get("military_ops") or {}).values()))
    out["final"] = {"net": final.net, "china": final.china, "wins": final.europe_winner,
                    "vp": vp if done else vp + final.net, "done": done}
    return out


@functools.cache
def html_board(game: Any) -> boards.HtmlBoard:
    """The game's :class:`~standoff.server.boards.HtmlBoard` (its files read once a process):
    the map takes the page's width."""
    from importlib import resources  # pathlib underneath: kept out of the engine's imports

    files = resources.files(__package__)
    return boards.HtmlBoard(
        script=files.joinpath("board.js").read_text(encoding="utf-8"),
        style=files.joinpath("board.css").read_text(encoding="utf-8"),
        data=layout,
        table=functools.partial(table_view, game),
        wide=True,
        panels=panels,
    )
