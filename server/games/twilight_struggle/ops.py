"""Operations: influence placement, realignment rolls, coups and the space race (map.md §5, §7).

Ops values and their modifiers (cards.md §6): printed value → the bonuses of lasting effects
(hooks.OPS_BONUSES: Containment / Brezhnev +1, not above 4) → their penalties (hooks.OPS_PENALTIES:
Red Scare/Purge −1, not below 1) → The China Card's +1 when every point goes to Asia → a +1 when
every point goes to Southeast Asia (hooks.SOUTHEAST_ASIA_BONUSES: Vietnam Revolts, USSR). The two
conditional bonuses are tracked while the points are spent: a point spent outside Asia (or
Southeast Asia) forfeits the bonus that needed it.

Every other lasting effect acting on operations comes through :mod:`.hooks` as well: countries
barred to placement (Chernobyl), shielded from coups and realignments (NATO, US/Japan Pact) or
from coups (The Reformer), realignment and coup modifiers (Iran-Contra; SALT, Death Squads), a
last question before a coup's die and a coup that loses the game (Cuban Missile Crisis), what
follows a coup (Yuri and Samantha) and a battleground coup that leaves DEFCON alone (Nuclear Subs).
"""

from __future__ import annotations

from itertools import compress

from ...core.flow import log
from ...core.game import CHANCE, Option, make_decision
from . import board as B
from . import card_data as CD
from . import hooks as H
from . import map_data as M
from .common import CHINA, COUNTRY_OPTIONS, DIE_OPTIONS, DONE, TSStep, country_options, role, space_ability
from .state import NOBODY, US, USSR, TSState, other

N = len(M.COUNTRIES)
EUROPE = frozenset(M.REGION_COUNTRIES[M.EUROPE])
MIDDLE_EAST = frozenset(M.REGION_COUNTRIES[M.MIDDLE_EAST])
ASIA = B.ASIA
SOUTHEAST_ASIA = B.SOUTHEAST_ASIA
OWN_SPACE = {
    US: frozenset(M.INDEX[c] for c in M.SUPERPOWER_NEIGHBOURS["us"]),
    USSR: frozenset(M.INDEX[c] for c in M.SUPERPOWER_NEIGHBOURS["ussr"]),
}

#: Space race boxes 1..8: (ops needed, highest succeeding roll, VP first, VP second)
SPACE = {
    1: (2, 3, 2, 1), 2: (2, 4, 0, 0), 3: (2, 3, 2, 0), 4: (2, 4, 0, 0),
    5: (3, 3, 3, 1), 6: (3, 4, 0, 0), 7: (3, 3, 4, 2), 8: (4, 2, 2, 0),
}


def ops_value(state: TSState, side: int, card: int) -> int:
    """The card's Operations for ``side`` with the lasting modifiers (not the Asia bonuses)."""
    value = 4 if card == CHINA else CD.CARD_BY_NUMBER[card].ops
    for bonus in H.OPS_BONUSES:
        value = bonus(state, side, card, value)
    for penalty in H.OPS_PENALTIES:
        value = penalty(state, side, card, value)
    return value


def _bonuses(state: TSState, side: int, card: int) -> tuple[bool, bool]:
    """(China Card Asia bonus, Southeast Asia bonus) available for this play."""
    for bonus in H.SOUTHEAST_ASIA_BONUSES:
        if bonus(state, side, card):
            return card == CHINA, True
    return card == CHINA, False


# -- legality ------------------------------------------------------------------------------------


def defcon_allows(state: TSState, country: int) -> bool:
    """DEFCON's geographic ban on coups and realignments (map.md §8)."""
    return _defcon_open(state.defcon)[country]


def _open_at(defcon: int) -> tuple[bool, ...]:
    def allowed(country: int) -> bool:
        if defcon <= 4 and country in EUROPE:
            return False
        if defcon <= 3 and country in ASIA:
            return False
        return not (defcon <= 2 and country in MIDDLE_EAST)

    return tuple(allowed(c) for c in range(N))


