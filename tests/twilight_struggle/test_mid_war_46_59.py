"""Mid War events #46-59 (events/mid_war_36_59.py): a scenario per card and branch, against
cards.md §4/§5/§6/§8 (#36-45 in test_mid_war_36_45.py)."""

from __future__ import annotations

import pytest
from kits.ts_positions import (
    SIDE, card, country, country_keys, influence, keys, play, position, proves, run_event,
    spare_position, step, who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import event_playable, mid_war_36_59
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import NOBODY

US, USSR = SIDE["us"], SIDE["ussr"]


def pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, **kw):
    """A turn-4 position of a full game; ``rounds=2``: once the phasing side's play is over, the
    other side's action round asks (no end of turn behind the scenario)."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["captured_nazi_scientist"])
    hands.setdefault("us", ["nuclear_test_ban"])
    return position(phasing=phasing, hands=hands, turn=4, rounds=rounds, end_turn=10, **kw)


def spare_pos(**kw):
    """A turn-5 position with several action rounds pending and a spare card on each side (the
    kit's spare_position)."""
    return spare_position(turn=kw.pop("turn", 5), **kw)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


# -- #46 How I Learned to Stop Worrying -------------------------------------------------------------


@proves("how_i_learned_to_stop_worrying")
def test_how_i_learned_sets_the_chosen_defcon_and_gives_five_military_ops():
    state = spare_pos(hands={"ussr": ["how_i_learned_to_stop_worrying"]}, defcon=3)
    state.milops = [2, 1]
    play(state, "card:how_i_learned_to_stop_worrying", "use:event")
    assert step(state) == "how_i_learned_to_stop_worrying" and who(state) == "ussr"
    assert keys(state) == [f"choice:defcon_{n}" for n in range(1, 6)]
    play(state, "choice:defcon_5")
    assert state.defcon == 5 and state.milops == [5, 1]
    assert state.removed == (card("how_i_learned_to_stop_worrying"),)


@proves("how_i_learned_to_stop_worrying")
def test_how_i_learned_choosing_defcon_one_loses_for_the_phasing_player():
    state = spare_pos(hands={"us": ["how_i_learned_to_stop_worrying"]}, phasing="us", defcon=4)
    play(state, "card:how_i_learned_to_stop_worrying", "use:event", "choice:defcon_1")
    assert state.defcon == 1
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.DEFCON_1


# -- #47 Junta -------------------------------------------------------------------------------------

LATIN_AMERICA_KEYS = [f"country:{M.COUNTRIES[i].id}" for i in mid_war_36_59.LATIN_AMERICA]


@proves("junta")
def test_junta_influence_then_free_coup_in_latin_america_only():
    state = pos(hands={"ussr": ["junta", "allende"]}, setup_influence=False, defcon=3,
                influence={"panama": (2, 0), "italy": (2, 0), "iran": (1, 0)})
    play(state, "card:junta", "use:event")
    assert step(state) == "event_place" and keys(state) == LATIN_AMERICA_KEYS
    play(state, "country:nicaragua")
    assert influence(state, "nicaragua") == (0, 2)
    assert step(state) == "junta" and keys(state) == ["choice:coup", "choice:realign", "choice:neither"]
    play(state, "choice:coup")
    assert keys(state) == ["country:panama"]  # not Italy nor Iran
    play(state, "country:panama", "die:4")  # 4 + 2 - 2 x 2 = 2
    assert influence(state, "panama") == (0, 0)
    assert state.milops == [0, 0]  # free coup: no military ops
    assert state.defcon == 2  # a battleground coup still lowers DEFCON
    assert state.discard == (card("junta"),)
    assert step(state) == "action_round"


@proves("junta")
def test_junta_coup_uses_the_players_ops_modifiers():
    # Brezhnev Doctrine: Junta's 2 Ops become 3; 2 + 3 - 4 = 1 removes one US influence.
    state = pos(setup_influence=False, effects=["brezhnev_doctrine:turn"], influence={"panama": (2, 0)})
    run_event(state, "junta", "ussr", "country:mexico", "choice:coup", "country:panama", "die:2")
    assert influence(state, "panama") == (1, 0)
    state = pos(setup_influence=False, influence={"panama": (2, 0)})
    run_event(state, "junta", "ussr", "country:mexico", "choice:coup", "country:panama", "die:2")
    assert influence(state, "panama") == (2, 0)


@proves("junta")
def test_junta_free_realignments_in_latin_america():
    state = pos(setup_influence=False, defcon=2,
                influence={"panama": (2, 0), "mexico": (1, 0), "italy": (2, 0)})
    run_event(state, "junta", "ussr", "country:nicaragua", "choice:realign")
    assert step(state) == "realign"
    assert keys(state) == country_keys("mexico", "panama") + ["done"]
    play(state, "country:panama", "die:6", "die:1")  # USSR 6, US 1 + 1 (more influence)
    assert influence(state, "panama") == (0, 0)
    assert keys(state) == ["country:mexico", "done"]
    play(state, "country:mexico", "die:1", "die:6")  # USSR 1, US 6 + 1: the USSR has none to lose
    assert influence(state, "mexico") == (1, 0)
    assert step(state) == "action_round"  # two rolls spent
    assert state.milops == [0, 0] and state.defcon == 2


@proves("junta")
def test_junta_neither_and_no_targets():
    state = pos(setup_influence=False, influence={"panama": (2, 0)})
    run_event(state, "junta", "us", "country:panama")
    assert keys(state) == ["choice:neither"]  # no USSR influence in Latin America
    play(state, "choice:neither")
    assert influence(state, "panama") == (4, 0)
    assert step(state) == "action_round"
    state = pos(setup_influence=False, influence={"panama": (2, 0)})
    run_event(state, "junta", "ussr", "country:chile", "choice:neither")
    assert influence(state, "chile") == (0, 2) and influence(state, "panama") == (2, 0)
    assert step(state) == "action_round"


# -- #48 Kitchen Debates ---------------------------------------------------------------------------


@proves("kitchen_debates")
def test_kitchen_debates_us_controls_more_battlegrounds():
    state = pos(phasing="us", hands={"us": ["kitchen_debates", "nuclear_test_ban"]}, setup_influence=False,
                influence={"mexico": (2, 0), "panama": (2, 0), "cuba": (0, 3), "canada": (4, 0)})
    play(state, "card:kitchen_debates", "use:event")
    assert state.vp == 2
    assert state.removed == (card("kitchen_debates"),) and state.discard == ()


def test_kitchen_debates_unplayable_on_a_tie_starred_card_discarded_not_removed():
    # 1 battleground each; Taiwan never counts, even under Formosan Resolution.
    board = {"mexico": (2, 0), "taiwan": (3, 0), "cuba": (0, 3)}
    state = pos(phasing="us", hands={"us": ["kitchen_debates", "nuclear_test_ban"]}, setup_influence=False,
                influence=board, effects=["formosan_resolution"])
    assert not event_playable(state, card("kitchen_debates"), US)
    play(state, "card:kitchen_debates")
    assert "use:event" not in keys(state) and "use:influence" in keys(state)
    # Played by the USSR for operations: no event; the starred card is discarded.
    state = pos(hands={"ussr": ["kitchen_debates", "allende"]}, setup_influence=False, influence=board)
    play(state, "card:kitchen_debates", "use:influence:event_first", "country:poland")
    assert state.vp == 0 and card("kitchen_debates") not in state.events_played
    assert state.discard == (card("kitchen_debates"),) and state.removed == ()
    assert step(state) == "action_round"


# -- #49 Missile Envy -----------------------------------------------------------------------------------


@proves("missile_envy")
def test_missile_envy_takes_the_highest_card_an_opponent_event_gives_only_its_ops():
    state = spare_pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "fidel", "truman_doctrine"]})
    play(state, "card:missile_envy", "use:event")
    # Duck and Cover (3 Ops, a US event): the USSR conducts 3 Ops, the event does not happen.
    assert step(state) == "missile_envy_ops" and who(state) == "ussr"
    assert keys(state) == ["choice:influence", "choice:realign", "choice:coup"]
    play(state, "choice:influence", "country:poland", "country:poland", "country:poland")
    assert influence(state, "poland") == (0, 3)
    assert state.defcon == 5 and state.vp == 0 and card("duck_and_cover") not in state.events_played
    assert state.hands[US] == cards("missile_envy", "fidel", "truman_doctrine")
    assert state.discard == (card("duck_and_cover"),) and state.removed == ()
    assert "missile_envy:us" in state.effects
    # The US must play Missile Envy for Operations in its next round (no event).
    assert step(state) == "action_round" and keys(state) == ["card:missile_envy"]
    play(state, "card:missile_envy")
    assert "use:event" not in keys(state)
    assert keys(state) == ["use:influence", "use:realign", "use:coup", "use:space"]
    play(state, "use:space", "die:6")
    assert "missile_envy:us" not in state.effects
    assert state.discard == cards("duck_and_cover", "missile_envy")


