"""Turns, claims and their proofs, game ends, draws and rulesets (rules digest §2, §4, §7)."""

from __future__ import annotations

import random

import pytest
from kits.st_positions import (
    GAME,
    card,
    check_consistent,
    choose,
    finish_turn,
    hand,
    keys,
    position,
)

from standoff.server.core.flow import iter_history
from standoff.server.core.game import CHANCE, RulesError
from standoff.server.games.schotten_totten import steps
from standoff.server.local import chance_rng, sample_chance

P1, P2 = 0, 1


def claimable(state, role=P1) -> list[int]:
    """1-based flags ``role`` can prove now."""
    return [f + 1 for f in steps.claimable_flags(state, role)]


# -- claim proofs: the table only (§4) ---------------------------------------------------------

#: p1 holds a red 7-8-9 wedge (24); p2 has blue 9 and 10: only blue-8 beats it (8-9-10, 27).
WEDGE_VS_TWO = {1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-9", "blue-10"]}}


def test_wedge_is_not_provable_while_the_beating_troop_is_in_the_deck():
    state = position(flags=WEDGE_VS_TWO, hands={"p1": ["green-1"], "p2": ["green-2"]})
    assert card("blue-8") in state.decks[0]
    assert claimable(state) == []


def test_beating_troop_in_my_own_hand_still_refutes_the_claim():
    state = position(flags=WEDGE_VS_TWO, hands={"p1": ["blue-8"], "p2": ["green-2"]})
    assert claimable(state) == []


def test_beating_troop_in_the_opponents_hand_refutes_the_claim():
    state = position(flags=WEDGE_VS_TWO, hands={"p1": ["green-1"], "p2": ["blue-8"]})
    assert claimable(state) == []


def test_beating_troop_put_back_by_scout_is_still_unseen():
    state = position(flags=WEDGE_VS_TWO, decks={"troops": ["green-3"]})
    state.tops[0] = ((card("blue-8"), P1),)
    state.discards[1] = tuple(c for c in state.discards[1] if c != card("blue-8"))
    state.table &= ~(1 << card("blue-8"))
    check_consistent(state)
    assert claimable(state) == []


@pytest.mark.parametrize("where", ["flag", "discard"])
def test_wedge_is_provable_once_the_beating_troop_is_on_the_table(where):
    if where == "flag":
        state = position(flags={**WEDGE_VS_TWO, 5: {"p2": ["blue-8"]}})
    else:
        state = position(flags=WEDGE_VS_TWO, discards={"p1": ["blue-8"]})
    assert claimable(state) == [1]


def test_an_equal_completion_still_loses_to_the_side_complete_first():
    # red 8-9-10 (27): blue-8 only ties it, and p1 completed first.
    flags = {1: {"p1": ["red-8", "red-9", "red-10"], "p2": ["blue-9", "blue-10"]}}
    assert claimable(position(flags=flags)) == [1]


def test_unplayed_tactics_in_hands_are_ignored():
    # Alexander or the Companion would give p2 blue 8-9-10, but tactics in hand do not count.
    state = position(
        flags={**WEDGE_VS_TWO, 5: {"p2": ["blue-8"]}},
        hands={"p1": ["darius"], "p2": ["alexander", "companion-cavalry"]},
    )
    assert claimable(state) == [1]


def test_morale_card_already_at_the_flag_counts():
    with_cavalry = {1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["companion-cavalry", "blue-9"]}}
    # blue-10 unseen: 8(cavalry)-9-10 is a wedge of 27 > 24
    assert claimable(position(flags=with_cavalry)) == []
    # the same with a plain green-8: no wedge for p2 any more
    with_troop = {1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["green-8", "blue-9"]}}
    assert claimable(position(flags=with_troop)) == [1]