#: DEFCON level → per country, whether its geography allows coups and realignments there: the
#: target lists are built at every card played, the table once.
_DEFCON_OPEN: dict[int, tuple[bool, ...]] = {d: _open_at(d) for d in range(-1, 6)}
_ALL_OPEN = (True,) * N
_COUNTRY_RANGE = range(N)
#: per side, 1 for the countries next to its own superpower space (placement_eligible's start)
_OWN_SPACE_MARKS = {side: bytes(c in OWN_SPACE[side] for c in _COUNTRY_RANGE) for side in (US, USSR)}


def _defcon_open(defcon: int) -> tuple[bool, ...]:
    found = _DEFCON_OPEN.get(defcon)
    return found if found is not None else _open_at(defcon)


def _union(bars, state: TSState, side: int) -> set[int]:
    found: set[int] = set()
    for bar in bars:
        found.update(bar(state, side))
    return found


def shielded(state: TSState, side: int) -> set[int]:
    """Countries lasting events put off limits to ``side``'s coups and realignments
    (hooks.PROTECTIONS)."""
    return _union(H.PROTECTIONS, state, side)


def protected(state: TSState, side: int, country: int) -> bool:
    return country in shielded(state, side)


def _targets(state: TSState, side: int, barred: set[int], free: bool, among) -> list[int]:
    """Countries with ``side``'s enemy's influence, not ``barred`` and, unless ``free``, open
    under DEFCON; among ``among`` (in its order), or all in map order."""
    enemy = state.inf[1 - side]
    open_ = _ALL_OPEN if free else _defcon_open(state.defcon)
    if among is None:  # compress: only the countries holding some (a few dozen of 84)
        return [c for c in compress(_COUNTRY_RANGE, enemy) if enemy[c] > 0 and open_[c] and c not in barred]
    return [c for c in among if enemy[c] > 0 and c not in barred and open_[c]]


def coup_targets(state: TSState, side: int, free: bool = False, among=None) -> list[int]:
    """Countries ``side`` may coup: enemy influence, not shielded nor barred to coups
    (hooks.COUP_BARS), and (unless ``free``) allowed by DEFCON."""
    return _targets(state, side, shielded(state, side) | _union(H.COUP_BARS, state, side), free, among)


def realign_targets(state: TSState, side: int, free: bool = False, among=None) -> list[int]:
    return _targets(state, side, shielded(state, side), free, among)


def operation_uses(state: TSState, side: int) -> tuple[bool, bool]:
    """(some realignment target, some coup target) for ``side``'s Operations, the same as
    ``bool(realign_targets(...)), bool(coup_targets(...))``: every coup target is a realignment
    target (COUP_BARS only bar more), so no realignment target means no coup either."""
    enemy = state.inf[1 - side]
    open_ = _defcon_open(state.defcon)
    shield = shielded(state, side)
    coup_barred = None
    realign = False
    for c in compress(_COUNTRY_RANGE, enemy):
        if enemy[c] > 0 and open_[c] and c not in shield:
            realign = True
            if coup_barred is None:
                coup_barred = _union(H.COUP_BARS, state, side)
            if c not in coup_barred:
                return True, True
    return realign, False


def space_allowed(state: TSState, side: int, value: int) -> bool:
    box = state.space[side] + 1
    if box > 8:
        return False
    attempts = 2 if space_ability(state, 2) == side else 1
    return state.space_attempts[side] < attempts and value >= SPACE[box][0]


