"""The scoring cards (events/scoring.py: #1-3, 37, 38, 79, 81): a scenario per card, against
cards.md §4 and map.md §6."""

from __future__ import annotations

import pytest
from kits.ts_positions import card, play, position, run_event

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M


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


def test_southeast_asia_scoring_card_is_removed_after_use():
    state = position(hands={"ussr": ["southeast_asia_scoring"], "us": ["containment"]}, rounds=2,
                     setup_influence=False, influence={"thailand": (0, 2), "burma": (2, 0)})
    play(state, "card:southeast_asia_scoring", "use:event")
    assert state.vp == -1  # USSR Thailand 2, US Burma 1
    assert card("southeast_asia_scoring") in state.removed
