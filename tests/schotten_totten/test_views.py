"""What each role may see (rules digest §6), Scout knowledge and determinization."""

from __future__ import annotations

import json
import random
import re

import pytest
from kits.st_positions import GAME, card, check_consistent, choose, hand, names, position

from standoff.server.core.flow import iter_history
from standoff.server.core.game import CHANCE
from standoff.server.games.schotten_totten.state import TACTICS_DECK, TROOPS
from standoff.server.local import chance_rng, sample_chance

ROLES = ("p1", "p2")


def mentions(text: str, name: str) -> bool:
    """Whether the JSON ``text`` names card ``name`` as a value (``"red-1"`` or ``"card:red-1"``;
    never ``red-10``, nor the ``"fog"``/``"mud"`` keys of a flag)."""
    return re.search(r'[":]' + re.escape(name) + r'"(?!\s*:)', text) is not None


def random_states(seeds, every=3, options=None):
    """States of seeded random matches, every ``every`` decisions."""
    rules = GAME.rules(options=options)
    for seed in seeds:
        chance, players = chance_rng(seed), random.Random(seed)
        state = GAME.new_state(rules)
        while (decision := GAME.decision(state)) is not None:
            if state.number % every == 0:
                yield state
            if decision.role == CHANCE:
                index = sample_chance(chance, decision)
            else:
                index = players.randrange(len(decision.options))
            GAME.apply(state, decision.options[index])


def returned_by(state, role: str) -> set[str]:
    """Cards ``role`` put back with Scout (it saw them: they may be public to it elsewhere)."""
    return {
        e.key.removeprefix("card:")
        for e in iter_history(state.history)
        if e.step == "scout_return" and e.role == role
    }


# -- the view of a random match ------------------------------------------------------------------


def test_views_never_show_the_opponents_hand_and_count_it_right():
    checked = 0
    for state in random_states(range(12)):
        for me, role in enumerate(ROLES):
            other, other_role = 1 - me, ROLES[1 - me]
            view = GAME.view(state, role)
            text = json.dumps(view)
            allowed = returned_by(state, role) | set(names(c for c in state.known[me]))
            for name in names(state.hands[other]):
                if name not in allowed:
                    assert not mentions(text, name), (name, role, state.number)
                    checked += 1
            assert view["hand"] == names(state.hands[me])
            opp = view["opponents"][other_role]
            assert opp["troops"] == sum(c < 60 for c in state.hands[other])
            assert opp["tactics"] == sum(c >= 60 for c in state.hands[other])
            assert view["decks"]["troops"]["size"] == state.deck_size(TROOPS)
            assert view["decks"]["tactics"]["size"] == state.deck_size(TACTICS_DECK)
    assert checked > 1000


def test_views_redact_the_opponents_draws_to_the_deck_name():
    redacted = 0
    for state in random_states(range(12, 18), every=25):
        entries = list(iter_history(state.history))
        for role in ROLES:
            seen = GAME.view(state, role)["history"]
            assert len(seen) == len(entries)
            for entry, item in zip(entries, seen, strict=True):
                assert item[:3] == [entry.number, entry.role, entry.step]
                if entry.visible_to is None or role in entry.visible_to:
                    assert item[3] == entry.key
                else:
                    assert item[3] in ("deck:troops", "deck:tactics")
                    if entry.step in ("deal", "draw_card"):
                        kind = "troops" if card(entry.key.removeprefix("card:")) < 60 else "tactics"
                        assert item[3] == f"deck:{kind}"
                    redacted += 1
    assert redacted > 100


def test_view_shows_the_public_table():
    state = position(
        flags={1: {"p1": ["red-1", "red-2", "red-3"], "p2": ["blue-5"]}},
        fog={1: "p2"},
        mud={2: "p1"},
        claimed={3: "p1"},
        discards={"p2": ["scout", "green-4"]},
        hands={"p1": ["red-9", "alexander"], "p2": ["blue-9", "blue-8", "traitor"]},
        tactics_played={"p1": 1, "p2": 2},
    )
    view = GAME.view(state, "p1")
    flag = view["flags"][0]
    assert flag["sides"]["p1"] == {"cards": ["red-1", "red-2", "red-3"], "completed_at": 3}
    assert flag["sides"]["p2"] == {"cards": ["blue-5"], "completed_at": None}
    assert (flag["fog"], flag["mud"], view["flags"][1]["mud"], view["flags"][2]["claimed_by"]) == (
        "p2", None, "p1", "p1"
    )
    assert view["discards"]["p2"] == ["scout", "green-4"]
    assert view["tactics_played"] == {"p1": 1, "p2": 2}
    assert view["opponents"]["p2"] == {"troops": 2, "tactics": 1, "known": []}
    assert view["hand"] == ["red-9", "alexander"]
    text = json.dumps(view)
    assert not any(mentions(text, name) for name in ("blue-9", "blue-8", "traitor"))


