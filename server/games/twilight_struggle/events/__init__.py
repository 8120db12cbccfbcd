"""Card events: one short function per card, registered by number (Rally the Troops' shape).

* :mod:`.registry`: the register (``EVENTS``, ``@event``, ``event_playable``, ``play_event_for``)
  and the steps carrying an event out. The turn flow imports only this module.
* :mod:`.primitives`: the building blocks every period shares (place/remove influence, choices,
  war rolls, granted Operations, forced discards...).
* The cards, each module in card-number order: :mod:`.scoring` (the seven scoring cards),
  :mod:`.early_war` (with the optional #103-106), :mod:`.mid_war_36_59`, :mod:`.mid_war_60_108`
  (with the optional #107-108), :mod:`.late_war` (with the optional #109-110).

Importing this package imports the card modules in that order: it fills ``EVENTS`` and registers
the lasting effects' hooks (:mod:`..hooks`) in a fixed order.
"""

from __future__ import annotations

# In card order, not alphabetical: the lasting effects' hooks register in this order.
from . import registry, primitives
from . import scoring
from . import early_war
from . import mid_war_36_59
from . import mid_war_60_108
from . import late_war
from .registry import EVENTS, EventSpec, event, event_playable, implemented, play_event_for

#: The steps of the event modules, wired into the game's steps (game.STEPS).
STEPS = (
    *registry.STEPS, *primitives.STEPS, *scoring.STEPS, *early_war.STEPS, *mid_war_36_59.STEPS,
    *mid_war_60_108.STEPS, *late_war.STEPS,
)


def event_steps() -> list:
    """Every Step the event modules define."""
    return list(STEPS)


__all__ = ["EVENTS", "STEPS", "EventSpec", "event", "event_playable", "event_steps", "implemented", "play_event_for"]
