"""Mid War events, part C (events/mid_c.py: #62-66, 68-70, 72-75, 78, 107, 108): a scenario per
card and branch, against cards.md §4, §8 and §11."""

from __future__ import annotations

import pytest
from tsposition import GAME, SIDE, card, country, influence, keys, play, position, run_event

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import hooks as H
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle import steps as S
from standoff.server.games.twilight_struggle.events import EVENTS, event_playable, mid_c
from standoff.server.games.twilight_struggle.events.primitives import CHOICES

US, USSR = SIDE["us"], SIDE["ussr"]
MID_C = (62, 63, 64, 65, 66, 68, 69, 70, 72, 73, 74, 75, 78, 107, 108)


def pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, turn: int = 4, **kw):
    """A turn-4 position; after the phasing side's play the other side's round asks (``rounds``
    pending rounds in all), so no end of turn runs behind the scenario."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon", "fidel"])
    hands.setdefault("us", ["truman_doctrine", "nato"])
    return position(phasing=phasing, hands=hands, turn=turn, rounds=rounds, **kw)


def step(state) -> str | None:
    decision = GAME.decision(state)
    return None if decision is None else decision.step


def who(state) -> str:
    return GAME.decision(state).role


def country_keys(*names: str) -> list[str]:
    return [f"country:{n}" for n in sorted(names, key=country)]


def region_keys(*names: str) -> list[str]:
    indices = set()
    for name in names:
        indices.update(M.REGION_COUNTRIES.get(name) or M.SUBREGION_COUNTRIES[name])
    return [f"country:{M.COUNTRIES[i].id}" for i in sorted(indices)]


def history(state, role: str, step_name: str) -> list[str]:
    return [key for _, _, s, key in GAME.view(state, role)["history"] if s == step_name]


def test_events_steps_hooks_and_choices_are_wired():
    for n in MID_C:
        assert EVENTS[n].fn.__module__ == mid_c.__name__
    for s in mid_c.STEPS:
        assert G.STEPS[s.name] is s
    assert mid_c._death_squads in H.COUP_MODIFIERS
    assert mid_c._shuttle_scoring in H.SCORING_HOOKS
    assert CHOICES["shuttle_diplomacy"].__module__ == mid_c.__name__
    for n in MID_C:
        assert EVENTS[n].fn.__doc__


# -- #62 "Lone Gunman" --------------------------------------------------------------------------


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


def test_panama_canal_returned():
    state = pos(phasing="us", hands={"us": ["panama_canal_returned", "nato"]}, influence={"venezuela": (0, 2)})
    play(state, "card:panama_canal_returned", "use:event")
    assert step(state) == "action_round" and who(state) == "ussr"
    assert influence(state, "panama") == (2, 0)
    assert influence(state, "costa_rica") == (1, 0)
    assert influence(state, "venezuela") == (1, 2)
    assert state.removed == (card("panama_canal_returned"),)


# -- #65 Camp David Accords ---------------------------------------------------------------------


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


def test_puppet_governments_may_stop_early():
    state = pos(phasing="us")
    run_event(state, "puppet_governments", "us", "country:chile", "done")
    assert step(state) == "action_round"
    assert influence(state, "chile") == (1, 0)
    assert sum(state.inf[US]) == 18 + 1


# -- #68 John Paul II Elected Pope --------------------------------------------------------------


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


# -- #72 Sadat Expels Soviets -------------------------------------------------------------------


def test_sadat_expels_soviets():
    state = pos(phasing="us", hands={"us": ["sadat_expels_soviets", "nato"]}, influence={"egypt": (1, 4)})
    play(state, "card:sadat_expels_soviets", "use:event")
    assert influence(state, "egypt") == (2, 0)
    assert state.removed == (card("sadat_expels_soviets"),)
    assert step(state) == "action_round"


# -- #73 Shuttle Diplomacy ----------------------------------------------------------------------


ME = {"iraq": (0, 3), "libya": (0, 2), "syria": (0, 2), "israel": (4, 0), "jordan": (2, 0)}
ASIA = {"north_korea": (0, 3), "thailand": (0, 2), "afghanistan": (0, 2), "japan": (4, 0), "australia": (4, 0)}


def shuttle_position(influence, scoring: str):
    state = pos(phasing="us", rounds=3, setup_influence=False, influence=influence,
                hands={"us": ["shuttle_diplomacy", "nato", "containment"], "ussr": [scoring, "fidel"]})
    play(state, "card:shuttle_diplomacy", "use:event")
    return state


def test_shuttle_diplomacy_stays_out_until_used():
    state = shuttle_position(ME, "middle_east_scoring")
    assert "shuttle_diplomacy" in state.effects
    n = card("shuttle_diplomacy")
    assert n not in state.discard and n not in state.removed and n not in state.deck
    assert all(n not in hand for hand in state.hands)
    assert step(state) == "action_round" and who(state) == "ussr"


def test_shuttle_diplomacy_at_middle_east_scoring():
    state = shuttle_position(ME, "middle_east_scoring")
    assert B.score_region(state, M.MIDDLE_EAST)[:2] == (4, 7)  # without it: net -3
    play(state, "card:middle_east_scoring", "use:event")
    assert step(state) == "shuttle_diplomacy" and who(state) == "us"
    assert keys(state) == ["choice:iraq", "choice:libya"]  # USSR-controlled battlegrounds
    play(state, "choice:iraq")
    # Iraq ignored: USSR 2 countries, 1 battleground = presence 3 + 1; US 3 + 1 (Israel)
    assert state.vp == 0
    assert "shuttle_diplomacy" not in state.effects
    assert not any(e.startswith("scoring_ignore:") for e in state.effects)
    assert sorted(state.discard) == sorted((card("shuttle_diplomacy"), card("middle_east_scoring")))
    assert step(state) == "action_round" and who(state) == "us"


def test_shuttle_diplomacy_at_asia_scoring_southeast_asian_battleground():
    state = shuttle_position(ASIA, "asia_scoring")
    assert B.score_region(state, M.ASIA)[:2] == (4, 9)  # without it: net -5
    play(state, "card:asia_scoring", "use:event")
    assert keys(state) == ["choice:thailand", "choice:north_korea"]
    play(state, "choice:thailand")
    assert state.vp == 0  # USSR 2 countries, 1 battleground: presence 3 + 1; US 3 + 1
    assert "shuttle_diplomacy" not in state.effects
    assert card("shuttle_diplomacy") in state.discard


def test_shuttle_diplomacy_only_once_then_scoring_is_normal():
    state = shuttle_position({**ME, **ASIA}, "middle_east_scoring")
    play(state, "card:middle_east_scoring", "use:event", "choice:libya")
    assert state.vp == 0
    run_event(state, "asia_scoring", "ussr")  # used up: nothing asked, nothing ignored
    assert state.vp == 4 - 9
    assert step(state) == "action_round" and who(state) == "us"
    assert state.discard.count(card("shuttle_diplomacy")) == 1


def test_shuttle_diplomacy_headlined_against_an_asia_scoring_headline():
    state = pos(phasing="us", setup_influence=False, influence=ASIA)
    state.headline = [card("asia_scoring"), card("shuttle_diplomacy")]
    # Shuttle Diplomacy (3 Ops) first, the scoring card last (steps.HeadlineReveal's order)
    state.stack.append(("headline_resolve", USSR))
    state.stack.append(("headline_resolve", US))
    GAME.decision(state)
    assert step(state) == "shuttle_diplomacy" and who(state) == "us"
    assert card("shuttle_diplomacy") in state.events_played and state.vp == 0
    play(state, "choice:north_korea")
    assert state.vp == 0
    assert state.discard == (card("shuttle_diplomacy"), card("asia_scoring"))
    assert step(state) == "action_round"


def test_shuttle_diplomacy_used_up_even_without_a_ussr_battleground():
    state = shuttle_position({"israel": (4, 0), "syria": (0, 2)}, "middle_east_scoring")
    play(state, "card:middle_east_scoring", "use:event")
    assert step(state) == "action_round" and who(state) == "us"
    assert state.vp == 4 - 3  # US presence + Israel, USSR presence
    assert "shuttle_diplomacy" not in state.effects
    assert card("shuttle_diplomacy") in state.discard


def test_shuttle_diplomacy_not_used_by_other_scorings():
    state = pos(phasing="us", setup_influence=False, effects=["shuttle_diplomacy"], turn=5,
                influence={"thailand": (0, 2), "vietnam": (0, 1), "north_korea": (0, 3)})
    run_event(state, "southeast_asia_scoring", "ussr")
    assert state.vp == -3  # Thailand 2 + Vietnam 1, nothing ignored
    run_event(state, "europe_scoring", "ussr")
    run_event(state, "central_america_scoring", "ussr")
    assert "shuttle_diplomacy" in state.effects
    assert card("shuttle_diplomacy") not in state.discard


def test_shuttle_diplomacy_not_used_by_final_scoring():
    state = pos(setup_influence=False, effects=["shuttle_diplomacy"], influence=ME)
    S.final_scoring(state)
    assert state.vp == 4 - 7 - 1  # Iraq counted; the USSR holds The China Card
    assert state.outcome.winner == "ussr"
    assert "shuttle_diplomacy" in state.effects


def test_shuttle_diplomacy_fired_by_a_ussr_ops_play_stays_out_for_the_us():
    state = pos(hands={"ussr": ["shuttle_diplomacy", "fidel"]})
    play(state, "card:shuttle_diplomacy", "use:influence:event_after",
         "country:syria", "country:syria", "country:syria")
    assert "shuttle_diplomacy" in state.effects
    assert card("shuttle_diplomacy") not in state.discard
    assert step(state) == "action_round" and who(state) == "us"


def test_shuttle_diplomacy_event_without_dispose_frame_takes_the_card_off_the_discard_pile():
    state = pos(phasing="us")
    state.discard = (card("fidel"), card("shuttle_diplomacy"))
    run_event(state, "shuttle_diplomacy", "us")
    assert state.discard == (card("fidel"),)
    assert "shuttle_diplomacy" in state.effects


# -- #74 The Voice of America -------------------------------------------------------------------


def test_voice_of_america_outside_europe_at_most_two_each():
    state = pos(phasing="us", hands={"us": ["the_voice_of_america", "nato"]},
                influence={"cuba": (0, 1), "angola": (0, 3)})
    play(state, "card:the_voice_of_america", "use:event")
    assert step(state) == "event_remove" and who(state) == "us"
    # East Germany and Finland (Europe) are not offered
    assert keys(state) == country_keys("syria", "iraq", "north_korea", "angola", "cuba")
    play(state, "country:angola", "country:angola")
    assert "country:angola" not in keys(state)
    play(state, "country:cuba", "country:north_korea")
    assert step(state) == "action_round"
    assert influence(state, "angola") == (0, 1)
    assert influence(state, "cuba") == (0, 0)
    assert influence(state, "north_korea") == (0, 2)
    assert influence(state, "east_germany") == (0, 3)
    assert influence(state, "finland") == (0, 1)
    assert state.discard == (card("the_voice_of_america"),)


def test_voice_of_america_with_little_ussr_influence_outside_europe():
    state = pos(phasing="us", setup_influence=False, influence={"iraq": (0, 1), "poland": (0, 4)})
    run_event(state, "the_voice_of_america", "us", "country:iraq")
    assert step(state) == "action_round"
    assert influence(state, "iraq") == (0, 0) and influence(state, "poland") == (0, 4)


# -- #75 Liberation Theology --------------------------------------------------------------------


def test_liberation_theology_three_in_central_america_max_two_each():
    state = pos(hands={"ussr": ["liberation_theology", "fidel"]})
    play(state, "card:liberation_theology", "use:event")
    assert step(state) == "event_place" and who(state) == "ussr"
    assert keys(state) == region_keys("Central America")
    play(state, "country:nicaragua", "country:nicaragua")
    assert "country:nicaragua" not in keys(state)
    play(state, "country:panama")
    assert step(state) == "action_round" and who(state) == "us"
    assert influence(state, "nicaragua") == (0, 2)
    assert influence(state, "panama") == (1, 1)
    assert state.discard == (card("liberation_theology"),)


# -- #78 Alliance for Progress ------------------------------------------------------------------


def test_alliance_for_progress_one_vp_per_us_battleground_in_the_americas():
    state = pos(phasing="us", hands={"us": ["alliance_for_progress", "nato"]}, vp=1,
                influence={"mexico": (2, 0), "panama": (3, 1), "venezuela": (2, 0), "chile": (3, 1),
                           "costa_rica": (3, 0), "cuba": (3, 0), "argentina": (2, 2)})
    # battlegrounds controlled: Mexico, Panama, Venezuela, Cuba (Chile 3-1 is not control,
    # Argentina contested, Costa Rica not a battleground)
    play(state, "card:alliance_for_progress", "use:event")
    assert state.vp == 1 + 4
    assert state.removed == (card("alliance_for_progress"),)
    assert step(state) == "action_round"


def test_alliance_for_progress_without_battlegrounds_is_still_played():
    state = pos(phasing="us", hands={"us": ["alliance_for_progress", "nato"]})
    play(state, "card:alliance_for_progress", "use:event")
    assert state.vp == 0
    assert state.removed == (card("alliance_for_progress"),)
    assert card("alliance_for_progress") in state.events_played


# -- #107 Che -----------------------------------------------------------------------------------


CHE = {"guatemala": (1, 0), "bolivia": (2, 0), "nigeria": (1, 0), "morocco": (1, 0)}


def test_che_two_coups():
    state = pos(defcon=3, hands={"ussr": ["che", "fidel"]}, influence=CHE)
    play(state, "card:che", "use:event")
    assert step(state) == "che_coup" and who(state) == "ussr"
    # non-battlegrounds of Central/South America and Africa holding US influence; not Panama,
    # Nigeria or South Africa (battlegrounds); "may": done
    assert keys(state) == country_keys("morocco", "guatemala", "bolivia") + ["done"]
    play(state, "country:guatemala", "die:2")  # 2 + 3 - 2*1 = 3: 1 US removed, 2 USSR added
    assert influence(state, "guatemala") == (0, 2)
    assert state.milops[USSR] == 3  # not free: credited
    assert step(state) == "che_coup" and who(state) == "ussr"
    assert keys(state) == country_keys("morocco", "bolivia") + ["done"]  # a different target
    play(state, "country:bolivia", "die:3")  # 3 + 3 - 2*2 = 2
    assert influence(state, "bolivia") == (0, 0)
    assert state.milops[USSR] == 5  # 6, capped
    assert state.defcon == 3  # non-battlegrounds
    assert step(state) == "action_round" and who(state) == "us"
    assert state.discard == (card("che"),)  # not starred


def test_che_no_second_coup_when_the_first_removed_nothing():
    state = pos(hands={"ussr": ["che", "fidel"]}, influence=CHE)
    play(state, "card:che", "use:event", "country:bolivia", "die:1")  # 1 + 3 - 4 = 0
    assert influence(state, "bolivia") == (2, 0)
    assert state.milops[USSR] == 3
    assert step(state) == "action_round" and who(state) == "us"


def test_che_second_coup_may_be_declined_and_the_first_too():
    state = pos(influence=CHE)
    run_event(state, "che", "ussr", "country:morocco", "die:4", "done")  # 4 + 3 - 6 = 1
    assert influence(state, "morocco") == (0, 0)
    assert step(state) == "action_round" and who(state) == "ussr"  # the round run_event interrupted
    state = pos(influence=CHE)
    run_event(state, "che", "ussr", "done")
    assert state.milops[USSR] == 0
    assert step(state) == "action_round"


def test_che_without_targets_does_nothing():
    state = pos()  # set-up: no US influence in a non-battleground of the three regions
    run_event(state, "che", "ussr")
    assert step(state) == "action_round" and who(state) == "ussr"
    assert state.milops[USSR] == 0


def test_che_ops_modifiers_and_death_squads():
    # Brezhnev +1: 4 Ops; Death Squads (USSR) +1 in Guatemala: 1 + 4 + 1 - 2 = 4
    state = pos(influence=CHE, effects=["brezhnev_doctrine:turn", "death_squads:ussr:turn"])
    run_event(state, "che", "ussr", "country:guatemala", "die:1")
    assert influence(state, "guatemala") == (0, 3)
    assert state.milops[USSR] == 4
    # Red Scare on the USSR: 2 Ops; 3 + 2 - 4 = 1 in Bolivia
    state = pos(influence=CHE, effects=["red_scare:ussr:turn"])
    run_event(state, "che", "ussr", "country:bolivia", "die:3")
    assert influence(state, "bolivia") == (1, 0)
    assert state.milops[USSR] == 2
    assert keys(state) == country_keys("morocco", "guatemala") + ["done"]


def test_che_fired_by_a_us_ops_play():
    state = pos(phasing="us", hands={"us": ["che", "nato"]}, influence=CHE)
    play(state, "card:che", "use:influence:event_first")
    assert step(state) == "che_coup" and who(state) == "ussr"
    assert "country:nigeria" not in keys(state)  # a battleground
    play(state, "country:guatemala", "die:6")
    assert influence(state, "guatemala") == (0, 6)  # 6 + 3 - 2 = 7: 1 US removed, 6 USSR added
    assert state.milops[USSR] == 3
    play(state, "done")
    assert step(state) == "influence" and who(state) == "us"


def test_che_under_the_cuban_missile_crisis_may_decline():
    state = pos(influence=CHE, effects=["cuban_missile_crisis:ussr:turn"])
    run_event(state, "che", "ussr", "done")
    assert state.outcome is None
    state = pos(influence=CHE, effects=["cuban_missile_crisis:ussr:turn"])
    run_event(state, "che", "ussr", "country:guatemala", "die:6")
    assert state.outcome.winner == "us"


# -- #108 Our Man in Tehran ---------------------------------------------------------------------


def test_our_man_in_tehran_unplayable_without_middle_east_control():
    state = pos(hands={"ussr": ["our_man_in_tehran", "fidel"]})  # set-up: Israel 1, Iran 1
    assert not event_playable(state, card("our_man_in_tehran"), US)
    play(state, "card:our_man_in_tehran", "use:influence:event_first", "country:syria", "country:syria")
    assert step(state) == "action_round" and who(state) == "us"
    assert state.discard == (card("our_man_in_tehran"),) and state.removed == ()
    assert card("our_man_in_tehran") not in state.events_played
    state = pos(phasing="us", hands={"us": ["our_man_in_tehran", "nato"]})
    play(state, "card:our_man_in_tehran")
    assert "use:event" not in keys(state)


def test_our_man_in_tehran_draw_five_discard_some_return_the_rest():
    state = pos(phasing="us", hands={"us": ["our_man_in_tehran", "nato"]}, influence={"jordan": (2, 0)})
    deck = tuple(card(c) for c in ("comecon", "nasser", "blockade", "korean_war", "asia_scoring",
                                   "duck_and_cover", "captured_nazi_scientist"))
    state.deck = tuple(sorted(deck))
    assert event_playable(state, card("our_man_in_tehran"), US)
    play(state, "card:our_man_in_tehran", "use:event")
    assert step(state) == "tehran_draw" and who(state) == "chance"
    drawn = ["card:asia_scoring", "card:comecon", "card:nasser", "card:blockade", "card:korean_war"]
    for key in drawn:
        assert key in keys(state)
        play(state, key)
    assert len(state.deck) == 2
    assert history(state, "us", "tehran_draw") == drawn
    assert history(state, "ussr", "tehran_draw") == ["card:hidden"] * 5
    assert step(state) == "tehran_discard" and who(state) == "us"
    assert keys(state) == drawn + ["done"]  # in the order drawn
    play(state, "card:asia_scoring", "card:nasser")
    assert keys(state) == ["card:comecon", "card:blockade", "card:korean_war", "done"]
    play(state, "done")
    assert history(state, "ussr", "tehran_discard") == ["card:asia_scoring", "card:nasser", "done"]  # face up
    assert state.discard == (card("asia_scoring"), card("nasser"))
    assert sorted(state.deck) == sorted(card(c) for c in ("comecon", "blockade", "korean_war", "duck_and_cover",
                                                          "captured_nazi_scientist"))
    assert state.hands[US] == (card("nato"),)
    assert state.vp == 0  # the discarded scoring card does not score
    assert card("nasser") not in state.events_played
    assert state.removed == (card("our_man_in_tehran"),)
    assert step(state) == "action_round" and who(state) == "ussr"


def test_our_man_in_tehran_short_deck_and_discarding_everything():
    state = pos(phasing="us", influence={"iran": (2, 0)})
    state.deck = (card("comecon"), card("nasser"))
    state.discard = (card("fidel"),)
    run_event(state, "our_man_in_tehran", "us", "card:nasser", "card:comecon")
    assert state.deck == ()
    assert step(state) == "tehran_discard"  # no reshuffle: the US draws what is there
    play(state, "card:comecon", "card:nasser")
    assert step(state) == "action_round"
    assert state.discard == (card("fidel"), card("comecon"), card("nasser"))
    assert state.deck == ()


def test_our_man_in_tehran_empty_deck():
    state = pos(phasing="us", influence={"iran": (2, 0)})
    state.deck = ()
    run_event(state, "our_man_in_tehran", "us")
    assert step(state) == "action_round"
    assert state.deck == () and state.discard == ()