# -- Scout knowledge ------------------------------------------------------------------------------


def scout_and_return(*returned: str):
    """p1 plays Scout, draws three troops and returns ``returned`` (the last one on top)."""
    state = position(
        hands={
            "p1": ["scout", "red-1", "red-2", "red-3", "red-4", "red-5", "red-6"],
            "p2": ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6"],
        },
        decks={"troops": ["green-1", "green-2", "green-3", "green-4", "green-5"], "tactics": []},
    )
    choose(GAME, state, "card:scout")
    for _ in range(3):
        decision = GAME.decision(state)
        GAME.apply(state, decision.options[0])
    for name in returned:
        choose(GAME, state, f"card:{name}")
    return state


def test_scout_tops_are_known_to_the_returner_only():
    state = scout_and_return("red-5", "red-2")
    assert GAME.view(state, "p1")["decks"]["troops"] == {"size": 4, "top": ["red-2", "red-5"]}
    assert GAME.view(state, "p2")["decks"]["troops"] == {"size": 4, "top": ["unknown", "unknown"]}
    returns = [item for item in GAME.view(state, "p2")["history"] if item[2] == "scout_return"]
    assert [item[3] for item in returns] == ["deck:troops", "deck:troops"]
    returns = [item for item in GAME.view(state, "p1")["history"] if item[2] == "scout_return"]
    assert [item[3] for item in returns] == ["card:red-5", "card:red-2"]
    p2_view = json.dumps(GAME.view(state, "p2"))
    assert not mentions(p2_view, "red-2") and not mentions(p2_view, "red-5")


def test_a_returned_card_drawn_by_the_opponent_stays_known_to_the_returner():
    state = scout_and_return("red-5", "red-2")
    choose(GAME, state, "card:blue-1")
    choose(GAME, state, "flag:1")  # p2 draws the top card (no deck choice: tactics is empty)
    assert "red-2" in hand(state, "p2")
    assert GAME.view(state, "p1")["opponents"]["p2"]["known"] == ["red-2"]
    assert GAME.view(state, "p1")["decks"]["troops"]["top"] == ["red-5"]
    assert GAME.view(state, "p2")["opponents"]["p1"]["known"] == []
    assert GAME.view(state, "p2")["decks"]["troops"]["top"] == ["unknown"]
    # p2's own draw of a known top leaves no card name in p2's history either way
    assert not mentions(json.dumps(GAME.view(state, "p2")["history"]), "red-2")


# -- determinization ------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_determinize_keeps_everything_the_role_can_see(role):
    me = ROLES.index(role)
    for state in random_states(range(30, 34), every=40):
        before = GAME.view(state, role)
        for seed in range(3):
            world = GAME.determinize(state, role, random.Random(seed))
            check_consistent(world)
            assert GAME.view(world, role) == before
            assert world.hands[me] == state.hands[me]
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert [sum(c >= 60 for c in h) for h in world.hands] == [
                sum(c >= 60 for c in h) for h in state.hands
            ]
            assert [world.deck_size(d) for d in (0, 1)] == [state.deck_size(d) for d in (0, 1)]
            decision = GAME.decision(world)
            if decision is not None:  # a playable state
                GAME.apply(world, decision.options[0])


def test_determinize_changes_the_hidden_cards_across_redeals():
    state = next(s for s in random_states([40], every=1) if s.number == 60)
    worlds = [GAME.determinize(state, "p1", random.Random(seed)) for seed in range(5)]
    assert len({w.hands[1] for w in worlds}) > 1  # p2's hand differs
    assert len({w.decks[TROOPS] for w in worlds}) > 1
    assert state.hands[1] == GAME.determinize(state, "p2", random.Random(0)).hands[1]


def test_determinize_keeps_scout_knowledge():
    state = scout_and_return("red-5", "red-2")
    choose(GAME, state, "card:blue-1")
    choose(GAME, state, "flag:1")  # p2 draws red-2, known to p1
    for seed in range(6):
        world = GAME.determinize(state, "p1", random.Random(seed))
        assert card("red-2") in world.hands[1]  # known to p1: stays in p2's hand
        assert world.tops[TROOPS] == ((card("red-5"), 0),)  # p1's own top
        assert GAME.view(world, "p1") == GAME.view(state, "p1")
    # p2 does not know p1's top: it is re-dealt among the troops p2 cannot see
    tops = {GAME.determinize(state, "p2", random.Random(seed)).tops[TROOPS] for seed in range(12)}
    assert len(tops) > 1
    assert all(top[0][1] == 0 and top[0][0] < 60 for top in tops)
