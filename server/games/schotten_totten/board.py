"""Shared pieces of the Schotten Totten / Battle Line steps (:mod:`.steps`): the prebuilt
options (``card:red-5``, ``flag:4``, ``deck:troops``, ``pass``, ``done``, ``discard``), the
termination codes, and the queries and edits of the table every step uses: room at the flags,
hands kept sorted, cards put on and taken from a side, the claims a role can prove now (with their
cached verdicts and the one-sentence explanation of a refused claim) and the win check after a
claim.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter

from ...core.flow import Step
from ...core.game import Option, Outcome
from . import cards as C
from .formations import can_claim_mask, refute_cached
from .state import DECK_NAMES, NO_ONE, STState


class STStep(Step):
    """The base of this game's steps (:mod:`.turn`, :mod:`.tactics`): a :class:`Step` whose
    state is an :class:`STState`. It only restates ``Step``'s methods: in the compiled engine it
    is the extension type that declares them with typed arguments (board.pxd), so that the game's
    loop calls a step's ``run`` and ``choose`` as C methods (game.py)."""

    def run(self, game, state: STState, frame):
        return Step.run(self, game, state, frame)

    def choose(self, game, state: STState, frame, option) -> None:
        Step.choose(self, game, state, frame, option)

    def visibility(self, state: STState, frame, decision, option):
        return None


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
    """``CARD_OPTIONS`` of the card ids ``cards``, in order: ``itemgetter`` gathers them in one C
    call, a few times faster than ``map`` over the tuple's ``__getitem__``."""
    if len(cards) > 1:
        return itemgetter(*cards)(CARD_OPTIONS)
    return (CARD_OPTIONS[cards[0]],) if cards else ()


def _side_index(state: STState, flag: int, role: int) -> int:
    return flag * len(state.rules.roles) + role


#: _FLAG_SIDES[n][role]: ((flag, side index), ...) for the 9 flags, so loops need no arithmetic.
_FLAG_SIDES = {n: tuple(tuple((f, f * n + r) for f in range(9)) for r in range(n)) for n in (2, 3)}


def has_room(state: STState, role: int) -> bool:
    """Whether ``role`` has a free slot on its side of some unclaimed flag."""
    claimed, mud = state.claimed, state.mud
    for f, side in enumerate(state.sides[role :: len(state.rules.roles)]):
        if len(side) < (3 if mud[f] < 0 else 4) and claimed[f] < 0:
            return True
    return False


def open_flags(state: STState, role: int) -> list[int]:
    """Unclaimed flags where ``role`` has a free slot."""
    claimed, mud = state.claimed, state.mud
    return [
        f
        for f, side in enumerate(state.sides[role :: len(state.rules.roles)])
        if len(side) < (3 if mud[f] < 0 else 4) and claimed[f] < 0
    ]


def open_flag_options(state: STState, role: int) -> tuple[Option, ...]:
    """``FLAG_OPTIONS`` of :func:`open_flags`."""
    claimed, mud = state.claimed, state.mud
    sides = state.sides[role :: len(state.rules.roles)]
    if mud == _NO_MUD:
        return tuple([FLAG_OPTIONS[f] for f, side in enumerate(sides) if len(side) < 3 and claimed[f] < 0])
    return tuple([
        FLAG_OPTIONS[f] for f, side in enumerate(sides) if len(side) < (3 if mud[f] < 0 else 4) and claimed[f] < 0
    ])


_NO_MUD = [NO_ONE] * 9


def deck_options(state: STState, deck: int) -> tuple[Option, ...]:
    """The card options of ``decks[deck]`` (a chance draw among them). Kept beside the deck:
    :func:`take_from_deck` removes the drawn card from both, so a draw costs a slice, not a new
    option per card."""
    cards = state.decks[deck]
    cached = state.deck_options[deck]
    if cached is not None and cached[0] is cards:
        return cached[1]
    options = _card_options(cards)
    state.deck_options[deck] = (cards, options)
    return options


def take_from_deck(state: STState, deck: int, card: int) -> None:
    """Remove ``card`` from ``decks[deck]`` (and from its cached options)."""
    cards = state.decks[deck]
    i = cards.index(card)
    rest = state.decks[deck] = cards[:i] + cards[i + 1 :]
    cached = state.deck_options[deck]
    if cached is not None and cached[0] is cards:
        options = cached[1]
        state.deck_options[deck] = (rest, options[:i] + options[i + 1 :])


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
    sides, claimed = state.sides, state.claimed
    result: list[int] = []
    for f, mine in enumerate(sides[role::n]):
        if len(mine) < 3 or claimed[f] >= 0:
            continue
        mud_f = state.mud[f]
        if mud_f >= 0 and len(mine) < 4:
            continue
        fog_f = state.fog[f]
        base = f * n
        proofs = state.proofs
        cached = proofs[base + role]
        # Entries are (fog, mud, verdict, side 0, side 1, ...): sides compared by identity.
        if cached is not None and cached[0] == fog_f and cached[1] == mud_f:
            if n == 2:
                same = cached[3] is sides[base] and cached[4] is sides[base + 1]
            else:
                same = True  # a loop, not all(...): the compiled engine cannot type a generator here
                for r in range(n):
                    if cached[3 + r] is not sides[base + r]:
                        same = False
                        break
            if same:
                verdict = cached[2]
                if verdict < 0:
                    result.append(f)
                    continue
                if not verdict & state.table:
                    continue
        size = 3 if mud_f < 0 else 4
        verdict = -1  # -1: provable; else a refutation mask
        unseen = state.unseen_mask()
        placed = state.placed
        mine_at = max(placed[base + role])
        for other in range(n):
            if other == role:
                continue
            theirs = sides[base + other]
            theirs_at = max(placed[base + other]) if len(theirs) >= size else 0
            refutation = refute_cached(mine, mine_at, theirs, theirs_at, size, unseen, fog_f != NO_ONE)
            if refutation is not None:
                verdict = refutation
                break
        proofs[base + role] = (fog_f, mud_f, verdict, *sides[base : base + n])
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
        for f in range(start, start + run):  # a loop, not all(...): see claimable_flags
            if claimed[f] != role:
                break
        else:
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

