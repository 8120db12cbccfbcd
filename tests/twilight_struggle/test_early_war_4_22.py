"""Early War events #4-22 (events/early_war.py): a scenario per card and branch, against
cards.md §4/§5/§8 (#23-106 in test_early_war_23_106.py)."""

from __future__ import annotations

import pytest
from kits.ts_positions import (
    GAME, card, choose, country, country_keys, influence, keys, play, position, proves, run_event, step,
)

from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import early_war, event_playable
from standoff.server.games.twilight_struggle.events.primitives import CHOICES
from standoff.server.games.twilight_struggle.state import US, USSR


def at(**kw):
    kw.setdefault("hands", {"ussr": ["comecon"], "us": ["containment"]})
    kw.setdefault("rounds", 2)
    return position(**kw)


def pos(**kwargs):
    """The kit's position, plus: a spare card for each side whose hand is not given, and with the
    USSR phasing the US's action round 1 after it, so that a settled event or card play stops at
    an action round (not the end of the turn with its military-ops VP)."""
    hands = dict(kwargs.pop("hands", {}))
    hands.setdefault("ussr", ["captured_nazi_scientist"])
    hands.setdefault("us", ["nuclear_test_ban"])
    state = position(hands=hands, **kwargs)
    if state.phasing == USSR:
        state.stack.insert(1, ("action_round", 1, US))
    return state


@proves("duck_and_cover")
def test_duck_and_cover_lowers_defcon_then_gives_the_us_five_minus_defcon():
    state = at(defcon=4)
    run_event(state, "duck_and_cover", "us")
    assert state.defcon == 3 and state.vp == 2


@proves("duck_and_cover")
def test_duck_and_cover_at_defcon_two_ends_the_game_against_the_phasing_player():
    state = at(defcon=2, phasing="ussr")
    run_event(state, "duck_and_cover", "us")
    assert state.outcome.termination == "defcon" and state.outcome.winner == "us"


def test_steps_are_wired_and_choices_not_shadowed():
    for s in early_war.STEPS:
        assert G.STEPS[s.name] is s
    for name in ("blockade", "warsaw_pact_formed", "warsaw_pact_remove", "truman_doctrine",
                 "olympic_games", "independent_reds"):
        assert CHOICES[name].__module__ == early_war.__name__


# -- #5 Five Year Plan ---------------------------------------------------------------------------


@proves("five_year_plan")
def test_five_year_plan_random_us_starred_card_fires_for_the_us_and_is_removed():
    state = pos(hands={"ussr": ["fidel", "truman_doctrine"]}, influence={"italy": (1, 2)})
    run_event(state, "five_year_plan", "us")
    decision = GAME.decision(state)
    assert decision.role == "chance" and decision.step == "five_year_plan"
    assert keys(state) == ["card:fidel", "card:truman_doctrine"]
    choose(state, "card:truman_doctrine")
    # Truman Doctrine for the US: uncontrolled European countries with USSR influence
    assert decision is not GAME.decision(state) and GAME.decision(state).role == "us"
    assert keys(state) == country_keys("finland", "italy")
    choose(state, "country:italy")
    assert influence(state, "italy") == (1, 0)
    assert state.hands[USSR] == (card("fidel"),)
    assert state.removed == (card("truman_doctrine"),) and state.discard == ()
    assert card("truman_doctrine") in state.events_played


@proves("five_year_plan")
def test_five_year_plan_random_ussr_card_is_only_discarded():
    state = pos(hands={"ussr": ["fidel", "nasser"]}, influence={"cuba": (1, 0)})
    run_event(state, "five_year_plan", "us", "card:fidel")
    assert state.discard == (card("fidel"),) and state.removed == ()
    assert state.hands[USSR] == (card("nasser"),)
    assert influence(state, "cuba") == (1, 0) and card("fidel") not in state.events_played
    assert step(state) == "action_round"


