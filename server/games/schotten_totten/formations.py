"""Formations of Battle Line / Schotten Totten: the strength of a side and the claim proof.

Pure and allocation-light: the engine calls :func:`can_claim` on every claim check, so the work is
done on bitmasks instead of card lists.

* A set of troop cards is an ``int`` with bit ``card`` set (60 bits). The cards of one colour are
  the 10-bit slice ``(mask >> 10 * colour) & 1023`` in which bit ``v - 1`` stands for value ``v``.
* A strength is a ``(rank, sum)`` tuple; tuples compare lexicographically, which is exactly the
  comparison of rules.md section 3 (rank first, then sum).

Morale cards (Alexander, Darius, Companion Cavalry, Shield Bearers) are jokers with a wild colour
and a value from :data:`~.cards.MORALE_VALUES`. They take the assignment that maximises
``(rank, sum)``: formation types are tried best first, so a leader beside two 9s of different
colours makes a phalanx of 9s (27), never a host of 28. Under Fog only the sum counts, with morale
cards at :data:`~.cards.MORALE_MAX`.

Cards passed in must be troop ids (0..59) or morale ids (60..63); environment cards (Fog, Mud) are
not part of a side: the caller passes ``fog`` and the side ``size`` (3, or 4 with Mud) instead.
Input is not validated, for speed: the engine guarantees it is well formed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import COMPANION_CAVALRY, MORALE_MAX, SHIELD_BEARERS

WEDGE, PHALANX, BATTALION, SKIRMISH_LINE, HOST = 4, 3, 2, 1, 0
RANK_NAMES: dict[int, str] = {
    WEDGE: "wedge",
    PHALANX: "phalanx",
    BATTALION: "battalion",
    SKIRMISH_LINE: "skirmish line",
    HOST: "host",
}

# --- tables built once at import -------------------------------------------------------------

#: ``_BIT[card]``: the card's bit in a 60-bit troop mask.
_BIT: tuple[int, ...] = tuple(1 << c for c in range(60))
#: ``_VALUE_MASK[v0]``: 60-bit mask of the six troops of value ``v0 + 1``.
_VALUE_MASK: tuple[int, ...] = tuple(
    sum(1 << (col * 10 + v0) for col in range(6)) for v0 in range(10)
)
#: Value of a card when only the sum counts (troops at face value, morale at its maximum).
_MAX_VALUE: tuple[int, ...] = tuple(c % 10 + 1 for c in range(60)) + tuple(
    MORALE_MAX.get(c, 0) for c in range(60, 70)
)
#: ``_RUNS[size]``: ``(start0, run_mask, run_sum)`` for every run of ``size`` values, highest first.
#: ``start0`` is the lowest value minus one; ``run_mask`` is a 10-bit value mask. Values never wrap.
_RUNS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (s0, ((1 << size) - 1) << s0, size * (s0 + 1) + size * (size - 1) // 2)
        for s0 in range(10 - size, -1, -1)
    )
    for size in range(11)
)
#: ``_RUNS_HOLDING[size][values]``: the runs of ``_RUNS[size]`` that contain every value of the
#: 10-bit mask ``values`` (the only runs a side holding those troop values can still make).
_RUNS_HOLDING: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = tuple(
    tuple(tuple(r for r in runs if not values & ~r[1]) for values in range(1024)) for runs in _RUNS
)
_ALL_COLOURS = (0, 1, 2, 3, 4, 5)
_SHIELD_VALUES = 0b111  # values 1..3
_COMPANION_VALUE = 1 << 7  # value 8


def _cover(missing: int, need: int, companion: int, shield: int, leaders: int) -> int:
    """Give each morale card a distinct value of the run's ``missing`` values (10-bit mask) so that
    every value of ``need`` (those no unseen troop can supply) is taken by a morale card.

    Returns the values left to troops (a mask of ``popcount(missing) - morale`` bits), or -1.
    Greedy is exact: the Companion has one choice, Shield Bearers take a needed value when one
    exists (never worse, since the leaders that come last can take any value), leaders cover the
    rest of ``need`` and then any other values.
    """
    if companion:
        if not missing & _COMPANION_VALUE:
            return -1
        missing ^= _COMPANION_VALUE
        need &= ~_COMPANION_VALUE
    if shield:
        options = missing & _SHIELD_VALUES
        if not options:
            return -1
        pick = need & _SHIELD_VALUES or options
        pick &= -pick
        missing ^= pick
        need &= ~pick
    if need.bit_count() > leaders:
        return -1
    missing &= ~need
    for _ in range(leaders - need.bit_count()):
        missing &= missing - 1  # a spare leader takes any remaining value
    return missing


def _best(cards: Sequence[int], size: int, mask: int, k: int, fog: bool, floor: int
          ) -> tuple[int, int, int] | None:
    """Strongest ``(rank, sum, added)`` for ``cards`` plus ``k`` troops taken from ``mask``.

    ``added`` is the 60-bit mask of the chosen troops. Types ranked below ``floor`` are not
    looked at (``None`` if no type at or above ``floor`` is reachable). The caller guarantees
    ``popcount(mask) >= k``, so the host is always reachable.
    """
    leaders = companion = shield = 0
    troops = troop_sum = values = colours = 0
    for c in cards:
        if c < 60:
            troops += 1
            troop_sum += c % 10 + 1
            values |= 1 << (c % 10)
            colours |= 1 << (c // 10)
        elif c == COMPANION_CAVALRY:
            companion = 1
        elif c == SHIELD_BEARERS:
            shield = 1
        else:
            leaders += 1
    morale = leaders + companion + shield
    morale_sum = 10 * leaders + 8 * companion + 3 * shield

    if not fog:
        # At most one troop colour: a wedge or battalion is possible, in that colour only, and
        # only if that colour still has k unseen troops.
        mono = not colours & (colours - 1)
        by_colour: list[tuple[int, int]] = []
        if mono:
            for col in (colours.bit_length() - 1,) if colours else _ALL_COLOURS:
                avail = (mask >> (10 * col)) & 1023
                if avail.bit_count() >= k:
                    by_colour.append((col, avail))
        # Runs need distinct troop values spanning fewer than `size` values.
        runs = _RUNS_HOLDING[size][values] if values.bit_count() == troops else ()

        if by_colour:
            for _, run, run_sum in runs:
                missing = run & ~values
                for col, avail in by_colour:
                    if morale:
                        left = _cover(missing, missing & ~avail, companion, shield, leaders)
                        if left < 0:
                            continue
                    elif missing & ~avail:
                        continue
                    else:
                        left = missing
                    return WEDGE, run_sum, left << (10 * col)
        if floor > PHALANX:
            return None

        # Phalanx: every troop has one value v, every morale card can take v.
        if not values & (values - 1) and not (companion and shield):
            if values:
                candidates: Sequence[int] = (values.bit_length() - 1,)
            elif companion:
                candidates = (7,)
            elif shield:
                candidates = (2, 1, 0)
            else:
                candidates = range(9, -1, -1)
            for v0 in candidates:
                if companion and v0 != 7 or shield and v0 > 2:
                    continue
                avail = mask & _VALUE_MASK[v0]
                if avail.bit_count() >= k:
                    added = 0
                    for _ in range(k):
                        low = avail & -avail
                        added |= low
                        avail ^= low
                    return PHALANX, size * (v0 + 1), added
        if floor > BATTALION:
            return None

        # Battalion: one colour, morale at its maximum, the k highest unseen troops of the colour.
        if by_colour:
            best_sum = -1
            best_added = 0
            for col, avail in by_colour:
                total = 0
                added = 0
                for _ in range(k):
                    top = avail.bit_length() - 1
                    total += top + 1
                    added |= 1 << top
                    avail ^= 1 << top
                if total > best_sum:
                    best_sum = total
                    best_added = added << (10 * col)
            return BATTALION, troop_sum + morale_sum + best_sum, best_added
        if floor > SKIRMISH_LINE:
            return None

        # Skirmish line: as the wedge, but any troop of a needed value will do.
        if runs:
            # the values some colour still has: the six 10-bit colour slices OR-ed together
            avail = (mask | mask >> 10 | mask >> 20 | mask >> 30 | mask >> 40 | mask >> 50) & 1023
            for _, run, run_sum in runs:
                missing = run & ~values
                if morale:
                    left = _cover(missing, missing & ~avail, companion, shield, leaders)
                    if left < 0:
                        continue
                elif missing & ~avail:
                    continue
                else:
                    left = missing
                added = 0
                while left:
                    low = left & -left
                    left ^= low
                    cand = mask & _VALUE_MASK[low.bit_length() - 1]
                    added |= cand & -cand
                return SKIRMISH_LINE, run_sum, added
        if floor > HOST:
            return None

    # Host (and everything under Fog): morale at its maximum plus the k highest unseen troops.
    total = 0
    added = 0
    need = k
    v0 = 9
    while need:
        avail = mask & _VALUE_MASK[v0]
        while avail and need:
            low = avail & -avail
            added |= low
            avail ^= low
            total += v0 + 1
            need -= 1
        v0 -= 1
    return HOST, troop_sum + morale_sum + total, added


def _ids(mask: int) -> tuple[int, ...]:
    """The troop ids of a 60-bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


