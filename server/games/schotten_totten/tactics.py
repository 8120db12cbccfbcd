"""The tactics cards' steps of a Schotten Totten / Battle Line match (see :mod:`.steps`):
whether a tactics card has a legal use now and which cards tactics may touch, Fog and Mud put at a
flag (``environment``), and the guile tactics: Scout (``scout_draw``, ``scout_return``), Redeploy
(``redeploy``, ``redeploy_to``, with ``mud_discard`` when Mud leaves a flag), Deserter
(``deserter``) and Traitor (``traitor``, ``traitor_to``). Morale cards are placed by the turn's
``place`` step (:mod:`.turn`).
"""

from __future__ import annotations

from ...core.game import Decision, make_decision
from . import cards as C
from .board import (
    DECK_OPTIONS,
    DISCARD,
    FLAG_OPTIONS,
    STStep,
    _FLAG_SIDES,
    _card_options,
    _discard,
    _put_on_side,
    _remove_from_hand,
    _take_from_side,
    find_on_table,
    open_flags,
)
from .state import NO_ONE, TACTICS_DECK, TROOPS, STState

# -- which tactics can be played, and the cards they may touch ------------------------------------


def tactics_playable(state: STState, me: int, card: int, room: bool) -> bool:
    """Whether tactics ``card`` has a legal use for ``me`` now (count rule checked by caller)."""
    if card in C.LEADERS:
        return room and not state.leader_played[me]
    if card == C.COMPANION_CAVALRY or card == C.SHIELD_BEARERS:
        return room
    if card == C.FOG or card == C.MUD or card == C.SCOUT:
        return True  # some flag is unclaimed while the game goes on; Scout may find decks empty
    if card == C.REDEPLOY:
        return _any_movable(state, me, False)
    # (Loops and list comprehensions rather than generator expressions in this module: the
    # compiled engine cannot type a function holding a generator.)
    if card == C.DESERTER:
        for o in range(len(state.rules.roles)):
            if o != me and _any_movable(state, o, False):
                return True
        return False
    # Traitor: an enemy troop on an unclaimed flag, and a free slot of ours to put it in.
    if not room:
        return room
    for o in range(len(state.rules.roles)):
        if o != me and _any_movable(state, o, True):
            return True
    return False


def _any_movable(state: STState, role: int, troops_only: bool) -> bool:
    """Whether :func:`_own_movable` of ``role`` is not empty (``troops_only``: holds a troop),
    without building it."""
    claimed = state.claimed
    for f, side in enumerate(state.sides[role :: len(state.rules.roles)]):
        if claimed[f] >= 0:
            continue
        if troops_only:
            for c in side:
                if c < 60:
                    return True
        elif side or state.fog[f] == role or state.mud[f] == role:
            return True
    return False


def _own_movable(state: STState, role: int) -> list[int]:
    """Cards of ``role`` that tactics may touch: its formation cards and its Fog/Mud at unclaimed
    flags, in flag order."""
    sides, claimed, fog, mud = state.sides, state.claimed, state.fog, state.mud
    result: list[int] = []
    for f, i in _FLAG_SIDES[len(state.rules.roles)][role]:
        if claimed[f] >= 0:
            continue
        result.extend(sides[i])
        if fog[f] == role:
            result.append(C.FOG)
        if mud[f] == role:
            result.append(C.MUD)
    return result


# -- environment tactics -------------------------------------------------------------------------