@proves("five_year_plan")
def test_five_year_plan_random_scoring_card_is_discarded_without_scoring():
    state = pos(hands={"ussr": ["europe_scoring"]}, influence={"poland": (0, 3)})
    run_event(state, "five_year_plan", "us", "card:europe_scoring")
    assert state.discard == (card("europe_scoring"),) and state.vp == 0


@proves("five_year_plan")
def test_five_year_plan_random_blocked_us_event_is_discarded_not_removed():
    state = pos(hands={"ussr": ["nato"]})  # no Marshall Plan / Warsaw Pact yet
    run_event(state, "five_year_plan", "us", "card:nato")
    assert state.discard == (card("nato"),) and state.removed == ()
    assert "nato" not in state.effects and card("nato") not in state.events_played


@proves("five_year_plan")
def test_five_year_plan_with_an_empty_ussr_hand_does_nothing():
    state = pos(hands={"us": ["fidel"], "ussr": []}, phasing="us")
    run_event(state, "five_year_plan", "us")
    assert keys(state) == ["card:fidel"]  # straight back to the US action round
    assert state.discard == () and state.removed == ()


@proves("duck_and_cover", "five_year_plan")
def test_five_year_plan_drawing_duck_and_cover_at_defcon_two_loses_for_the_phasing_us():
    state = pos(hands={"us": ["five_year_plan"], "ussr": ["duck_and_cover"]}, phasing="us", defcon=2)
    play(state, "card:five_year_plan", "use:event", "card:duck_and_cover")
    assert state.defcon == 1
    assert state.outcome.winner == "ussr" and state.outcome.termination == "defcon"


@proves("five_year_plan")
def test_five_year_plan_played_by_the_ussr_for_operations_event_first():
    state = pos(hands={"ussr": ["five_year_plan", "duck_and_cover"]})
    play(state, "card:five_year_plan", "use:influence:event_first", "card:duck_and_cover")
    assert state.defcon == 4 and state.vp == 1  # Duck and Cover for the US: 5 - 4
    assert step(state) == "influence"
    assert state.hands[USSR] == ()
    assert state.discard == (card("duck_and_cover"),)


# -- #7 Socialist Governments -------------------------------------------------------------------


@proves("socialist_governments")
def test_socialist_governments_removes_three_us_in_western_europe_at_most_two_per_country():
    state = pos(influence={"france": (3, 0), "italy": (2, 0), "poland": (2, 0)})
    run_event(state, "socialist_governments", "ussr")
    assert keys(state) == country_keys("canada", "uk", "france", "italy")  # Western Europe, US present
    play(state, "country:france", "country:france")
    assert "country:france" not in keys(state)  # at most 2 from one country
    play(state, "country:uk")
    assert influence(state, "france") == (1, 0) and influence(state, "uk") == (4, 0)
    assert influence(state, "italy") == (2, 0) and influence(state, "poland") == (2, 0)
    assert step(state) == "action_round"


def test_socialist_governments_is_no_event_after_the_iron_lady():
    state = pos(hands={"ussr": ["socialist_governments"]}, events_played=["the_iron_lady"])
    assert not event_playable(state, card("socialist_governments"), USSR)
    play(state, "card:socialist_governments")
    assert "use:event" not in keys(state) and "use:influence" in keys(state)


@proves("fidel", "romanian_abdication")
def test_fidel_and_romanian_abdication_replace_us_influence_with_ussr_control():
    state = at(influence={"cuba": (2, 0), "romania": (1, 1)})
    run_event(state, "fidel", "ussr")
    run_event(state, "romanian_abdication", "ussr")
    assert influence(state, "cuba") == (0, 3) and influence(state, "romania") == (0, 3)


@proves("vietnam_revolts")
def test_vietnam_revolts_adds_two_and_a_southeast_asia_bonus_for_the_turn():
    state = at(setup_influence=False, influence={"vietnam": (0, 0)})
    run_event(state, "vietnam_revolts", "ussr")
    assert influence(state, "vietnam") == (0, 2) and "vietnam_revolts:turn" in state.effects
    # A 2-ops USSR card spent entirely in Southeast Asia places 3.
    state.stack.append(("influence", USSR, 3, False, True, O.placement_eligible(state, USSR)))
    state.pending = None
    play(state, "country:thailand", "country:thailand", "country:laos_cambodia")
    assert influence(state, "thailand") == (0, 2)


