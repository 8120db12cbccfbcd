"""Where lasting card effects (and the few cards acting outside their event) plug into the rules.

The engine never names a card's effect: it runs the hooks of a list where the rules need them.
The event modules register their hooks when imported, next to the card's event; ``events``
imports them in card order (scoring, Early War, Mid War, Late War), so every list has a fixed,
deterministic order. Where two entries of one list do not commute, the module registering them
says so and registers them in the order the rules need (Mid War's action-round hooks).

The turn (:mod:`.turn`):

* ``ACTION_ROUNDS_HOOKS``: ``hook(state, rounds)`` when a turn's action rounds are laid out
  (``rounds`` regular ones per side), before any is pushed: frames it pushes come after every
  other round of the turn (North Sea Oil's 8th US round, from the headline). An extra round is
  optional: ``turn.ActionRound`` asks whether it is taken before ``ACTION_ROUND_HOOKS`` run.
* ``ACTION_ROUND_HOOKS``: ``hook(state, side) -> bool`` at the start of ``side``'s action round,
  before it picks a card. Returning True means the hook pushed frames (they run first) or
  replaced the round (it popped the ``action_round`` frame itself). Quagmire / Bear Trap (the
  round becomes discard-and-roll), "We Will Bury You" (VP at the US's next round), the Cuban
  Missile Crisis cancellation offer.
* ``EVENT_OPS_HOOKS``: ``hook(state, side) -> bool`` when an event grants ``side`` Operations
  (``ev_ops``, in any side's round), before it picks their use; True means the hook pushed frames
  (they run first). The Cuban Missile Crisis cancellation offer (Lone Gunman in the US's round).
* ``CARD_FILTERS``: ``filter(state, side, cards) -> cards``: which cards may be played this round
  (Missile Envy must be played next).
* ``HEADLINE_FILTERS``: ``filter(state, side, cards) -> cards``: which cards may be headlined
  (an owed Missile Envy may not).
* ``HEADLINE_HOOKS``: ``hook(state) -> sides`` once both headlines are revealed: the sides whose
  headline is cancelled (Defectors; the hook discards the card itself).
* ``USE_FILTERS``: ``filter(state, side, card, options) -> options``: how it may be played.
* ``CARD_USE_HOOKS``: ``hook(state, side, card, use)`` when ``side`` plays ``card`` from its
  action round for Operations (``use`` as ``influence:event_first``...), before anything of it
  happens (Defectors played by the USSR).
* ``CHINA_CARD_HOOKS``: ``hook(state, side)`` when ``side`` plays The China Card (Formosan
  Resolution ends when the US does).
* ``AFTER_EVENT_HOOKS``: ``hook(state, card, actor)`` once an event has been carried out (Flower
  Power on war cards, U2 Incident after UN Intervention).
* ``AFTER_ROUND_HOOKS``: ``hook(state, side, card, use, defcon_before)`` when an action round
  ends (NORAD's influence; Missile Envy's debt paid, "We Will Bury You"'s commitment: NORAD only
  pushes a frame, the others only drop effects, so they commute).
* ``DISCARD_HOOKS``: ``hook(state, side, card)`` after a forced discard from ``side``'s hand
  (``primitives.discard_from_hand``: an owed Missile Envy goes with its obligation).

Events (:mod:`.events.primitives`):

* ``WAR_MODIFIERS``: ``modifier(state, actor, card, target) -> int`` added to what war card
  ``card`` subtracts from ``actor``'s die against ``target`` (the Chinese Civil War variant: the
  USSR gets −1 on Korean War until it claims The China Card).

Operations (:mod:`.ops`):

* ``OPS_BONUSES`` then ``OPS_PENALTIES``: ``modifier(state, side, card, value) -> value``: a
  card's Operations for ``side`` (Containment / Brezhnev Doctrine +1 not above 4, then Red
  Scare/Purge −1 not below 1).
* ``SOUTHEAST_ASIA_BONUSES``: ``bonus(state, side, card) -> bool``: +1 Op when every point of
  the play goes to Southeast Asia (Vietnam Revolts).
* ``PLACEMENT_BARS``: ``bar(state, side) -> countries`` where ``side`` may not place influence by
  Operations (Chernobyl).
* ``PROTECTIONS``: ``bar(state, side) -> countries`` off limits to ``side``'s coups and
  realignments (US/Japan Mutual Defense Pact, NATO with De Gaulle's and Willy Brandt's holes).
* ``COUP_BARS``: ``bar(state, side) -> countries`` off limits to ``side``'s coups only (The
  Reformer).
* ``REALIGN_MODIFIERS``: ``modifier(state, side, country) -> int`` added to ``side``'s
  realignment die (Iran-Contra Scandal).
* ``OPERATIONS_HOOKS``: ``hook(state, side, card, kind)`` when ``side`` spends ``card``'s
  Operations (influence / realign / coup), however the card reached it (Flower Power counts a
  US war card played for Operations, even one taken with Grain Sales or Missile Envy).
* ``BEFORE_COUP_HOOKS``: ``hook(state, side, country)`` once ``side`` has chosen to coup
  ``country`` (any coup: Operations, an event's free coup, Che), its die pushed; frames the hook
  pushes run before the die (the Cuban Missile Crisis's last offer to cancel).
* ``COUP_HOOKS``: ``hook(state, side, country) -> bool`` when a coup is rolled, before anything
  else; True means the coup does not happen: the hook ended the game (Cuban Missile Crisis).
* ``COUP_MODIFIERS``: ``modifier(state, side, country) -> int`` added to coup rolls (SALT
  Negotiations, Latin American Death Squads).
* ``AFTER_COUP_HOOKS``: ``hook(state, side, country)`` after a coup's result and military
  operations, before its DEFCON drop (Yuri and Samantha).
* ``DEFCON_EXEMPTIONS``: ``exempt(state, side, country) -> bool``: a coup in a battleground that
  does not lower DEFCON (Nuclear Subs).

Scoring (:mod:`.board`, ``events.scoring``):

* ``SCORING_HOOKS``: ``hook(state, region) -> bool`` before a region scoring card scores; True
  means it pushed frames to run first (Shuttle Diplomacy asks which battleground to ignore).
* ``SCORING_EXCLUSIONS``: ``exclude(state, region) -> country ids`` that do not count in a
  region scoring (the one Shuttle Diplomacy named).
* ``EXTRA_BATTLEGROUNDS``: ``extra(state, region, side) -> countries`` that count as
  battlegrounds for ``side`` when it controls them (Taiwan for the US: Formosan Resolution).
* ``AFTER_SCORING_HOOKS``: ``hook(state, region)`` after a region scoring card scored (Shuttle
  Diplomacy's exclusion lasts one scoring).

Views (:mod:`.game`):

* ``OPEN_HANDS``: ``hook(state, side) -> bool``: the other side's hand is open to ``side``
  (Aldrich Ames Remix).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# the turn
ACTION_ROUNDS_HOOKS: list[Callable[[Any, int], None]] = []
ACTION_ROUND_HOOKS: list[Callable[[Any, int], bool]] = []
EVENT_OPS_HOOKS: list[Callable[[Any, int], bool]] = []
CARD_FILTERS: list[Callable[[Any, int, list[int]], list[int]]] = []
HEADLINE_FILTERS: list[Callable[[Any, int, list[int]], list[int]]] = []
HEADLINE_HOOKS: list[Callable[[Any], Iterable[int]]] = []
USE_FILTERS: list[Callable[[Any, int, int, list[Any]], list[Any]]] = []
CARD_USE_HOOKS: list[Callable[[Any, int, int, str], None]] = []
CHINA_CARD_HOOKS: list[Callable[[Any, int], None]] = []
AFTER_EVENT_HOOKS: list[Callable[[Any, int, int], None]] = []
AFTER_ROUND_HOOKS: list[Callable[[Any, int, int, str, int], None]] = []
DISCARD_HOOKS: list[Callable[[Any, int, int], None]] = []

# events
WAR_MODIFIERS: list[Callable[[Any, int, int, int], int]] = []

# operations
OPS_BONUSES: list[Callable[[Any, int, int, int], int]] = []
OPS_PENALTIES: list[Callable[[Any, int, int, int], int]] = []
SOUTHEAST_ASIA_BONUSES: list[Callable[[Any, int, int], bool]] = []
PLACEMENT_BARS: list[Callable[[Any, int], Iterable[int]]] = []
PROTECTIONS: list[Callable[[Any, int], Iterable[int]]] = []
COUP_BARS: list[Callable[[Any, int], Iterable[int]]] = []
REALIGN_MODIFIERS: list[Callable[[Any, int, int], int]] = []
OPERATIONS_HOOKS: list[Callable[[Any, int, int, str], None]] = []
BEFORE_COUP_HOOKS: list[Callable[[Any, int, int], None]] = []
COUP_HOOKS: list[Callable[[Any, int, int], bool]] = []
COUP_MODIFIERS: list[Callable[[Any, int, int], int]] = []
AFTER_COUP_HOOKS: list[Callable[[Any, int, int], None]] = []
DEFCON_EXEMPTIONS: list[Callable[[Any, int, int], bool]] = []

# scoring
SCORING_HOOKS: list[Callable[[Any, str], bool]] = []
SCORING_EXCLUSIONS: list[Callable[[Any, str], Iterable[str]]] = []
EXTRA_BATTLEGROUNDS: list[Callable[[Any, str, int], Iterable[int]]] = []
AFTER_SCORING_HOOKS: list[Callable[[Any, str], None]] = []

# views
OPEN_HANDS: list[Callable[[Any, int], bool]] = []
