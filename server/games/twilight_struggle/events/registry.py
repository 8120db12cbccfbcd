"""The register of card events (Rally the Troops' shape): one short function per card, registered
by number with :func:`event`, and the steps that carry an event out.

An event function ``fn(state, actor)`` carries out the event for ``actor`` (the side whose event
it is; the player for a neutral card). Effects that need a choice push frames of the shared
primitives (:mod:`.primitives`); effects that need none change the state directly.
``playable(state, actor)`` says whether the event can happen at all (prerequisites, blocks, "if"
conditions: cards.md §5.2); an unplayable event does not occur and a starred card is discarded
rather than removed.

Frames: ``("event", card, actor)`` runs the event (and, when some lasting effect reacts to events,
first pushes ``("after_event", card, actor)``: hooks.AFTER_EVENT_HOOKS).

This module imports no event module: the turn flow and the events both build on it, and
:mod:`..events` imports the period modules, which fill :data:`EVENTS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ....core.flow import log
from .. import board as B
from .. import card_data as CD
from .. import hooks as H
from ..common import CARD_OPTIONS, TSStep, event_player, role
from ..state import TSState


@dataclass(frozen=True)
class EventSpec:
    number: int
    fn: Callable[[TSState, int], None]
    playable: Callable[[TSState, int], bool] | None = None


EVENTS: dict[int, EventSpec] = {}


def event(number: int, *, playable: Callable[[TSState, int], bool] | None = None):
    """Register the decorated function as the event of card ``number``."""

    def register(fn: Callable[[TSState, int], None]) -> Callable[[TSState, int], None]:
        if number in EVENTS:
            raise ValueError(f"event of card #{number} registered twice")
        EVENTS[number] = EventSpec(number, fn, playable)
        return fn

    return register


def event_playable(state: TSState, card: int, actor: int) -> bool:
    """Whether the event of ``card`` can be carried out now for ``actor``."""
    data = CD.CARD_BY_NUMBER[card]
    if card == CD.CHINA_CARD:
        return False
    played = state.events_played
    if data.prerequisite and played.isdisjoint(data.prerequisite):
        return False
    if data.blocked_by and not played.isdisjoint(data.blocked_by):
        return False
    spec = EVENTS[card]  # every card but The China Card has one (tests/twilight_struggle/test_events.py)
    return spec.playable is None or spec.playable(state, actor)


def implemented() -> frozenset[int]:
    return frozenset(EVENTS)


def play_event_for(state: TSState, card: int, player: int, dispose: bool) -> None:
    """Push the event of ``card`` (carried out by its owner, or ``player`` for neutral cards),
    followed by disposal of the card when ``dispose``."""
    actor = event_player(card, player)
    playable = event_playable(state, card, actor)
    if dispose:
        starred = CD.CARD_BY_NUMBER[card].removed
        state.stack.append(("dispose", card, bool(playable and starred)))
    if playable:
        state.stack.append(("event", card, actor))
    else:
        log(state, role(state, actor), "event_blocked", CARD_OPTIONS[card].key)


class Event(TSStep):
    name = "event"

    def run(self, game, state, frame):
        _, card, actor = frame
        state.stack.pop()
        state.events_played = state.events_played | {card}
        log(state, role(state, actor), "event", CARD_OPTIONS[card].key)
        # Always pushed: it marks the event as under way (the 20-VP check waits for its end) and
        # runs the lasting effects that react to it.
        state.stack.append(("after_event", card, actor))
        EVENTS[card].fn(state, actor)
        return None


class AfterEvent(TSStep):
    """Lasting effects that react to an event once it is carried out (hooks.AFTER_EVENT_HOOKS)."""

    name = "after_event"

    def run(self, game, state, frame):
        _, card, actor = frame
        state.stack.pop()
        for hook in H.AFTER_EVENT_HOOKS:
            hook(state, card, actor)
        # map.md §12: every VP change of the event is in; now the 20-VP check.
        if not B.in_event(state):
            B.check_vp(state)
        return None


STEPS = (Event(), AfterEvent())
