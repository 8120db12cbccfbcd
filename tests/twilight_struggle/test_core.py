"""Twilight Struggle core rules: control, operations, DEFCON, scoring, China Card, space race,
headline, end of turn (map.md is the reference)."""

from __future__ import annotations

import pytest
from tsposition import GAME, card, choose, country, influence, keys, play, position

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.state import NOBODY, US, USSR
from standoff.server.games.twilight_struggle.steps import final_scoring


def test_control_needs_stability_and_a_margin_of_stability():
    state = position(influence={"iran": (2, 0), "egypt": (3, 1), "india": (4, 2)})
    assert B.controller(state, country("iran")) == US  # stability 2, 2-0
    assert B.controller(state, country("egypt")) == US  # 3-1 >= 2
    assert B.controller(state, country("india")) == NOBODY  # stability 3: 4-2 = 2 < 3


def test_influence_costs_two_in_enemy_controlled_countries_and_falls_when_control_breaks():
    # USSR controls Iran 0/2 (stability 2); the US has influence next door in Pakistan.
    state = position(hands={"us": ["formosan_resolution"]}, phasing="us",
                     influence={"iran": (0, 2), "pakistan": (1, 0)})
    play(state, "card:formosan_resolution", "use:influence")
    assert "country:iran" in keys(state)  # 2 ops, enemy-controlled: costs 2
    choose(state, "country:iran")  # 1/2: control broken (2-1 < 2), nothing left
    assert influence(state, "iran") == (1, 2)
    assert GAME.decision(state).step != "influence"


def test_influence_only_where_the_side_is_present_or_adjacent_or_next_to_its_superpower():
    state = position(hands={"ussr": ["fidel"]}, setup_influence=False)
    play(state, "card:fidel", "use:influence")
    allowed = {k.split(":")[1] for k in keys(state)}
    assert allowed == {c for c in M.SUPERPOWER_NEIGHBOURS["ussr"]}  # only the USSR space's neighbours


def test_china_card_gives_one_more_op_only_when_all_spent_in_asia():
    state = position(hands={"ussr": ["nasser"]}, setup_influence=False, influence={"north_korea": (0, 1)})
    play(state, "card:the_china_card", "use:influence")
    assert state.china == US and not state.china_face_up  # passed face down at once
    for _ in range(5):
        choose(state, "country:north_korea")
    assert influence(state, "north_korea") == (0, 6)  # 4 + 1 Asia bonus
    state = position(hands={"ussr": ["nasser"]}, setup_influence=False,
                     influence={"north_korea": (0, 1), "poland": (0, 1)})
    play(state, "card:the_china_card", "use:influence", "country:poland")
    for _ in range(3):
        choose(state, "country:north_korea")
    assert GAME.decision(state).step != "influence"  # 4 points only: the bonus is lost
    assert influence(state, "poland") == (0, 2) and influence(state, "north_korea") == (0, 4)


def test_us_play_of_the_china_card_cancels_formosan_resolution():
    state = position(phasing="us", effects=["formosan_resolution"])
    state.china = US
    play(state, "card:the_china_card", "use:influence")
    assert "formosan_resolution" not in state.effects and state.china == USSR


def test_coup_arithmetic_military_ops_and_defcon():
    # USSR 3-ops coup in Iran (stability 2, US 1): roll 4 + 3 - 4 = 3 → remove 1 US, add 2 USSR.
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]}, influence={"iran": (1, 0)}, rounds=2)
    play(state, "card:comecon", "use:coup", "country:iran", "die:4")
    assert influence(state, "iran") == (0, 2)
    assert state.milops[USSR] == 3
    assert state.defcon == 4  # Iran is a battleground


def test_failed_coup_still_counts_military_ops_and_lowers_defcon():
    state = position(hands={"ussr": ["fidel"], "us": ["containment"]}, influence={"iran": (1, 0)}, rounds=2)
    play(state, "card:fidel", "use:coup", "country:iran", "die:1")  # 1 + 2 - 4 < 0
    assert influence(state, "iran") == (1, 0) and state.milops[USSR] == 2 and state.defcon == 4


def test_defcon_limits_coup_targets_by_region():
    state = position(hands={"ussr": ["comecon"]}, defcon=3, influence={"iran": (1, 0), "japan": (1, 0)})
    targets = O.coup_targets(state, USSR)
    assert country("iran") in targets and country("japan") not in targets  # Asia closed at 3
    assert not any(c in O.EUROPE for c in targets)


def test_coup_at_defcon_two_in_a_battleground_loses_the_game_for_the_phasing_player():
    state = position(hands={"ussr": ["comecon"]}, defcon=2, influence={"mexico": (1, 0)})
    play(state, "card:comecon", "use:coup", "country:mexico", "die:6")
    assert state.outcome.winner == "us" and state.outcome.termination == "defcon"


