"""The turn of Twilight Struggle as small named steps (map.md §10-12; cards.md §5): the top of
the turn flow, built on :mod:`.common`, :mod:`.ops` and the event register (:mod:`.events.registry`).

Frames are tuples ``(step_name, *args)``. Set-up: ``setup`` → ``deal`` → ``setup_place`` (USSR 6,
then US 7) → optional ``bid``. A turn: ``turn`` (DEFCON +1, deck additions) → ``deal`` →
``headline`` → ``action_round`` × 6/7 per side → ``end_turn``. Playing a card: ``action_round``
(which card) → ``card_use`` (event / influence / realign / coup / space, and for an opponent's card
whether its event comes first or after) → the operation's steps (:mod:`.ops`) and/or the event's
(:mod:`.events`) → ``dispose`` (discard or remove the card).

Lasting effects act through :mod:`.hooks` (extra rounds, round starts, card and use filters,
headline cancellations, the end of a round...): no card is named here but The China Card.

Option keys: ``card:<id>`` (cards), ``country:<id>``, ``use:event``, ``use:influence``,
``use:influence:event_first`` ..., ``die:N`` (chance), ``done``, ``pass`` (an action round with
only The China Card left; an extra action round declined), ``choice:accept`` (an extra action
round taken: step ``extra_action_round``).
"""

from __future__ import annotations

from ...core.flow import log
from ...core.game import CHANCE, Decision, Option, Outcome, make_decision
from . import board as B
from . import card_data as CD
from . import hooks as H
from . import map_data as M
from . import ops
from .common import (
    CARD_OPTIONS, CHINA, DECLINE_EXTRA_ROUND, DONE, PASS, TAKE_EXTRA_ROUND, TSStep, add_to_hand, card_options,
    card_side, country_options, event_player, hand_size, playable_cards, regular_rounds, remove_from_hand, reshuffle,
    role, scoring_due, space_ability,
)
from .effects import lasts_the_turn
from .events.registry import event_playable, play_event_for
from .state import NOBODY, SIDE_LABELS, SIDE_NAMES, US, USSR, TSState, other


# -- set-up --------------------------------------------------------------------------------------


class Setup(TSStep):
    name = "setup"

    def run(self, game, state: TSState, frame) -> Decision | None:
        rules = state.rules
        for i, country in enumerate(M.COUNTRIES):
            state.inf[US][i] = country.start_us
            state.inf[USSR][i] = country.start_ussr
        state.deck = tuple(
            n for n in CD.EARLY_WAR if rules.optional_cards or n not in CD.OPTIONAL_CARDS
        )
        state.turn = 1
        if rules.chinese_civil_war:
            state.china = NOBODY
        stack = state.stack
        stack.pop()
        # run from the end: deal, USSR places 6, US places 7, bid, then turn 1 goes on
        stack.append(("end_turn",))
        stack.append(("action_rounds",))
        stack.append(("headline",))
        if rules.bid_side is not None:
            stack.append(("bid", SIDE_NAMES.index(rules.bid_side), rules.bid))
        stack.append(("setup_place", US, M.SETUP["us_free"][0], M.SETUP["us_free"][1]))
        stack.append(("setup_place", USSR, M.SETUP["ussr_free"][0], M.SETUP["ussr_free"][1]))
        stack.append(("deal",))
        return None


class SetupPlace(TSStep):
    """The free set-up influence, one point per decision."""

    name = "setup_place"

    def run(self, game, state, frame):
        _, side, left, subregion = frame
        if left == 0:
            state.stack.pop()
            return None
        return make_decision(
            role(state, side), "setup_place", f"place set-up influence in {subregion} ({left} left)",
            country_options(M.SUBREGION_COUNTRIES[subregion]),
        )

    def choose(self, game, state, frame, option):
        _, side, left, subregion = frame
        state.inf[side][option.value] += 1
        state.stack[-1] = ("setup_place", side, left - 1, subregion)


