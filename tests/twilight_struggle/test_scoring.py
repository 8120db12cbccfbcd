"""The scoring cards (events/scoring.py: #1-3, 37, 38, 79, 81): a scenario per card, against
cards.md §4 and map.md §6."""

from __future__ import annotations

import pytest
from kits.ts_positions import card, play, position, proves, run_event

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.state import USSR


def at(**kw):
    kw.setdefault("hands", {"ussr": ["comecon"], "us": ["containment"]})
    kw.setdefault("rounds", 2)
    return position(**kw)


@pytest.mark.parametrize(
    ("name", "region"),
    [("asia_scoring", M.ASIA), ("europe_scoring", M.EUROPE), ("middle_east_scoring", M.MIDDLE_EAST)],
)
def test_scoring_cards_apply_the_net_difference(name, region):
    state = at()
    us, ussr, _ = B.score_region(state, region)
    run_event(state, name, "us")
    assert state.vp == us - ussr


@proves("asia_scoring")
def test_asia_scoring_with_an_ussr_edge():
    state = at(setup_influence=False, influence={"north_korea": (0, 3), "india": (0, 3), "burma": (0, 2)})
    run_event(state, "asia_scoring", "ussr")
    # USSR: 3 countries, 2 battlegrounds, 1 non-bg vs US 0 → domination 7 + 2 bg = 9
    assert state.vp == -9


@pytest.mark.parametrize(
    ("name", "region"),
    [("central_america_scoring", M.CENTRAL_AMERICA), ("africa_scoring", M.AFRICA),
     ("south_america_scoring", M.SOUTH_AMERICA)],
)
def test_mid_war_region_scoring_cards(name, region):
    bgs = {M.COUNTRIES[c].id: (M.COUNTRIES[c].stability, 0) for c in M.REGION_COUNTRIES[region] if B.BATTLEGROUND[c]}
    state = at(setup_influence=False, influence=bgs)
    us, ussr, _ = B.score_region(state, region)
    assert us > 0 and ussr == 0
    run_event(state, name, "us")
    assert state.vp == us


@proves("southeast_asia_scoring")
def test_southeast_asia_scoring_card_is_removed_after_use():
    state = position(hands={"ussr": ["southeast_asia_scoring"], "us": ["containment"]}, rounds=2,
                     setup_influence=False, influence={"thailand": (0, 2), "burma": (2, 0)})
    play(state, "card:southeast_asia_scoring", "use:event")
    assert state.vp == -1  # USSR Thailand 2, US Burma 1
    assert card("southeast_asia_scoring") in state.removed


# -- Every scoring card against a hand-built position, expected VP worked out by hand ------------
#
# map.md §6: a side's award = the single highest tier it reaches (Presence: controls >= 1 country;
# Domination: more countries AND more battlegrounds than the opponent, with >= 1 battleground and
# >= 1 non-battleground; Control: more countries AND every battleground of the region)
# + 1 per controlled battleground + 1 per controlled country bordering the enemy superpower.
# Only the net difference (US - USSR) moves the VP marker (positive: the US leads).
#
#                    Presence  Domination  Control   adjacency bonus
#   Europe               3         7       wins      US: Finland, Poland, Romania; USSR: Canada
#   Asia                 3         7         9       US: Afghanistan, North Korea; USSR: Japan
#   Middle East          3         5         7       -
#   Central America      1         3         5       USSR: Mexico, Cuba
#   South America        2         5         6       -
#   Africa               1         4         6       -
#
# Control of a country: influence >= stability and ahead of the opponent's by >= stability.
# Every position starts empty (setup_influence=False) so that only the listed influence counts.


def empty(**kw):
    return at(setup_influence=False, **kw)


@proves("asia_scoring")
def test_asia_scoring_us_domination_with_battlegrounds_and_the_ussr_border():
    state = empty(influence={
        "north_korea": (3, 0),  # US: battleground, borders the USSR
        "afghanistan": (2, 0),  # US: non-battleground, borders the USSR
        "pakistan": (2, 0),     # US: battleground
        "india": (0, 3),        # USSR: battleground
        "burma": (1, 1),        # nobody (contested)
    })
    run_event(state, "asia_scoring", "ussr")
    # US: 3 countries (2 bg) vs 1 (1 bg) -> Domination 7 + 2 bg + 2 border (N. Korea, Afghanistan) = 11
    # USSR: Presence 3 + 1 bg (India) = 4
    assert state.vp == (7 + 2 + 2) - (3 + 1)


