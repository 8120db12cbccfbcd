"""``probability``: a Schotten Totten / Battle Line bot that weighs every flag by its odds and by
what it is worth toward a breakthrough or an envelopment, and keeps tactics cards out of its hand.

It is :mod:`greedy <standoff.bots.greedy>` (whose move generation, flag estimates and tactics
handling it imports) with three changes, all computed from the view alone:

* **Formation odds per flag** (:class:`FlagOdds`): the unseen troops (not on the table, not in our
  hand, not known through Scout) are dealt at random, ``SCENARIOS`` times, into the opponent's
  hand (its troop count is public) and the deck (Scout tops we put back come first); each side
  then completes its formation from its hand plus its next ``HORIZON`` draws (alternating). The
  fraction of deals in which our completion beats theirs (ties to the side complete first) is
  the flag's odds; :meth:`FlagOdds.formations` gives the odds of each formation type per side.
* **Flag weights**: with each flag won independently at those odds, :func:`game_value` is the
  chance that we hold a winning pattern (3 adjacent flags or 5 flags; both patterns count as a
  coin flip) and :func:`flag_weights` how much that chance moves when a flag goes from lost to
  won. Every change of value greedy computes at a flag (placing a troop or a morale card, Fog,
  Mud, Deserter, Traitor, Redeploy, Mud leaving) is multiplied by the flag's weight, normalised
  to a mean of 1 and blended with 1 (``BLEND``), so tactics cards, whose cost is fixed, go to the
  decisive flags.
* **Draws** (``DRAW_TACTICS``): greedy's rule (tactics when the troops in hand fill our free
  slots, or to hold one, never one the count rule would not let us play). The count rule (a
  player may play a tactics card only if it has played no more than its opponent) made
  ``"never"`` (troops while the troop deck lasts) the best rule against the greedy that hoarded
  dead tactics cards; since greedy draws only playable ones, greedy's rule scores best against
  it (docs/bots.md, ``probability``, has the figures).

With several opponents (``three_player``, no tactics) the weights are 1: it plays as greedy.

Negative results (``docs/bots.md``): the weights alone change nothing measurable against greedy;
using the Monte Carlo odds as the flag values themselves lost heavily (10-30%).
"""

from __future__ import annotations

from typing import Any

from ..server.games.schotten_totten import cards as C
from ..server.games.schotten_totten.formations import RANK_NAMES, best_completion, strength
from .greedy import GreedyBot, _Position

__all__ = ["FlagOdds", "ProbabilityBot", "flag_weights", "game_value"]


def _winning(mask: int, run: int = 3, envelop: int = 5) -> bool:
    if mask.bit_count() >= envelop:
        return True
    pattern = (1 << run) - 1
    return any(mask >> s & pattern == pattern for s in range(9 - run + 1))


#: _SCORE[m]: our result when we hold exactly the flags of the 9-bit mask ``m`` and the opponent
#: the others (both hold a winning pattern: whoever got there first wins, a coin flip)
_SCORE: tuple[float, ...] = tuple(
    0.5 if _winning(m) == _winning(511 ^ m) else (1.0 if _winning(m) else 0.0) for m in range(512)
)


#: _ROWS[low]: the scores of the 16 ways flags 6-9 can go, given flags 1-5 as the mask ``low``
_ROWS: tuple[tuple[float, ...], ...] = tuple(
    tuple(_SCORE[low | high << 5] for high in range(16)) for low in range(32)
)


def _spread(p) -> list[float]:
    """The probability of every mask of ``len(p)`` independent flags (bit i: flag i won)."""
    probs = [1.0]
    for q in p:
        r = 1.0 - q
        probs = [x * r for x in probs] + [x * q for x in probs]
    return probs


def game_value(p: list[float]) -> float:
    """Chance of winning a two-player game if each flag ``f`` is won independently with chance
    ``p[f]`` (1 or 0 for a claimed flag)."""
    return _value(_spread(p[:5]), _spread(p[5:]))


def _value(low: list[float], high: list[float]) -> float:
    """:func:`game_value` from the spreads of flags 1-5 (``low``) and 6-9 (``high``)."""
    total = 0.0
    mul = float.__mul__
    for x, row in zip(low, _ROWS):
        if x:
            total += x * sum(map(mul, high, row))
    return total


