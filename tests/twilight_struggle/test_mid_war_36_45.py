"""Mid War events #36-45 (events/mid_war_36_59.py): a scenario per card and branch, against
cards.md §4/§5/§6/§8 (#46-59 in test_mid_war_46_59.py)."""

from __future__ import annotations

from kits.ts_positions import (
    GAME, SIDE, card, history, influence, keys, play, position, proves, run_event, spare_position, step,
    who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import hooks as H
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.events import EVENTS, mid_war_36_59, mid_war_60_108
from standoff.server.games.twilight_struggle.events.primitives import CHOICES

US, USSR = SIDE["us"], SIDE["ussr"]
DIE = [f"die:{n}" for n in range(1, 7)]
MID_B_CARDS = (36, 39, 45, 47, 48, 51, 52, 53, 54, 55, 56, 57, 59, 60, 61)


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


def test_steps_hooks_and_choices_are_wired():
    for s in mid_war_36_59.STEPS:
        assert G.STEPS[s.name] is s
    for name in ("cancel_missile_crisis", "missile_crisis_coup", "trap_discard", "salt_negotiations",
                 "how_i_learned_to_stop_worrying", "missile_envy", "missile_envy_ops", "we_will_bury_you"):
        assert CHOICES[name].__module__ == mid_war_36_59.__name__
    assert CHOICES["grain_sales_to_soviets"].__module__ == mid_war_60_108.__name__
    hooks = [h for h in H.ACTION_ROUND_HOOKS if h.__module__ == mid_war_36_59.__name__]
    assert hooks == [mid_war_36_59._offer_cancel, mid_war_36_59._bury_you_round, mid_war_36_59._trap_round]
    assert mid_war_36_59._restrict_cards in H.CARD_FILTERS and mid_war_36_59._restrict_uses in H.USE_FILTERS
    assert mid_war_36_59._after_round in H.AFTER_ROUND_HOOKS
    assert mid_war_36_59._offer_cancel_for_ops in H.EVENT_OPS_HOOKS
    assert mid_war_36_59._offer_cancel_before_coup in H.BEFORE_COUP_HOOKS


# -- #36 Brush War ---------------------------------------------------------------------------------


@proves("brush_war")
def test_brush_war_ussr_attacks_mexico_superpower_space_and_neighbour_count_and_wins():
    # Guatemala US-controlled (-1) and the USA space (-1): modifier 2; 5 - 2 = 3 wins.
    state = pos(setup_influence=False, influence={"mexico": (2, 0), "guatemala": (1, 0)})
    run_event(state, "brush_war", "ussr")
    assert step(state) == "brush_war" and who(state) == "ussr"
    assert "country:mexico" in keys(state) and "country:cuba" not in keys(state)  # Cuba: stability 3
    play(state, "country:mexico")
    assert state.milops == [3, 0]  # credited before the roll
    assert keys(state) == DIE
    play(state, "die:5")
    assert influence(state, "mexico") == (0, 2)
    assert state.vp == -1 and state.milops == [3, 0] and state.defcon == 5
    assert step(state) == "action_round"


@proves("brush_war")
def test_brush_war_ussr_attacks_mexico_and_loses():
    state = pos(setup_influence=False, influence={"mexico": (2, 0), "guatemala": (1, 0)})
    run_event(state, "brush_war", "ussr", "country:mexico", "die:4")  # 4 - 2 = 2
    assert influence(state, "mexico") == (2, 0)
    assert state.vp == 0 and state.milops == [3, 0]


@proves("brush_war")
def test_brush_war_played_by_the_us_against_afghanistan_from_hand():
    # USSR space (-1) and USSR-controlled Iran (-1): 5 - 2 = 3 wins 1 VP.
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, setup_influence=False,
                influence={"afghanistan": (0, 1), "iran": (0, 2)})
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:5")
    assert influence(state, "afghanistan") == (1, 0)
    assert state.vp == 1 and state.milops == [0, 3]
    assert state.discard == (card("brush_war"),) and state.removed == ()
    assert step(state) == "action_round"


def test_brush_war_targets_any_stability_one_or_two_country_even_without_influence_or_defcon():
    state = pos(setup_influence=False, defcon=2)
    run_event(state, "brush_war", "ussr")
    offered = keys(state)
    assert offered == [f"country:{c.id}" for c in M.COUNTRIES if c.stability <= 2]
    assert {"country:lebanon", "country:italy", "country:afghanistan"} <= set(offered)  # no DEFCON bans


