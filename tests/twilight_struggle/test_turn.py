"""The turn flow (turn.py): headline, action rounds, deal, end of turn, final scoring (map.md §10-12
is the reference)."""

from __future__ import annotations

from kits.ts_positions import GAME, card, choose, events_in_order, keys, play, position

from standoff.server.games.twilight_struggle.state import US, USSR
from standoff.server.games.twilight_struggle.turn import final_scoring


def test_military_ops_shortfall_gives_vp_to_the_opponent():
    state = position(defcon=3, hands={})
    state.milops = [1, 3]
    state.stack = [("end_turn",)]
    GAME.decision(state)
    assert state.vp == 2  # USSR short by 2: +2 to the US


def test_scoring_card_held_at_the_end_of_the_turn_loses():
    state = position(hands={"us": ["asia_scoring"]})
    state.stack = [("end_turn",)]
    GAME.decision(state)
    assert state.outcome.winner == "ussr" and state.outcome.termination == "held_scoring_card"


def test_final_scoring_counts_the_china_card_and_ignores_twenty_vp():
    state = position(setup_influence=False)
    state.china, state.vp = US, -25  # beyond the +/-20 of any position (the game ends there)
    final_scoring(state)
    assert state.vp == -24 and state.outcome.winner == "ussr" and state.outcome.termination == "final_scoring"


def test_headline_order_higher_ops_first_us_on_ties_scoring_last():
    # Tie on 3 ops: the US headline (Containment) resolves first, then COMECON asks the USSR.
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]})
    state.stack = [("end_turn",), ("headline",)]
    play(state, "card:comecon", "card:containment")
    assert events_in_order(state) == ["card:containment", "card:comecon"]
    assert GAME.decision(state).role == "ussr" and "containment:turn" in state.effects
    # Higher ops first: Red Scare/Purge (4) before Containment (3).
    state = position(hands={"ussr": ["red_scare_purge"], "us": ["containment"]})
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:red_scare_purge", "card:containment")
    assert events_in_order(state) == ["card:red_scare_purge", "card:containment"]
    # Scoring cards come last, even against a 1-op card.
    state = position(hands={"ussr": ["asia_scoring"], "us": ["cia_created"]})
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("headline",)]
    play(state, "card:asia_scoring", "card:cia_created")
    assert events_in_order(state)[0] == "card:cia_created"


def test_man_in_earth_orbit_makes_the_other_side_headline_first_and_visibly():
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]})
    state.space = [0, 4]  # the US holds box 4 alone
    state.stack = [("end_turn",), ("headline",)]
    decision = GAME.decision(state)
    assert decision.role == "ussr"
    choose(state, "card:comecon")
    assert GAME.view(state, "us")["history"][-1][3] == "card:comecon"  # seen by the US


def test_secret_headline_is_hidden_until_revealed():
    state = position(hands={"ussr": ["comecon"], "us": ["containment"]})
    state.stack = [("end_turn",), ("headline",)]
    choose(state, "card:comecon")
    assert GAME.view(state, "us")["headline"] == {}
    assert GAME.view(state, "us")["history"][-1][3] == "card:hidden"
    assert GAME.view(state, "ussr")["headline"] == {"ussr": "comecon"}


def test_deal_reshuffles_the_discard_pile_when_the_deck_runs_out():
    state = position(hands={"ussr": ["comecon"], "us": []})
    state.discard = state.deck[:13]
    state.deck = state.deck[13:15]  # 2 + 13 = the 15 cards the two hands need
    state.stack = [("end_turn",), ("action_round", 1, USSR), ("deal",)]
    while GAME.decision(state).step == "deal":
        choose(state, GAME.decision(state).options[0].key)
    assert len(state.hands[USSR]) == 8 and len(state.hands[US]) == 8
    assert state.discard == ()


def test_eagle_bear_has_landed_may_discard_a_held_card_at_the_end_of_the_turn():
    state = position(hands={"ussr": ["comecon", "asia_scoring"], "us": ["containment"]})
    state.space = [6, 0]
    state.stack = [("end_turn",)]
    assert set(keys(state)) == {"card:comecon", "done"}  # never a scoring card
    choose(state, "card:comecon")
    assert card("comecon") in state.discard