def test_fog_already_at_the_flag_counts():
    # Without Fog the wedge beats any 10-10-x; under Fog only sums count (10+10+10 > 24).
    flags = {1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-10", "green-10"]}}
    assert claimable(position(flags=flags)) == [1]
    assert claimable(position(flags=flags, fog={1: "p2"})) == []


def test_mud_already_at_the_flag_counts():
    three = {1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-1"]}}
    assert claimable(position(flags=three)) == [1]
    assert claimable(position(flags=three, mud={1: "p2"})) == []  # 3 of 4 cards
    four = {1: {"p1": ["red-7", "red-8", "red-9", "red-10"], "p2": ["blue-1"]}}
    assert claimable(position(flags=four, mud={1: "p2"})) == [1]


def test_complete_sides_of_equal_strength_go_to_the_side_completed_first():
    flags = {1: {"p1": ["red-1", "red-2", "red-3"], "p2": ["blue-1", "blue-2", "blue-3"]}}
    p1_first = position(flags=flags)
    assert (claimable(p1_first, P1), claimable(p1_first, P2)) == ([1], [])
    p2_first = position(flags=flags, placed={(1, "p2"): [1, 2, 3], (1, "p1"): [4, 5, 6]})
    assert (claimable(p2_first, P1), claimable(p2_first, P2)) == ([], [1])


def test_completion_time_is_the_number_of_the_decision_that_brought_the_last_card():
    state = position(
        flags={1: {"p1": ["red-1", "red-2"], "p2": ["blue-1", "blue-2", "blue-3"]}},
        hands={"p1": ["red-3", "green-9"]},
    )
    choose(GAME, state, "card:red-3")
    decision = choose(GAME, state, "flag:1")
    assert state.completed_at(0, P1) == state.number
    assert state.completed_at(0, P2) == 5
    # p1 completed last with an equal wedge: no claim is offered, p2 can prove the flag.
    assert decision.step == "draw"
    assert claimable(state, P2) == [1]


def test_side_that_lost_a_card_and_regained_one_gets_the_new_time():
    # Two hosts of 15; p2 completed first (times 1-3) and would win the tie.
    state = position(
        flags={
            1: {"p1": ["red-1", "orange-5", "yellow-9"], "p2": ["blue-1", "green-5", "purple-9"]}
        },
        placed={(1, "p2"): [1, 2, 3], (1, "p1"): [4, 5, 6]},
        hands={"p1": ["traitor", "red-2"], "p2": ["blue-9", "green-2"]},
        decks={"troops": ["red-3", "red-4", "red-5", "red-6"], "tactics": []},
    )
    assert claimable(state, P2) == [1]
    choose(GAME, state, "card:traitor")
    choose(GAME, state, "card:purple-9")
    choose(GAME, state, "flag:2")
    assert state.completed_at(0, P2) is None
    finish_turn(GAME, state)
    choose(GAME, state, "card:blue-9")
    choose(GAME, state, "flag:1")
    assert state.completed_at(0, P2) == state.number > state.completed_at(0, P1)
    assert claimable(state, P2) == []
    assert claimable(state, P1) == [1]


def test_claim_is_valid_when_fewer_unseen_troops_remain_than_the_opponent_needs():
    flags = {1: {"p1": ["red-1", "orange-5", "yellow-9"]}}
    empty = {"troops": [], "tactics": []}
    two_left = position(flags=flags, decks=empty, hands={"p1": ["blue-10"], "p2": ["green-10"]})
    assert claimable(two_left) == [1]
    three_left = position(
        flags=flags, decks=empty, hands={"p1": ["blue-10"], "p2": ["green-10", "purple-10"]}
    )
    assert claimable(three_left) == []  # three 10s would make 30 > 15


# -- explain_claim ---------------------------------------------------------------------------


def test_explain_claim_names_a_beating_completion():
    state = position(flags=WEDGE_VS_TWO)
    reason = GAME.explain_claim(state, "p1", 1)
    assert reason is not None and "blue-8" in reason and "p2" in reason


def test_explain_claim_says_when_the_opponents_complete_formation_is_stronger():
    flags = {1: {"p1": ["red-1", "orange-5", "yellow-9"], "p2": ["blue-1", "blue-2", "blue-3"]}}
    state = position(flags=flags)
    reason = GAME.explain_claim(state, "p1", 1)
    assert reason is not None and "stronger" in reason


def test_explain_claim_says_when_the_side_is_incomplete():
    state = position(flags={1: {"p1": ["red-1", "red-2"]}})
    reason = GAME.explain_claim(state, "p1", 1)
    assert reason is not None and "not complete" in reason and "2 of 3" in reason
    mud = position(flags={1: {"p1": ["red-1", "red-2", "red-3"]}}, mud={1: "p1"})
    assert "3 of 4" in GAME.explain_claim(mud, "p1", 1)


def test_explain_claim_says_when_the_flag_is_already_claimed():
    state = position(flags={1: {"p1": ["red-1", "red-2", "red-3"]}}, claimed={1: "p2"})
    reason = GAME.explain_claim(state, "p1", 1)
    assert reason is not None and "already claimed" in reason and "p2" in reason


def test_explain_claim_is_none_for_a_provable_flag():
    flags = {1: {"p1": ["red-8", "red-9", "red-10"], "p2": ["blue-1", "green-2"]}}
    assert GAME.explain_claim(position(flags=flags), "p1", 1) is None


# -- the claim step and the end of the game ---------------------------------------------------

#: p1 can prove flag 3 (red 8-9-10 against two unrelated low cards).
PROVABLE_3 = {3: {"p1": ["red-8", "red-9", "red-10"], "p2": ["blue-1", "yellow-2"]}}


def test_claim_step_offers_only_provable_flags_and_done():
    state = position(
        step="claim",
        flags={
            **PROVABLE_3,
            1: {"p1": ["orange-1", "orange-2", "green-4"], "p2": ["blue-5"]},  # unprovable
            2: {"p1": ["purple-1"]},  # incomplete
        },
    )
    assert keys(GAME, state) == ["flag:3", "done"]


def test_claim_step_is_skipped_when_nothing_is_provable():
    state = position(step="claim", flags={1: {"p1": ["red-1"]}}, hands={"p1": ["red-2"]})
    assert GAME.decision(state).step == "draw"


def test_claim_step_allows_several_claims_then_done():
    state = position(
        step="claim",
        flags={**PROVABLE_3, 7: {"p1": ["orange-8", "orange-9", "orange-10"], "p2": ["blue-2"]}},
    )
    assert keys(GAME, state) == ["flag:3", "flag:7", "done"]
    choose(GAME, state, "flag:7")
    assert keys(GAME, state) == ["flag:3", "done"]
    assert state.claimed[6] == P1


@pytest.mark.parametrize("claimed", [{1: "p1", 2: "p1"}, {2: "p1", 4: "p1"}, {4: "p1", 5: "p1"}])
def test_breakthrough_ends_the_game_at_once(claimed):
    state = position(step="claim", flags=PROVABLE_3, claimed=claimed)
    assert choose(GAME, state, "flag:3") is None
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.termination) == ("p1", "breakthrough")
    assert outcome.scores == (1.0, 0.0)


def test_envelopment_ends_the_game_at_once():
    state = position(step="claim", flags=PROVABLE_3, claimed={1: "p1", 5: "p1", 7: "p1", 9: "p1"})
    assert choose(GAME, state, "flag:3") is None
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.termination) == ("p1", "envelopment")


