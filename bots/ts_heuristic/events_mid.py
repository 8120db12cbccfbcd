"""``ts-heuristic``'s models of the Mid War events (cards #36-81, #107 and #108): one short
function per card, carried out greedily on a :class:`~.simulation.Sim` for side ``s`` (0 us, 1
them), influence placed and removed by the evaluator's packages, VP and wars by their odds,
lasting effects by fixed estimates; Summit by the regions each side dominates and the dice.
``MID_EVENTS`` maps card numbers to the models; :mod:`.events` gathers the three periods.
"""

from __future__ import annotations

from .data import (
    AFRICA,
    AFRICA_SEA,
    ALL_BGS,
    ASIA,
    BG,
    CENTRAL_AMERICA,
    DIFF,
    EUROPE_SET,
    LATAM,
    N,
    OUTSIDE_EUROPE,
    REGION_COUNTRIES,
    STAB,
    US,
    USSR,
)
from .data import country_index as _c
from .evaluation import ctrl
from .simulation import EventModel, Sim, adds, fixed, ops_bonus_turn, remove_all_best, scoring_event


def _brush_war(sim, s):
    x = sim.x
    best = None
    for c in range(N):
        if STAB[c] > 2 or sim.B[1 - s][c] <= 0:
            continue
        if x.abs(s) == USSR and "nato" in x.effects and c in EUROPE_SET and \
                ctrl(c, sim.B[1 - s][c], sim.B[s][c]) > 0:
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


def _regions_dominated(B, s: int) -> int:
    count = 0
    for r in range(6):
        places = REGION_COUNTRIES[r]
        mine = [c for c in places if ctrl(c, B[s][c], B[1 - s][c]) > 0]
        theirs = sum(1 for c in places if ctrl(c, B[1 - s][c], B[s][c]) > 0)
        if len(mine) <= theirs:
            continue
        bgs = sum(1 for c in mine if BG[c])
        their_bgs = sum(1 for c in places if BG[c] and ctrl(c, B[1 - s][c], B[s][c]) > 0)
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


def _how_i_learned(sim, s):
    sim.milops(s, 5)
    sim.bonus(s, 0.4)


def _junta(sim, s):
    sim.best_country(s, LATAM, lambda t, c: t.add(s, c, 2))
    sim.bonus(s, 0.4)


def _wwby(sim, s):
    sim.vp(s, 2.7)


def _brezhnev(sim, s):
    ops_bonus_turn(sim, s)


def _portuguese(sim, s):
    sim.add(s, _c("se_african_states"), 2)
    sim.add(s, _c("angola"), 2)


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
    remove_all_best(sim, s, [_c(n) for n in names], 2)


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
    sim.vp(s, sum(1 for n in names if ctrl(_c(n), sim.B[s][_c(n)], sim.B[1 - s][_c(n)]) > 0))


def _colonial(sim, s):
    sim.place(s, 4, AFRICA_SEA, max_per=1)


def _camp_david(sim, s):
    sim.vp(s, 1)
    for n in ("israel", "jordan", "egypt"):
        sim.add(s, _c(n), 1)


def _puppet(sim, s):
    empty = [c for c in range(N) if sim.B[0][c] == 0 and sim.B[1][c] == 0]
    sim.place(s, 3, empty, max_per=1, optional=True)


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
        if x.turn >= 10:  # the final scoring's China Card VP changes hands: a 2 VP swing
            sim.vp(s, 2)
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
    sim.vp(us, sum(1 for c in LATAM if BG[c] and ctrl(c, sim.B[us][c], sim.B[1 - us][c]) > 0))


def _one_small_step(sim, s):
    sim.space_advance(s, 2)


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


MID_EVENTS: dict[int, EventModel] = {
    36: _brush_war,  # Brush War
    37: scoring_event(37),  # Central America Scoring
    38: scoring_event(38),  # Southeast Asia Scoring
    39: _arms_race,  # Arms Race
    40: fixed(0.7),  # Cuban Missile Crisis
    41: fixed(0.4),  # Nuclear Subs
    42: _trap,  # Quagmire
    43: fixed(1.2),  # SALT Negotiations
    44: _trap,  # Bear Trap
    45: _summit,  # Summit
    46: _how_i_learned,  # How I Learned to Stop Worrying
    47: _junta,  # Junta
    48: fixed(2.0),  # Kitchen Debates
    49: fixed(0.8),  # Missile Envy
    50: _wwby,  # "We Will Bury You"
    51: _brezhnev,  # Brezhnev Doctrine
    52: _portuguese,  # Portuguese Empire Crumbles
    53: _sa_unrest,  # South African Unrest
    54: adds(("chile", 2)),  # Allende
    55: _brandt,  # Willy Brandt
    56: _muslim,  # Muslim Revolution
    57: _abm,  # ABM Treaty
    58: _cultural,  # Cultural Revolution
    59: fixed(1.0),  # Flower Power
    60: fixed(1.0),  # U2 Incident
    61: _opec,  # OPEC
    62: fixed(0.6),  # "Lone Gunman"
    63: _colonial,  # Colonial Rear Guards
    64: adds(("panama", 1), ("costa_rica", 1), ("venezuela", 1)),  # Panama Canal Returned
    65: _camp_david,  # Camp David Accords
    66: _puppet,  # Puppet Governments
    67: fixed(1.0),  # Grain Sales to Soviets
    68: _jp2,  # John Paul II Elected Pope
    69: fixed(0.3),  # Latin American Death Squads
    70: _oas,  # OAS Founded
    71: _nixon,  # Nixon Plays the China Card
    72: _sadat,  # Sadat Expels Soviets
    73: fixed(1.2),  # Shuttle Diplomacy
    74: _voa,  # The Voice of America
    75: _liberation,  # Liberation Theology
    76: _ussuri,  # Ussuri River Skirmish
    77: fixed(1.0),  # "Ask Not What Your Country Can Do For You"
    78: _alliance,  # Alliance for Progress
    79: scoring_event(79),  # Africa Scoring
    80: _one_small_step,  # "One Small Step..."
    81: scoring_event(81),  # South America Scoring
    107: _che,  # Che
    108: fixed(0.6),  # Our Man in Tehran
}
