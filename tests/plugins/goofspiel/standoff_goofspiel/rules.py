"""Goofspiel (OpenSpiel's ``goofspiel``) as a standoff :class:`~standoff.server.core.game.Game`.

Pure rules, like the built-in engines: no I/O, no clock, no randomness of its own.

* ``N`` prize cards (values 1..N, option ``cards``, default 8) are turned up one at a time, in an
  order chance decides at each reveal (step ``reveal``, role ``chance``, keys ``prize:K``): the
  order is hidden from everybody because nobody, the state included, knows it in advance.
* Each player holds cards 1..N. For every prize both bid one card, secretly: ``p1`` then ``p2``
  (step ``bid``, keys ``card:K``), two hidden sequential decisions revealed together once both
  are made (like Twilight Struggle's headline). The other seat sees a bid as ``card:hidden``
  until the reveal, which the history shows as one public ``show`` entry per role.
* The higher bid wins the prize's value in points. **Tie: the prize goes to nobody** (it is
  discarded: OpenSpiel's default). Bids are spent either way.
* After N rounds the higher score wins (termination ``points``); equal scores are a draw.

Hidden information: the opponent's pending bid (:meth:`Goofspiel.determinize` re-deals it among
the cards that seat has not shown) and the order of the prizes still face down.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from standoff.server.core.game import CHANCE, Decision, Option, Outcome, RulesError, make_decision

NAME = "goofspiel"
ROLES = ("p1", "p2")
RULESETS = ("standard",)
DEFAULT_CARDS = 8
MIN_CARDS, MAX_CARDS = 2, 20
HIDDEN = "card:hidden"


@dataclass(frozen=True)
class GoofspielRules:
    """A validated ruleset: ``cards`` per hand (and prizes)."""

    ruleset: str
    options: Mapping[str, str]
    roles: tuple[str, ...]
    cards: int


def make_rules(ruleset: str | None = None, options: Mapping[str, str] | None = None) -> GoofspielRules:
    ruleset = ruleset or RULESETS[0]
    if ruleset not in RULESETS:
        raise RulesError(f"unknown ruleset {ruleset!r} for {NAME} (choose from {', '.join(RULESETS)})")
    options = dict(options or {})
    unknown = sorted(set(options) - {"cards"})
    if unknown:
        raise RulesError(f"unknown option {unknown[0]!r} for {NAME} (known: cards)")
    text = str(options.get("cards", DEFAULT_CARDS))
    if not text.isdigit() or not MIN_CARDS <= int(text) <= MAX_CARDS:
        raise RulesError(f"option cards={text!r}: expected a whole number from {MIN_CARDS} to {MAX_CARDS}")
    cards = int(text)
    return GoofspielRules(ruleset, {"cards": str(cards)}, ROLES, cards)


class GoofspielState:
    """Plain, copyable data. ``history``: a tuple of ``(number, role, step, key, visible_to,
    redacted)`` entries (``visible_to`` ``None``: public)."""

    __slots__ = ("rules", "number", "prize", "prizes_left", "hands", "bids", "scores", "rounds",
                 "history", "outcome")

    def __init__(self, rules: GoofspielRules) -> None:
        n = rules.cards
        self.rules = rules
        self.number = 0  # decisions applied so far
        self.prize: int | None = None
        self.prizes_left: tuple[int, ...] = tuple(range(1, n + 1))
        self.hands: list[tuple[int, ...]] = [tuple(range(1, n + 1)) for _ in rules.roles]
        self.bids: list[int | None] = [None for _ in rules.roles]
        self.scores: list[int] = [0 for _ in rules.roles]
        self.rounds: tuple[tuple[int, tuple[int, ...], int | None], ...] = ()  # (prize, bids, winner index)
        self.history: tuple[tuple[Any, ...], ...] = ()
        self.outcome: Outcome | None = None

    def copy(self) -> GoofspielState:
        other = GoofspielState.__new__(GoofspielState)
        other.rules = self.rules
        other.number = self.number
        other.prize = self.prize
        other.prizes_left = self.prizes_left
        other.hands = list(self.hands)
        other.bids = list(self.bids)
        other.scores = list(self.scores)
        other.rounds = self.rounds
        other.history = self.history
        other.outcome = self.outcome
        return other


class Goofspiel:
    """The rules object: stateless, every method a pure function of its arguments."""

    name = NAME
    rules_version = "1"
    rulesets = RULESETS

    def rules(self, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> GoofspielRules:
        return make_rules(ruleset, options)

    def new_state(self, rules: GoofspielRules | None = None) -> GoofspielState:
        return GoofspielState(rules or make_rules())

    def decision(self, state: GoofspielState) -> Decision | None:
        if state.outcome is not None:
            return None
        if state.prize is None:
            options = tuple(Option(f"prize:{k}", f"prize {k}", k) for k in state.prizes_left)
            return make_decision(CHANCE, "reveal", "Turn up the next prize card", options)
        seat = state.bids.index(None)
        role = state.rules.roles[seat]
        options = tuple(Option(f"card:{k}", f"bid {k}", k) for k in state.hands[seat])
        return make_decision(role, "bid", f"Bid one of your cards for the prize {state.prize}", options)

    def apply(self, state: GoofspielState, option: Option) -> None:
        decision = self.decision(state)
        if decision is None:
            raise ValueError("the match is over: no decision to apply an option to")
        if option not in decision.options:
            raise ValueError(f"{option.key!r} is not an option of step {decision.step!r}")
        state.number += 1
        n = state.number
        if decision.role == CHANCE:
            state.prize = option.value
            state.prizes_left = tuple(k for k in state.prizes_left if k != option.value)
            state.history += ((n, CHANCE, "reveal", option.key, None, ""),)
            return
        seat = state.rules.roles.index(decision.role)
        state.bids[seat] = option.value
        state.hands[seat] = tuple(k for k in state.hands[seat] if k != option.value)
        state.history += ((n, decision.role, "bid", option.key, (decision.role,), HIDDEN),)
        if None not in state.bids:
            self._resolve(state)

    def _resolve(self, state: GoofspielState) -> None:
        """Both bids are in: show them, give the prize to the higher one (a tie: to nobody)."""
        roles = state.rules.roles
        bids = tuple(state.bids)
        state.history += tuple((state.number, role, "show", f"card:{bid}", None, "") for role, bid in zip(roles, bids))
        best = max(bids)
        winner = bids.index(best) if bids.count(best) == 1 else None
        if winner is not None:
            state.scores[winner] += state.prize
        state.rounds += ((state.prize, bids, winner),)
        state.prize = None
        state.bids = [None for _ in roles]
        if not state.prizes_left:
            state.outcome = self._final(state)

    @staticmethod
    def _final(state: GoofspielState) -> Outcome:
        roles = state.rules.roles
        a, b = state.scores
        if a == b:
            return Outcome.draw(roles, "points", f"tied at {a} points")
        winner = 0 if a > b else 1
        return Outcome.win(roles, roles[winner], "points",
                           f"{roles[winner]} scored {max(a, b)} points to {min(a, b)}")

    def outcome(self, state: GoofspielState) -> Outcome | None:
        return state.outcome

    def view(self, state: GoofspielState, role: str, history_from: int = 0) -> dict[str, Any]:
        """What ``role`` sees: its own hand and pending bid; of the other seat, the cards it has
        not shown (hand and pending bid together) and whether it has bid; the prize up, the
        prizes left (as a set), scores, finished rounds; the history as it saw it (entries
        numbered after ``history_from``)."""
        roles = state.rules.roles
        me = roles.index(role)
        decision = self.decision(state)
        opponents = {
            other: {
                "cards": sorted(state.hands[i] + ((state.bids[i],) if state.bids[i] is not None else ())),
                "bid_placed": state.bids[i] is not None,
            }
            for i, other in enumerate(roles)
            if i != me
        }
        return {
            "game": NAME,
            "ruleset": state.rules.ruleset,
            "role": role,
            "cards": state.rules.cards,
            "step": decision.step if decision is not None else None,
            "prize": state.prize,
            "prizes_left": list(state.prizes_left),
            "hand": list(state.hands[me]),
            "bid": state.bids[me],
            "opponents": opponents,
            "scores": dict(zip(roles, state.scores)),
            "rounds": [
                {"prize": prize, "bids": dict(zip(roles, bids)),
                 "winner": roles[winner] if winner is not None else None}
                for prize, bids, winner in state.rounds
            ],
            "history_from": history_from,
            "history": [
                [number, who, step, key if visible is None or role in visible else redacted]
                for number, who, step, key, visible, redacted in state.history
                if number > history_from
            ],
        }

    def option_keys(self, rules: GoofspielRules) -> list[str]:
        """Every option key a match under ``rules`` can offer, chance included: what the RL
        bridges number as action ids (docs/training.md)."""
        cards = range(1, rules.cards + 1)
        return [f"prize:{k}" for k in cards] + [f"card:{k}" for k in cards]

    # -- optional capabilities (standoff.sdk.GameCapabilities) ------------------------------------

    def determinize(self, state: GoofspielState, role: str, rng: Any) -> GoofspielState:
        """A copy in which every other seat's pending bid is re-dealt among the cards that seat
        has not shown (what ``role`` knows of it): the view of ``role`` is unchanged. The prizes'
        order needs no re-dealing: chance draws each prize when it is revealed."""
        other = state.copy()
        roles = state.rules.roles
        for i, who in enumerate(roles):
            bid = state.bids[i]
            if who == role or bid is None:
                continue
            pool = sorted(state.hands[i] + (bid,))
            new = pool[rng.randrange(len(pool))]
            other.bids[i] = new
            other.hands[i] = tuple(k for k in pool if k != new)
            history = list(other.history)
            for j in range(len(history) - 1, -1, -1):  # the pending bid is who's last bid entry
                number, actor, step, _key, visible, redacted = history[j]
                if actor == who and step == "bid":
                    history[j] = (number, actor, step, f"card:{new}", visible, redacted)
                    break
            other.history = tuple(history)
        return other