# -- #10 Blockade --------------------------------------------------------------------------------


@proves("blockade")
def test_blockade_offers_cards_of_three_ops_or_more_and_west_germany():
    state = pos(hands={"us": ["duck_and_cover", "truman_doctrine", "nato", "asia_scoring"]},
                influence={"west_germany": (4, 0)})
    run_event(state, "blockade", "ussr")
    assert GAME.decision(state).role == "us" and step(state) == "blockade"
    assert keys(state) == ["choice:duck_and_cover", "choice:nato", "choice:lose_west_germany"]
    choose(state, "choice:nato")
    assert state.discard == (card("nato"),)
    assert card("nato") not in state.hands[US] and len(state.hands[US]) == 3
    assert influence(state, "west_germany") == (4, 0) and card("nato") not in state.events_played


@proves("blockade")
def test_blockade_lose_west_germany():
    state = pos(hands={"us": ["duck_and_cover"]}, influence={"west_germany": (4, 1)})
    run_event(state, "blockade", "ussr", "choice:lose_west_germany")
    assert influence(state, "west_germany") == (0, 1)
    assert state.hands[US] == (card("duck_and_cover"),) and state.discard == ()


def test_blockade_without_a_qualifying_card_leaves_only_west_germany():
    state = pos(hands={"us": ["truman_doctrine", "independent_reds"]}, influence={"west_germany": (2, 0)})
    run_event(state, "blockade", "ussr")
    assert keys(state) == ["choice:lose_west_germany"]


def test_blockade_containment_lifts_a_two_ops_card_to_three():
    state = pos(hands={"us": ["truman_doctrine", "independent_reds"]}, effects=["containment:turn"])
    run_event(state, "blockade", "ussr")
    assert keys(state) == ["choice:independent_reds", "choice:lose_west_germany"]


def test_blockade_red_scare_drops_a_three_ops_card_below_the_threshold():
    state = pos(hands={"us": ["duck_and_cover", "nato"]}, effects=["red_scare:us:turn"])
    run_event(state, "blockade", "ussr")
    assert keys(state) == ["choice:nato", "choice:lose_west_germany"]  # 4 - 1 = 3 still qualifies


@proves("blockade")
def test_blockade_played_from_hand_is_removed():
    state = pos(hands={"ussr": ["blockade"], "us": ["duck_and_cover"]}, influence={"west_germany": (3, 0)})
    play(state, "card:blockade", "use:event", "choice:lose_west_germany")
    assert influence(state, "west_germany") == (0, 0)
    assert state.removed == (card("blockade"),) and state.discard == ()


# -- #11 Korean War ------------------------------------------------------------------------------


@proves("korean_war")
def test_korean_war_success_with_us_controlled_neighbour():
    state = pos(influence={"south_korea": (2, 1), "japan": (4, 0)})
    run_event(state, "korean_war", "ussr")
    assert keys(state) == [f"die:{n}" for n in range(1, 7)] and state.milops[USSR] == 2
    choose(state, "die:5")  # 5 - 1 (Japan) = 4
    assert influence(state, "south_korea") == (0, 3)
    assert state.vp == -2 and state.milops[USSR] == 2 and state.defcon == 5


@proves("korean_war")
def test_korean_war_failure_still_gives_military_ops():
    state = pos(influence={"south_korea": (2, 1), "japan": (4, 0)})
    run_event(state, "korean_war", "ussr", "die:4")  # 4 - 1 = 3
    assert influence(state, "south_korea") == (2, 1) and state.vp == 0 and state.milops[USSR] == 2


