"""Where lasting card effects plug into the turn (registered by the event modules, in import
order, so the order is deterministic).

* ``ACTION_ROUND_HOOKS``: ``hook(state, side) -> bool`` at the start of ``side``'s action round,
  before it picks a card. Returning True means the hook pushed frames (they run first) or
  replaced the round (it popped the ``action_round`` frame itself). Examples: Quagmire / Bear
  Trap (the round becomes discard-and-roll), "We Will Bury You" (VP at the US's next round),
  the Cuban Missile Crisis cancellation offer.
* ``CARD_FILTERS``: ``filter(state, side, cards) -> cards``: which cards may be played this round
  (Missile Envy must be played next).
* ``HEADLINE_FILTERS``: ``filter(state, side, cards) -> cards``: which cards may be headlined
  (an owed Missile Envy may not).
* ``USE_FILTERS``: ``filter(state, side, card, options) -> options``: how it may be played.
* ``AFTER_EVENT_HOOKS``: ``hook(state, card, actor)`` once an event has been carried out (Flower
  Power on war cards, U2 Incident after UN Intervention).
* ``AFTER_ROUND_HOOKS``: ``hook(state, side, card, use, defcon_before)`` when an action round ends.
* ``OPERATIONS_HOOKS``: ``hook(state, side, card, kind)`` when ``side`` spends ``card``'s
  Operations (influence / realign / coup), however the card reached it (Flower Power counts a
  US war card played for Operations, even one taken with Grain Sales or Missile Envy).
* ``COUP_MODIFIERS``: ``modifier(state, side, country) -> int`` added to coup rolls (Latin
  American Death Squads); SALT's −1 lives in ops.resolve_coup.
* ``SCORING_HOOKS``: ``hook(state, region) -> bool`` before a region scoring card scores; True
  means it pushed frames to run first (Shuttle Diplomacy asks which battleground to ignore).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ACTION_ROUND_HOOKS: list[Callable[[Any, int], bool]] = []
CARD_FILTERS: list[Callable[[Any, int, list[int]], list[int]]] = []
HEADLINE_FILTERS: list[Callable[[Any, int, list[int]], list[int]]] = []
USE_FILTERS: list[Callable[[Any, int, int, list[Any]], list[Any]]] = []
AFTER_EVENT_HOOKS: list[Callable[[Any, int, int], None]] = []
AFTER_ROUND_HOOKS: list[Callable[[Any, int, int, str, int], None]] = []
OPERATIONS_HOOKS: list[Callable[[Any, int, int, str], None]] = []
COUP_MODIFIERS: list[Callable[[Any, int, int], int]] = []
SCORING_HOOKS: list[Callable[[Any, str], bool]] = []
