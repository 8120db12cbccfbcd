"""Twilight Struggle static data against the shared reference (map.md, cards.md).

Expected values are typed in from the reference's own tables (map.md sections 2, 4, 6;
cards.md sections 2, 3, 7, 11); the tests never read the reference at run time.
"""

from __future__ import annotations

import ast
import re
from collections import Counter

import pytest

from standoff.server.games.twilight_struggle import card_data as cd
from standoff.server.games.twilight_struggle import map_data as md

C = md.COUNTRY_BY_ID


def _edge(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def _edges() -> set[frozenset[str]]:
    return {_edge(c.id, a) for c in md.COUNTRIES for a in c.adjacent}


def _names(indices) -> set[str]:
    return {md.COUNTRIES[i].name for i in indices}


# --------------------------------------------------------------------------- map: counts (section 2)

REGION_TABLE = {
    md.EUROPE: (21, {"France", "West Germany", "Italy", "East Germany", "Poland"}),
    md.MIDDLE_EAST: (10, {"Israel", "Iraq", "Iran", "Libya", "Egypt", "Saudi Arabia"}),
    md.ASIA: (15, {"Pakistan", "India", "Thailand", "Japan", "South Korea", "North Korea"}),
    md.AFRICA: (18, {"Algeria", "Nigeria", "Zaire", "Angola", "South Africa"}),
    md.CENTRAL_AMERICA: (10, {"Mexico", "Panama", "Cuba"}),
    md.SOUTH_AMERICA: (10, {"Venezuela", "Brazil", "Chile", "Argentina"}),
}
SUBREGION_TABLE = {
    md.WESTERN_EUROPE: (14, {"France", "West Germany", "Italy"}),
    md.EASTERN_EUROPE: (9, {"East Germany", "Poland"}),
    md.SOUTHEAST_ASIA: (7, {"Thailand"}),
}


def test_region_and_subregion_strings():
    assert (md.EUROPE, md.MIDDLE_EAST, md.ASIA, md.AFRICA, md.CENTRAL_AMERICA, md.SOUTH_AMERICA) == (
        "Europe", "Middle East", "Asia", "Africa", "Central America", "South America")
    assert md.SUBREGIONS == ("Western Europe", "Eastern Europe", "Southeast Asia")
    assert {c.region for c in md.COUNTRIES} == set(md.REGIONS)
    assert {s for c in md.COUNTRIES for s in c.subregions} == set(md.SUBREGIONS)
    for c in md.COUNTRIES:
        for s in c.subregions:
            assert md.SUBREGION_PARENT[s] == c.region


def test_totals():
    assert len(md.COUNTRIES) == 84
    assert len(md.BATTLEGROUNDS) == 29
    assert len({c.id for c in md.COUNTRIES}) == 84
    assert len({c.name for c in md.COUNTRIES}) == 84
    assert md.BATTLEGROUNDS == tuple(sorted(md.BATTLEGROUNDS))
    assert all(md.COUNTRIES[i].battleground for i in md.BATTLEGROUNDS)


@pytest.mark.parametrize("region", list(REGION_TABLE))
def test_region_counts_and_battlegrounds(region):
    count, bgs = REGION_TABLE[region]
    members = md.REGION_COUNTRIES[region]
    assert len(members) == count
    assert _names(i for i in members if md.COUNTRIES[i].battleground) == bgs


@pytest.mark.parametrize("sub", list(SUBREGION_TABLE))
def test_subregion_counts_and_battlegrounds(sub):
    count, bgs = SUBREGION_TABLE[sub]
    members = md.SUBREGION_COUNTRIES[sub]
    assert len(members) == count
    assert _names(i for i in members if md.COUNTRIES[i].battleground) == bgs


def test_austria_and_finland_in_both_halves_of_europe():
    both = set(md.SUBREGION_COUNTRIES[md.WESTERN_EUROPE]) & set(md.SUBREGION_COUNTRIES[md.EASTERN_EUROPE])
    assert _names(both) == {"Austria", "Finland"}
    europe = set(md.REGION_COUNTRIES[md.EUROPE])
    halves = set(md.SUBREGION_COUNTRIES[md.WESTERN_EUROPE]) | set(md.SUBREGION_COUNTRIES[md.EASTERN_EUROPE])
    assert halves == europe
    assert set(md.SUBREGION_COUNTRIES[md.SOUTHEAST_ASIA]) <= set(md.REGION_COUNTRIES[md.ASIA])
    assert _names(md.SUBREGION_COUNTRIES[md.SOUTHEAST_ASIA]) == {
        "Burma", "Laos/Cambodia", "Thailand", "Vietnam", "Malaysia", "Indonesia", "Philippines"}


def test_regions_partition_the_map_and_keep_reference_order():
    seen = [i for r in md.REGIONS for i in md.REGION_COUNTRIES[r]]
    assert sorted(seen) == list(range(84))
    assert [md.COUNTRIES[i].region for i in range(84)] == sorted(
        (c.region for c in md.COUNTRIES), key=md.REGIONS.index)
    assert md.COUNTRIES[0].id == "canada" and md.COUNTRIES[-1].id == "uruguay"


def test_spot_stabilities_and_flags():
    assert C["norway"].stability == 4  # reference default (herbix has 3)
    assert C["zaire"].stability == 1
    assert C["uk"].stability == 5 and not C["uk"].battleground
    assert C["italy"].stability == 2 and C["italy"].battleground
    assert C["taiwan"].stability == 3 and not C["taiwan"].battleground
    assert C["nigeria"].stability == 1 and C["nigeria"].battleground
    assert all(1 <= c.stability <= 5 for c in md.COUNTRIES)


# --------------------------------------------------------------------------- map: adjacency

def test_adjacency_sorted_known_and_symmetric():
    valid = set(C) | {md.USA, md.USSR}
    for c in md.COUNTRIES:
        assert c.adjacent == tuple(sorted(c.adjacent)), c.id
        assert len(set(c.adjacent)) == len(c.adjacent)
        assert c.id not in c.adjacent
        for a in c.adjacent:
            assert a in valid, (c.id, a)
            if a in C:
                assert c.id in C[a].adjacent, (c.id, a)


def test_edge_counts():
    edges = _edges()
    superpower = {e for e in edges if e & {md.USA, md.USSR}}
    assert len(edges) == 121
    assert len(superpower) == 9
    assert len(edges - superpower) == 112
    assert sum(len(n) for n in md.NEIGHBOURS) == 2 * 112


def test_superpower_neighbours():
    assert md.SUPERPOWER_NEIGHBOURS == {
        "us": frozenset({"canada", "mexico", "cuba", "japan"}),
        "ussr": frozenset({"finland", "poland", "romania", "afghanistan", "north_korea"}),
    }


def test_cross_region_edges():
    cross = {e for e in _edges() - {e for e in _edges() if e & {md.USA, md.USSR}}
             if len({C[x].region for x in e}) == 2}
    assert cross == {
        _edge("france", "algeria"), _edge("spain_portugal", "morocco"), _edge("turkey", "syria"),
        _edge("egypt", "sudan"), _edge("libya", "tunisia"), _edge("iran", "afghanistan"),
        _edge("iran", "pakistan"), _edge("panama", "colombia"),
    }


NOT_ADJACENT = [
    ("libya", "algeria"), ("iraq", "syria"), ("iran", "gulf_states"), ("jordan", "syria"),
    ("austria", "czechoslovakia"), ("austria", "yugoslavia"), ("benelux", "france"),
    ("romania", "bulgaria"), ("yugoslavia", "bulgaria"), ("philippines", "taiwan"),
    ("USA", "south_korea"), ("USA", "philippines"), ("cuba", "mexico"),
    ("cuba", "dominican_republic"), ("japan", "north_korea"),
]
EASY_TO_MISS = [
    ("japan", "taiwan"), ("cuba", "nicaragua"), ("romania", "turkey"), ("austria", "east_germany"),
    ("france", "algeria"), ("uk", "norway"), ("canada", "uk"),
]


@pytest.mark.parametrize(("a", "b"), NOT_ADJACENT)
def test_not_adjacent(a, b):
    assert _edge(a, b) not in _edges()


@pytest.mark.parametrize(("a", "b"), EASY_TO_MISS)
def test_adjacent(a, b):
    assert _edge(a, b) in _edges()
    assert md.INDEX[b] in md.NEIGHBOURS[md.INDEX[a]]


def test_index_and_neighbour_helpers():
    assert md.INDEX == {c.id: i for i, c in enumerate(md.COUNTRIES)}
    assert all(md.COUNTRY_BY_ID[c.id] is c for c in md.COUNTRIES)
    assert len(md.NEIGHBOURS) == 84
    for i, c in enumerate(md.COUNTRIES):
        assert md.NEIGHBOURS[i] == tuple(sorted(md.INDEX[a] for a in c.adjacent if a not in (md.USA, md.USSR)))
        for j in md.NEIGHBOURS[i]:
            assert i in md.NEIGHBOURS[j]
    assert md.NEIGHBOURS[md.INDEX["australia"]] == (md.INDEX["malaysia"],)
    assert md.NEIGHBOURS[md.INDEX["canada"]] == (md.INDEX["uk"],)


# --------------------------------------------------------------------------- map: scoring (section 6)

def test_scoring_table():
    assert md.SCORING == {
        "Europe": (3, 7, None), "Asia": (3, 7, 9), "Middle East": (3, 5, 7),
        "Central America": (1, 3, 5), "South America": (2, 5, 6), "Africa": (1, 4, 6),
    }


def test_adjacency_bonus_matches_the_scoring_table():
    by_region = {
        md.EUROPE: ({"finland", "poland", "romania"}, {"canada"}),
        md.ASIA: ({"afghanistan", "north_korea"}, {"japan"}),
        md.MIDDLE_EAST: (set(), set()),
        md.CENTRAL_AMERICA: (set(), {"mexico", "cuba"}),
        md.SOUTH_AMERICA: (set(), set()),
        md.AFRICA: (set(), set()),
    }
    for region, (us, ussr) in by_region.items():
        ids = {md.COUNTRIES[i].id for i in md.REGION_COUNTRIES[region]}
        assert md.ADJACENCY_BONUS["us"] & ids == us, region
        assert md.ADJACENCY_BONUS["ussr"] & ids == ussr, region
    assert md.ADJACENCY_BONUS["us"] == md.SUPERPOWER_NEIGHBOURS["ussr"]
    assert md.ADJACENCY_BONUS["ussr"] == md.SUPERPOWER_NEIGHBOURS["us"]


def test_southeast_asia_scoring_values():
    assert md.SOUTHEAST_ASIA_SCORING == {
        "burma": 1, "laos_cambodia": 1, "vietnam": 1, "malaysia": 1, "indonesia": 1, "philippines": 1,
        "thailand": 2,
    }


# --------------------------------------------------------------------------- map: setup (section 4)

def test_setup():
    assert md.SETUP["ussr"] == {"syria": 1, "iraq": 1, "north_korea": 3, "east_germany": 3, "finland": 1}
    assert md.SETUP["us"] == {
        "canada": 2, "iran": 1, "israel": 1, "japan": 1, "australia": 4, "philippines": 1,
        "south_korea": 1, "panama": 1, "south_africa": 1, "uk": 5,
    }
    assert md.SETUP["ussr_free"] == (6, "Eastern Europe")
    assert md.SETUP["us_free"] == (7, "Western Europe")
    us_fixed, ussr_fixed = sum(md.SETUP["us"].values()), sum(md.SETUP["ussr"].values())
    assert (us_fixed, ussr_fixed) == (18, 9)
    assert us_fixed + md.SETUP["us_free"][0] == 25
    assert ussr_fixed + md.SETUP["ussr_free"][0] == 15
    assert sum(c.start_us for c in md.COUNTRIES) == 18
    assert sum(c.start_ussr for c in md.COUNTRIES) == 9
    assert not any(c.start_us and c.start_ussr for c in md.COUNTRIES)


# --------------------------------------------------------------------------- cards: identity

def test_110_cards_numbered_in_order_with_unique_ids():
    assert len(cd.CARDS) == 110
    assert [c.number for c in cd.CARDS] == list(range(1, 111))
    assert len({c.id for c in cd.CARDS}) == 110
    assert len({c.name for c in cd.CARDS}) == 110
    assert all(re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", c.id) for c in cd.CARDS)
    assert cd.CARD_BY_NUMBER == {c.number: c for c in cd.CARDS}
    assert cd.CARD_BY_ID == {c.id: c for c in cd.CARDS}
    assert all(c.side in cd.SIDES and c.period in cd.PERIODS for c in cd.CARDS)
    assert all(c.summary for c in cd.CARDS)


@pytest.mark.parametrize(("card_id", "number", "name"), [
    ("asia_scoring", 1, "Asia Scoring"),
    ("duck_and_cover", 4, "Duck and Cover"),
    ("the_china_card", 6, "The China Card"),
    ("red_scare_purge", 31, "Red Scare/Purge"),
    ("us_japan_mutual_defense_pact", 27, "US/Japan Mutual Defense Pact"),
    ("we_will_bury_you", 50, '"We Will Bury You"'),
    ("one_small_step", 80, '"One Small Step..."'),
    ("soviets_shoot_down_kal_007", 89, "Soviets Shoot Down KAL-007"),
    ("defectors", 103, "Defectors"),
    ("awacs_sale_to_saudis", 110, "AWACS Sale to Saudis"),
])
def test_card_ids(card_id, number, name):
    card = cd.CARD_BY_ID[card_id]
    assert (card.number, card.name) == (number, name)


# --------------------------------------------------------------------------- cards: composition (section 2)

def test_period_counts():
    periods = Counter(c.period for c in cd.CARDS)
    assert periods == {"early": 39, "mid": 48, "late": 23}
    standard = Counter(c.period for c in cd.CARDS if not c.optional)
    assert standard == {"early": 36, "mid": 46, "late": 21}
    assert sum(standard.values()) == 103
    assert {c.number for c in cd.CARDS if c.period == "early" and not c.optional} == set(range(1, 36)) | {103}
    assert {c.number for c in cd.CARDS if c.period == "mid" and not c.optional} == set(range(36, 82))
    assert {c.number for c in cd.CARDS if c.period == "late" and not c.optional} == set(range(82, 103))


def test_deck_lists():
    assert len(cd.EARLY_WAR) == 38 and len(cd.MID_WAR) == 48 and len(cd.LATE_WAR) == 23
    assert len([n for n in cd.EARLY_WAR if n not in cd.OPTIONAL_CARDS]) == 35
    assert cd.CHINA_CARD == 6
    assert 6 not in cd.EARLY_WAR + cd.MID_WAR + cd.LATE_WAR
    assert sorted(cd.EARLY_WAR + cd.MID_WAR + cd.LATE_WAR + (6,)) == list(range(1, 111))
    for deck, period in ((cd.EARLY_WAR, "early"), (cd.MID_WAR, "mid"), (cd.LATE_WAR, "late")):
        assert all(cd.CARD_BY_NUMBER[n].period == period for n in deck)
        assert deck == tuple(sorted(deck))


def test_side_counts():
    assert Counter(c.side for c in cd.CARDS) == {"us": 42, "ussr": 40, "neutral": 28}
    # Not tabulated in cards.md; counted from its summary table (section 3).
    assert Counter((c.period, c.side) for c in cd.CARDS) == {
        ("early", "us"): 14, ("early", "ussr"): 15, ("early", "neutral"): 10,
        ("mid", "us"): 18, ("mid", "ussr"): 15, ("mid", "neutral"): 15,
        ("late", "us"): 10, ("late", "ussr"): 10, ("late", "neutral"): 3,
    }


def test_starred_underlined_and_headline_counts():
    assert sum(c.removed for c in cd.CARDS) == 70
    assert sum(c.underlined for c in cd.CARDS) == 21
    assert {c.number for c in cd.CARDS if not c.headline} == {6, 32}
    # Underlined but not removed: Shuttle Diplomacy is discarded once used.
    assert {c.number for c in cd.CARDS if c.underlined and not c.removed} == {73}
    assert all(c.lasting for c in cd.CARDS if c.underlined)


def test_war_cards():
    assert cd.WAR_CARDS == (11, 13, 24, 36, 102)
    assert {n: cd.CARD_BY_NUMBER[n].war_ops for n in cd.WAR_CARDS} == {11: 2, 13: 2, 24: 2, 36: 3, 102: 2}
    assert sum(c.war for c in cd.CARDS) == 5


def test_scoring_cards():
    assert cd.SCORING_CARDS == (1, 2, 3, 37, 38, 79, 81)
    periods = {n: cd.CARD_BY_NUMBER[n].period for n in cd.SCORING_CARDS}
    assert periods == {1: "early", 2: "early", 3: "early", 37: "mid", 38: "mid", 79: "mid", 81: "mid"}
    for n in cd.SCORING_CARDS:
        card = cd.CARD_BY_NUMBER[n]
        assert card.ops == 0 and card.side == "neutral" and card.headline
        assert card.removed == (n == 38)
    sea = cd.CARD_BY_ID["southeast_asia_scoring"]
    assert (sea.number, sea.period, sea.removed, sea.scoring) == (38, "mid", True, True)
    assert all(1 <= c.ops <= 4 for c in cd.CARDS if not c.scoring)


def test_optional_cards():
    assert cd.OPTIONAL_CARDS == (104, 105, 106, 107, 108, 109, 110)
    periods = {n: cd.CARD_BY_NUMBER[n].period for n in cd.OPTIONAL_CARDS}
    assert periods == {104: "early", 105: "early", 106: "early", 107: "mid", 108: "mid",
                       109: "late", 110: "late"}
    defectors = cd.CARD_BY_NUMBER[103]
    assert (defectors.optional, defectors.period, defectors.side, defectors.ops, defectors.removed) == (
        False, "early", "us", 2, False)


@pytest.mark.parametrize(("card_id", "ops", "side", "period"), [
    ("asia_scoring", 0, "neutral", "early"),
    ("duck_and_cover", 3, "us", "early"),
    ("blockade", 1, "ussr", "early"),
    ("the_china_card", 4, "neutral", "early"),
    ("red_scare_purge", 4, "neutral", "early"),
    ("nato", 4, "us", "early"),
    ("marshall_plan", 4, "us", "early"),
    ("un_intervention", 1, "neutral", "early"),
    ("summit", 1, "neutral", "mid"),
    ("sadat_expels_soviets", 1, "us", "mid"),
    ("we_will_bury_you", 4, "ussr", "mid"),
    ("aldrich_ames_remix", 3, "ussr", "late"),
    ("wargames", 4, "neutral", "late"),
    ("che", 3, "ussr", "mid"),
])
def test_well_known_cards(card_id, ops, side, period):
    card = cd.CARD_BY_ID[card_id]
    assert (card.ops, card.side, card.period) == (ops, side, period)


def test_china_card():
    china = cd.CARD_BY_NUMBER[6]
    assert china.id == "the_china_card"
    assert (china.ops, china.side, china.removed, china.scoring, china.headline) == (4, "neutral", False, False, False)


# --------------------------------------------------------------------------- cards: links (section 7, 11)

def test_prerequisites_blocks_and_cancellations():
    assert {c.number: c.prerequisite for c in cd.CARDS if c.prerequisite} == {21: (16, 23), 101: (68,)}
    assert {c.number: c.blocked_by for c in cd.CARDS if c.blocked_by} == {
        7: (83,), 13: (65,), 55: (96,), 56: (110,), 59: (97,), 61: (86,)}
    assert {c.number: c.cancelled_by for c in cd.CARDS if c.cancelled_by} == {
        35: (6,), 55: (96,), 59: (97,), 106: (42,)}
    linked = {n for c in cd.CARDS for n in c.prerequisite + c.blocked_by + c.cancelled_by}
    assert linked <= set(cd.CARD_BY_NUMBER)
    assert cd.CARD_BY_ID["nato"].condition and cd.CARD_BY_ID["wargames"].condition


def test_disagreement_defaults():
    assert cd.CARD_BY_ID["iran_iraq_war"].removed is True
    assert cd.CARD_BY_ID["latin_american_debt_crisis"].removed is False
    assert cd.CARD_BY_ID["defectors"].removed is False
    assert cd.CARD_BY_ID["arab_israeli_war"].removed is False


# --------------------------------------------------------------------------- purity

@pytest.mark.parametrize("module", [md, cd])
def test_data_modules_only_import_typing(module):
    with open(module.__file__, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input", "hash", "eval", "exec"}
    assert imported <= {"__future__", "typing"}
