"""The steps of a Schotten Totten / Battle Line match, one small class each.

Frames are tuples ``(step_name, *args)``. A turn is expanded into its phases by ``turn``:
``[claim] play [claim] draw [claim] end_turn`` (where the claim phase sits depends on the
``claim_timing`` option). Tactics cards push their own frames (``place``, ``environment``,
``scout``, ``redeploy``...). Option keys are stable: ``card:red-5``, ``flag:4``, ``deck:troops``,
``pass``, ``done``, ``discard``, ``role:p1``.
"""

from __future__ import annotations

from bisect import bisect_left

from ...core.flow import Step
from ...core.game import CHANCE, Decision, Option, Outcome, make_decision
from . import cards as C
from .formations import can_claim_mask, refute
from .state import DECK_NAMES, NO_ONE, TACTICS_DECK, TROOPS, STState

# -- prebuilt options: building a decision is indexing, not formatting --------------------------

CARD_OPTIONS: tuple[Option, ...] = tuple(
    Option(f"card:{C.card_name(c)}", C.card_name(c), c) for c in range(70)
)
FLAG_OPTIONS: tuple[Option, ...] = tuple(Option(f"flag:{f + 1}", f"flag {f + 1}", f) for f in range(9))
DECK_OPTIONS: tuple[Option, ...] = tuple(
    Option(f"deck:{name}", f"draw from the {name} deck", d) for d, name in enumerate(DECK_NAMES)
)
PASS = Option("pass", "pass (no troop card can be placed)", "voluntary")
#: The same choice when it is the only one: only such passes count toward a stalemate.
FORCED_PASS = Option("pass", "pass (nothing can be played)", "forced")
DONE = Option("done", "claim nothing more", None)
DISCARD = Option("discard", "discard it face up", None)

# Termination codes of this game.
BREAKTHROUGH = "breakthrough"
ENVELOPMENT = "envelopment"
STALEMATE = "stalemate"
DECISION_CAP = "decision_cap"


_card_option = CARD_OPTIONS.__getitem__


def _card_options(cards) -> tuple[Option, ...]:
    return tuple(map(_card_option, cards))


def _side_index(state: STState, flag: int, role: int) -> int:
    return flag * len(state.rules.roles) + role


#: _FLAG_SIDES[n][role]: ((flag, side index), ...) for the 9 flags, so loops need no arithmetic.
_FLAG_SIDES = {n: tuple(tuple((f, f * n + r) for f in range(9)) for r in range(n)) for n in (2, 3)}


def has_room(state: STState, role: int) -> bool:
    """Whether ``role`` has a free slot on its side of some unclaimed flag."""
    sides, claimed, mud = state.sides, state.claimed, state.mud
    for f, i in _FLAG_SIDES[len(state.rules.roles)][role]:
        if len(sides[i]) < (3 if mud[f] < 0 else 4) and claimed[f] < 0:
            return True
    return False


def open_flags(state: STState, role: int) -> list[int]:
    """Unclaimed flags where ``role`` has a free slot."""
    sides, claimed, mud = state.sides, state.claimed, state.mud
    return [
        f
        for f, i in _FLAG_SIDES[len(state.rules.roles)][role]
        if len(sides[i]) < (3 if mud[f] < 0 else 4) and claimed[f] < 0
    ]


def _add_to_hand(state: STState, role: int, card: int) -> None:
    # Hands stay sorted so that their order reveals nothing about when a card arrived.
    hand = state.hands[role]
    i = bisect_left(hand, card)
    state.hands[role] = hand[:i] + (card,) + hand[i:]


def _remove_from_hand(state: STState, role: int, card: int) -> None:
    hand = state.hands[role]
    i = hand.index(card)
    state.hands[role] = hand[:i] + hand[i + 1 :]


def _put_on_side(state: STState, flag: int, role: int, card: int) -> None:
    i = _side_index(state, flag, role)
    if card < 60:
        state.table |= 1 << card
    state.sides[i] += (card,)
    state.placed[i] += (state.number,)


def _take_from_side(state: STState, flag: int, role: int, card: int) -> None:
    i = _side_index(state, flag, role)
    side = state.sides[i]
    j = side.index(card)
    state.sides[i] = side[:j] + side[j + 1 :]
    placed = state.placed[i]
    state.placed[i] = placed[:j] + placed[j + 1 :]


def _discard(state: STState, role: int, card: int) -> None:
    state.discards[role] += (card,)


