"""Mid War events, part A (events/mid_a.py: #40, 41, 42, 43, 44, 46, 49, 50, 58, 67, 71, 76, 77,
80): a scenario per card and branch, against cards.md §4/§5/§8."""

from __future__ import annotations

from tsposition import spare_position, step, who, GAME, SIDE, card, influence, keys, play, run_event

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import hooks as H
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.events import event_playable, mid_a
from standoff.server.games.twilight_struggle.events.primitives import CHOICES
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import NOBODY
from standoff.server.games.twilight_struggle.steps import space_ability

US, USSR = SIDE["us"], SIDE["ussr"]



def pos(**kw):
    return spare_position(turn=kw.pop("turn", 5), **kw)




def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


def history(state, role: str, step_name: str) -> list[str]:
    return [key for _, _, s, key in GAME.view(state, role)["history"] if s == step_name]


def test_steps_hooks_and_choices_are_wired():
    for s in mid_a.STEPS:
        assert G.STEPS[s.name] is s
    for name in ("cancel_missile_crisis", "trap_discard", "salt_negotiations", "how_i_learned_to_stop_worrying",
                 "missile_envy", "missile_envy_ops", "we_will_bury_you", "grain_sales_to_soviets"):
        assert CHOICES[name].__module__ == mid_a.__name__
    hooks = [h for h in H.ACTION_ROUND_HOOKS if h.__module__ == mid_a.__name__]
    assert hooks == [mid_a._offer_cancel, mid_a._bury_you_round, mid_a._trap_round]
    assert mid_a._restrict_cards in H.CARD_FILTERS and mid_a._restrict_uses in H.USE_FILTERS
    assert mid_a._after_round in H.AFTER_ROUND_HOOKS


# -- #40 Cuban Missile Crisis ------------------------------------------------------------------------


def test_cuban_missile_crisis_sets_defcon_two_and_restricts_the_opponent_for_the_turn():
    state = pos(hands={"ussr": ["cuban_missile_crisis"]}, defcon=4)
    play(state, "card:cuban_missile_crisis", "use:event")
    assert state.defcon == 2
    assert "cuban_missile_crisis:us:turn" in state.effects
    assert "cuban_missile_crisis:ussr:turn" not in state.effects
    assert state.removed == (card("cuban_missile_crisis"),)
    # The US has under 2 influence in West Germany and Turkey: no cancellation offer.
    assert step(state) == "action_round" and who(state) == "us"


def test_cuban_missile_crisis_raises_defcon_to_two_as_well():
    state = pos(hands={"us": ["cuban_missile_crisis"]}, phasing="us", defcon=5, influence={"cuba": (0, 1)})
    play(state, "card:cuban_missile_crisis", "use:event")
    assert state.defcon == 2 and "cuban_missile_crisis:ussr:turn" in state.effects
    assert step(state) == "action_round"  # 1 in Cuba: the USSR cannot cancel


def test_cuban_missile_crisis_coup_by_the_restricted_side_loses_even_in_a_non_battleground():
    state = pos(phasing="us", hands={"us": ["duck_and_cover"]}, defcon=2, effects=["cuban_missile_crisis:us:turn"],
                influence={"west_germany": (2, 0), "turkey": (1, 0), "sudan": (0, 1)})
    assert step(state) == "cancel_missile_crisis" and who(state) == "us"
    assert keys(state) == ["choice:west_germany", "choice:keep"]
    play(state, "choice:keep")
    assert step(state) == "action_round" and "cuban_missile_crisis:us:turn" in state.effects
    play(state, "card:duck_and_cover", "use:coup", "country:sudan", "die:6")
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.MISSILE_CRISIS


def test_cuban_missile_crisis_us_cancels_by_removing_two_from_turkey_then_coups_safely():
    state = pos(phasing="us", hands={"us": ["duck_and_cover"]}, defcon=2, effects=["cuban_missile_crisis:us:turn"],
                influence={"west_germany": (1, 0), "turkey": (3, 0), "sudan": (0, 1)})
    assert keys(state) == ["choice:turkey", "choice:keep"]
    play(state, "choice:turkey")
    assert influence(state, "turkey") == (1, 0)
    assert "cuban_missile_crisis:us:turn" not in state.effects
    play(state, "card:duck_and_cover", "use:coup", "country:sudan", "die:6")
    assert state.outcome is None
    assert influence(state, "sudan") == (6, 0)  # 6 + 3 − 2×1 = 7: 1 USSR removed, 6 US added
    assert state.defcon == 2 and state.milops[US] == 3  # Sudan is no battleground