def test_brush_war_nato_shields_us_controlled_europe_from_the_ussr_only():
    inf = {"italy": (2, 0), "greece": (1, 1), "turkey": (0, 2)}
    state = pos(effects=["nato"], influence=inf)
    run_event(state, "brush_war", "ussr")
    assert "country:italy" not in keys(state)  # US-controlled, NATO
    assert {"country:greece", "country:turkey", "country:spain_portugal"} <= set(keys(state))
    # Without NATO Italy is a target.
    state = pos(influence=inf)
    run_event(state, "brush_war", "ussr")
    assert "country:italy" in keys(state)
    # NATO does not limit the US.
    state = pos(phasing="us", effects=["nato"], influence={"italy": (0, 2)})
    run_event(state, "brush_war", "us")
    assert "country:italy" in keys(state)


# -- wiring ----------------------------------------------------------------------------------------


def test_cards_steps_choices_and_hooks_are_registered_once():
    for n in MID_B_CARDS:
        spec = EVENTS[n]
        module = mid_war_36_59 if n < 60 else mid_war_60_108
        assert spec.fn.__module__ == module.__name__ and spec.fn.__doc__
    for s in mid_war_36_59.STEPS:
        assert G.STEPS[s.name] is s
    for name in ("brush_war", "summit_defcon", "junta", "south_african_unrest", "muslim_revolution"):
        assert CHOICES[name].__module__ == mid_war_36_59.__name__
    assert H.AFTER_EVENT_HOOKS.count(mid_war_36_59.flower_power_event_hook) == 1
    assert H.AFTER_EVENT_HOOKS.count(mid_war_60_108.u2_incident_hook) == 1
    assert H.OPERATIONS_HOOKS.count(mid_war_36_59.flower_power_operations_hook) == 1


# -- #39 Arms Race ---------------------------------------------------------------------------------


@proves("arms_race")
def test_arms_race_one_vp_when_ahead_but_below_defcon():
    state = pos(defcon=4)
    state.milops = [3, 1]
    run_event(state, "arms_race", "ussr")
    assert state.vp == -1


@proves("arms_race")
def test_arms_race_three_vp_when_ahead_and_at_least_defcon_instead_of_one():
    state = pos(phasing="us", hands={"us": ["arms_race", "nuclear_test_ban"]}, defcon=3)
    state.milops = [1, 3]
    play(state, "card:arms_race", "use:event")
    assert state.vp == 3 and state.milops == [1, 3]
    assert state.discard == (card("arms_race"),)


@proves("arms_race")
def test_arms_race_nothing_when_not_strictly_ahead():
    state = pos(defcon=2)
    state.milops = [2, 2]
    run_event(state, "arms_race", "ussr")
    assert state.vp == 0
    state = pos(defcon=2)
    state.milops = [1, 4]
    run_event(state, "arms_race", "ussr")
    assert state.vp == 0


@proves("arms_race")
def test_arms_race_is_judged_for_the_phasing_player():
    state = pos(phasing="ussr", defcon=2)
    state.milops = [2, 0]
    run_event(state, "arms_race", "us")  # carried out by the US in the USSR's round
    assert state.vp == -3


# -- #40 Cuban Missile Crisis ------------------------------------------------------------------------


@proves("cuban_missile_crisis")
def test_cuban_missile_crisis_sets_defcon_two_and_restricts_the_opponent_for_the_turn():
    state = spare_pos(hands={"ussr": ["cuban_missile_crisis"]}, defcon=4)
    play(state, "card:cuban_missile_crisis", "use:event")
    assert state.defcon == 2
    assert "cuban_missile_crisis:us:turn" in state.effects
    assert "cuban_missile_crisis:ussr:turn" not in state.effects
    assert state.removed == (card("cuban_missile_crisis"),)
    # The US has under 2 influence in West Germany and Turkey: no cancellation offer.
    assert step(state) == "action_round" and who(state) == "us"