class Bid(TSStep):
    """Bid influence: only where the side already has influence (map.md §4.6)."""

    name = "bid"

    def run(self, game, state, frame):
        _, side, left = frame
        if left == 0:
            state.stack.pop()
            return None
        places = [i for i in range(len(M.COUNTRIES)) if state.inf[side][i] > 0]
        return make_decision(role(state, side), "bid", f"place bid influence ({left} left)", country_options(places))

    def choose(self, game, state, frame, option):
        _, side, left = frame
        state.inf[side][option.value] += 1
        state.stack[-1] = ("bid", side, left - 1)


# -- the turn ------------------------------------------------------------------------------------


class Turn(TSStep):
    name = "turn"

    def run(self, game, state, frame):
        state.turn += 1
        state.ar = 0
        if state.defcon < 5:
            B.set_defcon(state, state.defcon + 1)
        if state.turn == 4:
            state.deck = tuple(sorted(state.deck + _period_cards(state, CD.MID_WAR)))
        elif state.turn == 8:
            state.deck = tuple(sorted(state.deck + _period_cards(state, CD.LATE_WAR)))
        stack = state.stack
        stack.pop()
        stack.append(("end_turn",))
        stack.append(("action_rounds",))
        stack.append(("headline",))
        stack.append(("deal",))
        return None


def _period_cards(state: TSState, cards) -> tuple[int, ...]:
    return tuple(n for n in cards if state.rules.optional_cards or n not in CD.OPTIONAL_CARDS)


class Deal(TSStep):
    """Draw up to the hand size, alternately, USSR first; reshuffle the discards when the draw
    pile runs out. A draw is a chance decision seen only by the drawer."""

    name = "deal"
    hidden = True

    def _next(self, state: TSState) -> int:
        size = hand_size(state)
        hands = state.hands
        ussr, us = len(hands[USSR]), len(hands[US])
        if ussr < size:
            return US if us < ussr else USSR  # both short: the shorter hand (the US) first
        return US if us < size else NOBODY

    def run(self, game, state, frame):
        side = self._next(state)
        if side != NOBODY and not state.deck and state.discard:
            reshuffle(state)
        if side == NOBODY or not state.deck:
            state.stack.pop()
            return None
        return make_decision(CHANCE, "deal", f"deal a card to {SIDE_NAMES[side]}", card_options(state.deck))

    def choose(self, game, state, frame, option):
        side = self._next(state)
        deck = state.deck
        i = deck.index(option.value)
        state.deck = deck[:i] + deck[i + 1 :]
        add_to_hand(state, side, option.value)

    def visibility(self, state, frame, decision, option):
        return (role(state, self._next(state)),), "card:hidden"


# -- headline ------------------------------------------------------------------------------------


class Headline(TSStep):
    """Both choose secretly, revealed together; with the Man-in-Earth-Orbit ability the other
    side chooses first, visibly (map.md §11)."""

    name = "headline"

    def run(self, game, state, frame):
        state.headline = [0, 0]
        stack = state.stack
        stack.pop()
        stack.append(("headline_reveal",))
        seer = space_ability(state, 4)
        if seer == NOBODY:
            stack.append(("headline_choose", US, False))
            stack.append(("headline_choose", USSR, False))
        else:
            stack.append(("headline_choose", seer, False))
            stack.append(("headline_choose", other(seer), True))
        return None


class HeadlineChoose(TSStep):
    name = "headline_choose"
    hidden = True

    def run(self, game, state, frame):
        _, side, public = frame
        cards = [c for c in state.hands[side] if CD.CARD_BY_NUMBER[c].headline]
        for restrict in H.HEADLINE_FILTERS:
            cards = restrict(state, side, cards)
        if not cards:
            state.stack.pop()
            return None
        return make_decision(role(state, side), "headline", "choose your headline card", card_options(cards))

    def choose(self, game, state, frame, option):
        _, side, public = frame
        known = state.known[side]
        remove_from_hand(state, side, option.value)
        if not public:
            state.known[side] = known  # a card known in the hand may now be the secret headline
        state.headline[side] = option.value
        state.stack.pop()

    def visibility(self, state, frame, decision, option):
        if frame[2]:
            return None
        return (decision.role,), "card:hidden"


