"""``ts-heuristic``: a rule-based Twilight Struggle bot with no search.

It reads only the view it is given (decoded from the wire, turned into the engine's dict with
:func:`standoff.sdk.views.as_dict`) and the static map and card data; never the referee's state.

**The board evaluation.** Every decision is judged by one number, a rough VP-equivalent from our
side: per country a soft control term (a battleground counts about three times a plain country,
Europe and Asia a little more; control is worth 1, a lead short of control up to 0.3, extra
margin above control a little as coup insurance) plus, per region, the region's scoring (presence
/ domination / control, battlegrounds, superpower-adjacency bonus) times a weight: higher for the
regions whose scoring card we hold (they are scored this turn), for the Mid War regions only once
their cards are in the deck, and for every region near the final scoring. The evaluation is
incremental (a change in one country only touches its own term and, on a control flip, its
region's scoring), which keeps a whole game well under a second of bot time.

**Operations.** Influence is planned with *packages*: for each eligible country, the gain per
operation point of placing 1..n markers there (2 points per marker while the enemy controls it,
recomputed as control changes); the best package is taken marker by marker, and a second plan
that prefers the biggest package is kept when better (so 3 points can break a control instead of
being spread). The China Card's Asia point and Vietnam Revolts' Southeast Asia point are planned
as separate, restricted plans. Coups are valued by their six possible results, plus the military
operations still missing this turn (more urgent as the rounds run out), minus a DEFCON cost for
battlegrounds; realignments by the distribution of the two dice (only taken when clearly good);
the space race by its chance of success times the VP and ability of the next box.

**Cards.** Each card in hand is valued by its best use: its event (a per-card model: influence
placed / removed by greedy choices, VP, wars by their odds, lasting effects by fixed estimates),
its operations, or the space race. An opponent's card costs the harm of its event (the same model,
carried out greedily for the opponent) unless it goes to the space race, so harmful cards are
sent to space or held; their event is resolved first, so that our operations can repair.

**Scoring cards.** A scoring card is played when our rounds left this turn no longer exceed the
scoring cards held (never held past the turn), or earlier when it scores well for us (≥ 2 VP,
or an automatic win in Europe); it is headlined when it scores at least evenly (a headline costs
no operations).

**DEFCON safety.** Nothing that can bring DEFCON to 1 during our own round (or our headline) is
ever chosen: no battleground coup at DEFCON 2 (Nuclear Subs excepted for the US), no event that
lowers DEFCON (Duck and Cover, "We Will Bury You", KAL-007, Olympic Games and Summit whose
outcome the opponent decides, Missile Envy and Five Year Plan that may draw one) and no opponent
card whose event could (those, plus CIA Created / Lone Gunman / Grain Sales / Ortega / "Tear Down
This Wall" / Star Wars that hand the opponent a coup or a card), counting the drops of the event
and of our coup together. How I Learned to Stop Worrying (any DEFCON) and Grain Sales / Star Wars
that could give the opponent that card are avoided at any DEFCON. The headline avoids DEFCON
droppers unless DEFCON is 4+ and no card that sets DEFCON to 2 can resolve before ours. No coup at
all (free ones included) while the Cuban Missile Crisis restricts us. When the *opponent* is
phasing at DEFCON 2, the choices it leaves us (Olympic boycott, Summit's DEFCON) end the game in
our favour.

**Other steps** use the same evaluation: event placements and removals by packages, country
choices by the best result, card choices (discards, Missile Envy, Aldrich Ames, Star Wars...) by
the cards' values, fixed preferences elsewhere. Any unexpected failure falls back to a safe
option (never a coup at DEFCON 2, never DEFCON 1...). Ties are broken with ``self.rng``, so the
bot is deterministic given its seed.
"""

from __future__ import annotations

import re
from typing import Any

from ..sdk.bot import Bot
from ..sdk.views import as_dict
from ..server.games.twilight_struggle import card_data as CD
from ..server.games.twilight_struggle import map_data as M

# --- static data ---------------------------------------------------------------------------------

USSR, US = 0, 1
SIDE = {"ussr": USSR, "us": US}
SIDE_NAME = ("ussr", "us")
N = len(M.COUNTRIES)
INDEX = M.INDEX
IDS = tuple(c.id for c in M.COUNTRIES)
STAB = tuple(c.stability for c in M.COUNTRIES)
BG = tuple(bool(c.battleground) for c in M.COUNTRIES)
REGIONS = M.REGIONS
EUROPE, MIDDLE_EAST, ASIA, AFRICA, CENTRAL_AMERICA, SOUTH_AMERICA = range(6)
RIDX = {r: i for i, r in enumerate(REGIONS)}
REG = tuple(RIDX[c.region] for c in M.COUNTRIES)
REGION_COUNTRIES = tuple(tuple(M.REGION_COUNTRIES[r]) for r in REGIONS)
ALL_BGS = tuple(sum(1 for c in cs if BG[c]) for cs in REGION_COUNTRIES)
SCORING = tuple(M.SCORING[r] for r in REGIONS)
NEIGH = M.NEIGHBOURS
#: BONUS[side][c]: c borders the enemy superpower of ``side`` (+1 VP in region scoring)
BONUS = tuple(tuple(c.id in M.ADJACENCY_BONUS[SIDE_NAME[s]] for c in M.COUNTRIES) for s in (USSR, US))
OWN_SPACE = tuple(frozenset(INDEX[x] for x in M.SUPERPOWER_NEIGHBOURS[SIDE_NAME[s]]) for s in (USSR, US))
EUROPE_SET = frozenset(REGION_COUNTRIES[EUROPE])
ASIA_SET = frozenset(REGION_COUNTRIES[ASIA])
ME_SET = frozenset(REGION_COUNTRIES[MIDDLE_EAST])
SEA = tuple(M.SUBREGION_COUNTRIES[M.SOUTHEAST_ASIA])
SEA_SET = frozenset(SEA)
WE = tuple(M.SUBREGION_COUNTRIES[M.WESTERN_EUROPE])
EE = tuple(M.SUBREGION_COUNTRIES[M.EASTERN_EUROPE])
SEA_SCORE = {INDEX[k]: v for k, v in M.SOUTHEAST_ASIA_SCORING.items()}
LATAM = tuple(sorted(REGION_COUNTRIES[CENTRAL_AMERICA] + REGION_COUNTRIES[SOUTH_AMERICA]))
OUTSIDE_EUROPE = tuple(c for c in range(N) if c not in EUROPE_SET)
AFRICA_SEA = tuple(sorted(REGION_COUNTRIES[AFRICA] + SEA))


def _c(name: str) -> int:
    return INDEX[name]


CARD = CD.CARD_BY_NUMBER
CARD_NUM = {c.id: c.number for c in CD.CARDS}
CARD_BY_NAME = {c.name: c.number for c in CD.CARDS}
OWNER = {c.number: (US if c.side == CD.US else USSR if c.side == CD.USSR else None) for c in CD.CARDS}
CHINA = CD.CHINA_CARD
SCORING_CARDS = frozenset(c.number for c in CD.CARDS if c.scoring)
SCORING_REGION = {1: ASIA, 2: EUROPE, 3: MIDDLE_EAST, 37: CENTRAL_AMERICA, 79: AFRICA, 81: SOUTH_AMERICA}
MID_REGIONS = (AFRICA, CENTRAL_AMERICA, SOUTH_AMERICA)

#: Space race boxes: (ops needed, highest succeeding roll, VP first, VP second)
SPACE = {
    1: (2, 3, 2, 1), 2: (2, 4, 0, 0), 3: (2, 3, 2, 0), 4: (2, 4, 0, 0),
    5: (3, 3, 3, 1), 6: (3, 4, 0, 0), 7: (3, 3, 4, 2), 8: (4, 2, 2, 0),
}
SPACE_ABILITY = {2: 0.7, 4: 0.9, 6: 1.0, 8: 2.0}

#: Distribution of (first die − second die) for two d6.
DIFF = tuple((d, (6 - abs(d)) / 36.0) for d in range(-5, 6))

# Event cards whose DEFCON effect concerns the phasing player.
DUCK_AND_COVER, FIVE_YEAR_PLAN, OLYMPIC_GAMES, CIA_CREATED = 4, 5, 20, 26
UN_INTERVENTION, CMC, SUMMIT, HOW_I_LEARNED, MISSILE_ENVY, WWBY = 32, 40, 45, 46, 49, 50
LONE_GUNMAN, GRAIN_SALES, STAR_WARS, KAL_007, ORTEGA, TDTW, WARGAMES, DEFECTORS = 62, 67, 85, 89, 91, 96, 100, 103
#: cards whose event, fired for its owner, lowers DEFCON by one on its own
DEFCON_DROPPERS = frozenset((DUCK_AND_COVER, WWBY, KAL_007))
#: neutral cards that may lower DEFCON by a decision of the opponent (or by chance) when fired
RISKY_FOR_PHASING = frozenset((OLYMPIC_GAMES, SUMMIT))
#: events that raise DEFCON (Nuclear Test Ban, SALT, ABM Treaty, Glasnost, How I Learned...)
DEFCON_RAISERS = frozenset((34, 43, 57, 90, 46))
#: cards that may set DEFCON to 2 during the headline phase before our headline resolves
SETS_DEFCON_2 = (CMC, HOW_I_LEARNED)

#: per-country limits of event placements / removals (the view does not carry them)
MAX_PER = {7: 2, 14: 1, 16: 2, 23: 1, 28: 2, 29: 1, 30: 1, 33: 2, 63: 1, 66: 1, 74: 2, 75: 2, 76: 2, 87: 2, 99: 1}

WIN = 60.0  # value of a won game, in VP-equivalents
EUROPE_CONTROL = 14.0  # Europe control inside the evaluation (the real win is handled apart)

_OPS = re.compile(r"\((\d+) ops\)")


def _ctrl(c: int, m: int, o: int) -> int:
    s = STAB[c]
    if m >= s and m - o >= s:
        return 1
    if o >= s and o - m >= s:
        return -1
    return 0


def _side_score(r: int, t: int, b: int, bon: int, ot: int, ob: int) -> float:
    presence, domination, control = SCORING[r]
    v = 0.0
    if t >= 1:
        v = presence
    if t > ot and b > ob and b >= 1 and t - b >= 1:
        v = domination
    if t > ot and b == ALL_BGS[r] and ALL_BGS[r] > 0:
        v = EUROPE_CONTROL if control is None else control
    return v + b + bon


# --- reading the view ----------------------------------------------------------------------------


def read_view(view: Any) -> dict[str, Any]:
    """The engine-style dict of a view, its history converted lazily (:func:`as_dict`)."""
    return as_dict(view, lazy_history=True)


# --- the evaluation ------------------------------------------------------------------------------