def test_cuban_missile_crisis_ussr_cancels_only_from_cuba_at_the_start_of_its_round():
    state = pos(phasing="us", hands={"us": ["cuban_missile_crisis"]}, defcon=3,
                influence={"cuba": (0, 3), "west_germany": (0, 4)})
    play(state, "card:cuban_missile_crisis", "use:event")
    assert step(state) == "cancel_missile_crisis" and who(state) == "ussr"
    assert keys(state) == ["choice:cuba", "choice:keep"]
    play(state, "choice:cuba")
    assert influence(state, "cuba") == (0, 1) and "cuban_missile_crisis:ussr:turn" not in state.effects
    assert step(state) == "action_round" and who(state) == "ussr"


def test_cuban_missile_crisis_offer_comes_back_each_round_and_ends_with_the_turn():
    state = pos(phasing="us", hands={"us": ["cuban_missile_crisis", "truman_doctrine"], "ussr": ["comecon", "nasser"]},
                defcon=3, influence={"cuba": (0, 2)})
    play(state, "card:cuban_missile_crisis", "use:event", "choice:keep", "card:comecon", "use:space", "die:6")
    play(state, "card:truman_doctrine", "use:influence", "country:uk")  # US action round 2
    assert step(state) == "cancel_missile_crisis" and who(state) == "ussr"  # USSR action round 2
    state = pos(effects=["cuban_missile_crisis:ussr:turn"], rounds=0, end_turn=10)
    state.milops = [5, 5]
    GAME.decision(state)  # end of turn 5 → turn 6 deals
    assert state.turn == 6 and not any(e.startswith("cuban_missile_crisis") for e in state.effects)


# -- #41 Nuclear Subs ----------------------------------------------------------------------------------


def test_nuclear_subs_us_battleground_coups_leave_defcon_but_ussr_coups_do_not():
    state = pos(phasing="us", hands={"us": ["nuclear_subs", "duck_and_cover"]}, defcon=3,
                influence={"angola": (0, 2)})
    play(state, "card:nuclear_subs", "use:event")
    assert "nuclear_subs:turn" in state.effects and state.removed == (card("nuclear_subs"),)
    play(state, "card:comecon", "use:coup", "country:panama", "die:1")  # USSR coup on a battleground
    assert state.defcon == 2
    play(state, "card:duck_and_cover", "use:coup", "country:angola", "die:2")
    # 2 + 3 − 2 = 3: 2 USSR removed, 1 US added; DEFCON stays at 2
    assert influence(state, "angola") == (1, 0) and state.defcon == 2 and state.outcome is None


# -- #42 Quagmire, #44 Bear Trap -------------------------------------------------------------------


def test_quagmire_traps_the_us_and_cancels_norad():
    state = pos(hands={"ussr": ["quagmire"], "us": ["duck_and_cover", "truman_doctrine"]}, effects=["norad"])
    play(state, "card:quagmire", "use:event")
    assert "quagmire" in state.effects and "norad" not in state.effects
    assert state.removed == (card("quagmire"),)
    assert step(state) == "trap_discard" and who(state) == "us"
    assert keys(state) == ["choice:duck_and_cover"]  # Truman Doctrine: 1 Op
    play(state, "choice:duck_and_cover", "die:3")
    assert "quagmire" not in state.effects and "norad" not in state.effects  # NORAD stays cancelled


def test_quagmire_round_is_a_discard_of_two_ops_and_a_die_one_to_four_frees():
    state = pos(phasing="us", hands={"us": ["duck_and_cover", "fidel", "truman_doctrine", "asia_scoring"]},
                effects=["quagmire"], influence={"cuba": (1, 0)})
    state.china, state.china_face_up = US, True
    assert step(state) == "trap_discard" and who(state) == "us"
    assert keys(state) == ["choice:duck_and_cover", "choice:fidel"]  # 2+ Ops, no scoring, no China Card
    play(state, "choice:fidel")
    decision = GAME.decision(state)
    assert decision.role == "chance" and decision.step == "die"
    play(state, "die:4")
    assert "quagmire" not in state.effects
    assert state.discard == (card("fidel"),) and card("fidel") not in state.events_played
    assert influence(state, "cuba") == (1, 0)  # the discarded event never happens
    assert state.hands[US] == cards("duck_and_cover", "truman_doctrine", "asia_scoring")
    assert step(state) == "action_round" and who(state) == "ussr"
    play(state, "card:comecon", "use:space", "die:6")
    assert step(state) == "action_round" and who(state) == "us"  # the next US round is normal
    assert "card:the_china_card" in keys(state)