class HeadlineReveal(TSStep):
    name = "headline_reveal"

    def run(self, game, state, frame):
        stack = state.stack
        stack.pop()
        cards = state.headline
        for side in (USSR, US):
            if cards[side]:
                log(state, role(state, side), "headline_reveal", CARD_OPTIONS[cards[side]].key)
                if cards[side] in state.known[side]:
                    state.known[side] = state.known[side] - {cards[side]}
        cancelled: set[int] = set()
        for hook in H.HEADLINE_HOOKS:  # e.g. Defectors
            cancelled.update(hook(state))
        order = [side for side in (US, USSR) if cards[side] and side not in cancelled]

        def rank(side: int) -> tuple[int, int]:
            card = CD.CARD_BY_NUMBER[cards[side]]
            return (0 if card.scoring else 1, card.ops, 1 if side == US else 0)

        order.sort(key=rank, reverse=True)
        for side in reversed(order):
            stack.append(("headline_resolve", side))
        return None


class HeadlineResolve(TSStep):
    name = "headline_resolve"

    def run(self, game, state, frame):
        side = frame[1]
        card = state.headline[side]
        state.stack.pop()
        state.phasing = side
        play_event_for(state, card, side, dispose=True)
        return None


class Dispose(TSStep):
    """A played card goes to the discard pile, or out of the game when its event (starred) was
    carried out. The China Card passes face down to the opponent instead."""

    name = "dispose"

    def run(self, game, state, frame):
        _, card, remove = frame
        state.stack.pop()
        if card == CHINA:
            return None
        if remove:
            state.removed = state.removed + (card,)
        else:
            state.discard = state.discard + (card,)
        return None


# -- action rounds -------------------------------------------------------------------------------


class ActionRounds(TSStep):
    name = "action_rounds"

    def run(self, game, state, frame):
        rounds = regular_rounds(state)
        stack = state.stack
        stack.pop()
        for hook in H.ACTION_ROUNDS_HOOKS:  # rounds after every other one (North Sea Oil)
            hook(state, rounds)
        extra = space_ability(state, 8)
        if extra != NOBODY:
            stack.append(("action_round", rounds + 1, extra))
        for ar in range(rounds, 0, -1):
            stack.append(("action_round", ar, US))
            stack.append(("action_round", ar, USSR))
        return None


class ActionRound(TSStep):
    """One action round of ``side``: frame ``("action_round", ar, side[, hooks_done[, taken]])``.

    A round beyond the turn's regular ones (Space Station's, North Sea Oil's) is optional ("may
    take one extra (8th) action round", map.md §7; cards.md #86): it starts with the decision
    ``extra_action_round`` (``choice:accept`` / ``pass``), before anything acts at the start of
    a round (declined, there is no round: no trap discard, no "We Will Bury You" VP, which wait
    for the side's next round), unless the side has no hand card (then The China Card, if it
    has it, comes with ``pass`` as in any round). A scoring card left in hand does not make it
    compulsory: declined, the card is held, and holding it loses at the end of the turn (map.md
    §10 F), as a scoring card kept through a regular last round does. Taken, it is an ordinary
    round. The China Card is not offered when playing it would leave a scoring card unplayed
    (map.md §13): when ``scoring_due``."""

    name = "action_round"

    def run(self, game, state, frame):
        ar, side = frame[1], frame[2]
        state.ar = ar
        state.phasing = side
        done = frame[3] if len(frame) > 3 else 0
        taken = frame[4:]
        if not done and not taken and ar > regular_rounds(state) and state.hands[side]:
            return make_decision(role(state, side), "extra_action_round",
                                 f"extra action round {ar}: take it or pass", (TAKE_EXTRA_ROUND, DECLINE_EXTRA_ROUND))
        # Lasting effects that act at the start of a round (hooks.ACTION_ROUND_HOOKS); the frame
        # remembers how many ran, so each runs once even when it pushed frames of its own.
        hooks = H.ACTION_ROUND_HOOKS
        while done < len(hooks):
            hook = hooks[done]
            done += 1
            state.stack[-1] = ("action_round", ar, side, done, *taken)
            if hook(state, side) or state.outcome is not None:
                return None
        cards = playable_cards(state, side)
        if CHINA in cards and scoring_due(state, side):
            cards.remove(CHINA)  # it would leave a scoring card unplayed (map.md §13)
        for restrict in H.CARD_FILTERS:
            cards = restrict(state, side, cards)
        if not cards:
            state.stack.pop()  # no cards: the player sits out
            return None
        options = card_options(cards)
        if not state.hands[side]:
            options += (PASS,)  # only The China Card left: it is never forced
        return make_decision(role(state, side), "action_round", f"action round {ar}: play a card", options)

    def choose(self, game, state, frame, option):
        _, ar, side, *rest = frame
        if option.key == TAKE_EXTRA_ROUND.key:
            state.stack[-1] = ("action_round", ar, side, 0, True)
            return
        card = option.value
        state.stack.pop()
        if card is None:
            return  # a pass: the round is declined, or only The China Card was left
        if card == CHINA:
            state.china = other(side)
            state.china_face_up = False
            for hook in H.CHINA_CARD_HOOKS:
                hook(state, side)
        else:
            remove_from_hand(state, side, card)
        state.stack.append(("ar_end", side, state.defcon))
        state.stack.append(("card_use", card, side))


