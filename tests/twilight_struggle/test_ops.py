"""Operations (ops.py): influence placement, realignment rolls, coups, DEFCON limits, The China
Card's bonus and the space race (map.md §5, §7, §8 are the reference)."""

from __future__ import annotations

from kits.ts_positions import GAME, choose, country, influence, keys, play, position

from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import NOBODY, US, USSR


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


def test_chinese_civil_war_claims_the_china_card_with_three_influence():
    from standoff.server.games.twilight_struggle.rules import make_rules

    state = position(hands={"ussr": ["comecon"]})
    state.rules = make_rules(None, {"end_turn": "3", "chinese_civil_war": "on"})
    state.china = NOBODY
    play(state, "card:comecon", "use:influence", "country:chinese_civil_war",
         "country:chinese_civil_war", "country:chinese_civil_war")
    assert state.china == USSR and state.china_face_up
