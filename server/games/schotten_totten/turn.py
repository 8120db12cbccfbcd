"""The turn flow of a Schotten Totten / Battle Line match (see :mod:`.steps`): the set-up (the
deal and who starts), the turn expanded into its phases (``[claim] play [claim] draw [claim]
end_turn``, by the ``claim_timing`` option), the stalemate policy and decision cap at the end of a
turn, playing a card (a troop or morale card then goes to a flag with ``place``), claiming flags
and drawing. The tactics cards' own steps are in :mod:`.tactics`.
"""

from __future__ import annotations

from bisect import bisect_left

from ...core.game import CHANCE, Decision, Option, Outcome, make_decision
from . import cards as C
from .board import (
    CARD_OPTIONS,
    DECISION_CAP,
    DECK_OPTIONS,
    DONE,
    FLAG_OPTIONS,
    FORCED_PASS,
    PASS,
    STALEMATE,
    STStep,
    _add_to_hand,
    _card_options,
    _check_win,
    _discard,
    claimable_flags,
    deck_options,
    open_flag_options,
    take_from_deck,
)
from .state import DECK_NAMES, TACTICS_DECK, TROOPS, STState
from .tactics import _any_movable, tactics_playable

_tuple_new = tuple.__new__  # Decision(...) without NamedTuple's keyword machinery (as make_decision)
_FORCED = (FORCED_PASS,)
_ROLE_TUPLES: dict[str, tuple[str]] = {}
_DECK_KEYS = tuple(f"deck:{name}" for name in DECK_NAMES)


def _only(role: str) -> tuple[str]:
    """``(role,)``, shared: the roles that see a hidden draw."""
    seen = _ROLE_TUPLES.get(role)
    if seen is None:
        seen = _ROLE_TUPLES[role] = (role,)
    return seen

# -- set-up --------------------------------------------------------------------------------------


class Deal(STStep):
    """Deal a hand to every role, one chance decision per card (troops only). The frame counts
    the cards dealt so far: ``("deal", dealt)``; card ``k`` goes to role ``k % n``."""

    name = "deal"
    hidden = True

    def run(self, game, state: STState, frame) -> Decision | None:
        if frame[1] >= len(state.rules.roles) * state.rules.hand_size:
            state.stack.pop()
            return None
        return make_decision(CHANCE, "deal", "deal a troop card", deck_options(state, TROOPS))

    def choose(self, game, state: STState, frame, option) -> None:
        card = option.value
        take_from_deck(state, TROOPS, card)
        _add_to_hand(state, frame[1] % len(state.rules.roles), card)
        state.stack[-1] = ("deal", frame[1] + 1)

    def visibility(self, state, frame, decision, option):
        roles = state.rules.roles
        return _only(roles[frame[1] % len(roles)]), "deck:troops"


ROLE_OPTIONS_CACHE: dict[tuple[str, ...], tuple[Option, ...]] = {}


class FirstPlayer(STStep):
    """Choose who starts: a chance decision, or fixed by the ``first`` option."""

    name = "first_player"

    def run(self, game, state: STState, frame) -> Decision | None:
        roles = state.rules.roles
        if state.rules.first != "random":
            state.current = roles.index(state.rules.first)
            state.stack[-1] = ("turn",)
            return None
        options = ROLE_OPTIONS_CACHE.get(roles)
        if options is None:
            options = tuple([Option(f"role:{r}", f"{r} starts", i) for i, r in enumerate(roles)])
            ROLE_OPTIONS_CACHE[roles] = options
        return make_decision(CHANCE, "first_player", "choose who starts", options)

    def choose(self, game, state: STState, frame, option) -> None:
        state.current = option.value
        state.stack[-1] = ("turn",)


# -- the turn ------------------------------------------------------------------------------------


_TURN_FRAMES = {
    "after_play": (("end_turn",), ("draw",), ("claim",), ("play",)),
    "start_of_turn": (("end_turn",), ("draw",), ("play",), ("claim",)),
    "end_of_turn": (("end_turn",), ("claim",), ("draw",), ("play",)),
}


def _push_turn(state: STState) -> None:
    """Push the phases of a turn (run from the end), in the order the claim timing gives."""
    state.turn += 1
    state.stack.extend(_TURN_FRAMES[state.rules.claim_timing])


class Turn(STStep):
    """The first turn of the match: expand it into its phases (later turns are expanded by
    ``end_turn``)."""

    name = "turn"

    def run(self, game, state: STState, frame) -> Decision | None:
        state.stack.pop()
        _push_turn(state)
        return None