def test_realignment_modifiers_include_own_superpower_space():
    state = position(setup_influence=False, influence={"mexico": (1, 2), "guatemala": (0, 1)})
    # US: Mexico borders the USA (+1); USSR: more influence (+1), Guatemala not controlled (stab 1: 0/1 is USSR-controlled)
    assert O.realign_modifier(state, US, country("mexico")) == 1
    assert O.realign_modifier(state, USSR, country("mexico")) == 2  # larger influence + Guatemala controlled


def test_realignment_removes_the_difference_from_the_loser():
    state = position(hands={"us": ["containment"]}, phasing="us", setup_influence=False,
                     influence={"mexico": (0, 3), "canada": (1, 0)})
    play(state, "card:containment", "use:realign", "country:mexico", "die:6", "die:1")
    # US 6 + 1 (USA space) = 7; USSR 1 + 1 (more influence) = 2 → remove 5 (only 3 there)
    assert influence(state, "mexico") == (0, 0)


def test_military_ops_shortfall_gives_vp_to_the_opponent():
    state = position(defcon=3, hands={})
    state.milops = [1, 3]
    state.stack = [("end_turn",)]
    GAME.decision(state)
    assert state.vp == 2  # USSR short by 2: +2 to the US


def test_scoring_card_held_at_the_end_of_the_turn_loses():
    state = position(hands={"us": ["asia_scoring"]})
    state.stack = [("end_turn",)]
    GAME.decision(state)
    assert state.outcome.winner == "ussr" and state.outcome.termination == "held_scoring_card"


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


def test_formosan_resolution_makes_taiwan_a_battleground_for_asia_scoring_only():
    state = position(setup_influence=False, influence={"taiwan": (3, 0)})
    plain = B.score_region(state, M.ASIA)[0]
    state.add_effect("formosan_resolution")
    assert B.score_region(state, M.ASIA)[0] == plain + 1


def test_twenty_vp_wins_at_once():
    state = position(vp=18)
    B.add_vp(state, US, 2)
    assert state.outcome.termination == "vp_20" and state.outcome.winner == "us"


def test_final_scoring_counts_the_china_card_and_ignores_twenty_vp():
    state = position(vp=-25, setup_influence=False)
    state.china = US
    final_scoring(state)
    assert state.vp == -24 and state.outcome.winner == "ussr" and state.outcome.termination == "final_scoring"


def test_space_race_success_failure_vp_and_attempt_limit():
    state = position(hands={"ussr": ["comecon", "nasser"], "us": ["containment"]}, rounds=2)
    play(state, "card:comecon", "use:space", "die:3")  # box 1 needs 1-3
    assert state.space[USSR] == 1 and state.vp == -2
    assert not O.space_allowed(state, USSR, 3)  # one attempt per turn
    state.space[US] = 0
    state.space_attempts[USSR] = 0
    state.space[USSR] = 1
    assert O.space_allowed(state, USSR, 2)


def test_space_box_two_allows_two_attempts_and_box_eight_an_extra_action_round():
    state = position()
    state.space = [2, 0]
    state.space_attempts = [1, 0]
    assert O.space_allowed(state, USSR, 2)
    state.space = [8, 0]
    state.stack = [("action_rounds",)]
    GAME.decision(state)
    assert ("action_round", 7, USSR) in state.stack


def _events_in_order(state):
    from standoff.server.core.flow import iter_history

    return [e.key for e in iter_history(state.history) if e.step == "event"]


def test_headline_order_higher_ops_first_us_on_ties_scoring_last():
    # Tie on 3 ops: the US headline (Containment) resolves first, then COMECON asks the USSR.
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]})
    state.stack = [("end_turn",), ("headline",)]
    play(state, "card:comecon", "card:containment")
    assert _events_in_order(state) == ["card:containment", "card:comecon"]
    assert GAME.decision(state).role == "ussr" and "containment:turn" in state.effects
    # Higher ops first: Red Scare/Purge (4) before Containment (3).
    state = position(hands={"ussr": ["red_scare_purge"], "us": ["containment"]})
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:red_scare_purge", "card:containment")
    assert _events_in_order(state) == ["card:red_scare_purge", "card:containment"]
    # Scoring cards come last, even against a 1-op card.
    state = position(hands={"ussr": ["asia_scoring"], "us": ["cia_created"]})
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:asia_scoring", "card:cia_created")
    assert _events_in_order(state)[0] == "card:cia_created"


def test_defectors_headlined_by_the_us_cancels_the_ussr_headline():
    state = position(hands={"ussr": ["asia_scoring"], "us": ["defectors"]})
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:asia_scoring", "card:defectors")
    assert "card:asia_scoring" not in _events_in_order(state)
    assert card("asia_scoring") in state.discard


