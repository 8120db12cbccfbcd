"""Test kit for Twilight Struggle: build positions and drive events with scripted choices."""

from __future__ import annotations

from collections.abc import Iterable

from standoff.server.core.flow import iter_history
from standoff.server.games.twilight_struggle import TwilightStruggle
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import US, USSR, TSState

GAME = TwilightStruggle()
SIDE = {"us": US, "ussr": USSR}


def card(name: str) -> int:
    return CD.CARD_BY_ID[name].number


def country(name: str) -> int:
    return M.INDEX[name]


def position(
    *,
    hands: dict[str, Iterable[str]] | None = None,
    influence: dict[str, tuple[int, int]] | None = None,
    defcon: int = 5,
    turn: int = 1,
    phasing: str = "ussr",
    vp: int = 0,
    effects: Iterable[str] = (),
    events_played: Iterable[str] = (),
    setup_influence: bool = True,
    end_turn: int = 3,
    rounds: int = 1,
) -> TSState:
    """A state at an action round of ``phasing``. ``influence`` maps country id → (us, ussr)
    and overrides the set-up influence there (set ``setup_influence=False`` to start empty).
    Cards not in a hand are in the draw pile. ``rounds`` action rounds are pending, alternating
    from ``phasing`` (use 2 to stop at the other side's round after a play)."""
    rules = make_rules(None, {"end_turn": str(end_turn)})
    state = TSState(rules, len(M.COUNTRIES))
    if setup_influence:
        for i, c in enumerate(M.COUNTRIES):
            state.inf[US][i] = c.start_us
            state.inf[USSR][i] = c.start_ussr
    for name, (us, ussr) in (influence or {}).items():
        state.inf[US][M.INDEX[name]] = us
        state.inf[USSR][M.INDEX[name]] = ussr
    held = set()
    for side, cards in (hands or {}).items():
        numbers = tuple(sorted(card(c) for c in cards))
        state.hands[SIDE[side]] = numbers
        held.update(numbers)
    state.deck = tuple(n for n in CD.EARLY_WAR if n not in held)
    state.defcon = defcon
    state.turn = turn
    state.ar = 1
    state.vp = vp
    state.phasing = SIDE[phasing]
    state.effects = frozenset(effects)
    state.events_played = frozenset(card(c) for c in events_played)
    state.stack = [("end_turn",)]
    side = SIDE[phasing]
    sides = [side if k % 2 == 0 else 1 - side for k in range(rounds)]
    state.stack.extend(("action_round", 1 + k // 2, s) for k, s in reversed(list(enumerate(sides))))
    return state


def keys(state: TSState) -> list[str]:
    decision = GAME.decision(state)
    return [] if decision is None else [o.key for o in decision.options]


def choose(state: TSState, key: str) -> None:
    """Apply the option ``key`` of the pending decision (it must exist)."""
    decision = GAME.decision(state)
    assert decision is not None, "no pending decision"
    GAME.apply(state, decision.options[decision.index_of(key)])


def play(state: TSState, *script: str) -> TSState:
    """Apply a sequence of option keys (e.g. "card:fidel", "use:event", "die:4")."""
    for key in script:
        choose(state, key)
    return state


def run_event(state: TSState, name: str, actor: str, *script: str) -> TSState:
    """Carry out the event of card ``name`` for ``actor`` directly (no card play), then apply
    the scripted keys. The state's stack must end at a decision afterwards or be settled."""
    state.stack.append(("event", card(name), SIDE[actor]))
    state.pending = None
    GAME.decision(state)  # run the event's automatic part now
    return play(state, *script)


def influence(state: TSState, name: str) -> tuple[int, int]:
    i = M.INDEX[name]
    return state.inf[US][i], state.inf[USSR][i]


def spare_position(*, turn: int, phasing: str = "ussr", hands=None, rounds: int = 4, **kw) -> TSState:
    """A position at ``turn`` with several action rounds pending (alternating from ``phasing``)
    and a spare card on each side, so that a play stops at the next round rather than running
    into the end of the turn."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon"])
    hands.setdefault("us", ["truman_doctrine"])
    return position(phasing=phasing, hands=hands, rounds=rounds, turn=turn, **kw)


def step(state: TSState) -> str | None:
    """The pending step's name, or None once the match is over."""
    decision = GAME.decision(state)
    return None if decision is None else decision.step


def who(state: TSState) -> str:
    """The role of the pending decision."""
    return GAME.decision(state).role


def country_keys(*names: str) -> list[str]:
    """``country:<id>`` keys in the engine's order (map index)."""
    return [f"country:{n}" for n in sorted(names, key=country)]


def region_keys(*names: str) -> list[str]:
    """``country:<id>`` keys of the countries of regions or sub-regions, in the engine's order."""
    indices: set[int] = set()
    for name in names:
        indices.update(M.REGION_COUNTRIES.get(name) or M.SUBREGION_COUNTRIES[name])
    return [f"country:{M.COUNTRIES[i].id}" for i in sorted(indices)]


def history(state: TSState, role: str, step_name: str) -> list[str]:
    """The keys of ``step_name`` entries of the history as ``role`` sees it."""
    return [key for _, _, s, key in GAME.view(state, role)["history"] if s == step_name]


def events_in_order(state: TSState) -> list[str]:
    """The ``card:<id>`` keys of the events carried out so far, in order."""
    return [e.key for e in iter_history(state.history) if e.step == "event"]