class EndTurn(STStep):
    """Apply the stalemate policy and the decision cap, then pass the turn on."""

    name = "end_turn"

    def run(self, game, state: STState, frame) -> Decision | None:
        rules = state.rules
        n = len(rules.roles)
        # Stalemate policy (rules digest §2): every player in succession could do nothing but
        # pass, and nobody can prove a flag (a declined claim keeps the game going; the
        # decision cap bounds a game in which claims are declined for ever).
        # (Loops and list comprehensions rather than generator expressions in the steps: the
        # compiled engine cannot type a function holding a generator.)
        if state.passes >= n:
            for r in range(n):
                if claimable_flags(state, r):
                    break
            else:
                _stalemate(state)
                return None
        if state.number >= rules.decision_cap:
            state.outcome = Outcome.draw(
                rules.roles, DECISION_CAP, f"the decision cap ({rules.decision_cap}) was reached"
            )
            return None
        state.current = (state.current + 1) % n
        # pop this frame and push the next turn's phases (as Turn does)
        state.turn += 1
        state.stack[-1:] = _TURN_FRAMES[rules.claim_timing]
        return None


def _stalemate(state: STState) -> None:
    rules = state.rules
    reason = "every player passed in succession"
    if rules.stalemate == "flags":
        counts = [state.claimed.count(r) for r in range(len(rules.roles))]
        best = max(counts)
        if counts.count(best) == 1:
            winner = counts.index(best)
            state.outcome = Outcome.win(
                rules.roles,
                rules.roles[winner],
                STALEMATE,
                f"{reason}; {rules.roles[winner]} holds more flags ({best})",
            )
            return
        reason += " with equal flags"
    state.outcome = Outcome.draw(rules.roles, STALEMATE, reason)


class Play(STStep):
    """Play one card from the hand, or pass when no troop card can be placed."""

    name = "play"
    prompt = "play a card (troops go to a flag; tactics follow their own rules)"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        hand = state.hands[me]  # sorted: troops (< 60) first, then tactics
        roles = state.rules.roles
        claimed, mud = state.claimed, state.mud
        room = False
        for f, side in enumerate(state.sides[me :: len(roles)]):
            if len(side) < (3 if mud[f] < 0 else 4) and claimed[f] < 0:
                room = True
                break
        if not hand or hand[-1] < 60:  # no tactics in hand
            if room and hand:
                return _tuple_new(Decision, (roles[me], "play", self.prompt, _card_options(hand), None))
            return _tuple_new(Decision, (roles[me], "play", self.prompt, _FORCED, None))
        k = bisect_left(hand, 60)
        options = list(_card_options(hand[:k])) if room else []
        played = state.tactics_played
        mine = played[me]
        n = len(played)
        # Count rule: no more tactics played than any opponent so far.
        if n == 2:
            allowed = mine <= played[1 - me]
        else:
            allowed = True
            for o in range(n):
                if o != me and not mine <= played[o]:
                    allowed = False
                    break
        if allowed:
            for c in hand[k:]:
                if c < 62:  # a leader
                    if room and not state.leader_played[me]:
                        options.append(CARD_OPTIONS[c])
                elif c < 64:  # Companion Cavalry, Shield Bearers
                    if room:
                        options.append(CARD_OPTIONS[c])
                elif c < 67:  # Fog, Mud, Scout: always
                    options.append(CARD_OPTIONS[c])
                elif n == 2:  # tactics_playable, for the one opponent
                    if c == C.REDEPLOY:
                        if _any_movable(state, me, False):
                            options.append(CARD_OPTIONS[c])
                    elif (room or c == C.DESERTER) and _any_movable(state, 1 - me, c == C.TRAITOR):
                        options.append(CARD_OPTIONS[c])
                elif tactics_playable(state, me, c, room):
                    options.append(CARD_OPTIONS[c])
        if not (room and k):
            options.append(PASS if options else FORCED_PASS)
        return _tuple_new(Decision, (roles[me], "play", self.prompt, tuple(options), None))

    def choose(self, game, state: STState, frame, option) -> None:
        stack = state.stack
        card = option.value
        if card.__class__ is str:  # a pass
            stack.pop()
            if card == "forced":
                state.passes += 1
            else:  # "voluntary": a pass with a tactics card left unplayed
                state.passes = 0
            return
        state.passes = 0
        me = state.current
        hand = state.hands[me]  # board._remove_from_hand, inlined
        i = hand.index(card)
        state.hands[me] = hand[:i] + hand[i + 1 :]
        if card < 60:
            stack[-1] = _PLACE_FRAMES[card]
            return
        stack.pop()
        state.tactics_played[me] += 1
        if card in C.MORALE:
            if card in C.LEADERS:
                state.leader_played[me] = True
            stack.append(("place", card))
        elif card in C.ENVIRONMENT:
            stack.append(("environment", card))
        else:
            _discard(state, me, card)  # guile cards are resolved, then lie face up
            if card == C.SCOUT:
                stack.append(("scout_return",))
                stack.append(("scout_draw", 3))
            elif card == C.REDEPLOY:
                stack.append(("redeploy",))
            elif card == C.DESERTER:
                stack.append(("deserter",))
            else:
                stack.append(("traitor",))


