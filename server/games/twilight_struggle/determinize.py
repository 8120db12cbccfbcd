"""Re-deal what one side cannot see (determinization): one implementation for the engine's
``TwilightStruggle.determinize`` (leak tests; a state's own knowledge) and the SDK's forward
model (``belief.TSBelief.sample``: a state replayed from a view).

The cards ``me`` cannot see are exchangeable: the other hand (except the cards ``me`` knows are
there), the draw pile, the other side's headline while it is still secret, and, for the USSR, Our
Man in Tehran's drawn cards (seen by the US only). :func:`redeal` deals them again uniformly over
the deals consistent with what ``me`` knows, every count kept; :func:`resample` also keeps the
pending decision when it is not ``me``'s own (its step can tell that a hand had no playable card).

What ``me`` knows of the other hand (``known``) comes from the state for the engine
(:func:`knowledge`: ``state.known``, kept by the engine as cards go in and out of hands in the
other side's sight, the whole hand while Aldrich Ames Remix opens it) and from the replay of the
view's history for the SDK; both add the cards a pending choice of the other side lists from its
own hand (:func:`listed_in_pending_choice`), so that its options stay valid. Pure: the caller
passes the random generator; nothing here draws by itself, reads a clock or logs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ...core.shuffle import shuffle
from . import card_data as CD
from .common import space_ability
from .state import USSR, TSState, other

#: Frames holding Our Man in Tehran's drawn cards (their last element), hidden from the USSR.
TEHRAN_FRAMES = ("tehran_draw", "tehran_discard")
#: Event choices (``ev_choice`` frames) whose keys list cards of the chooser's own hand
#: (``choice:<card id>``, maybe one last other key).
HAND_CHOICES = frozenset(
    ("un_intervention", "trap_discard", "missile_envy", "latin_american_debt_crisis", "aldrich_ames_remix", "blockade")
)
#: Re-deals tried before giving up on keeping the pending decision (then the state is copied).
TRIES = 50


def headline_revealed(state: TSState) -> bool:
    """Both headlines are public once the headline phase has revealed them."""
    stack = state.stack  # (a local: tests/test_cython_pitfalls.py)
    frames = {f[0] for f in stack}
    return "headline_choose" not in frames and "headline_reveal" not in frames and bool(
        frames & {"headline_resolve", "action_rounds", "action_round", "end_turn"}
    )


def secret_headline(state: TSState, me: int) -> bool:
    """The other side's headline is chosen and still secret to ``me``: not yet revealed, and not
    chosen in the open (Man in Earth Orbit: the side without the ability chooses first, visibly,
    so it is secret only when ``me`` lacks the ability)."""
    return bool(state.headline[other(me)]) and not headline_revealed(state) and space_ability(state, 4) != me


def listed_in_pending_choice(state: TSState, side: int) -> set[int]:
    """Cards of ``side``'s hand that a pending event choice of ``side`` lists (Blockade, a trap
    discard...): a re-deal keeps them, or those options would name cards it moved away."""
    top = state.stack[-1] if state.stack else ("",)
    if top[0] != "ev_choice" or top[1] != side or top[2] not in HAND_CHOICES:
        return set()
    hand = state.hands[side]
    by_id = CD.CARD_BY_ID
    return {by_id[k].number for k in top[3] if k in by_id and by_id[k].number in hand}


def knowledge(state: TSState, me: int, open_hand: bool = False) -> frozenset[int]:
    """What ``me`` knows of the other hand, from the state: the whole hand when it is open to
    ``me`` (``open_hand``: Aldrich Ames Remix), else ``state.known`` (cards it saw go there or
    be shown there, a secret headline included while it may be one of them), plus the cards a
    pending choice of the other side lists."""
    them = other(me)
    if open_hand:
        known = set(state.hands[them])
    else:
        known = set(state.known[them])
    return frozenset(known | listed_in_pending_choice(state, them))


def redeal(state: TSState, me: int, known: Iterable[int], secret: bool, rng: random.Random) -> TSState:
    """A copy of ``state`` with every card ``me`` cannot see re-dealt uniformly among the places
    it could be: the other hand (except ``known`` cards), the draw pile, the other side's secret
    headline when ``secret`` (any card with a headline flag: a known card too, with the weight
    that makes the deal uniform) and, for the USSR, Our Man in Tehran's drawn cards. Counts stay.

    ``known`` are cards ``me`` knows to be in the other hand or, while it is secret, to be its
    headline: they stay in those places."""
    them = other(me)
    new = state.copy()
    hand = state.hands[them]
    known = set(known)
    headline = state.headline[them] if secret else 0
    kept = [c for c in hand if c in known]
    if headline and headline in known:
        kept.append(headline)  # a known card chosen as the secret headline: still in the hand-or-headline
    pool = [c for c in hand if c not in known] + list(state.deck)
    frames = [i for i, f in enumerate(state.stack) if f[0] in TEHRAN_FRAMES] if me == USSR else []
    for i in frames:
        pool.extend(state.stack[i][-1])
    if headline and headline not in known:
        pool.append(headline)
    shuffle(rng, pool)
    if secret:
        # Uniform over deals. ``free``: the places of the hand and the headline left to pool cards
        # (P of them). A known card is the headline in C(P, free) deals (the hand takes every other
        # known card and ``free`` pool cards), a pool card in C(P-1, free-1): weights P / free and
        # 1; with no free place the headline is one of the known cards.
        free = len(hand) + 1 - len(kept)
        mine = [c for c in kept if CD.CARD_BY_NUMBER[c].headline]
        theirs = [i for i, c in enumerate(pool) if CD.CARD_BY_NUMBER[c].headline] if free > 0 else []
        weight = len(mine) * len(pool) / free if free > 0 else 1.0
        if mine and (not theirs or rng.random() * (weight + len(theirs)) < weight):
            chosen = rng.choice(mine)
            kept.remove(chosen)
        elif theirs:
            # A uniform eligible card, drawn apart from the shuffle: the rest of the pool stays in a
            # uniform order (taking the *first* eligible card would put an ineligible card such as
            # UN Intervention at the front more often, i.e. into the hand).
            chosen = pool.pop(rng.choice(theirs))
        else:  # nothing else could be the headline (not in a consistent state): keep it
            chosen = headline
            if chosen in pool:
                pool.remove(chosen)
            elif chosen in kept:
                kept.remove(chosen)
        new.headline[them] = chosen
    slots = len(hand) - len(kept)
    new.hands[them] = tuple(sorted(kept + pool[:slots]))
    rest = pool[slots:]
    for i in frames:
        frame = state.stack[i]
        count = len(frame[-1])
        new.stack[i] = frame[:-1] + (tuple(rest[:count]),)
        rest = rest[count:]
    new.deck = tuple(sorted(rest))
    new.pending = None
    return new


def resample(game: Any, state: TSState, me: int, known: Iterable[int], secret: bool, rng: random.Random,
             *, fallback: Callable[[], TSState] | None = None) -> TSState:
    """A :func:`redeal` that keeps the pending decision's role, step and depth: when it is not
    ``me``'s own, its step may tell about the other hand (a round skipped for want of cards, a
    trap round...), so re-deals that change it are rejected. After :data:`TRIES` of them,
    ``fallback()`` (default: a copy of ``state``, hidden cards unchanged)."""
    known = frozenset(known)
    want = game.decision(state)
    want_key = None if want is None else (want.role, want.step, len(state.stack))
    for _ in range(TRIES):
        sample = redeal(state, me, known, secret, rng)
        got = game.decision(sample)
        if (None if got is None else (got.role, got.step, len(sample.stack))) == want_key:
            return sample
    return fallback() if fallback is not None else state.copy()
