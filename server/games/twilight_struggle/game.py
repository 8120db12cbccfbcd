"""Twilight Struggle (Deluxe edition) as a :class:`~standoff.server.core.game.Game`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import compress
from operator import ne
from typing import Any

from ...core.flow import SETTLE_BUDGET, EngineStall, StackGame
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


#: The steps whose choices some roles may not see (only their ``visibility`` is asked).
_HIDDEN = frozenset(name for name, step in STEPS.items() if step.hidden)
_BUDGET = range(SETTLE_BUDGET)


# -- the hot path: StackGame's decision/apply on this game's own step table --------------------
# Same semantics as StackGame (every choice logged, automatic frames run until a decision, at
# most SETTLE_BUDGET of them), as Schotten Totten's game.py has them. They are module functions,
# made the methods of TwilightStruggle below, so that the compiled engine can type their locals
# (game.pxd): the state is then a TSState and each step a TSStep, whose run/choose are called
# as C methods. A subclass or test that swaps ``steps`` gets StackGame's generic path.


def _ts_decision(game, state: TSState):
    pending = state.pending
    if pending is None and state.outcome is None:
        game._settle(state)
        return state.pending
    return pending


def _ts_apply(game, state: TSState, option) -> None:
    if state.pending is None or game.steps is not STEPS:
        StackGame.apply(game, state, option)
        return
    _ts_apply_pending(game, state, option)


def _ts_apply_pending(game, state: TSState, option, logged=True) -> None:
    """:func:`_ts_apply` once it is known that a decision is pending and ``game`` plays
    :data:`STEPS` (the playout checks the game once, not at every choice). With ``logged``
    false the choice is numbered but not added to ``state.history``: for rollouts, whose
    outcome is all that is kept (no step reads the history, so play is the same)."""
    decision = state.pending
    frame = state.stack[-1]
    name = frame[0]
    step = STEPS[name]
    number = state.number = state.number + 1
    if logged:
        hidden = step.visibility(state, frame, decision, option) if name in _HIDDEN else None
        # (Fields by name: compiled, indexing a NamedTuple goes through its __getitem__ method.)
        if hidden is None:
            state.history = ((number, decision.role, decision.step, option.key, None, ""), state.history)
        else:
            state.history = ((number, decision.role, decision.step, option.key, hidden[0], hidden[1]),
                             state.history)
    state.pending = None
    step.choose(game, state, frame, option)
    if state.outcome is not None:
        return
    # _ts_settle's loop, inlined (one call less per choice)
    stack = state.stack
    for _ in _BUDGET:
        frame = stack[-1]
        step = STEPS[frame[0]]
        decision = step.run(game, state, frame)
        if decision is not None:
            state.pending = decision
            return
        if state.outcome is not None:
            return
    raise EngineStall(f"{SETTLE_BUDGET} automatic steps without a decision (top frame {stack[-1][0]!r})")


def _ts_settle(game, state: TSState) -> None:
    if game.steps is not STEPS:
        StackGame._settle(game, state)
        return
    stack = state.stack
    for _ in _BUDGET:
        if state.outcome is not None:
            return
        frame = stack[-1]
        step = STEPS[frame[0]]
        decision = step.run(game, state, frame)
        if decision is not None:
            state.pending = decision
            return
    raise EngineStall(f"{SETTLE_BUDGET} automatic steps without a decision (top frame {stack[-1][0]!r})")


class TwilightStruggle(StackGame):
    """The referee's rules object for Twilight Struggle."""

    name = "twilight-struggle"
    rules_version = "1"
    rulesets = RULESETS
    steps = STEPS

    # StackGame's decision/apply, on this game's own step table (see _ts_apply above)
    decision = _ts_decision
    apply = _ts_apply
    _settle = _ts_settle

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
        decision = state.pending if state.pending is not None else self.decision(state)
        hands = state.hands
        headline = state.headline
        # the other side's headline shows once both are revealed (one's own at once)
        shown = {}
        if headline[USSR] or headline[US]:
            revealed = headline[them] and _headline_revealed(state)
            for s in (USSR, US):
                if headline[s] and (s == me or revealed):
                    shown[roles[s]] = _CARD_NAMES[headline[s]]
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
            "hand": _hand_names(hands[me]),
            "opponent_hand_size": len(hands[them]),
            # Lasting effects may open the other hand (Aldrich Ames Remix, #98).
            "opponent_hand": _hand_names(hands[them]) if hand_open(state, me) else [],
            "china_card": {
                "holder": roles[china] if china != NOBODY else None,
                "face_up": state.china_face_up,
            },
            "headline": shown,
            "influence": influence,
            # control as the rules define it (map.md §5), so that no bot recomputes it
            "control": control,
            # the event being resolved, when a decision is asked inside one (the innermost)
            "event": _event_in_play(state),
            "deck_size": len(state.deck),
            "discard": _discard_names(state.discard),
            "removed": _removed_names(state.removed),
            "effects": _effect_names(state.effects),
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
        """The whole table as text (:func:`.text.state_board`)."""
        from .text import state_board

        return state_board(state)


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
    and the controller of each (:func:`.board.controller`, US tested first).

    A referee builds a view per decision and the board changes far less often (a placement, a
    coup: a country or two), so the views of the last few boards are kept (:class:`_Board`,
    one per match interleaved in this process) and a new board is derived from the latest one
    near it, by its changed countries. Every view gets fresh dicts."""
    us, ussr = inf[US], inf[USSR]
    recent = _RECENT_BOARDS[0]
    board = base = None
    for last in recent:
        if last.roles != roles:
            continue
        if last.us == us and last.ussr == ussr:
            board = last
        else:
            board = last.derive(us, ussr)
        if board is not None:
            base = last
            break
    if board is None:
        board = _Board.full(us, ussr, roles)
    if not recent or recent[0] is not board:
        # a new tuple, not a list changed in place: views may be built on several threads
        _RECENT_BOARDS[0] = (board, *(b for b in recent if b is not base))[:_RECENT_SIZE]
    return dict(zip(board.influence, map(_copy, board.influence.values()))), board.control.copy()


class _Board:
    """The view of one board: ``influence`` ({country id: {"us", "ussr"}}) and ``control``
    ({country id: role}), in map order, never changed once built (views copy them), and the
    influence lists they were built from."""

    __slots__ = ("roles", "us", "ussr", "influence", "control")

    def __init__(self, roles, us: list[int], ussr: list[int], influence: dict, control: dict) -> None:
        self.roles = roles
        self.us = us
        self.ussr = ussr
        self.influence = influence
        self.control = control

    @classmethod
    def full(cls, us: list[int], ussr: list[int], roles: tuple[str, ...]) -> _Board:
        influence: dict[str, dict[str, int]] = {}
        control: dict[str, str] = {}
        for c, (cid, a, b, stability) in enumerate(zip(_COUNTRY_IDS, us, ussr, _STABILITY)):
            if a or b:
                influence[cid] = {"us": a, "ussr": b}
                owner = _owner(c, a, b, roles)
                if owner is not None:
                    control[cid] = owner
        return cls(roles, us.copy(), ussr.copy(), influence, control)

    def derive(self, us: list[int], ussr: list[int]) -> _Board | None:
        """The board ``us``/``ussr`` from this one, redoing only the countries that differ;
        None when many differ (another match's board: a full pass then)."""
        if len(us) != len(self.us) or len(ussr) != len(self.ussr):
            return None
        changed = [] if us == self.us else list(compress(_COUNTRY_RANGE, map(ne, us, self.us)))
        if ussr != self.ussr:
            changed += compress(_COUNTRY_RANGE, map(ne, ussr, self.ussr))
        if len(changed) > 6:
            return None
        influence, control = self.influence.copy(), self.control.copy()
        # a country joining a dict goes last: out of map order unless it comes after the others
        moved_influence = moved_control = False
        roles = self.roles
        for c in changed:
            cid, a, b = _COUNTRY_IDS[c], us[c], ussr[c]
            if a or b:
                if cid not in influence:
                    moved_influence = moved_influence or (bool(influence) and _after(influence, c))
                influence[cid] = {"us": a, "ussr": b}
            else:
                influence.pop(cid, None)
            owner = _owner(c, a, b, roles)
            if owner is None:
                control.pop(cid, None)
            else:
                if cid not in control:
                    moved_control = moved_control or (bool(control) and _after(control, c))
                control[cid] = owner
        if moved_influence:
            influence = {cid: influence[cid] for cid in sorted(influence, key=_MAP_ORDER.__getitem__)}
        if moved_control:
            control = {cid: control[cid] for cid in sorted(control, key=_MAP_ORDER.__getitem__)}
        return _Board(roles, us.copy(), ussr.copy(), influence, control)


def _after(table: dict[str, Any], c: int) -> bool:
    """Whether the last country of ``table`` (in map order) comes after country ``c``."""
    return _MAP_ORDER[next(reversed(table))] > c


def _owner(c: int, us: int, ussr: int, roles: tuple[str, ...]) -> str | None:
    """The role controlling country ``c`` (board.controller, US tested first), or None."""
    stability = _STABILITY[c]
    if us >= stability and us - ussr >= stability:
        return roles[US]
    if ussr >= stability and ussr - us >= stability:
        return roles[USSR]
    return None


#: The views of the last boards, the latest first: one per match a process interleaves.
_RECENT_BOARDS: list[tuple[_Board, ...]] = [()]
_RECENT_SIZE = 4
_MAP_ORDER: dict[str, int] = {cid: i for i, cid in enumerate(_COUNTRY_IDS)}
_COUNTRY_RANGE = range(len(_COUNTRY_IDS))
_copy = dict.copy


#: rules → its rules_view (rules are frozen: one per match); views get a copy.
_RULES_VIEWS: dict[int, tuple[TSRules, dict[str, Any]]] = {}


def _rules_view(rules: TSRules) -> dict[str, Any]:
    found = _RULES_VIEWS.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_RULES_VIEWS) > 256:
            _RULES_VIEWS.clear()
        found = _RULES_VIEWS[id(rules)] = (rules, rules_view(rules))
    return found[1].copy()


