"""The ten tactics cards and the rules around them (rules digest §3, §4, §5)."""

from __future__ import annotations

import pytest
from kits.st_positions import (
    GAME,
    card,
    check_consistent,
    choose,
    finish_turn,
    hand,
    keys,
    names,
    position,
    side,
)

from standoff.server.core.game import CHANCE
from standoff.server.games.schotten_totten import steps
from standoff.server.games.schotten_totten.state import NO_ONE, TROOPS

P1, P2 = 0, 1
NO_TACTICS_DECK = {"tactics": []}  # the draw then needs no deck choice


def claimable(state, role=P1) -> list[int]:
    return [f + 1 for f in steps.claimable_flags(state, role)]


# -- leaders -----------------------------------------------------------------------------------


def test_second_leader_is_never_playable_even_after_the_first_was_removed():
    state = position(
        hands={"p1": ["alexander", "darius", "fog", "red-1"], "p2": ["deserter", "blue-1"]},
        decks=NO_TACTICS_DECK,
    )
    assert {"card:alexander", "card:darius"} <= set(keys(GAME, state))
    choose(GAME, state, "card:alexander")
    choose(GAME, state, "flag:1")
    assert state.leader_played == [True, False]
    finish_turn(GAME, state)
    choose(GAME, state, "card:deserter")
    choose(GAME, state, "card:alexander")
    assert card("alexander") in state.discards[P1] and side(state, 1, "p1") == []
    finish_turn(GAME, state)
    offered = keys(GAME, state)
    assert "card:fog" in offered  # the count rule allows tactics (1 played each)
    assert "card:darius" not in offered
    assert "darius" in hand(state, "p1")  # dead in hand


def test_the_other_player_may_still_play_the_other_leader():
    state = position(
        current="p2",
        hands={"p2": ["darius", "blue-1"]},
        flags={1: {"p1": ["alexander"]}},
        tactics_played={"p1": 1},
        leader_played={"p1": True},
    )
    assert "card:darius" in keys(GAME, state)
    choose(GAME, state, "card:darius")
    choose(GAME, state, "flag:2")
    assert state.leader_played == [True, True]


def test_leaders_are_wild_in_colour_and_value():
    # Alexander beside red 9 and 10 makes red 8-9-10 (27): it beats blue 7-8-9 (24).
    flags = {1: {"p1": ["red-9", "alexander", "red-10"], "p2": ["blue-7", "blue-8", "blue-9"]}}
    assert claimable(position(flags=flags)) == [1]


# -- other morale cards ------------------------------------------------------------------------


def test_companion_cavalry_is_an_8_of_any_colour():
    # blue 7-8-9 (24), complete first
    rival = ["blue-7", "blue-8", "blue-9"]
    high = position(
        flags={1: {"p2": rival, "p1": ["red-9", "red-10"]}},
        hands={"p1": ["companion-cavalry"]},
        decks=NO_TACTICS_DECK,
    )
    choose(GAME, high, "card:companion-cavalry")
    assert keys(GAME, high)[0] == "flag:1"
    assert choose(GAME, high, "flag:1").step == "claim"  # red 8-9-10 = 27 > 24
    assert keys(GAME, high) == ["flag:1", "done"]
    low = position(flags={1: {"p2": rival, "p1": ["red-6", "red-7", "companion-cavalry"]}})
    assert claimable(low) == []  # red 6-7-8 = 21 < 24: the Cavalry is no leader


def test_shield_bearers_are_a_1_2_or_3_of_any_colour():
    rival = ["blue-2", "blue-5", "blue-9"]  # battalion of 16
    run = position(flags={1: {"p2": rival, "p1": ["red-4", "red-5", "shield-bearers"]}})
    assert claimable(run) == [1]  # red 3-4-5 wedge
    no_run = position(flags={1: {"p2": rival, "p1": ["red-5", "red-6", "shield-bearers"]}})
    assert claimable(no_run) == []  # a 4 is out of reach: battalion 5+6+3 = 14 < 16


# -- Fog ---------------------------------------------------------------------------------------