class ArEnd(TSStep):
    """After an action round: lasting effects see what was played and how DEFCON moved
    (hooks.AFTER_ROUND_HOOKS)."""

    name = "ar_end"

    def run(self, game, state, frame):
        _, side, defcon_before, *played = frame
        state.stack.pop()
        card, use = played if played else (0, "")
        for hook in H.AFTER_ROUND_HOOKS:
            hook(state, side, card, use, defcon_before)
        return None


USE_OPTIONS = {
    name: Option(f"use:{name}", label, name)
    for name, label in (
        ("event", "play the event"),
        ("influence", "operations: place influence"),
        ("realign", "operations: realignment rolls"),
        ("coup", "operations: a coup"),
        ("space", "space race attempt"),
        ("influence:event_first", "opponent's event first, then place influence"),
        ("influence:event_after", "place influence, then the opponent's event"),
        ("realign:event_first", "opponent's event first, then realignment rolls"),
        ("realign:event_after", "realignment rolls, then the opponent's event"),
        ("coup:event_first", "opponent's event first, then a coup"),
        ("coup:event_after", "a coup, then the opponent's event"),
    )
}


#: an operation with an opponent's card: its event first, or after
_OPPONENT_USES = {
    use: (USE_OPTIONS[f"{use}:event_first"], USE_OPTIONS[f"{use}:event_after"])
    for use in ("influence", "realign", "coup")
}


class CardUse(TSStep):
    """How the chosen card is played (cards.md §5.1)."""

    name = "card_use"

    def run(self, game, state, frame):
        _, card, side = frame
        data = CD.CARD_BY_NUMBER[card]
        options = []
        if data.scoring:
            options.append(USE_OPTIONS["event"])
        else:
            owner = card_side(card)
            value = ops.ops_value(state, side, card)
            mine = owner is None or owner == side
            if mine and card != CHINA and event_playable(state, card, side):
                options.append(USE_OPTIONS["event"])
            uses = ["influence"]
            realign, coup = ops.operation_uses(state, side)
            if realign:
                uses.append("realign")
            if coup:
                uses.append("coup")
            for use in uses:
                if mine:
                    options.append(USE_OPTIONS[use])
                else:
                    options += _OPPONENT_USES[use]
            if ops.space_allowed(state, side, value):
                options.append(USE_OPTIONS["space"])
        for restrict in H.USE_FILTERS:
            options = restrict(state, side, card, options)
        return make_decision(role(state, side), "card_use", f"how to play {data.name}", tuple(options))

    def choose(self, game, state, frame, option):
        _, card, side = frame
        stack = state.stack
        stack.pop()
        use = option.value
        if stack and stack[-1][0] == "ar_end":  # tell the end of the round what was played
            stack[-1] = stack[-1][:3] + (card, use)
        if use == "event":
            play_event_for(state, card, side, dispose=True)
            return
        if use == "space":
            stack.append(("dispose", card, False))
            ops.push_space(state, side, card)
            return
        kind, _, order = use.partition(":")
        for hook in H.CARD_USE_HOOKS:  # e.g. Defectors played by the USSR
            hook(state, side, card, use)
        # An opponent's starred event that takes place leaves the game with its card.
        fires = bool(order) and event_playable(state, card, event_player(card, side))
        stack.append(("dispose", card, fires and CD.CARD_BY_NUMBER[card].removed))
        if order == "event_after":
            play_event_for(state, card, side, dispose=False)
        ops.push_operations(state, side, card, kind)
        if order == "event_first":
            play_event_for(state, card, side, dispose=False)