def test_four_scattered_flags_do_not_end_the_game():
    state = position(step="claim", flags=PROVABLE_3, claimed={1: "p1", 5: "p1", 7: "p1"})
    assert choose(GAME, state, "flag:3") is not None
    assert GAME.outcome(state) is None


def test_flags_of_the_opponent_do_not_make_a_breakthrough():
    state = position(step="claim", flags=PROVABLE_3, claimed={1: "p2", 2: "p2", 4: "p1"})
    choose(GAME, state, "flag:3")
    assert GAME.outcome(state) is None


# -- claim timing ------------------------------------------------------------------------------

SEVEN = ["green-1", "green-2", "green-3", "green-4", "green-5", "purple-1", "purple-2"]


def timing_position(timing):
    return position(
        options={"claim_timing": timing}, step="turn", flags=PROVABLE_3, hands={"p1": SEVEN}
    )


def test_start_of_turn_claims_before_playing():
    state = timing_position("start_of_turn")
    decision = GAME.decision(state)
    assert (decision.role, decision.step) == ("p1", "claim")
    assert len(hand(state, "p1")) == 7


def test_after_play_claims_between_play_and_draw():
    state = timing_position("after_play")
    assert GAME.decision(state).step == "play"
    choose(GAME, state, "card:green-1")
    assert choose(GAME, state, "flag:1").step == "claim"
    assert len(hand(state, "p1")) == 6
    assert choose(GAME, state, "done").step == "draw"


