"""The replay of the Twilight Struggle forward model (:mod:`.belief`): a view's
history replayed on a fresh state of the real engine, decision by decision, with the cards the
role could not see filled in and exchanged (swapped identities) whenever a public fact names one,
each decision checked against the history's log entries and next decision, and retried after
re-dealing the other side's unknown cards when the engine's consequences of the hidden hand differ.
:mod:`.belief` documents the approach in full.
"""

from __future__ import annotations

import bisect
import random
from typing import Any

from ...core.game import CHANCE
from ...forward_model import SimulationError, differences
from . import ops as O
from .determinize import headline_revealed as _headline_revealed
from .state import USSR
from .belief_cards import (
    _ATTEMPTS,
    _BY_ID,
    _CARD,
    _DRAWS,
    _HAND_CHOICES,
    _NEVER,
    _TEHRAN,
    HIDDEN_CARD,
    HIDDEN_HAND,
    _eligible,
    _hand_cards,
    _named_card,
    _number,
    _scoring,
)

# -- the replay ---------------------------------------------------------------------------------------


class _Mismatch(Exception):
    """The replayed decision does not reproduce the history (retried with other hidden cards)."""


def _groups(history: list) -> list[tuple[tuple, list[tuple]]]:
    """The history as (decision entry, log entries after it): a log entry carries the number of
    the last decision (server/core/flow.py ``log``)."""
    groups: list[tuple[tuple, list[tuple]]] = []
    last = 0
    for entry in history:
        number, role, step, key = entry[0], entry[1], entry[2], entry[3]
        item = (number, role, step, key)
        if number == last + 1:
            groups.append((item, []))
            last = number
        elif number == last and groups:
            groups[-1][1].append(item)
        else:
            raise SimulationError(f"history entry {number} comes after entry {last}: not a whole history")
    return groups