# Memo of strength() without Fog, keyed on the sorted cards (at most 4 of 64, so a sorted tuple is
# a cheap, canonical key). Cleared when it grows too large to bound memory in long runs.
_STRENGTH_CACHE: dict[tuple[int, ...], tuple[int, int]] = {}
_STRENGTH_CACHE_MAX = 1 << 18


def strength(cards: Sequence[int], fog: bool) -> tuple[int, int]:
    """``(rank, sum)`` of a complete side (3 cards, or 4 with Mud; completeness is the caller's).

    ``cards`` are troop ids and morale tactics ids. Without Fog, morale cards take the colour and
    value maximising ``(rank, sum)`` (several morale cards in a run take distinct values). With Fog
    the result is ``(HOST, sum)`` with morale cards at their maximum.
    """
    if fog:
        return HOST, sum(map(_MAX_VALUE.__getitem__, cards))
    key = tuple(sorted(cards))
    result = _STRENGTH_CACHE.get(key)
    if result is None:
        if len(_STRENGTH_CACHE) >= _STRENGTH_CACHE_MAX:
            _STRENGTH_CACHE.clear()
        if key[-1] < 60 and 3 <= len(key) <= 4:
            result = _STRENGTH_CACHE[key] = _troop_strength(key)
        else:
            best = _best(key, len(key), 0, 0, False, HOST)
            assert best is not None  # the host is always reachable
            result = _STRENGTH_CACHE[key] = (best[0], best[1])
    return result