def test_end_of_turn_draws_before_claiming():
    state = timing_position("end_of_turn")
    choose(GAME, state, "card:green-1")
    assert choose(GAME, state, "flag:1").step == "draw"
    decision = choose(GAME, state, "deck:troops")
    assert (decision.role, decision.step) == (CHANCE, "draw_card")
    GAME.apply(state, decision.options[0])
    decision = GAME.decision(state)
    assert (decision.role, decision.step) == ("p1", "claim")
    assert len(hand(state, "p1")) == 7


def test_classic_claims_at_the_start_of_the_turn():
    flags = {3: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-1", "yellow-2"]}}
    state = position("classic", step="turn", flags=flags, hands={"p1": SEVEN[:6]})
    assert GAME.decision(state).step == "claim"


# -- passing, stalemate, decision cap ------------------------------------------------------------


def test_pass_is_not_offered_while_a_troop_can_be_placed():
    state = position(hands={"p1": ["red-1", "fog"]})
    assert "pass" not in keys(GAME, state)


def test_pass_is_offered_when_the_hand_holds_no_troop():
    state = position(hands={"p1": ["fog"]})
    assert keys(GAME, state) == ["card:fog", "pass"]
    blocked = position(hands={"p1": ["fog"]}, tactics_played={"p1": 1})  # count rule
    assert keys(GAME, blocked) == ["pass"]


def test_pass_is_offered_when_no_unclaimed_flag_has_room():
    state = position(
        hands={"p1": ["red-1", "red-2"]},
        claimed={1: "p1", 2: "p2", 4: "p1", 5: "p2", 7: "p1", 8: "p2"},
        flags={
            3: {"p1": ["blue-1", "blue-2", "blue-3"]},
            6: {"p1": ["blue-4", "blue-5", "blue-6"]},
            9: {"p1": ["blue-7", "blue-8", "blue-9"]},
        },
    )
    assert keys(GAME, state) == ["pass"]


def stuck_position(**extra):
    """Both decks empty; p1 holds only a tactics card it may not play, p2 holds nothing."""
    return position(
        hands={"p1": ["scout"]},
        tactics_played={"p1": 1},
        decks={"troops": [], "tactics": []},
        **extra,
    )


def test_two_passes_in_succession_end_the_game_as_a_draw():
    state = stuck_position()
    choose(GAME, state, "pass")
    assert GAME.decision(state).role == "p2"
    assert choose(GAME, state, "pass") is None
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.termination, outcome.scores) == (None, "stalemate", (0.5, 0.5))


def test_stalemate_with_option_flags_goes_to_the_player_with_more_flags():
    state = stuck_position(options={"stalemate": "flags"}, claimed={4: "p2"})
    choose(GAME, state, "pass")
    choose(GAME, state, "pass")
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.termination) == ("p2", "stalemate")


def test_stalemate_with_option_flags_and_equal_flags_is_a_draw():
    state = stuck_position(options={"stalemate": "flags"}, claimed={4: "p2", 6: "p1"})
    choose(GAME, state, "pass")
    choose(GAME, state, "pass")
    assert GAME.outcome(state).winner is None