@proves("missile_envy")
def test_missile_envy_own_event_happens_for_the_taker_and_a_starred_card_is_removed():
    state = spare_pos(hands={"ussr": ["missile_envy"], "us": ["fidel", "truman_doctrine"]}, influence={"cuba": (2, 0)})
    play(state, "card:missile_envy", "use:event")
    assert influence(state, "cuba") == (0, 3)  # Fidel for the USSR
    assert state.removed == (card("fidel"),) and state.discard == ()
    assert state.hands[US] == cards("missile_envy", "truman_doctrine")
    assert step(state) == "action_round" and who(state) == "us"


def test_missile_envy_opponent_chooses_among_ties():
    state = spare_pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "socialist_governments", "fidel"]})
    play(state, "card:missile_envy", "use:event")
    assert step(state) == "missile_envy" and who(state) == "us"
    assert keys(state) == ["choice:duck_and_cover", "choice:socialist_governments"]
    play(state, "choice:socialist_governments")
    assert step(state) == "event_remove" and who(state) == "ussr"  # its event, for the USSR
    assert state.hands[US] == cards("duck_and_cover", "fidel", "missile_envy")


def test_missile_envy_compares_values_after_the_holders_modifiers():
    # Containment: Duck and Cover 3 → 4 ties with NATO 4, so the US chooses.
    state = spare_pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "nato"]}, effects=["containment:turn"])
    play(state, "card:missile_envy", "use:event")
    assert keys(state) == ["choice:duck_and_cover", "choice:nato"]
    state = spare_pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "nato"]})
    play(state, "card:missile_envy", "use:event")
    assert step(state) == "missile_envy_ops"  # NATO taken without a question