@proves("asia_scoring")
def test_asia_scoring_control_counts_southeast_asia_and_the_china_card_gives_nothing():
    state = empty(influence={
        # US: all 6 Asian battlegrounds, Thailand (Southeast Asia) included
        "pakistan": (2, 0), "india": (3, 0), "thailand": (2, 0), "japan": (4, 0), "south_korea": (3, 0),
        "north_korea": (3, 0),
        "laos_cambodia": (0, 1),  # USSR: one Southeast Asian non-battleground
    })
    assert state.china == USSR  # held by the USSR: no VP at a region scoring
    run_event(state, "asia_scoring", "us")
    # US: Control 9 + 6 bg + 1 border (North Korea; Japan borders the USA, its own space) = 16
    # USSR: Presence 3 (Laos/Cambodia)
    assert state.vp == 16 - 3


@proves("asia_scoring")
def test_asia_scoring_ussr_japan_bonus_and_no_domination_without_a_non_battleground():
    state = empty(vp=2, influence={
        "japan": (0, 4),       # USSR: battleground bordering the USA
        "south_korea": (0, 3),  # USSR: battleground
        "australia": (4, 0),    # US: non-battleground
    })
    run_event(state, "asia_scoring", "us")
    # USSR: 2 countries, 2 bg, but no non-battleground -> Presence 3 + 2 bg + 1 border (Japan) = 6
    # US: Presence 3
    assert state.vp == 2 + 3 - 6


@proves("europe_scoring")
def test_europe_scoring_us_domination_and_the_finland_border():
    state = empty(influence={
        "france": (3, 0), "west_germany": (4, 0), "italy": (2, 0),  # US: 3 battlegrounds
        "uk": (5, 0), "finland": (4, 0),                          # US: non-bg, Finland borders the USSR
        "east_germany": (0, 3),                                    # USSR: battleground
        "bulgaria": (0, 3),                                        # USSR: non-battleground
        "poland": (2, 2),                                          # nobody
    })
    run_event(state, "europe_scoring", "ussr")
    # US: 5 countries (3 bg) vs 2 (1 bg) -> Domination 7 + 3 bg + 1 border (Finland) = 11
    # USSR: Presence 3 + 1 bg = 4 (no Control of Europe: East Germany is the USSR's)
    assert state.vp == 11 - 4
    assert state.outcome is None


@proves("europe_scoring")
def test_europe_scoring_ussr_canada_bonus_and_us_poland_bonus():
    state = empty(influence={
        "canada": (0, 4),   # USSR: non-battleground bordering the USA
        "poland": (3, 0),   # US: battleground bordering the USSR
        "romania": (3, 0),  # US: non-battleground bordering the USSR
        "hungary": (0, 3),  # USSR: non-battleground
    })
    run_event(state, "europe_scoring", "us")
    # US: 2 countries, 1 bg vs USSR 2 countries, 0 bg: not more countries -> Presence 3 + 1 bg
    #     + 2 border (Poland, Romania) = 6
    # USSR: Presence 3 + 1 border (Canada) = 4
    assert state.vp == 6 - 4


@proves("europe_scoring")
def test_europe_scoring_control_of_europe_wins_the_game():
    state = empty(vp=-10, influence={
        # US: all 5 European battlegrounds and more countries
        "france": (3, 0), "west_germany": (4, 0), "italy": (2, 0), "east_germany": (3, 0), "poland": (3, 0),
        "bulgaria": (0, 3),  # USSR: one country
    })
    run_event(state, "europe_scoring", "ussr")
    assert state.outcome is not None and state.outcome.winner == "us"
    assert state.vp == -10  # the game ends on Control, not on VP


@proves("middle_east_scoring")
def test_middle_east_scoring_us_domination_against_ussr_presence():
    state = empty(influence={
        "israel": (4, 0), "iran": (2, 0),  # US: 2 battlegrounds
        "jordan": (2, 0),                  # US: non-battleground
        "iraq": (0, 3),                    # USSR: battleground
        "syria": (0, 2),                   # USSR: non-battleground
    })
    run_event(state, "middle_east_scoring", "ussr")
    # US: 3 countries (2 bg) vs 2 (1 bg) -> Domination 5 + 2 bg = 7; USSR: Presence 3 + 1 bg = 4
    assert state.vp == 7 - 4