def _rows_value(low: list[float], sums: list[float]) -> float:
    """:func:`_value` with each row's sum over the high flags computed already (``sums``)."""
    total = 0.0
    for x, s in zip(low, sums):
        if x:
            total += x * s
    return total


def flag_weights(p: list[float]) -> list[float]:
    """How much :func:`game_value` moves when flag ``f`` goes from lost to won.

    The same floating-point operations as ``game_value(p with f won) - game_value(p with f lost)``
    (so the same result to the last bit: the bots' play does not change), without their repeats:
    flags 1-5 change only the spread of the low flags, so the rows' sums over the high flags are
    computed once for them, and flags 6-9 share the low flags' spread (0.76 of the time of the 18
    calls of :func:`game_value`)."""
    mul = float.__mul__
    low_spread = _spread(p[:5])
    high_spread = _spread(p[5:])
    sums = [sum(map(mul, high_spread, row)) for row in _ROWS]
    out = []
    for f in range(5):
        hi = list(p[:5])
        hi[f] = 1.0
        lo = list(p[:5])
        lo[f] = 0.0
        out.append(_rows_value(_spread(hi), sums) - _rows_value(_spread(lo), sums))
    for f in range(5, 9):
        hi = list(p[5:])
        hi[f - 5] = 1.0
        lo = list(p[5:])
        lo[f - 5] = 0.0
        out.append(_value(low_spread, _spread(hi)) - _value(low_spread, _spread(lo)))
    return out


class FlagOdds:
    """Monte Carlo odds of each flag from the unseen troops (two players), built from a view.

    ``scenarios``: how many deals of the unseen troops; ``horizon``: how many future draws each
    side may use. The same deals serve every question (common random numbers)."""

    def __init__(self, view: dict[str, Any], role: str, rng, scenarios: int = 24, horizon: int = 4,
                 pos: _Position | None = None) -> None:
        self.pos = pos = pos or _Position(view, role, GreedyBot)
        if len(pos.opps) != 1:
            raise ValueError("FlagOdds is for two-player games")
        other = (view.get("opponents") or {}).get(pos.opps[0]) or {}
        known = [c for c in (C.card_from_name(n) for n in other.get("known", ())) if c < 60]
        unknown = [c for c in pos.external if c not in known]
        in_hand = min(max(0, other.get("troops", 7) - len(known)), len(unknown))
        tops = []
        for name in ((view.get("decks") or {}).get("troops") or {}).get("top", ()):
            if name != "unknown":
                card = C.card_from_name(name)
                if card in unknown:
                    tops.append(card)
                    unknown.remove(card)
        #: (our future draws, the opponent's hand and future draws) per scenario
        self.scenarios: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        for _ in range(scenarios):
            shuffled = unknown.copy()
            rng.shuffle(shuffled)
            rest = tops + shuffled[in_hand:]
            ours = tuple(rest[0 : 2 * horizon : 2])
            theirs = tuple(known + shuffled[:in_hand] + rest[1 : 2 * horizon : 2])
            self.scenarios.append((ours, theirs))
        self._memo: dict[tuple, float] = {}

    def _completions(self, side, size, fog, pools) -> list:
        out = []
        for pool in pools:
            if len(side) >= size:
                out.append(strength(side[:size], fog))
            else:
                found = best_completion(side, size, pool, fog)
                out.append(None if found is None else found[0])
        return out

    def chance(self, f: int, hand: tuple[int, ...] | None = None) -> float:
        """Odds that we win unclaimed flag ``f`` as it stands (our hand: ``hand`` troops, by
        default the whole hand)."""
        pos = self.pos
        hand = pos.hand_troops if hand is None else hand
        key = (f, hand)
        found = self._memo.get(key)
        if found is not None:
            return found
        size, fog = pos.size(f), pos.fog[f]
        mine, theirs = pos.mine[f], pos.theirs[f][0]
        if len(mine) > size:
            mine = pos._trim(mine, size, fog)
        if len(theirs) > size:
            theirs = pos._trim(theirs, size, fog)
        if len(mine) == size and len(theirs) == size:
            ours, other = strength(mine, fog), strength(theirs, fog)
            if ours != other:
                result = 1.0 if ours > other else 0.0
            else:
                result = 1.0 if pos.my_at[f] < pos.opp_at[f][0] else 0.0
        else:
            ours_all = self._completions(mine, size, fog, [hand + s[0] for s in self.scenarios])
            theirs_all = self._completions(theirs, size, fog, [s[1] for s in self.scenarios])
            total = 0.0
            for ours, other in zip(ours_all, theirs_all, strict=True):
                if ours is None:
                    total += 0.5 if other is None else 0.0
                elif other is None or ours > other:
                    total += 1.0
                elif ours == other:
                    # the side complete now wins the tie; otherwise a coin flip
                    total += 1.0 if len(mine) == size else 0.0 if len(theirs) == size else 0.5
            result = total / len(self.scenarios)
        self._memo[key] = result
        return result

    def formations(self, f: int) -> dict[str, dict[str, float]]:
        """Odds of each formation type (``wedge`` ... ``host``, or ``none``: not completed) for
        each side of flag ``f`` (``"us"`` / ``"them"``)."""
        pos = self.pos
        size, fog = pos.size(f), pos.fog[f]
        result = {}
        for who, side, pools in (
            ("us", pos.mine[f], [pos.hand_troops + s[0] for s in self.scenarios]),
            ("them", pos.theirs[f][0], [s[1] for s in self.scenarios]),
        ):
            counts: dict[str, float] = {}
            for found in self._completions(side[:size], size, fog, pools):
                name = "none" if found is None else RANK_NAMES[found[0]]
                counts[name] = counts.get(name, 0.0) + 1.0 / len(pools)
            result[who] = counts
        return result

    def values(self) -> list[float]:
        """Every flag's odds (1 or 0 for a claimed flag)."""
        pos = self.pos
        return [
            self.chance(f) if pos.claimed[f] is None else (1.0 if pos.claimed[f] == pos.role else 0.0)
            for f in range(9)
        ]


