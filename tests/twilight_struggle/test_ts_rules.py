"""Options of Twilight Struggle (rules.py): ruleset, optional cards, bid, end turn."""

from __future__ import annotations

import pytest
from kits.ts_positions import GAME, choose, keys

from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.state import US


def test_rules_refuse_unknown_options_and_every_period_has_its_events():
    from standoff.server.core.game import RulesError

    with pytest.raises(RulesError, match="unknown option"):
        GAME.rules(None, {"colour": "red"})
    with pytest.raises(RulesError, match="end_turn"):
        GAME.rules(None, {"end_turn": "11"})
    assert GAME.rules(None, {"end_turn": "10"}).end_turn == 10
    # Every card but The China Card has its event, so no game can reach a missing one: the former
    # refusal of games reaching "events not implemented yet" is gone with them.
    from standoff.server.games.twilight_struggle.events import implemented

    assert implemented() == frozenset(CD.CARD_BY_NUMBER) - {CD.CHINA_CARD}


def test_optional_cards_and_bid_options():
    from standoff.server.games.twilight_struggle import card_data as CD

    for setting, size in (("on", 38), ("off", 35)):
        rules = GAME.rules(None, {"end_turn": "1", "optional_cards": setting})
        state = GAME.new_state(rules)
        GAME.decision(state)
        assert len(state.deck) + sum(len(h) for h in state.hands) == size
    rules = GAME.rules(None, {"end_turn": "1", "bid": "us:2"})
    state = GAME.new_state(rules)
    while GAME.decision(state).step != "bid":
        decision = GAME.decision(state)
        choose(state, decision.options[0].key)
    assert GAME.decision(state).role == "us"
    assert all(state.inf[US][M.INDEX[k.split(":")[1]]] > 0 for k in keys(state))
    assert set(CD.OPTIONAL_CARDS) == {104, 105, 106, 107, 108, 109, 110}