@proves("missile_envy")
def test_missile_envy_against_only_scoring_cards_has_no_effect():
    state = spare_pos(hands={"ussr": ["missile_envy"], "us": ["asia_scoring"]})
    play(state, "card:missile_envy", "use:event")
    assert state.hands[US] == (card("asia_scoring"),) and state.discard == (card("missile_envy"),)
    assert not any(e.startswith("missile_envy") for e in state.effects)
    assert card("missile_envy") in state.events_played


def test_missile_envy_owed_yields_to_a_scoring_card_that_must_be_played():
    hands = {"us": ["missile_envy", "asia_scoring", "duck_and_cover"]}
    state = spare_pos(phasing="us", hands=hands, effects=["missile_envy:us"], rounds=2)  # 1 US round left
    assert keys(state) == ["card:asia_scoring"]
    play(state, "card:asia_scoring", "use:event")
    assert "missile_envy:us" in state.effects  # still owed (next turn's first round)
    state = spare_pos(phasing="us", hands=hands, effects=["missile_envy:us"], rounds=4)  # 2 US rounds left
    assert keys(state) == ["card:missile_envy"]
    assert not event_playable(state, card("missile_envy"), US)  # never its event (e.g. a headline)


def test_missile_envy_owed_into_a_new_turn_cannot_be_headlined():
    state = spare_pos(hands={"us": ["missile_envy", "duck_and_cover"], "ussr": ["comecon"]}, effects=["missile_envy:us"])
    state.stack = [("end_turn",), ("action_round", 1, US), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:comecon")
    assert keys(state) == ["card:duck_and_cover"]


# -- #50 "We Will Bury You" ------------------------------------------------------------------------------


@proves("we_will_bury_you")
def test_we_will_bury_you_three_vp_land_at_the_start_of_the_next_us_round():
    state = spare_pos(hands={"ussr": ["we_will_bury_you"], "us": ["duck_and_cover"]}, defcon=4)
    play(state, "card:we_will_bury_you", "use:event")
    assert state.defcon == 3 and state.removed == (card("we_will_bury_you"),)
    # The US's round starts with the question (the effect is used up by asking it).
    assert step(state) == "we_will_bury_you" and who(state) == "us" and keys(state) == ["choice:accept"]
    assert state.vp == 0 and "we_will_bury_you" not in state.effects
    play(state, "choice:accept")
    assert state.vp == -3 and "we_will_bury_you" not in state.effects
    assert step(state) == "action_round" and keys(state) == ["card:duck_and_cover"]


@proves("un_intervention", "we_will_bury_you")
def test_we_will_bury_you_cancelled_by_un_intervention_played_as_the_event():
    state = spare_pos(hands={"ussr": ["we_will_bury_you", "comecon"], "us": ["un_intervention", "fidel", "duck_and_cover"]})
    play(state, "card:we_will_bury_you", "use:event")
    assert keys(state) == ["choice:un_intervention", "choice:accept"]
    play(state, "choice:un_intervention")
    assert state.vp == 0
    assert keys(state) == ["card:un_intervention"]  # committed to that play
    play(state, "card:un_intervention")
    assert keys(state) == ["use:event"]
    play(state, "use:event", "choice:fidel", "choice:influence", "country:uk", "country:uk")
    assert state.vp == 0 and influence(state, "uk") == (7, 0)
    assert not any(e.startswith("we_will_bury_you") for e in state.effects)
    assert step(state) == "action_round" and who(state) == "ussr"
    play(state, "card:comecon", "use:space", "die:6")
    assert state.vp == 0 and keys(state) == ["card:duck_and_cover"]  # nothing owed any more


@proves("we_will_bury_you")
def test_we_will_bury_you_declined_un_intervention_and_the_twenty_vp_win():
    state = spare_pos(hands={"ussr": ["we_will_bury_you"], "us": ["un_intervention", "fidel"]}, vp=-17)
    play(state, "card:we_will_bury_you", "use:event", "choice:accept")
    assert state.vp == -20 and state.outcome.winner == "ussr" and state.outcome.termination == B.VP_20


def test_we_will_bury_you_without_us_cards_or_under_quagmire_the_vp_land_at_once():
    state = spare_pos(hands={"us": []}, effects=["we_will_bury_you"], phasing="us")
    assert state.vp == 0
    assert step(state) == "action_round" and who(state) == "ussr"  # the US sat out
    assert state.vp == -3
    state = spare_pos(hands={"us": ["un_intervention", "fidel"]}, effects=["we_will_bury_you", "quagmire"], phasing="us")
    assert step(state) == "trap_discard" and state.vp == -3


def test_we_will_bury_you_un_intervention_needs_a_ussr_card_to_pair():
    state = spare_pos(hands={"us": ["un_intervention", "duck_and_cover"]}, effects=["we_will_bury_you"], phasing="us")
    assert keys(state) == ["choice:accept"]


# -- #51 Brezhnev Doctrine -------------------------------------------------------------------------


@proves("brezhnev_doctrine")
def test_brezhnev_doctrine_plus_one_ops_capped_at_four_for_the_ussr_this_turn():
    state = pos(hands={"ussr": ["brezhnev_doctrine", "allende"]})
    play(state, "card:brezhnev_doctrine", "use:event")
    assert "brezhnev_doctrine:turn" in state.effects
    assert state.removed == (card("brezhnev_doctrine"),)
    assert O.ops_value(state, USSR, card("allende")) == 2
    assert O.ops_value(state, USSR, card("opec")) == 4
    assert O.ops_value(state, USSR, card("muslim_revolution")) == 4  # not above 4
    assert O.ops_value(state, US, card("opec")) == 3  # the US is unaffected
    # With Red Scare/Purge on the USSR too: 3 + 1 - 1.
    state.add_effect("red_scare:ussr:turn")
    assert O.ops_value(state, USSR, card("opec")) == 3


# -- #52 Portuguese Empire Crumbles, #54 Allende ---------------------------------------------------


@proves("portuguese_empire_crumbles")
def test_portuguese_empire_crumbles():
    state = pos(hands={"ussr": ["portuguese_empire_crumbles", "allende"]},
                influence={"angola": (1, 0), "se_african_states": (0, 1)})
    play(state, "card:portuguese_empire_crumbles", "use:event")
    assert influence(state, "angola") == (1, 2) and influence(state, "se_african_states") == (0, 3)
    assert state.removed == (card("portuguese_empire_crumbles"),)
    assert step(state) == "action_round"


# -- #53 South African Unrest ----------------------------------------------------------------------


@proves("south_african_unrest")
def test_south_african_unrest_two_in_south_africa():
    state = pos(hands={"ussr": ["south_african_unrest", "allende"]})
    play(state, "card:south_african_unrest", "use:event")
    assert step(state) == "south_african_unrest" and who(state) == "ussr"
    assert keys(state) == ["choice:two_in_south_africa", "choice:one_in_south_africa_two_adjacent"]
    play(state, "choice:two_in_south_africa")
    assert influence(state, "south_africa") == (1, 2)
    assert influence(state, "angola") == (0, 0) and influence(state, "botswana") == (0, 0)
    assert state.discard == (card("south_african_unrest"),) and state.removed == ()


@proves("south_african_unrest")
def test_south_african_unrest_one_there_and_two_adjacent_split_allowed():
    state = pos()
    run_event(state, "south_african_unrest", "ussr", "choice:one_in_south_africa_two_adjacent")
    assert influence(state, "south_africa") == (1, 1)
    assert step(state) == "event_place" and keys(state) == country_keys("angola", "botswana")
    play(state, "country:angola", "country:botswana")
    assert influence(state, "angola") == (0, 1) and influence(state, "botswana") == (0, 1)
    assert step(state) == "action_round"
    state = pos()
    run_event(state, "south_african_unrest", "ussr", "choice:one_in_south_africa_two_adjacent",
              "country:botswana", "country:botswana")
    assert influence(state, "botswana") == (0, 2) and influence(state, "angola") == (0, 0)


@proves("allende")
def test_allende():
    state = pos(hands={"ussr": ["allende", "opec"]}, influence={"chile": (1, 0)})
    play(state, "card:allende", "use:event")
    assert influence(state, "chile") == (1, 2)
    assert state.removed == (card("allende"),)


# -- #55 Willy Brandt ------------------------------------------------------------------------------


@proves("willy_brandt")
def test_willy_brandt_lifts_nato_for_west_germany_only():
    state = pos(hands={"ussr": ["willy_brandt", "allende"]}, effects=["nato"],
                influence={"west_germany": (5, 0), "france": (3, 0)})
    wg, fr = country("west_germany"), country("france")
    assert wg not in O.coup_targets(state, USSR) and fr not in O.coup_targets(state, USSR)
    play(state, "card:willy_brandt", "use:event")
    assert state.vp == -1 and influence(state, "west_germany") == (5, 1)
    assert "willy_brandt" in state.effects and state.removed == (card("willy_brandt"),)
    assert wg in O.coup_targets(state, USSR) and wg in O.realign_targets(state, USSR)
    assert fr not in O.coup_targets(state, USSR)  # France still shielded


def test_willy_brandt_blocked_after_tear_down_this_wall():
    state = pos(hands={"ussr": ["willy_brandt", "allende"]}, events_played=["tear_down_this_wall"])
    assert not event_playable(state, card("willy_brandt"), USSR)
    play(state, "card:willy_brandt")
    assert "use:event" not in keys(state)


# -- #56 Muslim Revolution -------------------------------------------------------------------------


@proves("muslim_revolution")
def test_muslim_revolution_clears_us_influence_from_two_listed_countries():
    state = pos(setup_influence=False,
                influence={"iran": (2, 0), "egypt": (1, 0), "saudi_arabia": (3, 1), "israel": (1, 0)})
    run_event(state, "muslim_revolution", "ussr")
    assert step(state) == "muslim_revolution" and who(state) == "ussr"
    assert keys(state) == country_keys("iran", "egypt", "saudi_arabia")  # listed and holding US influence
    play(state, "country:iran")
    assert keys(state) == country_keys("egypt", "saudi_arabia")
    play(state, "country:saudi_arabia")
    assert influence(state, "iran") == (0, 0) and influence(state, "saudi_arabia") == (0, 1)
    assert influence(state, "egypt") == (1, 0) and influence(state, "israel") == (1, 0)
    assert step(state) == "action_round"


@proves("muslim_revolution")
def test_muslim_revolution_with_one_target_and_blocked_by_awacs():
    state = pos(setup_influence=False, influence={"iraq": (2, 0), "israel": (2, 0)})
    run_event(state, "muslim_revolution", "ussr", "country:iraq")
    assert influence(state, "iraq") == (0, 0) and step(state) == "action_round"
    state = pos(events_played=["awacs_sale_to_saudis"])
    assert not event_playable(state, card("muslim_revolution"), USSR)


# -- #57 ABM Treaty --------------------------------------------------------------------------------


@proves("abm_treaty")
def test_abm_treaty_raises_defcon_then_four_ops_not_reduced_by_red_scare():
    state = pos(phasing="us", hands={"us": ["abm_treaty", "nuclear_test_ban"]}, defcon=3,
                effects=["red_scare:us:turn"], influence={"iraq": (0, 1)})
    play(state, "card:abm_treaty", "use:event")
    assert state.defcon == 4
    assert step(state) == "event_ops" and who(state) == "us"
    assert keys(state) == ["use:influence", "use:realign", "use:coup"]
    play(state, "use:coup")
    assert "country:east_germany" not in keys(state)  # DEFCON 4: no coups in Europe (not free)
    play(state, "country:iraq", "die:3")  # 3 + 4 - 6 = 1
    assert influence(state, "iraq") == (0, 0)
    assert state.milops == [0, 4] and state.defcon == 3  # battleground: DEFCON back down
    assert state.discard == (card("abm_treaty"),)
    assert step(state) == "action_round"


@proves("abm_treaty")
def test_abm_treaty_influence_and_defcon_five_stays():
    state = pos(defcon=5)
    run_event(state, "abm_treaty", "ussr", "use:influence")
    assert state.defcon == 5
    play(state, "country:poland", "country:poland", "country:poland", "country:poland")
    assert influence(state, "poland") == (0, 4) and step(state) == "action_round"


# -- #58 Cultural Revolution, #71 Nixon, #76 Ussuri ---------------------------------------------------


@proves("cultural_revolution")
def test_cultural_revolution_takes_the_china_card_face_up_from_the_us():
    state = spare_pos()
    state.china, state.china_face_up = US, False
    run_event(state, "cultural_revolution", "ussr")
    assert state.china == USSR and state.china_face_up and state.vp == 0
    assert "card:the_china_card" in keys(state)  # playable this turn


@proves("cultural_revolution")
def test_cultural_revolution_with_the_ussr_holding_it_gives_one_vp():
    state = spare_pos()
    run_event(state, "cultural_revolution", "ussr")
    assert state.china == USSR and state.vp == -1


def test_cultural_revolution_not_an_event_before_the_chinese_civil_war_is_won():
    state = spare_pos()
    state.rules = make_rules(None, {"end_turn": "3", "chinese_civil_war": "on"})
    state.china = NOBODY
    assert not event_playable(state, card("cultural_revolution"), USSR)
    state.china = USSR
    assert event_playable(state, card("cultural_revolution"), USSR)


# -- #59 Flower Power ------------------------------------------------------------------------------


@proves("flower_power")
def test_flower_power_event_is_lasting_and_removed():
    state = pos(hands={"ussr": ["flower_power", "allende"]})
    play(state, "card:flower_power", "use:event")
    assert "flower_power" in state.effects and state.removed == (card("flower_power"),)
    assert state.vp == 0


def test_flower_power_us_war_card_as_event():
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"],
                setup_influence=False, influence={"afghanistan": (0, 1)})
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:4")  # 4 - 1 = 3 wins
    assert state.vp == 1 - 2  # war +1 US, Flower Power +2 USSR (counted once)
    assert step(state) == "action_round"


