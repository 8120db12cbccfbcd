"""The event models of ``ts-heuristic``, by card number: what a card's event would do, carried out
greedily on a :class:`~.simulation.Sim` for the side it fires for. Each period's cards have their
own module (:mod:`.events_early`, :mod:`.events_mid`, :mod:`.events_late`); ``EVENTS`` gathers
them for the bot's valuation (its event values, the harm of an opponent's card, the order of an
opponent's event and our operations). Every one of the 110 cards has a model, The China Card's
and the unplayable ones as 0.
"""

from __future__ import annotations

from .events_early import EARLY_EVENTS
from .events_late import LATE_EVENTS
from .events_mid import MID_EVENTS
from .simulation import EventModel

EVENTS: dict[int, EventModel] = {**EARLY_EVENTS, **MID_EVENTS, **LATE_EVENTS}