class Evaluator:
    """The board value from our side. Boards are ``B = [mine, theirs]`` (influence lists, relative
    to us); ``cnt[r] = [t, b, bonus, ot, ob, obonus]`` are the control counts of region ``r``."""

    __slots__ = ("me", "wr", "cw", "marg", "_rs")

    def __init__(self, me: int, wr: list[float], cw: list[float]) -> None:
        self.me = me
        self.wr = wr
        self.cw = cw
        self.marg = [0.1 if BG[c] else 0.04 for c in range(N)]
        self._rs: dict[tuple, float] = {}

    def cterm(self, c: int, m: int, o: int) -> float:
        s = STAB[c]
        w = self.cw[c]
        if m >= s and m - o >= s:
            extra = m - o - s
            return w * (1.0 + self.marg[c] * (extra if extra < 2 else 2))
        if o >= s and o - m >= s:
            extra = o - m - s
            return -w * (1.0 + self.marg[c] * (extra if extra < 2 else 2))
        d = (m - o) / s
        if d > 0.6:
            d = 0.6
        elif d < -0.6:
            d = -0.6
        return 0.5 * w * d

    def rscore(self, r: int, row: list[int]) -> float:
        key = (r, *row)
        v = self._rs.get(key)
        if v is None:
            v = self._rs[key] = self.wr[r] * (_side_score(r, row[0], row[1], row[2], row[3], row[4])
                                              - _side_score(r, row[3], row[4], row[5], row[0], row[1]))
        return v

    def counts(self, B: list[list[int]]) -> list[list[int]]:
        me = self.me
        cnt = [[0] * 6 for _ in range(6)]
        mine, theirs = B
        for c in range(N):
            k = _ctrl(c, mine[c], theirs[c])
            if k:
                row = cnt[REG[c]]
                if k > 0:
                    row[0] += 1
                    row[1] += BG[c]
                    row[2] += BONUS[me][c]
                else:
                    row[3] += 1
                    row[4] += BG[c]
                    row[5] += BONUS[1 - me][c]
        return cnt

    def total(self, B: list[list[int]]) -> float:
        cnt = self.counts(B)
        return sum(self.cterm(c, B[0][c], B[1][c]) for c in range(N)) + sum(self.rscore(r, cnt[r]) for r in range(6))

    def _moved(self, row: list[int], c: int, k0: int, k1: int) -> list[int]:
        new = row[:]
        me = self.me
        if k0 > 0:
            new[0] -= 1
            new[1] -= BG[c]
            new[2] -= BONUS[me][c]
        elif k0 < 0:
            new[3] -= 1
            new[4] -= BG[c]
            new[5] -= BONUS[1 - me][c]
        if k1 > 0:
            new[0] += 1
            new[1] += BG[c]
            new[2] += BONUS[me][c]
        elif k1 < 0:
            new[3] += 1
            new[4] += BG[c]
            new[5] += BONUS[1 - me][c]
        return new

    def delta(self, B: list[list[int]], cnt: list[list[int]], c: int, nm: int, no: int) -> float:
        """Change of value if country ``c`` held ``nm`` of ours and ``no`` of theirs."""
        m = B[0][c]
        o = B[1][c]
        d = self.cterm(c, nm, no) - self.cterm(c, m, o)
        k0 = _ctrl(c, m, o)
        k1 = _ctrl(c, nm, no)
        if k0 != k1:
            r = REG[c]
            row = cnt[r]
            d += self.rscore(r, self._moved(row, c, k0, k1)) - self.rscore(r, row)
        return d

    def apply(self, B: list[list[int]], cnt: list[list[int]], c: int, nm: int, no: int) -> None:
        k0 = _ctrl(c, B[0][c], B[1][c])
        k1 = _ctrl(c, nm, no)
        if k0 != k1:
            r = REG[c]
            cnt[r] = self._moved(cnt[r], c, k0, k1)
        B[0][c] = nm
        B[1][c] = no

    # -- planning: one side adds or removes markers, country by country --------------------------

    def _packages(self, B, cnt, benef, x, sign, c, budget, opcost, cap):
        """[(cost, gain)] for changing ``x``'s influence in ``c`` by ``sign`` 1..cap times,
        gains from ``benef``'s point of view (0 = us)."""
        mine, theirs = B[0][c], B[1][c]
        st = STAB[c]
        out = []
        cost = 0
        for _ in range(cap):
            if x == 0:
                if sign < 0 and mine <= 0:
                    break
                step = 2 if (opcost and theirs >= st and theirs - mine >= st) else 1
                if cost + step > budget:
                    break
                mine += sign
            else:
                if sign < 0 and theirs <= 0:
                    break
                step = 2 if (opcost and mine >= st and mine - theirs >= st) else 1
                if cost + step > budget:
                    break
                theirs += sign
            cost += step
            d = self.delta(B, cnt, c, mine, theirs)
            out.append((cost, d if benef == 0 else -d))
            if sign > 0 and (mine - theirs if x == 0 else theirs - mine) >= st + 2:
                break  # controlled with a margin of 2: more markers add nothing
        return out

    def table(self, B, cnt, benef, x, sign, cands, budget, opcost):
        """The packages of every candidate on board ``B`` (to share between plans made from it)."""
        return {c: self._packages(B, cnt, benef, x, sign, c, budget, opcost, min(budget, STAB[c] + 3))
                for c in cands}

    def plan(self, B, cnt, benef, x, sign, cands, budget, *, opcost=False, max_per=None,
             optional=False, floor=0.0, biggest=False, table=None):
        """Greedy by packages: ``x`` (0 us / 1 them) adds (``sign`` +1) or removes (−1) markers
        among ``cands``, spending ``budget`` points (2 per marker added where the other side has
        control when ``opcost``), for the benefit of ``benef``. Changes ``B``/``cnt`` in place.
        Returns (gain for ``benef``, [countries in order])."""
        total = 0.0
        seq: list[int] = []
        used: dict[int, int] = {}
        cache: dict[int, list] = dict(table) if table else {}
        while budget > 0:
            best = None
            bkey = None
            for c in cands:
                cap = budget
                if max_per is not None:
                    cap = min(cap, max_per - used.get(c, 0))
                    if cap <= 0:
                        continue
                if cap > STAB[c] + 3:
                    cap = STAB[c] + 3
                pk = cache.get(c)
                if pk is None:
                    pk = cache[c] = self._packages(B, cnt, benef, x, sign, c, budget, opcost, cap)
                for k, (cost, gain) in enumerate(pk):
                    if cost > budget or k >= cap:
                        break
                    key = (gain, -cost) if biggest else (gain / cost, gain)
                    if bkey is None or key > bkey:
                        bkey, best = key, (c, pk[0][0], pk[0][1])
            if best is None:
                break
            c, cost, gain = best
            if optional and bkey[0] <= floor:
                break
            m, o = B[0][c], B[1][c]
            if x == 0:
                m += sign
            else:
                o += sign
            before = _ctrl(c, B[0][c], B[1][c])
            d = self.delta(B, cnt, c, m, o)
            self.apply(B, cnt, c, m, o)
            total += d if benef == 0 else -d
            seq.append(c)
            used[c] = used.get(c, 0) + 1
            budget -= cost
            if _ctrl(c, m, o) != before:
                for other in REGION_COUNTRIES[REG[c]]:
                    cache.pop(other, None)
            else:
                cache.pop(c, None)
        return total, seq

    def best_plan(self, B, cnt, benef, x, sign, cands, budget, **kw):
        """The better of the ratio plan and the biggest-package plan (on copies)."""
        B1 = [B[0][:], B[1][:]]
        c1 = [r[:] for r in cnt]
        g1, s1 = self.plan(B1, c1, benef, x, sign, cands, budget, **kw)
        if budget >= 3 and not kw.get("optional"):
            B2 = [B[0][:], B[1][:]]
            c2 = [r[:] for r in cnt]
            g2, s2 = self.plan(B2, c2, benef, x, sign, cands, budget, biggest=True, **kw)
            if g2 > g1 + 1e-9:
                return g2, s2
        return g1, s1

    # -- coups and realignments ------------------------------------------------------------------

    def coup_ev(self, B, cnt, s, c, ops, mod=0) -> float:
        """Expected change (from ``s``'s side) of a coup by ``s`` in ``c`` with ``ops``."""
        st = STAB[c]
        a = B[s][c]
        b = B[1 - s][c]
        tot = 0.0
        for roll in range(1, 7):
            r = roll + ops + mod - 2 * st
            if r > 0:
                rem = r if r < b else b
                na, nb = a + r - rem, b - rem
                if s == 0:
                    tot += self.delta(B, cnt, c, na, nb)
                else:
                    tot -= self.delta(B, cnt, c, nb, na)
        return tot / 6.0

    def realign_mod(self, B, s, c, iran_contra=False) -> int:
        side_abs = self.me if s == 0 else 1 - self.me
        mine, theirs = B[s], B[1 - s]
        mod = 0
        for n in NEIGH[c]:
            if _ctrl(n, mine[n], theirs[n]) > 0:
                mod += 1
        if mine[c] > theirs[c]:
            mod += 1
        if c in OWN_SPACE[side_abs]:
            mod += 1
        if iran_contra and side_abs == US:
            mod -= 1
        return mod

    def realign_ev(self, B, cnt, s, c, iran_contra=False) -> float:
        a, b = B[s][c], B[1 - s][c]
        if b <= 0:
            return -1.0
        diff0 = self.realign_mod(B, s, c, iran_contra) - self.realign_mod(B, 1 - s, c, iran_contra)
        tot = 0.0
        for d, p in DIFF:
            r = d + diff0
            if r > 0:
                na, nb = a, max(0, b - r)
            elif r < 0:
                na, nb = max(0, a + r), b
            else:
                continue
            if na == a and nb == b:
                continue
            dv = self.delta(B, cnt, c, na, nb) if s == 0 else -self.delta(B, cnt, c, nb, na)
            tot += p * dv
        return tot


# --- what the view says --------------------------------------------------------------------------