@proves("cuban_missile_crisis")
def test_cuban_missile_crisis_raises_defcon_to_two_as_well():
    state = spare_pos(hands={"us": ["cuban_missile_crisis"]}, phasing="us", defcon=5, influence={"cuba": (0, 1)})
    play(state, "card:cuban_missile_crisis", "use:event")
    assert state.defcon == 2 and "cuban_missile_crisis:ussr:turn" in state.effects
    assert step(state) == "action_round"  # 1 in Cuba: the USSR cannot cancel


def test_cuban_missile_crisis_coup_by_the_restricted_side_loses_even_in_a_non_battleground():
    state = spare_pos(phasing="us", hands={"us": ["duck_and_cover"]}, defcon=2, effects=["cuban_missile_crisis:us:turn"],
                      influence={"west_germany": (2, 0), "turkey": (1, 0), "sudan": (0, 1)})
    assert step(state) == "cancel_missile_crisis" and who(state) == "us"
    assert keys(state) == ["choice:west_germany", "choice:keep"]
    play(state, "choice:keep")
    assert step(state) == "action_round" and "cuban_missile_crisis:us:turn" in state.effects
    play(state, "card:duck_and_cover", "use:coup", "country:sudan")
    # The last moment to cancel ("at any moment"): kept, the coup is made and loses.
    assert step(state) == "missile_crisis_coup" and keys(state) == ["choice:west_germany", "choice:keep"]
    play(state, "choice:keep", "die:6")
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.MISSILE_CRISIS


def test_cuban_missile_crisis_us_cancels_by_removing_two_from_turkey_then_coups_safely():
    state = spare_pos(phasing="us", hands={"us": ["duck_and_cover"]}, defcon=2, effects=["cuban_missile_crisis:us:turn"],
                      influence={"west_germany": (1, 0), "turkey": (3, 0), "sudan": (0, 1)})
    assert keys(state) == ["choice:turkey", "choice:keep"]
    play(state, "choice:turkey")
    assert influence(state, "turkey") == (1, 0)
    assert "cuban_missile_crisis:us:turn" not in state.effects
    play(state, "card:duck_and_cover", "use:coup", "country:sudan", "die:6")
    assert state.outcome is None
    assert influence(state, "sudan") == (6, 0)  # 6 + 3 − 2×1 = 7: 1 USSR removed, 6 US added
    assert state.defcon == 2 and state.milops[US] == 3  # Sudan is no battleground


@proves("cuban_missile_crisis")
def test_cuban_missile_crisis_ussr_cancels_only_from_cuba_at_the_start_of_its_round():
    state = spare_pos(phasing="us", hands={"us": ["cuban_missile_crisis"]}, defcon=3,
                      influence={"cuba": (0, 3), "west_germany": (0, 4)})
    play(state, "card:cuban_missile_crisis", "use:event")
    assert step(state) == "cancel_missile_crisis" and who(state) == "ussr"
    assert keys(state) == ["choice:cuba", "choice:keep"]
    play(state, "choice:cuba")
    assert influence(state, "cuba") == (0, 1) and "cuban_missile_crisis:ussr:turn" not in state.effects
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("cuban_missile_crisis")
def test_cuban_missile_crisis_offer_comes_back_each_round_and_ends_with_the_turn():
    state = spare_pos(phasing="us", hands={"us": ["cuban_missile_crisis", "truman_doctrine"], "ussr": ["comecon", "nasser"]},
                      defcon=3, influence={"cuba": (0, 2)})
    play(state, "card:cuban_missile_crisis", "use:event", "choice:keep", "card:comecon", "use:space", "die:6")
    play(state, "card:truman_doctrine", "use:influence", "country:uk")  # US action round 2
    assert step(state) == "cancel_missile_crisis" and who(state) == "ussr"  # USSR action round 2
    state = spare_pos(effects=["cuban_missile_crisis:ussr:turn"], rounds=0, end_turn=10)
    state.milops = [5, 5]
    GAME.decision(state)  # end of turn 5 → turn 6 deals
    assert state.turn == 6 and not any(e.startswith("cuban_missile_crisis") for e in state.effects)


# -- #41 Nuclear Subs ----------------------------------------------------------------------------------