def test_flower_power_us_war_event_in_the_headline():
    state = pos(phasing="us", hands={"us": ["nuclear_test_ban"]}, effects=["flower_power"])
    state.headline = [0, card("indo_pakistani_war")]
    state.stack.append(("headline_resolve", US))
    state.pending = None
    play(state, "choice:pakistan", "die:1")
    assert state.vp == -2 and state.milops == [0, 2]
    assert state.discard == (card("indo_pakistani_war"),)


def test_flower_power_us_plays_ussr_war_card_for_operations():
    state = pos(phasing="us", hands={"us": ["korean_war", "nuclear_test_ban"]}, effects=["flower_power"],
                setup_influence=False)
    play(state, "card:korean_war", "use:influence:event_first", "die:1")  # the USSR's war fails
    assert state.milops == [2, 0]
    play(state, "country:mexico", "country:mexico")
    assert state.vp == -2
    assert step(state) == "action_round"


def test_flower_power_us_plays_neutral_war_card_for_operations():
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"],
                setup_influence=False)
    play(state, "card:brush_war", "use:influence", "country:mexico", "country:mexico", "country:mexico")
    assert state.vp == -2 and state.milops == [0, 0]


def test_flower_power_arab_israeli_war_for_operations_after_camp_david():
    state = pos(phasing="us", hands={"us": ["arab_israeli_war", "nuclear_test_ban"]},
                effects=["flower_power"], events_played=["camp_david_accords"], setup_influence=False)
    play(state, "card:arab_israeli_war", "use:influence:event_first", "country:mexico", "country:mexico")
    assert state.vp == -2 and state.milops == [0, 0]  # no war, but the USSR still scores
    assert state.discard == (card("arab_israeli_war"),)


