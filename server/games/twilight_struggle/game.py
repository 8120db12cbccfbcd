"""Twilight Struggle (Deluxe edition) as a :class:`~standoff.server.core.game.Game`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.flow import StackGame
from . import board as B
from . import card_data as CD
from . import determinize as D
from . import hooks as H
from . import map_data as M
from . import ops as O
from . import turn as T
from .events import event_steps
from .rules import RULESETS, TSRules, make_rules
from .state import NOBODY, US, USSR, TSState, other

STEPS = {
    step.name: step
    for step in (
        T.Setup(), T.SetupPlace(), T.Bid(), T.Turn(), T.Deal(), T.Headline(), T.HeadlineChoose(),
        T.HeadlineReveal(), T.HeadlineResolve(), T.Dispose(), T.ActionRounds(),
        T.ActionRound(), T.ArEnd(), T.CardUse(), T.SpaceDiscard(), T.EndTurn(),
        O.Influence(), O.Realign(), O.RealignRoll(), O.Coup(), O.CoupRoll(), O.SpaceRoll(),
        *event_steps(),
    )
}


def card_name(card: int) -> str:
    return CD.CARD_BY_NUMBER[card].id


class TwilightStruggle(StackGame):
    """The referee's rules object for Twilight Struggle."""

    name = "twilight-struggle"
    rules_version = "1"
    rulesets = RULESETS
    steps = STEPS

    def rules(self, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> TSRules:
        return make_rules(ruleset, options)

    def new_state(self, rules: TSRules | None = None) -> TSState:
        state = TSState(rules or self.rules(), len(M.COUNTRIES))
        state.stack = [("setup",)]
        return state

    def view(self, state: TSState, role: str, history_from: int = 0) -> dict[str, Any]:
        """What ``role`` may see: its own hand, the other hand's size, the whole board (influence
        and who controls each country), the public piles (discard, removed; the draw pile's size), lasting effects, the headline
        once revealed (its own at once), the match's rules (``rules``: :func:`rules_view`) and
        the history as it saw it."""
        # A referee builds one per decision: the tables below (names, stabilities) are built once.
        roles = state.rules.roles
        me = roles.index(role)
        them = 1 - me
        names = _CARD_NAMES
        decision = state.pending if state.pending is not None else self.decision(state)
        hands = state.hands
        headline = state.headline
        revealed = headline[USSR] or headline[US]
        if revealed:
            revealed = _headline_revealed(state)
        influence, control = _board_view(state.inf, roles)
        china = state.china
        return {
            "game": self.name,
            "role": role,
            # the match's rules (public): what a forward model needs to replay the match
            "rules": _rules_view(state.rules),
            "turn": state.turn,
            "action_round": state.ar,
            "phasing": roles[state.phasing],
            "step": decision[1] if decision is not None else None,
            "vp": state.vp,
            "defcon": state.defcon,
            "military_ops": {roles[0]: state.milops[0], roles[1]: state.milops[1]},
            "space": {roles[0]: state.space[0], roles[1]: state.space[1]},
            "hand": [names[c] for c in hands[me]],
            "opponent_hand_size": len(hands[them]),
            # Lasting effects may open the other hand (Aldrich Ames Remix, #98).
            "opponent_hand": [names[c] for c in hands[them]] if hand_open(state, me) else [],
            "china_card": {
                "holder": roles[china] if china != NOBODY else None,
                "face_up": state.china_face_up,
            },
            "headline": {
                roles[s]: names[headline[s]]
                for s in (USSR, US)
                if headline[s] and (s == me or revealed)
            },
            "influence": influence,
            # control as the rules define it (map.md §5), so that no bot recomputes it
            "control": control,
            # the event being resolved, when a decision is asked inside one (the innermost)
            "event": _event_in_play(state),
            "deck_size": len(state.deck),
            "discard": [names[c] for c in state.discard],
            "removed": [names[c] for c in state.removed],
            "effects": sorted(state.effects),
            "events_played": _events_played(state.events_played),
            "chinese_civil_war": state.ccw,
            "history_from": history_from,
            "history": _history_seen(state.history, history_from, role),
        }

    def determinize(self, state: TSState, role: str, rng: random.Random) -> TSState:
        """Re-deal what ``role`` cannot see, consistently with what it knows (:mod:`.determinize`,
        the re-deal the SDK's forward model uses too): the other hand but the cards ``role``
        knows there (``state.known``; all of it while Aldrich Ames Remix opens it), the draw pile,
        the other side's headline while it is secret and, for the USSR, Our Man in Tehran's
        drawn cards; the pending decision is kept. ``view(copy, role) == view(state, role)``."""
        me = state.rules.roles.index(role)
        known = D.knowledge(state, me, hand_open(state, me))
        return D.resample(self, state, me, known, D.secret_headline(state, me), rng)

    def render(self, state: TSState) -> str:
        roles = state.rules.roles
        lines = [
            f"turn {state.turn} AR {state.ar}, {roles[state.phasing]} phasing; VP {state.vp:+d} "
            f"(+ = US), DEFCON {state.defcon}, milops US {state.milops[US]} USSR {state.milops[USSR]}, "
            f"space US {state.space[US]} USSR {state.space[USSR]}"
        ]
        for region in M.REGIONS:
            cells = []
            for i in M.REGION_COUNTRIES[region]:
                us, ussr = state.inf[US][i], state.inf[USSR][i]
                if us or ussr:
                    mark = {US: "*US", USSR: "*SU"}.get(B.controller(state, i), "")
                    cells.append(f"{M.COUNTRIES[i].name} {us}/{ussr}{mark}")
            lines.append(f"  {region}: " + (", ".join(cells) or "-"))
        for side in (USSR, US):
            lines.append(f"  {roles[side]} hand: " + " ".join(card_name(c) for c in state.hands[side]))
        holder = roles[state.china] if state.china != NOBODY else "nobody"
        lines.append(f"  China Card: {holder} ({'face up' if state.china_face_up else 'face down'}); "
                     f"deck {len(state.deck)}, discard {len(state.discard)}, removed {len(state.removed)}")
        if state.effects:
            lines.append("  effects: " + ", ".join(sorted(state.effects)))
        return "\n".join(lines)


#: Both headlines are public once the headline phase has revealed them (kept under this name: the
#: SDK's replay imports it).
_headline_revealed = D.headline_revealed


def rules_view(rules: TSRules) -> dict[str, Any]:
    """The rules of the match as views show them (``rules``): ``options_of(view["rules"])`` gives
    options from which ``TwilightStruggle.rules`` makes the same rules."""
    return {
        "ruleset": rules.ruleset,
        "optional_cards": rules.optional_cards,
        "chinese_civil_war": rules.chinese_civil_war,
        "bid_side": rules.bid_side,
        "bid": rules.bid,
        "end_turn": rules.end_turn,
    }


def options_of(rules: Mapping[str, Any]) -> dict[str, str]:
    """The rules options (as ``TwilightStruggle.rules`` takes them) of a view's ``rules``."""
    side = rules.get("bid_side")
    return {
        "optional_cards": "on" if rules["optional_cards"] else "off",
        "chinese_civil_war": "on" if rules["chinese_civil_war"] else "off",
        "bid": f"{side}:{rules['bid']}" if side else "none",
        "end_turn": str(rules["end_turn"]),
    }


#: Card number → its id (index 0 unused).
_CARD_NAMES: tuple[str, ...] = tuple(
    CD.CARD_BY_NUMBER[n].id if n in CD.CARD_BY_NUMBER else "" for n in range(max(CD.CARD_BY_NUMBER) + 1)
)
_COUNTRY_IDS: tuple[str, ...] = tuple(c.id for c in M.COUNTRIES)
_STABILITY: tuple[int, ...] = B.STABILITY


def _board_view(inf: list[list[int]], roles: tuple[str, ...]) -> tuple[dict, dict]:
    """``influence`` and ``control`` of a view: the countries holding influence, in map order,
    and the controller of each (:func:`.board.controller`, US tested first). The board changes
    far less often than views are built: what it gives is kept by influence (a bounded table,
    fresh dicts for every view)."""
    us, ussr = inf[US], inf[USSR]
    try:
        key = (bytes(us), bytes(ussr), roles)
    except ValueError:  # influence beyond a byte (never in play, possible in a hand-made position)
        key = (tuple(us), tuple(ussr), roles)
    found = _BOARD_VIEWS.get(key)
    if found is None:
        if len(_BOARD_VIEWS) >= 2048:
            _BOARD_VIEWS.clear()
        found = _BOARD_VIEWS[key] = _board_of(us, ussr, roles)
    held, control = found
    return {cid: {"us": a, "ussr": b} for cid, a, b in held}, control.copy()


_BOARD_VIEWS: dict[tuple, tuple[tuple[tuple[str, int, int], ...], dict[str, str]]] = {}


def _board_of(us: list[int], ussr: list[int], roles: tuple[str, ...]):
    held = []
    control: dict[str, str] = {}
    us_role, ussr_role = roles[US], roles[USSR]
    for cid, a, b, stability in zip(_COUNTRY_IDS, us, ussr, _STABILITY):
        if a or b:
            held.append((cid, a, b))
            if a >= stability and a - b >= stability:
                control[cid] = us_role
            elif b >= stability and b - a >= stability:
                control[cid] = ussr_role
    return tuple(held), control


#: rules → its rules_view (rules are frozen: one per match); views get a copy.
_RULES_VIEWS: dict[int, tuple[TSRules, dict[str, Any]]] = {}


def _rules_view(rules: TSRules) -> dict[str, Any]:
    found = _RULES_VIEWS.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_RULES_VIEWS) > 256:
            _RULES_VIEWS.clear()
        found = _RULES_VIEWS[id(rules)] = (rules, rules_view(rules))
    return found[1].copy()