def find_on_table(state: STState, card: int) -> tuple[int, int] | None:
    """(flag, role) of a card lying in a formation slot, or ``None``."""
    n = len(state.rules.roles)
    for i, side in enumerate(state.sides):
        if card in side:
            return divmod(i, n)
    return None


def claimable_flags(state: STState, role: int) -> list[int]:
    """Flags ``role`` can prove now (rules digest §4).

    Verdicts are cached per side in ``state.proofs`` as ``(fog, mud, verdict, *sides at the
    flag)``, the verdict being -1 (provable) or a refutation mask: a proof holds while the flag's
    sides (tuples, replaced on every change, so compared by identity) and environment are unchanged, because unseen troops only ever decrease; a refutation holds while
    its witness troops are still unseen.
    """
    n = len(state.rules.roles)
    sides, claimed, mud, fog, proofs = state.sides, state.claimed, state.mud, state.fog, state.proofs
    result = []
    for f, i in _FLAG_SIDES[n][role]:
        mine = sides[i]
        if len(mine) < 3 or claimed[f] >= 0:
            continue
        size = 3 if mud[f] < 0 else 4
        if len(mine) < size:
            continue
        base = i - role
        cached = proofs[i]
        # Entries are (fog, mud, verdict, side 0, side 1, ...): sides compared by identity.
        if cached is not None and cached[0] == fog[f] and cached[1] == mud[f]:
            if n == 2:
                same = cached[3] is sides[base] and cached[4] is sides[base + 1]
            else:
                same = all(cached[3 + r] is sides[base + r] for r in range(n))
            if same:
                verdict = cached[2]
                if verdict < 0:
                    result.append(f)
                    continue
                if not verdict & state.table:
                    continue
        verdict = -1  # -1: provable; else a refutation mask
        unseen = state.unseen_mask()
        mine_at = max(state.placed[base + role])
        for other in range(n):
            if other == role:
                continue
            theirs = sides[base + other]
            theirs_at = max(state.placed[base + other]) if len(theirs) >= size else 0
            refutation = refute(mine, mine_at, theirs, theirs_at, size, unseen, fog[f] != NO_ONE)
            if refutation is not None:
                verdict = refutation
                break
        proofs[i] = (fog[f], mud[f], verdict, *sides[base : base + n])
        if verdict < 0:
            result.append(f)
    return result


def explain_claim(state: STState, role: int, flag: int) -> str | None:
    """Why ``role`` cannot claim ``flag`` now, in one sentence; ``None`` if it can."""
    n = len(state.rules.roles)
    name = state.rules.roles[role]
    if state.claimed[flag] != NO_ONE:
        return f"flag {flag + 1} is already claimed by {state.rules.roles[state.claimed[flag]]}"
    size = state.capacity(flag)
    mine = state.sides[flag * n + role]
    if len(mine) < size:
        return f"{name}'s side of flag {flag + 1} is not complete ({len(mine)} of {size} cards)"
    unseen = state.unseen_mask()
    mine_at = max(state.placed[flag * n + role])
    fog = state.fog[flag] != NO_ONE
    for other in range(n):
        if other == role:
            continue
        theirs = state.sides[flag * n + other]
        theirs_at = max(state.placed[flag * n + other]) if len(theirs) >= size else 0
        ok, witness = can_claim_mask(mine, mine_at, theirs, theirs_at, size, unseen, fog)
        if ok:
            continue
        rival = state.rules.roles[other]
        if witness is None:
            return (
                f"{rival}'s complete formation at flag {flag + 1} is stronger, "
                "or as strong and completed first"
            )
        names = ", ".join(C.card_name(c) for c in witness)
        return (
            f"{rival} could still beat it at flag {flag + 1} with {names} "
            f"(cards not yet on the table)"
        )
    return None


def _check_win(state: STState, role: int, flag: int) -> None:
    rules = state.rules
    claimed = state.claimed
    run = rules.run_to_break_through
    for start in range(max(0, flag - run + 1), min(flag, 9 - run) + 1):
        if all(claimed[f] == role for f in range(start, start + run)):
            state.outcome = Outcome.win(
                rules.roles,
                rules.roles[role],
                BREAKTHROUGH,
                f"{rules.roles[role]} claimed {run} adjacent flags ({start + 1}-{start + run})",
            )
            return
    if claimed.count(role) >= rules.flags_to_envelop:
        state.outcome = Outcome.win(
            rules.roles,
            rules.roles[role],
            ENVELOPMENT,
            f"{rules.roles[role]} claimed {rules.flags_to_envelop} flags",
        )


# -- set-up --------------------------------------------------------------------------------------