def test_flower_power_not_for_space_race_nor_ussr_wars_nor_after_evil_empire():
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"])
    play(state, "card:brush_war", "use:space", "die:6")
    assert state.vp == 0 and state.space == [0, 0]
    state = pos(hands={"ussr": ["brush_war", "allende"]}, effects=["flower_power"], setup_influence=False)
    play(state, "card:brush_war", "use:event", "country:mexico", "die:1")
    assert state.vp == 0  # the USSR's own war
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"],
                events_played=["an_evil_empire"], setup_influence=False)
    play(state, "card:brush_war", "use:influence", "country:mexico", "country:mexico", "country:mexico")
    assert state.vp == 0
    assert not event_playable(state, card("flower_power"), USSR)


def test_no_flower_power_no_vp():
    state = pos(phasing="us", hands={"us": ["korean_war", "nuclear_test_ban"]}, setup_influence=False)
    play(state, "card:korean_war", "use:influence:event_first", "die:1", "country:mexico", "country:mexico")
    assert state.vp == 0


@proves("grain_sales_to_soviets")
def test_flower_power_war_card_taken_by_grain_sales_and_played_as_event():
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets", "nuclear_test_ban"], "ussr": ["brush_war"]},
                effects=["flower_power"], setup_influence=False, influence={"afghanistan": (0, 1)})
    play(state, "card:grain_sales_to_soviets", "use:event", "card:brush_war", "choice:play",
         "use:event", "country:afghanistan", "die:1")
    assert state.vp == -2 and state.milops == [0, 3]