@proves("nuclear_subs")
def test_nuclear_subs_us_battleground_coups_leave_defcon_but_ussr_coups_do_not():
    state = spare_pos(phasing="us", hands={"us": ["nuclear_subs", "duck_and_cover"]}, defcon=3,
                      influence={"angola": (0, 2)})
    play(state, "card:nuclear_subs", "use:event")
    assert "nuclear_subs:turn" in state.effects and state.removed == (card("nuclear_subs"),)
    play(state, "card:comecon", "use:coup", "country:panama", "die:1")  # USSR coup on a battleground
    assert state.defcon == 2
    play(state, "card:duck_and_cover", "use:coup", "country:angola", "die:2")
    # 2 + 3 − 2 = 3: 2 USSR removed, 1 US added; DEFCON stays at 2
    assert influence(state, "angola") == (1, 0) and state.defcon == 2 and state.outcome is None


# -- #42 Quagmire, #44 Bear Trap -------------------------------------------------------------------


@proves("quagmire")
def test_quagmire_traps_the_us_and_cancels_norad():
    state = spare_pos(hands={"ussr": ["quagmire"], "us": ["duck_and_cover", "truman_doctrine"]}, effects=["norad"])
    play(state, "card:quagmire", "use:event")
    assert "quagmire" in state.effects and "norad" not in state.effects
    assert state.removed == (card("quagmire"),)
    assert step(state) == "trap_discard" and who(state) == "us"
    assert keys(state) == ["choice:duck_and_cover"]  # Truman Doctrine: 1 Op
    play(state, "choice:duck_and_cover", "die:3")
    assert "quagmire" not in state.effects and "norad" not in state.effects  # NORAD stays cancelled