class Ctx:
    """Everything one decision needs, read from the view (plus the decision's prompt)."""

    def __init__(self, bot: TSHeuristicBot, view: dict[str, Any], decision: Any) -> None:
        self.bot = bot
        self.view = view
        self.decision = decision
        me = SIDE[view["role"]]
        self.me = me
        self.opp = 1 - me
        self.turn = int(view.get("turn") or 1)
        self.ar = int(view.get("action_round") or 0)
        self.defcon = int(view.get("defcon") or 5)
        vp = int(view.get("vp") or 0)
        self.lead = vp if me == US else -vp  # our VP lead
        milops = view.get("military_ops") or {}
        space = view.get("space") or {}
        self.milops = [int(milops.get(SIDE_NAME[me], 0)), int(milops.get(SIDE_NAME[1 - me], 0))]
        self.space = [int(space.get(SIDE_NAME[me], 0)), int(space.get(SIDE_NAME[1 - me], 0))]
        self.hand = [CARD_NUM[c] for c in view.get("hand") or () if c in CARD_NUM]
        self.opp_hand = [CARD_NUM[c] for c in view.get("opponent_hand") or () if c in CARD_NUM]
        self.opp_hand_size = int(view.get("opponent_hand_size") or 0)
        china = view.get("china_card") or {}
        holder = china.get("holder")
        self.china = None if holder is None else (0 if SIDE.get(holder) == me else 1)
        self.china_up = bool(china.get("face_up"))
        self.effects = frozenset(view.get("effects") or ())
        self.events_played = frozenset(CARD_NUM[c] for c in view.get("events_played") or () if c in CARD_NUM)
        self.discard = [CARD_NUM[c] for c in view.get("discard") or () if c in CARD_NUM]
        self.removed = frozenset(CARD_NUM[c] for c in view.get("removed") or () if c in CARD_NUM)
        phasing = view.get("phasing")
        self.phasing = 0 if SIDE.get(phasing, me) == me else 1
        self.history = view.get("history") or []
        B = [[0] * N, [0] * N]
        for cid, inf in (view.get("influence") or {}).items():
            i = INDEX.get(cid)
            if i is None:
                continue
            B[0][i] = int(inf.get(SIDE_NAME[me], 0))
            B[1][i] = int(inf.get(SIDE_NAME[1 - me], 0))
        self.B = B
        self.ev = self._evaluator()
        self.cnt = self.ev.counts(B)
        self._cache: dict[Any, Any] = {}
        total = 6 if self.turn <= 3 else 7
        self.rounds_total = [total, total]
        for s in (0, 1):
            if self.space[s] >= 8 and self.space[1 - s] < 8:
                self.rounds_total[s] += 1
        if "north_sea_oil:turn" in self.effects:
            us = 0 if me == US else 1
            if self.rounds_total[us] == total:
                self.rounds_total[us] += 1

    # -- basics ----------------------------------------------------------------------------------

    def table(self, opcost: bool, cands) -> dict:
        """Our placement packages on the current board (shared by every plan made from it)."""
        key = ("table", opcost)
        table = self._cache.get(key)
        if table is None:
            table = self._cache[key] = {}
        missing = [c for c in cands if c not in table]
        if missing:
            table.update(self.ev.table(self.B, self.cnt, 0, 0, 1, missing, 8, opcost))
        return table

    def board_sig(self) -> tuple:
        return (tuple(self.B[0]), tuple(self.B[1]))

    @property
    def sig(self) -> tuple:
        """What the valuation of a card's uses depends on (besides the card)."""
        return (self.turn, self.ar, self.defcon, self.lead, tuple(self.milops), tuple(self.space),
                self.effects, self.board_sig())

    def abs(self, s: int) -> int:
        return self.me if s == 0 else 1 - self.me

    def rel(self, side_abs: int) -> int:
        return 0 if side_abs == self.me else 1

    def has(self, effect: str) -> bool:
        return effect in self.effects

    def rounds_left(self, s: int) -> int:
        """Action rounds of ``s`` (relative) still to come this turn, the current one included."""
        ar = self.ar
        if ar <= 0:
            return self.rounds_total[s]
        side_abs = self.abs(s)
        left = self.rounds_total[s] - ar
        phasing_abs = self.abs(self.phasing)
        if phasing_abs == side_abs or (side_abs == US and phasing_abs == USSR):
            left += 1
        return max(0, left)

    @property
    def urgency(self) -> float:
        """Weight of a military-operations point still missing this turn: the VP it saves, more
        than a point of board value once the rounds run out (that VP is certain)."""
        left = self.rounds_left(0)
        return {1: 1.3, 2: 1.1, 3: 0.9, 4: 0.75, 5: 0.6, 6: 0.5}.get(left, 0.4)

    def _evaluator(self) -> Evaluator:
        turn = self.turn
        wr = []
        held_regions = {SCORING_REGION[c] for c in self.hand if c in SCORING_REGION}
        for r in range(6):
            w = 0.45
            if turn <= 3 and r in MID_REGIONS:
                w = 0.22
            if turn >= 9:
                w = 0.7
            if turn >= 10:
                w = 1.0
            if r in held_regions:
                w = max(w, 1.0)
            wr.append(w)
        rmul = [1.15, 1.0, 1.05, 0.85, 0.85, 0.85]
        if turn <= 3:
            rmul[3] = rmul[4] = rmul[5] = 0.6
        cw = [(1.0 if BG[c] else 0.3) * rmul[REG[c]] for c in range(N)]
        if 38 in self.hand:
            for c, v in SEA_SCORE.items():
                cw[c] += 0.8 * v
        return Evaluator(self.me, wr, cw)

    def ops_value(self, s: int, card: int) -> int:
        side_abs = self.abs(s)
        v = 4 if card == CHINA else CARD[card].ops
        bonus = "containment:turn" if side_abs == US else "brezhnev_doctrine:turn"
        if bonus in self.effects and v < 4:
            v += 1
        if f"red_scare:{SIDE_NAME[side_abs]}:turn" in self.effects:
            v = max(1, v - 1)
        return v

    def controls(self, s: int, c: int) -> bool:
        return _ctrl(c, self.B[s][c], self.B[1 - s][c]) > 0

    # -- history ---------------------------------------------------------------------------------

    def current_event(self) -> int | None:
        for entry in reversed(self.history):
            if len(entry) >= 4 and entry[2] == "event":
                return CARD_NUM.get(str(entry[3]).partition(":")[2])
        return None

    def current_play(self) -> tuple[int | None, str]:
        """(card, use key) of our latest card play this round, from the history."""
        me = SIDE_NAME[self.me]
        hist = self.history
        for i in range(len(hist) - 1, -1, -1):
            e = hist[i]
            if len(e) < 4:
                continue
            if e[1] == me and e[2] == "card_use":
                for j in range(i - 1, max(-1, i - 6), -1):
                    f = hist[j]
                    if len(f) >= 4 and f[2] in ("action_round", "grain_sales"):
                        return CARD_NUM.get(str(f[3]).partition(":")[2]), str(e[3])
                return None, str(e[3])
            if e[2] in ("action_round", "headline_reveal") and e[1] != me:
                return None, ""
        return None, ""

    def placements_since_play(self) -> list[int]:
        me = SIDE_NAME[self.me]
        out = []
        for e in reversed(self.history):
            if len(e) < 4:
                continue
            if e[1] == me and e[2] == "card_use":
                break
            if e[1] == me and e[2] == "influence":
                c = INDEX.get(str(e[3]).partition(":")[2])
                if c is not None:
                    out.append(c)
        return out

    def space_attempts(self) -> int:
        if "space_attempts" in self._cache:
            return self._cache["space_attempts"]
        me = SIDE_NAME[self.me]
        n = 0
        for e in reversed(self.history):
            if len(e) < 4:
                continue
            if e[2] in ("headline_reveal", "headline"):
                break
            if e[1] == me and e[2] == "card_use" and str(e[3]) == "use:space":
                n += 1
        self._cache["space_attempts"] = n
        return n

    # -- card knowledge --------------------------------------------------------------------------

    def unseen(self, card: int) -> bool:
        """Could ``card`` be in the opponent's hand?"""
        if card in self.removed or card in self.hand or card in self.discard:
            return False
        if self.opp_hand and card not in self.opp_hand:
            return False
        return True

    def playable(self, card: int, s: int) -> bool:
        """Whether the event of ``card`` can happen now for ``s`` (relative)."""
        data = CARD[card]
        if card == CHINA or card not in CARD:
            return False
        if data.prerequisite and not any(p in self.events_played for p in data.prerequisite):
            return False
        if any(b in self.events_played for b in data.blocked_by):
            return False
        side_abs = self.abs(s)
        if self.china is None and card in (31, 35, 58):  # Chinese Civil War variant, unclaimed
            return card == 31 and side_abs == US
        if card == UN_INTERVENTION:
            hand = self.hand if s == 0 else self.opp_hand
            return s == 1 or any(OWNER[c] == 1 - side_abs for c in hand if c != UN_INTERVENTION)
        if card == 48:
            us = 0 if self.me == US else 1
            a = sum(1 for c in M.BATTLEGROUNDS if self.controls(us, c))
            b = sum(1 for c in M.BATTLEGROUNDS if self.controls(1 - us, c))
            return a > b
        if card == MISSILE_ENVY:
            return f"missile_envy:{SIDE_NAME[side_abs]}" not in self.effects
        if card == 80:
            return self.space[s] < self.space[1 - s]
        if card == STAR_WARS:
            us = 0 if self.me == US else 1
            return self.space[us] > self.space[1 - us]
        if card == WARGAMES:
            return self.defcon == 2
        if card == 104:
            return self.turn < 8
        if card == 108:
            us = 0 if self.me == US else 1
            return any(self.controls(us, c) for c in REGION_COUNTRIES[MIDDLE_EAST])
        return True

    def event_actor(self, card: int, player: int) -> int:
        owner = OWNER[card]
        return player if owner is None else self.rel(owner)

    # -- scoring ---------------------------------------------------------------------------------

    def score_net(self, card: int, B=None) -> float:
        """Our net VP from playing scoring card ``card`` now (± WIN for Europe control)."""
        B = B or self.B
        if card == 38:
            net = 0
            for c, v in SEA_SCORE.items():
                k = _ctrl(c, B[0][c], B[1][c])
                net += k * v
            return float(net)
        r = SCORING_REGION[card]
        res = []
        formosan = r == ASIA and self.has("formosan_resolution")
        taiwan = _c("taiwan")
        us = 0 if self.me == US else 1
        counts = []
        for s in (0, 1):
            t = b = bon = 0
            side_abs = self.abs(s)
            for c in REGION_COUNTRIES[r]:
                if _ctrl(c, B[s][c], B[1 - s][c]) > 0:
                    t += 1
                    if BG[c] or (formosan and s == us and c == taiwan):
                        b += 1
                    bon += BONUS[side_abs][c]
            counts.append((t, b, bon))
        all_bgs = ALL_BGS[r] + (1 if formosan and _ctrl(taiwan, B[us][taiwan], B[1 - us][taiwan]) > 0 else 0)
        presence, domination, control = SCORING[r]
        for s in (0, 1):
            t, b, bon = counts[s]
            ot, ob, _ = counts[1 - s]
            v = 0
            if t >= 1:
                v = presence
            if t > ot and b > ob and b >= 1 and t - b >= 1:
                v = domination
            if t > ot and b == all_bgs and all_bgs > 0:
                if control is None:
                    return WIN if s == 0 else -WIN
                v = control
            res.append(v + b + bon)
        return float(res[0] - res[1])


# --- event models ----------------------------------------------------------------------------------


class Sim:
    """A scratch board on which an event is carried out greedily; ``value`` accumulates the change
    of evaluation plus VP (from our side)."""

    __slots__ = ("x", "ev", "B", "cnt", "value")

    def __init__(self, x: Ctx) -> None:
        self.x = x
        self.ev = x.ev
        self.B = [x.B[0][:], x.B[1][:]]
        self.cnt = [r[:] for r in x.cnt]
        self.value = 0.0

    def setinf(self, s: int, c: int, n: int) -> None:
        m, o = self.B[0][c], self.B[1][c]
        if s == 0:
            m = max(0, n)
        else:
            o = max(0, n)
        self.value += self.ev.delta(self.B, self.cnt, c, m, o)
        self.ev.apply(self.B, self.cnt, c, m, o)

    def add(self, s: int, c: int, n: int) -> None:
        self.setinf(s, c, self.B[s][c] + n)

    def to_control(self, s: int, c: int) -> None:
        need = self.B[1 - s][c] + STAB[c]
        if self.B[s][c] < need:
            self.setinf(s, c, need)

    def vp(self, s: int, n: float) -> None:
        self.value += n if s == 0 else -n

    bonus = vp

    def place(self, s: int, n: int, allowed, max_per=None, optional=False) -> None:
        gain, _ = self.ev.plan(self.B, self.cnt, s, s, 1, tuple(allowed), n, max_per=max_per, optional=optional)
        self.value += gain if s == 0 else -gain

    def remove(self, s: int, target: int, n: int, allowed, max_per=None, optional=False, floor=0.0) -> None:
        cands = tuple(c for c in allowed if self.B[target][c] > 0)
        gain, _ = self.ev.plan(self.B, self.cnt, s, target, -1, cands, n, max_per=max_per,
                               optional=optional, floor=floor)
        self.value += gain if s == 0 else -gain

    def best_country(self, s: int, options, fn) -> None:
        """Apply the best (for ``s``) of one-country changes ``fn(sim, c)``."""
        best = None
        for c in options:
            trial = Sim.__new__(Sim)
            trial.x, trial.ev = self.x, self.ev
            trial.B = [self.B[0][:], self.B[1][:]]
            trial.cnt = [r[:] for r in self.cnt]
            trial.value = 0.0
            fn(trial, c)
            v = trial.value if s == 0 else -trial.value
            if best is None or v > best[0]:
                best = (v, trial)
        if best is not None:
            trial = best[1]
            self.B, self.cnt = trial.B, trial.cnt
            self.value += trial.value

    def enemy_neighbours(self, s: int, c: int) -> int:
        o = 1 - s
        n = sum(1 for x in NEIGH[c] if _ctrl(x, self.B[o][x], self.B[s][x]) > 0)
        if c in OWN_SPACE[self.x.abs(o)]:
            n += 1
        return n

    def war(self, s: int, c: int, at_least: int = 4, vp: int = 2, milops: int = 2, extra_mod: int = 0) -> float:
        mod = self.enemy_neighbours(s, c) + extra_mod
        wins = max(0, min(6, 7 - at_least - mod))
        p = wins / 6.0
        a, b = self.B[s][c], self.B[1 - s][c]
        na, nb = a + b, 0
        d = self.ev.delta(self.B, self.cnt, c, na, nb) if s == 0 else self.ev.delta(self.B, self.cnt, c, nb, na)
        gain = d + (vp if s == 0 else -vp)
        self.value += p * gain
        self.milops(s, milops)
        return p * (gain if s == 0 else -gain)

    def milops(self, s: int, amount: int) -> None:
        x = self.x
        need = max(0, x.defcon - x.milops[s])
        saved = min(amount, need)
        if s == 0:
            self.value += saved * x.urgency
        else:
            self.value -= 0.6 * saved

    def space_advance(self, s: int, boxes: int = 1) -> None:
        x = self.x
        pos = x.space[s]
        box = min(8, pos + boxes)
        if box <= pos:
            return
        first = x.space[1 - s] < box
        _, _, vp1, vp2 = SPACE[box]
        gain = vp1 if first else vp2
        for b in range(pos + 1, box + 1):
            if x.space[1 - s] < b:
                gain += SPACE_ABILITY.get(b, 0.0)
        self.vp(s, gain)


def _regions_dominated(B, s: int) -> int:
    count = 0
    for r in range(6):
        places = REGION_COUNTRIES[r]
        mine = [c for c in places if _ctrl(c, B[s][c], B[1 - s][c]) > 0]
        theirs = sum(1 for c in places if _ctrl(c, B[1 - s][c], B[s][c]) > 0)
        if len(mine) <= theirs:
            continue
        bgs = sum(1 for c in mine if BG[c])
        their_bgs = sum(1 for c in places if BG[c] and _ctrl(c, B[1 - s][c], B[s][c]) > 0)
        if bgs == ALL_BGS[r] or (bgs > their_bgs and bgs >= 1 and len(mine) - bgs >= 1):
            count += 1
    return count


def _summit(sim: Sim, s: int) -> None:
    a = _regions_dominated(sim.B, s)
    b = _regions_dominated(sim.B, 1 - s)
    win = lose = 0.0
    for d, p in DIFF:
        r = d + a - b
        if r > 0:
            win += p
        elif r < 0:
            lose += p
    sim.vp(s, 2 * (win - lose))


def _scoring(card):
    def fn(sim: Sim, s: int) -> None:
        sim.value += sim.x.score_net(card, sim.B)
    return fn


def _fixed(v: float):
    def fn(sim: Sim, s: int) -> None:
        sim.bonus(s, v)
    return fn


def _adds(*pairs):
    def fn(sim: Sim, s: int) -> None:
        for name, n in pairs:
            sim.add(s, _c(name), n)
    return fn


def _set_control(name: str):
    c = _c(name)

    def fn(sim: Sim, s: int) -> None:
        sim.setinf(1 - s, c, 0)
        sim.to_control(s, c)
    return fn


def _duck(sim, s):
    us = sim.x.rel(US)
    sim.vp(us, 5 - (sim.x.defcon - 1))