@proves("middle_east_scoring")
def test_middle_east_scoring_ussr_control_of_every_battleground():
    state = empty(vp=5, influence={
        "israel": (0, 4), "iraq": (0, 3), "iran": (0, 2), "libya": (0, 2), "egypt": (0, 2),
        "saudi_arabia": (0, 3),  # USSR: all 6 battlegrounds
        "lebanon": (1, 0),       # US: one non-battleground
    })
    run_event(state, "middle_east_scoring", "us")
    # USSR: Control 7 + 6 bg = 13 (no superpower borders here); US: Presence 3
    assert state.vp == 5 + 3 - 13


@proves("middle_east_scoring")
def test_middle_east_scoring_battlegrounds_only_is_presence():
    state = empty(influence={"israel": (4, 0), "iran": (2, 0), "iraq": (0, 3)})
    run_event(state, "middle_east_scoring", "us")
    # US: 2 countries, 2 bg, more of both, but no non-battleground -> Presence 3 + 2 bg = 5
    # USSR: Presence 3 + 1 bg = 4
    assert state.vp == 5 - 4


@proves("central_america_scoring")
def test_central_america_scoring_ussr_domination_with_the_usa_border_bonus():
    state = empty(turn=4, influence={
        "cuba": (0, 3), "mexico": (0, 2),  # USSR: battlegrounds bordering the USA
        "guatemala": (0, 1),               # USSR: non-battleground
        "panama": (2, 0),                  # US: battleground
        "honduras": (2, 0),                # US: non-battleground
    })
    run_event(state, "central_america_scoring", "us")
    # USSR: 3 countries (2 bg) vs 2 (1 bg) -> Domination 3 + 2 bg + 2 border (Cuba, Mexico) = 7
    # US: Presence 1 + 1 bg = 2
    assert state.vp == 2 - 7


@proves("central_america_scoring")
def test_central_america_scoring_us_control_earns_no_border_bonus():
    state = empty(turn=4, influence={
        "mexico": (2, 0), "cuba": (3, 0), "panama": (2, 0),  # US: all 3 battlegrounds
        "haiti": (0, 1),                                      # USSR: one country
    })
    run_event(state, "central_america_scoring", "ussr")
    # US: Control 5 + 3 bg = 8 (Mexico and Cuba border the USA, the US's own space: no bonus)
    # USSR: Presence 1
    assert state.vp == 8 - 1


@proves("central_america_scoring")
def test_central_america_scoring_card_played_from_hand_and_kept_in_the_game():
    state = position(hands={"ussr": ["central_america_scoring"], "us": ["containment"]}, rounds=2, turn=4,
                     setup_influence=False, influence={"cuba": (0, 3), "nicaragua": (0, 1), "panama": (2, 0)})
    play(state, "card:central_america_scoring", "use:event")
    # USSR: 2 countries (1 bg) vs 1 (1 bg): not more battlegrounds -> Presence 1 + 1 bg + 1 border (Cuba) = 3
    # US: Presence 1 + 1 bg = 2
    assert state.vp == 2 - 3
    assert state.discard == (card("central_america_scoring"),) and state.removed == ()  # not starred


@proves("southeast_asia_scoring")
def test_southeast_asia_scoring_one_per_country_two_for_thailand_no_tiers():
    state = empty(turn=4, influence={
        "thailand": (2, 0), "philippines": (2, 0), "malaysia": (2, 0),  # US: 2 + 1 + 1 = 4
        "vietnam": (0, 1), "burma": (0, 2), "laos_cambodia": (0, 1),  # USSR: 1 + 1 + 1 = 3
        "indonesia": (1, 1),                                          # nobody
        "india": (0, 3), "japan": (4, 0),                             # Asia, not Southeast Asia
    })
    run_event(state, "southeast_asia_scoring", "ussr")
    assert state.vp == 4 - 3


@proves("southeast_asia_scoring")
def test_southeast_asia_scoring_ussr_sweep():
    state = empty(turn=4, vp=1, influence={
        "thailand": (0, 2), "vietnam": (0, 1), "burma": (0, 2), "laos_cambodia": (0, 1), "malaysia": (0, 2),
        "indonesia": (0, 1), "philippines": (0, 2),
    })
    run_event(state, "southeast_asia_scoring", "us")
    # USSR: Thailand 2 + six countries x 1 = 8; no Presence/Domination/Control tiers
    assert state.vp == 1 - 8