def test_fog_makes_only_the_sum_count():
    state = position(
        current="p2",
        flags={1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-10", "green-10", "yellow-10"]}},
        hands={"p2": ["fog", "blue-1"]},
        decks=NO_TACTICS_DECK,
    )
    assert claimable(state, P2) == []  # the wedge beats the phalanx
    choose(GAME, state, "card:fog")
    assert choose(GAME, state, "flag:1").step == "claim"
    assert state.fog[0] == P2
    assert keys(GAME, state) == ["flag:1", "done"]  # 30 > 24


@pytest.mark.parametrize(
    "morale, equal, higher",
    [
        # my sum is morale maximum + 1 + 1; "equal" reaches it, "higher" passes it by one
        ("alexander", ["red-5", "orange-4", "yellow-3"], ["red-5", "orange-4", "yellow-4"]),
        ("companion-cavalry", ["red-5", "orange-4", "yellow-1"], ["red-5", "orange-4", "yellow-2"]),
        ("shield-bearers", ["red-1", "orange-1", "yellow-3"], ["red-1", "orange-1", "yellow-4"]),
    ],
)
def test_fog_counts_morale_cards_at_their_maximum(morale, equal, higher):
    # p1's side (a morale card and two 1s) is complete first, so an equal sum goes to p1.
    mine = [morale, "blue-1", "green-1"]
    assert claimable(position(flags={1: {"p1": mine, "p2": equal}}, fog={1: "p2"})) == [1]
    assert claimable(position(flags={1: {"p1": mine, "p2": higher}}, fog={1: "p2"})) == []


# -- Mud ---------------------------------------------------------------------------------------


def test_mud_needs_four_cards_per_side():
    state = position(
        flags={1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-1"]}},
        mud={1: "p2"},
        hands={"p1": ["red-10", "green-1"]},
        decks=NO_TACTICS_DECK,
    )
    assert state.completed_at(0, P1) is None
    choose(GAME, state, "card:red-10")
    assert "flag:1" in keys(GAME, state)  # a fourth slot
    assert choose(GAME, state, "flag:1").step == "claim"
    assert state.completed_at(0, P1) == state.number
    assert keys(GAME, state) == ["flag:1", "done"]


def test_mud_makes_a_three_card_side_incomplete():
    state = position(
        current="p2",
        flags={1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-1"]}},
        hands={"p2": ["mud", "blue-2"], "p1": ["green-1"]},
        decks=NO_TACTICS_DECK,
    )
    assert claimable(state, P1) == [1]
    choose(GAME, state, "card:mud")
    choose(GAME, state, "flag:1")
    assert state.mud[0] == P2
    assert state.completed_at(0, P1) is None
    assert claimable(state, P1) == []


def mud_leaving_position(acting: str, tactic: str, p2_side: list[str]) -> object:
    """Mud (p1's) at flag 1 with a full 4-card p1 side; ``acting`` is about to play ``tactic``."""
    return position(
        current=acting,
        flags={1: {"p1": ["red-7", "red-8", "red-9", "blue-1"], "p2": p2_side}},
        mud={1: "p1"},
        hands={acting: [tactic, "green-1"]},
        tactics_played={"p1": 1},  # the Mud
    )


def test_mud_leaving_by_deserter_makes_each_full_side_discard_actor_first():
    state = mud_leaving_position("p2", "deserter", ["blue-4", "blue-5", "blue-6", "purple-9"])
    choose(GAME, state, "card:deserter")
    assert "card:mud" in keys(GAME, state)
    decision = choose(GAME, state, "card:mud")
    assert card("mud") in state.discards[P1] and state.mud[0] == NO_ONE
    assert (decision.role, decision.step) == ("p2", "mud_discard")  # the actor first
    assert keys(GAME, state) == ["card:blue-4", "card:blue-5", "card:blue-6", "card:purple-9"]
    decision = choose(GAME, state, "card:purple-9")
    assert (decision.role, decision.step) == ("p1", "mud_discard")
    choose(GAME, state, "card:blue-1")
    assert side(state, 1, "p1") == ["red-7", "red-8", "red-9"]
    assert side(state, 1, "p2") == ["blue-4", "blue-5", "blue-6"]
    assert names(state.discards[P2])[-2:] == ["deserter", "purple-9"]
    assert names(state.discards[P1])[-2:] == ["mud", "blue-1"]
    # both sides complete again: blue 4-5-6 (15) loses to red 7-8-9 (24)
    assert claimable(state, P1) == [1]
    check_consistent(state)


def test_mud_leaving_by_redeploy_leaves_three_card_sides_complete_with_their_old_time():
    state = mud_leaving_position("p1", "redeploy", ["blue-4", "blue-5", "blue-6"])
    state.tactics_played[P2] = 1  # so that p1 may play a second tactics card
    p2_completed = max(state.placed[1])
    choose(GAME, state, "card:redeploy")
    assert "card:mud" in keys(GAME, state)
    choose(GAME, state, "card:mud")
    decision = choose(GAME, state, "flag:5")
    assert state.mud[4] == P1 and state.mud[0] == NO_ONE
    assert (decision.role, decision.step) == ("p1", "mud_discard")  # only the 4-card side
    after = choose(GAME, state, "card:blue-1")
    assert after.step != "mud_discard"
    assert state.completed_at(0, P2) == p2_completed
    assert state.completed_at(0, P1) == max(state.placed[0])


def test_mud_discard_fallback_keeps_the_strongest_formation():
    state = mud_leaving_position("p2", "deserter", ["blue-4", "blue-5"])
    choose(GAME, state, "card:deserter")
    choose(GAME, state, "card:mud")
    assert GAME.decision(state).role == "p1"
    index = GAME.fallback_index(state)
    assert GAME.decision(state).options[index].key == "card:blue-1"  # keeps red 7-8-9

    phalanx = position(
        current="p2",
        flags={1: {"p1": ["blue-5", "red-1", "green-5", "yellow-5"]}},
        mud={1: "p1"},
        hands={"p2": ["deserter"]},
        tactics_played={"p1": 1},
    )
    choose(GAME, phalanx, "card:deserter")
    choose(GAME, phalanx, "card:mud")
    index = GAME.fallback_index(phalanx)
    assert GAME.decision(phalanx).options[index].key == "card:red-1"


def test_fallback_index_is_none_outside_mud_discard():
    assert GAME.fallback_index(position(hands={"p1": ["red-1"]})) is None


# -- Scout -------------------------------------------------------------------------------------


def test_scout_draws_three_choosing_each_deck_then_returns_two():
    state = position(hands={"p1": ["scout", "red-1", "red-2", "red-3", "red-4", "red-5", "red-6"]})
    decision = choose(GAME, state, "card:scout")
    for deck in ("deck:troops", "deck:tactics", "deck:troops"):
        assert (decision.step, [o.key for o in decision.options]) == (
            "scout_draw", ["deck:troops", "deck:tactics"],
        )
        decision = choose(GAME, state, deck)
        assert decision.role == CHANCE
        GAME.apply(state, decision.options[0])
        decision = GAME.decision(state)
    assert len(hand(state, "p1")) == 9
    assert decision.step == "scout_return"
    assert keys(GAME, state) == [f"card:{c}" for c in hand(state, "p1")]
    choose(GAME, state, "card:red-5")
    decision = choose(GAME, state, "card:red-2")  # returned last: on top
    assert state.tops[TROOPS] == ((card("red-5"), P1), (card("red-2"), P1))
    assert len(hand(state, "p1")) == 7
    # the hand is full: no draw; p2 moves next
    assert (decision.role, decision.step) == ("p2", "play")
    check_consistent(state)


def test_scout_returned_cards_are_drawn_back_in_order():
    state = position(
        hands={
            "p1": ["scout", "red-1", "red-2", "red-3", "red-4", "red-5", "red-6"],
            "p2": ["blue-1"],
        },
        decks={"troops": ["green-1", "green-2", "green-3", "green-4"], "tactics": []},
    )
    choose(GAME, state, "card:scout")
    for _ in range(3):  # one deck only: no deck choice
        decision = GAME.decision(state)
        assert decision.role == CHANCE
        GAME.apply(state, decision.options[0])
    choose(GAME, state, "card:red-5")
    choose(GAME, state, "card:green-1")
    choose(GAME, state, "card:blue-1")
    choose(GAME, state, "flag:1")
    assert "green-1" in hand(state, "p2")  # the top card, drawn without a chance decision
    assert state.known[P1] == (card("green-1"),)
    assert state.tops[TROOPS] == ((card("red-5"), P1),)


def test_scout_with_short_decks_draws_what_exists_and_returns_down_to_the_hand_size():
    state = position(
        hands={"p1": ["scout", "red-1", "red-2", "red-3", "red-4", "red-5", "red-6"]},
        decks={"troops": ["green-1"], "tactics": ["fog"]},
    )
    choose(GAME, state, "card:scout")
    choose(GAME, state, "deck:tactics")
    GAME.apply(state, GAME.decision(state).options[0])
    decision = GAME.decision(state)  # only the troops deck is left: drawn without asking
    assert decision.role == CHANCE and [o.key for o in decision.options] == ["card:green-1"]
    GAME.apply(state, decision.options[0])
    assert len(hand(state, "p1")) == 8
    assert GAME.decision(state).step == "scout_return"
    decision = choose(GAME, state, "card:fog")
    assert len(hand(state, "p1")) == 7 and decision.role == "p2"
    assert state.tops[1] == ((card("fog"), P1),)


def test_scout_with_empty_decks_draws_and_returns_nothing():
    state = position(
        hands={"p1": ["scout", "red-1"], "p2": ["blue-1"]},
        decks={"troops": [], "tactics": []},
    )
    assert "card:scout" in keys(GAME, state)
    decision = choose(GAME, state, "card:scout")
    assert (decision.role, decision.step) == ("p2", "play")
    assert hand(state, "p1") == ["red-1"]


# -- Redeploy ----------------------------------------------------------------------------------

REDEPLOY_TABLE = {
    1: {"p1": ["red-1", "companion-cavalry"], "p2": ["blue-1"]},
    2: {"p1": ["red-2", "red-3", "red-4"]},  # full
    3: {"p1": ["red-5"], "p2": ["blue-3"]},
    4: {"p1": ["red-6", "red-7", "red-8"], "p2": ["blue-6", "blue-7"]},  # claimed below
}


def redeploy_position(**extra):
    return position(
        flags=REDEPLOY_TABLE,
        claimed={4: "p1"},
        fog={6: "p1"},
        mud={7: "p2"},
        hands={"p1": ["redeploy", "green-1"]},
        tactics_played={"p1": 2, "p2": 2},
        **extra,
    )


def test_redeploy_offers_own_cards_and_own_environment_at_unclaimed_flags_only():
    state = redeploy_position()
    choose(GAME, state, "card:redeploy")
    assert keys(GAME, state) == [
        "card:red-1", "card:companion-cavalry", "card:red-2", "card:red-3", "card:red-4",
        "card:red-5", "card:fog",
    ]


def test_redeploy_moves_a_card_to_another_unclaimed_flag_with_room():
    state = redeploy_position()
    choose(GAME, state, "card:redeploy")
    choose(GAME, state, "card:red-5")
    # not the source (3), not full (2), not claimed (4); Mud at 7 gives room
    assert keys(GAME, state) == [
        "flag:1", "flag:5", "flag:6", "flag:7", "flag:8", "flag:9", "discard",
    ]
    choose(GAME, state, "flag:1")
    assert side(state, 1, "p1") == ["red-1", "companion-cavalry", "red-5"]
    assert side(state, 3, "p1") == []
    assert state.completed_at(0, P1) == state.number  # a new arrival time
    assert card("redeploy") in state.discards[P1]
    assert state.tactics_played[P1] == 3
    check_consistent(state)


def test_redeploy_may_discard_the_card_face_up():
    state = redeploy_position()
    choose(GAME, state, "card:redeploy")
    choose(GAME, state, "card:companion-cavalry")
    choose(GAME, state, "discard")
    assert side(state, 1, "p1") == ["red-1"]
    assert names(state.discards[P1]) == ["redeploy", "companion-cavalry"]
    assert state.tactics_played[P1] == 3  # the Cavalry still counts as played


def test_redeploy_moves_own_fog_to_an_unclaimed_flag():
    state = redeploy_position()
    choose(GAME, state, "card:redeploy")
    choose(GAME, state, "card:fog")
    offered = keys(GAME, state)
    assert "flag:4" not in offered and "flag:6" not in offered and offered[-1] == "discard"
    choose(GAME, state, "flag:9")
    assert state.fog[5] == NO_ONE and state.fog[8] == P1


def test_redeploy_is_not_playable_without_an_own_card_at_an_unclaimed_flag():
    state = position(
        flags={4: {"p1": ["red-6", "red-7", "red-8"]}},
        claimed={4: "p1"},
        hands={"p1": ["redeploy", "green-1"]},
    )
    assert "card:redeploy" not in keys(GAME, state)


# -- Deserter ----------------------------------------------------------------------------------


def test_deserter_targets_any_opponent_card_at_unclaimed_flags():
    state = position(
        current="p2",
        flags=REDEPLOY_TABLE,
        claimed={4: "p1"},
        fog={6: "p1"},
        mud={7: "p2"},
        hands={"p2": ["deserter", "green-1"]},
        tactics_played={"p1": 2, "p2": 2},
    )
    choose(GAME, state, "card:deserter")
    # p1's cards at 1, 2, 3 and p1's Fog at 6; not the claimed flag 4, not p2's own Mud
    assert keys(GAME, state) == [
        "card:red-1", "card:companion-cavalry", "card:red-2", "card:red-3", "card:red-4",
        "card:red-5", "card:fog",
    ]
    choose(GAME, state, "card:companion-cavalry")
    assert side(state, 1, "p1") == ["red-1"]
    assert card("companion-cavalry") in state.discards[P1]  # the owner's pile
    assert card("deserter") in state.discards[P2]
    assert state.tactics_played == [2, 3]


def test_deserter_discards_opponent_fog():
    state = position(
        current="p2",
        flags={1: {"p1": ["red-7", "red-8", "red-9"], "p2": ["blue-10", "green-10", "yellow-10"]}},
        fog={1: "p1"},
        hands={"p2": ["deserter"]},
        tactics_played={"p1": 1},
    )
    assert claimable(state, P2) == [1]
    choose(GAME, state, "card:deserter")
    choose(GAME, state, "card:fog")
    assert state.fog[0] == NO_ONE and card("fog") in state.discards[P1]
    assert claimable(state, P2) == [] and claimable(state, P1) == [1]


# -- Traitor -----------------------------------------------------------------------------------


def traitor_position(**extra):
    return position(
        current="p2",
        flags={
            1: {"p1": ["red-1", "alexander"], "p2": ["blue-1"]},
            3: {"p1": ["red-5"]},
            4: {"p1": ["red-6", "red-7", "red-8"], "p2": ["blue-6"]},
        },
        claimed={4: "p1"},
        fog={6: "p1"},
        hands={"p2": ["traitor", "green-1"]},
        tactics_played={"p1": 2, "p2": 2},
        leader_played={"p1": True},
        **extra,
    )


def test_traitor_takes_only_opponent_troops_at_unclaimed_flags():
    state = traitor_position()
    choose(GAME, state, "card:traitor")
    assert keys(GAME, state) == ["card:red-1", "card:red-5"]  # no leader, no Fog, not flag 4


def test_traitor_may_put_the_troop_on_the_same_flag():
    state = traitor_position()
    choose(GAME, state, "card:traitor")
    choose(GAME, state, "card:red-1")
    offered = keys(GAME, state)
    assert "flag:1" in offered and "flag:4" not in offered
    choose(GAME, state, "flag:1")
    assert side(state, 1, "p1") == ["alexander"]
    assert side(state, 1, "p2") == ["blue-1", "red-1"]
    assert names(state.discards[P2]) == ["traitor"]
    check_consistent(state)


def test_traitor_is_not_playable_without_room():
    state = position(
        current="p2",
        flags={
            1: {"p1": ["red-1"], "p2": ["blue-1", "blue-2", "blue-3"]},
            2: {"p2": ["blue-4", "blue-5", "blue-6"]},
            3: {"p2": ["blue-7", "blue-8", "blue-9"]},
            4: {"p2": ["green-1", "green-2", "green-3"]},
            5: {"p2": ["green-4", "green-5", "green-6"]},
            6: {"p2": ["green-7", "green-8", "green-9"]},
            7: {"p2": ["yellow-1", "yellow-2", "yellow-3"]},
            8: {"p2": ["yellow-4", "yellow-5", "yellow-6"]},
            9: {"p2": ["yellow-7", "yellow-8", "yellow-9"]},
        },
        hands={"p2": ["traitor", "fog", "purple-1"]},
    )
    assert keys(GAME, state) == ["card:fog", "pass"]


# -- claimed flags are frozen ---------------------------------------------------------------------


def test_no_tactics_card_reaches_a_claimed_flag():
    state = position(
        flags={
            1: {"p1": ["red-1", "red-2", "red-3"], "p2": ["blue-1", "blue-2"]},
            2: {"p1": ["red-5"], "p2": ["blue-5"]},
        },
        claimed={1: "p1"},
        hands={"p1": ["fog", "mud", "alexander", "companion-cavalry"]},
        decks=NO_TACTICS_DECK,
    )
    for tactic, step in (("fog", "environment"), ("mud", "environment"), ("alexander", "place")):
        probe = state.copy()
        choose(GAME, probe, f"card:{tactic}")
        assert GAME.decision(probe).step == step
        assert "flag:1" not in keys(GAME, probe), tactic
    # and nothing of flag 1 is a source or a destination for Redeploy / Deserter / Traitor
    for tactic, who in (("redeploy", "p1"), ("deserter", "p2"), ("traitor", "p2")):
        probe = position(
            current=who,
            flags={
                1: {"p1": ["red-1", "red-2", "red-3"], "p2": ["blue-1", "blue-2"]},
                2: {"p1": ["red-5"], "p2": ["blue-5"]},
            },
            claimed={1: "p1"},
            fog={1: "p1"},
            hands={who: [tactic]},
        )
        choose(GAME, probe, f"card:{tactic}")
        assert keys(GAME, probe) == ["card:red-5"], tactic
        if tactic != "deserter":
            choose(GAME, probe, "card:red-5")
            assert "flag:1" not in keys(GAME, probe), tactic


# -- the count rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mine, theirs, allowed",
    [(0, 0, True), (1, 0, False), (1, 1, True), (1, 2, True), (3, 2, False)],
)
def test_count_rule_allows_tactics_only_when_not_ahead(mine, theirs, allowed):
    state = position(hands={"p1": ["fog", "red-1"]}, tactics_played={"p1": mine, "p2": theirs})
    assert ("card:fog" in keys(GAME, state)) is allowed


def test_tactics_discarded_later_still_count():
    # p2's Companion is discarded by p2's own Redeploy: p2 has played 2 tactics cards, not 0.
    state = position(
        current="p2",
        flags={1: {"p2": ["companion-cavalry", "blue-1"]}},
        fog={5: "p1"},
        hands={"p2": ["redeploy", "scout", "blue-2"], "p1": ["red-1", "red-2"]},
        tactics_played={"p1": 1, "p2": 1},
        decks=NO_TACTICS_DECK,
    )
    choose(GAME, state, "card:redeploy")
    choose(GAME, state, "card:companion-cavalry")
    choose(GAME, state, "discard")
    assert state.tactics_played == [1, 2]
    assert side(state, 1, "p2") == ["blue-1"]  # no tactics card of p2 is left on the table
    finish_turn(GAME, state)
    choose(GAME, state, "card:red-1")
    choose(GAME, state, "flag:2")
    finish_turn(GAME, state)
    assert "card:scout" not in keys(GAME, state)  # 2 played > 1


def test_morale_cards_need_a_free_slot():
    full = {
        1: {"p1": ["red-1", "red-2", "red-3"]},
        2: {"p1": ["orange-1", "orange-2", "orange-3"]},
        3: {"p1": ["yellow-1", "yellow-2", "yellow-3"]},
        4: {"p1": ["green-1", "green-2", "green-3"]},
        5: {"p1": ["blue-1", "blue-2", "blue-3"]},
        6: {"p1": ["purple-1", "purple-2", "purple-3"]},
        7: {"p1": ["red-4", "red-5", "red-6"]},
        8: {"p1": ["orange-4", "orange-5", "orange-6"]},
        9: {"p1": ["yellow-4", "yellow-5"]},
    }
    one_slot = position(flags=full, hands={"p1": ["alexander", "shield-bearers", "fog"]})
    choose(GAME, one_slot, "card:alexander")
    assert keys(GAME, one_slot) == ["flag:9"]
    full[9] = {"p1": ["yellow-4", "yellow-5", "yellow-6"]}
    no_room = position(flags=full, hands={"p1": ["alexander", "shield-bearers", "fog"]})
    assert keys(GAME, no_room) == ["card:fog", "pass"]  # Fog takes no slot
