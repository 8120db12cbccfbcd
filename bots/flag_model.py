"""The flag model of the ``ismcts`` bot: greedy's estimate of a role's chance at each flag of
Schotten Totten / Battle Line (:mod:`standoff.bots.greedy`: the best formations each side can
still reach from the troops not on the table, discounted per missing card, a logistic of the
difference), computed straight from an engine state and from what the role sees there (its own
hand, the table), with no view built: the search's judge, its rollout policy's troop placement
(:meth:`FlagModel.best_placement`) and its deal weighting (:func:`placement_gains` on a
:class:`PastPosition`).
"""

from __future__ import annotations

import math
from typing import Any

from ..server.games.schotten_totten.formations import best_completion, strength

try:  # the engine's mask-based solver (twice as fast as best_completion's list interface)
    from ..server.games.schotten_totten.formations import _best as _best_mask
except ImportError:  # pragma: no cover - the engine renamed it: use the public interface
    _best_mask = None
from .greedy import _score

__all__ = ["FlagModel", "PastPosition", "placement_gains"]


class PastPosition:
    """A sampled state as it stood at the opponent's last play, for :class:`FlagModel` (which
    reads only these): the sides and hands given, the unseen troops plus ``back``."""

    __slots__ = ("rules", "sides", "hands", "claimed", "fog", "mud", "_unseen")

    def __init__(self, state, sides, hands, back: int) -> None:
        self.rules = state.rules
        self.sides = sides
        self.hands = hands
        self.claimed, self.fog, self.mud = state.claimed, state.fog, state.mud
        self._unseen = state.unseen_mask() | back

    def unseen_mask(self) -> int:
        return self._unseen


def placement_gains(model: FlagModel, state, role: int) -> dict[tuple[int, int], float]:
    """The troop policy's score of every ``(troop in role's hand, open flag)`` in ``state``: the
    gain in the flag model's chance at that flag, less 0.001 per card value (as
    :meth:`FlagModel.best_placement`, which keeps only the best)."""
    n = len(state.rules.roles)
    opp = 1 - role
    hand_mask, count = _troop_mask(state.hands[role])
    external = state.unseen_mask() & ~hand_mask
    out = {}
    opens = []
    for f in range(9):
        if state.claimed[f] >= 0:
            continue
        size = 4 if state.mud[f] >= 0 else 3
        mine = state.sides[f * n + role]
        if len(mine) >= size:
            continue
        fog = state.fog[f] >= 0
        theirs = state.sides[f * n + opp]
        if len(theirs) > size:
            theirs = _strongest(theirs, size, fog)
        base = model.side(mine, theirs, False, size, fog, hand_mask, count, external)
        opens.append((f, mine, theirs, size, fog, base))
    for card in state.hands[role]:
        if card >= 60:
            continue
        rest = hand_mask & ~(1 << card)
        penalty = 0.001 * (card % 10 + 1)
        for f, mine, theirs, size, fog, base in opens:
            value = model.side(mine + (card,), theirs, False, size, fog, rest, count - 1, external)
            out[(card, f)] = value - base - penalty
    return out



def _strongest(side: tuple[int, ...], size: int, fog: bool) -> tuple[int, ...]:
    """The strongest ``size`` cards of a side that has more (Mud just left)."""
    best, best_side = None, side[:size]
    for i in range(len(side)):
        rest = side[:i] + side[i + 1 :]
        if len(rest) > size:
            rest = _strongest(rest, size, fog)
        s = strength(rest, fog)
        if best is None or s > best:
            best, best_side = s, rest
    return best_side


def _reach(cards: tuple[int, ...], size: int, mask: int, fog: bool) -> tuple[int, int] | None:
    """The strongest formation ``cards`` can become with troops of ``mask`` (a 60-bit set)."""
    k = size - len(cards)
    if mask.bit_count() < k:
        return None
    if k == 0:
        return strength(cards, fog)
    if _best_mask is None:
        found = best_completion(cards, size, [c for c in range(60) if mask >> c & 1], fog)
        return None if found is None else found[0]
    found = _best_mask(cards, size, mask, k, fog, 0)
    return (found[0], found[1])


def _troop_mask(hand) -> tuple[int, int]:
    """The troops of a hand as a 60-bit set, and how many there are."""
    mask = count = 0
    for c in hand:
        if c < 60:
            mask |= 1 << c
            count += 1
    return mask, count