def test_man_in_earth_orbit_makes_the_other_side_headline_first_and_visibly():
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]})
    state.space = [0, 4]  # the US holds box 4 alone
    state.stack = [("end_turn",), ("headline",)]
    decision = GAME.decision(state)
    assert decision.role == "ussr"
    choose(state, "card:comecon")
    assert GAME.view(state, "us")["history"][-1][3] == "card:comecon"  # seen by the US


def test_secret_headline_is_hidden_until_revealed():
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]})
    state.stack = [("end_turn",), ("headline",)]
    choose(state, "card:comecon")
    assert GAME.view(state, "us")["headline"] == {}
    assert GAME.view(state, "us")["history"][-1][3] == "card:hidden"
    assert GAME.view(state, "ussr")["headline"] == {"ussr": "comecon"}


def test_deal_reshuffles_the_discard_pile_when_the_deck_runs_out():
    state = position(hands={"ussr": ["comecon"], "us": []})
    state.discard = state.deck[:13]
    state.deck = state.deck[13:15]  # 2 + 13 = the 15 cards the two hands need
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("deal",)]
    while GAME.decision(state).step == "deal":
        choose(state, GAME.decision(state).options[0].key)
    assert len(state.hands[USSR]) == 8 and len(state.hands[US]) == 8
    assert state.discard == ()


def test_chinese_civil_war_claims_the_china_card_with_three_influence():
    from standoff.server.games.twilight_struggle.rules import make_rules

    state = position(hands={"ussr": ["comecon"]})
    state.rules = make_rules(None, {"end_turn": "3", "chinese_civil_war": "on"})
    state.china = NOBODY
    play(state, "card:comecon", "use:influence", "country:chinese_civil_war",
         "country:chinese_civil_war", "country:chinese_civil_war")
    assert state.china == USSR and state.china_face_up


def test_rules_refuse_unknown_options_and_games_reaching_missing_periods():
    from standoff.server.core.game import RulesError

    with pytest.raises(RulesError, match="unknown option"):
        GAME.rules(None, {"colour": "red"})
    with pytest.raises(RulesError, match="end_turn"):
        GAME.rules(None, {"end_turn": "11"})
    assert GAME.rules(None, {"end_turn": "10"}).end_turn == 10  # every event exists now
    from standoff.server.games.twilight_struggle.events import implemented
    from standoff.server.games.twilight_struggle.rules import make_rules

    partial = implemented() - {86, 100}
    with pytest.raises(RulesError, match="#86 North Sea Oil, #100 Wargames"):
        make_rules(None, {"end_turn": "8"}, implemented=partial)
    assert make_rules(None, {"end_turn": "7"}, implemented=partial).end_turn == 7


@pytest.mark.parametrize(
    ("region", "expected"),
    [(M.MIDDLE_EAST, 7 + 6), (M.ASIA, 9 + 6 + 1), (M.AFRICA, 6 + 5), (M.CENTRAL_AMERICA, 5 + 3 + 2),
     (M.SOUTH_AMERICA, 6 + 4)],
)
def test_control_of_every_battleground_scores_the_control_tier(region, expected):
    bgs = {M.COUNTRIES[c].id: (0, M.COUNTRIES[c].stability) for c in M.REGION_COUNTRIES[region] if B.BATTLEGROUND[c]}
    state = position(setup_influence=False, influence=bgs)
    assert B.score_region(state, region) == (0, expected, NOBODY)


def test_eagle_bear_has_landed_may_discard_a_held_card_at_the_end_of_the_turn():
    state = position(hands={"ussr": ["comecon", "asia_scoring"], "us": ["containment"]})
    state.space = [6, 0]
    state.stack = [("end_turn",)]
    assert set(keys(state)) == {"card:comecon", "done"}  # never a scoring card
    choose(state, "card:comecon")
    assert card("comecon") in state.discard


def test_optional_cards_and_bid_options():
    from standoff.server.games.twilight_struggle import card_data as CD

    for setting, size in (("on", 38), ("off", 35)):
        rules = GAME.rules(None, {"end_turn": "1", "optional_cards": setting})
        state = GAME.new_state(rules)
        GAME.decision(state)
        assert len(state.deck) + sum(len(h) for h in state.hands) == size
    rules = GAME.rules(None, {"end_turn": "1", "bid": "us:2"})
    state = GAME.new_state(rules)
    while GAME.decision(state).step != "bid":
        decision = GAME.decision(state)
        choose(state, decision.options[0].key)
    assert GAME.decision(state).role == "us"
    assert all(state.inf[US][M.INDEX[k.split(":")[1]]] > 0 for k in keys(state))
    assert set(CD.OPTIONAL_CARDS) == {104, 105, 106, 107, 108, 109, 110}
