"""Build Schotten Totten / Battle Line positions for scenario tests.

``position(...)`` returns a consistent :class:`STState` sitting at a real turn step: every card is
in exactly one place (a hand, a flag, a discard pile, a deck, or beside a flag as Fog/Mud), the
table mask holds every troop on a flag or in a discard, ``placed`` times follow the order the cards
are given in, and the stack holds the frames ``Turn.run`` pushes for the chosen claim timing.

Names are the engine's card names (``red-5``, ``alexander``...), roles are the ruleset's
(``"p1"``/``"p2"``, and ``"p3"`` in ``three_player``) and flags are numbered 1..9 as in option keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from standoff.server.games.schotten_totten import SchottenTotten, STState, make_rules
from standoff.server.games.schotten_totten import cards as C
from standoff.server.games.schotten_totten.state import NO_ONE, TACTICS_DECK, TROOPS

GAME = SchottenTotten()
ROLES = ("p1", "p2")


def card(name: str) -> int:
    return C.card_from_name(name)


def names(cards: Iterable[int]) -> list[str]:
    return [C.card_name(c) for c in cards]


def role_index(role: str) -> int:
    return ROLES.index(role)


def turn_frames(timing: str) -> list[tuple]:
    """The frames ``Turn.run`` leaves on the stack (bottom first) for ``timing``."""
    frames: list[tuple] = [("end_turn",)]
    if timing == "end_of_turn":
        frames.append(("claim",))
    frames.append(("draw",))
    if timing == "after_play":
        frames.append(("claim",))
    frames.append(("play",))
    if timing == "start_of_turn":
        frames.append(("claim",))
    return frames


def position(
    ruleset: str = "battle_line",
    options: Mapping[str, str] | None = None,
    *,
    hands: Mapping[str, Iterable[str]] | None = None,
    flags: Mapping[int, Mapping[str, Iterable[str]]] | None = None,
    fog: Mapping[int, str] | None = None,
    mud: Mapping[int, str] | None = None,
    claimed: Mapping[int, str] | None = None,
    discards: Mapping[str, Iterable[str]] | None = None,
    decks: Mapping[str, Iterable[str]] | None = None,
    placed: Mapping[tuple[int, str], Iterable[int]] | None = None,
    current: str = "p1",
    step: str = "play",
    tactics_played: Mapping[str, int] | None = None,
    leader_played: Mapping[str, bool] | None = None,
    passes: int = 0,
) -> STState:
    """A consistent position.

    * ``flags={1: {"p1": [...], "p2": [...]}}``: cards on each side, in order of arrival; their
      ``placed`` times are 1, 2, 3... in the order given (flag by flag, in role order), unless
      ``placed={(flag, role): [times]}`` overrides a side.
    * ``decks={"troops": [...], "tactics": [...]}`` restricts a deck; cards of that kind found
      nowhere else are then put in p2's discard pile (face up, so troops join the table).
      Without it every card not placed elsewhere stays in its deck. (The "p2" discard pile is
      index 1 whatever the ruleset.)
    * ``step``: ``"turn"`` (the turn is not expanded yet), or ``"play"``, ``"claim"``, ``"draw"``
      (the stack of an expanded turn cut at that phase: the frames above it are gone).
    """
    rules = make_rules(ruleset, options)
    state = STState(rules)
    roles = rules.roles
    n = len(roles)
    role_index = roles.index  # this ruleset's roles (two or three), shadowing the helper
    seen: set[int] = set()

    def take(names_: Iterable[str]) -> tuple[int, ...]:
        out = tuple(card(x) for x in names_)
        for c in out:
            assert c not in seen, f"{C.card_name(c)} is placed twice"
            seen.add(c)
        return out

    hands = hands or {}
    for role in roles:
        state.hands[role_index(role)] = tuple(sorted(take(hands.get(role, ()))))

    clock = 0
    for flag in sorted(flags or {}):
        for role in roles:
            side = take((flags or {})[flag].get(role, ()))
            i = (flag - 1) * n + role_index(role)
            state.sides[i] = side
            times = []
            for _ in side:
                clock += 1
                times.append(clock)
            state.placed[i] = tuple(times)
    for (flag, role), times in (placed or {}).items():
        i = (flag - 1) * n + role_index(role)
        times = tuple(times)
        assert len(times) == len(state.sides[i]), "one placed time per card"
        state.placed[i] = times
        clock = max([clock, *times])

    for flag, role in (fog or {}).items():
        take(["fog"])
        state.fog[flag - 1] = role_index(role)
    for flag, role in (mud or {}).items():
        take(["mud"])
        state.mud[flag - 1] = role_index(role)
    for flag, role in (claimed or {}).items():
        state.claimed[flag - 1] = role_index(role)
    for role, pile in (discards or {}).items():
        state.discards[role_index(role)] = take(pile)

    full = [tuple(C.troop_deck(rules.max_value)), C.TACTICS if rules.tactics else ()]
    for d, deck_name in ((TROOPS, "troops"), (TACTICS_DECK, "tactics")):
        if decks is not None and deck_name in decks:
            chosen = take(decks[deck_name])
            assert all((c < 60) == (d == TROOPS) for c in chosen), f"wrong kind in {deck_name}"
            rest = tuple(c for c in full[d] if c not in seen)
            state.discards[1] += rest
            seen.update(rest)
            state.decks[d] = tuple(sorted(chosen))
        else:
            state.decks[d] = tuple(c for c in full[d] if c not in seen)
            seen.update(state.decks[d])

    table = 0
    for side in state.sides:
        for c in side:
            if c < 60:
                table |= 1 << c
    for pile in state.discards:
        for c in pile:
            if c < 60:
                table |= 1 << c
    state.table = table

    for role, count in (tactics_played or {}).items():
        state.tactics_played[role_index(role)] = count
    for role, flag_ in (leader_played or {}).items():
        state.leader_played[role_index(role)] = flag_
    state.current = role_index(current)
    state.passes = passes
    state.turn = 1
    state.number = clock
    state.history = None
    state.pending = None
    state.outcome = None

    if step == "turn":
        state.stack = [("turn",)]
    else:
        frames = turn_frames(rules.claim_timing)
        top = max(i for i, frame in enumerate(frames) if frame[0] == step)
        state.stack = frames[: top + 1]
    return state


# -- driving the engine ----------------------------------------------------------------------------


def keys(game: SchottenTotten, state: STState) -> list[str]:
    """The option keys of the pending decision ([] once the match is over)."""
    decision = game.decision(state)
    return [] if decision is None else [o.key for o in decision.options]


def choose(game: SchottenTotten, state: STState, key: str):
    """Apply the option ``key`` (which must be offered) and return the next decision."""
    decision = game.decision(state)
    assert decision is not None, f"the match is over; cannot choose {key!r}"
    offered = [o.key for o in decision.options]
    assert key in offered, f"{key!r} not offered at {decision.step} for {decision.role}: {offered}"
    game.apply(state, decision.options[offered.index(key)])
    return game.decision(state)


def play(game: SchottenTotten, state: STState, *keys_: str):
    """Choose several keys in a row; return the decision after the last one."""
    decision = game.decision(state)
    for key in keys_:
        decision = choose(game, state, key)
    return decision


def side(state: STState, flag: int, role: str) -> list[str]:
    return names(state.side(flag - 1, state.rules.roles.index(role)))


def hand(state: STState, role: str) -> list[str]:
    return names(state.hands[state.rules.roles.index(role)])


def check_consistent(state: STState) -> None:
    """Every card of the ruleset is in exactly one place and the table mask is right."""
    where: list[int] = []
    for h in state.hands:
        where.extend(h)
    for s in state.sides:
        where.extend(s)
    for p in state.discards:
        where.extend(p)
    for d in state.decks:
        where.extend(d)
    for t in state.tops:
        where.extend(c for c, _ in t)
    where.extend(C.FOG for f in state.fog if f != NO_ONE)
    where.extend(C.MUD for f in state.mud if f != NO_ONE)
    # a card just played and waiting for its flag lives in its frame
    where.extend(frame[1] for frame in state.stack if frame[0] in ("place", "environment"))
    expected = list(C.troop_deck(state.rules.max_value))
    if state.rules.tactics:
        expected += list(C.TACTICS)
    assert sorted(where) == sorted(expected)
    table = 0
    for c in [c for s in state.sides for c in s] + [c for p in state.discards for c in p]:
        if c < 60:
            table |= 1 << c
    assert state.table == table


def finish_turn(game: SchottenTotten, state: STState):
    """Finish the current turn quietly: claim nothing, draw from the troops deck when asked, take
    the first card of any chance draw; stop at the next player's first decision (or at the end of
    the match) and return it."""
    mover = state.current
    while True:
        decision = game.decision(state)
        if decision is None or (state.current != mover and decision.role != "chance"):
            return decision
        if decision.step == "claim":
            choose(game, state, "done")
        elif decision.step == "draw":
            choose(game, state, "deck:troops")
        elif decision.role == "chance":
            game.apply(state, decision.options[0])
        else:
            raise AssertionError(f"finish_turn: unexpected {decision.step} for {decision.role}")