def _blockade(sim, s):
    o = 1 - s  # the US
    wg = _c("west_germany")
    if o == 0:
        loss = -sim.ev.delta(sim.B, sim.cnt, wg, 0, sim.B[1][wg])
    else:
        loss = sim.ev.delta(sim.B, sim.cnt, wg, sim.B[0][wg], 0)
    x = sim.x
    if o == 0:
        can = any(x.ops_value(0, c) >= 3 for c in x.hand if c not in SCORING_CARDS)
        cost = min(loss, 1.3) if can else loss
    else:
        cost = min(loss, 1.2)
    sim.bonus(s, max(0.0, cost))


def _korean(sim, s):
    sim.war(s, _c("south_korea"))


def _arab_israeli(sim, s):
    c = _c("israel")
    extra = 1 if _ctrl(c, sim.B[1 - s][c], sim.B[s][c]) > 0 else 0
    sim.war(s, c, extra_mod=extra)


def _comecon(sim, s):
    allowed = [c for c in EE if _ctrl(c, sim.B[1 - s][c], sim.B[s][c]) <= 0]
    sim.place(s, 4, allowed, max_per=1)


def _nasser(sim, s):
    e = _c("egypt")
    sim.add(s, e, 2)
    sim.setinf(1 - s, e, sim.B[1 - s][e] // 2)


def _remove_all_best(sim, s, cands, picks):
    for _ in range(picks):
        options = [c for c in cands if sim.B[1 - s][c] > 0]
        if not options:
            return
        sim.best_country(s, options, lambda t, c: t.setinf(1 - s, c, 0))


def _warsaw(sim, s):
    a = Sim(sim.x)
    a.B, a.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
    _remove_all_best(a, s, EE, 4)
    b = Sim(sim.x)
    b.B, b.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
    b.place(s, 5, EE, max_per=2)
    va, vb = (a.value, b.value) if s == 0 else (-a.value, -b.value)
    best = a if va >= vb else b
    sim.B, sim.cnt = best.B, best.cnt
    sim.value += best.value
    sim.bonus(s, -0.3)


def _de_gaulle(sim, s):
    f = _c("france")
    sim.setinf(1 - s, f, sim.B[1 - s][f] - 2)
    sim.add(s, f, 1)
    sim.bonus(s, 0.3)


def _truman(sim, s):
    options = [c for c in EUROPE_SET if sim.B[1 - s][c] > 0 and _ctrl(c, sim.B[0][c], sim.B[1][c]) == 0]
    sim.best_country(s, options, lambda t, c: t.setinf(1 - s, c, 0))


def _independent_reds(sim, s):
    options = [_c(n) for n in ("yugoslavia", "romania", "bulgaria", "hungary", "czechoslovakia")]
    options = [c for c in options if sim.B[1 - s][c] > sim.B[s][c]]
    sim.best_country(s, options, lambda t, c: t.setinf(s, c, t.B[1 - s][c]))


def _marshall(sim, s):
    allowed = [c for c in WE if _ctrl(c, sim.B[1 - s][c], sim.B[s][c]) <= 0]
    sim.place(s, 7, allowed, max_per=1)
    sim.bonus(s, 0.3)


def _indo_pak(sim, s):
    _best_war(sim, s, ("india", "pakistan"))


def _iran_iraq(sim, s):
    _best_war(sim, s, ("iran", "iraq"))


def _best_war(sim, s, names, at_least=4, vp=2, milops=2):
    best = None
    for name in names:
        c = _c(name)
        t = Sim(sim.x)
        t.B, t.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
        v = t.war(s, c, at_least, vp, 0)
        if best is None or v > best[0]:
            best = (v, t)
    if best is not None:
        sim.value += best[1].value
    sim.milops(s, milops)


def _containment(sim, s):
    sim.bonus(s, 0.45 * max(0, sim.x.rounds_left(s) - (1 if s == sim.x.phasing and sim.x.ar else 0)))


def _red_scare(sim, s):
    sim.bonus(s, 0.5 * sim.x.rounds_left(1 - s))


def _japan(sim, s):
    sim.to_control(s, _c("japan"))
    sim.bonus(s, 0.3)


def _suez(sim, s):
    sim.remove(s, 1 - s, 4, [_c("france"), _c("uk"), _c("israel")], max_per=2)


def _eeu(sim, s):
    if sim.x.turn >= 8:
        for _ in range(3):
            options = [c for c in EE if sim.B[1 - s][c] > 0]
            if not options:
                break
            sim.best_country(s, options, lambda t, c: t.setinf(1 - s, c, t.B[1 - s][c] - 2))
    else:
        sim.remove(s, 1 - s, 3, EE, max_per=1)


def _decolonization(sim, s):
    sim.place(s, 4, AFRICA_SEA, max_per=1)


def _de_stalinization(sim, s):
    before = sum(sim.B[s])
    own = [c for c in range(N) if sim.B[s][c] > 0]
    sim.remove(s, s, 4, own, optional=True, floor=-0.35)
    moved = before - sum(sim.B[s])
    if moved:
        allowed = [c for c in range(N) if _ctrl(c, sim.B[1 - s][c], sim.B[s][c]) <= 0]
        sim.place(s, moved, allowed, max_per=2)


def _test_ban(sim, s):
    sim.vp(s, max(0, sim.x.defcon - 2))


def _formosan(sim, s):
    t = _c("taiwan")
    us = sim.x.rel(US)
    sim.bonus(s, 0.6 if _ctrl(t, sim.B[us][t], sim.B[1 - us][t]) > 0 else 0.25)


def _brush_war(sim, s):
    x = sim.x
    best = None
    for c in range(N):
        if STAB[c] > 2 or sim.B[1 - s][c] <= 0:
            continue
        if x.abs(s) == USSR and "nato" in x.effects and c in EUROPE_SET and \
                _ctrl(c, sim.B[1 - s][c], sim.B[s][c]) > 0:
            continue
        t = Sim(x)
        t.B, t.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
        v = t.war(s, c, 3, 1, 0)
        if best is None or v > best[0]:
            best = (v, t)
    if best is not None:
        sim.value += best[1].value
    sim.milops(s, 3)


def _arms_race(sim, s):
    x = sim.x
    mine, theirs = x.milops[s], x.milops[1 - s]
    if mine > theirs:
        sim.vp(s, 3 if mine >= x.defcon else 1)


def _trap(sim, s):
    sim.bonus(s, 3.0 if sim.x.turn < 10 or sim.x.ar < 4 else 1.5)


def _how_i_learned(sim, s):
    sim.milops(s, 5)
    sim.bonus(s, 0.4)


def _junta(sim, s):
    sim.best_country(s, LATAM, lambda t, c: t.add(s, c, 2))
    sim.bonus(s, 0.4)


def _wwby(sim, s):
    sim.vp(s, 2.7)


def _brezhnev(sim, s):
    _containment(sim, s)


def _sa_unrest(sim, s):
    sa = _c("south_africa")
    a = Sim(sim.x)
    a.B, a.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
    a.add(s, sa, 2)
    b = Sim(sim.x)
    b.B, b.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
    b.add(s, sa, 1)
    b.place(s, 2, (_c("angola"), _c("botswana")))
    va, vb = (a.value, b.value) if s == 0 else (-a.value, -b.value)
    best = a if va >= vb else b
    sim.B, sim.cnt = best.B, best.cnt
    sim.value += best.value


def _brandt(sim, s):
    sim.vp(s, 1)
    sim.add(s, _c("west_germany"), 1)
    sim.bonus(s, 0.3)


def _muslim(sim, s):
    names = ("sudan", "iran", "iraq", "egypt", "libya", "saudi_arabia", "syria", "jordan")
    _remove_all_best(sim, s, [_c(n) for n in names], 2)


def _abm(sim, s):
    sim.bonus(s, 0.5 * 4 + 0.2)


def _cultural(sim, s):
    x = sim.x
    ussr = x.rel(USSR)
    if x.china == 1 - ussr:
        sim.bonus(s, 2.5)
    elif x.china == ussr:
        sim.vp(s, 1)


def _opec(sim, s):
    names = ("egypt", "iran", "libya", "saudi_arabia", "iraq", "gulf_states", "venezuela")
    sim.vp(s, sum(1 for n in names if _ctrl(_c(n), sim.B[s][_c(n)], sim.B[1 - s][_c(n)]) > 0))


def _puppet(sim, s):
    empty = [c for c in range(N) if sim.B[0][c] == 0 and sim.B[1][c] == 0]
    sim.place(s, 3, empty, max_per=1, optional=True)


def _camp_david(sim, s):
    sim.vp(s, 1)
    for n in ("israel", "jordan", "egypt"):
        sim.add(s, _c(n), 1)


def _jp2(sim, s):
    p = _c("poland")
    sim.setinf(1 - s, p, sim.B[1 - s][p] - 2)
    sim.add(s, p, 1)


def _oas(sim, s):
    sim.place(s, 2, LATAM)


def _nixon(sim, s):
    x = sim.x
    ussr = x.rel(USSR)
    if x.china == ussr:
        sim.bonus(s, 2.0)
    else:
        sim.vp(s, 2)


def _sadat(sim, s):
    e = _c("egypt")
    sim.setinf(1 - s, e, 0)
    sim.add(s, e, 1)


def _voa(sim, s):
    sim.remove(s, 1 - s, 4, OUTSIDE_EUROPE, max_per=2)


def _liberation(sim, s):
    sim.place(s, 3, REGION_COUNTRIES[CENTRAL_AMERICA], max_per=2)


def _ussuri(sim, s):
    x = sim.x
    if x.china == x.rel(USSR):
        sim.bonus(s, 2.5)
    else:
        sim.place(s, 4, REGION_COUNTRIES[ASIA], max_per=2)


def _alliance(sim, s):
    us = sim.x.rel(US)
    sim.vp(us, sum(1 for c in LATAM if BG[c] and _ctrl(c, sim.B[us][c], sim.B[1 - us][c]) > 0))


def _one_small_step(sim, s):
    sim.space_advance(s, 2)


def _hostage(sim, s):
    i = _c("iran")
    sim.setinf(1 - s, i, 0)
    sim.add(s, i, 2)
    sim.bonus(s, 0.2)


def _iron_lady(sim, s):
    sim.vp(s, 1)
    sim.add(1 - s, _c("argentina"), 1)
    sim.setinf(1 - s, _c("uk"), 0)


def _reagan(sim, s):
    ussr = sim.x.rel(USSR)
    sim.vp(s, sim.B[ussr][_c("libya")] // 2)


def _reformer(sim, s):
    n = 6 if sim.x.lead * (1 if s == 0 else -1) > 0 else 4
    sim.place(s, n, REGION_COUNTRIES[EUROPE], max_per=2)
    sim.bonus(s, -0.4)


def _barracks(sim, s):
    sim.setinf(1 - s, _c("lebanon"), 0)
    sim.remove(s, 1 - s, 2, REGION_COUNTRIES[MIDDLE_EAST])


def _kal(sim, s):
    sim.vp(s, 2)
    sk = _c("south_korea")
    if _ctrl(sk, sim.B[s][sk], sim.B[1 - s][sk]) > 0:
        sim.bonus(s, 1.8)


def _glasnost(sim, s):
    sim.vp(s, 2)
    if "the_reformer" in sim.x.effects:
        sim.bonus(s, 1.8)


def _ortega(sim, s):
    sim.setinf(1 - s, _c("nicaragua"), 0)
    sim.bonus(s, 0.4)


def _terrorism(sim, s):
    double = sim.x.abs(s) == USSR and "iranian_hostage_crisis" in sim.x.effects
    sim.bonus(s, 1.5 if double else 0.8)


def _tdtw(sim, s):
    sim.add(s, _c("east_germany"), 3)
    sim.bonus(s, 0.5)


def _evil_empire(sim, s):
    sim.vp(s, 1)
    if "flower_power" in sim.x.effects:
        sim.bonus(s, 0.8)


def _pershing(sim, s):
    sim.vp(s, 1)
    sim.remove(s, 1 - s, 3, WE, max_per=1)


def _wargames(sim, s):
    lead = sim.x.lead if s == 0 else -sim.x.lead
    final = lead - 6
    sim.bonus(s, WIN if final > 0 else (-WIN if final < 0 else 0.0))


def _special_relationship(sim, s):
    uk = _c("uk")
    us = sim.x.rel(US)
    if _ctrl(uk, sim.B[us][uk], sim.B[1 - us][uk]) <= 0:
        return
    if "nato" in sim.x.effects:
        sim.vp(s, 2)
        sim.best_country(s, WE, lambda t, c: t.add(s, c, 2))
    else:
        sim.place(s, 1, NEIGH[uk])


def _norad(sim, s):
    c = _c("canada")
    us = sim.x.rel(US)
    sim.bonus(s, 0.8 if _ctrl(c, sim.B[us][c], sim.B[1 - us][c]) > 0 else 0.3)


def _che(sim, s):
    x = sim.x
    best = 0.0
    for c in LATAM + REGION_COUNTRIES[AFRICA]:
        if BG[c] or sim.B[1 - s][c] <= 0:
            continue
        v = sim.ev.coup_ev(sim.B, sim.cnt, s, c, x.ops_value(s, 107))
        best = max(best, v)
    sim.bonus(s, best * 1.3)
    sim.milops(s, x.ops_value(s, 107))


def _awacs(sim, s):
    sim.add(s, _c("saudi_arabia"), 2)
    sim.bonus(s, 0.2)


def _socialist(sim, s):
    sim.remove(s, 1 - s, 3, WE, max_per=2)


def _vietnam(sim, s):
    sim.add(s, _c("vietnam"), 2)
    sim.bonus(s, 0.4)


def _portuguese(sim, s):
    sim.add(s, _c("se_african_states"), 2)
    sim.add(s, _c("angola"), 2)


def _colonial(sim, s):
    sim.place(s, 4, AFRICA_SEA, max_per=1)


EVENTS = {
    1: _scoring(1), 2: _scoring(2), 3: _scoring(3), 37: _scoring(37), 38: _scoring(38), 79: _scoring(79),
    81: _scoring(81),
    4: _duck, 5: _fixed(1.0), 7: _socialist, 8: _set_control("cuba"), 9: _vietnam, 10: _blockade,
    11: _korean, 12: _set_control("romania"), 13: _arab_israeli, 14: _comecon, 15: _nasser, 16: _warsaw,
    17: _de_gaulle, 18: lambda sim, s: sim.space_advance(s, 1), 19: _truman, 20: _fixed(1.2),
    21: _fixed(1.2), 22: _independent_reds, 23: _marshall, 24: _indo_pak, 25: _containment,
    26: _fixed(0.6), 27: _japan, 28: _suez, 29: _eeu, 30: _decolonization, 31: _red_scare,
    32: _fixed(0.0), 33: _de_stalinization, 34: _test_ban, 35: _formosan, 36: _brush_war,
    39: _arms_race, 40: _fixed(0.7), 41: _fixed(0.4), 42: _trap, 43: _fixed(1.2), 44: _trap,
    45: _summit, 46: _how_i_learned, 47: _junta, 48: _fixed(2.0), 49: _fixed(0.8), 50: _wwby,
    51: _brezhnev, 52: _portuguese, 53: _sa_unrest, 54: _adds(("chile", 2)), 55: _brandt, 56: _muslim,
    57: _abm, 58: _cultural, 59: _fixed(1.0), 60: _fixed(1.0), 61: _opec, 62: _fixed(0.6),
    63: _colonial, 64: _adds(("panama", 1), ("costa_rica", 1), ("venezuela", 1)), 65: _camp_david,
    66: _puppet, 67: _fixed(1.0), 68: _jp2, 69: _fixed(0.3), 70: _oas, 71: _nixon, 72: _sadat,
    73: _fixed(1.2), 74: _voa, 75: _liberation, 76: _ussuri, 77: _fixed(1.0), 78: _alliance,
    80: _one_small_step, 82: _hostage, 83: _iron_lady, 84: _reagan, 85: _fixed(1.2), 86: _fixed(1.2),
    87: _reformer, 88: _barracks, 89: _kal, 90: _glasnost, 91: _ortega, 92: _terrorism,
    93: _fixed(0.3), 94: _fixed(0.8), 95: _fixed(1.0), 96: _tdtw, 97: _evil_empire, 98: _fixed(1.5),
    99: _pershing, 100: _wargames, 101: _adds(("poland", 3)), 102: _iran_iraq, 103: _fixed(0.0),
    104: _fixed(0.3), 105: _special_relationship, 106: _norad, 107: _che, 108: _fixed(0.6),
    109: _fixed(0.3), 110: _awacs, 6: _fixed(0.0),
}


# --- the bot -------------------------------------------------------------------------------------


class TSHeuristicBot(Bot):
    """Rule-based Twilight Struggle bot (see the module docstring)."""

    name = "ts-heuristic"
    version = "1"
    games = ("twilight-struggle",)

    #: Tests set this to see exceptions; in play, an unexpected failure falls back to a safe
    #: option rather than forfeiting.
    strict = False

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._reset()

    def _reset(self) -> None:
        #: card uses valued at our last action round, for the card_use decision that follows
        self._uses_memo: dict[tuple, list] = {}
        #: the influence plan being carried out: (board signature expected, countries left)
        self._plan: tuple | None = None

    def start(self, match: Any) -> None:
        super().start(match)
        self._reset()

    def choose(self, decision: Any, view: Any) -> int:
        options = decision.options
        if len(options) <= 1:
            return 0
        try:
            v = read_view(view)
            x = Ctx(self, v, decision)
            index = self._choose(x, decision)
        except Exception:
            if self.strict:
                raise
            index = None
        if index is None or not isinstance(index, int) or not 0 <= index < len(options):
            index = self._fallback(decision, view)
        return index

    # -- dispatch --------------------------------------------------------------------------------

    def _choose(self, x: Ctx, d: Any) -> int | None:
        step = d.step
        keys = [o.key for o in d.options]
        handler = getattr(self, "_step_" + step, None)
        if handler is not None:
            return handler(x, d, keys)
        if all(k.startswith("choice:") for k in keys):
            return self._choice(x, d, keys)
        if all(k.startswith("country:") for k in keys):
            return self._country_choice(x, d, keys)
        return None

    def _pick(self, scored: list[tuple[float, int]]) -> int:
        """The best index; ties broken with self.rng."""
        best = max(v for v, _ in scored)
        tied = [i for v, i in scored if v >= best - 1e-9]
        return tied[0] if len(tied) == 1 else tied[self.rng.randrange(len(tied))]

    def _fallback(self, d: Any, view: Any) -> int:
        """A safe option: never a coup / DEFCON 1 / boycott / lowering; 'done'-like keys first."""
        keys = [o.key for o in d.options]
        try:
            defcon = int(read_view(view).get("defcon") or 5)
        except Exception:
            defcon = 2
        bad = {"choice:defcon_1", "choice:lower_defcon", "choice:boycott", "choice:coup", "use:event"}
        safe = [i for i, k in enumerate(keys) if k not in bad and ":coup" not in k and not k.startswith("use:coup")]
        if defcon <= 2 and d.step in ("coup", "che_coup"):
            safe = [i for i, k in enumerate(keys)
                    if k == "done" or (k.startswith("country:") and not BG[INDEX.get(k[8:], 0)])] or safe
        for pref in ("done", "choice:none", "choice:neither", "choice:keep", "choice:leave_defcon",
                     "choice:participate", "choice:accept", "choice:return", "use:space",
                     "use:influence", "use:influence:event_first"):
            if pref in keys:
                return keys.index(pref)
        pool = safe or list(range(len(keys)))
        return pool[self.rng.randrange(len(pool))]

    # -- set-up ----------------------------------------------------------------------------------

    SETUP_PLAN = {
        USSR: ("poland", "poland", "poland", "poland", "east_germany", "austria"),
        US: ("west_germany", "west_germany", "west_germany", "west_germany", "italy", "italy", "italy"),
    }

    def _step_setup_place(self, x: Ctx, d, keys):
        placed = sum(1 for e in x.history if len(e) >= 4 and e[2] == "setup_place" and e[1] == SIDE_NAME[x.me])
        plan = self.SETUP_PLAN[x.me]
        if placed < len(plan):
            key = "country:" + plan[placed]
            if key in keys:
                return keys.index(key)
        return self._place_marker(x, keys, 1, opcost=False)

    def _step_bid(self, x: Ctx, d, keys):
        return self._place_marker(x, keys, self._left(d.prompt, 1), opcost=False)

    # -- helpers for country decisions -----------------------------------------------------------

    @staticmethod
    def _left(prompt: str, default: int) -> int:
        m = re.search(r"\((\d+)[^)]*left\)", prompt or "")
        if m:
            return max(1, int(m.group(1)))
        m = re.search(r"add (\d+) influence", prompt or "")
        if m:
            return max(1, int(m.group(1)))
        return default

    def _place_marker(self, x: Ctx, keys, budget, *, opcost, max_per=None, optional=False, bonus_sets=()):
        """Index of the first marker of the best placement plan among the offered countries."""
        cands = [INDEX[k[8:]] for k in keys if k.startswith("country:") and k[8:] in INDEX]
        if not cands:
            return None
        plans = []
        if bonus_sets:
            for restrict, extra in bonus_sets:
                sub = [c for c in cands if c in restrict]
                if sub:
                    plans.append((sub, budget))
            plans.append((cands, max(1, budget - sum(extra for _, extra in bonus_sets))))
        else:
            plans.append((cands, budget))
        best = None
        table = x.table(opcost, cands)
        for sub, b in plans:
            gain, seq = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, tuple(sub), b, opcost=opcost, max_per=max_per,
                                       optional=optional, table=table)
            if seq and (best is None or gain > best[0]):
                best = (gain, seq)
        if best is None:
            if optional and "done" in keys:
                return keys.index("done")
            return None
        if optional and best[0] <= 0 and "done" in keys:
            return keys.index("done")
        return keys.index("country:" + IDS[best[1][0]])

    # -- operations: values ----------------------------------------------------------------------

    def eligible(self, x: Ctx) -> tuple[int, ...]:
        key = "eligible"
        if key in x._cache:
            return x._cache[key]
        mine = x.B[0]
        el = set(OWN_SPACE[x.me])
        for c in range(N):
            if mine[c] > 0:
                el.add(c)
                el.update(NEIGH[c])
        if x.me == USSR:
            for e in x.effects:
                if e.startswith("chernobyl:"):
                    region = e.split(":")[1]
                    if region in RIDX:
                        el -= set(REGION_COUNTRIES[RIDX[region]])
        out = tuple(sorted(el))
        x._cache[key] = out
        return out

    def influence_value(self, x: Ctx, v: int, card: int | None) -> float:
        key = ("infl", v, card == CHINA)
        if key in x._cache:
            return x._cache[key]
        el = self.eligible(x)
        table = x.table(True, el)
        gain, seq = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, el, v, opcost=True, table=table)
        if card == CHINA:
            asia = tuple(c for c in el if c in ASIA_SET)
            if asia:
                g2, s2 = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, asia, v + 1, opcost=True, table=table)
                if g2 > gain:
                    gain, seq = g2, s2
        if x.me == USSR and x.has("vietnam_revolts:turn"):
            sea = tuple(c for c in el if c in SEA_SET)
            if sea:
                g3, s3 = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, sea, v + 1 + (card == CHINA), opcost=True,
                                        table=table)
                if g3 > gain:
                    gain, seq = g3, s3
        x._cache[key] = gain
        x._cache[("inflseq",) + key[1:]] = seq
        return gain

    def coup_mod(self, x: Ctx, c: int) -> int:
        mod = -1 if x.has("salt:turn") else 0
        if c in LATAM:
            if x.has(f"death_squads:{SIDE_NAME[x.me]}:turn"):
                mod += 1
            if x.has(f"death_squads:{SIDE_NAME[x.opp]}:turn"):
                mod -= 1
        return mod

    def protected(self, x: Ctx, c: int) -> bool:
        if x.me != USSR:
            return False
        if c == _c("japan") and x.has("us_japan_pact"):
            return True
        if x.has("nato") and c in EUROPE_SET and x.controls(1, c):
            if c == _c("france") and x.has("de_gaulle"):
                return False
            if c == _c("west_germany") and x.has("willy_brandt"):
                return False
            return True
        return False

    def defcon_allows(self, defcon: int, c: int) -> bool:
        if defcon <= 4 and c in EUROPE_SET:
            return False
        if defcon <= 3 and c in ASIA_SET:
            return False
        return not (defcon <= 2 and c in ME_SET)

    def coup_targets(self, x: Ctx, defcon: int, *, free=False, among=None) -> list[int]:
        out = []
        for c in among if among is not None else range(N):
            if x.B[1][c] <= 0 or self.protected(x, c):
                continue
            if not free and not self.defcon_allows(defcon, c):
                continue
            if x.me == USSR and c in EUROPE_SET and x.has("the_reformer"):
                continue
            out.append(c)
        return out

    def coup_cant(self, x: Ctx) -> bool:
        """The Cuban Missile Crisis restricts us: any coup loses."""
        return x.has(f"cuban_missile_crisis:{SIDE_NAME[x.me]}:turn")

    def bg_coup_safe(self, x: Ctx, defcon: int) -> bool:
        if x.me == US and x.has("nuclear_subs:turn"):
            return True
        return defcon >= 3

    def defcon_cost(self, x: Ctx, defcon: int) -> float:
        """Cost of lowering DEFCON from ``defcon`` by our battleground coup."""
        if x.me == US and x.has("nuclear_subs:turn"):
            return 0.0
        new = defcon - 1
        if new <= 1:
            return WIN
        if new == 2:
            return 0.9 + 2.5 * self.danger_excess(x, 2)
        if new == 3:
            return 0.35
        return 0.2

    def coup_value(self, x: Ctx, c: int, ops: int, defcon: int, *, free=False) -> float:
        v = x.ev.coup_ev(x.B, x.cnt, 0, c, ops, self.coup_mod(x, c))
        end_defcon = defcon
        if BG[c]:
            v -= self.defcon_cost(x, defcon)
            if not (x.me == US and x.has("nuclear_subs:turn")):
                end_defcon = defcon - 1
        if not free:
            need = max(0, end_defcon - x.milops[0])
            v += min(ops, need) * x.urgency
        if x.me == US and x.has("yuri_and_samantha:turn"):
            v -= 1.0
        return v

    def best_coup(self, x: Ctx, v: int, card: int | None, defcon: int, *, allow_bg=True, free=False,
                  among=None) -> tuple[float, int | None]:
        if self.coup_cant(x):
            return -WIN, None
        key = ("coup", v, card == CHINA, defcon, allow_bg, free, among)
        if key in x._cache:
            return x._cache[key]
        best = (-WIN, None)
        for c in self.coup_targets(x, defcon, free=free, among=among):
            if BG[c] and (not allow_bg or not self.bg_coup_safe(x, defcon)):
                continue
            ops = v + (1 if card == CHINA and c in ASIA_SET else 0)
            if x.me == USSR and x.has("vietnam_revolts:turn") and c in SEA_SET and card is not None:
                ops += 1
            val = self.coup_value(x, c, ops, defcon, free=free)
            if val > best[0]:
                best = (val, c)
        x._cache[key] = best
        return best

    def best_realign(self, x: Ctx, v: int, defcon: int, *, free=False, among=None) -> tuple[float, int | None]:
        key = ("realign", defcon, free, among)
        if key in x._cache:
            return x._cache[key]
        best = (-1.0, None)
        ic = x.has("iran_contra:turn")
        for c in among if among is not None else range(N):
            if x.B[1][c] <= 0 or self.protected(x, c):
                continue
            if not free and not self.defcon_allows(defcon, c):
                continue
            val = x.ev.realign_ev(x.B, x.cnt, 0, c, ic)
            if val > best[0]:
                best = (val, c)
        x._cache[key] = best
        return best

    def realign_value(self, x: Ctx, v: int, defcon: int) -> float:
        val, c = self.best_realign(x, v, defcon)
        if c is None or val < 0.2:
            return -1.0
        return val * v * 0.75

    def space_value(self, x: Ctx) -> float:
        box = x.space[0] + 1
        if box > 8:
            return -1.0
        _, hi, first, second = SPACE[box]
        leader = x.space[1] < box
        gain = (first if leader else second) + (SPACE_ABILITY.get(box, 0.0) if leader else 0.0)
        return hi / 6.0 * gain

    def space_possible(self, x: Ctx, v: int) -> bool:
        box = x.space[0] + 1
        if box > 8 or v < SPACE[box][0]:
            return False
        allowed = 2 if (x.space[0] >= 2 and x.space[1] < 2) else 1
        return x.space_attempts() < allowed

    # -- events: values and DEFCON risk ----------------------------------------------------------

    def event_value(self, x: Ctx, card: int, actor: int) -> float:
        """Value (to us) of the event of ``card`` carried out by ``actor`` (0 us, 1 them)."""
        key = ("event", card, actor)
        if key in x._cache:
            return x._cache[key]
        if not x.playable(card, actor):
            val = 0.0
        else:
            sim = Sim(x)
            fn = EVENTS.get(card)
            if fn is not None:
                fn(sim, actor)
            val = sim.value
        x._cache[key] = val
        return val

    def dangerous_unseen(self, x: Ctx, cards) -> bool:
        return any(x.unseen(c) for c in cards)

    def event_drop(self, x: Ctx, card: int, player: int, defcon: int) -> int:
        """How far DEFCON may fall during our round when ``card``'s event fires, the card played
        by ``player`` (0: us, as an event; 1: the opponent's event fired by our operations).
        5 means 'may be set to 1 outright'."""
        if not x.playable(card, x.event_actor(card, player)):
            return 0
        me_abs = x.me
        if player == 0:
            if card in DEFCON_DROPPERS:
                return 1
            if card in RISKY_FOR_PHASING:
                return 1
            if card == MISSILE_ENVY:
                return 1 if defcon <= 3 else 0
            if card == FIVE_YEAR_PLAN and me_abs == US:
                return 1 if self.dangerous_unseen(x, (DUCK_AND_COVER, KAL_007)) else 0
            return 0
        # the opponent's event, fired during our round
        if card in DEFCON_DROPPERS:
            return 1
        if card == FIVE_YEAR_PLAN:  # we are the USSR: a US event of our hand fires
            others = [c for c in x.hand if c != FIVE_YEAR_PLAN]
            return 1 if any(c in (DUCK_AND_COVER, KAL_007, CIA_CREATED, TDTW, GRAIN_SALES, STAR_WARS)
                            for c in others) else 0
        if card in (CIA_CREATED, LONE_GUNMAN):
            return 1
        if card == GRAIN_SALES:  # we are the USSR: the US may play one of our cards
            if HOW_I_LEARNED in x.hand:
                return 5
            return 1
        if card == ORTEGA:
            return 1 if x.B[0][_c("cuba")] > 0 else 0
        if card == TDTW:
            return 1
        if card == STAR_WARS:
            if HOW_I_LEARNED in x.discard:
                return 5
            return 1
        return 0

    def event_safe(self, x: Ctx, card: int, player: int, defcon: int, extra_drop: int = 0) -> bool:
        drop = self.event_drop(x, card, player, defcon)
        if drop >= 5:
            return False
        if card == WARGAMES and player == 0 and defcon == 2:
            return x.lead - 6 > 0
        return defcon - drop - extra_drop >= 2

    # -- a card's best use -----------------------------------------------------------------------

    def card_uses(self, x: Ctx, card: int, offered: set[str] | None = None) -> list[tuple[float, str]]:
        """(value, option key) of every sensible use of ``card`` now, unsafe ones left out.
        ``offered``: the card_use option keys when known."""
        data = CARD[card]
        defcon = x.defcon
        out: list[tuple[float, str]] = []
        if data.scoring:
            out.append((x.score_net(card), "use:event"))
            return out
        v = x.ops_value(0, card)
        owner = OWNER[card]
        mine = owner is None or owner == x.me
        china_cost = 0.0
        if card == CHINA:
            china_cost = 2.2 if x.turn < 10 else 2.0
        infl = self.influence_value(x, v, card) - china_cost
        space = self.space_value(x) - china_cost if self.space_possible(x, v) else None
        if offered is not None:
            if "use:space" not in offered:
                space = None
            elif space is None:
                space = self.space_value(x) - china_cost
        if mine:
            if card != CHINA and x.playable(card, 0) and (offered is None or "use:event" in offered):
                if self.event_safe(x, card, 0, defcon):
                    if card == UN_INTERVENTION:
                        ev = self.un_value(x)
                    else:
                        ev = self.event_value(x, card, x.event_actor(card, 0))
                    out.append((ev, "use:event"))
            out.append((infl, "use:influence"))
            cv, ct = self.best_coup(x, v, card, defcon)
            if ct is not None:
                out.append((cv - china_cost, "use:coup"))
            rv = self.realign_value(x, v, defcon)
            if rv > 0:
                out.append((rv - china_cost, "use:realign"))
            if space is not None:
                out.append((space, "use:space"))
        else:
            actor = 1
            fires = x.playable(card, actor)
            harm = -self.event_value(x, card, actor) if fires else 0.0
            drop = self.event_drop(x, card, 1, defcon) if fires else 0
            if card == DEFECTORS and x.me == USSR:
                harm += 1.0
            order = "event_first"
            if drop < 5 and defcon - drop >= 2:
                if fires and drop == 0 and harm > 0.05:
                    first, after = self.order_values(x, card, v)
                    if after > first + 0.05:
                        out.append((after, "use:influence:event_after"))
                    else:
                        out.append((first, "use:influence:event_first"))
                else:
                    out.append((infl - harm, f"use:influence:{order}"))
                cv, ct = self.best_coup(x, v, card, defcon - drop, allow_bg=(defcon - drop >= 3))
                if ct is not None:
                    out.append((cv - harm, f"use:coup:{order}"))
                rv = self.realign_value(x, v, defcon - drop)
                if rv > 0:
                    out.append((rv - harm, f"use:realign:{order}"))
            if space is not None:
                out.append((space + (0.15 if fires else 0.0), "use:space"))
        return out

    def order_values(self, x: Ctx, card: int, v: int) -> tuple[float, float]:
        """Our influence placement with the opponent's event of ``card``: (event first, then our
        placement on the board it leaves; our placement first, then the event on that board)."""
        key = ("order", card, v)
        if key in x._cache:
            return x._cache[key]
        fn = EVENTS.get(card)
        el = self.eligible(x)
        first_sim = Sim(x)
        if fn is not None:
            fn(first_sim, 1)
        gain1, _ = x.ev.best_plan(first_sim.B, first_sim.cnt, 0, 0, 1, el, v, opcost=True)
        first = first_sim.value + gain1
        gain0 = self.influence_value(x, v, card)
        seq = x._cache.get(("inflseq", v, card == CHINA)) or []
        after_sim = Sim(x)
        for c in seq:
            after_sim.add(0, c, 1)
        after_sim.value = 0.0
        if fn is not None:
            fn(after_sim, 1)
        after = gain0 + after_sim.value
        x._cache[key] = (first, after)
        return first, after

    def danger_cards(self, x: Ctx) -> list[int]:
        """Opponent's cards in hand whose event could lower DEFCON during our round."""
        key = "danger"
        if key not in x._cache:
            x._cache[key] = [c for c in x.hand if OWNER.get(c) == x.opp and self.event_drop(x, c, 1, 2) >= 1]
        return x._cache[key]

    def danger_excess(self, x: Ctx, defcon: int) -> int:
        """How many of those we might be forced to play at DEFCON 2 this turn: more than the cards
        we may keep at the end and the space-race attempts left for them."""
        danger = self.danger_cards(x)
        if not danger:
            return 0
        key = ("excess",)
        if key in x._cache:
            return x._cache[key]
        slack = len(x.hand) - x.rounds_left(0)
        if x.me == USSR and FIVE_YEAR_PLAN in x.hand:
            slack -= 1  # its event (fired by our operations) takes a card of our hand
        box = x.space[0] + 1
        if box <= 8:
            allowed = 2 if (x.space[0] >= 2 and x.space[1] < 2) else 1
            left = max(0, allowed - x.space_attempts())
            slack += min(left, sum(1 for c in danger if x.ops_value(0, c) >= SPACE[box][0]))
        x._cache[key] = max(0, len(danger) - max(0, slack))
        return x._cache[key]

    def un_value(self, x: Ctx) -> float:
        best = -1.0
        for c in x.hand:
            if OWNER.get(c) != x.opp or c == UN_INTERVENTION:
                continue
            harm = -self.event_value(x, c, 1) if x.playable(c, 1) else 0.0
            val = 0.7 * self.influence_value(x, x.ops_value(0, c), c) + 0.9 * harm
            best = max(best, val)
        return best

    def best_use(self, x: Ctx, card: int, offered=None) -> tuple[float, str | None]:
        uses = self.card_uses(x, card, offered)
        if not uses:
            return -WIN, None
        return max(uses, key=lambda t: t[0])

    # -- action rounds ---------------------------------------------------------------------------

    def _step_action_round(self, x: Ctx, d, keys):
        cards = [(i, CARD_NUM.get(k[5:])) for i, k in enumerate(keys) if k.startswith("card:")]
        cards = [(i, c) for i, c in cards if c is not None]
        self._uses_memo = {}
        scoring = [(i, c) for i, c in cards if c in SCORING_CARDS]
        held_scoring = sum(1 for c in x.hand if c in SCORING_CARDS)
        if scoring:
            nets = [(x.score_net(c), i) for i, c in scoring]
            best_net, best_i = max(nets)
            if held_scoring >= x.rounds_left(0) or len(scoring) == len(cards) or best_net >= WIN:
                return best_i
            if best_net >= 2 or (best_net >= 1 and x.rounds_left(0) <= held_scoring + 1):
                return best_i
        scored = []
        danger = self.danger_cards(x)
        excess = self.danger_excess(x, x.defcon)
        for i, c in cards:
            if c in SCORING_CARDS:
                continue
            uses = self.card_uses(x, c)
            v = x.ops_value(0, c)
            self._uses_memo[(x.sig, c)] = (uses, x._cache.get(("inflseq", v, c == CHINA)))
            val, use = max(uses, key=lambda t: t[0]) if uses else (-WIN, None)
            if danger and excess == 0 and c in danger and x.defcon in (3, 4) and use is not None:
                val += 0.5
            if excess > 0 and use is not None:
                if c in danger and x.defcon >= 3 and use != "use:space":
                    # get rid of it while DEFCON allows: it could be our forced last card at DEFCON 2
                    val += {3: 4.0, 4: 3.0}.get(x.defcon, 1.5)
                elif x.defcon == 2 and use == "use:event" and c in DEFCON_RAISERS:
                    val += 3.0
            scored.append((val, i))
        if "pass" in keys:
            scored.append((0.0, keys.index("pass")))
        if not scored:
            return self._pick([(0.0, i) for i, _ in cards]) if cards else None
        return self._pick(scored)

    def _step_card_use(self, x: Ctx, d, keys):
        card = None
        m = re.match(r"how to play (.*)$", d.prompt or "")
        if m:
            card = CARD_BY_NAME.get(m.group(1).strip())
        if card is None:
            card, _ = x.current_play()
        if card is None:
            return None
        offered = set(keys)
        memo = self._uses_memo.get((x.sig, card))
        seq = None
        if memo is not None:
            uses, seq = list(memo[0]), memo[1]
            if "use:space" in offered and not any(k == "use:space" for _, k in uses):
                uses.append((self.space_value(x) - (2.2 if card == CHINA else 0.0), "use:space"))
        else:
            uses = self.card_uses(x, card, offered)
        scored = [(v, keys.index(k)) for v, k in uses if k in keys]
        self._plan = None
        if scored:
            best = self._pick(scored)
            if keys[best].startswith("use:influence"):
                if seq is None:
                    v = x.ops_value(0, card)
                    self.influence_value(x, v, card)
                    seq = x._cache.get(("inflseq", v, card == CHINA))
                if seq:
                    self._plan = (x.board_sig(), list(seq))
            return best
        if not scored:
            # no safe use was valued: space, then influence (never a suicidal event)
            for k in ("use:space", "use:influence", "use:influence:event_first", "use:influence:event_after",
                      "use:realign", "use:realign:event_first"):
                if k in keys:
                    return keys.index(k)
            return None
        return self._pick(scored)

    def _step_influence(self, x: Ctx, d, keys):
        left = self._left(d.prompt, 1)
        card, _ = x.current_play()
        bonus = []
        placed = x.placements_since_play()
        if card == CHINA and all(c in ASIA_SET for c in placed):
            bonus.append((ASIA_SET, 1))
        if x.me == USSR and x.has("vietnam_revolts:turn") and card is not None and all(c in SEA_SET for c in placed):
            bonus.append((SEA_SET, 1))
        if "country:chinese_civil_war" in keys and x.me == USSR:
            return keys.index("country:chinese_civil_war")
        plan = self._plan
        if plan is not None and plan[1] and plan[0] == x.board_sig():
            key = "country:" + IDS[plan[1][0]]
            if key in keys:
                c = plan[1][0]
                after = (plan[0][0][:c] + (plan[0][0][c] + 1,) + plan[0][0][c + 1:], plan[0][1])
                self._plan = (after, plan[1][1:])
                return keys.index(key)
        self._plan = None
        return self._place_marker(x, keys, left, opcost=True, bonus_sets=tuple(bonus))

    def _coup_context(self, x: Ctx) -> tuple[bool, int | None]:
        """(free coup?, card) of the coup being resolved."""
        me = SIDE_NAME[x.me]
        for e in reversed(x.history):
            if len(e) < 4 or e[1] != me:
                continue
            if e[2] in ("junta", "tear_down_this_wall", "ortega_elected_in_nicaragua"):
                return True, None
            if e[2] in ("card_use", "event_ops", "un_intervention_ops", "missile_envy_ops"):
                break
        card, _ = x.current_play()
        return False, card

    def _step_coup(self, x: Ctx, d, keys):
        m = _OPS.search(d.prompt or "")
        ops = int(m.group(1)) if m else 2
        free, card = self._coup_context(x)
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[8:])
            if c is None:
                continue
            o = ops + (1 if card == CHINA and c in ASIA_SET else 0)
            val = self.coup_value(x, c, o, x.defcon, free=free)
            if BG[c] and not self.bg_coup_safe(x, x.defcon):
                val -= 10 * WIN
            scored.append((val, i))
        return self._pick(scored) if scored else None

    def _step_realign(self, x: Ctx, d, keys):
        ic = x.has("iran_contra:turn")
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((0.12, i))
                continue
            c = INDEX.get(k[8:])
            if c is None:
                continue
            scored.append((x.ev.realign_ev(x.B, x.cnt, 0, c, ic), i))
        return self._pick(scored) if scored else None

    def _step_che_coup(self, x: Ctx, d, keys):
        if self.coup_cant(x):
            return keys.index("done") if "done" in keys else None
        m = _OPS.search(d.prompt or "")
        ops = int(m.group(1)) if m else 3
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((0.0, i))
                continue
            c = INDEX.get(k[8:])
            if c is None:
                continue
            val = self.coup_value(x, c, ops, x.defcon)
            if BG[c] and not self.bg_coup_safe(x, x.defcon):
                val -= 10 * WIN
            scored.append((val, i))
        return self._pick(scored) if scored else None

    # -- headline --------------------------------------------------------------------------------

    def headline_safe(self, x: Ctx, card: int) -> bool:
        player = 0
        owner = OWNER[card]
        if owner is not None and owner != x.me:
            # an opponent's card: its event fires for them while we are phasing
            if card in DEFCON_DROPPERS or card in (CIA_CREATED, LONE_GUNMAN, ORTEGA, TDTW, GRAIN_SALES, STAR_WARS):
                return x.defcon >= 4 and not self._set2_first(x, card)
            return True
        drop = self.event_drop(x, card, player, x.defcon)
        if drop == 0:
            return True
        if x.defcon <= 3:
            return False
        return not self._set2_first(x, card)

    def _set2_first(self, x: Ctx, card: int) -> bool:
        """Could an opponent headline that sets DEFCON to 2 resolve before ``card``?"""
        if x.turn < 4:
            return False
        ops = CARD[card].ops
        for c in SETS_DEFCON_2:
            if not x.unseen(c):
                continue
            o = CARD[c].ops
            if o > ops or (o == ops and x.me == USSR):  # ties: the US headline first
                return True
        return False

    def _step_headline(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            c = CARD_NUM.get(k[5:])
            if c is None:
                continue
            if c in SCORING_CARDS:
                net = x.score_net(c)
                if net >= WIN:
                    val = WIN
                elif net <= -WIN:
                    val = -WIN / 2
                else:
                    val = 1.3 + net if net >= 0 else net - 1.0
                scored.append((val, i))
                continue
            ar_val, _ = self.best_use(x, c)
            owner = OWNER[c]
            if not self.headline_safe(x, c):
                scored.append((-WIN, i))
                continue
            if owner is None or owner == x.me:
                hl = self.event_value(x, c, x.event_actor(c, 0)) if x.playable(c, 0) else 0.0
                if c == DEFECTORS and x.me == US:
                    hl = 1.5
            else:
                hl = self.event_value(x, c, 1) if x.playable(c, 1) else 0.0
                if c == DEFECTORS and x.me == USSR:
                    hl = 0.0
            scored.append((hl - ar_val, i))
        return self._pick(scored) if scored else None

    # -- events: placements, removals, countries -------------------------------------------------

    def _step_event_place(self, x: Ctx, d, keys):
        card = x.current_event()
        left = self._left(d.prompt, 1)
        if (d.prompt or "").startswith("add ") and "one country" in (d.prompt or ""):
            amount = self._left(d.prompt, 1)
            scored = []
            for i, k in enumerate(keys):
                c = INDEX.get(k[8:])
                if c is None:
                    continue
                scored.append((x.ev.delta(x.B, x.cnt, c, x.B[0][c] + amount, x.B[1][c]), i))
            return self._pick(scored) if scored else None
        return self._place_marker(x, keys, left, opcost=False, max_per=MAX_PER.get(card),
                                  optional="done" in keys)

    def _step_event_remove(self, x: Ctx, d, keys):
        prompt = d.prompt or ""
        m = re.match(r"remove (?:(\d+) )?(ussr|us) influence", prompt)
        target_abs = SIDE.get(m.group(2)) if m else x.opp
        per = int(m.group(1)) if m and m.group(1) else None
        target = x.rel(target_abs) if target_abs is not None else 1
        card = x.current_event()
        cands = [INDEX[k[8:]] for k in keys if k.startswith("country:") and k[8:] in INDEX]
        if not cands:
            return keys.index("done") if "done" in keys else None
        if per is not None:  # remove `per` from each chosen country
            scored = []
            for i, k in enumerate(keys):
                c = INDEX.get(k[8:])
                if c is None:
                    continue
                if target == 1:
                    nm, no = x.B[0][c], max(0, x.B[1][c] - per)
                else:
                    nm, no = max(0, x.B[0][c] - per), x.B[1][c]
                scored.append((x.ev.delta(x.B, x.cnt, c, nm, no), i))
            return self._pick(scored)
        left = self._left(prompt, 1)
        optional = "done" in keys
        B = [x.B[0][:], x.B[1][:]]
        cnt = [r[:] for r in x.cnt]
        floor = -0.35 if target == 0 else 0.0
        gain, seq = x.ev.plan(B, cnt, 0, target, -1, tuple(cands), left, max_per=MAX_PER.get(card),
                              optional=optional, floor=floor)
        if not seq:
            return keys.index("done") if optional else None
        return keys.index("country:" + IDS[seq[0]])

    def _country_choice(self, x: Ctx, d, keys):
        """Event country choices (truman_doctrine, warsaw_pact_remove, brush_war...)."""
        step = d.step
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[8:])
            if c is None:
                continue
            scored.append((self._country_value(x, step, c), i))
        return self._pick(scored) if scored else None

    def _country_value(self, x: Ctx, step: str, c: int) -> float:
        B, cnt, ev = x.B, x.cnt, x.ev
        m, o = B[0][c], B[1][c]
        if step in ("truman_doctrine", "warsaw_pact_remove", "muslim_revolution"):
            return ev.delta(B, cnt, c, m, 0)
        if step == "independent_reds":
            return ev.delta(B, cnt, c, max(m, o), o)
        if step == "latin_american_debt_crisis_double":
            return ev.delta(B, cnt, c, m * 2, o)
        if step == "brush_war":
            sim = Sim(x)
            return sim.war(0, c, 3, 1, 0)
        if step == "shuttle_diplomacy":
            return 0.0
        return ev.delta(B, cnt, c, m + 1, o)

    def _step_shuttle_diplomacy(self, x: Ctx, d, keys):
        scored = []
        region = None
        for i, k in enumerate(keys):
            cid = k.partition(":")[2]
            c = INDEX.get(cid)
            if c is None:
                continue
            region = REG[c]
            B = [x.B[0][:], x.B[1][:]]
            B[0][c] = B[1][c] = 0  # ignoring it is like emptying it for this scoring
            card = {ASIA: 1, MIDDLE_EAST: 3}.get(region)
            scored.append((x.score_net(card, B) if card else 0.0, i))
        return self._pick(scored) if scored else None

    def _step_event_ops(self, x: Ctx, d, keys):
        m = re.search(r"use (\d+) Operations", d.prompt or "")
        value = int(m.group(1)) if m else 2
        return self._ops_choice(x, keys, value, prefix="use:")

    def _ops_choice(self, x: Ctx, keys, value, prefix="choice:", card=None):
        scored = []
        for i, k in enumerate(keys):
            use = k[len(prefix):] if k.startswith(prefix) else k
            if use == "influence":
                scored.append((self.influence_value(x, value, None), i))
            elif use == "coup":
                cv, ct = self.best_coup(x, value, card, x.defcon)
                if ct is not None:
                    scored.append((cv, i))
            elif use == "realign":
                rv = self.realign_value(x, value, x.defcon)
                if rv > 0:
                    scored.append((rv, i))
            elif use in ("none", "neither"):
                scored.append((0.0, i))
        return self._pick(scored) if scored else None

    # -- card-choice steps -----------------------------------------------------------------------

    def keep_value(self, x: Ctx, card: int) -> float:
        """What keeping ``card`` in hand is worth to us (negative: we would rather lose it)."""
        if card in SCORING_CARDS:
            return x.score_net(card) if x.score_net(card) < 0 else 0.5 + x.score_net(card)
        val, _ = self.best_use(x, card)
        return val

    def _step_space_discard(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((-0.3, i))
                continue
            c = CARD_NUM.get(k[5:])
            if c is not None:
                scored.append((-self.keep_value(x, c), i))
        return self._pick(scored) if scored else None

    def _step_ask_not_discard(self, x: Ctx, d, keys):
        m = re.search(r"\((\d+) so far\)", d.prompt or "")
        so_far = int(m.group(1)) if m else 0
        held = sum(1 for c in x.hand if c in SCORING_CARDS)
        # every card drawn may be a scoring card: keep enough rounds to play them all this turn
        after = x.rounds_left(0) - (1 if x.ar and x.phasing == 0 else 0)
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((-0.6, i))
                continue
            c = CARD_NUM.get(k[5:])
            if c is None:
                continue
            if held - (c in SCORING_CARDS) + so_far + 1 > after:
                continue
            scored.append((-self.keep_value(x, c), i))
        return self._pick(scored) if scored else None

    def _step_tehran_discard(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((0.5, i))
                continue
            c = CARD_NUM.get(k[5:])
            if c is None:
                continue
            if c in SCORING_CARDS:
                harm = -x.score_net(c)
            elif OWNER.get(c) == x.opp:
                harm = -self.event_value(x, c, 1)
            else:
                harm = -1.0
            scored.append((harm, i))
        return self._pick(scored) if scored else None

    # -- choices ---------------------------------------------------------------------------------

    def _choice(self, x: Ctx, d, keys):
        step = d.step
        method = getattr(self, "_ch_" + step, None)
        if method is not None:
            got = method(x, d, keys)
            if got is not None:
                return got
        # card choices (un_intervention, missile_envy, star_wars, salt, aldrich ames, trap, blockade...)
        if any(CARD_NUM.get(k[7:]) for k in keys):
            return self._card_choice(x, step, keys)
        return None

    def _card_choice(self, x: Ctx, step: str, keys):
        scored = []
        for i, k in enumerate(keys):
            name = k[7:]
            c = CARD_NUM.get(name)
            if c is None:
                scored.append((self._special_key_value(x, step, name), i))
                continue
            if step in ("trap_discard", "blockade", "latin_american_debt_crisis"):
                scored.append((-self.keep_value(x, c), i))  # discard the card we value least
            elif step == "missile_envy":  # we give it away
                given = self.event_value(x, c, 1) if OWNER.get(c) in (None, x.opp) else -0.5 * CARD[c].ops
                scored.append((-self.keep_value(x, c) + given, i))
            elif step == "aldrich_ames_remix":  # discard the US card worth most to the US
                if c in SCORING_CARDS:
                    worth = -x.score_net(c)
                elif OWNER.get(c) == x.me:
                    worth = 0.5 * CARD[c].ops
                else:
                    worth = -self.event_value(x, c, 1) + 0.3 * CARD[c].ops
                scored.append((worth, i))
            elif step == "star_wars":
                if not x.playable(c, 0) or OWNER.get(c) == x.opp or not self.event_safe(x, c, 0, x.defcon):
                    scored.append((-WIN, i))
                else:
                    scored.append((self.event_value(x, c, 0), i))
            elif step == "salt_negotiations":
                scored.append((self.keep_value(x, c) if OWNER.get(c) != x.opp else -1.0, i))
            elif step == "un_intervention":
                harm = -self.event_value(x, c, 1) if x.playable(c, 1) else 0.0
                scored.append((harm + 0.5 * self.influence_value(x, x.ops_value(0, c), c), i))
            else:
                scored.append((self.keep_value(x, c), i))
        return self._pick(scored) if scored else None

    def _special_key_value(self, x: Ctx, step: str, name: str) -> float:
        """Value (to us) of a non-card key of a card choice."""
        if name == "lose_west_germany":  # we are the US
            wg = _c("west_germany")
            return x.ev.delta(x.B, x.cnt, wg, 0, x.B[1][wg])
        if name == "double_ussr_influence":  # we are the US: the USSR doubles in 2 countries
            sim = Sim(x)
            ussr = x.rel(USSR)
            for _ in range(2):
                opts = [c for c in REGION_COUNTRIES[SOUTH_AMERICA] if sim.B[ussr][c] > 0]
                if not opts:
                    break
                sim.best_country(ussr, opts, lambda t, c: t.setinf(ussr, c, t.B[ussr][c] * 2))
            return sim.value
        return 0.0

    def _ch_olympic_games(self, x: Ctx, d, keys):
        # the opponent sponsors; boycott lowers DEFCON (the phasing player loses at DEFCON 2)
        if x.defcon == 2:
            if x.phasing == 1 and "choice:boycott" in keys:
                return keys.index("choice:boycott")
            return keys.index("choice:participate") if "choice:participate" in keys else None
        # participate: they win 2 VP with 81%; boycott: DEFCON −1 and 4 Ops for them
        if x.defcon == 3 and "choice:participate" in keys:
            return keys.index("choice:participate")
        return keys.index("choice:participate") if "choice:participate" in keys else None

    def _ch_how_i_learned_to_stop_worrying(self, x: Ctx, d, keys):
        if x.phasing == 1 and "choice:defcon_1" in keys:
            return keys.index("choice:defcon_1")  # the opponent is phasing: it loses
        # our military operations are met anyway (+5); make theirs hard to meet
        target = 5 if x.milops[1] <= 2 else 4
        if x.rounds_left(1) >= 3 and x.milops[1] >= 3:
            target = x.defcon if x.defcon >= 3 else 3
        key = f"choice:defcon_{max(2, target)}"
        if key in keys:
            return keys.index(key)
        for n in (5, 4, 3, 2):
            if f"choice:defcon_{n}" in keys:
                return keys.index(f"choice:defcon_{n}")
        return None

    def _ch_summit_defcon(self, x: Ctx, d, keys):
        if x.defcon == 2 and x.phasing == 1 and "choice:lower_defcon" in keys:
            return keys.index("choice:lower_defcon")
        if x.defcon <= 2 and "choice:raise_defcon" in keys:
            return keys.index("choice:raise_defcon")
        return keys.index("choice:leave_defcon") if "choice:leave_defcon" in keys else None

    def _ch_cancel_missile_crisis(self, x: Ctx, d, keys):
        need = max(0, x.defcon - x.milops[0])
        if need >= 3 and x.rounds_left(0) <= 2:
            scored = []
            for i, k in enumerate(keys):
                c = INDEX.get(k[7:])
                if c is None:
                    continue
                scored.append((x.ev.delta(x.B, x.cnt, c, x.B[0][c] - 2, x.B[1][c]) + need * 0.8, i))
            if scored and max(scored)[0] > 0:
                return self._pick(scored)
        return keys.index("choice:keep") if "choice:keep" in keys else None

    def _ch_we_will_bury_you(self, x: Ctx, d, keys):
        if "choice:un_intervention" in keys:
            return keys.index("choice:un_intervention")
        return keys.index("choice:accept") if "choice:accept" in keys else None

    def _ch_grain_sales_to_soviets(self, x: Ctx, d, keys):
        card = None
        for e in reversed(x.history):
            if len(e) >= 4 and e[2] == "grain_sales":
                card = CARD_NUM.get(str(e[3]).partition(":")[2])
                break
        fallback = self.influence_value(x, x.ops_value(0, 67), None)
        if card is None:
            return keys.index("choice:return") if "choice:return" in keys else None
        val, use = self.best_use(x, card)
        # returning the card gives it back to the USSR (its event, its operations)
        if OWNER.get(card) == x.opp and x.playable(card, 1):
            ret = fallback + 0.5 * min(0.0, self.event_value(x, card, 1))
        else:
            ret = fallback - 0.25 * CARD[card].ops
        if use is not None and val > ret and "choice:play" in keys:
            return keys.index("choice:play")
        return keys.index("choice:return") if "choice:return" in keys else None

    def _ch_warsaw_pact_formed(self, x: Ctx, d, keys):
        a = Sim(x)
        _remove_all_best(a, 0, EE, 4)
        b = Sim(x)
        b.place(0, 5, EE, max_per=2)
        key = "choice:remove_us_influence" if a.value >= b.value else "choice:add_ussr_influence"
        return keys.index(key) if key in keys else None

    def _ch_south_african_unrest(self, x: Ctx, d, keys):
        sa = _c("south_africa")
        a = Sim(x)
        a.add(0, sa, 2)
        b = Sim(x)
        b.add(0, sa, 1)
        b.place(0, 2, (_c("angola"), _c("botswana")))
        key = "choice:two_in_south_africa" if a.value >= b.value else "choice:one_in_south_africa_two_adjacent"
        return keys.index(key) if key in keys else None

    def _ch_indo_pakistani_war(self, x: Ctx, d, keys):
        return self._war_choice(x, keys)

    def _ch_iran_iraq_war(self, x: Ctx, d, keys):
        return self._war_choice(x, keys)

    def _war_choice(self, x: Ctx, keys):
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[7:])
            if c is None:
                continue
            sim = Sim(x)
            scored.append((sim.war(0, c, 4, 2, 0), i))
        return self._pick(scored) if scored else None

    def _free_op_choice(self, x: Ctx, keys, among, card, ops):
        """junta / tear_down_this_wall / ortega: a free coup, free realignments, or neither."""
        scored = []
        for i, k in enumerate(keys):
            use = k[7:]
            if use == "coup":
                if self.coup_cant(x):
                    continue
                cv, ct = self.best_coup(x, ops, card, x.defcon, free=True, among=among)
                if ct is None:
                    continue
                # the coup step offers every target: all must be safe at DEFCON 2
                if not self.bg_coup_safe(x, x.defcon) and any(
                        BG[c] for c in self.coup_targets(x, x.defcon, free=True, among=among)):
                    continue
                scored.append((cv, i))
            elif use == "realign":
                rv, rt = self.best_realign(x, ops, x.defcon, free=True, among=among)
                if rt is not None and rv > 0.1:
                    scored.append((rv * ops * 0.7, i))
            elif use in ("neither", "none"):
                scored.append((0.0, i))
        return self._pick(scored) if scored else None

    def _ch_junta(self, x: Ctx, d, keys):
        return self._free_op_choice(x, keys, LATAM, 47, x.ops_value(0, 47))

    def _ch_tear_down_this_wall(self, x: Ctx, d, keys):
        return self._free_op_choice(x, keys, tuple(EUROPE_SET), 96, x.ops_value(0, 96))

    def _ch_ortega_elected_in_nicaragua(self, x: Ctx, d, keys):
        among = (_c("cuba"), _c("honduras"), _c("costa_rica"))
        return self._free_op_choice(x, keys, among, 91, x.ops_value(0, 91))

    def _ch_un_intervention_ops(self, x: Ctx, d, keys):
        card = None
        for e in reversed(x.history):
            if len(e) >= 4 and e[2] == "un_intervention":
                card = CARD_NUM.get(str(e[3]).partition(":")[2])
                break
        value = x.ops_value(0, card) if card else 2
        return self._ops_choice(x, keys, value, card=card)

    def _ch_missile_envy_ops(self, x: Ctx, d, keys):
        card = None
        for e in reversed(x.history):
            if len(e) >= 4 and e[2] == "missile_envy_gives":
                card = CARD_NUM.get(str(e[3]).partition(":")[2])
                break
        value = x.ops_value(0, card) if card else 2
        return self._ops_choice(x, keys, value, card=card)

    def _ch_kal_007_ops(self, x: Ctx, d, keys):
        return self._ops_choice(x, keys, 4)

    def _ch_glasnost_ops(self, x: Ctx, d, keys):
        return self._ops_choice(x, keys, 4)

    def _ch_chernobyl(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            name = k[7:].replace("_", " ")
            r = next((j for j, reg in enumerate(REGIONS) if reg.lower() == name), None)
            if r is None:
                continue
            stake = x.ev.wr[r] * 2 + sum(
                (1.0 if BG[c] else 0.3) for c in REGION_COUNTRIES[r] if not x.controls(0, c) and not x.controls(1, c)
            )
            scored.append((stake, i))
        return self._pick(scored) if scored else None

    def _ch_salt_negotiations(self, x: Ctx, d, keys):
        return self._card_choice(x, "salt_negotiations", keys)

    def _ch_latin_american_debt_crisis(self, x: Ctx, d, keys):
        return self._card_choice(x, "latin_american_debt_crisis", keys)

    def _ch_blockade(self, x: Ctx, d, keys):
        scored = []
        wg = _c("west_germany")
        for i, k in enumerate(keys):
            name = k[7:]
            c = CARD_NUM.get(name)
            if c is None:
                scored.append((x.ev.delta(x.B, x.cnt, wg, 0, x.B[1][wg]), i))
            else:
                scored.append((-self.keep_value(x, c), i))
        return self._pick(scored) if scored else None
