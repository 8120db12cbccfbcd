"""Mid War events #60-72 (events/mid_war_60_108.py): a scenario per card and branch, against
cards.md §4, §8 and §11 (#73-108 in test_mid_war_73_108.py)."""

from __future__ import annotations

import pytest
from kits.ts_positions import (
    GAME, SIDE, card, country, history, influence, keys, play, position, proves, region_keys, run_event,
    spare_position, step, who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import hooks as H
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import EVENTS, event_playable, mid_war_60_108
from standoff.server.games.twilight_struggle.events.primitives import CHOICES
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import NOBODY

US, USSR = SIDE["us"], SIDE["ussr"]
MID_C = (62, 63, 64, 65, 66, 68, 69, 70, 72, 73, 74, 75, 78, 107, 108)


def pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, turn: int = 4, **kw):
    """A turn-4 position; after the phasing side's play the other side's round asks (``rounds``
    pending rounds in all), so no end of turn runs behind the scenario."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon", "fidel"])
    hands.setdefault("us", ["truman_doctrine", "nato"])
    return position(phasing=phasing, hands=hands, turn=turn, rounds=rounds, **kw)


def full_game_pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, **kw):
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


# -- #60 U2 Incident -------------------------------------------------------------------------------


@proves("un_intervention", "u2_incident")
def test_u2_incident_then_un_intervention_later_this_turn():
    state = full_game_pos(hands={"ussr": ["u2_incident", "opec"], "us": ["un_intervention", "allende"]}, rounds=3)
    play(state, "card:u2_incident", "use:event")
    assert state.vp == -1 and "u2_incident:turn" in state.effects
    assert state.removed == (card("u2_incident"),)
    play(state, "card:un_intervention", "use:event", "choice:allende", "choice:influence", "country:uk")
    assert state.vp == -2  # one more USSR VP
    assert "u2_incident:turn" not in state.effects  # counted once
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("un_intervention")
def test_un_intervention_without_u2_incident_gives_nothing():
    state = full_game_pos(phasing="us", hands={"us": ["un_intervention", "allende"]})
    play(state, "card:un_intervention", "use:event", "choice:allende", "choice:influence", "country:uk")
    assert state.vp == 0


@proves("u2_incident")
def test_u2_incident_watch_ends_with_the_turn():
    state = full_game_pos()
    run_event(state, "u2_incident", "ussr")
    state.stack = [("end_turn",)]
    state.milops = [5, 5]  # no military-ops VP
    state.pending = None
    assert GAME.decision(state).step == "deal"  # turn 5 begins
    assert "u2_incident:turn" not in state.effects and state.vp == -1


def test_events_steps_hooks_and_choices_are_wired():
    for n in MID_C:
        assert EVENTS[n].fn.__module__ == mid_war_60_108.__name__
    for s in mid_war_60_108.STEPS:
        assert G.STEPS[s.name] is s
    assert mid_war_60_108._death_squads in H.COUP_MODIFIERS
    assert mid_war_60_108._shuttle_scoring in H.SCORING_HOOKS
    assert CHOICES["shuttle_diplomacy"].__module__ == mid_war_60_108.__name__
    for n in MID_C:
        assert EVENTS[n].fn.__doc__


# -- #61 OPEC --------------------------------------------------------------------------------------


@proves("opec")
def test_opec_one_vp_per_controlled_listed_country():
    state = full_game_pos(hands={"ussr": ["opec", "allende"]}, setup_influence=False,
                          influence={"egypt": (0, 2), "iraq": (1, 4), "venezuela": (0, 2), "libya": (0, 1),
                                     "israel": (0, 4), "gulf_states": (2, 3)})
    play(state, "card:opec", "use:event")
    assert state.vp == -3  # Egypt, Iraq, Venezuela (Libya uncontrolled, Israel not listed)
    assert state.discard == (card("opec"),)


def test_opec_blocked_after_north_sea_oil():
    state = full_game_pos(hands={"ussr": ["opec", "allende"]}, events_played=["north_sea_oil"])
    assert not event_playable(state, card("opec"), USSR)
    play(state, "card:opec")
    assert "use:event" not in keys(state)


# -- #62 "Lone Gunman" --------------------------------------------------------------------------


@proves("lone_gunman")
def test_lone_gunman_reveals_the_us_hand_to_the_ussr_only_then_one_op():
    state = pos(hands={"ussr": ["lone_gunman", "fidel"], "us": ["nato", "camp_david_accords"]},
                effects=["red_scare:ussr:turn"])
    play(state, "card:lone_gunman", "use:event")
    assert history(state, "ussr", "reveal_hand") == ["hand:nato,camp_david_accords"]
    assert history(state, "us", "reveal_hand") == ["hand:hidden"]
    entry = [e for e in GAME.view(state, "ussr")["history"] if e[2] == "reveal_hand"][0]
    assert entry[1] == "us"
    assert step(state) == "event_ops" and who(state) == "ussr"
    play(state, "use:influence", "country:syria")  # 1 Op, not reduced by Red Scare (a fixed grant)
    assert influence(state, "syria") == (0, 2)
    assert step(state) == "action_round" and who(state) == "us"
    assert state.removed == (card("lone_gunman"),)


@proves("lone_gunman")
def test_lone_gunman_fired_by_a_us_ops_play():
    state = pos(phasing="us", hands={"us": ["lone_gunman", "nato"], "ussr": ["fidel"]})
    play(state, "card:lone_gunman", "use:influence:event_first")
    assert history(state, "ussr", "reveal_hand") == ["hand:nato"]  # the card has left the hand
    assert step(state) == "event_ops" and who(state) == "ussr"
    play(state, "use:influence", "country:syria")
    assert step(state) == "influence" and who(state) == "us"
    play(state, "country:israel")
    assert influence(state, "israel") == (2, 0) and influence(state, "syria") == (0, 2)
    assert state.removed == (card("lone_gunman"),)
    assert step(state) == "action_round" and who(state) == "ussr"


# -- #63 Colonial Rear Guards -------------------------------------------------------------------


@proves("colonial_rear_guards")
def test_colonial_rear_guards_four_different_countries_in_africa_or_southeast_asia():
    state = pos(phasing="us", hands={"us": ["colonial_rear_guards", "nato"]})
    play(state, "card:colonial_rear_guards", "use:event")
    assert step(state) == "event_place" and who(state) == "us"
    assert keys(state) == region_keys("Africa", "Southeast Asia")
    play(state, "country:south_africa")
    assert "country:south_africa" not in keys(state)
    play(state, "country:angola", "country:thailand", "country:philippines")
    assert step(state) == "action_round"
    assert influence(state, "south_africa") == (2, 0)
    assert influence(state, "angola") == (1, 0)
    assert influence(state, "thailand") == (1, 0)
    assert influence(state, "philippines") == (2, 0)
    assert sum(state.inf[US]) == 18 + 4  # the fixed set-up influence, +4
    assert state.discard == (card("colonial_rear_guards"),)  # not starred


# -- #64 Panama Canal Returned ------------------------------------------------------------------


@proves("panama_canal_returned")
def test_panama_canal_returned():
    state = pos(phasing="us", hands={"us": ["panama_canal_returned", "nato"]}, influence={"venezuela": (0, 2)})
    play(state, "card:panama_canal_returned", "use:event")
    assert step(state) == "action_round" and who(state) == "ussr"
    assert influence(state, "panama") == (2, 0)
    assert influence(state, "costa_rica") == (1, 0)
    assert influence(state, "venezuela") == (1, 2)
    assert state.removed == (card("panama_canal_returned"),)


# -- #65 Camp David Accords ---------------------------------------------------------------------


@proves("camp_david_accords")
def test_camp_david_accords_vp_influence_and_arab_israeli_war_blocked():
    state = pos(phasing="us", hands={"us": ["camp_david_accords", "nato"], "ussr": ["arab_israeli_war", "fidel"]},
                vp=-2, influence={"egypt": (0, 2)})
    assert event_playable(state, card("arab_israeli_war"), USSR)
    play(state, "card:camp_david_accords", "use:event")
    assert state.vp == -1
    assert influence(state, "israel") == (2, 0)
    assert influence(state, "jordan") == (1, 0)
    assert influence(state, "egypt") == (1, 2)
    assert state.removed == (card("camp_david_accords"),)
    assert not event_playable(state, card("arab_israeli_war"), USSR)
    assert step(state) == "action_round" and who(state) == "ussr"
    play(state, "card:arab_israeli_war")
    options = keys(state)
    assert "use:event" not in options and "use:influence" in options  # still playable for Ops
    play(state, "use:influence", "country:syria", "country:syria")
    assert influence(state, "israel") == (2, 0)
    assert state.discard == (card("arab_israeli_war"),)


# -- #66 Puppet Governments ---------------------------------------------------------------------


@proves("puppet_governments")
def test_puppet_governments_only_countries_without_any_influence():
    state = pos(phasing="us", hands={"us": ["puppet_governments", "nato"]},
                influence={"burma": (0, 1), "nigeria": (1, 0), "haiti": (1, 1)})
    play(state, "card:puppet_governments", "use:event")
    assert step(state) == "event_place" and who(state) == "us"
    empty = [i for i in range(len(M.COUNTRIES)) if state.inf[US][i] == 0 and state.inf[USSR][i] == 0]
    options = keys(state)
    assert options == [f"country:{M.COUNTRIES[i].id}" for i in empty] + ["done"]  # "up to 3"
    for taken in ("burma", "nigeria", "haiti", "uk", "east_germany", "iran", "syria"):
        assert f"country:{taken}" not in options
    assert "country:laos_cambodia" in options and "country:chile" in options
    play(state, "country:laos_cambodia")
    assert "country:laos_cambodia" not in keys(state)
    play(state, "country:chile", "country:zaire")
    assert step(state) == "action_round"
    for name in ("laos_cambodia", "chile", "zaire"):
        assert influence(state, name) == (1, 0)
    assert sum(state.inf[US]) == 18 + 2 + 3  # fixed set-up 18, Nigeria and Haiti's 1 each, +3
    assert state.removed == (card("puppet_governments"),)


@proves("puppet_governments")
def test_puppet_governments_may_stop_early():
    state = pos(phasing="us")
    run_event(state, "puppet_governments", "us", "country:chile", "done")
    assert step(state) == "action_round"
    assert influence(state, "chile") == (1, 0)
    assert sum(state.inf[US]) == 18 + 1


# -- #67 Grain Sales to Soviets -----------------------------------------------------------------------


@proves("grain_sales_to_soviets")
def test_grain_sales_the_us_plays_the_drawn_card_as_its_own():
    state = spare_pos(phasing="us", hands={"us": ["grain_sales_to_soviets"], "ussr": ["duck_and_cover", "comecon"]})
    play(state, "card:grain_sales_to_soviets", "use:event")
    decision = GAME.decision(state)
    assert decision.role == "chance" and decision.step == "grain_sales"
    assert keys(state) == ["card:duck_and_cover", "card:comecon"]
    play(state, "card:duck_and_cover")
    assert step(state) == "grain_sales_to_soviets" and who(state) == "us"
    assert keys(state) == ["choice:play", "choice:return"]
    play(state, "choice:play")
    assert step(state) == "card_use" and who(state) == "us" and "use:event" in keys(state)
    play(state, "use:event")
    assert state.defcon == 4 and state.vp == 1  # Duck and Cover for the US
    assert state.hands[USSR] == (card("comecon"),)
    assert state.discard == (card("duck_and_cover"), card("grain_sales_to_soviets"))
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("grain_sales_to_soviets")
def test_grain_sales_returned_card_then_the_us_uses_two_ops_with_its_modifiers():
    state = spare_pos(phasing="us", hands={"us": ["grain_sales_to_soviets"], "ussr": ["comecon"]})
    play(state, "card:grain_sales_to_soviets", "use:event", "card:comecon", "choice:return")
    assert state.hands[USSR] == (card("comecon"),)
    assert step(state) == "event_ops" and keys(state) == ["use:influence", "use:realign", "use:coup"]
    play(state, "use:influence", "country:uk", "country:uk")
    assert influence(state, "uk") == (7, 0)
    assert step(state) == "action_round" and who(state) == "ussr"
    # Containment: Grain Sales' own Ops are 3; an empty USSR hand goes straight to them.
    state = spare_pos(phasing="us", hands={"us": ["grain_sales_to_soviets"], "ussr": []}, effects=["containment:turn"])
    play(state, "card:grain_sales_to_soviets", "use:event")
    assert step(state) == "event_ops"
    play(state, "use:influence", "country:uk", "country:uk", "country:uk")
    assert influence(state, "uk") == (8, 0) and step(state) != "influence"


@proves("how_i_learned_to_stop_worrying", "grain_sales_to_soviets")
def test_grain_sales_triggered_by_the_ussr_how_i_learned_to_defcon_one_makes_the_ussr_lose():
    state = spare_pos(hands={"ussr": ["grain_sales_to_soviets", "how_i_learned_to_stop_worrying"]}, defcon=3)
    play(state, "card:grain_sales_to_soviets", "use:influence:event_first",
         "card:how_i_learned_to_stop_worrying", "choice:play", "use:event")
    assert step(state) == "how_i_learned_to_stop_worrying" and who(state) == "us"
    play(state, "choice:defcon_1")
    assert state.outcome.winner == "us" and state.outcome.termination == B.DEFCON_1  # the USSR was phasing


# -- #68 John Paul II Elected Pope --------------------------------------------------------------


@proves("john_paul_ii_elected_pope")
def test_john_paul_ii_poland_and_solidarity_enabled():
    state = pos(phasing="us", hands={"us": ["john_paul_ii_elected_pope", "nato"]}, influence={"poland": (0, 3)})
    assert CD.CARD_BY_NUMBER[card("solidarity")].prerequisite == (card("john_paul_ii_elected_pope"),)
    play(state, "card:john_paul_ii_elected_pope", "use:event")
    assert influence(state, "poland") == (1, 1)
    assert card("john_paul_ii_elected_pope") in state.events_played  # Solidarity's prerequisite
    assert state.removed == (card("john_paul_ii_elected_pope"),)
    state = pos(phasing="us", influence={"poland": (0, 1)})
    run_event(state, "john_paul_ii_elected_pope", "us")
    assert influence(state, "poland") == (1, 0)  # removes what there is


# -- #69 Latin American Death Squads ------------------------------------------------------------


@proves("latin_american_death_squads")
def test_death_squads_plus_one_for_the_player_minus_one_for_the_opponent():
    state = pos(rounds=4, hands={"ussr": ["latin_american_death_squads", "decolonization", "fidel"],
                                 "us": ["nato", "containment"]},
                influence={"venezuela": (0, 2), "panama": (1, 0)})
    play(state, "card:latin_american_death_squads", "use:event")
    assert "death_squads:ussr:turn" in state.effects
    assert state.discard == (card("latin_american_death_squads"),)  # not starred
    # US coup in Venezuela with NATO (4 Ops): 2 + 4 - 1 - 2*2 = 1
    play(state, "card:nato", "use:coup", "country:venezuela", "die:2")
    assert influence(state, "venezuela") == (0, 1)
    assert state.milops[US] == 4  # military ops unchanged
    # USSR coup in Panama with Decolonization (2 Ops): 2 + 2 + 1 - 2*2 = 1
    play(state, "card:decolonization", "use:coup", "country:panama", "die:2")
    assert influence(state, "panama") == (0, 0)
    assert state.milops[USSR] == 2
    assert state.defcon == 3  # two battleground coups
    assert step(state) == "action_round" and who(state) == "us"


@pytest.mark.parametrize(
    ("effects", "side", "target", "expected"),
    [
        (["death_squads:ussr:turn"], USSR, "panama", 1),
        (["death_squads:ussr:turn"], US, "venezuela", -1),
        (["death_squads:us:turn"], US, "chile", 1),
        (["death_squads:us:turn"], USSR, "guatemala", -1),
        (["death_squads:ussr:turn"], USSR, "angola", 0),  # Africa: not Central/South America
        (["death_squads:ussr:turn"], US, "iran", 0),
        (["death_squads:ussr:turn", "death_squads:us:turn"], USSR, "cuba", 0),  # both: they cancel
        ([], USSR, "panama", 0),
    ],
)
def test_death_squads_modifier_only_in_central_and_south_america(effects, side, target, expected):
    state = pos(effects=effects)
    assert sum(m(state, side, country(target)) for m in H.COUP_MODIFIERS) == expected


def test_death_squads_apply_to_free_coups_and_stack_with_salt():
    state = pos(effects=["death_squads:us:turn", "salt:turn"], influence={"chile": (0, 4)})
    O.resolve_coup(state, US, country("chile"), 3, 4, free=True)  # 4 + 3 + 1 - 1 - 2*3 = 1
    assert influence(state, "chile") == (0, 3)
    assert state.milops[US] == 0


def test_death_squads_end_with_the_turn():
    state = pos(rounds=1, effects=["death_squads:ussr:turn"], hands={"ussr": ["fidel"], "us": []},
                end_turn=10, defcon=4)
    state.milops = [4, 4]
    play(state, "card:fidel", "use:influence", "country:syria", "country:syria")
    GAME.decision(state)
    assert "death_squads:ussr:turn" not in state.effects


# -- #70 OAS Founded ----------------------------------------------------------------------------


@proves("oas_founded")
def test_oas_founded_two_in_central_or_south_america_split_allowed():
    state = pos(phasing="us", hands={"us": ["oas_founded", "nato"]})
    play(state, "card:oas_founded", "use:event")
    assert step(state) == "event_place" and who(state) == "us"
    assert keys(state) == region_keys("Central America", "South America")
    play(state, "country:mexico", "country:brazil")
    assert step(state) == "action_round"
    assert influence(state, "mexico") == (1, 0) and influence(state, "brazil") == (1, 0)
    assert state.removed == (card("oas_founded"),)
    state = pos(phasing="us")
    run_event(state, "oas_founded", "us", "country:panama", "country:panama")
    assert influence(state, "panama") == (3, 0)
    assert step(state) == "action_round"


@proves("nixon_plays_the_china_card")
def test_nixon_takes_the_china_card_face_down_from_the_ussr():
    state = spare_pos(phasing="us")
    run_event(state, "nixon_plays_the_china_card", "us")
    assert state.china == US and not state.china_face_up and state.vp == 0
    assert "card:the_china_card" not in keys(state)


@proves("nixon_plays_the_china_card")
def test_nixon_with_the_us_holding_it_gives_two_vp():
    state = spare_pos(phasing="us")
    state.china, state.china_face_up = US, False
    run_event(state, "nixon_plays_the_china_card", "us")
    assert state.china == US and not state.china_face_up and state.vp == 2
    state = spare_pos(phasing="us")  # Chinese Civil War, unclaimed: the US counts as holding it
    state.rules = make_rules(None, {"end_turn": "3", "chinese_civil_war": "on"})
    state.china = NOBODY
    run_event(state, "nixon_plays_the_china_card", "us")
    assert state.china == NOBODY and state.vp == 2


# -- #72 Sadat Expels Soviets -------------------------------------------------------------------


@proves("sadat_expels_soviets")
def test_sadat_expels_soviets():
    state = pos(phasing="us", hands={"us": ["sadat_expels_soviets", "nato"]}, influence={"egypt": (1, 4)})
    play(state, "card:sadat_expels_soviets", "use:event")
    assert influence(state, "egypt") == (2, 0)
    assert state.removed == (card("sadat_expels_soviets"),)
    assert step(state) == "action_round"


# -- more proofs (the card audit: a test resolves the event and asserts on its effect) ------------


@proves("grain_sales_to_soviets", "central_america_scoring")
def test_grain_sales_a_stolen_scoring_card_played_by_the_us_scores():
    state = spare_pos(phasing="us", hands={"us": ["grain_sales_to_soviets", "nato"],
                                           "ussr": ["central_america_scoring"]},
                      setup_influence=False, influence={"panama": (2, 0), "cuba": (0, 3)})
    play(state, "card:grain_sales_to_soviets", "use:event", "card:central_america_scoring", "choice:play")
    assert keys(state) == ["use:event"]  # a scoring card: its event only
    play(state, "use:event")
    # US: Presence 1 + 1 bg (Panama) = 2; USSR: Presence 1 + 1 bg + 1 border (Cuba) = 3
    assert state.vp == 2 - 3
    assert state.hands[USSR] == ()
    assert state.discard == (card("central_america_scoring"), card("grain_sales_to_soviets"))