def test_quagmire_roll_of_five_keeps_the_trap_for_the_next_round():
    state = pos(phasing="us", hands={"us": ["duck_and_cover", "fidel"]}, effects=["quagmire"])
    play(state, "choice:duck_and_cover", "die:5")
    assert "quagmire" in state.effects and state.discard == (card("duck_and_cover"),)
    play(state, "card:comecon", "use:space", "die:6")
    assert step(state) == "trap_discard" and keys(state) == ["choice:fidel"]
    play(state, "choice:fidel", "die:6")
    assert "quagmire" in state.effects and state.hands[US] == ()


def test_quagmire_without_a_two_ops_card_the_us_must_play_a_scoring_card_and_stays_trapped():
    state = pos(phasing="us", hands={"us": ["truman_doctrine", "asia_scoring"]}, effects=["quagmire"])
    state.china, state.china_face_up = US, True
    us, ussr, _ = B.score_region(state, M.ASIA)
    assert step(state) == "action_round" and keys(state) == ["card:asia_scoring"]
    play(state, "card:asia_scoring", "use:event")
    assert state.vp == us - ussr
    assert "quagmire" in state.effects and state.hands[US] == (card("truman_doctrine"),)
    assert step(state) == "action_round" and who(state) == "ussr"


def test_quagmire_without_a_qualifying_card_or_scoring_card_skips_the_round():
    # Red Scare/Purge makes Fidel (2 Ops) worth 1: nothing qualifies, nothing to score.
    state = pos(phasing="us", hands={"us": ["fidel", "truman_doctrine"]}, effects=["quagmire", "red_scare:us:turn"])
    assert step(state) == "action_round" and who(state) == "ussr"
    assert state.hands[US] == cards("fidel", "truman_doctrine") and state.discard == ()
    assert "quagmire" in state.effects


def test_quagmire_a_scoring_card_due_this_turn_is_played_before_the_trap_discard():
    # One US round left and one scoring card: it must be played now (cards.md §5.4).
    state = pos(phasing="us", hands={"us": ["duck_and_cover", "asia_scoring"]}, effects=["quagmire"], rounds=2)
    assert step(state) == "action_round" and keys(state) == ["card:asia_scoring"]
    play(state, "card:asia_scoring", "use:event")
    assert "quagmire" in state.effects and state.hands[US] == (card("duck_and_cover"),)
    # Two US rounds left: the discard comes first.
    state = pos(phasing="us", hands={"us": ["duck_and_cover", "asia_scoring"]}, effects=["quagmire"], rounds=4)
    assert step(state) == "trap_discard" and keys(state) == ["choice:duck_and_cover"]