def test_quagmire_round_is_a_discard_of_two_ops_and_a_die_one_to_four_frees():
    state = spare_pos(phasing="us", hands={"us": ["duck_and_cover", "fidel", "truman_doctrine", "asia_scoring"]},
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
    assert step(state) == "action_round" and who(state) == "us"  # the next US round is normal:
    # its hand is offered (and by map.md §13 not the China Card, which would leave Asia Scoring
    # unplayed in the last round)
    assert keys(state)[:3] == ["card:asia_scoring", "card:duck_and_cover", "card:truman_doctrine"]


def test_quagmire_roll_of_five_keeps_the_trap_for_the_next_round():
    state = spare_pos(phasing="us", hands={"us": ["duck_and_cover", "fidel"]}, effects=["quagmire"])
    play(state, "choice:duck_and_cover", "die:5")
    assert "quagmire" in state.effects and state.discard == (card("duck_and_cover"),)
    play(state, "card:comecon", "use:space", "die:6")
    assert step(state) == "trap_discard" and keys(state) == ["choice:fidel"]
    play(state, "choice:fidel", "die:6")
    assert "quagmire" in state.effects and state.hands[US] == ()


def test_quagmire_without_a_two_ops_card_the_us_must_play_a_scoring_card_and_stays_trapped():
    state = spare_pos(phasing="us", hands={"us": ["truman_doctrine", "asia_scoring"]}, effects=["quagmire"])
    state.china, state.china_face_up = US, True
    us, ussr, _ = B.score_region(state, M.ASIA)
    assert step(state) == "action_round" and keys(state) == ["card:asia_scoring"]
    play(state, "card:asia_scoring", "use:event")
    assert state.vp == us - ussr
    assert "quagmire" in state.effects and state.hands[US] == (card("truman_doctrine"),)
    assert step(state) == "action_round" and who(state) == "ussr"


def test_quagmire_without_a_qualifying_card_or_scoring_card_skips_the_round():
    # Red Scare/Purge makes Fidel (2 Ops) worth 1: nothing qualifies, nothing to score.
    state = spare_pos(phasing="us", hands={"us": ["fidel", "truman_doctrine"]}, effects=["quagmire", "red_scare:us:turn"])
    assert step(state) == "action_round" and who(state) == "ussr"
    assert state.hands[US] == cards("fidel", "truman_doctrine") and state.discard == ()
    assert "quagmire" in state.effects


def test_quagmire_a_scoring_card_due_this_turn_is_played_before_the_trap_discard():
    # One US round left and one scoring card: it must be played now (cards.md §5.4).
    state = spare_pos(phasing="us", hands={"us": ["duck_and_cover", "asia_scoring"]}, effects=["quagmire"], rounds=2)
    assert step(state) == "action_round" and keys(state) == ["card:asia_scoring"]
    play(state, "card:asia_scoring", "use:event")
    assert "quagmire" in state.effects and state.hands[US] == (card("duck_and_cover"),)
    # Two US rounds left: the discard comes first.
    state = spare_pos(phasing="us", hands={"us": ["duck_and_cover", "asia_scoring"]}, effects=["quagmire"], rounds=4)
    assert step(state) == "trap_discard" and keys(state) == ["choice:duck_and_cover"]


def test_quagmire_survives_the_end_of_turn_but_not_the_headline():
    state = spare_pos(hands={"us": ["duck_and_cover"]}, effects=["quagmire", "salt:turn"], rounds=0, end_turn=10)
    state.milops = [5, 5]
    GAME.decision(state)  # end of turn 5, then turn 6 deals
    assert state.turn == 6 and step(state) == "deal"
    assert "quagmire" in state.effects and "salt:turn" not in state.effects
    # The headline is unaffected: the trapped US headlines normally, its event happens.
    state = spare_pos(hands={"us": ["nuclear_subs", "duck_and_cover"], "ussr": ["vietnam_revolts", "comecon"]},
                      effects=["quagmire"])
    state.stack = [("end_turn",), ("action_round", 1, US), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:vietnam_revolts")
    assert keys(state) == ["card:duck_and_cover", "card:nuclear_subs"]
    play(state, "card:nuclear_subs")
    assert "nuclear_subs:turn" in state.effects and "vietnam_revolts:turn" in state.effects
    play(state, "card:comecon", "use:space", "die:6")
    assert step(state) == "trap_discard"  # action rounds are trapped again


def test_quagmire_discard_must_be_an_owed_missile_envy():
    state = spare_pos(phasing="us", hands={"us": ["missile_envy", "duck_and_cover"]}, effects=["quagmire", "missile_envy:us"])
    assert keys(state) == ["choice:missile_envy"]
    play(state, "choice:missile_envy", "die:6")
    assert "missile_envy:us" not in state.effects and "quagmire" in state.effects
    assert state.discard == (card("missile_envy"),)


@proves("bear_trap")
def test_bear_trap_traps_the_ussr():
    state = spare_pos(phasing="us", hands={"us": ["bear_trap", "truman_doctrine"], "ussr": ["comecon", "nasser"]})
    play(state, "card:bear_trap", "use:event")
    assert "bear_trap" in state.effects and state.removed == (card("bear_trap"),)
    assert step(state) == "trap_discard" and who(state) == "ussr" and keys(state) == ["choice:comecon"]
    play(state, "choice:comecon", "die:1")
    assert "bear_trap" not in state.effects and state.discard == (card("comecon"),)
    assert step(state) == "action_round" and who(state) == "us"


def test_bear_trap_brezhnev_lets_a_one_op_card_qualify_otherwise_a_scoring_card_is_forced():
    state = spare_pos(hands={"ussr": ["nasser", "europe_scoring"]}, effects=["bear_trap", "brezhnev_doctrine:turn"])
    assert step(state) == "trap_discard" and keys(state) == ["choice:nasser"]
    play(state, "choice:nasser", "die:6")
    assert "bear_trap" in state.effects and state.hands[USSR] == (card("europe_scoring"),)
    state = spare_pos(hands={"ussr": ["nasser", "europe_scoring"]}, effects=["bear_trap"])
    assert step(state) == "action_round" and keys(state) == ["card:europe_scoring"]


# -- #43 SALT Negotiations ----------------------------------------------------------------------------


@proves("salt_negotiations")
def test_salt_raises_defcon_by_two_and_lets_the_player_take_a_non_scoring_discard():
    state = spare_pos(hands={"ussr": ["salt_negotiations"]}, defcon=2)
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


@proves("salt_negotiations")
def test_salt_defcon_never_above_five_and_taking_nothing():
    state = spare_pos(hands={"us": ["salt_negotiations"]}, phasing="us", defcon=4)
    state.discard = (card("fidel"),)
    play(state, "card:salt_negotiations", "use:event", "choice:none")
    assert state.defcon == 5 and state.discard == (card("fidel"),) and state.hands[US] == ()
    state = spare_pos(hands={"us": ["salt_negotiations"]}, phasing="us", defcon=3)
    play(state, "card:salt_negotiations", "use:event")  # empty discard pile: no question
    assert state.defcon == 5 and step(state) == "action_round" and who(state) == "ussr"


def test_salt_takes_one_from_every_coup_roll_this_turn():
    state = spare_pos(effects=["salt:turn"], influence={"sudan": (4, 0)})
    play(state, "card:comecon", "use:coup", "country:sudan", "die:3")
    assert influence(state, "sudan") == (1, 0)  # 3 + 3 − 1 − 2×1 = 3
    assert state.milops[USSR] == 3


# -- #45 Summit ------------------------------------------------------------------------------------

SUMMIT_BOARD = {
    # USSR: Europe domination (East Germany bg + Czechoslovakia, Finland), Middle East domination
    # (Iraq bg + Jordan), Asia domination via Southeast Asia (Thailand bg + Laos/Cambodia): 3.
    "east_germany": (0, 3), "czechoslovakia": (0, 3), "finland": (0, 4),
    "iraq": (0, 3), "jordan": (0, 2), "thailand": (0, 2), "laos_cambodia": (0, 1),
    # US: Central America control (Mexico, Cuba, Panama: every battleground): 1; South America
    # presence only (Chile): 0.
    "mexico": (2, 0), "cuba": (3, 0), "panama": (2, 0), "chile": (3, 0),
}


def test_summit_counts_each_region_dominated_or_controlled_once():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD)
    assert mid_war_36_59.summit_regions(state, USSR) == 3
    assert mid_war_36_59.summit_regions(state, US) == 1
    # Presence only (one battleground, no other country) is no domination.
    state = pos(setup_influence=False, influence={"chile": (3, 0), "iraq": (3, 0)})
    assert mid_war_36_59.summit_regions(state, US) == 0


@proves("summit")
def test_summit_tie_does_nothing():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr")
    assert GAME.decision(state).role == "chance" and keys(state) == DIE
    play(state, "die:2", "die:4")  # USSR 2 + 3 = 5, US 4 + 1 = 5
    assert state.vp == 0 and state.defcon == 3
    assert step(state) == "action_round"


@proves("summit")
def test_summit_winner_gains_two_vp_and_raises_defcon():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr", "die:3", "die:1")  # 6 against 2
    assert state.vp == -2
    assert step(state) == "summit_defcon" and who(state) == "ussr"
    assert keys(state) == ["choice:raise_defcon", "choice:lower_defcon", "choice:leave_defcon"]
    play(state, "choice:raise_defcon")
    assert state.defcon == 4 and step(state) == "action_round"


@proves("summit")
def test_summit_winner_lowers_defcon():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr", "die:3", "die:1", "choice:lower_defcon")
    assert state.defcon == 2 and state.vp == -2 and state.outcome is None


@proves("summit")
def test_summit_us_wins_and_leaves_defcon():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr", "die:1", "die:6")  # USSR 4, US 7
    assert state.vp == 2 and who(state) == "us"
    play(state, "choice:leave_defcon")
    assert state.defcon == 3 and step(state) == "action_round"


def test_summit_no_raise_offered_at_defcon_five():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=5)
    run_event(state, "summit", "ussr", "die:6", "die:1")
    assert keys(state) == ["choice:lower_defcon", "choice:leave_defcon"]