@proves("korean_war")
def test_korean_war_counts_every_us_controlled_neighbour():
    state = pos(influence={"south_korea": (1, 0), "japan": (4, 0), "taiwan": (3, 0)})
    run_event(state, "korean_war", "ussr", "die:5")  # 5 - 2 = 3: lost
    assert influence(state, "south_korea") == (1, 0) and state.vp == 0
    state = pos(influence={"south_korea": (1, 0), "japan": (4, 0), "taiwan": (3, 0)})
    run_event(state, "korean_war", "ussr", "die:6")  # 6 - 2 = 4: won
    assert influence(state, "south_korea") == (0, 1) and state.vp == -2


@proves("korean_war")
def test_korean_war_played_from_hand_is_removed():
    state = pos(hands={"ussr": ["korean_war"]}, influence={"south_korea": (1, 0)})
    play(state, "card:korean_war", "use:event", "die:4")
    assert state.vp == -2 and state.removed == (card("korean_war"),)


# -- #13 Arab-Israeli War ------------------------------------------------------------------------


@proves("arab_israeli_war")
def test_arab_israeli_war_minus_one_for_us_controlled_israel_and_each_neighbour():
    state = pos(influence={"israel": (4, 0), "jordan": (2, 0)})
    run_event(state, "arab_israeli_war", "ussr", "die:5")  # 5 - 2 = 3: lost
    assert influence(state, "israel") == (4, 0) and state.vp == 0 and state.milops[USSR] == 2
    state = pos(influence={"israel": (4, 0), "jordan": (2, 0)})
    run_event(state, "arab_israeli_war", "ussr", "die:6")  # 6 - 2 = 4: won
    assert influence(state, "israel") == (0, 4) and state.vp == -2 and state.milops[USSR] == 2


@proves("arab_israeli_war")
def test_arab_israeli_war_uncontrolled_israel_no_modifier():
    state = pos(influence={"israel": (1, 0), "jordan": (1, 0)})
    run_event(state, "arab_israeli_war", "ussr", "die:4")
    assert influence(state, "israel") == (0, 1) and state.vp == -2


@proves("arab_israeli_war")
def test_arab_israeli_war_is_discarded_not_removed():
    state = pos(hands={"ussr": ["arab_israeli_war"]}, influence={"israel": (1, 0)})
    play(state, "card:arab_israeli_war", "use:event", "die:1")
    assert state.discard == (card("arab_israeli_war"),) and state.removed == ()


def test_arab_israeli_war_is_no_event_after_camp_david():
    state = pos(hands={"ussr": ["arab_israeli_war"]}, events_played=["camp_david_accords"])
    assert not event_playable(state, card("arab_israeli_war"), USSR)
    play(state, "card:arab_israeli_war")
    assert "use:event" not in keys(state)
    # played by the US for operations: the blocked USSR event does not happen
    state = pos(hands={"us": ["arab_israeli_war"]}, phasing="us", events_played=["camp_david_accords"],
                influence={"israel": (1, 0)})
    play(state, "card:arab_israeli_war", "use:influence:event_first")
    assert step(state) == "influence" and state.milops[USSR] == 0


# -- #14 COMECON ---------------------------------------------------------------------------------


@proves("comecon")
def test_comecon_four_different_eastern_european_countries_not_us_controlled():
    state = pos(influence={"poland": (3, 0), "yugoslavia": (4, 1), "hungary": (1, 0)})
    run_event(state, "comecon", "ussr")
    assert keys(state) == country_keys("finland", "east_germany", "czechoslovakia", "austria", "hungary",
                                       "romania", "bulgaria")
    choose(state, "country:hungary")
    assert "country:hungary" not in keys(state)
    play(state, "country:east_germany", "country:romania", "country:austria")
    assert influence(state, "hungary") == (1, 1) and influence(state, "east_germany") == (0, 4)
    assert influence(state, "romania") == (0, 1) and influence(state, "austria") == (0, 1)
    assert influence(state, "poland") == (3, 0) and influence(state, "yugoslavia") == (4, 1)
    assert step(state) == "action_round"