def test_quagmire_survives_the_end_of_turn_but_not_the_headline():
    state = pos(hands={"us": ["duck_and_cover"]}, effects=["quagmire", "salt:turn"], rounds=0, end_turn=10)
    state.milops = [5, 5]
    GAME.decision(state)  # end of turn 5, then turn 6 deals
    assert state.turn == 6 and step(state) == "deal"
    assert "quagmire" in state.effects and "salt:turn" not in state.effects
    # The headline is unaffected: the trapped US headlines normally, its event happens.
    state = pos(hands={"us": ["nuclear_subs", "duck_and_cover"], "ussr": ["vietnam_revolts", "comecon"]},
                effects=["quagmire"])
    state.stack = [("end_turn",), ("action_round", 1, US), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:vietnam_revolts")
    assert keys(state) == ["card:duck_and_cover", "card:nuclear_subs"]
    play(state, "card:nuclear_subs")
    assert "nuclear_subs:turn" in state.effects and "vietnam_revolts:turn" in state.effects
    play(state, "card:comecon", "use:space", "die:6")
    assert step(state) == "trap_discard"  # action rounds are trapped again


def test_quagmire_discard_must_be_an_owed_missile_envy():
    state = pos(phasing="us", hands={"us": ["missile_envy", "duck_and_cover"]}, effects=["quagmire", "missile_envy:us"])
    assert keys(state) == ["choice:missile_envy"]
    play(state, "choice:missile_envy", "die:6")
    assert "missile_envy:us" not in state.effects and "quagmire" in state.effects
    assert state.discard == (card("missile_envy"),)


def test_bear_trap_traps_the_ussr():
    state = pos(phasing="us", hands={"us": ["bear_trap", "truman_doctrine"], "ussr": ["comecon", "nasser"]})
    play(state, "card:bear_trap", "use:event")
    assert "bear_trap" in state.effects and state.removed == (card("bear_trap"),)
    assert step(state) == "trap_discard" and who(state) == "ussr" and keys(state) == ["choice:comecon"]
    play(state, "choice:comecon", "die:1")
    assert "bear_trap" not in state.effects and state.discard == (card("comecon"),)
    assert step(state) == "action_round" and who(state) == "us"


def test_bear_trap_brezhnev_lets_a_one_op_card_qualify_otherwise_a_scoring_card_is_forced():
    state = pos(hands={"ussr": ["nasser", "europe_scoring"]}, effects=["bear_trap", "brezhnev_doctrine:turn"])
    assert step(state) == "trap_discard" and keys(state) == ["choice:nasser"]
    play(state, "choice:nasser", "die:6")
    assert "bear_trap" in state.effects and state.hands[USSR] == (card("europe_scoring"),)
    state = pos(hands={"ussr": ["nasser", "europe_scoring"]}, effects=["bear_trap"])
    assert step(state) == "action_round" and keys(state) == ["card:europe_scoring"]


# -- #43 SALT Negotiations ----------------------------------------------------------------------------


def test_salt_raises_defcon_by_two_and_lets_the_player_take_a_non_scoring_discard():
    state = pos(hands={"ussr": ["salt_negotiations"]}, defcon=2)
    state.discard = (card("nasser"), card("asia_scoring"), card("fidel"))
    play(state, "card:salt_negotiations", "use:event")
    assert state.defcon == 4 and "salt:turn" in state.effects
    assert step(state) == "salt_negotiations" and who(state) == "ussr"
    assert keys(state) == ["choice:fidel", "choice:nasser", "choice:none"]
    play(state, "choice:nasser")
    assert state.hands[USSR] == (card("nasser"),)
    assert state.discard == (card("asia_scoring"), card("fidel"))
    assert state.removed == (card("salt_negotiations"),)
    assert history(state, "us", "salt_negotiations") == ["choice:nasser"]  # shown to the opponent


def test_salt_defcon_never_above_five_and_taking_nothing():
    state = pos(hands={"us": ["salt_negotiations"]}, phasing="us", defcon=4)
    state.discard = (card("fidel"),)
    play(state, "card:salt_negotiations", "use:event", "choice:none")
    assert state.defcon == 5 and state.discard == (card("fidel"),) and state.hands[US] == ()
    state = pos(hands={"us": ["salt_negotiations"]}, phasing="us", defcon=3)
    play(state, "card:salt_negotiations", "use:event")  # empty discard pile: no question
    assert state.defcon == 5 and step(state) == "action_round" and who(state) == "ussr"


def test_salt_takes_one_from_every_coup_roll_this_turn():
    state = pos(effects=["salt:turn"], influence={"sudan": (4, 0)})
    play(state, "card:comecon", "use:coup", "country:sudan", "die:3")
    assert influence(state, "sudan") == (1, 0)  # 3 + 3 − 1 − 2×1 = 3
    assert state.milops[USSR] == 3


# -- #46 How I Learned to Stop Worrying -------------------------------------------------------------


def test_how_i_learned_sets_the_chosen_defcon_and_gives_five_military_ops():
    state = pos(hands={"ussr": ["how_i_learned_to_stop_worrying"]}, defcon=3)
    state.milops = [2, 1]
    play(state, "card:how_i_learned_to_stop_worrying", "use:event")
    assert step(state) == "how_i_learned_to_stop_worrying" and who(state) == "ussr"
    assert keys(state) == [f"choice:defcon_{n}" for n in range(1, 6)]
    play(state, "choice:defcon_5")
    assert state.defcon == 5 and state.milops == [5, 1]
    assert state.removed == (card("how_i_learned_to_stop_worrying"),)


def test_how_i_learned_choosing_defcon_one_loses_for_the_phasing_player():
    state = pos(hands={"us": ["how_i_learned_to_stop_worrying"]}, phasing="us", defcon=4)
    play(state, "card:how_i_learned_to_stop_worrying", "use:event", "choice:defcon_1")
    assert state.defcon == 1
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.DEFCON_1


# -- #49 Missile Envy -----------------------------------------------------------------------------------


def test_missile_envy_takes_the_highest_card_an_opponent_event_gives_only_its_ops():
    state = pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "fidel", "truman_doctrine"]})
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