class FlagModel:
    """Greedy's estimate of a role's chance at a flag (:mod:`standoff.bots.greedy`: the best
    formations each side can still reach from the troops not on the table, discounted per missing
    card, a logistic of the difference), computed straight from a state and from what that role
    sees there (its own hand, the table): no view is built. Two players. ``memo`` caches the
    formation searches (keep one model per decision)."""

    def __init__(self, tune: Any) -> None:
        self.d_missing = tune.D_MISSING
        self.d_opp = tune.D_OPPONENT
        self.temp = tune.TEMPERATURE
        self.p_certain = tune.P_CERTAIN
        self.use_certain = getattr(tune, "USE_CERTAIN", True)
        self.memo: dict = {}

    def reach(self, cards, size, mask, fog):
        key = (cards, size, mask, fog)
        memo = self.memo
        found = memo.get(key, memo)
        if found is memo:
            found = memo[key] = _reach(cards, size, mask, fog)
        return found

    def side(self, mine, theirs, mine_first: bool, size: int, fog: bool, hand_mask: int, hand_count: int,
             external: int) -> float:
        """Chance that ``mine`` beats ``theirs`` (each at most ``size`` cards); ``mine_first``:
        whether ours was complete first if both are and tie; ``external``: the troops neither on
        the table nor in our hand."""
        k_mine, k_theirs = size - len(mine), size - len(theirs)
        if k_mine == 0 and k_theirs == 0:
            ours, other = strength(mine, fog), strength(theirs, fog)
            if ours != other:
                return 1.0 if ours > other else 0.0
            return 1.0 if mine_first else 0.0
        # (self.reach, _score and _logistic inline: this runs for every open flag of every
        # position the policy and the judge look at)
        memo = self.memo
        if k_theirs:
            key = (theirs, size, external, fog)
            opp_best = memo.get(key, memo)
            if opp_best is memo:
                opp_best = memo[key] = _reach(theirs, size, external, fog)
            opp_estimate = -1e9 if opp_best is None else opp_best[0] * 10 + opp_best[1] / size - self.d_opp * k_theirs
        if k_mine == 0:
            ours = strength(mine, fog)
            if opp_best is None or opp_best <= ours:
                return 1.0
            x = (ours[0] * 10 + ours[1] / size - opp_estimate) / self.temp
            return 1.0 if x > 60 else 0.0 if x < -60 else 1.0 / (1.0 + math.exp(-x))
        certain = None
        estimate = -1e9
        if self.use_certain and hand_count >= k_mine:
            key = (mine, size, hand_mask, fog)
            certain = memo.get(key, memo)
            if certain is memo:
                certain = memo[key] = _reach(mine, size, hand_mask, fog)
            if certain is not None:
                estimate = certain[0] * 10 + certain[1] / size
        wide = external | hand_mask
        key = (mine, size, wide, fog)
        best = memo.get(key, memo)
        if best is memo:
            best = memo[key] = _reach(mine, size, wide, fog)
        if best is None:
            return 0.0
        score = best[0] * 10 + best[1] / size
        if score > estimate:
            estimate = score
        estimate -= self.d_missing * k_mine
        if k_theirs == 0:
            other = strength(theirs, fog)
            if best <= other:
                return 0.0
            if certain is not None and certain > other:
                return self.p_certain
            x = (estimate - (other[0] * 10 + other[1] / size)) / self.temp
        elif opp_best is None or (certain is not None and certain > opp_best):
            return self.p_certain
        else:
            x = (estimate - opp_estimate) / self.temp
        return 1.0 if x > 60 else 0.0 if x < -60 else 1.0 / (1.0 + math.exp(-x))

    def flags(self, state, me: int) -> list[float]:
        """Role ``me``'s chance at each of the 9 flags (1 or 0 when claimed)."""
        n = len(state.rules.roles)
        opp = 1 - me
        hand_mask, count = _troop_mask(state.hands[me])
        external = state.unseen_mask() & ~hand_mask
        sides, placed, claimed, fogs, muds = state.sides, state.placed, state.claimed, state.fog, state.mud
        out = []
        for f in range(9):
            owner = claimed[f]
            if owner >= 0:
                out.append(1.0 if owner == me else 0.0)
                continue
            fog = fogs[f] >= 0
            size = 4 if muds[f] >= 0 else 3
            mine, theirs = sides[f * n + me], sides[f * n + opp]
            first = False
            if len(mine) > size or len(theirs) > size:
                mine = _strongest(mine, size, fog) if len(mine) > size else mine
                theirs = _strongest(theirs, size, fog) if len(theirs) > size else theirs
            elif len(mine) == size and len(theirs) == size:
                first = max(placed[f * n + me]) < max(placed[f * n + opp])
            out.append(self.side(mine, theirs, first, size, fog, hand_mask, count, external))
        return out

    def best_placement(self, state, role: int, cards) -> tuple[int, int] | None:
        """Greedy's troop play for ``role`` in ``state``: the ``(card, flag)`` among ``cards``
        (troops in its hand) and its open flags that raises its chance at that flag the most
        (ties: the lower card).

        The same figures as :meth:`side` for every pair, computed with what a flag's pairs share
        hoisted out (the opponent's reach, its estimate) and a pair skipped when even a certain
        win there could not beat the best gain so far (a chance is at most 1): the rollout
        policy's hot loop (tests/bots/test_ismcts.py compares it with the plain per-pair form)."""
        n = len(state.rules.roles)
        opp = 1 - role
        hand_mask, count = _troop_mask(state.hands[role])
        external = state.unseen_mask() & ~hand_mask
        sides, claimed, fogs, muds = state.sides, state.claimed, state.fog, state.mud
        memo = self.memo
        d_missing, d_opp, temp, p_certain = self.d_missing, self.d_opp, self.temp, self.p_certain
        use_certain = self.use_certain
        best, choice = -1e9, None
        opens = []
        for f in range(9):
            if claimed[f] >= 0:
                continue
            size = 4 if muds[f] >= 0 else 3
            mine = sides[f * n + role]
            if len(mine) >= size:
                continue
            fog = fogs[f] >= 0
            theirs = sides[f * n + opp]
            if len(theirs) > size:
                theirs = _strongest(theirs, size, fog)
            base = self.side(mine, theirs, False, size, fog, hand_mask, count, external)
            k_theirs = size - len(theirs)
            if k_theirs:
                opp_best = self.reach(theirs, size, external, fog)
                opp_estimate = -1e9 if opp_best is None else _score(opp_best, size) - d_opp * k_theirs
                other = other_score = None
            else:
                opp_best = opp_estimate = None
                other = strength(theirs, fog)
                other_score = _score(other, size)
            opens.append((f, mine, size, fog, base, size - len(mine) - 1, opp_best, opp_estimate, other,
                          other_score))
        rest_count = count - 1
        exp = math.exp  # the logistic of :func:`standoff.bots.greedy._logistic`, inline
        for card in cards:
            rest = hand_mask & ~(1 << card)
            penalty = 0.001 * (card % 10 + 1)
            wide = external | rest
            for f, mine, size, fog, base, k_mine, opp_best, opp_estimate, other, other_score in opens:
                if 1.0 - base - penalty <= best:
                    continue  # not even a sure win here would beat the best gain so far
                cards_now = mine + (card,)
                if k_mine == 0:
                    ours = strength(cards_now, fog)
                    if other is not None:  # both complete: no tie-break for a side completed last
                        value = 1.0 if ours > other else 0.0
                    elif opp_best is None or opp_best <= ours:
                        value = 1.0
                    else:
                        x = (ours[0] * 10 + ours[1] / size - opp_estimate) / temp
                        value = 1.0 if x > 60 else 0.0 if x < -60 else 1.0 / (1.0 + exp(-x))
                else:
                    certain = None
                    estimate = -1e9
                    if use_certain and rest_count >= k_mine:
                        key = (cards_now, size, rest, fog)
                        certain = memo.get(key, memo)
                        if certain is memo:
                            certain = memo[key] = _reach(cards_now, size, rest, fog)
                        if certain is not None:
                            estimate = certain[0] * 10 + certain[1] / size
                    key = (cards_now, size, wide, fog)
                    reached = memo.get(key, memo)
                    if reached is memo:
                        reached = memo[key] = _reach(cards_now, size, wide, fog)
                    if reached is None:
                        value = 0.0
                    else:
                        score = reached[0] * 10 + reached[1] / size
                        if score > estimate:
                            estimate = score
                        estimate -= d_missing * k_mine
                        if other is not None:
                            if reached <= other:
                                value = 0.0
                            elif certain is not None and certain > other:
                                value = p_certain
                            else:
                                x = (estimate - other_score) / temp
                                value = 1.0 if x > 60 else 0.0 if x < -60 else 1.0 / (1.0 + exp(-x))
                        elif opp_best is None or (certain is not None and certain > opp_best):
                            value = p_certain
                        else:
                            x = (estimate - opp_estimate) / temp
                            value = 1.0 if x > 60 else 0.0 if x < -60 else 1.0 / (1.0 + exp(-x))
                gain = value - base
                gain -= penalty
                if gain > best:
                    best, choice = gain, (card, f)
        return choice