_PLACE_PROMPTS = tuple(f"choose a flag for {C.card_name(c)}" for c in range(70))
_PLACE_FRAMES = tuple(("place", c) for c in range(70))


class Place(STStep):
    """Place a troop or morale card on one's own side of an unclaimed flag with room."""

    name = "place"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        return _tuple_new(
            Decision, (state.rules.roles[me], "place", _PLACE_PROMPTS[frame[1]], open_flag_options(state, me), None)
        )

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack.pop()
        # board._put_on_side, inlined
        card = frame[1]
        i = option.value * len(state.rules.roles) + state.current
        if card < 60:
            state.table |= 1 << card
        state.sides[i] += (card,)
        state.placed[i] += (state.number,)


# -- claims and draws ----------------------------------------------------------------------------


class Claim(STStep):
    """Claim any number of provable flags, one decision each, until ``done``."""

    name = "claim"
    prompt = "claim a flag you can prove, or done"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        flags = claimable_flags(state, me)
        if not flags:
            state.stack.pop()
            return None
        options = [FLAG_OPTIONS[f] for f in flags]
        options.append(DONE)
        return make_decision(state.rules.roles[me], "claim", self.prompt, tuple(options))

    def choose(self, game, state: STState, frame, option) -> None:
        if option.value is None:
            state.stack.pop()
            return
        me = state.current
        state.claimed[option.value] = me
        state.passes = 0  # a claim changes the position: no stalemate this round
        _check_win(state, me, option.value)


class Draw(STStep):
    """Draw up to the hand size from a deck of one's choice (mandatory when possible)."""

    name = "draw"
    prompt = "choose the deck to draw from"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        stack = state.stack
        if len(state.hands[me]) >= state.rules.hand_size:
            stack.pop()
            return None
        decks, tops = state.decks, state.tops
        troops = decks[TROOPS] or tops[TROOPS]
        tactics = decks[TACTICS_DECK] or tops[TACTICS_DECK]
        if troops and tactics:
            return make_decision(state.rules.roles[me], "draw", self.prompt, DECK_OPTIONS)
        stack.pop()
        if troops or tactics:
            stack.append(("draw_card", TROOPS if troops else TACTICS_DECK, me))
        return None

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack[-1] = ("draw_card", option.value, state.current)


_DRAW_PROMPTS = tuple(f"draw from the {name} deck" for name in DECK_NAMES)


class DrawCard(STStep):
    """Take the top card of a deck: a known card put back by Scout, else a chance decision."""

    name = "draw_card"
    hidden = True

    def run(self, game, state: STState, frame) -> Decision | None:
        _, deck, role = frame
        tops = state.tops[deck]
        if tops:
            card, knower = tops[-1]
            state.tops[deck] = tops[:-1]
            _add_to_hand(state, role, card)
            if knower != role:
                state.known[knower] += (card,)
            state.stack.pop()
            return None
        return _tuple_new(Decision, (CHANCE, "draw_card", _DRAW_PROMPTS[deck], deck_options(state, deck), None))

    def choose(self, game, state: STState, frame, option) -> None:
        _, deck, role = frame
        card = option.value
        # board.take_from_deck, inlined
        cards = state.decks[deck]
        i = cards.index(card)
        rest = state.decks[deck] = cards[:i] + cards[i + 1 :]
        cached = state.deck_options[deck]
        if cached is not None and cached[0] is cards:
            options = cached[1]
            state.deck_options[deck] = (rest, options[:i] + options[i + 1 :])
        hand = state.hands[role]  # kept sorted (see board._add_to_hand)
        i = bisect_left(hand, card)
        state.hands[role] = hand[:i] + (card,) + hand[i:]
        state.stack.pop()

    def visibility(self, state, frame, decision, option):
        return _only(state.rules.roles[frame[2]]), _DECK_KEYS[frame[1]]