@proves("summit")
def test_summit_non_phasing_winner_drops_defcon_to_one_and_the_phasing_player_loses():
    state = pos(phasing="ussr", hands={"ussr": ["summit", "allende"]}, setup_influence=False,
                influence=SUMMIT_BOARD, defcon=2)
    play(state, "card:summit", "use:event", "die:1", "die:6", "choice:lower_defcon")
    assert state.defcon == 1
    assert state.outcome.winner == "us" and state.outcome.termination == "defcon"


# -- more proofs (the card audit: a test resolves the event and asserts on its effect) ------------


@proves("cuban_missile_crisis")
def test_cuban_missile_crisis_event_then_the_opponents_coup_loses_the_game():
    state = spare_pos(hands={"ussr": ["cuban_missile_crisis"], "us": ["duck_and_cover"]}, defcon=5,
                      influence={"sudan": (0, 1)})
    play(state, "card:cuban_missile_crisis", "use:event")
    assert state.defcon == 2 and step(state) == "action_round" and who(state) == "us"
    play(state, "card:duck_and_cover", "use:coup", "country:sudan", "die:6")  # not even a battleground
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.MISSILE_CRISIS


@proves("salt_negotiations")
def test_salt_event_then_every_coup_roll_this_turn_loses_one():
    state = spare_pos(hands={"ussr": ["salt_negotiations"], "us": ["duck_and_cover"]}, defcon=3,
                      influence={"sudan": (0, 2)})
    play(state, "card:salt_negotiations", "use:event")  # empty discard pile: nothing to take
    assert state.defcon == 5 and step(state) == "action_round" and who(state) == "us"
    play(state, "card:duck_and_cover", "use:coup", "country:sudan", "die:3")
    # 3 + 3 Ops - 1 (SALT) - 2 x stability 1 = 3: 2 USSR removed, 1 US added (without SALT: 2 US)
    assert influence(state, "sudan") == (1, 0)
    assert state.milops[US] == 3


