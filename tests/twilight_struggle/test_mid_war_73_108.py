"""Mid War events #73-80 and the optional #107, #108 (events/mid_war_60_108.py): a scenario per
card and branch, against cards.md §4, §8 and §11 (#60-72 in test_mid_war_60_72.py)."""

from __future__ import annotations

from kits.ts_positions import (
    GAME, SIDE, card, country_keys, history, influence, keys, play, position, proves, region_keys,
    run_event, spare_position, step, who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import turn as T
from standoff.server.games.twilight_struggle.common import space_ability
from standoff.server.games.twilight_struggle.events import event_playable

US, USSR = SIDE["us"], SIDE["ussr"]


def pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, turn: int = 4, **kw):
    """A turn-4 position; after the phasing side's play the other side's round asks (``rounds``
    pending rounds in all), so no end of turn runs behind the scenario."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon", "fidel"])
    hands.setdefault("us", ["truman_doctrine", "nato"])
    return position(phasing=phasing, hands=hands, turn=turn, rounds=rounds, **kw)


def spare_pos(**kw):
    """A turn-5 position with several action rounds pending and a spare card on each side (the
    kit's spare_position)."""
    return spare_position(turn=kw.pop("turn", 5), **kw)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


# -- #73 Shuttle Diplomacy ----------------------------------------------------------------------


ME = {"iraq": (0, 3), "libya": (0, 2), "syria": (0, 2), "israel": (4, 0), "jordan": (2, 0)}


ASIA = {"north_korea": (0, 3), "thailand": (0, 2), "afghanistan": (0, 2), "japan": (4, 0), "australia": (4, 0)}


def shuttle_position(influence, scoring: str):
    state = pos(phasing="us", rounds=3, setup_influence=False, influence=influence,
                hands={"us": ["shuttle_diplomacy", "nato", "containment"], "ussr": [scoring, "fidel"]})
    play(state, "card:shuttle_diplomacy", "use:event")
    return state


@proves("shuttle_diplomacy")
def test_shuttle_diplomacy_stays_out_until_used():
    state = shuttle_position(ME, "middle_east_scoring")
    assert "shuttle_diplomacy" in state.effects
    n = card("shuttle_diplomacy")
    assert n not in state.discard and n not in state.removed and n not in state.deck
    assert all(n not in hand for hand in state.hands)
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("shuttle_diplomacy")
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


@proves("shuttle_diplomacy")
def test_shuttle_diplomacy_at_asia_scoring_southeast_asian_battleground():
    state = shuttle_position(ASIA, "asia_scoring")
    assert B.score_region(state, M.ASIA)[:2] == (4, 9)  # without it: net -5
    play(state, "card:asia_scoring", "use:event")
    assert keys(state) == ["choice:thailand", "choice:north_korea"]
    play(state, "choice:thailand")
    assert state.vp == 0  # USSR 2 countries, 1 battleground: presence 3 + 1; US 3 + 1
    assert "shuttle_diplomacy" not in state.effects
    assert card("shuttle_diplomacy") in state.discard


@proves("shuttle_diplomacy")
def test_shuttle_diplomacy_only_once_then_scoring_is_normal():
    state = shuttle_position({**ME, **ASIA}, "middle_east_scoring")
    play(state, "card:middle_east_scoring", "use:event", "choice:libya")
    assert state.vp == 0
    run_event(state, "asia_scoring", "ussr")  # used up: nothing asked, nothing ignored
    assert state.vp == 4 - 9
    assert step(state) == "action_round" and who(state) == "us"
    assert state.discard.count(card("shuttle_diplomacy")) == 1


@proves("asia_scoring", "shuttle_diplomacy")
def test_shuttle_diplomacy_headlined_against_an_asia_scoring_headline():
    state = pos(phasing="us", setup_influence=False, influence=ASIA,
                headline={"ussr": "asia_scoring", "us": "shuttle_diplomacy"})
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


@proves("shuttle_diplomacy")
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
    T.final_scoring(state)
    assert state.vp == 4 - 7 - 1  # Iraq counted; the USSR holds The China Card
    assert state.outcome.winner == "ussr"
    assert "shuttle_diplomacy" in state.effects


@proves("shuttle_diplomacy")
def test_shuttle_diplomacy_fired_by_a_ussr_ops_play_stays_out_for_the_us():
    state = pos(hands={"ussr": ["shuttle_diplomacy", "fidel"]})
    play(state, "card:shuttle_diplomacy", "use:influence:event_after",
         "country:syria", "country:syria", "country:syria")
    assert "shuttle_diplomacy" in state.effects
    assert card("shuttle_diplomacy") not in state.discard
    assert step(state) == "action_round" and who(state) == "us"


@proves("shuttle_diplomacy")
def test_shuttle_diplomacy_event_without_dispose_frame_takes_the_card_off_the_discard_pile():
    state = pos(phasing="us")
    state.discard = (card("fidel"), card("shuttle_diplomacy"))
    run_event(state, "shuttle_diplomacy", "us")
    assert state.discard == (card("fidel"),)
    assert "shuttle_diplomacy" in state.effects


# -- #74 The Voice of America -------------------------------------------------------------------


@proves("the_voice_of_america")
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


@proves("the_voice_of_america")
def test_voice_of_america_with_little_ussr_influence_outside_europe():
    state = pos(phasing="us", setup_influence=False, influence={"iraq": (0, 1), "poland": (0, 4)})
    run_event(state, "the_voice_of_america", "us", "country:iraq")
    assert step(state) == "action_round"
    assert influence(state, "iraq") == (0, 0) and influence(state, "poland") == (0, 4)


# -- #75 Liberation Theology --------------------------------------------------------------------


@proves("liberation_theology")
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


@proves("ussuri_river_skirmish")
def test_ussuri_takes_the_china_card_face_up_from_the_ussr():
    state = spare_pos(phasing="us")
    run_event(state, "ussuri_river_skirmish", "us")
    assert state.china == US and state.china_face_up
    assert "card:the_china_card" in keys(state)


@proves("ussuri_river_skirmish")
def test_ussuri_with_the_us_holding_it_adds_four_in_asia_at_most_two_per_country():
    state = spare_pos(phasing="us")
    state.china = US
    run_event(state, "ussuri_river_skirmish", "us")
    asia = [f"country:{M.COUNTRIES[c].id}" for c in sorted(M.REGION_COUNTRIES[M.ASIA])]
    assert step(state) == "event_place" and who(state) == "us" and keys(state) == asia
    play(state, "country:thailand", "country:thailand")
    assert "country:thailand" not in keys(state)
    play(state, "country:india", "country:japan")
    assert influence(state, "thailand") == (2, 0) and influence(state, "india") == (1, 0)
    assert influence(state, "japan") == (2, 0)
    assert step(state) == "action_round" and state.china == US


# -- #77 "Ask Not What Your Country Can Do For You" -----------------------------------------------


@proves("ask_not_what_your_country_can_do_for_you")
def test_ask_not_discards_without_events_then_draws_as_many_seen_by_the_us_only():
    state = spare_pos(phasing="us", hands={"us": ["ask_not_what_your_country_can_do_for_you", "asia_scoring", "fidel",
                                                 "truman_doctrine"]})
    state.deck = cards("nasser", "comecon", "blockade")
    vp = state.vp
    play(state, "card:ask_not_what_your_country_can_do_for_you", "use:event")
    assert step(state) == "ask_not_discard" and who(state) == "us"
    assert keys(state) == ["card:asia_scoring", "card:fidel", "card:truman_doctrine", "done"]
    play(state, "card:asia_scoring", "card:fidel", "done")
    assert state.vp == vp and state.discard == cards("asia_scoring", "fidel")
    decision = GAME.decision(state)
    assert decision.role == "chance" and decision.step == "deal"
    assert keys(state) == ["card:blockade", "card:comecon", "card:nasser"]
    play(state, "card:comecon", "card:nasser")
    assert state.hands[US] == cards("truman_doctrine", "comecon", "nasser")
    assert state.deck == (card("blockade"),)
    assert state.removed == (card("ask_not_what_your_country_can_do_for_you"),)
    assert history(state, "us", "deal") == ["card:comecon", "card:nasser"]
    assert history(state, "ussr", "deal") == ["card:hidden", "card:hidden"]
    assert history(state, "ussr", "ask_not_discard") == ["card:asia_scoring", "card:fidel", "done"]
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("ask_not_what_your_country_can_do_for_you")
def test_ask_not_reshuffles_the_discard_pile_when_the_deck_runs_out():
    state = spare_pos(phasing="us", hands={"us": ["ask_not_what_your_country_can_do_for_you", "fidel", "nasser"]})
    state.deck = (card("blockade"),)
    state.discard = (card("comecon"),)
    play(state, "card:ask_not_what_your_country_can_do_for_you", "use:event", "card:fidel", "card:nasser")
    # the hand is empty: the draws follow without "done"
    play(state, "card:blockade")
    assert keys(state) == ["card:fidel", "card:comecon", "card:nasser"]  # the whole discard pile
    assert history(state, "us", "reshuffle") == ["deck:3"]
    play(state, "card:comecon")
    assert state.hands[US] == cards("blockade", "comecon")
    assert state.deck == cards("fidel", "nasser") and state.discard == ()


@proves("ask_not_what_your_country_can_do_for_you")
def test_ask_not_with_no_discard_draws_nothing():
    state = spare_pos(phasing="us", hands={"us": ["ask_not_what_your_country_can_do_for_you", "fidel"]})
    deck = state.deck
    play(state, "card:ask_not_what_your_country_can_do_for_you", "use:event", "done")
    assert state.hands[US] == (card("fidel"),) and state.deck == deck
    assert step(state) == "action_round" and who(state) == "ussr"


# -- #78 Alliance for Progress ------------------------------------------------------------------


@proves("alliance_for_progress")
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


@proves("alliance_for_progress")
def test_alliance_for_progress_without_battlegrounds_is_still_played():
    state = pos(phasing="us", hands={"us": ["alliance_for_progress", "nato"]})
    play(state, "card:alliance_for_progress", "use:event")
    assert state.vp == 0
    assert state.removed == (card("alliance_for_progress"),)
    assert card("alliance_for_progress") in state.events_played


# -- #80 "One Small Step..." -------------------------------------------------------------------------------


@proves("one_small_step")
def test_one_small_step_two_boxes_with_only_the_second_boxs_vp():
    state = spare_pos(hands={"ussr": ["one_small_step"]})
    state.space = [0, 2]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [2, 2] and state.vp == 0  # box 1's VP (second: 1) are skipped; box 2: 0
    assert state.space_attempts == [0, 0] and state.discard == (card("one_small_step"),)
    state = spare_pos(hands={"us": ["one_small_step"]}, phasing="us")
    state.space = [4, 3]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [4, 5] and state.vp == 3  # Lunar Orbit first: 3 VP


@proves("one_small_step")
def test_one_small_step_to_the_last_box_and_the_ability_of_a_box_passed():
    state = spare_pos(hands={"ussr": ["one_small_step"]})
    state.space = [7, 8]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [8, 8] and state.vp == 0
    state = spare_pos(hands={"ussr": ["one_small_step"]})
    state.space = [0, 1]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [2, 1] and space_ability(state, 2) == USSR  # Animal in Space, passed first


def test_one_small_step_not_an_event_unless_strictly_behind():
    state = spare_pos(hands={"ussr": ["one_small_step"]})
    state.space = [2, 2]
    assert not event_playable(state, card("one_small_step"), USSR)
    play(state, "card:one_small_step")
    assert "use:event" not in keys(state)
    state.space = [1, 2]
    assert event_playable(state, card("one_small_step"), USSR)


# -- #107 Che -----------------------------------------------------------------------------------


CHE = {"guatemala": (1, 0), "bolivia": (2, 0), "nigeria": (1, 0), "morocco": (1, 0)}


@proves("che")
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


@proves("che")
def test_che_no_second_coup_when_the_first_removed_nothing():
    state = pos(hands={"ussr": ["che", "fidel"]}, influence=CHE)
    play(state, "card:che", "use:event", "country:bolivia", "die:1")  # 1 + 3 - 4 = 0
    assert influence(state, "bolivia") == (2, 0)
    assert state.milops[USSR] == 3
    assert step(state) == "action_round" and who(state) == "us"


@proves("che")
def test_che_second_coup_may_be_declined_and_the_first_too():
    state = pos(influence=CHE)
    run_event(state, "che", "ussr", "country:morocco", "die:4", "done")  # 4 + 3 - 6 = 1
    assert influence(state, "morocco") == (0, 0)
    assert step(state) == "action_round" and who(state) == "ussr"  # the round run_event interrupted
    state = pos(influence=CHE)
    run_event(state, "che", "ussr", "done")
    assert state.milops[USSR] == 0
    assert step(state) == "action_round"


@proves("che")
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


@proves("che")
def test_che_fired_by_a_us_ops_play():
    state = pos(phasing="us", hands={"us": ["che", "nato"]}, influence=CHE)
    play(state, "card:che", "use:influence:event_first")
    assert step(state) == "che_coup" and who(state) == "ussr"
    assert "country:nigeria" not in keys(state)  # a battleground
    play(state, "country:guatemala", "die:6")
    assert influence(state, "guatemala") == (0, 6)  # 6 + 3 - 2 = 7: 1 US removed, 6 USSR added
    assert state.milops[USSR] == 3
    play(state, "done")
    assert influence(state, "guatemala") == (0, 6) and state.milops[USSR] == 3  # the second coup declined
    assert step(state) == "influence" and who(state) == "us"


@proves("che")
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


@proves("our_man_in_tehran")
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


@proves("our_man_in_tehran")
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


@proves("our_man_in_tehran")
def test_our_man_in_tehran_empty_deck():
    state = pos(phasing="us", influence={"iran": (2, 0)})
    state.deck = ()
    run_event(state, "our_man_in_tehran", "us")
    assert step(state) == "action_round"
    assert state.deck == () and state.discard == ()


# -- more proofs (the card audit: a test resolves the event and asserts on its effect) ------------


@proves("shuttle_diplomacy", "asia_scoring")
def test_shuttle_diplomacy_ignored_japan_takes_its_battleground_and_border_bonus_with_it():
    state = shuttle_position({"japan": (0, 4), "north_korea": (0, 3), "burma": (0, 2), "australia": (4, 0)},
                             "asia_scoring")
    play(state, "card:asia_scoring", "use:event")
    assert keys(state) == ["choice:japan", "choice:north_korea"]  # map order
    play(state, "choice:japan")
    # Japan ignored: USSR 2 countries (North Korea bg, Burma) vs 1 (Australia) -> Domination 7
    # + 1 bg = 8 (no Japan bonus); US: Presence 3.  (Without it: 7 + 2 bg + 1 Japan = 10.)
    assert state.vp == 3 - 8
    assert card("shuttle_diplomacy") in state.discard


@proves("liberation_theology")
def test_liberation_theology_three_in_three_countries():
    state = pos(setup_influence=False)
    run_event(state, "liberation_theology", "ussr", "country:cuba", "country:haiti", "country:mexico")
    assert [influence(state, c) for c in ("cuba", "haiti", "mexico")] == [(0, 1), (0, 1), (0, 1)]
    assert step(state) == "action_round"