def _troop_strength(key: tuple[int, ...]) -> tuple[int, int]:
    """:func:`strength` of 3 or 4 troops (sorted ids, no morale card), without the search:
    what ``_best`` finds when no card is wild."""
    total = 0
    values = colours = 0
    for c in key:
        v0 = c % 10
        total += v0 + 1
        values |= 1 << v0
        colours |= 1 << (c // 10)
    n = len(key)
    mono = not colours & (colours - 1)
    # distinct values spanning n consecutive values
    run = values.bit_count() == n and values == ((1 << n) - 1) << (values & -values).bit_length() - 1
    if mono and run:
        return WEDGE, total
    if not values & (values - 1):
        return PHALANX, total
    if mono:
        return BATTALION, total
    if run:
        return SKIRMISH_LINE, total
    return HOST, total


def best_completion(cards: Sequence[int], size: int, unseen: Sequence[int], fog: bool
                    ) -> tuple[tuple[int, int], tuple[int, ...]] | None:
    """Strongest ``(rank, sum)`` side ``cards`` can reach by adding exactly
    ``k = size - len(cards)`` troops from ``unseen``, with a witness: the ``k`` added troop ids,
    ascending.

    ``unseen`` holds distinct troop ids, none of them in ``cards``. Returns ``None`` if
    ``len(unseen) < k``; for ``k == 0`` returns ``(strength(cards, fog), ())``. Runs in time
    independent of the number of ``k``-subsets of ``unseen``: each formation type is solved
    directly, best type first.
    """
    k = size - len(cards)
    if k < 0:
        raise ValueError(f"a side of {len(cards)} cards cannot have size {size}")
    if len(unseen) < k:
        return None
    if k == 0:
        return strength(cards, fog), ()
    best = _best(cards, size, sum(map(_BIT.__getitem__, unseen)), k, fog, HOST)
    assert best is not None
    return (best[0], best[1]), _ids(best[2])


def can_claim(mine: Sequence[int], mine_completed_at: int, theirs: Sequence[int],
              theirs_completed_at: int, size: int, unseen: Sequence[int], fog: bool
              ) -> tuple[bool, tuple[int, ...] | None]:
    """The proof rule (rules.md section 4) for the owner of ``mine``.

    Returns ``(claimable, witness)``. ``mine`` must be complete (``len(mine) == size``), else
    ``(False, None)``. ``*_completed_at`` are move numbers (smaller is earlier);
    ``theirs_completed_at`` is read only when ``theirs`` is complete.

    * ``theirs`` complete: claimable iff ``mine`` is stronger, or equal and completed first.
    * ``theirs`` missing ``k`` cards: claimable iff ``len(unseen) < k`` or no ``k`` troops of
      ``unseen`` make ``theirs`` strictly stronger than ``mine`` (an equal result loses to
      ``mine``, completed first). When not claimable, ``witness`` is ``k`` troop ids that would
      beat ``mine`` (ascending), for the error message; otherwise it is ``None``.
    """
    if len(mine) != size:
        return False, None
    return can_claim_mask(
        mine, mine_completed_at, theirs, theirs_completed_at, size,
        sum(map(_BIT.__getitem__, unseen)), fog,
    )


def troop_mask(cards: Iterable[int]) -> int:
    """The 60-bit mask of troop ids ``cards`` (bit ``card`` set)."""
    return sum(map(_BIT.__getitem__, cards))


def can_claim_mask(mine: Sequence[int], mine_completed_at: int, theirs: Sequence[int],
                   theirs_completed_at: int, size: int, unseen: int, fog: bool
                   ) -> tuple[bool, tuple[int, ...] | None]:
    """:func:`can_claim` with ``unseen`` given as a 60-bit troop mask (see :func:`troop_mask`):
    the engine keeps that mask up to date instead of building a list per check."""
    refutation = refute(mine, mine_completed_at, theirs, theirs_completed_at, size, unseen, fog)
    if refutation is None:
        return True, None
    return False, (_ids(refutation) if refutation else None)


def refute(mine: Sequence[int], mine_completed_at: int, theirs: Sequence[int],
           theirs_completed_at: int, size: int, unseen: int, fog: bool) -> int | None:
    """The claim proof in its cheapest form: ``None`` if ``mine`` (complete) can claim against
    ``theirs``; else the mask of ``k`` unseen troops that would beat it, or ``0`` when ``theirs``
    is complete and wins already. A refutation stays valid as long as neither side changes and
    its troops stay off the table (unseen troops only ever decrease): engines cache on that."""
    ours = strength(mine, fog)
    k = size - len(theirs)
    if k <= 0:
        other = strength(theirs, fog)
        if ours > other or (ours == other and mine_completed_at < theirs_completed_at):
            return None
        return 0
    if unseen.bit_count() < k:
        return None
    # Types ranked below ours can never beat us: `floor` lets _best stop before them.
    best = _best(theirs, size, unseen, k, fog, ours[0])
    if best is None or (best[0], best[1]) <= ours:
        return None
    return best[2]


# Memo of refutations found by refute_cached(): (their cards sorted, size, fog, our strength) ->
# the last witness mask found. A witness is a refutation wherever all its troops are unseen (their
# side plus the witness beats ours whatever else is on the table), so it is reused after checking
# just that. Cleared when it grows too large.
_REFUTATIONS: dict[tuple, int] = {}
_REFUTATIONS_MAX = 1 << 16


def refute_cached(mine: Sequence[int], mine_completed_at: int, theirs: Sequence[int],
                  theirs_completed_at: int, size: int, unseen: int, fog: bool) -> int | None:
    """:func:`refute` for verdicts only: the same ``None`` / not ``None``, but a refutation may be
    another witness than :func:`refute`'s (a remembered one still valid), so messages that name
    the witness use :func:`refute`."""
    k = size - len(theirs)
    if k <= 0:
        return refute(mine, mine_completed_at, theirs, theirs_completed_at, size, unseen, fog)
    if unseen.bit_count() < k:
        return None
    ours = strength(mine, fog)
    key = (tuple(sorted(theirs)), size, fog, ours)
    witness = _REFUTATIONS.get(key)
    if witness is not None and not witness & ~unseen:
        return witness
    best = _best(theirs, size, unseen, k, fog, ours[0])
    if best is None or (best[0], best[1]) <= ours:
        return None
    if len(_REFUTATIONS) >= _REFUTATIONS_MAX:
        _REFUTATIONS.clear()
    _REFUTATIONS[key] = best[2]
    return best[2]