class Environment(STStep):
    """Put Fog or Mud at an unclaimed flag."""

    name = "environment"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        card = frame[1]
        taken = state.fog if card == C.FOG else state.mud
        flags = [f for f in range(9) if state.claimed[f] == NO_ONE and taken[f] == NO_ONE]
        return make_decision(
            state.rules.roles[me],
            "environment",
            f"choose a flag for {C.card_name(card)}",
            tuple([FLAG_OPTIONS[f] for f in flags]),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack.pop()
        flag = option.value
        if frame[1] == C.FOG:
            state.fog[flag] = state.current
        else:
            state.mud[flag] = state.current  # sides of 3 are incomplete again (capacity 4)


# -- guile tactics -------------------------------------------------------------------------------


class ScoutDraw(STStep):
    """Scout: draw up to 3 cards one at a time, choosing the deck before each draw."""

    name = "scout_draw"
    prompt = "Scout: choose the deck for your next draw"

    def run(self, game, state: STState, frame) -> Decision | None:
        left = frame[1]
        me = state.current
        stack = state.stack
        available = [d for d in (TROOPS, TACTICS_DECK) if state.deck_size(d)]
        if left == 0 or not available:
            stack.pop()
            return None
        if len(available) == 2:
            return make_decision(state.rules.roles[me], "scout_draw", self.prompt, DECK_OPTIONS)
        stack[-1] = ("scout_draw", left - 1)
        stack.append(("draw_card", available[0], me))
        return None

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack[-1] = ("scout_draw", frame[1] - 1)
        state.stack.append(("draw_card", option.value, state.current))


class ScoutReturn(STStep):
    """Scout: put cards back face down on their own decks until the hand is back to its size
    (2 cards after 3 draws; fewer if the decks ran short — policy, rules digest §5)."""

    name = "scout_return"
    hidden = True
    prompt = "Scout: return a card on top of its deck (the last one returned lies on top)"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        hand = state.hands[me]
        if len(hand) <= state.rules.hand_size:
            state.stack.pop()
            # The others no longer know which of their known cards are still in this hand.
            return None
        return make_decision(
            state.rules.roles[me], "scout_return", self.prompt, _card_options(hand)
        )

    def choose(self, game, state: STState, frame, option) -> None:
        me = state.current
        card = option.value
        _remove_from_hand(state, me, card)
        deck = TROOPS if card < 60 else TACTICS_DECK
        state.tops[deck] += ((card, me),)
        # Others knew some cards of this hand; any of them may be the one returned, so they
        # forget them all rather than learn something hidden.
        for other in range(len(state.known)):
            if other != me and state.known[other]:
                state.known[other] = ()

    def visibility(self, state, frame, decision, option):
        deck = "troops" if option.value < 60 else "tactics"
        return (decision.role,), f"deck:{deck}"


class Redeploy(STStep):
    """Redeploy: choose one of your cards (formation card, Fog or Mud) at an unclaimed flag."""

    name = "redeploy"
    prompt = "Redeploy: choose one of your cards at an unclaimed flag"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        return make_decision(
            state.rules.roles[me],
            "redeploy",
            self.prompt,
            _card_options(_own_movable(state, me)),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        card = option.value
        state.stack[-1] = ("redeploy_to", card, _flag_of(state, card))


def _placed_at(env: list[int]) -> int:
    """The flag holding the one Fog (``env`` is ``state.fog``) or Mud (``state.mud``) card."""
    return next(f for f in range(9) if env[f] != NO_ONE)


def _flag_of(state: STState, card: int) -> int:
    if card == C.FOG or card == C.MUD:  # one of each exists: the flag holding it
        return _placed_at(state.fog if card == C.FOG else state.mud)
    found = find_on_table(state, card)
    assert found is not None
    return found[0]


class RedeployTo(STStep):
    """Redeploy: move the card to another unclaimed flag (your side, with room) or discard it."""

    name = "redeploy_to"

    def run(self, game, state: STState, frame) -> Decision | None:
        _, card, source = frame
        me = state.current
        if card in C.ENVIRONMENT:
            taken = state.fog if card == C.FOG else state.mud
            flags = [
                f
                for f in range(9)
                if f != source and state.claimed[f] == NO_ONE and taken[f] == NO_ONE
            ]
        else:
            flags = [f for f in open_flags(state, me) if f != source]
        options = [FLAG_OPTIONS[f] for f in flags]
        options.append(DISCARD)
        return make_decision(
            state.rules.roles[me],
            "redeploy_to",
            f"Redeploy: where does {C.card_name(card)} go?",
            tuple(options),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        _, card, source = frame
        me = state.current
        stack = state.stack
        stack.pop()
        target = option.value
        if card in C.ENVIRONMENT:
            if card == C.FOG:
                state.fog[source] = NO_ONE
                if target is None:
                    _discard(state, me, card)
                else:
                    state.fog[target] = me
                return
            state.mud[source] = NO_ONE
            if target is None:
                _discard(state, me, card)
            else:
                state.mud[target] = me
            _mud_gone(state, source, me)
            return
        _take_from_side(state, source, me, card)
        if target is None:
            _discard(state, me, card)
        else:
            _put_on_side(state, target, me, card)


def _mud_gone(state: STState, flag: int, actor: int) -> None:
    """Mud left ``flag``: every side with 4 cards discards one of its owner's choice (policy,
    rules digest §4), the acting player first."""
    n = len(state.rules.roles)
    order = [(actor + k) % n for k in range(n)]
    for role in reversed(order):  # pushed in reverse: the actor's decision runs first
        if len(state.sides[flag * n + role]) > 3:
            state.stack.append(("mud_discard", flag, role))


class MudDiscard(STStep):
    """Mud left a flag: the owner of a 4-card side discards one card of that side."""

    name = "mud_discard"

    def run(self, game, state: STState, frame) -> Decision | None:
        _, flag, role = frame
        side = state.side(flag, role)
        return make_decision(
            state.rules.roles[role],
            "mud_discard",
            f"Mud left flag {flag + 1}: discard one card of your side there",
            _card_options(side),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        _, flag, role = frame
        state.stack.pop()
        _take_from_side(state, flag, role, option.value)
        _discard(state, role, option.value)


class Deserter(STStep):
    """Deserter: discard one enemy card (formation card, Fog or Mud) at an unclaimed flag."""

    name = "deserter"
    prompt = "Deserter: choose an enemy card at an unclaimed flag to discard"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        targets: list[int] = []
        for other in range(len(state.rules.roles)):
            if other != me:
                targets.extend(_own_movable(state, other))
        return make_decision(
            state.rules.roles[me], "deserter", self.prompt, _card_options(targets)
        )

    def choose(self, game, state: STState, frame, option) -> None:
        me = state.current
        card = option.value
        state.stack.pop()
        if card == C.FOG or card == C.MUD:
            env = state.fog if card == C.FOG else state.mud
            flag = _placed_at(env)
            owner = env[flag]
            env[flag] = NO_ONE
            _discard(state, owner, card)
            if card == C.MUD:
                _mud_gone(state, flag, me)
            return
        flag, owner = find_on_table(state, card)  # type: ignore[misc]
        _take_from_side(state, flag, owner, card)
        _discard(state, owner, card)


class Traitor(STStep):
    """Traitor: choose an enemy troop (never a tactics card) at an unclaimed flag."""

    name = "traitor"
    prompt = "Traitor: choose an enemy troop at an unclaimed flag"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        targets: list[int] = []
        for other in range(len(state.rules.roles)):
            if other != me:
                targets.extend([c for c in _own_movable(state, other) if c < 60])
        return make_decision(
            state.rules.roles[me], "traitor", self.prompt, _card_options(targets)
        )

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack[-1] = ("traitor_to", option.value)


class TraitorTo(STStep):
    """Traitor: place the taken troop on your side of an unclaimed flag with room."""

    name = "traitor_to"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        return make_decision(
            state.rules.roles[me],
            "traitor_to",
            f"Traitor: choose a flag for {C.card_name(frame[1])}",
            tuple([FLAG_OPTIONS[f] for f in open_flags(state, me)]),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        card = frame[1]
        state.stack.pop()
        flag, owner = find_on_table(state, card)  # type: ignore[misc]
        _take_from_side(state, flag, owner, card)
        _put_on_side(state, option.value, state.current, card)
