"""Early War events #23-35 and the optional #103-106 (events/early_war.py): a scenario per card,
against cards.md §4 and §8 (#4-22 in test_early_war_4_22.py)."""

from __future__ import annotations

from kits.ts_positions import (
    GAME, SIDE, card, country, country_keys, events_in_order, history, influence, keys, play, position,
    proves, region_keys, run_event, step, who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import early_war, event_playable, primitives

US, USSR = SIDE["us"], SIDE["ussr"]


def at(**kw):
    kw.setdefault("hands", {"ussr": ["comecon"], "us": ["containment"]})
    kw.setdefault("rounds", 2)
    return position(**kw)


def pos(*, phasing: str = "ussr", hands=None, **kw):
    """A position where, once the phasing side's play is over, the other side's action round
    asks (so that no end of turn runs behind the scenario)."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon"])
    hands.setdefault("us", ["truman_doctrine"])
    state = position(phasing=phasing, hands=hands, **kw)
    opponent = "us" if phasing == "ussr" else "ussr"
    state.stack.insert(1, ("action_round", 2, SIDE[opponent]))
    return state


def test_early_war_and_primitive_steps_are_part_of_the_game():
    assert all(G.STEPS.get(step.name) is step for step in early_war.STEPS + primitives.STEPS)


# -- #23 Marshall Plan --------------------------------------------------------------------------


@proves("marshall_plan")
def test_marshall_plan_seven_different_western_countries_not_ussr_controlled():
    state = pos(phasing="us", hands={"us": ["marshall_plan", "nato"]},
                influence={"italy": (0, 3), "greece": (0, 1)})
    play(state, "card:marshall_plan", "use:event")
    western = [k for k in region_keys("Western Europe") if k != "country:italy"]
    assert step(state) == "event_place" and who(state) == "us"
    assert keys(state) == western  # Italy (USSR-controlled) excluded; Greece (contested) allowed
    play(state, "country:canada")
    assert "country:canada" not in keys(state)  # 1 per country
    play(state, "country:uk", "country:norway", "country:sweden", "country:greece", "country:france",
         "country:west_germany")
    assert step(state) == "action_round"
    assert influence(state, "canada") == (3, 0)
    assert influence(state, "uk") == (6, 0)
    assert influence(state, "greece") == (1, 1)
    assert influence(state, "west_germany") == (1, 0)
    assert influence(state, "italy") == (0, 3)
    assert influence(state, "denmark") == (0, 0)
    assert state.removed == (card("marshall_plan"),)
    assert event_playable(state, card("nato"), US)  # NATO's prerequisite met


@proves("marshall_plan")
def test_marshall_plan_fewer_than_seven_eligible_countries():
    ussr_held = {c: (0, 5) for c in ("canada", "uk", "norway", "sweden", "finland", "denmark", "benelux",
                                     "france", "west_germany", "austria")}
    state = pos(phasing="us", influence=ussr_held)
    run_event(state, "marshall_plan", "us")
    assert keys(state) == country_keys("italy", "spain_portugal", "greece", "turkey")
    play(state, "country:italy", "country:spain_portugal", "country:greece", "country:turkey")
    assert step(state) == "action_round"
    assert [influence(state, c)[0] for c in ("italy", "spain_portugal", "greece", "turkey")] == [1, 1, 1, 1]


# -- #24 Indo-Pakistani War ---------------------------------------------------------------------


@proves("indo_pakistani_war")
def test_indo_pakistani_war_ussr_attacks_pakistan_and_wins():
    # US controls Iran and India: modifier 2; 6 - 2 = 4 wins.
    state = pos(influence={"iran": (2, 0), "india": (3, 0), "pakistan": (2, 1)})
    run_event(state, "indo_pakistani_war", "ussr")
    assert step(state) == "indo_pakistani_war" and who(state) == "ussr"
    assert keys(state) == ["choice:india", "choice:pakistan"]
    play(state, "choice:pakistan")
    assert state.milops[USSR] == 2  # credited before the roll
    assert keys(state) == [f"die:{n}" for n in range(1, 7)]
    play(state, "die:6")
    assert influence(state, "pakistan") == (0, 3)
    assert state.vp == -2
    assert state.milops == [2, 0]
    assert step(state) == "action_round"


@proves("indo_pakistani_war")
def test_indo_pakistani_war_ussr_attacks_pakistan_and_loses():
    state = pos(influence={"iran": (2, 0), "india": (3, 0), "pakistan": (2, 1)})
    run_event(state, "indo_pakistani_war", "ussr", "choice:pakistan", "die:5")  # 5 - 2 = 3
    assert influence(state, "pakistan") == (2, 1)
    assert influence(state, "india") == (3, 0)
    assert state.vp == 0
    assert state.milops == [2, 0]


@proves("indo_pakistani_war")
def test_indo_pakistani_war_us_attacks_india_from_hand():
    # USSR controls Pakistan and Burma (India's two neighbours): modifier 2.
    state = pos(phasing="us", hands={"us": ["indo_pakistani_war", "nato"]},
                influence={"pakistan": (0, 2), "burma": (0, 2), "india": (1, 3)})
    play(state, "card:indo_pakistani_war", "use:event")
    assert who(state) == "us"
    play(state, "choice:india", "die:6")
    assert influence(state, "india") == (4, 0)
    assert state.vp == 2
    assert state.milops == [0, 2]
    assert state.discard == (card("indo_pakistani_war"),)  # not starred
    assert step(state) == "action_round"


@proves("indo_pakistani_war")
def test_indo_pakistani_war_without_enemy_neighbours_and_empty_target():
    state = pos(phasing="us")
    run_event(state, "indo_pakistani_war", "us", "choice:india", "die:4")  # modifier 0: 4 wins
    assert influence(state, "india") == (0, 0)  # VP even with nobody there (FAQ)
    assert state.vp == 2
    state = pos(phasing="us")
    run_event(state, "indo_pakistani_war", "us", "choice:india", "die:3")
    assert state.vp == 0 and state.milops[US] == 2


@proves("containment")
def test_containment_adds_one_op_to_us_cards_but_never_above_four():
    state = at()
    run_event(state, "containment", "us")
    assert O.ops_value(state, US, card("truman_doctrine")) == 2
    assert O.ops_value(state, US, card("nato")) == 4
    assert O.ops_value(state, USSR, card("comecon")) == 3


# -- #26 CIA Created ----------------------------------------------------------------------------


@proves("cia_created")
def test_cia_created_reveals_ussr_hand_to_us_only_then_one_op():
    # Red Scare against the US: the granted 1 Op is a fixed grant, not reduced (and not below 1 anyway).
    state = pos(phasing="us", hands={"us": ["cia_created", "nato"], "ussr": ["fidel", "nasser"]},
                effects=["red_scare:us:turn"])
    play(state, "card:cia_created", "use:event")
    assert step(state) == "event_ops" and who(state) == "us"
    assert keys(state) == ["use:influence", "use:realign", "use:coup"]
    assert history(state, "us", "reveal_hand") == ["hand:fidel,nasser"]
    assert history(state, "ussr", "reveal_hand") == ["hand:hidden"]
    entry = [e for e in GAME.view(state, "us")["history"] if e[2] == "reveal_hand"][0]
    assert entry[1] == "ussr"
    play(state, "use:influence", "country:israel")
    assert influence(state, "israel") == (2, 0)
    assert step(state) == "action_round"  # 1 Op only
    assert state.removed == (card("cia_created"),)


@proves("cia_created")
def test_cia_created_triggered_by_ussr_ops_play():
    state = pos(hands={"ussr": ["cia_created", "fidel"], "us": ["nato"]})
    play(state, "card:cia_created", "use:influence:event_first")
    assert step(state) == "event_ops" and who(state) == "us"
    assert history(state, "us", "reveal_hand") == ["hand:fidel"]  # CIA has left the USSR hand
    play(state, "use:influence", "country:japan")
    assert influence(state, "japan") == (2, 0)
    assert step(state) == "influence" and who(state) == "ussr"  # then the USSR's 1 Op
    play(state, "country:finland")
    assert influence(state, "finland") == (0, 2)
    assert step(state) == "action_round" and who(state) == "us"


@proves("cia_created")
def test_cia_created_fired_by_an_ops_play_is_removed():
    state = pos(hands={"ussr": ["cia_created", "fidel"], "us": ["nato"]})
    play(state, "card:cia_created", "use:influence:event_first", "use:influence", "country:japan",
         "country:finland")
    assert state.removed == (card("cia_created"),) and state.discard == ()  # a starred event took place


@proves("us_japan_mutual_defense_pact")
def test_us_japan_pact_controls_japan_and_bars_ussr_coups_there():
    state = at(influence={"japan": (1, 2)})
    run_event(state, "us_japan_mutual_defense_pact", "us")
    assert influence(state, "japan") == (6, 2)
    assert M.INDEX["japan"] not in O.coup_targets(state, USSR)


# -- #28 Suez Crisis ----------------------------------------------------------------------------


@proves("suez_crisis")
def test_suez_crisis_four_in_total_at_most_two_each():
    state = pos(influence={"france": (2, 0), "uk": (5, 0), "israel": (1, 0)})
    run_event(state, "suez_crisis", "ussr")
    assert step(state) == "event_remove" and who(state) == "ussr"
    assert keys(state) == country_keys("uk", "france", "israel")
    play(state, "country:uk", "country:uk")
    assert keys(state) == country_keys("france", "israel")
    play(state, "country:israel")
    assert keys(state) == country_keys("france")
    play(state, "country:france")
    assert step(state) == "action_round"
    assert influence(state, "uk") == (3, 0)
    assert influence(state, "france") == (1, 0)
    assert influence(state, "israel") == (0, 0)


@proves("suez_crisis")
def test_suez_crisis_less_us_influence_than_four():
    state = pos(influence={"france": (0, 0), "uk": (5, 0), "israel": (0, 0)})
    run_event(state, "suez_crisis", "ussr", "country:uk", "country:uk")
    assert step(state) == "action_round"
    assert influence(state, "uk") == (3, 0)


# -- #29 East European Unrest -------------------------------------------------------------------


EAST = {"east_germany": (0, 3), "poland": (0, 2), "hungary": (0, 1), "finland": (0, 1)}


@proves("east_european_unrest")
def test_east_european_unrest_one_from_three_different_countries():
    state = pos(phasing="us", influence=EAST)
    run_event(state, "east_european_unrest", "us")
    assert step(state) == "event_remove" and who(state) == "us"
    assert keys(state) == country_keys("finland", "east_germany", "poland", "hungary")
    play(state, "country:east_germany")
    assert "country:east_germany" not in keys(state)
    play(state, "country:poland", "country:hungary")
    assert step(state) == "action_round"
    assert [influence(state, c) for c in ("east_germany", "poland", "hungary", "finland")] == [
        (0, 2), (0, 1), (0, 0), (0, 1)]


@proves("east_european_unrest")
def test_east_european_unrest_two_each_in_the_late_war():
    state = pos(phasing="us", turn=8, influence=EAST)
    run_event(state, "east_european_unrest", "us")
    assert step(state) == "event_remove" and who(state) == "us"
    assert keys(state) == country_keys("finland", "east_germany", "poland", "hungary")
    play(state, "country:east_germany")
    assert influence(state, "east_germany") == (0, 1)
    assert keys(state) == country_keys("finland", "poland", "hungary")  # a different country each time
    play(state, "country:hungary", "country:poland")
    assert step(state) == "action_round"
    assert [influence(state, c) for c in ("east_germany", "poland", "hungary", "finland")] == [
        (0, 1), (0, 0), (0, 0), (0, 1)]


# -- #30 Decolonization -------------------------------------------------------------------------


@proves("decolonization")
def test_decolonization_four_different_countries_in_africa_or_southeast_asia():
    state = pos()
    run_event(state, "decolonization", "ussr")
    assert step(state) == "event_place" and who(state) == "ussr"
    assert sorted(keys(state)) == sorted(region_keys("Africa") + region_keys("Southeast Asia"))
    play(state, "country:algeria")
    assert "country:algeria" not in keys(state)
    play(state, "country:zaire", "country:vietnam", "country:thailand")
    assert step(state) == "action_round"
    for name in ("algeria", "zaire", "vietnam", "thailand"):
        assert influence(state, name) == (0, 1)


@proves("red_scare_purge")
def test_red_scare_purge_takes_one_op_from_the_opponent_not_below_one():
    state = at()
    run_event(state, "red_scare_purge", "ussr")
    assert "red_scare:us:turn" in state.effects
    assert O.ops_value(state, US, card("nato")) == 3
    assert O.ops_value(state, US, card("truman_doctrine")) == 1
    assert O.ops_value(state, USSR, card("comecon")) == 3


# -- #32 UN Intervention ------------------------------------------------------------------------


def test_un_intervention_not_playable_without_an_opponent_card():
    state = pos(phasing="us", hands={"us": ["un_intervention", "nato", "indo_pakistani_war"]})
    play(state, "card:un_intervention")
    assert step(state) == "card_use"
    assert "use:event" not in keys(state)
    assert "use:influence" in keys(state)
    assert not event_playable(state, card("un_intervention"), US)


@proves("un_intervention")
def test_un_intervention_cancels_a_starred_card_and_uses_its_ops():
    state = pos(phasing="us", hands={"us": ["un_intervention", "fidel", "nasser", "nato"]})
    play(state, "card:un_intervention")
    assert "use:event" in keys(state)
    play(state, "use:event")
    assert step(state) == "un_intervention" and who(state) == "us"
    assert keys(state) == ["choice:fidel", "choice:nasser"]  # only USSR-event cards
    play(state, "choice:fidel")
    assert card("fidel") not in state.hands[US]
    assert step(state) == "un_intervention_ops"
    assert keys(state) == ["choice:influence", "choice:realign", "choice:coup"]  # no space race
    play(state, "choice:influence")
    assert step(state) == "influence" and who(state) == "us"
    play(state, "country:israel", "country:israel")  # Fidel's 2 Ops
    assert step(state) == "action_round"
    assert influence(state, "israel") == (3, 0)
    assert influence(state, "cuba") == (0, 0)  # Fidel's event cancelled
    assert card("fidel") not in state.events_played
    assert card("un_intervention") in state.events_played
    assert sorted(state.discard) == sorted((card("fidel"), card("un_intervention")))  # starred, yet discarded
    assert state.removed == ()
    assert state.hands[US] == tuple(sorted((card("nasser"), card("nato"))))


@proves("un_intervention")
def test_un_intervention_ops_with_containment():
    state = pos(phasing="us", hands={"us": ["un_intervention", "fidel", "nato"]}, effects=["containment:turn"])
    play(state, "card:un_intervention", "use:event", "choice:fidel", "choice:influence")
    play(state, "country:israel", "country:israel", "country:israel")  # 2 + 1
    assert step(state) == "action_round"
    assert influence(state, "israel") == (4, 0)


@proves("un_intervention")
def test_un_intervention_ops_under_red_scare():
    state = pos(phasing="us", hands={"us": ["un_intervention", "fidel", "nato"]}, effects=["red_scare:us:turn"])
    play(state, "card:un_intervention", "use:event", "choice:fidel", "choice:influence")
    play(state, "country:israel")  # 2 - 1
    assert step(state) == "action_round"
    assert influence(state, "israel") == (2, 0)


@proves("un_intervention")
def test_un_intervention_ussr_coup_with_a_us_card():
    state = pos(hands={"ussr": ["un_intervention", "marshall_plan", "fidel"]})
    play(state, "card:un_intervention", "use:event")
    assert keys(state) == ["choice:marshall_plan"]
    play(state, "choice:marshall_plan", "choice:coup")
    assert step(state) == "coup" and who(state) == "ussr"
    play(state, "country:iran", "die:3")  # 3 + 4 - 2*2 = 3
    assert influence(state, "iran") == (0, 2)
    assert state.milops[USSR] == 4  # an ops coup: military ops credited
    assert state.defcon == 4
    assert card("marshall_plan") in state.discard and card("marshall_plan") not in state.events_played
    assert step(state) == "action_round"


# -- #33 De-Stalinization -----------------------------------------------------------------------


@proves("de_stalinization")
def test_de_stalinization_moves_three_influence():
    state = pos(hands={"ussr": ["de_stalinization", "fidel"]},
                influence={"east_germany": (0, 3), "finland": (0, 1)})
    play(state, "card:de_stalinization", "use:event")
    assert step(state) == "event_remove" and who(state) == "ussr"
    assert keys(state) == country_keys("finland", "east_germany", "syria", "iraq", "north_korea") + ["done"]
    play(state, "country:east_germany", "country:east_germany", "country:finland", "done")
    assert influence(state, "east_germany") == (0, 1)
    assert influence(state, "finland") == (0, 0)
    assert step(state) == "event_place" and who(state) == "ussr"
    options = keys(state)
    assert "done" not in options  # the same number must be placed
    assert "country:uk" not in options and "country:canada" in options  # UK is US-controlled
    assert "country:east_germany" in options
    play(state, "country:france", "country:france")
    assert "country:france" not in keys(state)  # at most 2 per country
    play(state, "country:iran")
    assert step(state) == "action_round"
    assert influence(state, "france") == (0, 2)
    assert influence(state, "iran") == (1, 1)
    assert sum(state.inf[USSR]) == 9  # the set-up total, unchanged
    assert state.removed == (card("de_stalinization"),)


@proves("de_stalinization")
def test_de_stalinization_four_at_most_and_none_at_all():
    state = pos()
    run_event(state, "de_stalinization", "ussr", "country:north_korea", "country:north_korea",
              "country:north_korea", "country:iraq")
    assert step(state) == "event_place"  # the 4th removal ends the removals
    play(state, "country:poland", "country:poland", "country:south_korea", "country:cuba")
    assert step(state) == "action_round"
    assert influence(state, "poland") == (0, 2)
    assert influence(state, "south_korea") == (1, 1)
    assert influence(state, "north_korea") == (0, 0)
    state = pos()
    run_event(state, "de_stalinization", "ussr", "done")
    assert step(state) == "action_round"
    assert sum(state.inf[USSR]) == 9


@proves("nuclear_test_ban")
def test_nuclear_test_ban_gives_defcon_minus_two_then_improves_defcon():
    state = at(defcon=4)
    run_event(state, "nuclear_test_ban", "us")
    assert state.vp == 2 and state.defcon == 5


@proves("formosan_resolution")
def test_formosan_resolution_lasts_until_the_us_plays_the_china_card():
    state = at()
    run_event(state, "formosan_resolution", "us")
    assert "formosan_resolution" in state.effects


def test_us_play_of_the_china_card_cancels_formosan_resolution():
    state = position(phasing="us", effects=["formosan_resolution"])
    state.china = US
    play(state, "card:the_china_card", "use:influence")
    assert "formosan_resolution" not in state.effects and state.china == USSR


def test_formosan_resolution_makes_taiwan_a_battleground_for_asia_scoring_only():
    state = position(setup_influence=False, influence={"taiwan": (3, 0)})
    plain = B.score_region(state, M.ASIA)[0]
    state.add_effect("formosan_resolution")
    assert B.score_region(state, M.ASIA)[0] == plain + 1


@proves("defectors")
def test_defectors_played_by_the_ussr_for_operations_gives_the_us_a_vp():
    state = position(hands={"ussr": ["defectors"], "us": ["containment"]}, rounds=2)
    play(state, "card:defectors", "use:influence:event_first")
    assert state.vp == 1
    state = position(hands={"ussr": ["defectors"], "us": ["containment"]}, rounds=2)
    play(state, "card:defectors", "use:space")
    assert state.vp in (0, -2)  # only the space race's own VP, if the roll succeeded


@proves("defectors")
def test_defectors_headlined_by_the_us_cancels_the_ussr_headline():
    state = position(hands={"ussr": ["asia_scoring"], "us": ["defectors"]})
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:asia_scoring", "card:defectors")
    assert "card:asia_scoring" not in events_in_order(state)
    assert card("asia_scoring") in state.discard


# -- #104 The Cambridge Five --------------------------------------------------------------------


@proves("the_cambridge_five")
def test_cambridge_five_reveals_scoring_cards_to_the_ussr():
    state = pos(hands={"ussr": ["the_cambridge_five", "fidel"], "us": ["asia_scoring", "europe_scoring", "nato"]})
    play(state, "card:the_cambridge_five", "use:event")
    assert history(state, "ussr", "reveal_scoring_cards") == ["hand:asia_scoring,europe_scoring"]
    assert history(state, "us", "reveal_scoring_cards") == ["hand:hidden"]
    assert step(state) == "event_place" and who(state) == "ussr"
    assert keys(state) == sorted(region_keys("Europe") + region_keys("Asia"), key=lambda k: country(k[8:])) + ["done"]
    play(state, "country:japan")
    assert influence(state, "japan") == (1, 1)
    assert step(state) == "action_round"
    assert state.discard == (card("the_cambridge_five"),)


@proves("the_cambridge_five")
def test_cambridge_five_southeast_asia_only_and_may_decline():
    state = pos(turn=5, hands={"us": ["southeast_asia_scoring", "nato"]})
    run_event(state, "the_cambridge_five", "ussr")
    assert keys(state) == region_keys("Southeast Asia") + ["done"]
    play(state, "done")
    assert step(state) == "action_round"
    assert sum(state.inf[USSR]) == 9


@proves("the_cambridge_five")
def test_cambridge_five_without_scoring_cards():
    state = pos(hands={"ussr": ["the_cambridge_five", "fidel"], "us": ["nato", "containment"]})
    play(state, "card:the_cambridge_five", "use:event")
    assert history(state, "ussr", "reveal_scoring_cards") == ["hand:"]
    assert step(state) == "action_round"
    assert card("the_cambridge_five") in state.events_played
    assert sum(state.inf[USSR]) == 9


def test_cambridge_five_not_an_event_in_the_late_war():
    state = pos(turn=8, hands={"ussr": ["the_cambridge_five", "fidel"], "us": ["asia_scoring"]})
    assert not event_playable(state, card("the_cambridge_five"), USSR)
    play(state, "card:the_cambridge_five")
    assert step(state) == "card_use"
    assert "use:event" not in keys(state)
    state = pos(turn=7)
    assert event_playable(state, card("the_cambridge_five"), USSR)


# -- #105 Special Relationship ------------------------------------------------------------------


@proves("special_relationship")
def test_special_relationship_without_nato_one_influence_next_to_the_uk():
    state = pos(phasing="us", hands={"us": ["special_relationship", "nato"]})
    play(state, "card:special_relationship", "use:event")
    assert step(state) == "event_place" and who(state) == "us"
    assert keys(state) == country_keys("canada", "norway", "benelux", "france")
    play(state, "country:norway")
    assert step(state) == "action_round"
    assert influence(state, "norway") == (1, 0)
    assert state.vp == 0
    assert state.discard == (card("special_relationship"),)


@proves("special_relationship")
def test_special_relationship_with_nato_two_influence_in_one_western_country_and_2_vp():
    state = pos(phasing="us", effects=["nato"], vp=3)
    run_event(state, "special_relationship", "us")
    assert step(state) == "event_place" and who(state) == "us"
    assert keys(state) == region_keys("Western Europe")
    play(state, "country:west_germany")
    assert step(state) == "action_round"
    assert influence(state, "west_germany") == (2, 0)
    assert state.vp == 5


@proves("special_relationship")
def test_special_relationship_without_uk_control_does_nothing():
    state = pos(phasing="us", hands={"us": ["special_relationship", "nato"]}, effects=["nato"],
                influence={"uk": (5, 1)})
    assert event_playable(state, card("special_relationship"), US)
    play(state, "card:special_relationship", "use:event")
    assert step(state) == "action_round"
    assert card("special_relationship") in state.events_played
    assert state.vp == 0
    assert sum(state.inf[US]) == 25 - 5 + 5 - 7  # set-up fixed influence (18), UK unchanged
    assert state.discard == (card("special_relationship"),)


# -- #106 NORAD ---------------------------------------------------------------------------------


@proves("norad")
def test_norad_lasting_effect():
    state = pos(phasing="us", hands={"us": ["norad", "nato"]})
    play(state, "card:norad", "use:event")
    assert "norad" in state.effects
    assert state.removed == (card("norad"),)
    assert step(state) == "action_round"


def norad_position(**kw):
    kw.setdefault("influence", {"canada": (4, 0)})
    return pos(hands={"ussr": ["decolonization", "fidel"]}, **kw)


def test_norad_triggers_when_defcon_moves_to_2():
    state = norad_position(defcon=3, effects=["norad"])
    play(state, "card:decolonization", "use:coup", "country:iran", "die:6")  # 6 + 2 - 4 = 4
    assert influence(state, "iran") == (0, 3)
    assert state.defcon == 2
    assert step(state) == "event_place" and who(state) == "us"
    assert keys(state) == country_keys("canada", "uk", "israel", "philippines", "australia", "japan",
                                       "south_korea", "south_africa", "panama")  # Iran no longer
    play(state, "country:japan")
    assert influence(state, "japan") == (2, 0)
    assert step(state) == "action_round" and who(state) == "us"


def test_norad_needs_us_control_of_canada():
    state = norad_position(defcon=3, effects=["norad"], influence={"canada": (2, 0)})
    play(state, "card:decolonization", "use:coup", "country:iran", "die:6")
    assert state.defcon == 2
    assert step(state) == "action_round"


def test_norad_not_without_the_effect():
    state = norad_position(defcon=3)
    play(state, "card:decolonization", "use:coup", "country:iran", "die:6")
    assert state.defcon == 2
    assert step(state) == "action_round"


def test_norad_not_when_defcon_stays():
    # DEFCON 3, coup in a non-battleground: DEFCON unchanged.
    state = norad_position(defcon=3, effects=["norad"], influence={"canada": (4, 0), "honduras": (1, 0)})
    play(state, "card:decolonization", "use:coup", "country:honduras", "die:6")
    assert state.defcon == 3
    assert step(state) == "action_round"
    # DEFCON already 2 at the start of the round (and still 2): no trigger.
    state = norad_position(defcon=2, effects=["norad"], influence={"canada": (4, 0), "honduras": (1, 0)})
    play(state, "card:decolonization", "use:coup", "country:honduras", "die:6")
    assert state.defcon == 2
    assert influence(state, "honduras") == (0, 3)  # 6 + 2 - 4 = 4: 1 removed, 3 added
    assert step(state) == "action_round"


# -- more proofs (the card audit: a test resolves the event and asserts on its effect) ------------


@proves("containment")
def test_containment_event_then_a_one_op_us_card_places_two_influence():
    state = pos(phasing="us", hands={"us": ["containment", "truman_doctrine", "nato"]}, rounds=3)
    play(state, "card:containment", "use:event")
    assert state.removed == (card("containment"),)
    play(state, "card:comecon", "use:space", "die:6")  # the USSR round in between
    play(state, "card:truman_doctrine", "use:influence", "country:japan")
    assert step(state) == "influence"  # 1 + 1 = 2 Ops: a second marker to place
    play(state, "country:japan")
    assert influence(state, "japan") == (3, 0)
    assert step(state) == "action_round"


@proves("red_scare_purge")
def test_red_scare_purge_event_then_a_four_op_us_card_places_three_influence():
    state = pos(hands={"ussr": ["red_scare_purge", "comecon"], "us": ["nato", "truman_doctrine"]}, rounds=2)
    play(state, "card:red_scare_purge", "use:event")
    assert state.discard == (card("red_scare_purge"),)  # not starred
    play(state, "card:nato", "use:influence", "country:japan", "country:japan", "country:japan")
    assert influence(state, "japan") == (4, 0)  # 4 - 1 = 3 Ops
    assert step(state) == "action_round" and who(state) == "us"  # pos()'s extra US round


@proves("nuclear_test_ban")
def test_nuclear_test_ban_vp_are_defcon_minus_two_for_the_player():
    state = at(defcon=3)
    run_event(state, "nuclear_test_ban", "ussr")
    assert state.vp == -(3 - 2) and state.defcon == 5
    state = at(defcon=2, vp=4)
    run_event(state, "nuclear_test_ban", "us")
    assert state.vp == 4 + (2 - 2) and state.defcon == 4


@proves("us_japan_mutual_defense_pact")
def test_us_japan_pact_from_hand_bars_ussr_realignment_in_japan_too():
    state = pos(phasing="us", hands={"us": ["us_japan_mutual_defense_pact", "nato"]}, influence={"japan": (0, 1)})
    play(state, "card:us_japan_mutual_defense_pact", "use:event")
    assert influence(state, "japan") == (5, 1)  # 1 + 4 >= stability 4: control
    assert M.INDEX["japan"] not in O.realign_targets(state, USSR)
    assert M.INDEX["japan"] not in O.coup_targets(state, USSR)
    assert state.removed == (card("us_japan_mutual_defense_pact"),)


@proves("norad")
def test_norad_event_then_defcon_two_in_a_ussr_round_gives_the_us_one_influence():
    state = pos(phasing="us", hands={"us": ["norad", "nato"], "ussr": ["decolonization", "fidel"]}, defcon=3,
                influence={"canada": (4, 0)})
    play(state, "card:norad", "use:event")
    assert step(state) == "action_round" and who(state) == "ussr"
    play(state, "card:decolonization", "use:coup", "country:iran", "die:6")  # battleground: DEFCON 3 -> 2
    assert state.defcon == 2
    assert step(state) == "event_place" and who(state) == "us"
    play(state, "country:uk")
    assert influence(state, "uk") == (6, 0)


@proves("defectors")
def test_defectors_headlined_by_the_ussr_or_played_as_a_us_event_does_nothing():
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, rounds=2)
    state.headline = [card("defectors"), card("truman_doctrine")]
    state.hands[US] = ()
    state.stack.append(("headline_resolve", USSR))
    state.pending = None
    assert step(state) == "action_round"
    assert state.vp == 0 and card("defectors") in state.discard
    state = pos(phasing="us", hands={"us": ["defectors", "nato"]}, vp=2)
    play(state, "card:defectors", "use:event")
    assert state.vp == 2 and state.discard == (card("defectors"),)
    assert step(state) == "action_round" and who(state) == "ussr"