def _kept(show):
    """``show(field)`` as a fresh list, computed once per field object: for the immutable fields
    of the state (a tuple of cards, a frozenset: replaced, never changed, when the state
    changes), which change once in many views. The table maps the field's id to the field and
    what it shows; an entry holds its field, so that id is not reused while it is kept. Bounded;
    one table per field kind."""
    table: dict[int, tuple[Any, tuple[str, ...]]] = {}

    def kept(field) -> list[str]:
        if type(field) is not tuple and type(field) is not frozenset:
            return list(show(field))  # a mutable field (a hand-made state): not kept
        found = table.get(id(field))
        if found is None or found[0] is not field:
            if len(table) >= 4096:
                table.clear()
            found = table[id(field)] = (field, tuple(show(field)))
        return list(found[1])

    return kept


_hand_names = _kept(lambda cards: [_CARD_NAMES[c] for c in cards])
_discard_names = _kept(lambda cards: [_CARD_NAMES[c] for c in cards])
_removed_names = _kept(lambda cards: [_CARD_NAMES[c] for c in cards])
_effect_names = _kept(sorted)
_events_played = _kept(lambda cards: sorted(_CARD_NAMES[c] for c in cards))


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
    for hook in H.OPEN_HANDS:
        if hook(state, side):
            return True
    return False