def test_missile_envy_own_event_happens_for_the_taker_and_a_starred_card_is_removed():
    state = pos(hands={"ussr": ["missile_envy"], "us": ["fidel", "truman_doctrine"]}, influence={"cuba": (2, 0)})
    play(state, "card:missile_envy", "use:event")
    assert influence(state, "cuba") == (0, 3)  # Fidel for the USSR
    assert state.removed == (card("fidel"),) and state.discard == ()
    assert state.hands[US] == cards("missile_envy", "truman_doctrine")
    assert step(state) == "action_round" and who(state) == "us"


def test_missile_envy_opponent_chooses_among_ties():
    state = pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "socialist_governments", "fidel"]})
    play(state, "card:missile_envy", "use:event")
    assert step(state) == "missile_envy" and who(state) == "us"
    assert keys(state) == ["choice:duck_and_cover", "choice:socialist_governments"]
    play(state, "choice:socialist_governments")
    assert step(state) == "event_remove" and who(state) == "ussr"  # its event, for the USSR
    assert state.hands[US] == cards("duck_and_cover", "fidel", "missile_envy")


def test_missile_envy_compares_values_after_the_holders_modifiers():
    # Containment: Duck and Cover 3 → 4 ties with NATO 4, so the US chooses.
    state = pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "nato"]}, effects=["containment:turn"])
    play(state, "card:missile_envy", "use:event")
    assert keys(state) == ["choice:duck_and_cover", "choice:nato"]
    state = pos(hands={"ussr": ["missile_envy"], "us": ["duck_and_cover", "nato"]})
    play(state, "card:missile_envy", "use:event")
    assert step(state) == "missile_envy_ops"  # NATO taken without a question


def test_missile_envy_against_only_scoring_cards_has_no_effect():
    state = pos(hands={"ussr": ["missile_envy"], "us": ["asia_scoring"]})
    play(state, "card:missile_envy", "use:event")
    assert state.hands[US] == (card("asia_scoring"),) and state.discard == (card("missile_envy"),)
    assert not any(e.startswith("missile_envy") for e in state.effects)
    assert card("missile_envy") in state.events_played


def test_missile_envy_owed_yields_to_a_scoring_card_that_must_be_played():
    hands = {"us": ["missile_envy", "asia_scoring", "duck_and_cover"]}
    state = pos(phasing="us", hands=hands, effects=["missile_envy:us"], rounds=2)  # 1 US round left
    assert keys(state) == ["card:asia_scoring"]
    play(state, "card:asia_scoring", "use:event")
    assert "missile_envy:us" in state.effects  # still owed (next turn's first round)
    state = pos(phasing="us", hands=hands, effects=["missile_envy:us"], rounds=4)  # 2 US rounds left
    assert keys(state) == ["card:missile_envy"]
    assert not event_playable(state, card("missile_envy"), US)  # never its event (e.g. a headline)


