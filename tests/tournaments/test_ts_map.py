"""The Twilight Struggle map's layout data (standoff.server.games.twilight_struggle.html_board): every country placed
once, boxes apart and inside the drawing, every adjacency drawn, lines clear of other boxes."""

from __future__ import annotations

import itertools
import json

from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import effects as FX
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import html_board as L

GAP = 2  # px between two boxes, at least


def boxes() -> dict[str, tuple[float, float, float, float]]:
    out = {cid: (x, y, L.BOX_W, L.BOX_H) for cid, (x, y) in L.POSITIONS.items()}
    out.update({name: box for name, box in L.SPACES.items()})
    return out


def test_all_84_countries_placed_once_at_distinct_positions():
    assert len(M.COUNTRIES) == 84
    assert set(L.POSITIONS) == {c.id for c in M.COUNTRIES}
    assert len(set(L.POSITIONS.values())) == 84
    assert set(L.SPACES) == {M.USA, M.USSR}


def test_boxes_do_not_overlap_and_stay_inside_the_drawing():
    placed = boxes()
    for (a, (ax, ay, aw, ah)), (b, (bx, by, bw, bh)) in itertools.combinations(placed.items(), 2):
        apart_x = abs(ax - bx) >= (aw + bw) / 2 + GAP
        apart_y = abs(ay - by) >= (ah + bh) / 2 + GAP
        assert apart_x or apart_y, (a, b)
    for name, (x, y, w, h) in placed.items():
        assert 0 <= x - w / 2 and x + w / 2 <= L.WIDTH and 0 <= y - h / 2 and y + h / 2 <= L.HEIGHT, name


def test_every_adjacency_is_drawn_once_superpower_spaces_included():
    drawn = {frozenset((a, b)) for a, b, _ in L.layout()["edges"]}
    wanted = {frozenset((c.id, other)) for c in M.COUNTRIES for other in c.adjacent}
    assert drawn == wanted
    assert len(L.layout()["edges"]) == len(wanted)
    assert {frozenset(("finland", "USSR")), frozenset(("mexico", "USA")), frozenset(("japan", "USA"))} <= drawn
    assert all(pair in wanted for pair in L.WRAPPED)


def test_adjacency_lines_pass_clear_of_other_boxes():
    placed = boxes()
    for a, b in L.edges():
        if frozenset((a, b)) in L.WRAPPED:
            continue
        (ax, ay, _, _), (bx, by, _, _) = placed[a], placed[b]
        for name, (x, y, w, h) in placed.items():
            if name in (a, b):
                continue
            for i in range(1, 200):
                t = i / 200
                px, py = ax + (bx - ax) * t, ay + (by - ay) * t
                assert not (abs(px - x) < w / 2 - 1 and abs(py - y) < h / 2 - 1), (a, b, name)


def test_regions_battlegrounds_and_stability_come_from_the_engine():
    data = L.layout()
    rows = {row[0]: row for row in data["countries"]}
    for c in M.COUNTRIES:
        cid, label, region, stability, battleground, x, y, fill, flags = rows[c.id]
        assert (region, stability, bool(battleground), (x, y)) == (c.region, c.stability, c.battleground, L.POSITIONS[c.id])
        assert len(label) <= 14 and fill.startswith("#")
        assert ("e" in flags) == (M.EASTERN_EUROPE in c.subregions)
    assert sum(row[4] for row in data["countries"]) == len(M.BATTLEGROUNDS) == 29
    assert set(data["regions"]) == set(M.REGIONS)


def test_cards_and_effects_for_the_page():
    data = L.layout()
    assert len(data["cards"]) == len(CD.CARDS)
    name, ops, side, starred, underlined, scoring = data["cards"]["nato"]
    assert (name, ops, side, starred, underlined, scoring) == ("NATO", 4, "us", 1, 1, 0)
    assert data["cards"]["europe_scoring"][5] == 1
    assert set(data["effects"]) == set(FX.CARD_OF)
    assert all(card in data["cards"] for card in data["effects"].values())
    assert json.dumps(L.layout()) == json.dumps(data)  # the same every call (pages are reproducible)
    # the cards' texts (the reference's summaries, shown on hover: ~19 kB) apart, the layout stays small
    assert len(json.dumps({k: v for k, v in data.items() if k != "texts"}, separators=(",", ":"))) < 20_000
    assert data["texts"]["nato"] == ["early", CD.CARD_BY_ID["nato"].summary]