@proves("grain_sales_to_soviets")
def test_flower_power_war_card_taken_by_grain_sales_and_played_for_operations():
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets", "nuclear_test_ban"], "ussr": ["brush_war"]},
                effects=["flower_power"], setup_influence=False)
    play(state, "card:grain_sales_to_soviets", "use:event", "card:brush_war", "choice:play",
         "use:influence", "country:mexico", "country:mexico", "country:mexico")
    assert influence(state, "mexico") == (3, 0)
    assert state.vp == -2


# -- more proofs (the card audit: a test resolves the event and asserts on its effect) ------------


@proves("brezhnev_doctrine")
def test_brezhnev_doctrine_event_then_a_three_op_ussr_card_places_four_influence():
    state = spare_pos(hands={"ussr": ["brezhnev_doctrine", "opec"], "us": ["truman_doctrine", "nuclear_test_ban"]})
    play(state, "card:brezhnev_doctrine", "use:event")
    play(state, "card:truman_doctrine", "use:influence", "country:japan")  # the US round
    play(state, "card:opec", "use:influence", *["country:syria"] * 4)  # 3 + 1 Ops
    assert influence(state, "syria") == (0, 5)
    assert step(state) == "action_round" and who(state) == "us"


@proves("flower_power")
def test_flower_power_event_then_a_us_war_card_event_gives_the_ussr_two_vp():
    state = spare_pos(hands={"ussr": ["flower_power", "allende"], "us": ["brush_war", "nuclear_test_ban"]},
                      setup_influence=False, influence={"afghanistan": (0, 1)})
    play(state, "card:flower_power", "use:event")
    assert state.removed == (card("flower_power"),)
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:6")  # 6 - 1 (USSR space) wins
    assert influence(state, "afghanistan") == (1, 0)
    assert state.vp == 1 - 2  # the war's 1 VP for the US, 2 VP for the USSR