def placement_eligible(state: TSState, side: int) -> tuple[int, ...]:
    """Countries where ``side`` may place influence by operations this action round: those it
    has influence in, their neighbours, and the neighbours of its own superpower space."""
    mine = state.inf[side]
    # one mark per country, read back in map order (the sorted countries, without a sort)
    marks = bytearray(_OWN_SPACE_MARKS[side])
    neighbours = M.NEIGHBOURS
    for c in compress(_COUNTRY_RANGE, mine):  # only the countries holding some
        if mine[c] > 0:
            marks[c] = 1
            for n in neighbours[c]:
                marks[n] = 1
    return tuple(compress(_COUNTRY_RANGE, marks))


# -- pushing an operation ------------------------------------------------------------------------


def push_operations(state: TSState, side: int, card: int, kind: str, value: int | None = None,
                    free: bool = False, among: tuple[int, ...] | None = None) -> None:
    """Push the frames that spend ``card``'s ops on ``kind`` (influence / realign / coup).
    ``value`` overrides the card's ops (events granting N Operations); ``free`` marks event
    coups/realignments (no DEFCON geography, no military ops); ``among`` limits their targets
    (e.g. Junta: Central and South America)."""
    if card:
        for hook in H.OPERATIONS_HOOKS:
            hook(state, side, card, kind)
    if value is None:
        value = ops_value(state, side, card)
        china, vietnam = _bonuses(state, side, card)
    else:
        china, vietnam = False, False
    left = value + china + vietnam
    if kind == "influence":
        state.stack.append(("influence", side, left, china, vietnam, placement_eligible(state, side)))
    elif kind == "realign":
        state.stack.append(("realign", side, left, china, vietnam, free, among))
    else:
        state.stack.append(("coup", side, value, china, vietnam, free, card, among))


def push_space(state: TSState, side: int, card: int) -> None:
    state.space_attempts[side] += 1
    state.stack.append(("space_roll", side))


def _usable(left: int, asia_bonus: bool, sea_bonus: bool, country: int) -> int:
    """Points usable in ``country``: a bonus that needs Asia (Southeast Asia) is not usable
    outside it."""
    usable = left
    if asia_bonus and country not in ASIA:
        usable -= 1
    if sea_bonus and country not in SOUTHEAST_ASIA:
        usable -= 1
    return usable


def _spend(left: int, asia_bonus: bool, sea_bonus: bool, country: int, cost: int) -> tuple[int, bool, bool]:
    if asia_bonus and country not in ASIA:
        left, asia_bonus = left - 1, False
    if sea_bonus and country not in SOUTHEAST_ASIA:
        left, sea_bonus = left - 1, False
    return left - cost, asia_bonus, sea_bonus


def influence_cost(state: TSState, side: int, country: int) -> int:
    return 2 if B.controls(state, other(side), country) else 1


#: The Chinese Civil War space (variant): adjacent only to the USSR space, outside every region.
CIVIL_WAR = -1
CIVIL_WAR_OPTION = Option("country:chinese_civil_war", "Chinese Civil War", CIVIL_WAR)


def civil_war_open(state: TSState, side: int) -> bool:
    return side == USSR and state.rules.chinese_civil_war and state.china == NOBODY


