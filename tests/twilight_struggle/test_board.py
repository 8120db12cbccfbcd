"""Board arithmetic (board.py): control, VP and DEFCON with their victory checks, region scoring
(map.md §6 is the reference)."""

from __future__ import annotations

import pytest
from kits.ts_positions import GAME, card, country, position

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.state import NOBODY, US


def test_control_needs_stability_and_a_margin_of_stability():
    state = position(influence={"iran": (2, 0), "egypt": (3, 1), "india": (4, 2)})
    assert B.controller(state, country("iran")) == US  # stability 2, 2-0
    assert B.controller(state, country("egypt")) == US  # 3-1 >= 2
    assert B.controller(state, country("india")) == NOBODY  # stability 3: 4-2 = 2 < 3


def test_region_scoring_presence_domination_control_battlegrounds_and_adjacency():
    state = position(setup_influence=False, influence={
        "mexico": (0, 2), "cuba": (0, 3), "panama": (2, 0), "guatemala": (0, 1), "haiti": (1, 0)})
    us, ussr, _ = B.score_region(state, M.CENTRAL_AMERICA)
    # USSR: 3 countries (2 bg) vs US 2 (1 bg): domination 3 + 2 bg + Mexico, Cuba border the USA 2 = 7
    assert (us, ussr) == (1 + 1, 3 + 2 + 2)


def test_europe_control_wins_when_europe_is_scored():
    bgs = {M.COUNTRIES[c].id: (4, 0) for c in M.REGION_COUNTRIES[M.EUROPE] if B.BATTLEGROUND[c]}
    state = position(setup_influence=False, influence={**bgs, "canada": (4, 0)})
    state.stack.append(("event", card("europe_scoring"), US))
    state.pending = None
    GAME.decision(state)
    assert state.outcome.winner == "us" and state.outcome.termination == "europe_control"


def test_southeast_asia_scoring_values():
    state = position(setup_influence=False, influence={"thailand": (0, 2), "vietnam": (1, 0), "burma": (0, 2)})
    assert B.southeast_asia_scoring(state) == (1, 3)


def test_twenty_vp_wins_at_once():
    state = position(vp=18)
    B.add_vp(state, US, 2)
    assert state.outcome.termination == "vp_20" and state.outcome.winner == "us"


@pytest.mark.parametrize(
    ("region", "expected"),
    [(M.MIDDLE_EAST, 7 + 6), (M.ASIA, 9 + 6 + 1), (M.AFRICA, 6 + 5), (M.CENTRAL_AMERICA, 5 + 3 + 2),
     (M.SOUTH_AMERICA, 6 + 4)],
)
def test_control_of_every_battleground_scores_the_control_tier(region, expected):
    bgs = {M.COUNTRIES[c].id: (0, M.COUNTRIES[c].stability) for c in M.REGION_COUNTRIES[region] if B.BATTLEGROUND[c]}
    state = position(setup_influence=False, influence=bgs)
    assert B.score_region(state, region) == (0, expected, NOBODY)