@proves("africa_scoring")
def test_africa_scoring_us_control_of_every_battleground():
    state = empty(turn=4, influence={
        "algeria": (2, 0), "nigeria": (1, 0), "zaire": (1, 0), "angola": (1, 0), "south_africa": (3, 0),
        "kenya": (0, 2),  # USSR: one non-battleground
    })
    run_event(state, "africa_scoring", "ussr")
    # US: Control 6 + 5 bg = 11; USSR: Presence 1
    assert state.vp == 11 - 1


@proves("africa_scoring")
def test_africa_scoring_ussr_domination():
    state = empty(turn=4, influence={
        "angola": (0, 1), "zaire": (0, 1),  # USSR: 2 battlegrounds
        "botswana": (0, 2),                 # USSR: non-battleground
        "south_africa": (3, 0),             # US: battleground
        "nigeria": (1, 1),                  # nobody
    })
    run_event(state, "africa_scoring", "us")
    # USSR: 3 countries (2 bg) vs 1 (1 bg) -> Domination 4 + 2 bg = 6; US: Presence 1 + 1 bg = 2
    assert state.vp == 2 - 6


@proves("africa_scoring")
def test_africa_scoring_nobody_controls_anything():
    state = empty(turn=4, vp=-3, influence={"angola": (1, 1), "south_africa": (2, 0), "kenya": (0, 1)})
    run_event(state, "africa_scoring", "us")
    # South Africa 2 < stability 3, Kenya 1 < 2, Angola contested: no Presence on either side
    assert state.vp == -3


@proves("south_america_scoring")
def test_south_america_scoring_ussr_control_of_every_battleground():
    state = empty(turn=4, influence={
        "venezuela": (0, 2), "brazil": (0, 2), "chile": (0, 3), "argentina": (0, 2),
        "peru": (2, 0),  # US: one non-battleground
    })
    run_event(state, "south_america_scoring", "us")
    # USSR: Control 6 + 4 bg = 10; US: Presence 2
    assert state.vp == 2 - 10


@proves("south_america_scoring")
def test_south_america_scoring_us_domination():
    state = empty(turn=4, influence={
        "venezuela": (2, 0), "chile": (3, 0),  # US: 2 battlegrounds
        "colombia": (1, 0),                    # US: non-battleground
        "argentina": (0, 2),                   # USSR: battleground
    })
    run_event(state, "south_america_scoring", "ussr")
    # US: 3 countries (2 bg) vs 1 (1 bg) -> Domination 5 + 2 bg = 7; USSR: Presence 2 + 1 bg = 3
    assert state.vp == 7 - 3


@proves("south_america_scoring")
def test_south_america_scoring_battlegrounds_only_is_presence():
    state = empty(turn=4, vp=4, influence={"brazil": (2, 0), "chile": (3, 0)})
    run_event(state, "south_america_scoring", "ussr")
    # US: 2 countries, 2 bg, nobody else, but no non-battleground -> Presence 2 + 2 bg = 4
    assert state.vp == 4 + 4


@proves("formosan_resolution", "asia_scoring")
def test_formosan_resolution_then_asia_scoring_taiwan_counts_as_a_us_battleground():
    state = empty(influence={
        "taiwan": (3, 0), "south_korea": (3, 0), "australia": (4, 0),  # US
        "north_korea": (0, 3),                                         # USSR: battleground
    })
    run_event(state, "formosan_resolution", "us")
    run_event(state, "asia_scoring", "us")
    # Taiwan a battleground: US 3 countries, 2 bg (South Korea, Taiwan) and 1 non-bg (Australia)
    # vs 1 (1 bg) -> Domination 7 + 2 bg = 9; USSR: Presence 3 + 1 bg = 4
    # (without Formosan Resolution: US 1 bg, not more -> Presence 3 + 1 = 4, net 0)
    assert state.vp == 9 - 4


@proves("asia_scoring")
def test_asia_scoring_without_formosan_resolution_taiwan_is_no_battleground():
    state = empty(influence={"taiwan": (3, 0), "south_korea": (3, 0), "australia": (4, 0), "north_korea": (0, 3)})
    run_event(state, "asia_scoring", "us")
    # US: 3 countries but 1 bg, not more than the USSR's 1 -> Presence 3 + 1 = 4; USSR: 3 + 1 = 4
    assert state.vp == 0