class Influence(TSStep):
    """Place influence one marker per decision; the cost (2 in enemy-controlled countries) is
    taken at each placement, so it falls as soon as control changes. In the Chinese Civil War
    variant the USSR may also place in the Civil War space; its 3rd marker claims The China
    Card face up (map.md §13)."""

    name = "influence"

    def run(self, game, state, frame):
        _, side, left, asia, sea, eligible = frame
        barred = _union(H.PLACEMENT_BARS, state, side)
        # influence_cost(c) <= _usable(c), inlined: 2 where the enemy controls c, else 1
        enemy, mine = state.inf[1 - side], state.inf[side]
        stability = B.STABILITY
        if not asia and not sea:
            if left >= 2:
                options = [COUNTRY_OPTIONS[c] for c in eligible if c not in barred]
            elif left == 1:
                options = [
                    COUNTRY_OPTIONS[c] for c in eligible
                    if c not in barred and not (enemy[c] >= stability[c] and enemy[c] - mine[c] >= stability[c])
                ]
            else:
                options = []
        else:
            options = []
            for c in eligible:
                if c in barred:
                    continue
                usable = left
                if asia and c not in ASIA:
                    usable -= 1
                if sea and c not in SOUTHEAST_ASIA:
                    usable -= 1
                if usable >= 2 or (usable == 1 and not (enemy[c] >= stability[c]
                                                        and enemy[c] - mine[c] >= stability[c])):
                    options.append(COUNTRY_OPTIONS[c])
        if civil_war_open(state, side) and _usable(left, asia, sea, CIVIL_WAR) >= 1:
            options.append(CIVIL_WAR_OPTION)
        if not options:
            state.stack.pop()
            return None
        return make_decision(role(state, side), "influence", f"place influence ({left} ops left)", tuple(options))

    def choose(self, game, state, frame, option):
        _, side, left, asia, sea, eligible = frame
        c = option.value
        if c == CIVIL_WAR:
            left, asia, sea = _spend(left, asia, sea, c, 1)
            state.ccw += 1
            if state.ccw >= 3:
                state.china, state.china_face_up = USSR, True
                log(state, role(state, side), "china_card_claimed", "card:the_china_card")
        else:
            left, asia, sea = _spend(left, asia, sea, c, influence_cost(state, side, c))
            state.inf[side][c] += 1
        state.stack[-1] = ("influence", side, left, asia, sea, eligible)


class Realign(TSStep):
    """Realignment rolls, one op each, one target at a time (or ``done``)."""

    name = "realign"

    def run(self, game, state, frame):
        _, side, left, asia, sea, free, among = frame
        targets = realign_targets(state, side, free=free, among=among)
        if asia or sea or left < 1:
            targets = [c for c in targets if _usable(left, asia, sea, c) >= 1]
        if not targets:
            state.stack.pop()
            return None
        options = country_options(targets) + (DONE,)
        return make_decision(role(state, side), "realign", f"realignment target ({left} ops left)", options)

    def choose(self, game, state, frame, option):
        _, side, left, asia, sea, free, among = frame
        if option.value is None:
            state.stack.pop()
            return
        c = option.value
        left, asia, sea = _spend(left, asia, sea, c, 1)
        state.stack[-1] = ("realign", side, left, asia, sea, free, among)
        state.stack.append(("realign_roll", side, c, 0))


def realign_modifier(state: TSState, side: int, country: int) -> int:
    mine, theirs = state.inf[side], state.inf[1 - side]
    stability = B.STABILITY
    mod = 0
    for n in M.NEIGHBOURS[country]:  # B.controls(state, side, n), inlined
        if mine[n] >= stability[n] and mine[n] - theirs[n] >= stability[n]:
            mod += 1
    if mine[country] > theirs[country]:
        mod += 1
    if country in OWN_SPACE[side]:
        mod += 1
    for modifier in H.REALIGN_MODIFIERS:
        mod += modifier(state, side, country)
    return mod