# -- #15 Nasser ----------------------------------------------------------------------------------


@proves("nasser")
@pytest.mark.parametrize(("before", "after"), [((3, 0), (1, 2)), ((4, 1), (2, 3)), ((1, 0), (0, 2)), ((0, 0), (0, 2))])
def test_nasser_adds_two_and_removes_half_the_us_rounded_up(before, after):
    state = pos(influence={"egypt": before})
    run_event(state, "nasser", "ussr")
    assert step(state) == "action_round"
    assert influence(state, "egypt") == after


# -- #16 Warsaw Pact Formed ----------------------------------------------------------------------

PACT = {"poland": (2, 0), "hungary": (1, 1), "czechoslovakia": (3, 0), "romania": (1, 0), "bulgaria": (1, 2)}


def test_warsaw_pact_offers_its_two_options_to_the_ussr():
    state = pos()
    run_event(state, "warsaw_pact_formed", "ussr")
    assert GAME.decision(state).role == "ussr"
    assert keys(state) == ["choice:remove_us_influence", "choice:add_ussr_influence"]


@proves("warsaw_pact_formed")
def test_warsaw_pact_removes_all_us_influence_from_four_countries():
    state = pos(influence=PACT)
    run_event(state, "warsaw_pact_formed", "ussr", "choice:remove_us_influence")
    assert keys(state) == country_keys(*PACT)
    play(state, "country:czechoslovakia")
    assert keys(state) == country_keys("poland", "hungary", "romania", "bulgaria")  # distinct
    play(state, "country:hungary", "country:bulgaria", "country:poland")
    assert step(state) == "action_round"
    for name in ("czechoslovakia", "hungary", "bulgaria", "poland"):
        assert influence(state, name) == (0, PACT[name][1])
    assert influence(state, "romania") == (1, 0)
    assert event_playable(state, card("nato"), US)  # Warsaw Pact enables NATO


@proves("warsaw_pact_formed")
def test_warsaw_pact_removal_stops_when_no_us_influence_is_left():
    state = pos(influence={"poland": (2, 0)})
    run_event(state, "warsaw_pact_formed", "ussr", "choice:remove_us_influence")
    assert keys(state) == ["country:poland"]
    choose(state, "country:poland")
    assert influence(state, "poland") == (0, 0) and step(state) == "action_round"


@proves("warsaw_pact_formed")
def test_warsaw_pact_adds_five_in_eastern_europe_at_most_two_per_country():
    state = pos(influence={"poland": (2, 0)})
    run_event(state, "warsaw_pact_formed", "ussr", "choice:add_ussr_influence")
    assert keys(state) == country_keys("finland", "east_germany", "poland", "czechoslovakia", "austria", "hungary",
                                       "yugoslavia", "romania", "bulgaria")
    play(state, "country:poland", "country:poland")
    assert "country:poland" not in keys(state)
    play(state, "country:hungary", "country:hungary", "country:romania")
    assert influence(state, "poland") == (2, 2) and influence(state, "hungary") == (0, 2)
    assert influence(state, "romania") == (0, 1) and step(state) == "action_round"


@proves("warsaw_pact_formed")
def test_warsaw_pact_played_from_hand_is_removed():
    state = pos(hands={"ussr": ["warsaw_pact_formed"]})
    play(state, "card:warsaw_pact_formed", "use:event", "choice:add_ussr_influence")
    play(state, *["country:poland"] * 2, *["country:romania"] * 2, "country:bulgaria")
    assert state.removed == (card("warsaw_pact_formed"),)


# -- #17 De Gaulle Leads France ------------------------------------------------------------------


@proves("de_gaulle_leads_france")
def test_de_gaulle_removes_two_us_adds_one_ussr_and_ends_nato_protection_of_france():
    state = pos(influence={"france": (5, 0)}, effects=["nato"])
    assert O.protected(state, USSR, country("france"))
    run_event(state, "de_gaulle_leads_france", "ussr")
    assert step(state) == "action_round"
    assert influence(state, "france") == (3, 1)
    assert "de_gaulle" in state.effects
    assert not O.protected(state, USSR, country("france"))  # still US-controlled, no longer shielded