class Deal(Step):
    """Deal a hand to every role, one chance decision per card (troops only). The frame counts
    the cards dealt so far: ``("deal", dealt)``; card ``k`` goes to role ``k % n``."""

    name = "deal"
    hidden = True

    def run(self, game, state: STState, frame) -> Decision | None:
        if frame[1] >= len(state.rules.roles) * state.rules.hand_size:
            state.stack.pop()
            return None
        return make_decision(CHANCE, "deal", "deal a troop card", _card_options(state.decks[TROOPS]))

    def choose(self, game, state: STState, frame, option) -> None:
        card = option.value
        deck = state.decks[TROOPS]
        i = deck.index(card)
        state.decks[TROOPS] = deck[:i] + deck[i + 1 :]
        _add_to_hand(state, frame[1] % len(state.rules.roles), card)
        state.stack[-1] = ("deal", frame[1] + 1)

    def visibility(self, state, frame, decision, option):
        return (state.rules.roles[frame[1] % len(state.rules.roles)],), "deck:troops"


ROLE_OPTIONS_CACHE: dict[tuple[str, ...], tuple[Option, ...]] = {}


class FirstPlayer(Step):
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
            options = tuple(Option(f"role:{r}", f"{r} starts", i) for i, r in enumerate(roles))
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


class Turn(Step):
    """The first turn of the match: expand it into its phases (later turns are expanded by
    ``end_turn``)."""

    name = "turn"

    def run(self, game, state: STState, frame) -> Decision | None:
        state.stack.pop()
        _push_turn(state)
        return None


class EndTurn(Step):
    """Apply the stalemate policy and the decision cap, then pass the turn on."""

    name = "end_turn"

    def run(self, game, state: STState, frame) -> Decision | None:
        rules = state.rules
        n = len(rules.roles)
        # Stalemate policy (rules digest §2): every player in succession could do nothing but
        # pass, and nobody can prove a flag (a declined claim keeps the game going; the
        # decision cap bounds a game in which claims are declined for ever).
        if state.passes >= n and not any(claimable_flags(state, r) for r in range(n)):
            _stalemate(state)
            return None
        if state.number >= rules.decision_cap:
            state.outcome = Outcome.draw(
                rules.roles, DECISION_CAP, f"the decision cap ({rules.decision_cap}) was reached"
            )
            return None
        state.current = (state.current + 1) % n
        state.stack.pop()
        _push_turn(state)
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


class Play(Step):
    """Play one card from the hand, or pass when no troop card can be placed."""

    name = "play"
    prompt = "play a card (troops go to a flag; tactics follow their own rules)"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        hand = state.hands[me]  # sorted: troops (< 60) first, then tactics
        room = has_room(state, me)
        tactics = 0
        while tactics < len(hand) and hand[-1 - tactics] >= 60:
            tactics += 1
        troops = hand[: len(hand) - tactics]
        options = list(map(_card_option, troops)) if room else []
        if tactics:
            played = state.tactics_played
            mine = played[me]
            # Count rule: no more tactics played than any opponent so far.
            if all(mine <= played[o] for o in range(len(played)) if o != me):
                options.extend(
                    CARD_OPTIONS[c]
                    for c in hand[len(hand) - tactics :]
                    if tactics_playable(state, me, c, room)
                )
        if not (room and troops):
            options.append(PASS if options else FORCED_PASS)
        return make_decision(state.rules.roles[me], "play", self.prompt, tuple(options))

    def choose(self, game, state: STState, frame, option) -> None:
        me = state.current
        stack = state.stack
        stack.pop()
        card = option.value
        if card == "forced":
            state.passes += 1
            return
        state.passes = 0
        if card == "voluntary":  # a pass with a tactics card left unplayed
            return
        _remove_from_hand(state, me, card)
        if card < 60:
            stack.append(("place", card))
            return
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


def tactics_playable(state: STState, me: int, card: int, room: bool) -> bool:
    """Whether tactics ``card`` has a legal use for ``me`` now (count rule checked by caller)."""
    if card in C.LEADERS:
        return room and not state.leader_played[me]
    if card == C.COMPANION_CAVALRY or card == C.SHIELD_BEARERS:
        return room
    if card == C.FOG or card == C.MUD or card == C.SCOUT:
        return True  # some flag is unclaimed while the game goes on; Scout may find decks empty
    if card == C.REDEPLOY:
        return bool(_own_movable(state, me))
    if card == C.DESERTER:
        return any(_own_movable(state, o) for o in range(len(state.rules.roles)) if o != me)
    # Traitor: an enemy troop on an unclaimed flag, and a free slot of ours to put it in.
    return room and any(
        c < 60 for o in range(len(state.rules.roles)) if o != me for c in _own_movable(state, o)
    )


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