#: events_played (a frozenset, replaced whenever it grows) → its sorted card ids; bounded.
_EVENTS_PLAYED: dict[frozenset[int], tuple[str, ...]] = {}


def _events_played(played: frozenset[int]) -> list[str]:
    found = _EVENTS_PLAYED.get(played)
    if found is None:
        if len(_EVENTS_PLAYED) > 4096:
            _EVENTS_PLAYED.clear()
        found = _EVENTS_PLAYED[played] = tuple(sorted(_CARD_NAMES[c] for c in played))
    return list(found)


def _history_seen(history: tuple | None, number: int, role: str) -> list[list]:
    """The view's ``history``: entries numbered after ``number``, oldest first, as ``role`` sees
    them (``HistoryEntry.seen_by`` on the raw entries of core.flow's persistent list)."""
    entries = []
    append = entries.append
    while history is not None:
        entry = history[0]
        if entry[0] <= number:
            break
        visible_to = entry[4]
        append([entry[0], entry[1], entry[2],
                entry[3] if visible_to is None or role in visible_to else entry[5]])
        history = history[1]
    entries.reverse()
    return entries


def _event_in_play(state: TSState) -> dict[str, str] | None:
    """The card whose event is under way: every event leaves an ``after_event`` frame below its
    own frames (events/registry.py), so the top-most one names the innermost event."""
    for frame in reversed(state.stack):
        if frame[0] == "after_event":
            return {"card": card_name(frame[1]), "side": state.rules.roles[frame[2]]}
    return None


def hand_open(state: TSState, side: int) -> bool:
    """The other side's hand is open to ``side`` (hooks.OPEN_HANDS: Aldrich Ames Remix)."""
    return any(hook(state, side) for hook in H.OPEN_HANDS)

