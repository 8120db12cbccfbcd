"""Card events: one short function per card, registered by number (Rally the Troops' shape).

An event function ``fn(state, actor)`` carries out the event for ``actor`` (the side whose event
it is; the player for a neutral card). Effects that need a choice push frames of the shared
primitives in :mod:`.primitives` (place/remove influence, choices, war rolls...); effects that need
none change the state directly. ``playable(state, actor)`` says whether the event can happen at
all (prerequisites, blocks, "if" conditions: cards.md §5.2); an unplayable event does not occur and
a starred card is discarded rather than removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import card_data as CD
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
    if data.prerequisite and not any(p in state.events_played for p in data.prerequisite):
        return False
    if any(b in state.events_played for b in data.blocked_by):
        return False
    spec = EVENTS[card]  # a missing event is a referee bug: rules() refuses such games
    return spec.playable is None or spec.playable(state, actor)


def implemented() -> frozenset[int]:
    return frozenset(EVENTS)


def event_steps() -> list:
    """Every Step the event modules define (their module-level ``STEPS`` tuples)."""
    import sys

    found = []
    for name in sorted(sys.modules):
        if name.startswith(__name__ + "."):
            found.extend(getattr(sys.modules[name], "STEPS", ()))
    return found


# Importing the period modules registers their events.
from . import early  # noqa: E402,F401
from . import early_b  # noqa: E402,F401
from . import early_a  # noqa: E402,F401
from . import mid  # noqa: E402,F401
from . import mid_a  # noqa: E402,F401
from . import mid_b  # noqa: E402,F401
from . import mid_c  # noqa: E402,F401
from . import late_a  # noqa: E402,F401
from . import late_b  # noqa: E402,F401