_PLACE_PROMPTS = tuple(f"choose a flag for {C.card_name(c)}" for c in range(70))
_flag_option = FLAG_OPTIONS.__getitem__


class Place(Step):
    """Place a troop or morale card on one's own side of an unclaimed flag with room."""

    name = "place"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        return make_decision(
            state.rules.roles[me],
            "place",
            _PLACE_PROMPTS[frame[1]],
            tuple(map(_flag_option, open_flags(state, me))),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack.pop()
        _put_on_side(state, option.value, state.current, frame[1])


class Environment(Step):
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
            tuple(FLAG_OPTIONS[f] for f in flags),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack.pop()
        flag = option.value
        if frame[1] == C.FOG:
            state.fog[flag] = state.current
        else:
            state.mud[flag] = state.current  # sides of 3 are incomplete again (capacity 4)


# -- claims and draws ----------------------------------------------------------------------------


class Claim(Step):
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


class Draw(Step):
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


class DrawCard(Step):
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
        return make_decision(CHANCE, "draw_card", _DRAW_PROMPTS[deck], _card_options(state.decks[deck]))

    def choose(self, game, state: STState, frame, option) -> None:
        _, deck, role = frame
        card = option.value
        cards = state.decks[deck]
        i = cards.index(card)
        state.decks[deck] = cards[:i] + cards[i + 1 :]
        _add_to_hand(state, role, card)
        state.stack.pop()

    def visibility(self, state, frame, decision, option):
        return (state.rules.roles[frame[2]],), f"deck:{DECK_NAMES[frame[1]]}"


# -- guile tactics -------------------------------------------------------------------------------


class ScoutDraw(Step):
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


class ScoutReturn(Step):
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


class Redeploy(Step):
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


def _flag_of(state: STState, card: int) -> int:
    if card == C.FOG or card == C.MUD:  # one of each exists: the flag holding it
        env = state.fog if card == C.FOG else state.mud
        return next(f for f in range(9) if env[f] != NO_ONE)
    found = find_on_table(state, card)
    assert found is not None
    return found[0]


class RedeployTo(Step):
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


class MudDiscard(Step):
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


class Deserter(Step):
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
            flag = next(f for f in range(9) if env[f] != NO_ONE)
            owner = env[flag]
            env[flag] = NO_ONE
            _discard(state, owner, card)
            if card == C.MUD:
                _mud_gone(state, flag, me)
            return
        flag, owner = find_on_table(state, card)  # type: ignore[misc]
        _take_from_side(state, flag, owner, card)
        _discard(state, owner, card)


class Traitor(Step):
    """Traitor: choose an enemy troop (never a tactics card) at an unclaimed flag."""

    name = "traitor"
    prompt = "Traitor: choose an enemy troop at an unclaimed flag"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        targets: list[int] = []
        for other in range(len(state.rules.roles)):
            if other != me:
                targets.extend(c for c in _own_movable(state, other) if c < 60)
        return make_decision(
            state.rules.roles[me], "traitor", self.prompt, _card_options(targets)
        )

    def choose(self, game, state: STState, frame, option) -> None:
        state.stack[-1] = ("traitor_to", option.value)


class TraitorTo(Step):
    """Traitor: place the taken troop on your side of an unclaimed flag with room."""

    name = "traitor_to"

    def run(self, game, state: STState, frame) -> Decision | None:
        me = state.current
        return make_decision(
            state.rules.roles[me],
            "traitor_to",
            f"Traitor: choose a flag for {C.card_name(frame[1])}",
            tuple(FLAG_OPTIONS[f] for f in open_flags(state, me)),
        )

    def choose(self, game, state: STState, frame, option) -> None:
        card = frame[1]
        state.stack.pop()
        flag, owner = find_on_table(state, card)  # type: ignore[misc]
        _take_from_side(state, flag, owner, card)
        _put_on_side(state, option.value, state.current, card)


STEPS: dict[str, Step] = {
    step.name: step
    for step in (
        Deal(),
        FirstPlayer(),
        Turn(),
        EndTurn(),
        Play(),
        Place(),
        Environment(),
        Claim(),
        Draw(),
        DrawCard(),
        ScoutDraw(),
        ScoutReturn(),
        Redeploy(),
        RedeployTo(),
        MudDiscard(),
        Deserter(),
        Traitor(),
        TraitorTo(),
    )
}
