"""Schotten Totten's forward model (``GameSpec.forward_model``): the state a role's view comes
from, replayed on the real engine, and its re-deals. The SDK's :class:`standoff.sdk.simulate.Belief`
reaches it through the game's spec (every ruleset: Schotten Totten and Battle Line).

How a view becomes a state
--------------------------

The view carries the whole match as this role saw it (``history``: every decision, chance included;
the other roles' draws and Scout returns redacted to the deck's name). :class:`SchottenTottenBelief`
replays that history on a fresh state of the real engine, so every piece of bookkeeping — the stack
of frames, the time each card was placed (completion times), the table mask, passes in succession,
the turn, tactics counts, leaders, Scout tops and who knows them, the decision number — is produced
by the engine itself and cannot drift from it.

Hidden choices (another role's draws and Scout returns) are filled in with cards of the right
deck; when a later public fact contradicts a filler (the opponent plays a card the replay gave to
the deck, this role draws a card the replay handed to the opponent, this role draws back a card
the opponent returned with Scout), the two cards' identities are exchanged in every hidden place.
Such an exchange never changes anything this role can see, so the replay stays a faithful
reconstruction of its knowledge. At the end the replayed state's view is compared with the given
view (history included); any difference raises :class:`SimulationError`.

:meth:`SchottenTottenBelief.sample` then re-deals, uniformly, every card the role cannot see among
the places it could be (:meth:`~standoff.server.games.schotten_totten.SchottenTotten.determinize`):
the other hands (except cards known through Scout), the unknown part of each deck and the Scout tops
put back by others. Known cards stay: own hand, table, discards, own Scout tops, known cards in
other hands; troops stay troops and tactics stay tactics (their backs differ), every count stays.

What a sample does *not* contain: the others' past hidden cards (the history entries of their
draws in a sample hold filler cards; this role's view of the sample shows them redacted exactly as
before, other roles' views of a sample are not meaningful). Which of the opponent's passes were
forced (both are the key ``pass``) is replayed from the filler hand; it matters only to the
stalemate rule.

Rules options (``claim_timing``, ``tactics``, ``stalemate``...) are not part of a view: pass
``options`` (a bot gets them in :meth:`~standoff.sdk.Bot.start` as ``match.options``) or ``rules``.
Without them, ``tactics`` and ``first`` are inferred exactly from the view, ``claim_timing`` is
the first timing whose replay reproduces the view (ambiguous only before any claim was possible,
when the ruleset's default is used) and the rest take the ruleset's defaults.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.game import CHANCE, Option
from ...forward_model import ForwardModel, SimulationError, differences
from . import cards as C
from . import playout
from .determinize import redeal

__all__ = ["FORWARD_MODEL", "SchottenTottenBelief", "infer_rules"]

_DECK_KEYS = {"deck:troops": 0, "deck:tactics": 1}
#: the claim timings tried, in order, when the options do not give one
_CLAIM_TIMINGS = ("after_play", "start_of_turn", "end_of_turn")


def _is_kind(card: int, deck: int) -> bool:
    return (card < 60) == (deck == 0)


def _card_id(key: str) -> int:
    return C.card_from_name(key[5:])


def infer_rules(game: Any, view: dict[str, Any], options: Mapping[str, str] | None = None) -> Any:
    """The rules of the match the view (a dict) comes from: ``options`` as given, ``tactics``
    and ``first`` inferred from the view when absent, the ruleset's defaults for the rest
    (``claim_timing`` is settled by :class:`SchottenTottenBelief` when not given)."""
    ruleset = view.get("ruleset") or "battle_line"
    opts = dict(options or {})
    history = view.get("history") or []
    if "tactics" not in opts and ruleset == "battle_line":
        opts["tactics"] = "on" if _tactics_in_play(view) else "off"
    if "first" not in opts and history:
        if not any(entry[2] == "first_player" for entry in history):
            first = next((e[1] for e in history if e[1] != CHANCE), view.get("to_move"))
            if first:
                opts["first"] = first
    return game.rules(ruleset, opts)


def _tactics_in_play(view: dict[str, Any]) -> bool:
    """Whether the match has tactics cards: ten of them are always somewhere visible or counted
    (deck size, hands, table, discards, Fog/Mud)."""
    if view["decks"].get("tactics", {}).get("size", 0):
        return True
    if any(C.card_from_name(n) >= 60 for n in view.get("hand", ())):
        return True
    if any(o.get("tactics", 0) for o in view.get("opponents", {}).values()):
        return True
    if any(view.get("tactics_played", {}).values()):
        return True
    for flag in view["flags"]:
        if flag.get("fog") or flag.get("mud"):
            return True
        for side in flag["sides"].values():
            if any(C.card_from_name(n) >= 60 for n in side["cards"]):
                return True
    return any(C.card_from_name(n) >= 60 for pile in view.get("discards", {}).values() for n in pile)


class _Replay:
    """Replays one role's history on the real engine (see the module's documentation)."""

    def __init__(self, game: Any, rules: Any, view: dict[str, Any]) -> None:
        self.game = game
        self.rules = rules
        self.role = view["role"]
        roles = rules.roles
        if self.role not in roles:
            raise SimulationError(f"role {self.role!r} is not a role of ruleset {rules.ruleset!r}")
        self.me = roles.index(self.role)
        self.state = game.new_state(rules)
        #: cards in our hand drawn from a Scout top another role put back: the replay does not
        #: know which card it was until we use it (or until the end: our hand)
        self.orphans: set[int] = set()
        self.done = 0  # history entries replayed
        self.last_number = 0

    # -- exchanging two hidden identities ----------------------------------------------------------

    def _relabel(self, a: int, b: int) -> None:
        """Exchange cards ``a`` and ``b`` in every place a hidden card can be (hands, decks, Scout
        tops, known lists, orphans). Both must be off the table and of the same kind."""
        if a == b:
            return
        state = self.state

        def sw(c: int) -> int:
            return b if c == a else a if c == b else c

        state.hands = [
            tuple(sorted(map(sw, h))) if (a in h or b in h) else h for h in state.hands
        ]
        state.decks = [tuple(sorted(map(sw, d))) if (a in d or b in d) else d for d in state.decks]
        state.tops = [tuple((sw(c), k) for c, k in t) for t in state.tops]
        state.known = [tuple(map(sw, k)) for k in state.known]
        if a in self.orphans or b in self.orphans:
            self.orphans = {sw(c) for c in self.orphans}
        state.pending = None  # the pending decision may list either card

    def _hidden_to_me(self, card: int) -> bool:
        """Whether ``card`` lies where this role cannot see it (another hand, not known through
        Scout; the unknown deck; a Scout top put back by another; an unconfirmed orphan)."""
        state, me = self.state, self.me
        if card in self.orphans:
            return True
        if card in state.known[me]:
            return False
        for r, hand in enumerate(state.hands):
            if card in hand:
                return r != me
        for d, deck in enumerate(state.decks):
            if card in deck:
                return True
        return any(c == card and k != me for t in state.tops for c, k in t)

    def _bring_to_hand(self, role: int, card: int) -> None:
        """Make ``card`` be in ``role``'s hand (a public fact says it is), exchanging it with a
        hidden card of that hand."""
        state, me = self.state, self.me
        hand = state.hands[role]
        if card in hand:
            if role == me:
                self.orphans.discard(card)  # confirmed
            return
        if not self._hidden_to_me(card):
            raise SimulationError(
                f"{self.rules.roles[role]} used {C.card_name(card)}, which the history puts elsewhere"
            )
        deck = 0 if card < 60 else 1
        if role == me:
            swap = sorted(c for c in self.orphans if _is_kind(c, deck))
        else:
            known = state.known[me]
            swap = [c for c in hand if _is_kind(c, deck) and c not in known]
            swap = self._least_needed(swap, role)
        if not swap:
            raise SimulationError(
                f"{self.rules.roles[role]} used {C.card_name(card)} but holds no hidden card it could be"
            )
        self._relabel(card, swap[0])
        if role == me:
            self.orphans.discard(card)

    def _bring_to_deck(self, deck: int, card: int) -> None:
        """Make ``card`` be in the unknown part of ``deck`` (we are about to draw it)."""
        cards = self.state.decks[deck]
        if card in cards:
            return
        if not self._hidden_to_me(card) or not cards:
            raise SimulationError(f"we drew {C.card_name(card)}, which the history puts elsewhere")
        swap = self._least_needed(list(cards), None)
        self._relabel(card, swap[0])

    # -- choosing hidden fillers -------------------------------------------------------------------

    def _least_needed(self, cards: list[int], role: int | None) -> list[int]:
        """``cards`` ordered so that those no later public fact names come first (then those
        named latest)."""
        mention = self.mention
        return sorted(cards, key=lambda c: (mention.get(c, -1), c))

    def _filler(self, cards: tuple[int, ...], role: int, position: int) -> int:
        """A card among ``cards`` for a hidden draw by ``role``: the next one ``role`` will be
        seen using, else one no later public fact names."""
        for at, card in self.uses.get(role, ()):
            if at > position and card in cards and card not in self.state.hands[role]:
                return card
        return self._least_needed(list(cards), role)[0]

    # -- the replay --------------------------------------------------------------------------------

    def run(self, history: list, start: int = 0) -> None:
        game, state, me, roles = self.game, self.state, self.me, self.rules.roles
        # Later public facts: which card each role is seen using, and the last mention of a card.
        self.uses: dict[int, list[tuple[int, int]]] = {}
        self.mention: dict[int, int] = {}
        for i, (_, role, step, key) in enumerate(history):
            if isinstance(key, str) and key.startswith("card:"):
                card = _card_id(key)
                self.mention[card] = i
                if role in roles and step in ("play", "scout_return"):
                    self.uses.setdefault(roles.index(role), []).append((i, card))
        for i in range(start, len(history)):
            number, role, step, key = history[i]
            decision = game.decision(state)
            if decision is None:
                raise SimulationError(f"the history goes on after the end of the match (entry {number})")
            if decision.role != role or decision.step != step:
                raise SimulationError(
                    f"entry {number}: the history has {role} at {step!r}, the engine asks "
                    f"{decision.role} at {decision.step!r}" + (_FROM_POSITION if i == 0 else "")
                )
            option = self._option(decision, role, step, key, i)
            if option is None:
                raise SimulationError(f"entry {number}: {key!r} is not an option of {step!r}")
            hand = state.hands[me]
            tops = [set(t) for t in state.tops]
            game.apply(state, option)
            if state.number != number:
                raise SimulationError(f"entry {number}: the engine numbers it {state.number}")
            gained = set(state.hands[me]).difference(hand)
            if gained:
                if role == CHANCE and key.startswith("card:"):
                    gained.discard(option.value)
                for d in (0, 1):
                    for card, knower in tops[d].difference(state.tops[d]):
                        if card in gained and knower != me:
                            self.orphans.add(card)
            self.done = i + 1
            self.last_number = number

    def _option(self, decision: Any, role: str, step: str, key: str, position: int) -> Option | None:
        state, me, roles = self.state, self.me, self.rules.roles
        for option in decision.options:
            if option.key == key:
                if role == self.role and step in ("play", "scout_return") and key.startswith("card:"):
                    self.orphans.discard(option.value)  # we used it: confirmed
                return option
        frame = state.stack[-1]
        if role == CHANCE and key in _DECK_KEYS and step in ("deal", "draw_card"):
            # another role's draw: a filler of that deck
            receiver = frame[1] % len(roles) if step == "deal" else frame[2]
            card = self._filler(tuple(o.value for o in decision.options), receiver, position)
            return next(o for o in decision.options if o.value == card)
        if step == "scout_return" and key in _DECK_KEYS and role != self.role:
            deck = _DECK_KEYS[key]
            who = roles.index(role)
            known = state.known[me]
            cards = [o.value for o in decision.options if _is_kind(o.value, deck)]
            cards.sort(key=lambda c: (c in known, self._next_use(who, c, position), c))
            return next((o for o in decision.options if cards and o.value == cards[0]), None)
        if not key.startswith("card:"):
            return None
        card = _card_id(key)
        if role == CHANCE and step in ("deal", "draw_card"):
            deck = 0 if step == "deal" else frame[1]
            self._bring_to_deck(deck, card)
        elif step in ("play", "scout_return") and role in roles:
            self._bring_to_hand(roles.index(role), card)
        else:
            return None
        decision = self.game.decision(state)
        return next((o for o in decision.options if o.key == key), None)

    def _next_use(self, role: int, card: int, position: int) -> int:
        """Negative position of ``role``'s next public use of ``card`` (keep cards used soon)."""
        for at, used in self.uses.get(role, ()):
            if at > position and used == card:
                return -at
        return -(1 << 30)

    def finish(self, hand: list[str]) -> None:
        """Our hand is known exactly: give the unconfirmed orphans their true identities."""
        want = {C.card_from_name(n) for n in hand}
        have = set(self.state.hands[self.me])
        missing = sorted(want - have)
        extra = sorted(have - want)
        if len(missing) != len(extra) or any(c not in self.orphans for c in extra):
            raise SimulationError("the replayed hand differs from the view's hand")
        for card in missing:
            swap = next((c for c in extra if _is_kind(c, 0 if card < 60 else 1)), None)
            if swap is None or not self._hidden_to_me(card):
                raise SimulationError(f"cannot account for {C.card_name(card)} in our hand")
            extra.remove(swap)
            self._relabel(card, swap)
        self.orphans.clear()