@proves("nuclear_subs")
def test_nuclear_subs_ends_with_the_turn():
    state = spare_pos(phasing="us", hands={"us": ["nuclear_subs"]}, rounds=1, end_turn=10)
    state.milops = [5, 5]
    play(state, "card:nuclear_subs", "use:event")
    assert state.turn == 6 and "nuclear_subs:turn" not in state.effects
    assert state.removed == (card("nuclear_subs"),)


@proves("cuban_missile_crisis", "lone_gunman")
def test_cuban_missile_crisis_restricted_ussr_may_cancel_during_the_us_round_before_a_granted_coup():
    state = spare_pos(phasing="us", hands={"us": ["cuban_missile_crisis", "lone_gunman", "nato"]}, defcon=4,
                      influence={"cuba": (0, 3), "sudan": (1, 0)}, rounds=6)
    play(state, "card:cuban_missile_crisis", "use:event")  # the USSR is restricted; DEFCON 2
    assert "cuban_missile_crisis:ussr:turn" in state.effects
    play(state, "choice:keep", "card:comecon", "use:space", "die:6")  # the USSR keeps it for now
    play(state, "card:lone_gunman", "use:influence:event_first")  # the USSR gets 1 Op in the US round
    # Before spending it, the USSR may remove 2 influence from Cuba to end the crisis, then coup.
    assert step(state) == "cancel_missile_crisis" or "choice:cuba" in keys(state)
    play(state, "choice:cuba")
    assert influence(state, "cuba") == (0, 1) and "cuban_missile_crisis:ussr:turn" not in state.effects
    # The granted Op now coups safely (Sudan, stability 1: 6 + 1 - 2 = 5: the US 1 out, 4 USSR in).
    assert step(state) == "event_ops" and "use:coup" in keys(state)
    play(state, "use:coup", "country:sudan", "die:6")
    assert state.outcome is None and influence(state, "sudan") == (0, 4)


def _ortega_for_the_us_under_the_crisis():
    """Turn 8, the US's round, the USSR restricted (DEFCON 2, 2 USSR influence in Cuba): the US plays
    Ortega Elected in Nicaragua (a USSR event, cards.md #91: "the USSR may make one free coup attempt,
    using this card's Operations value, against a country adjacent to Nicaragua") for Operations, its
    event first. The USSR takes the free coup in Honduras (stability 2, no battleground)."""
    state = spare_pos(turn=8, phasing="us", hands={"us": ["ortega_elected_in_nicaragua"]}, defcon=2,
                      effects=["cuban_missile_crisis:ussr:turn"], influence={"cuba": (0, 2), "honduras": (1, 0)})
    play(state, "card:ortega_elected_in_nicaragua", "use:influence:event_first", "choice:coup", "country:honduras")
    return state


@proves("ortega_elected_in_nicaragua")
def test_cuban_missile_crisis_ussr_cancels_in_the_us_round_before_an_event_s_free_coup():
    """cards.md #40: the restricted side "may cancel the effect at any moment by removing 2 of its own
    influence: the USSR from Cuba"; "Cancelling is allowed at any time, including during the
    opponent's action round". Asked once the coup is chosen, before its die; cancelled, the free coup
    is safe: 6 + 2 Ops - 2 x 2 = 4: the US 1 out, 3 USSR in."""
    state = _ortega_for_the_us_under_the_crisis()
    assert step(state) == "missile_crisis_coup" and who(state) == "ussr" and state.phasing == US
    assert keys(state) == ["choice:cuba", "choice:keep"]
    play(state, "choice:cuba", "die:6")
    assert state.outcome is None
    assert influence(state, "cuba") == (0, 0) and "cuban_missile_crisis:ussr:turn" not in state.effects
    assert influence(state, "honduras") == (0, 3)
    assert step(state) == "influence" and who(state) == "us"  # the US round goes on: Ortega's Operations