class RealignRoll(TSStep):
    """Two chance dice: the realigning side's, then the other's."""

    name = "realign_roll"

    def run(self, game, state, frame):
        # every die names who rolls it and why (the decision's prompt: replays, reports)
        _, side, c, first = frame
        roller = side if not first else other(side)
        return make_decision(CHANCE, "die", f"die of {role(state, roller)}: realignment in {M.COUNTRIES[c].id} "
                             f"by {role(state, side)}", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, side, c, first = frame
        if not first:
            state.stack[-1] = ("realign_roll", side, c, option.value)
            return
        state.stack.pop()
        mine = first + realign_modifier(state, side, c)
        theirs = option.value + realign_modifier(state, other(side), c)
        if mine > theirs:
            loser = other(side)
        elif theirs > mine:
            loser = side
        else:
            return
        state.inf[loser][c] = max(0, state.inf[loser][c] - abs(mine - theirs))


class Coup(TSStep):
    """Choose the coup target (must hold enemy influence)."""

    name = "coup"

    def run(self, game, state, frame):
        _, side, value, china, vietnam, free, card, among = frame
        targets = coup_targets(state, side, free=free, among=among)
        if not targets:
            state.stack.pop()
            return None
        return make_decision(role(state, side), "coup", f"coup target ({value} ops)", country_options(targets))

    def choose(self, game, state, frame, option):
        _, side, value, china, vietnam, free, card, among = frame
        c = option.value
        ops = value + (china and c in ASIA) + (vietnam and c in SOUTHEAST_ASIA)
        state.stack.pop()
        push_coup_roll(state, side, c, ops, free)


def push_coup_roll(state: TSState, side: int, country: int, ops: int, free: bool) -> None:
    """Push the die of ``side``'s chosen coup in ``country`` (every coup comes here: Operations,
    an event's free coup, Che's); what hooks.BEFORE_COUP_HOOKS push runs before the die (the
    Cuban Missile Crisis: the restricted side's last moment to cancel, cards.md #40)."""
    state.stack.append(("coup_roll", side, country, ops, free))
    for hook in H.BEFORE_COUP_HOOKS:
        hook(state, side, country)


def resolve_coup(state: TSState, side: int, country: int, ops: int, roll: int, free: bool) -> None:
    """Coup arithmetic, military ops credit and DEFCON (map.md §5), with the lasting effects'
    hooks: COUP_HOOKS first (a coup that ends the game), COUP_MODIFIERS, AFTER_COUP_HOOKS once
    the military ops are credited, DEFCON_EXEMPTIONS before a battleground lowers DEFCON."""
    for hook in H.COUP_HOOKS:
        if hook(state, side, country):
            return
    modifier = 0
    for extra in H.COUP_MODIFIERS:
        modifier += extra(state, side, country)
    result = roll + ops + modifier - 2 * B.STABILITY[country]
    enemy = other(side)
    if result > 0:
        removed = min(result, state.inf[enemy][country])
        state.inf[enemy][country] -= removed
        state.inf[side][country] += result - removed
    log(state, role(state, side), "coup_result", f"country:{M.COUNTRIES[country].id}:{max(result, 0)}")
    if not free:
        state.milops[side] = min(5, state.milops[side] + ops)
    for hook in H.AFTER_COUP_HOOKS:
        hook(state, side, country)
    if B.BATTLEGROUND[country]:
        for exempt in H.DEFCON_EXEMPTIONS:  # (a loop, not a generator: ops.pxd makes this a C function)
            if exempt(state, side, country):
                return
        B.degrade_defcon(state)


class CoupRoll(TSStep):
    name = "coup_roll"

    def run(self, game, state, frame):
        _, side, c, ops, free = frame
        return make_decision(CHANCE, "die", f"die of {role(state, side)}: coup in {M.COUNTRIES[c].id} ({ops} ops"
                             f"{', free' if free else ''})", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, side, c, ops, free = frame
        state.stack.pop()
        resolve_coup(state, side, c, ops, option.value, free=free)


def advance_space(state: TSState, side: int) -> None:
    """Move ``side`` one box up the space race, with the VP of arrival."""
    box = state.space[side] + 1
    if box > 8:
        return
    state.space[side] = box
    _, _, first, second = SPACE[box]
    vp = first if state.space[other(side)] < box else second
    B.add_vp(state, side, vp)


class SpaceRoll(TSStep):
    name = "space_roll"

    def run(self, game, state, frame):
        side = frame[1]
        return make_decision(CHANCE, "die", f"die of {role(state, side)}: space race to box {state.space[side] + 1}",
                             DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        side = frame[1]
        state.stack.pop()
        box = state.space[side] + 1
        if option.value <= SPACE[box][1]:
            advance_space(state, side)
            log(state, role(state, side), "space_race", f"box:{state.space[side]}")