@proves("missile_envy")
def test_missile_envy_against_an_empty_hand_has_no_effect():
    state = spare_pos(hands={"ussr": ["missile_envy", "allende"], "us": []})
    state.china = US
    play(state, "card:missile_envy", "use:event")
    assert state.hands[US] == () and state.china == US  # The China Card is never taken
    assert state.discard == (card("missile_envy"),)
    assert not any(e.startswith("missile_envy") for e in state.effects)


@proves("flower_power", "brush_war")
def test_flower_power_and_the_us_war_vp_are_applied_together_before_the_twenty_vp_check():
    """map.md §12: all VP changes of a single event (both sides) are applied before the 20-VP
    check: a US Brush War won under Flower Power at US +19 gives +1 then -2 (net 18), no win."""
    state = spare_pos(hands={"ussr": ["flower_power", "allende"], "us": ["brush_war", "nuclear_test_ban"]},
                      setup_influence=False, influence={"afghanistan": (0, 1)}, vp=19)
    play(state, "card:flower_power", "use:event")
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:6")  # 6 - 1 (USSR space) wins
    assert state.vp == 19 + 1 - 2
    assert state.outcome is None


@proves("brush_war")
def test_an_event_that_ends_at_twenty_vp_wins_once_it_is_carried_out():
    """The same war without Flower Power: +1 at US +19 reaches 20 and the US wins (map.md §12),
    the check made when the event is over."""
    state = spare_pos(hands={"ussr": ["allende", "nasser"], "us": ["brush_war", "nuclear_test_ban"]},
                      setup_influence=False, influence={"afghanistan": (0, 1)}, vp=19, phasing="us")
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:6")
    assert state.vp == 20
    assert state.outcome is not None and state.outcome.termination == "vp_20"
    assert state.outcome.winner == "us"
