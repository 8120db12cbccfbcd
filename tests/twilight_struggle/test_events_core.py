"""Scenario tests for the Early War events of events/early.py (scoring cards and the events
without choices)."""

from __future__ import annotations

import pytest
from tsposition import GAME, card, influence, keys, play, position, run_event

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import event_playable
from standoff.server.games.twilight_struggle.state import US, USSR


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


def test_duck_and_cover_lowers_defcon_then_gives_the_us_five_minus_defcon():
    state = at(defcon=4)
    run_event(state, "duck_and_cover", "us")
    assert state.defcon == 3 and state.vp == 2


def test_duck_and_cover_at_defcon_two_ends_the_game_against_the_phasing_player():
    state = at(defcon=2, phasing="ussr")
    run_event(state, "duck_and_cover", "us")
    assert state.outcome.termination == "defcon" and state.outcome.winner == "us"


def test_fidel_and_romanian_abdication_replace_us_influence_with_ussr_control():
    state = at(influence={"cuba": (2, 0), "romania": (1, 1)})
    run_event(state, "fidel", "ussr")
    run_event(state, "romanian_abdication", "ussr")
    assert influence(state, "cuba") == (0, 3) and influence(state, "romania") == (0, 3)


def test_vietnam_revolts_adds_two_and_a_southeast_asia_bonus_for_the_turn():
    state = at(setup_influence=False, influence={"vietnam": (0, 0)})
    run_event(state, "vietnam_revolts", "ussr")
    assert influence(state, "vietnam") == (0, 2) and "vietnam_revolts:turn" in state.effects
    # A 2-ops USSR card spent entirely in Southeast Asia places 3.
    state.stack.append(("influence", USSR, 3, False, True, O.placement_eligible(state, USSR)))
    state.pending = None
    play(state, "country:thailand", "country:thailand", "country:laos_cambodia")
    assert influence(state, "thailand") == (0, 2)


def test_captured_nazi_scientist_advances_the_space_race_without_an_attempt():
    state = at()
    run_event(state, "captured_nazi_scientist", "ussr")
    assert state.space[USSR] == 1 and state.space_attempts[USSR] == 0 and state.vp == -2


def test_nato_needs_marshall_plan_or_warsaw_pact_and_then_protects_us_europe():
    state = at(influence={"west_germany": (5, 1), "france": (4, 1)})
    assert not event_playable(state, card("nato"), US)
    state.events_played = frozenset({card("marshall_plan")})
    assert event_playable(state, card("nato"), US)
    run_event(state, "nato", "us")
    assert "nato" in state.effects
    state.defcon = 5
    targets = O.coup_targets(state, USSR)
    assert M.INDEX["west_germany"] not in targets and M.INDEX["france"] not in targets
    state.add_effect("de_gaulle")
    assert M.INDEX["france"] in O.coup_targets(state, USSR)


def test_containment_adds_one_op_to_us_cards_but_never_above_four():
    state = at()
    run_event(state, "containment", "us")
    assert O.ops_value(state, US, card("truman_doctrine")) == 2
    assert O.ops_value(state, US, card("nato")) == 4
    assert O.ops_value(state, USSR, card("comecon")) == 3


def test_us_japan_pact_controls_japan_and_bars_ussr_coups_there():
    state = at(influence={"japan": (1, 2)})
    run_event(state, "us_japan_mutual_defense_pact", "us")
    assert influence(state, "japan") == (6, 2)
    assert M.INDEX["japan"] not in O.coup_targets(state, USSR)


def test_red_scare_purge_takes_one_op_from_the_opponent_not_below_one():
    state = at()
    run_event(state, "red_scare_purge", "ussr")
    assert "red_scare:us:turn" in state.effects
    assert O.ops_value(state, US, card("nato")) == 3
    assert O.ops_value(state, US, card("truman_doctrine")) == 1
    assert O.ops_value(state, USSR, card("comecon")) == 3


def test_nuclear_test_ban_gives_defcon_minus_two_then_improves_defcon():
    state = at(defcon=4)
    run_event(state, "nuclear_test_ban", "us")
    assert state.vp == 2 and state.defcon == 5


def test_formosan_resolution_lasts_until_the_us_plays_the_china_card():
    state = at()
    run_event(state, "formosan_resolution", "us")
    assert "formosan_resolution" in state.effects


def test_defectors_played_by_the_ussr_for_operations_gives_the_us_a_vp():
    state = position(hands={"ussr": ["defectors"], "us": ["containment"]}, rounds=2)
    play(state, "card:defectors", "use:influence:event_first")
    assert state.vp == 1
    state = position(hands={"ussr": ["defectors"], "us": ["containment"]}, rounds=2)
    play(state, "card:defectors", "use:space")
    assert state.vp in (0, -2)  # only the space race's own VP, if the roll succeeded


def test_every_early_war_card_has_an_event():
    from standoff.server.games.twilight_struggle import card_data as CD
    from standoff.server.games.twilight_struggle.events import implemented

    assert set(CD.EARLY_WAR) <= implemented()
    assert keys(at())  # the kit position is at a decision
    _ = GAME


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
