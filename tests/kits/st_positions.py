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

from standoff.sdk.positions import from_position
from standoff.server.games.schotten_totten import SchottenTotten, STState, make_rules
from standoff.server.games.schotten_totten import cards as C
from standoff.server.games.schotten_totten.state import NO_ONE

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
    """A consistent position, built through the public position format (docs/positions.md:
    ``standoff.sdk.positions.from_position``); this helper only fills in the test defaults.

    * ``flags={1: {"p1": [...], "p2": [...]}}``: cards on each side, in order of arrival; their
      ``placed`` times are 1, 2, 3... in the order given (flag by flag, in role order), unless
      ``placed={(flag, role): [times]}`` overrides a side.
    * ``decks={"troops": [...], "tactics": [...]}`` restricts a deck; cards of that kind found
      nowhere else are then put in p2's discard pile (face up, so troops join the table).
      Without it every card not placed elsewhere stays in its deck. (The "p2" discard pile is
      index 1 whatever the ruleset.)
    * ``step``: ``"turn"`` (the turn is not expanded yet), or ``"play"``, ``"claim"``, ``"draw"``
      (the stack of an expanded turn cut at that phase: the frames above it are gone).
    * ``tactics_played`` / ``leader_played``: 0 / false for every role unless given.
    """
    rules = make_rules(ruleset, options)
    roles = rules.roles
    entries: dict[int, dict] = {}

    def entry(flag: int) -> dict:
        return entries.setdefault(flag, {"flag": flag, "sides": {}, "placed": {}})

    clock = 0
    for flag in sorted(flags or {}):
        for role in roles:
            cards = list((flags or {})[flag].get(role, ()))
            entry(flag)["sides"][role] = cards
            entry(flag)["placed"][role] = list(range(clock + 1, clock + 1 + len(cards)))
            clock += len(cards)
    for (flag, role), times in (placed or {}).items():
        entry(flag)["placed"][role] = list(times)
        clock = max([clock, *times])
    for key, table in (("fog", fog), ("mud", mud), ("claimed_by", claimed)):
        for flag, role in (table or {}).items():
            entry(flag)[key] = role
    piles = {role: list(cards) for role, cards in (discards or {}).items()}
    data = {
        "game": GAME.name, "ruleset": rules.ruleset, "options": dict(rules.options),
        "number": clock, "turn": 1, "to_move": current, "passes": passes,
        "flags": [entries[f] for f in sorted(entries)],
        "hands": {role: list(cards) for role, cards in (hands or {}).items()},
        "discards": piles,
        "tactics_played": {role: (tactics_played or {}).get(role, 0) for role in roles},
        "leader_played": {role: (leader_played or {}).get(role, False) for role in roles},
    }
    if step == "turn":
        data["stack"] = [{"step": "turn"}]
    else:
        frames = turn_frames(rules.claim_timing)
        top = max(i for i, frame in enumerate(frames) if frame[0] == step)
        data["stack"] = [{"step": frame[0]} for frame in frames[: top + 1]]
    if decks is not None:
        # a restricted deck: the cards of its kind found nowhere else go to p2's discard pile
        data["decks"] = {name: list(decks.get(name, ())) for name in ("troops", "tactics")}
        placed_names = {c for h in data["hands"].values() for c in h} | {c for p in piles.values() for c in p}
        placed_names |= {c for e in entries.values() for side in e["sides"].values() for c in side}
        placed_names |= {n for key, n in (("fog", "fog"), ("mud", "mud")) if any(key in e for e in entries.values())}
        full = {"troops": [C.card_name(c) for c in C.troop_deck(rules.max_value)],
                "tactics": [C.card_name(c) for c in C.TACTICS] if rules.tactics else []}
        for name in ("troops", "tactics"):
            if name in decks:
                chosen = set(decks[name])
                piles.setdefault(roles[1], []).extend(
                    c for c in full[name] if c not in chosen and c not in placed_names)
            else:
                data["decks"][name] = [c for c in full[name] if c not in placed_names]
    state = from_position(GAME, data)
    state.history = None
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
