"""``ts-heuristic``'s models of the Late War events (cards #82-102, #109 and #110): one short
function per card, carried out greedily on a :class:`~.simulation.Sim` for side ``s`` (0 us, 1
them), influence placed and removed by the evaluator's packages, VP and wars by their odds,
lasting effects by fixed estimates. ``LATE_EVENTS`` maps card numbers to the models;
:mod:`.events` gathers the three periods.
"""

from __future__ import annotations

from .data import EUROPE, MIDDLE_EAST, REGION_COUNTRIES, USSR, WE, WIN
from .data import country_index as _c
from .evaluation import ctrl
from .simulation import EventModel, adds, best_war, fixed


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
    if ctrl(sk, sim.B[s][sk], sim.B[1 - s][sk]) > 0:
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
        sim.bonus(s, 2.5)  # each war card the US still plays would cost it 2 VP


def _pershing(sim, s):
    sim.vp(s, 1)
    sim.remove(s, 1 - s, 3, WE, max_per=1)


def _wargames(sim, s):
    lead = sim.x.lead if s == 0 else -sim.x.lead
    final = lead - 6
    sim.bonus(s, WIN if final > 0 else (-WIN if final < 0 else 0.0))


def _iran_iraq(sim, s):
    best_war(sim, s, ("iran", "iraq"))


def _awacs(sim, s):
    sim.add(s, _c("saudi_arabia"), 2)
    sim.bonus(s, 0.2)


LATE_EVENTS: dict[int, EventModel] = {
    82: _hostage,  # Iranian Hostage Crisis
    83: _iron_lady,  # The Iron Lady
    84: _reagan,  # Reagan Bombs Libya
    85: fixed(1.2),  # Star Wars
    86: fixed(1.2),  # North Sea Oil
    87: _reformer,  # The Reformer
    88: _barracks,  # Marine Barracks Bombing
    89: _kal,  # Soviets Shoot Down KAL-007
    90: _glasnost,  # Glasnost
    91: _ortega,  # Ortega Elected in Nicaragua
    92: _terrorism,  # Terrorism
    93: fixed(0.3),  # Iran-Contra Scandal
    94: fixed(0.8),  # Chernobyl
    95: fixed(1.0),  # Latin American Debt Crisis
    96: _tdtw,  # "Tear Down This Wall"
    97: _evil_empire,  # "An Evil Empire"
    98: fixed(1.5),  # Aldrich Ames Remix
    99: _pershing,  # Pershing II Deployed
    100: _wargames,  # Wargames
    101: adds(("poland", 3)),  # Solidarity
    102: _iran_iraq,  # Iran-Iraq War
    109: fixed(0.3),  # Yuri and Samantha
    110: _awacs,  # AWACS Sale to Saudis
}