#: The hint for a history that does not start at the deal (docs/positions.md).
_FROM_POSITION = (" (the history does not start at the deal: a match started from a position? "
                  "Belief.from_position(game, view, position) starts from one)")



class SchottenTottenBelief:
    """The replayed state of one role's view (see the module's documentation): ``rules``
    (given, else inferred; the first claim timing whose replay reproduces the view when the
    options do not name one), ``state`` (its hidden cards are fillers), ``me``;
    :meth:`sample` re-deals what the role cannot see. Raises :class:`SimulationError` naming the
    first disagreement."""

    def __init__(self, game: Any, view: dict[str, Any], options: Mapping[str, str] | None,
                 rules: Any, check: bool) -> None:
        role = view["role"]
        history = [tuple(entry) for entry in view.get("history") or ()]
        error: SimulationError | None = None
        for candidate in _candidate_rules(game, view, options, rules):
            try:
                replay = _Replay(game, candidate, view)
                replay.run(history)
                replay.finish(view.get("hand", []))
                if check:
                    mine = game.view(replay.state, role)
                    if mine != view:
                        raise SimulationError(
                            "the replayed state shows a different view (fields: "
                            + ", ".join(differences(mine, view))
                            + ")"
                        )
            except SimulationError as exc:
                if not history and _FROM_POSITION not in str(exc):  # a match's first view has the deal
                    exc = SimulationError(f"{exc}{_FROM_POSITION}")
                error = error or exc
                continue
            self.rules = candidate
            self.state = replay.state
            self.me = replay.me
            return
        assert error is not None
        raise error

    def sample(self, rng: random.Random) -> Any:
        """A uniform re-deal of every card the role cannot see (the engine's ``redeal``)."""
        return redeal(self.state, self.me, rng)


def _candidate_rules(game: Any, view: dict[str, Any], options: Mapping[str, str] | None,
                     rules: Any) -> list[Any]:
    """``rules`` if given; else the inferred rules, then the same with each other claim timing
    unless ``options`` name one."""
    if rules is not None:
        return [rules]
    base = infer_rules(game, view, options)
    candidates = [base]
    if not options or "claim_timing" not in options:
        for timing in _CLAIM_TIMINGS:
            if timing != base.claim_timing:
                opts = dict(base.options)
                opts["claim_timing"] = timing
                candidates.append(game.rules(base.ruleset, opts))
    return candidates


def _random_playout(game: Any, state: Any, rng: random.Random) -> bool:
    """The uniform rollout on the engine's own functions (compiled: C calls), when it can."""
    if not playout.plays(game):
        return False
    playout.random_playout(game, state, rng)
    return True


#: What the game's spec carries (``GameSpec.forward_model``).
FORWARD_MODEL = ForwardModel(belief=SchottenTottenBelief, infer_rules=infer_rules,
                             random_playout=_random_playout)