@proves("de_gaulle_leads_france")
def test_de_gaulle_with_little_us_influence():
    state = pos(influence={"france": (1, 0)})
    run_event(state, "de_gaulle_leads_france", "ussr")
    assert step(state) == "action_round"
    assert influence(state, "france") == (0, 1)


@proves("captured_nazi_scientist")
def test_captured_nazi_scientist_advances_the_space_race_without_an_attempt():
    state = at()
    run_event(state, "captured_nazi_scientist", "ussr")
    assert state.space[USSR] == 1 and state.space_attempts[USSR] == 0 and state.vp == -2


# -- #19 Truman Doctrine -------------------------------------------------------------------------


@proves("truman_doctrine")
def test_truman_doctrine_clears_ussr_influence_from_one_uncontrolled_european_country():
    state = pos(influence={"italy": (1, 2), "austria": (0, 1), "poland": (0, 3), "greece": (2, 0),
                           "turkey": (2, 2), "iran": (0, 1)})
    run_event(state, "truman_doctrine", "us")
    assert GAME.decision(state).role == "us"
    # not Poland/East Germany (USSR-controlled), not Greece (no USSR), not Iran (not Europe)
    assert keys(state) == country_keys("finland", "austria", "italy", "turkey")
    choose(state, "country:turkey")
    assert influence(state, "turkey") == (2, 0) and influence(state, "italy") == (1, 2)
    assert step(state) == "action_round"


@proves("truman_doctrine")
def test_truman_doctrine_with_no_candidate_still_counts_as_played():
    state = pos(hands={"us": ["truman_doctrine"]}, phasing="us", setup_influence=False,
                influence={"poland": (0, 3)})
    play(state, "card:truman_doctrine", "use:event")
    assert influence(state, "poland") == (0, 3)
    assert state.removed == (card("truman_doctrine"),)


# -- #20 Olympic Games ---------------------------------------------------------------------------


@proves("olympic_games")
def test_olympic_games_the_opponent_chooses_participate_ties_reroll_sponsor_wins():
    state = pos(hands={"ussr": ["olympic_games"]})
    play(state, "card:olympic_games", "use:event")
    assert GAME.decision(state).role == "us" and keys(state) == ["choice:participate", "choice:boycott"]
    play(state, "choice:participate", "die:3", "die:5")  # 3 + 2 = 5 vs 5: tie, roll again
    assert step(state) == "die" and state.vp == 0
    play(state, "die:4", "die:2")  # 6 vs 2
    assert state.vp == -2 and state.defcon == 5
    assert state.discard == (card("olympic_games"),) and state.removed == ()


@proves("olympic_games")
def test_olympic_games_participate_the_opponent_can_win():
    state = pos(phasing="us")
    run_event(state, "olympic_games", "us")
    assert GAME.decision(state).role == "ussr"
    play(state, "choice:participate", "die:1", "die:4")  # US 3 vs USSR 4
    assert state.vp == -2


@proves("olympic_games")
def test_olympic_games_boycott_defcon_down_and_four_ops_for_the_sponsor_not_space():
    state = pos(influence={"north_korea": (0, 3)}, effects=["red_scare:ussr:turn"])
    run_event(state, "olympic_games", "ussr", "choice:boycott")
    assert state.defcon == 4 and step(state) == "event_ops" and GAME.decision(state).role == "ussr"
    assert keys(state) == ["use:influence", "use:realign", "use:coup"]
    choose(state, "use:influence")
    play(state, *["country:north_korea"] * 4)  # 4 Ops despite Red Scare/Purge
    assert influence(state, "north_korea") == (0, 7) and step(state) == "action_round"