class _WeightedPosition(_Position):
    """Greedy's position with every flag's value multiplied by the flag's weight."""

    def __init__(self, view: dict[str, Any], role: str, tune: Any) -> None:
        super().__init__(view, role, tune)
        self.weight = [1.0] * 9
        if len(self.opps) != 1:
            return
        odds = FlagOdds(view, role, tune.rng, tune.SCENARIOS, tune.HORIZON, pos=self)
        w = flag_weights(odds.values())
        live = [w[f] for f in range(9) if self.claimed[f] is None]
        mean = sum(live) / len(live) if live else 0.0
        if mean > 1e-9:
            blend = tune.BLEND
            self.weight = [(1.0 - blend) + blend * x / mean for x in w]

    def value(self, f, mine, theirs, hand, fog=None, size=None):
        return self.weight[f] * super().value(f, mine, theirs, hand, fog, size)


class ProbabilityBot(GreedyBot):
    """Greedy's play with flags weighed by their odds and worth (breakthrough, envelopment).

    The odds come from the unseen cards (:class:`FlagOdds`); tactics go to decisive flags.
    """

    name = "probability"
    games = ("schotten-totten",)
    #: deals of the unseen troops per decision, and future draws per side in each
    SCENARIOS = 24
    HORIZON = 4
    #: 0: greedy's values; 1: values fully weighed by the flags' worth
    BLEND = 0.5
    #: when to draw tactics cards (see ``_draw``)
    DRAW_TACTICS = "greedy"
    #: tactics cards we may hold beyond what the count rule lets us play now ("playable")
    TACTICS_SLACK = 0

    def _position(self, view: dict[str, Any], role: str) -> _Position:
        return _WeightedPosition(view, role, self)

    def _draw(self, pos: _Position, keys: list[str]) -> int:
        """``DRAW_TACTICS``: ``"never"`` (the default): troops while the troop deck lasts.
        ``"playable"``: a tactics card only if the count rule would let us play it (we may play
        one only while we have played no more than the opponent: ``opponent's count - ours +
        TACTICS_SLACK`` cards, those in hand first), then greedy's rule. ``"greedy"``: greedy's
        rule (tactics when the troops in hand fill our free slots, or to hold one)."""
        if "deck:tactics" in keys and "deck:troops" in keys and self.DRAW_TACTICS != "greedy":
            if self.DRAW_TACTICS == "never":
                return keys.index("deck:troops")
            played = pos.tactics_played
            mine = played.get(pos.role, 0)
            theirs = max((played.get(o, 0) for o in pos.opps), default=0)
            in_hand = len(pos.hand) - len(pos.hand_troops)
            if in_hand >= theirs - mine + self.TACTICS_SLACK:
                return keys.index("deck:troops")
        return super()._draw(pos, keys)