def test_no_stalemate_while_a_declined_claim_is_still_provable():
    state = stuck_position(flags=PROVABLE_3)
    assert choose(GAME, state, "pass").step == "claim"
    choose(GAME, state, "done")  # p1 declines the claim it could make
    choose(GAME, state, "pass")
    assert steps.claimable_flags(state, P1) == [2]
    assert GAME.outcome(state) is None


def test_a_pass_then_a_play_is_no_stalemate():
    state = position(hands={"p1": ["scout"], "p2": ["red-1"]}, tactics_played={"p1": 1},
                     decks={"troops": [], "tactics": []})
    choose(GAME, state, "pass")
    choose(GAME, state, "card:red-1")
    choose(GAME, state, "flag:1")
    assert GAME.outcome(state) is None
    assert keys(GAME, state) == ["pass"]  # p1 again


def test_decision_cap_ends_the_game_as_a_draw():
    state = position(options={"decision_cap": "100"}, hands={"p1": ["red-1"]})
    state.number = 100
    choose(GAME, state, "card:red-1")
    choose(GAME, state, "flag:1")
    while (decision := GAME.decision(state)) is not None:
        assert state.current == P1, "the turn ended without the cap"
        GAME.apply(state, decision.options[0])  # the draw
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.termination) == (None, "decision_cap")


# -- drawing -----------------------------------------------------------------------------------


def test_mover_chooses_the_deck_when_both_have_cards():
    state = position(hands={"p1": ["red-1"]}, step="play")
    choose(GAME, state, "card:red-1")
    decision = choose(GAME, state, "flag:1")
    assert (decision.role, decision.step, [o.key for o in decision.options]) == (
        "p1",
        "draw",
        ["deck:troops", "deck:tactics"],
    )


def test_with_one_deck_empty_the_draw_comes_from_the_other_without_a_choice():
    state = position(hands={"p1": ["red-1"]}, decks={"troops": [], "tactics": ["scout", "fog"]})
    choose(GAME, state, "card:red-1")
    decision = choose(GAME, state, "flag:1")
    assert (decision.role, decision.step) == (CHANCE, "draw_card")
    assert [o.key for o in decision.options] == ["card:fog", "card:scout"]


def test_with_both_decks_empty_nobody_draws_and_play_goes_on():
    state = position(
        hands={"p1": ["red-1", "red-2"], "p2": ["blue-1"]}, decks={"troops": [], "tactics": []}
    )
    choose(GAME, state, "card:red-1")
    decision = choose(GAME, state, "flag:1")
    assert (decision.role, decision.step) == ("p2", "play")
    assert hand(state, "p1") == ["red-2"]
    assert [e.step for e in iter_history(state.history)] == ["play", "place"]


def test_a_draw_is_a_chance_decision_seen_only_by_the_drawer():
    state = position(hands={"p1": ["red-1"]})
    choose(GAME, state, "card:red-1")
    choose(GAME, state, "flag:1")
    decision = choose(GAME, state, "deck:troops")
    assert decision.role == CHANCE and decision.weights is None
    assert len(decision.options) == len(state.decks[0])
    option = decision.options[3]
    GAME.apply(state, option)
    last = list(iter_history(state.history))[-1]
    assert (last.role, last.step, last.key, last.visible_to, last.redacted) == (
        CHANCE, "draw_card", option.key, ("p1",), "deck:troops"
    )
    assert last.seen_by("p1") == option.key and last.seen_by("p2") == "deck:troops"
    assert GAME.view(state, "p1")["history"][-1][3] == option.key
    assert GAME.view(state, "p2")["history"][-1][3] == "deck:troops"
    assert option.label in hand(state, "p1")


def test_the_deal_is_seen_only_by_the_receiver():
    state = GAME.new_state(GAME.rules())
    for _ in range(14):
        decision = GAME.decision(state)
        assert (decision.role, decision.step) == (CHANCE, "deal")
        GAME.apply(state, decision.options[0])
    for entry in iter_history(state.history):
        receiver = "p1" if entry.number % 2 == 1 else "p2"
        assert entry.visible_to == (receiver,) and entry.redacted == "deck:troops"
    assert [len(h) for h in state.hands] == [7, 7]