# -- end of turn ---------------------------------------------------------------------------------


class SpaceDiscard(TSStep):
    """Eagle/Bear Has Landed (space box 6): at the end of the turn its holder may discard one
    held card. Policy: scoring cards excepted (they must be played, never thrown away)."""

    name = "space_discard"

    def run(self, game, state, frame):
        side = frame[1]
        cards = [c for c in state.hands[side] if not CD.CARD_BY_NUMBER[c].scoring]
        if not cards:
            state.stack.pop()
            return None
        return make_decision(role(state, side), "space_discard", "discard a held card (or done)",
                             card_options(cards) + (DONE,))

    def choose(self, game, state, frame, option):
        side = frame[1]
        state.stack.pop()
        if option.value is not None:
            remove_from_hand(state, side, option.value)
            state.discard = state.discard + (option.value,)


class EndTurn(TSStep):
    name = "end_turn"

    def run(self, game, state, frame):
        rules = state.rules
        lander = space_ability(state, 6)
        if lander != NOBODY and frame == ("end_turn",):
            state.stack[-1] = ("end_turn", "discarded")
            state.stack.append(("space_discard", lander))
            return None
        # Held scoring cards first (designer ruling, map.md §15), then military operations.
        holders = []  # (loops, not generators: compiled, turn.pxd makes this a C method)
        for s in (USSR, US):
            for c in state.hands[s]:
                if CD.CARD_BY_NUMBER[c].scoring:
                    holders.append(s)
                    break
        if len(holders) == 2:
            state.outcome = Outcome.draw(rules.roles, B.HELD_SCORING_CARD, "both sides held a scoring card")
            return None
        if holders:
            loser = holders[0]
            B.win(state, other(loser), B.HELD_SCORING_CARD, f"{SIDE_LABELS[loser]} held a scoring card")
            return None
        for side in (USSR, US):
            short = max(0, state.defcon - state.milops[side])
            if short:
                B.add_vp(state, other(side), short, check=False)
                log(state, role(state, side), "military_ops_shortfall", f"vp:{short}")
        B.check_vp(state)
        if state.outcome is not None:
            return None
        state.milops = [0, 0]
        state.space_attempts = [0, 0]
        effects = state.effects  # (a local: tests/test_cython_pitfalls.py)
        state.effects = frozenset([e for e in effects if not lasts_the_turn(e)])
        state.china_face_up = True
        state.stack.pop()
        if state.turn >= rules.end_turn:
            final_scoring(state)
            return None
        state.stack.append(("turn",))
        return None


def final_scoring(state: TSState) -> None:
    """Score all six regions (Europe control still wins), the China Card's holder +1 VP, then the
    VP sign decides; 20 VP is not an automatic win here (map.md §12)."""
    for region in M.REGIONS:
        B.apply_region_scoring(state, region, final=True)
        if state.outcome is not None:
            return
    if state.china != NOBODY:
        B.add_vp(state, state.china, 1, check=False)
    roles = state.rules.roles
    if state.vp > 0:
        state.outcome = Outcome.win(roles, "us", B.FINAL_SCORING, f"final scoring: US ahead by {state.vp} VP")
    elif state.vp < 0:
        state.outcome = Outcome.win(roles, "ussr", B.FINAL_SCORING, f"final scoring: USSR ahead by {-state.vp} VP")
    else:
        state.outcome = Outcome.draw(roles, B.FINAL_SCORING, "final scoring: VP level")
