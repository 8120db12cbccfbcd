"""The building blocks shared by the card events (events/primitives.py); each card's own use of them
is tested with the card."""

from __future__ import annotations

from kits.ts_positions import GAME, card, country, keys, position

from standoff.server.games.twilight_struggle.events import primitives as P
from standoff.server.games.twilight_struggle.state import NOBODY, US, USSR


def test_a_forced_discard_takes_an_owed_missile_envy_with_its_obligation():
    state = position(hands={"us": ["missile_envy", "nato"]}, effects=["missile_envy:us"])
    P.discard_from_hand(state, US, card("nato"))
    assert state.hands[US] == (card("missile_envy"),) and state.discard == (card("nato"),)
    assert "missile_envy:us" in state.effects
    P.discard_from_hand(state, US, card("missile_envy"))
    assert state.hands[US] == () and "missile_envy:us" not in state.effects


def test_drop_disposal_takes_the_latest_dispose_frame_of_the_card_only():
    state = position()
    state.stack += [("dispose", card("nato"), False), ("dispose", card("fidel"), True), ("event", card("fidel"), USSR)]
    assert P.drop_disposal(state, card("nato"))
    assert ("dispose", card("nato"), False) not in state.stack and ("dispose", card("fidel"), True) in state.stack
    assert not P.drop_disposal(state, card("nato"))


def test_ask_country_with_no_country_asks_nothing():
    state = position(hands={"ussr": ["comecon"]})
    before = keys(state)
    P.ask_country(state, USSR, "truman_doctrine", [])
    state.pending = None
    assert keys(state) == before and state.stack[-1][0] == "action_round"


def test_granted_operations_offer_a_realignment_or_coup_only_with_a_target():
    state = position(setup_influence=False, influence={"iran": (0, 1)})
    assert P.ops_uses(state, US) == ["influence", "realign", "coup"]
    assert P.ops_uses(state, USSR) == ["influence"]


def test_set_to_control_adds_no_more_than_needed():
    state = position(setup_influence=False, influence={"cuba": (1, 2)})
    P.set_to_control(state, USSR, country("cuba"))
    assert state.inf[USSR][country("cuba")] == 4  # 1 + stability 3
    P.set_to_control(state, USSR, country("cuba"))
    assert state.inf[USSR][country("cuba")] == 4


def test_china_claimed_only_matters_in_the_chinese_civil_war_variant():
    state = position()
    state.china = NOBODY
    assert P.china_claimed(state, USSR)
    state.rules = GAME.rules(None, {"chinese_civil_war": "on"})
    assert not P.china_claimed(state, USSR)
    state.china = USSR
    assert P.china_claimed(state, USSR)