# -- rulesets ----------------------------------------------------------------------------------


def test_battle_line_has_60_troops_10_tactics_and_hands_of_7():
    rules = GAME.rules()
    state = GAME.new_state(rules)
    assert (rules.ruleset, rules.hand_size, rules.claim_timing) == ("battle_line", 7, "after_play")
    assert len(state.decks[0]) == 60 and len(state.decks[1]) == 10


def test_classic_has_54_troops_valued_1_to_9_hands_of_6_and_no_tactics():
    rules = GAME.rules("classic")
    state = GAME.new_state(rules)
    assert len(state.decks[0]) == 54 and state.decks[1] == ()
    assert {c % 10 + 1 for c in state.decks[0]} == set(range(1, 10))
    assert (rules.hand_size, rules.tactics, rules.claim_timing) == (6, False, "start_of_turn")
    while GAME.decision(state).role == CHANCE:
        GAME.apply(state, GAME.decision(state).options[0])
    assert [len(h) for h in state.hands] == [6, 6]
    assert all(o.value < 60 for o in GAME.decision(state).options)  # troops only


def test_classic_with_tactics_on_is_a_rules_error():
    with pytest.raises(RulesError, match="classic"):
        GAME.rules("classic", {"tactics": "on"})


def test_unknown_ruleset_is_a_rules_error_naming_the_choices():
    with pytest.raises(RulesError, match="unknown ruleset 'chess'.*battle_line, classic"):
        GAME.rules("chess")


def test_unknown_option_is_a_rules_error_naming_the_option():
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        GAME.rules("battle_line", {"colour": "red"})


@pytest.mark.parametrize(
    "option, value",
    [("claim_timing", "sometimes"), ("tactics", "maybe"), ("stalemate", "coin"),
     ("first", "p3"), ("decision_cap", "10"), ("decision_cap", "lots")],
)
def test_bad_option_values_are_rules_errors(option, value):
    with pytest.raises(RulesError, match=option):
        GAME.rules("battle_line", {option: value})


def test_tactics_off_leaves_only_troops():
    rules = GAME.rules("battle_line", {"tactics": "off"})
    assert GAME.new_state(rules).decks[1] == ()


def test_option_first_fixes_the_first_player_without_a_chance_decision():
    state = GAME.new_state(GAME.rules(options={"first": "p2"}))
    while GAME.decision(state).role == CHANCE:
        GAME.apply(state, GAME.decision(state).options[0])
    assert GAME.decision(state).role == "p2"
    assert "first_player" not in [e.step for e in iter_history(state.history)]


# -- the proof cache never changes an answer ---------------------------------------------------


def fresh_claimable(state, role):
    copy = state.copy()
    copy.proofs = [None] * len(copy.proofs)
    return steps.claimable_flags(copy, role)


@pytest.mark.parametrize(
    "ruleset, options, seeds",
    [
        ("battle_line", {}, range(120)),
        ("battle_line", {"claim_timing": "end_of_turn"}, range(100, 106)),
        ("classic", {}, range(200, 206)),
    ],
)
def test_cached_claim_proofs_agree_with_fresh_proofs(ruleset, options, seeds):
    rules = GAME.rules(ruleset, options)
    checked = 0
    for seed in seeds:
        chance, players = chance_rng(seed), random.Random(seed)
        state = GAME.new_state(rules)
        while (decision := GAME.decision(state)) is not None:
            for role in (P1, P2):
                cached = steps.claimable_flags(state, role)
                assert cached == fresh_claimable(state, role), (seed, state.number, role)
                checked += 1
            if decision.role == CHANCE:
                index = sample_chance(chance, decision)
            elif decision.step == "claim" and players.random() < 0.5:
                index = len(decision.options) - 1  # sometimes decline claims: more cache reuse
            else:
                index = players.randrange(len(decision.options))
            GAME.apply(state, decision.options[index])
        check_consistent(state)
    assert checked > 1000