@proves("olympic_games")
@pytest.mark.parametrize("sponsor", ["ussr", "us"])
def test_olympic_boycott_at_defcon_two_the_sponsor_loses(sponsor):
    opponent = "us" if sponsor == "ussr" else "ussr"
    state = pos(hands={sponsor: ["olympic_games"]}, phasing=sponsor, defcon=2)
    play(state, "card:olympic_games", "use:event", "choice:boycott")
    assert state.defcon == 1
    assert state.outcome.winner == opponent and state.outcome.termination == "defcon"


@proves("nato")
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


# -- #22 Independent Reds ------------------------------------------------------------------------


@proves("independent_reds")
def test_independent_reds_matches_ussr_influence_in_one_country():
    state = pos(influence={"romania": (0, 3), "hungary": (1, 2), "yugoslavia": (2, 2), "czechoslovakia": (0, 1),
                           "poland": (0, 3)})
    run_event(state, "independent_reds", "us")
    assert GAME.decision(state).role == "us"
    # Bulgaria (0/0) and Yugoslavia (equal) would gain nothing; Poland is not on the list
    assert keys(state) == country_keys("czechoslovakia", "hungary", "romania")
    choose(state, "country:romania")
    assert influence(state, "romania") == (3, 3) and influence(state, "hungary") == (1, 2)
    assert step(state) == "action_round"


@proves("independent_reds")
def test_independent_reds_with_nothing_to_match_is_still_removed():
    state = pos(hands={"us": ["independent_reds"]}, phasing="us", influence={"romania": (2, 2)})
    play(state, "card:independent_reds", "use:event")
    assert influence(state, "romania") == (2, 2) and state.removed == (card("independent_reds"),)


# -- a US starred event fired by a USSR operations play ---------------------------------------------


def test_starred_opponent_event_fired_by_an_operations_play_is_removed():
    state = pos(hands={"ussr": ["truman_doctrine"]}, influence={"italy": (1, 2)})
    play(state, "card:truman_doctrine", "use:influence:event_first", "country:italy")
    assert influence(state, "italy") == (1, 0)
    assert step(state) == "influence"
    play(state, "country:poland")
    assert state.removed == (card("truman_doctrine"),) and state.discard == ()


# -- more proofs (the card audit: a test resolves the event and asserts on its effect) ------------


@proves("captured_nazi_scientist")
def test_captured_nazi_scientist_second_to_a_box_scores_the_second_vp_and_first_to_a_box_its_first():
    state = at()
    state.space = [0, 1]  # the US is already on Earth Satellite (first 2 / second 1 VP)
    run_event(state, "captured_nazi_scientist", "ussr")
    assert state.space == [1, 1] and state.vp == -1
    state = at(phasing="us")
    state.space = [2, 2]  # next box: Man in Space (2 / 0)
    run_event(state, "captured_nazi_scientist", "us")
    assert state.space == [2, 3] and state.vp == 2 and state.space_attempts == [0, 0]


@proves("duck_and_cover")
def test_duck_and_cover_played_from_hand_at_defcon_five():
    state = pos(phasing="us", hands={"us": ["duck_and_cover", "nato"]}, vp=-1, rounds=2)
    play(state, "card:duck_and_cover", "use:event")
    assert step(state) == "action_round" and GAME.decision(state).role == "ussr"
    assert state.defcon == 4 and state.vp == -1 + (5 - 4)
    assert state.discard == (card("duck_and_cover"),) and state.removed == ()  # not starred


@proves("fidel")
def test_fidel_with_the_ussr_already_above_stability_adds_nothing():
    state = at(influence={"cuba": (2, 4)})
    run_event(state, "fidel", "ussr")
    assert influence(state, "cuba") == (0, 4)  # US removed; 4 >= stability 3 already controls


@proves("romanian_abdication")
def test_romanian_abdication_from_hand_tops_up_to_control_and_is_removed():
    state = pos(hands={"ussr": ["romanian_abdication", "fidel"]}, influence={"romania": (2, 1)})
    play(state, "card:romanian_abdication", "use:event")
    assert influence(state, "romania") == (0, 3)
    assert state.removed == (card("romanian_abdication"),)
