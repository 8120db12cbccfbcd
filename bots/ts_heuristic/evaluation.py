"""The board evaluation of ``ts-heuristic``: one number, a rough VP-equivalent from our side. Per
country a soft control term (a battleground counts ten times a plain country, Europe and
Asia a little more; control is worth 1, a lead short of control up to 0.3, extra margin above
control a little as coup insurance) plus, per region, the region's scoring (presence /
domination / control, battlegrounds, superpower-adjacency bonus, by the engine's scoring table)
times a weight set by :class:`~.context.Ctx`. The evaluation is incremental: a change in one
country only touches its own term and, on a control flip, its region's scoring. The
:class:`Evaluator` also plans influence (greedy by *packages*: the gain per operation point of
placing 1..n markers in a country, counted at :attr:`Evaluator.ESCALATION` where the other side
already holds its stability, so that points go to uncontested countries before an arms race) and values coups and realignments by their dice. The control
and region-tier rules are the engine's (``board.controls``, ``board.score_region``), restated
over plain influence lists because the engine's functions read a whole game state.
"""

from __future__ import annotations

from .data import ALL_BGS, BG, BONUS, DIFF, EUROPE_CONTROL, N, NEIGH, OWN_SPACE, REG, REGION_COUNTRIES, SCORING, STAB, US

#: region levels of rule 10.1 (presence, domination, control): indices + 1 into a SCORING row
PRESENCE, DOMINATION, CONTROL = 1, 2, 3


def ctrl(c: int, m: int, o: int) -> int:
    """1 if ``m`` markers against ``o`` control country ``c``, −1 if ``o`` against ``m`` do, else 0."""
    s = STAB[c]
    if m >= s and m - o >= s:
        return 1
    if o >= s and o - m >= s:
        return -1
    return 0


def region_level(t: int, b: int, ot: int, ob: int, all_bgs: int) -> int:
    """A side's level in a region scoring: it controls ``t`` countries, ``b`` of them
    battlegrounds, the other side ``ot`` / ``ob``; ``all_bgs`` battlegrounds in the region.
    0 (nothing), PRESENCE, DOMINATION or CONTROL."""
    if t > ot and b == all_bgs and all_bgs > 0:
        return CONTROL
    if t > ot and b > ob and b >= 1 and t - b >= 1:
        return DOMINATION
    return PRESENCE if t >= 1 else 0


def _side_score(r: int, t: int, b: int, bon: int, ot: int, ob: int) -> float:
    level = region_level(t, b, ot, ob, ALL_BGS[r])
    v = 0.0
    if level:
        v = SCORING[r][level - 1]
        if v is None:  # Europe control: a win, worth EUROPE_CONTROL inside the evaluation
            v = EUROPE_CONTROL
    return v + b + bon


class Evaluator:
    """The board value from our side. Boards are ``B = [mine, theirs]`` (influence lists, relative
    to us); ``cnt[r] = [t, b, bonus, ot, ob, obonus]`` are the control counts of region ``r``."""

    __slots__ = ("me", "wr", "cw", "marg", "_rs")

    #: the share of a placement's gain counted when choosing where our Operations go, in a
    #: country where the other side already holds at least its stability in markers: there each
    #: of our markers is matched by one of theirs (an arms race, issue 25 habit 3), so an
    #: uncontested country or region gains more for the same points
    ESCALATION = 0.5

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
            k = ctrl(c, mine[c], theirs[c])
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
        k0 = ctrl(c, m, o)
        k1 = ctrl(c, nm, no)
        if k0 != k1:
            r = REG[c]
            row = cnt[r]
            d += self.rscore(r, self._moved(row, c, k0, k1)) - self.rscore(r, row)
        return d

    def apply(self, B: list[list[int]], cnt: list[list[int]], c: int, nm: int, no: int) -> None:
        k0 = ctrl(c, B[0][c], B[1][c])
        k1 = ctrl(c, nm, no)
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
        share = self.ESCALATION if (x == 0 and sign > 0 and opcost and theirs >= st) else 1.0
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
            d = self.delta(B, cnt, c, mine, theirs) * share
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
            before = ctrl(c, B[0][c], B[1][c])
            d = self.delta(B, cnt, c, m, o)
            self.apply(B, cnt, c, m, o)
            total += d if benef == 0 else -d
            seq.append(c)
            used[c] = used.get(c, 0) + 1
            budget -= cost
            if ctrl(c, m, o) != before:
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
            if ctrl(n, mine[n], theirs[n]) > 0:
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

