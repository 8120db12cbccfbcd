"""The position model of the ``greedy`` Schotten Totten bot (:mod:`standoff.bots.greedy`): the
view of one decision parsed into flags, sides, hand and the troops not on the table, and the
evaluation of a flag as an estimated chance of winning it (exact when the formations decide it,
else a logistic of the difference between the strongest formations each side can still reach,
discounted per missing card), with the change of value each kind of move makes (placing a card,
Fog or Mud, a removal, Traitor, Redeploy). The tuning constants are read from the bot passed as
``tune``; :mod:`standoff.bots.greedy` describes the model in full. ``_score`` and ``_logistic``
are shared with :mod:`standoff.bots.flag_model`.
"""

from __future__ import annotations

import math
from typing import Any

from ..server.games.schotten_totten import cards as C
from ..server.games.schotten_totten.formations import best_completion, strength

_BIG = 1 << 30


def _score(value: tuple[int, int], size: int) -> float:
    """A formation strength as one number: 10 per rank plus the average card value."""
    return value[0] * 10 + value[1] / size


def _logistic(x: float) -> float:
    if x > 60:
        return 1.0
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _without(sides: tuple[tuple[int, ...], ...], card: int) -> tuple[tuple[int, ...], ...]:
    """The opponents' sides at a flag with ``card`` taken out of whichever holds it."""
    return tuple(side if card not in side else tuple(c for c in side if c != card) for side in sides)