def test_cuban_missile_crisis_kept_the_restricted_side_s_coup_in_the_opponent_s_round_loses():
    """cards.md #40 notes: "The player under the crisis loses the moment they choose to coup, even via
    an opponent's card that grants them a coup" (the USSR here, though the US is phasing)."""
    state = _ortega_for_the_us_under_the_crisis()
    play(state, "choice:keep", "die:6")
    assert state.outcome.winner == "us" and state.outcome.termination == B.MISSILE_CRISIS
    assert influence(state, "cuba") == (0, 2) and influence(state, "honduras") == (1, 0)  # no coup happened


@proves("tear_down_this_wall")
def test_cuban_missile_crisis_us_cancels_from_turkey_in_the_ussr_round_before_a_free_coup():
    """cards.md #40: the US cancels by removing 2 "from West Germany or from Turkey (2 from the same
    country)", here in the USSR's round: the USSR plays "Tear Down This Wall" (a US event, cards.md
    #96: a free coup in Europe "using this card's Operations value", 3) for Operations, event first.
    Austria (stability 4, no battleground): 6 + 3 - 2 x 4 = 1: 1 USSR influence out."""
    state = spare_pos(turn=8, phasing="ussr", hands={"ussr": ["tear_down_this_wall"]}, defcon=2,
                      effects=["cuban_missile_crisis:us:turn"],
                      influence={"west_germany": (2, 0), "turkey": (3, 0), "austria": (0, 2)})
    play(state, "card:tear_down_this_wall", "use:influence:event_first", "choice:coup", "country:austria")
    assert step(state) == "missile_crisis_coup" and who(state) == "us" and state.phasing == USSR
    assert keys(state) == ["choice:west_germany", "choice:turkey", "choice:keep"]
    play(state, "choice:turkey", "die:6")
    assert state.outcome is None and "cuban_missile_crisis:us:turn" not in state.effects
    assert influence(state, "turkey") == (1, 0) and influence(state, "west_germany") == (2, 0)
    assert influence(state, "austria") == (0, 1)
    assert step(state) == "influence" and who(state) == "ussr"


def test_cuban_missile_crisis_cancel_is_not_offered_without_two_influence_to_remove():
    """With 1 influence in Cuba the USSR cannot pay the price: its coup is asked no question and
    loses (cards.md #40)."""
    state = spare_pos(turn=8, phasing="us", hands={"us": ["ortega_elected_in_nicaragua"]}, defcon=2,
                      effects=["cuban_missile_crisis:ussr:turn"], influence={"cuba": (0, 1), "honduras": (1, 0)})
    play(state, "card:ortega_elected_in_nicaragua", "use:influence:event_first", "choice:coup", "country:honduras")
    assert step(state) == "die"
    play(state, "die:6")
    assert state.outcome.winner == "us" and state.outcome.termination == B.MISSILE_CRISIS


@proves("cuban_missile_crisis", "junta")
def test_cuban_missile_crisis_headlined_the_other_headline_s_free_coup_may_cancel_it_first():
    """Headlines (map.md §11): the US's Cuban Missile Crisis (3 Ops) resolves before the USSR's
    Junta (2 Ops); the USSR, restricted at once, may still cancel "at any moment" (cards.md #40)
    before Junta's free coup (Honduras, stability 2, no battleground: 6 + 2 - 2 x 2 = 4)."""
    state = spare_pos(hands={"ussr": ["junta"], "us": ["cuban_missile_crisis"]}, defcon=4,
                      influence={"cuba": (0, 2), "honduras": (1, 0)})
    state.stack.append(("headline",))
    play(state, "card:junta", "card:cuban_missile_crisis")
    assert state.defcon == 2 and "cuban_missile_crisis:ussr:turn" in state.effects
    play(state, "country:guatemala", "choice:coup", "country:honduras")
    assert step(state) == "missile_crisis_coup" and who(state) == "ussr"
    play(state, "choice:cuba", "die:6")
    assert state.outcome is None and influence(state, "honduras") == (0, 3) and influence(state, "cuba") == (0, 0)
    assert step(state) == "action_round" and who(state) == "ussr"  # nothing left to cancel
