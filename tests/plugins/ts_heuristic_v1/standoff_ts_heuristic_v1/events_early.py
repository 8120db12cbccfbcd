"""``ts-heuristic``'s models of the Early War events (cards #1-35 and #103-106): one short
function per card, carried out greedily on a :class:`~.simulation.Sim` for side ``s`` (0 us, 1
them), influence placed and removed by the evaluator's packages, VP and wars by their odds,
lasting effects by fixed estimates. ``EARLY_EVENTS`` maps card numbers to the models;
:mod:`.events` gathers the three periods.
"""

from __future__ import annotations

from .data import AFRICA_SEA, EE, EUROPE_SET, N, NEIGH, SCORING_CARDS, US, WE
from .data import country_index as _c
from .evaluation import ctrl
from .simulation import EventModel, Sim, best_war, fixed, ops_bonus_turn, remove_all_best, scoring_event, set_control


def _duck(sim, s):
    us = sim.x.rel(US)
    sim.vp(us, 5 - (sim.x.defcon - 1))


def _socialist(sim, s):
    sim.remove(s, 1 - s, 3, WE, max_per=2)


def _vietnam(sim, s):
    sim.add(s, _c("vietnam"), 2)
    sim.bonus(s, 0.4)


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
    extra = 1 if ctrl(c, sim.B[1 - s][c], sim.B[s][c]) > 0 else 0
    sim.war(s, c, extra_mod=extra)


def _comecon(sim, s):
    allowed = [c for c in EE if ctrl(c, sim.B[1 - s][c], sim.B[s][c]) <= 0]
    sim.place(s, 4, allowed, max_per=1)


def _nasser(sim, s):
    e = _c("egypt")
    sim.add(s, e, 2)
    sim.setinf(1 - s, e, sim.B[1 - s][e] // 2)


def _warsaw(sim, s):
    a = Sim(sim.x)
    a.B, a.cnt = [sim.B[0][:], sim.B[1][:]], [r[:] for r in sim.cnt]
    remove_all_best(a, s, EE, 4)
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


def _captured_nazi_scientist(sim, s):
    sim.space_advance(s, 1)


def _truman(sim, s):
    options = [c for c in EUROPE_SET if sim.B[1 - s][c] > 0 and ctrl(c, sim.B[0][c], sim.B[1][c]) == 0]
    sim.best_country(s, options, lambda t, c: t.setinf(1 - s, c, 0))


def _independent_reds(sim, s):
    options = [_c(n) for n in ("yugoslavia", "romania", "bulgaria", "hungary", "czechoslovakia")]
    options = [c for c in options if sim.B[1 - s][c] > sim.B[s][c]]
    sim.best_country(s, options, lambda t, c: t.setinf(s, c, t.B[1 - s][c]))


def _marshall(sim, s):
    allowed = [c for c in WE if ctrl(c, sim.B[1 - s][c], sim.B[s][c]) <= 0]
    sim.place(s, 7, allowed, max_per=1)
    sim.bonus(s, 0.3)


def _indo_pak(sim, s):
    best_war(sim, s, ("india", "pakistan"))


def _containment(sim, s):
    ops_bonus_turn(sim, s)


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


def _red_scare(sim, s):
    sim.bonus(s, 0.5 * sim.x.rounds_left(1 - s))


def _de_stalinization(sim, s):
    before = sum(sim.B[s])
    own = [c for c in range(N) if sim.B[s][c] > 0]
    sim.remove(s, s, 4, own, optional=True, floor=-0.35)
    moved = before - sum(sim.B[s])
    if moved:
        allowed = [c for c in range(N) if ctrl(c, sim.B[1 - s][c], sim.B[s][c]) <= 0]
        sim.place(s, moved, allowed, max_per=2)


def _test_ban(sim, s):
    sim.vp(s, max(0, sim.x.defcon - 2))


def _formosan(sim, s):
    t = _c("taiwan")
    us = sim.x.rel(US)
    sim.bonus(s, 0.6 if ctrl(t, sim.B[us][t], sim.B[1 - us][t]) > 0 else 0.25)


def _special_relationship(sim, s):
    uk = _c("uk")
    us = sim.x.rel(US)
    if ctrl(uk, sim.B[us][uk], sim.B[1 - us][uk]) <= 0:
        return
    if "nato" in sim.x.effects:
        sim.vp(s, 2)
        sim.best_country(s, WE, lambda t, c: t.add(s, c, 2))
    else:
        sim.place(s, 1, NEIGH[uk])


def _norad(sim, s):
    c = _c("canada")
    us = sim.x.rel(US)
    sim.bonus(s, 0.8 if ctrl(c, sim.B[us][c], sim.B[1 - us][c]) > 0 else 0.3)


EARLY_EVENTS: dict[int, EventModel] = {
    1: scoring_event(1),  # Asia Scoring
    2: scoring_event(2),  # Europe Scoring
    3: scoring_event(3),  # Middle East Scoring
    4: _duck,  # Duck and Cover
    5: fixed(1.0),  # Five Year Plan
    6: fixed(0.0),  # The China Card
    7: _socialist,  # Socialist Governments
    8: set_control("cuba"),  # Fidel
    9: _vietnam,  # Vietnam Revolts
    10: _blockade,  # Blockade
    11: _korean,  # Korean War
    12: set_control("romania"),  # Romanian Abdication
    13: _arab_israeli,  # Arab-Israeli War
    14: _comecon,  # COMECON
    15: _nasser,  # Nasser
    16: _warsaw,  # Warsaw Pact Formed
    17: _de_gaulle,  # De Gaulle Leads France
    18: _captured_nazi_scientist,  # Captured Nazi Scientist
    19: _truman,  # Truman Doctrine
    20: fixed(1.2),  # Olympic Games
    21: fixed(1.2),  # NATO
    22: _independent_reds,  # Independent Reds
    23: _marshall,  # Marshall Plan
    24: _indo_pak,  # Indo-Pakistani War
    25: _containment,  # Containment
    26: fixed(0.6),  # CIA Created
    27: _japan,  # US/Japan Mutual Defense Pact
    28: _suez,  # Suez Crisis
    29: _eeu,  # East European Unrest
    30: _decolonization,  # Decolonization
    31: _red_scare,  # Red Scare/Purge
    32: fixed(0.0),  # UN Intervention
    33: _de_stalinization,  # De-Stalinization
    34: _test_ban,  # Nuclear Test Ban
    35: _formosan,  # Formosan Resolution
    103: fixed(0.0),  # Defectors
    104: fixed(0.3),  # The Cambridge Five
    105: _special_relationship,  # Special Relationship
    106: _norad,  # NORAD
}