class _Position:
    """The parsed view of one decision, with memoised evaluations."""

    def __init__(self, view: dict[str, Any], role: str, tune: Any) -> None:
        self.tune = tune  # the bot: its class attributes hold the tuning constants
        self.role = role
        max_value = 9 if view.get("ruleset") == "classic" else 10
        flags = view["flags"]
        roles = list(flags[0]["sides"])
        #: every other role (one in a two-player game, two in ``three_player``), in role order
        self.opps: list[str] = [r for r in roles if r != role]
        self.hand: list[int] = [C.card_from_name(n) for n in view.get("hand", ())]
        self.hand_troops: tuple[int, ...] = tuple(c for c in self.hand if c < 60)
        #: tactics cards played so far per role (the count rule)
        self.tactics_played: dict[str, int] = view.get("tactics_played") or {}
        self.mine: list[tuple[int, ...]] = []
        #: theirs[f]: one side per opponent (in ``opps`` order)
        self.theirs: list[tuple[tuple[int, ...], ...]] = []
        self.my_at: list[int] = []
        self.opp_at: list[tuple[int, ...]] = []
        self.claimed: list[str | None] = []
        self.fog: list[bool] = []
        self.fog_owner: list[str | None] = []
        self.mud: list[bool] = []
        self.mud_owner: list[str | None] = []
        table: set[int] = set()
        for entry in flags:
            sides = entry["sides"]
            mine = tuple(C.card_from_name(n) for n in sides[role]["cards"])
            theirs = tuple(
                tuple(C.card_from_name(n) for n in sides[o]["cards"]) for o in self.opps
            )
            table.update(mine)
            for side in theirs:
                table.update(side)
            self.mine.append(mine)
            self.theirs.append(theirs)
            at = sides[role].get("completed_at")
            self.my_at.append(_BIG if at is None else at)
            self.opp_at.append(
                tuple(
                    _BIG if (at := sides[o].get("completed_at")) is None else at
                    for o in self.opps
                )
            )
            self.claimed.append(entry.get("claimed_by"))
            self.fog_owner.append(entry.get("fog"))
            self.fog.append(entry.get("fog") is not None)
            self.mud_owner.append(entry.get("mud"))
            self.mud.append(entry.get("mud") is not None)
        for pile in view.get("discards", {}).values():
            table.update(C.card_from_name(n) for n in pile)
        hand_set = set(self.hand)
        #: troops not on the table and not in our hand: the deck and the opponents' hands
        self.external: list[int] = [
            c
            for colour in range(6)
            for c in range(colour * 10, colour * 10 + max_value)
            if c not in table and c not in hand_set
        ]
        self.history: list = view.get("history") or []
        others = view.get("opponents", {})
        #: tactics cards each opponent holds (their number is public)
        self.opponent_tactics: dict[str, int] = {o: (others.get(o) or {}).get("tactics", 0) for o in self.opps}
        #: the most tactics cards any opponent holds
        self.opp_tactics: int = max(self.opponent_tactics.values(), default=0)
        self.leader_played = bool(view.get("leader_played", {}).get(role))
        self._pools: dict[tuple[int, ...], list[int]] = {}
        self._mine_memo: dict[tuple, tuple] = {}
        self._opp_memo: dict[tuple, Any] = {}
        self._base: dict[int, float] = {}

    # -- flags ---------------------------------------------------------------------------------

    def size(self, f: int) -> int:
        return 4 if self.mud[f] else 3

    def open_flags(self) -> list[int]:
        """Unclaimed flags where our side has room."""
        return [
            f for f in range(9) if self.claimed[f] is None and len(self.mine[f]) < self.size(f)
        ]

    def find(self, card: int) -> tuple[int, bool] | None:
        """``(flag, ours)`` of a card in a formation slot."""
        for f in range(9):
            if card in self.mine[f]:
                return f, True
            if any(card in side for side in self.theirs[f]):
                return f, False
        return None

    # -- estimates -----------------------------------------------------------------------------

    def _pool(self, hand: tuple[int, ...]) -> list[int]:
        pool = self._pools.get(hand)
        if pool is None:
            pool = self._pools[hand] = self.external + list(hand)
        return pool

    def mine_estimate(self, side: tuple[int, ...], size: int, fog: bool, hand: tuple[int, ...]):
        """``(estimate, certain, best)`` for our incomplete ``side`` given our ``hand`` troops:
        ``certain`` is the strongest completion from the hand alone (or ``None``), ``best`` the
        strongest reachable at all (or ``None`` if the side can no longer be completed)."""
        key = (tuple(sorted(side)), size, fog, hand)
        found = self._mine_memo.get(key)
        if found is not None:
            return found
        k = size - len(side)
        certain = None
        estimate = -1e9
        if len(hand) >= k:
            done = best_completion(side, size, hand, fog)
            if done is not None:
                certain = done[0]
                estimate = _score(certain, size)
        reach = best_completion(side, size, self._pool(hand), fog)
        best = None
        if reach is not None:
            best = reach[0]
            outside = sum(1 for c in reach[1] if c not in hand)
            estimate = max(estimate, _score(best, size) - self.tune.D_EXTERNAL * outside)
        found = (estimate - self.tune.D_MISSING * k, certain, best)
        self._mine_memo[key] = found
        return found

    def opp_estimate(self, side: tuple[int, ...], size: int, fog: bool):
        """``(estimate, best)`` for the opponent's incomplete ``side``; ``best`` is ``None`` if
        it can no longer be completed."""
        key = (tuple(sorted(side)), size, fog)
        found = self._opp_memo.get(key)
        if found is not None:
            return found
        k = size - len(side)
        reach = best_completion(side, size, self.external, fog)
        if reach is None:
            found = (-1e9, None)
        else:
            found = (_score(reach[0], size) - self.tune.D_OPPONENT * k, reach[0])
        self._opp_memo[key] = found
        return found

    def value(
        self,
        f: int,
        mine: tuple[int, ...],
        theirs: tuple[tuple[int, ...], ...],
        hand: tuple[int, ...],
        fog: bool | None = None,
        size: int | None = None,
    ) -> float:
        """Estimated chance that we win flag ``f`` with these sides (``theirs``: one side per
        opponent), environment and hand. With several opponents the flag is won only by beating
        every one of them: the chances against each are multiplied (as if independent; exact
        when each is 0 or 1)."""
        if self.claimed[f] is not None:
            return 1.0 if self.claimed[f] == self.role else 0.0
        if fog is None:
            fog = self.fog[f]
        if size is None:
            size = self.size(f)
        if len(mine) > size:
            mine = self._trim(mine, size, fog)
        total = 1.0
        for o, side in enumerate(theirs):
            chance = self._versus(f, o, mine, side, hand, fog, size)
            if chance <= 0.0:
                return 0.0
            total *= chance
        return total

    def _versus(
        self,
        f: int,
        o: int,
        mine: tuple[int, ...],
        theirs: tuple[int, ...],
        hand: tuple[int, ...],
        fog: bool,
        size: int,
    ) -> float:
        """Estimated chance that our side ``mine`` beats the side ``theirs`` of opponent ``o``
        (index into ``opps``) at flag ``f``."""
        if len(theirs) > size:
            theirs = self._trim(theirs, size, fog)
        k_mine = size - len(mine)
        k_theirs = size - len(theirs)
        if k_mine == 0 and k_theirs == 0:
            ours, other = strength(mine, fog), strength(theirs, fog)
            if ours != other:
                return 1.0 if ours > other else 0.0
            same = size == self.size(f)
            my_at = self.my_at[f] if same and mine == self.mine[f] else _BIG
            opp_at = self.opp_at[f][o] if same and theirs == self.theirs[f][o] else _BIG
            return 1.0 if my_at < opp_at else 0.0
        if k_mine == 0:
            ours = strength(mine, fog)
            estimate, best = self.opp_estimate(theirs, size, fog)
            if best is None or best <= ours:
                return 1.0
            return _logistic((_score(ours, size) - estimate) / self.tune.TEMPERATURE)
        estimate, certain, best = self.mine_estimate(mine, size, fog, hand)
        if best is None:
            return 0.0
        if k_theirs == 0:
            other = strength(theirs, fog)
            if best <= other:
                return 0.0
            if certain is not None and certain > other:
                return self.tune.P_CERTAIN
            return _logistic((estimate - _score(other, size)) / self.tune.TEMPERATURE)
        opp_estimate, opp_best = self.opp_estimate(theirs, size, fog)
        if opp_best is None:
            return self.tune.P_CERTAIN
        if certain is not None and certain > opp_best:
            return self.tune.P_CERTAIN
        return _logistic((estimate - opp_estimate) / self.tune.TEMPERATURE)

    def _trim(self, side: tuple[int, ...], size: int, fog: bool) -> tuple[int, ...]:
        """The strongest ``size`` cards of ``side`` (Mud left: the owner discards one)."""
        best, best_side = None, side[:size]
        for i in range(len(side)):
            rest = side[:i] + side[i + 1 :]
            if len(rest) > size:
                rest = self._trim(rest, size, fog)
            s = strength(rest, fog)
            if best is None or s > best:
                best, best_side = s, rest
        return best_side

    def base(self, f: int) -> float:
        """Value of flag ``f`` as it stands, with our whole hand."""
        found = self._base.get(f)
        if found is None:
            found = self._base[f] = self.value(f, self.mine[f], self.theirs[f], self.hand_troops)
        return found

    def hand_without(self, card: int) -> tuple[int, ...]:
        return tuple(c for c in self.hand_troops if c != card)

    # -- moves ---------------------------------------------------------------------------------

    def place_delta(self, card: int, f: int, hand: tuple[int, ...] | None = None) -> float:
        """Change of value at ``f`` when ``card`` goes to our side there."""
        if hand is None:
            hand = self.hand_without(card)
        return self.value(f, self.mine[f] + (card,), self.theirs[f], hand) - self.base(f)

    def _env_change(self, f: int, fog: bool | None = None, size: int | None = None) -> float:
        """Change of value at ``f`` when its environment becomes ``fog`` / ``size``."""
        v = self.value(f, self.mine[f], self.theirs[f], self.hand_troops, fog=fog, size=size)
        return v - self.base(f)

    def environment_delta(self, card: int, f: int) -> float:
        """Change of value when Fog or Mud (``card``) is put at ``f`` (-1: not possible)."""
        if self.claimed[f] is not None or (self.fog[f] if card == C.FOG else self.mud[f]):
            return -1.0
        return self._env_change(f, fog=True) if card == C.FOG else self._env_change(f, size=4)

    def removal_delta(self, card: int) -> tuple[float, int | None]:
        """Change of value when an opponent's ``card`` (formation card, Fog or Mud) is discarded,
        and the flag it was at."""
        if card in C.ENVIRONMENT:
            f = self.env_flag(card)
            if f is None:
                return 0.0, None
            gone = self._env_change(f, fog=False) if card == C.FOG else self._env_change(f, size=3)
            return gone, f
        found = self.find(card)
        if found is None or found[1]:
            return 0.0, None
        f = found[0]
        theirs = _without(self.theirs[f], card)
        return self.value(f, self.mine[f], theirs, self.hand_troops) - self.base(f), f

    def env_flag(self, card: int) -> int | None:
        marks = self.fog if card == C.FOG else self.mud
        return next((f for f in range(9) if marks[f]), None)

    def traitor_delta(self, card: int, source: int, target: int) -> float:
        """Change of value when we take the opponent's ``card`` at ``source`` to ``target``."""
        theirs = _without(self.theirs[source], card)
        if source == target:
            return (
                self.value(source, self.mine[source] + (card,), theirs, self.hand_troops)
                - self.base(source)
            )
        gain = self.value(source, self.mine[source], theirs, self.hand_troops) - self.base(source)
        return gain + self.place_delta(card, target, self.hand_troops)

    def redeploy_delta(self, card: int, source: int, target: int | None) -> float:
        """Change of value when our ``card`` at ``source`` moves to ``target`` (``None``:
        discarded). Fog and Mud move between flags."""
        if card in C.ENVIRONMENT:
            if card == C.FOG:
                total = self._env_change(source, fog=False)
            else:
                total = self._env_change(source, size=3)
            if target is not None:
                total += self.environment_delta(card, target)
            return total
        mine = tuple(c for c in self.mine[source] if c != card)
        total = self.value(source, mine, self.theirs[source], self.hand_troops) - self.base(source)
        if target is not None:
            total += self.place_delta(card, target, self.hand_troops)
        return total