def test_missile_envy_owed_into_a_new_turn_cannot_be_headlined():
    state = pos(hands={"us": ["missile_envy", "duck_and_cover"], "ussr": ["comecon"]}, effects=["missile_envy:us"])
    state.stack = [("end_turn",), ("action_round", 1, US), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:comecon")
    assert keys(state) == ["card:duck_and_cover"]


# -- #50 "We Will Bury You" ------------------------------------------------------------------------------


def test_we_will_bury_you_three_vp_land_at_the_start_of_the_next_us_round():
    state = pos(hands={"ussr": ["we_will_bury_you"], "us": ["duck_and_cover"]}, defcon=4)
    play(state, "card:we_will_bury_you", "use:event")
    assert state.defcon == 3 and state.removed == (card("we_will_bury_you"),)
    # The US's round starts with the question (the effect is used up by asking it).
    assert step(state) == "we_will_bury_you" and who(state) == "us" and keys(state) == ["choice:accept"]
    assert state.vp == 0 and "we_will_bury_you" not in state.effects
    play(state, "choice:accept")
    assert state.vp == -3 and "we_will_bury_you" not in state.effects
    assert step(state) == "action_round" and keys(state) == ["card:duck_and_cover"]


def test_we_will_bury_you_cancelled_by_un_intervention_played_as_the_event():
    state = pos(hands={"ussr": ["we_will_bury_you", "comecon"], "us": ["un_intervention", "fidel", "duck_and_cover"]})
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


def test_we_will_bury_you_declined_un_intervention_and_the_twenty_vp_win():
    state = pos(hands={"ussr": ["we_will_bury_you"], "us": ["un_intervention", "fidel"]}, vp=-17)
    play(state, "card:we_will_bury_you", "use:event", "choice:accept")
    assert state.vp == -20 and state.outcome.winner == "ussr" and state.outcome.termination == B.VP_20


def test_we_will_bury_you_without_us_cards_or_under_quagmire_the_vp_land_at_once():
    state = pos(hands={"us": []}, effects=["we_will_bury_you"], phasing="us")
    assert state.vp == 0
    assert step(state) == "action_round" and who(state) == "ussr"  # the US sat out
    assert state.vp == -3
    state = pos(hands={"us": ["un_intervention", "fidel"]}, effects=["we_will_bury_you", "quagmire"], phasing="us")
    assert step(state) == "trap_discard" and state.vp == -3


def test_we_will_bury_you_un_intervention_needs_a_ussr_card_to_pair():
    state = pos(hands={"us": ["un_intervention", "duck_and_cover"]}, effects=["we_will_bury_you"], phasing="us")
    assert keys(state) == ["choice:accept"]


# -- #58 Cultural Revolution, #71 Nixon, #76 Ussuri ---------------------------------------------------


def test_cultural_revolution_takes_the_china_card_face_up_from_the_us():
    state = pos()
    state.china, state.china_face_up = US, False
    run_event(state, "cultural_revolution", "ussr")
    assert state.china == USSR and state.china_face_up and state.vp == 0
    assert "card:the_china_card" in keys(state)  # playable this turn


def test_cultural_revolution_with_the_ussr_holding_it_gives_one_vp():
    state = pos()
    run_event(state, "cultural_revolution", "ussr")
    assert state.china == USSR and state.vp == -1


def test_cultural_revolution_not_an_event_before_the_chinese_civil_war_is_won():
    state = pos()
    state.rules = make_rules(None, {"end_turn": "3", "chinese_civil_war": "on"})
    state.china = NOBODY
    assert not event_playable(state, card("cultural_revolution"), USSR)
    state.china = USSR
    assert event_playable(state, card("cultural_revolution"), USSR)


def test_nixon_takes_the_china_card_face_down_from_the_ussr():
    state = pos(phasing="us")
    run_event(state, "nixon_plays_the_china_card", "us")
    assert state.china == US and not state.china_face_up and state.vp == 0
    assert "card:the_china_card" not in keys(state)


def test_nixon_with_the_us_holding_it_gives_two_vp():
    state = pos(phasing="us")
    state.china, state.china_face_up = US, False
    run_event(state, "nixon_plays_the_china_card", "us")
    assert state.china == US and not state.china_face_up and state.vp == 2
    state = pos(phasing="us")  # Chinese Civil War, unclaimed: the US counts as holding it
    state.rules = make_rules(None, {"end_turn": "3", "chinese_civil_war": "on"})
    state.china = NOBODY
    run_event(state, "nixon_plays_the_china_card", "us")
    assert state.china == NOBODY and state.vp == 2


def test_ussuri_takes_the_china_card_face_up_from_the_ussr():
    state = pos(phasing="us")
    run_event(state, "ussuri_river_skirmish", "us")
    assert state.china == US and state.china_face_up
    assert "card:the_china_card" in keys(state)


def test_ussuri_with_the_us_holding_it_adds_four_in_asia_at_most_two_per_country():
    state = pos(phasing="us")
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


# -- #67 Grain Sales to Soviets -----------------------------------------------------------------------


def test_grain_sales_the_us_plays_the_drawn_card_as_its_own():
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets"], "ussr": ["duck_and_cover", "comecon"]})
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


def test_grain_sales_returned_card_then_the_us_uses_two_ops_with_its_modifiers():
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets"], "ussr": ["comecon"]})
    play(state, "card:grain_sales_to_soviets", "use:event", "card:comecon", "choice:return")
    assert state.hands[USSR] == (card("comecon"),)
    assert step(state) == "event_ops" and keys(state) == ["use:influence", "use:realign", "use:coup"]
    play(state, "use:influence", "country:uk", "country:uk")
    assert influence(state, "uk") == (7, 0)
    assert step(state) == "action_round" and who(state) == "ussr"
    # Containment: Grain Sales' own Ops are 3; an empty USSR hand goes straight to them.
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets"], "ussr": []}, effects=["containment:turn"])
    play(state, "card:grain_sales_to_soviets", "use:event")
    assert step(state) == "event_ops"
    play(state, "use:influence", "country:uk", "country:uk", "country:uk")
    assert influence(state, "uk") == (8, 0) and step(state) != "influence"


def test_grain_sales_triggered_by_the_ussr_how_i_learned_to_defcon_one_makes_the_ussr_lose():
    state = pos(hands={"ussr": ["grain_sales_to_soviets", "how_i_learned_to_stop_worrying"]}, defcon=3)
    play(state, "card:grain_sales_to_soviets", "use:influence:event_first",
         "card:how_i_learned_to_stop_worrying", "choice:play", "use:event")
    assert step(state) == "how_i_learned_to_stop_worrying" and who(state) == "us"
    play(state, "choice:defcon_1")
    assert state.outcome.winner == "us" and state.outcome.termination == B.DEFCON_1  # the USSR was phasing


# -- #77 "Ask Not What Your Country Can Do For You" -----------------------------------------------


def test_ask_not_discards_without_events_then_draws_as_many_seen_by_the_us_only():
    state = pos(phasing="us", hands={"us": ["ask_not_what_your_country_can_do_for_you", "asia_scoring", "fidel",
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


def test_ask_not_reshuffles_the_discard_pile_when_the_deck_runs_out():
    state = pos(phasing="us", hands={"us": ["ask_not_what_your_country_can_do_for_you", "fidel", "nasser"]})
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


def test_ask_not_with_no_discard_draws_nothing():
    state = pos(phasing="us", hands={"us": ["ask_not_what_your_country_can_do_for_you", "fidel"]})
    deck = state.deck
    play(state, "card:ask_not_what_your_country_can_do_for_you", "use:event", "done")
    assert state.hands[US] == (card("fidel"),) and state.deck == deck
    assert step(state) == "action_round" and who(state) == "ussr"


# -- #80 "One Small Step..." -------------------------------------------------------------------------------


def test_one_small_step_two_boxes_with_only_the_second_boxs_vp():
    state = pos(hands={"ussr": ["one_small_step"]})
    state.space = [0, 2]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [2, 2] and state.vp == 0  # box 1's VP (second: 1) are skipped; box 2: 0
    assert state.space_attempts == [0, 0] and state.discard == (card("one_small_step"),)
    state = pos(hands={"us": ["one_small_step"]}, phasing="us")
    state.space = [4, 3]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [4, 5] and state.vp == 3  # Lunar Orbit first: 3 VP


def test_one_small_step_to_the_last_box_and_the_ability_of_a_box_passed():
    state = pos(hands={"ussr": ["one_small_step"]})
    state.space = [7, 8]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [8, 8] and state.vp == 0
    state = pos(hands={"ussr": ["one_small_step"]})
    state.space = [0, 1]
    play(state, "card:one_small_step", "use:event")
    assert state.space == [2, 1] and space_ability(state, 2) == USSR  # Animal in Space, passed first


def test_one_small_step_not_an_event_unless_strictly_behind():
    state = pos(hands={"ussr": ["one_small_step"]})
    state.space = [2, 2]
    assert not event_playable(state, card("one_small_step"), USSR)
    play(state, "card:one_small_step")
    assert "use:event" not in keys(state)
    state.space = [1, 2]
    assert event_playable(state, card("one_small_step"), USSR)
