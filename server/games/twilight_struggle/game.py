"""Twilight Struggle (Deluxe edition) as a :class:`~standoff.server.core.game.Game`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.flow import StackGame, history_since
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
        roles = state.rules.roles
        me = roles.index(role)
        them = other(me)
        revealed = _headline_revealed(state)
        decision = state.pending if state.pending is not None else self.decision(state)
        return {
            "game": self.name,
            "role": role,
            # the match's rules (public): what a forward model needs to replay the match
            "rules": rules_view(state.rules),
            "turn": state.turn,
            "action_round": state.ar,
            "phasing": roles[state.phasing],
            "step": decision.step if decision is not None else None,
            "vp": state.vp,
            "defcon": state.defcon,
            "military_ops": dict(zip(roles, state.milops, strict=True)),
            "space": dict(zip(roles, state.space, strict=True)),
            "hand": [card_name(c) for c in state.hands[me]],
            "opponent_hand_size": len(state.hands[them]),
            # Lasting effects may open the other hand (Aldrich Ames Remix, #98).
            "opponent_hand": [card_name(c) for c in state.hands[them]] if hand_open(state, me) else [],
            "china_card": {
                "holder": roles[state.china] if state.china != NOBODY else None,
                "face_up": state.china_face_up,
            },
            "headline": {
                roles[s]: card_name(state.headline[s])
                for s in (USSR, US)
                if state.headline[s] and (s == me or revealed)
            },
            "influence": {
                c.id: {"us": state.inf[US][i], "ussr": state.inf[USSR][i]}
                for i, c in enumerate(M.COUNTRIES)
                if state.inf[US][i] or state.inf[USSR][i]
            },
            # control as the rules define it (map.md §5), so that no bot recomputes it
            "control": {
                c.id: roles[owner]
                for i, c in enumerate(M.COUNTRIES)
                if (state.inf[US][i] or state.inf[USSR][i]) and (owner := B.controller(state, i)) != NOBODY
            },
            # the event being resolved, when a decision is asked inside one (the innermost)
            "event": _event_in_play(state),
            "deck_size": len(state.deck),
            "discard": [card_name(c) for c in state.discard],
            "removed": [card_name(c) for c in state.removed],
            "effects": sorted(state.effects),
            "events_played": sorted(card_name(c) for c in state.events_played),
            "chinese_civil_war": state.ccw,
            "history_from": history_from,
            "history": [
                [e.number, e.role, e.step, e.seen_by(role)] for e in history_since(state.history, history_from)
            ],
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

