"""The scratch board of ``ts-heuristic``'s event models: a :class:`Sim` copies the decision's
board and carries an event out greedily for one side (placements and removals by the
evaluator's packages, a country chosen by its best result, wars by their odds, space race
boxes by the engine's table), ``value`` accumulating the change of evaluation plus VP from our
side. Below it, the building blocks the per-card models share (:mod:`.events_early`,
:mod:`.events_mid`, :mod:`.events_late`): a scoring card, a fixed estimate, fixed influence, a
country taken over, "remove all of the enemy's influence" picks, the best of several wars, and
the turn-long +1 Ops of Containment / Brezhnev Doctrine.
"""

from __future__ import annotations

from collections.abc import Callable

from .context import Ctx
from .data import NEIGH, OWN_SPACE, SPACE, SPACE_ABILITY, STAB
from .data import country_index as _c
from .evaluation import ctrl

#: an event model: carry out a card's event on the scratch board for side ``s`` (0 us, 1 them)
EventModel = Callable[["Sim", int], None]


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
        n = sum(1 for x in NEIGH[c] if ctrl(x, self.B[o][x], self.B[s][x]) > 0)
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



# --- building blocks of the event models ---------------------------------------------------------


def scoring_event(card: int) -> EventModel:
    """A scoring card: our net VP if it scored on the simulated board."""
    def fn(sim: Sim, s: int) -> None:
        sim.value += sim.x.score_net(card, sim.B)
    return fn


def fixed(v: float) -> EventModel:
    """A fixed estimate of what the event is worth to the side carrying it out."""
    def fn(sim: Sim, s: int) -> None:
        sim.bonus(s, v)
    return fn


def adds(*pairs) -> EventModel:
    """Fixed influence: ``(country id, markers)`` pairs for the side carrying it out."""
    def fn(sim: Sim, s: int) -> None:
        for name, n in pairs:
            sim.add(s, _c(name), n)
    return fn


def set_control(name: str) -> EventModel:
    """The enemy's influence in ``name`` removed, then just enough of ours to control it."""
    c = _c(name)

    def fn(sim: Sim, s: int) -> None:
        sim.setinf(1 - s, c, 0)
        sim.to_control(s, c)
    return fn


def remove_all_best(sim, s, cands, picks):
    """``picks`` times, all of the enemy's influence removed from the best of ``cands``."""
    for _ in range(picks):
        options = [c for c in cands if sim.B[1 - s][c] > 0]
        if not options:
            return
        sim.best_country(s, options, lambda t, c: t.setinf(1 - s, c, 0))


def best_war(sim, s, names, at_least=4, vp=2, milops=2):
    """The better of the wars in countries ``names``, then its military operations."""
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


def ops_bonus_turn(sim, s):
    """+1 Ops for the rest of the turn (Containment, Brezhnev Doctrine): the rounds left."""
    sim.bonus(s, 0.45 * max(0, sim.x.rounds_left(s) - (1 if s == sim.x.phasing and sim.x.ar else 0)))
