"""The event register (events/registry.py) and the event package's layout (events/__init__.py):
every card has one event function, in the module of its period, in card order; the steps of the
event modules are wired into the game."""

from __future__ import annotations


from kits.ts_positions import GAME, keys, position

from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle.events import (
    EVENTS,
    STEPS,
    early_war,
    event,
    event_playable,
    late_war,
    mid_war_36_59,
    mid_war_60_108,
    primitives,
    registry,
    scoring,
)
from standoff.server.games.twilight_struggle.state import US, USSR


def at(**kw):
    kw.setdefault("hands", {"ussr": ["comecon"], "us": ["containment"]})
    kw.setdefault("rounds", 2)
    return position(**kw)


def test_every_early_war_card_has_an_event():
    from standoff.server.games.twilight_struggle.events import implemented

    assert set(CD.EARLY_WAR) <= implemented()
    assert keys(at())  # the kit position is at a decision
    _ = GAME


def _home(card: CD.Card):
    """The module a card's event belongs in: scoring cards apart, else by period and number."""
    if card.scoring:
        return scoring
    if card.period == "early":
        return early_war
    if card.period == "mid":
        return mid_war_36_59 if card.number <= 59 else mid_war_60_108
    return late_war


def test_every_card_but_the_china_card_has_one_event_in_the_module_of_its_period():
    assert set(EVENTS) == {c.number for c in CD.CARDS} - {CD.CHINA_CARD}
    for card in CD.CARDS:
        if card.number == CD.CHINA_CARD:
            continue
        spec = EVENTS[card.number]
        assert spec.number == card.number
        assert spec.fn.__module__ == _home(card).__name__, card.name
        assert spec.fn.__name__ == card.id


def test_event_modules_list_their_cards_in_card_order():
    for module in (scoring, early_war, mid_war_36_59, mid_war_60_108, late_war):
        numbers = [n for n, spec in EVENTS.items() if spec.fn.__module__ == module.__name__]
        # (the code's first line: inspect.getsourcelines does not take a compiled function)
        lines = [EVENTS[n].fn.__code__.co_firstlineno for n in numbers]
        assert [n for _, n in sorted(zip(lines, numbers, strict=True))] == sorted(numbers), module.__name__


def test_a_card_is_registered_once():
    try:
        event(1)(lambda state, actor: None)
    except ValueError as error:
        assert "#1" in str(error)
    else:
        raise AssertionError("a second event for card #1 was accepted")


def test_every_step_of_the_event_modules_is_wired_into_the_game():
    for module in (registry, primitives, scoring, early_war, mid_war_36_59, mid_war_60_108, late_war):
        for step in module.STEPS:
            assert G.STEPS[step.name] is step
            assert step in STEPS


def test_the_china_card_never_has_an_event():
    state = at()
    assert not event_playable(state, CD.CHINA_CARD, USSR) and not event_playable(state, CD.CHINA_CARD, US)