class _Replay:
    def __init__(self, game: Any, rules: Any, view: dict[str, Any]) -> None:
        self.game = game
        self.rules = rules
        self.role: str = view["role"]
        if self.role not in rules.roles:
            raise SimulationError(f"role {self.role!r} is not a role of twilight-struggle")
        self.me = rules.roles.index(self.role)
        self.them = 1 - self.me
        self.them_role = rules.roles[self.them]
        self.state = game.new_state(rules)
        self.known: set[int] = set()
        self.headline_hidden = False  # the other side's current headline was chosen in secret
        self.pins: set[int] = set()  # cards the current decision needs in the other hand
        self.at = -1  # the history group being replayed

    # -- where hidden cards are --------------------------------------------------------------------

    def secret_headline(self) -> bool:
        state = self.state
        return bool(state.headline[self.them]) and self.headline_hidden and not _headline_revealed(state)

    def _drawn(self) -> list[int]:
        """Our Man in Tehran's drawn cards, hidden from the USSR."""
        if self.me != USSR:
            return []
        return [c for f in self.state.stack if f[0] in _TEHRAN for c in f[-1]]

    def where(self, card: int) -> str | None:
        """The hidden place of ``card`` (``deck``, ``hand``, ``headline``, ``drawn``), or None if
        the role can see where it is."""
        state = self.state
        if card in state.deck:
            return "deck"
        if card in state.hands[self.them]:
            return None if card in self.known else "hand"
        if card == state.headline[self.them] and self.secret_headline():
            return "headline"
        if card in self._drawn():
            return "drawn"
        return None

    def relabel(self, a: int, b: int) -> None:
        """Exchange two hidden cards' identities in every hidden place."""
        if a == b:
            return
        state, them = self.state, self.them

        def sw(c: int) -> int:
            return b if c == a else a if c == b else c

        hand = state.hands[them]
        if a in hand or b in hand:
            state.hands[them] = tuple(sorted(map(sw, hand)))
        known = state.known[them]  # the engine's own record of what the role saw there
        if a in known or b in known:
            state.known[them] = frozenset(map(sw, known))
        if a in state.deck or b in state.deck:
            state.deck = tuple(sorted(map(sw, state.deck)))
        if state.headline[them] in (a, b):
            state.headline[them] = sw(state.headline[them])
        names = {_CARD[a].id: _CARD[b].id, _CARD[b].id: _CARD[a].id}
        for i, frame in enumerate(state.stack):
            if frame[0] in _TEHRAN and (a in frame[-1] or b in frame[-1]):
                state.stack[i] = frame[:-1] + (tuple(map(sw, frame[-1])),)
            elif frame[0] == "ev_choice" and frame[2] in _HAND_CHOICES and any(k in names for k in frame[3]):
                # an event's choice among hand cards, listed when it asked (in card order)
                keys = [names.get(k, k) for k in frame[3]]
                cards = sorted((k for k in keys if k in _BY_ID), key=lambda k: _BY_ID[k].number)
                state.stack[i] = frame[:3] + (tuple(cards + [k for k in keys if k not in _BY_ID]),) + frame[4:]
        state.pending = None  # the pending decision may list either card

    # -- how much later public facts need a card where it is ------------------------------------

    def _next(self, table: dict[int, list[int]], card: int) -> int:
        uses = table.get(card)
        if not uses:
            return _NEVER
        i = bisect.bisect_right(uses, self.at)
        return uses[i] if i < len(uses) else _NEVER

    def _leave_hand_order(self, cards: list[int]) -> list[int]:
        """Hand cards best moved out first: not used from that hand soon, scoring cards first."""
        return sorted(cards, key=lambda c: (-self._next(self.hand_uses, c), not _scoring(c), c))

    def _enter_hand_order(self, cards: list[int]) -> list[int]:
        """Cards best moved into the other hand first: no scoring card, not drawn by us soon."""
        return sorted(cards, key=lambda c: (_scoring(c), -self._next(self.deck_uses, c), c))

    def _hand_swappable(self, exclude: frozenset[int] | set[int] = frozenset()) -> list[int]:
        return [
            c for c in self.state.hands[self.them]
            if c not in self.known and c not in self.pins and c not in exclude
        ]

    # -- bringing a card where a public fact says it is ----------------------------------------------

    def to_hand(self, card: int, exclude: frozenset[int] | set[int] = frozenset()) -> None:
        if card in self.state.hands[self.them]:
            return
        place = self.where(card)
        if place is None:
            raise _Mismatch(f"{_CARD[card].id} is needed in the {self.them_role} hand but the role sees it elsewhere")
        swap = self._hand_swappable(exclude | {card})
        if place == "headline":
            swap = [c for c in swap if _eligible(c)]
        if not swap:
            raise _Mismatch(f"no hidden {self.them_role} card could be {_CARD[card].id}")
        self.relabel(card, self._leave_hand_order(swap)[0])

    def to_deck(self, card: int) -> None:
        state = self.state
        if card in state.deck:
            return
        place = self.where(card)
        if place is None or not state.deck:
            raise _Mismatch(f"{_CARD[card].id} is drawn but the replay has it elsewhere")
        swap = list(state.deck)
        if place == "headline":
            swap = [c for c in swap if _eligible(c)]
        if not swap:
            raise _Mismatch(f"no card of the draw pile could be {_CARD[card].id}")
        # the card from the draw pile takes ``card``'s place: into the other hand, cards it
        # needs first; elsewhere, cards it does not need
        pins = self.pins
        swap = self._enter_hand_order(swap)
        swap.sort(key=lambda c: (c in pins) != (place == "hand"))
        self.relabel(card, swap[0])

    def to_headline(self, card: int) -> None:
        current = self.state.headline[self.them]
        if current == card:
            return
        known = card in self.state.hands[self.them]  # a card known there may be the headline too
        if not self.secret_headline() or not (known or self.where(card) is not None):
            raise _Mismatch(f"the {self.them_role} headline {_CARD[card].id} is not a hidden card")
        self.relabel(card, current)
        self.known.discard(card)

    def to_drawn(self, card: int) -> None:
        drawn = self._drawn()
        if card in drawn:
            return
        if self.where(card) is None:
            raise _Mismatch(f"{_CARD[card].id} is discarded from Our Man in Tehran's draws")
        later = {c for _, c in self.tehran_discards(self.at)}
        swap = [c for c in drawn if c not in later] or drawn
        if not swap:
            raise _Mismatch("Our Man in Tehran drew nothing")
        self.relabel(card, swap[0])

    # -- lookahead ------------------------------------------------------------------------------------

    def index(self, groups: list[tuple[tuple, list[tuple]]]) -> None:
        """Later public facts: where each card is needed, by group index."""
        self.groups = groups
        self.hand_uses: dict[int, list[int]] = {}
        self.deck_uses: dict[int, list[int]] = {}
        them = self.them_role
        for gi, (entry, logs) in enumerate(groups):
            _, role, step, key = entry
            card = _named_card(key)
            if card is not None:
                if role == CHANCE and step in _DRAWS:
                    self.deck_uses.setdefault(card, []).append(gi)
                elif role != self.role:
                    self.hand_uses.setdefault(card, []).append(gi)
            for _, lrole, lstep, lkey in logs:
                if lrole != them:
                    continue
                if lstep in ("headline_reveal", "missile_envy_gives"):
                    card = _named_card(lkey)
                    if card is not None:
                        self.hand_uses.setdefault(card, []).append(gi)
                elif lstep in ("reveal_hand", "reveal_scoring_cards") and lkey != HIDDEN_HAND:
                    for card in _hand_cards(lkey):
                        self.hand_uses.setdefault(card, []).append(gi)
        self._needs = [self._group_needs(gi) for gi in range(len(groups))]

    def tehran_discards(self, gi: int) -> list[tuple[int, int]]:
        """(group, card) of the other side's Tehran discards following group ``gi``."""
        found = []
        for j in range(gi + 1, len(self.groups)):
            _, role, step, key = self.groups[j][0]
            if step == "tehran_draw":
                continue
            if step != "tehran_discard":
                break
            card = _named_card(key)
            if card is not None:
                found.append((j, card))
        return found

    def headline_reveal(self, gi: int) -> int | None:
        """The card the other side's headline chosen at group ``gi`` turns out to be."""
        for j in range(gi, len(self.groups)):
            entry, logs = self.groups[j]
            if j > gi and entry[2] == "headline" and entry[1] == self.them_role:
                return None
            for _, role, step, key in logs:
                if step == "headline_reveal" and role == self.them_role:
                    return _named_card(key)
        return None

    def needs(self, gi: int) -> frozenset[int]:
        """Cards group ``gi``'s public facts need in the other hand."""
        return self._needs[gi]

    def _group_needs(self, gi: int) -> frozenset[int]:
        needed = set()
        entry, logs = self.groups[gi]
        _, role, step, key = entry
        card = _named_card(key)
        mine = role == self.role and not key.startswith("choice:")  # (Aldrich Ames: a US card)
        if card is not None and not mine and not (role == CHANCE and step in _DRAWS):
            if step != "tehran_discard":
                needed.add(card)
        for _, lrole, lstep, lkey in logs:
            if lrole != self.them_role:
                continue
            if lstep == "missile_envy_gives":
                card = _named_card(lkey)
                if card is not None:
                    needed.add(card)
            elif lstep in ("reveal_hand", "reveal_scoring_cards") and lkey != HIDDEN_HAND:
                needed.update(_hand_cards(lkey))
        return frozenset(needed)

    # -- repairs (a retried decision) ----------------------------------------------------------------

    def repair(self, attempt: int) -> None:
        """Re-deal the other side's unknown, unneeded hand cards: attempt 1 without scoring cards,
        2-3 with the lowest Operations (Missile Envy's pick, trapped rounds), then at random."""
        if attempt == 0:
            return
        state = self.state
        if attempt == 1:
            self._swap_out([c for c in self._hand_swappable() if _scoring(c)], scoring_ok=False)
            return
        if attempt in (2, 3):
            them = self.them

            def ops(c: int) -> int:
                return 0 if _scoring(c) else O.ops_value(state, them, c)

            hand = sorted(self._hand_swappable(), key=lambda c: -ops(c))
            deck = [c for c in state.deck if c not in self.pins and (attempt == 2 or not _scoring(c))]
            deck.sort(key=ops)
            for out, into in zip(hand, deck, strict=False):
                if ops(into) >= ops(out):
                    break
                self.relabel(into, out)
            return
        rng = random.Random(attempt)
        hand = self._hand_swappable()
        pool = hand + [c for c in state.deck if c not in self.pins]
        rng.shuffle(pool)
        target = pool[: len(hand)]
        if attempt % 2:
            target = [c for c in target if not _scoring(c)]
            spare = [c for c in pool[len(hand):] if not _scoring(c)]
            target += spare[: len(hand) - len(target)]
        entering = [c for c in target if c not in hand]
        leaving = [c for c in hand if c not in target]
        for into, out in zip(entering, leaving, strict=False):
            self.relabel(into, out)

    def _swap_out(self, cards: list[int], *, scoring_ok: bool) -> None:
        for out in cards:
            deck = [c for c in self.state.deck if c not in self.pins and (scoring_ok or not _scoring(c))]
            if not deck:
                return
            self.relabel(self._enter_hand_order(deck)[0], out)

    def shape_missile_envy(self, gi: int) -> None:
        """Missile Envy played against the other side: its highest-Operations card (non-scoring,
        after modifiers) is the one the history names; with a tie, the holder chose among them."""
        entry, logs = self.groups[gi]
        them = self.them_role
        given = next((_named_card(k) for _, r, s, k in logs if r == them and s == "missile_envy_gives"), None)
        tie = False
        if gi + 1 < len(self.groups):
            _, r, s, k = self.groups[gi + 1][0]
            if r == them and s == "missile_envy":
                given, tie = _named_card(k), True
        if given is None or (entry[1] == them and entry[2] == "missile_envy"):
            return
        state, side = self.state, self.them

        def ops(c: int) -> int:
            return 0 if _scoring(c) else O.ops_value(state, side, c)

        value = ops(given)
        for out in [c for c in self._hand_swappable({given}) if ops(c) > value or (ops(c) == value and not tie)]:
            lower = [c for c in state.deck if c not in self.pins and ops(c) < value]
            if lower:
                self.relabel(self._enter_hand_order(lower)[0], out)
        hand = state.hands[self.them]
        if tie and not any(c != given and ops(c) == value for c in hand):
            equal = [c for c in state.deck if c not in self.pins and ops(c) == value]
            spare = self._leave_hand_order(self._hand_swappable({given}))
            if equal and spare:
                self.relabel(equal[0], spare[0])

    # -- one decision ---------------------------------------------------------------------------------

    def step(self, gi: int, attempt: int) -> None:
        game, state = self.game, self.state
        entry, logs = self.groups[gi]
        number, role, step, key = entry
        self.at = gi
        decision = game.decision(state)
        if decision is None:
            raise _Mismatch("the replayed match is over")
        if (decision.role, decision.step) != (role, step):
            hint = (" (the history does not start at the deal: a match started from a position? "
                    "Belief.from_position(game, view, position) starts from one)") if gi == 0 else ""
            raise _Mismatch(f"the engine asks {decision.role} at {decision.step!r}{hint}")
        self.pins = set(self.needs(gi))
        if gi + 1 < len(self.groups):
            self.pins |= self.needs(gi + 1)
        self.repair(attempt)
        # A hidden draw by the other side first (a card its reveal in this very group shows).
        filler = None
        if key == HIDDEN_CARD and role == CHANCE and step == "deal":
            filler = self.option(gi, role, step, key).value
            self.pins.add(filler)
        # Facts of this decision and its log entries, then (best effort) the next decision's.
        card = _named_card(key)
        if key != HIDDEN_CARD and card is not None:
            if role == CHANCE and step in _DRAWS:
                self.to_deck(card)
            elif step == "tehran_discard" and role == self.them_role:
                self.to_drawn(card)
            elif self.where(card) is not None:
                self.to_hand(card)
        for _, lrole, lstep, lkey in logs:
            if lrole != self.them_role:
                continue
            if lstep == "headline_reveal":
                revealed = _named_card(lkey)
                if revealed is not None and not (role == lrole and step == "headline" and key == HIDDEN_CARD):
                    self.to_headline(revealed)
            elif lstep == "missile_envy_gives":
                given = _named_card(lkey)
                if given is not None:
                    self.to_hand(given)
            elif lstep in ("reveal_hand", "reveal_scoring_cards") and lkey != HIDDEN_HAND:
                shown = _hand_cards(lkey)
                for c in shown:
                    # (a card the role sees elsewhere may reach that hand in this very group:
                    # Missile Envy given back; the log check below has the last word)
                    if c != filler and self.where(c) is not None:
                        self.to_hand(c, set(shown))
                if lstep == "reveal_scoring_cards":
                    others = [c for c in self._hand_swappable(set(shown)) if _scoring(c)]
                    self._swap_out(others, scoring_ok=False)
        if gi + 1 < len(self.groups):
            # An event's choice lists the hand when the event starts (ev_choice frames): the card
            # the next decision names must be in the other hand before this one is applied.
            nxt = self.groups[gi + 1][0]
            drawn_now = _named_card(key) if role == CHANCE and step in _DRAWS else None
            card = _named_card(nxt[3])
            if card is not None and card not in (drawn_now, filler) and not (nxt[1] == CHANCE and nxt[2] in _DRAWS):
                if nxt[2] != "tehran_discard" and self.where(card) in ("deck", "headline", "drawn"):
                    try:
                        self.to_hand(card)
                    except _Mismatch:
                        pass
        self.shape_missile_envy(gi)
        if filler is None:
            option = self.option(gi, role, step, key)
        else:
            option = next((o for o in game.decision(state).options if o.value == filler), None)
            if option is None:
                raise _Mismatch("the hidden draw left the draw pile")
        # Apply and check what it produced against the history.
        head = state.history
        before = set(state.hands[self.them])
        game.apply(state, option)
        produced = []
        node = state.history
        while node is not head and node is not None:
            produced.append(node[0])
            node = node[1]
        produced.reverse()
        seen = [
            (e[0], e[1], e[2], e[3] if e[4] is None or self.role in e[4] else e[5]) for e in produced
        ]
        if seen != [entry, *logs]:
            raise _Mismatch(f"the replay logs {seen[1:]!r}, the history {logs!r}")
        following = game.decision(state)
        if gi + 1 < len(self.groups):
            want = self.groups[gi + 1][0][1:3]
            if following is None or (following.role, following.step) != want:
                got = None if following is None else (following.role, following.step)
                raise _Mismatch(f"the engine then asks {got}, the history {want}")
            wanted = self.groups[gi + 1][0][3]
            if state.stack[-1][0] == "ev_choice" and wanted != HIDDEN_CARD:
                # its options were fixed when the event asked: no later exchange can add one
                if all(o.key != wanted for o in following.options):
                    raise _Mismatch(f"the engine then offers no {wanted!r}")
        # What the role now knows of the other hand.
        after = state.hands[self.them]
        known = {c for c in self.known if c in after}
        if not (role == CHANCE and step in _DRAWS):
            # Put there in public: a hidden draw is the only hidden way into that hand (a card
            # may enter it while a hidden decision applies: Missile Envy given in the headline
            # phase, resolved with the other side's secret headline choice).
            known.update(c for c in after if c not in before)
        for _, lrole, lstep, lkey in logs:
            if lrole == self.them_role and lstep in ("reveal_hand", "reveal_scoring_cards") and lkey != HIDDEN_HAND:
                known.update(c for c in _hand_cards(lkey) if c in after)
        self.known = known
        if role == self.them_role and step == "headline":
            self.headline_hidden = key == HIDDEN_CARD
        if gi + 1 == len(self.groups):
            self.finish()

    def option(self, gi: int, role: str, step: str, key: str) -> Any:
        game, state = self.game, self.state
        decision = game.decision(state)
        if key != HIDDEN_CARD:
            for option in decision.options:
                if option.key == key:
                    return option
            raise _Mismatch(f"{key!r} is not an option of {step!r}")
        if role == CHANCE and step == "deal":
            # the other side's draw: a card this group shows in that hand, else a filler
            hand = state.hands[self.them]
            wanted = sorted(c for c in self.needs(gi) if c not in hand and self.where(c) is not None)
            if wanted:
                self.to_deck(wanted[0])
                card = wanted[0]
            else:
                card = self._enter_hand_order([o.value for o in decision.options])[0]
        elif role == CHANCE and step == "tehran_draw":
            drawn = set(self._drawn())
            card = None
            for _, wanted in self.tehran_discards(gi):
                if wanted not in drawn and self.where(wanted) is not None:
                    self.to_deck(wanted)
                    card = wanted
                    break
            if card is None:
                card = self._enter_hand_order([o.value for o in game.decision(state).options])[0]
        elif role == self.them_role and step == "headline":
            card = self.headline_reveal(gi)
            if card is not None:
                if card not in state.hands[self.them]:
                    self.to_hand(card)
            else:
                options = [o.value for o in game.decision(state).options]
                options.sort(key=lambda c: (c in self.known, -self._next(self.hand_uses, c), c))
                card = options[0] if options else None
        else:
            raise _Mismatch(f"a hidden choice at {step!r} by {role}")
        decision = game.decision(state)
        for option in decision.options:
            if option.value == card:
                return option
        raise _Mismatch(f"{step!r}: the hidden choice cannot be reproduced")

    # -- the whole history ------------------------------------------------------------------------------

    def run(self, view: dict[str, Any], check: bool = True) -> None:
        self.view = view
        self.check = check
        groups = _groups(view.get("history") or [])
        self.index(groups)
        if not groups:
            try:
                self.finish()
            except _Mismatch as exc:
                raise SimulationError(str(exc)) from exc
            return
        for gi, (entry, _) in enumerate(groups):
            base = self.state.copy()
            base_known = set(self.known)
            base_hidden = self.headline_hidden
            first: _Mismatch | None = None
            for attempt in range(_ATTEMPTS):
                if attempt:
                    self.state = base.copy()
                    self.known = set(base_known)
                    self.headline_hidden = base_hidden
                    if not self._repairable():
                        break
                try:
                    self.step(gi, attempt)
                    first = None
                    break
                except _Mismatch as exc:
                    first = first or exc
            if first is not None:
                raise SimulationError(f"entry {entry[0]} ({entry[1]} {entry[2]} {entry[3]}): {first}")
        self.pins = set()

    def _repairable(self) -> bool:
        """Whether other hidden cards could change what a decision produces (otherwise a
        mismatch is final): the other side holds unknown cards."""
        return any(c not in self.known for c in self.state.hands[self.them])

    def finish(self) -> None:
        """The view's hands: the other hand when it is open (Aldrich Ames Remix), our own."""
        state, view = self.state, self.view
        shown = view.get("opponent_hand") or []
        if shown:
            want = []
            for name in shown:
                card = _number(name)
                if card is None:
                    raise SimulationError(f"unknown card {name!r} in opponent_hand")
                want.append(card)
            for card in want:
                self.to_hand(card, set(want))
            self.known = set(state.hands[self.them])
        # What the last decision led to must show exactly the view (whose turn it is, a round
        # skipped for want of cards...): otherwise that decision is retried with other cards.
        if self.check:
            mine = self.game.view(state, self.role)
            if "rules" not in view:  # a view of a server older than the field
                mine.pop("rules", None)
            if mine != view:
                raise _Mismatch(
                    "the replayed state shows a different view (fields: "
                    + ", ".join(differences(mine, view)) + ")"
                )
        else:
            decision = self.game.decision(state)
            if (None if decision is None else decision.step) != view.get("step"):
                raise _Mismatch(f"the replayed state is at step {decision and decision.step!r}")
