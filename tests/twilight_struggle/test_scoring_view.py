"""The region scoring calculator from a view (scoring_view.py) against the engine's own
(board.score_region, the oracle): for many random boards, with and without the lasting effects
that change a scoring (Formosan Resolution, Shuttle Diplomacy's ignored battleground), the VP of
each side and Europe's automatic win are the same; final scoring adds the China Card."""

from __future__ import annotations

import random

import pytest

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import effects as E
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import scoring_view as SV
from standoff.server.games.twilight_struggle.spec import GAME
from standoff.server.games.twilight_struggle.state import NOBODY, SIDE_NAMES, US, USSR


def random_state(rng: random.Random):
    state = GAME.new_state()
    GAME.decision(state)  # the set-up runs: the start influence is on the board
    strong = rng.choice((None, None, US, USSR))  # a side sweeping the board (Europe control)
    for c in range(len(M.COUNTRIES)):
        stability = M.COUNTRIES[c].stability
        for side in (US, USSR):  # mostly empty, often enough controlled
            state.inf[side][c] = rng.choice((0, 0, 0, 1, stability, stability + 1, 2 * stability, 3))
            if side == strong and rng.random() < 0.9:
                state.inf[side][c] = 3 * stability
    if rng.random() < 0.3:
        state.add_effect(E.FORMOSAN_RESOLUTION)
    if rng.random() < 0.3:
        bgs = [M.COUNTRIES[c].id for c in M.BATTLEGROUNDS]
        state.add_effect(E.SCORING_IGNORE(rng.choice(bgs)))
    state.china = rng.choice((US, USSR, NOBODY))
    return state


@pytest.mark.parametrize("seed", range(4))
def test_region_scoring_from_a_view_equals_the_engines(seed):
    rng = random.Random(seed)
    wins = taiwan = 0
    for _ in range(150):
        state = random_state(rng)
        view = GAME.view(state, "us")
        for region in M.REGIONS:
            us, ussr, winner = B.score_region(state, region)
            score = SV.score_region(view["influence"], region, view["effects"])
            assert (score.us.vp, score.ussr.vp) == (us, ussr), (region, view["influence"], view["effects"])
            expected = None if winner == NOBODY else SIDE_NAMES[winner]
            assert score.europe_winner == expected
            wins += expected is not None
            taiwan += "taiwan" in score.us.battlegrounds
    assert wins and taiwan  # the random boards reached both special cases


def test_the_breakdown_names_the_tiers_battlegrounds_and_adjacency():
    influence = {"north_korea": {"us": 0, "ussr": 3}, "india": {"us": 0, "ussr": 3},
                 "burma": {"us": 0, "ussr": 2}, "japan": {"us": 4, "ussr": 0}}
    score = SV.score_region(influence, M.ASIA)
    assert score.ussr.level == "domination" and score.ussr.tier_vp == 7
    assert set(score.ussr.battlegrounds) == {"north_korea", "india"}
    assert score.ussr.vp == 9 and score.us.level == "presence"
    assert score.us.battlegrounds == ("japan",) and score.us.vp == 3 + 1
    assert score.net == 4 - 9


def test_shuttle_diplomacy_and_formosan_resolution():
    influence = {"taiwan": {"us": 3, "ussr": 0}, "iran": {"us": 0, "ussr": 2}}
    assert SV.score_region(influence, M.ASIA).us.battlegrounds == ()
    assert SV.score_region(influence, M.ASIA, ["formosan_resolution"]).us.battlegrounds == ("taiwan",)
    shuttled = SV.score_region(influence, M.MIDDLE_EAST, ["scoring_ignore:iran"])
    assert shuttled.ussr.vp == 0 and shuttled.ignored == ("iran",)


def test_final_scoring_adds_the_china_card_and_stops_at_europe_control():
    rng = random.Random(9)
    europe = 0
    for _ in range(200):
        state = random_state(rng)
        view = GAME.view(state, "ussr")
        final = SV.final_scoring(view)
        expected = GAME.new_state()
        expected.inf, expected.effects, expected.china = state.inf, state.effects, state.china
        from standoff.server.games.twilight_struggle.turn import final_scoring

        expected.vp = 0
        final_scoring(expected)
        if final.europe_winner:
            europe += 1
            assert expected.outcome.termination == B.EUROPE_CONTROL
            assert expected.outcome.winner == final.europe_winner
        else:
            assert expected.vp == final.net
    assert europe
