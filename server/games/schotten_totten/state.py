"""The state of a Schotten Totten / Battle Line match: plain data, cheap to copy.

Collections that change rarely are tuples inside lists (a copy shares them); roles are indices
(0 = ``p1``). Flag ``f`` (0-based here, ``flag:f+1`` in keys) has one *side* per role at index
``f * n_roles + role``.
"""

from __future__ import annotations

from ...core.flow import StackState
from .cards import TACTICS, troop_deck
from .rules import STRules

NO_ONE = -1
TROOPS, TACTICS_DECK = 0, 1
DECK_NAMES = ("troops", "tactics")


class STState(StackState):
    __slots__ = (
        "hands",
        "decks",
        "tops",
        "sides",
        "placed",
        "fog",
        "mud",
        "claimed",
        "tactics_played",
        "leader_played",
        "discards",
        "known",
        "current",
        "passes",
        "turn",
        "table",
        "proofs",
        "deck_options",
    )

    def __init__(self, rules: STRules) -> None:
        super().__init__(rules)
        n = len(rules.roles)
        #: hands[role]: tuple of card ids (sorted by id: order in hand carries no information)
        self.hands: list[tuple[int, ...]] = [() for _ in range(n)]
        #: decks[d]: cards of deck d whose position nobody knows, sorted (a draw is a chance
        #: decision among them)
        self.decks: list[tuple[int, ...]] = [
            _TROOP_DECKS[rules.max_value],
            TACTICS if rules.tactics else (),
        ]
        #: tops[d]: known cards on top of deck d, put back by Scout: ((card, knower), ...), the
        #: last item is the top card
        self.tops: list[tuple[tuple[int, int], ...]] = [(), ()]
        #: sides[f * n + role]: the cards on that side of flag f, in order of arrival
        self.sides: list[tuple[int, ...]] = [() for _ in range(9 * n)]
        #: placed[...]: the decision number at which each card of that side arrived; a complete
        #: side's completion time is the largest of these (see rules digest §4)
        self.placed: list[tuple[int, ...]] = [() for _ in range(9 * n)]
        #: fog[f] / mud[f]: the role that played it there, or NO_ONE
        self.fog: list[int] = [NO_ONE] * 9
        self.mud: list[int] = [NO_ONE] * 9
        self.claimed: list[int] = [NO_ONE] * 9
        self.tactics_played: list[int] = [0] * n
        self.leader_played: list[bool] = [False] * n
        #: discards[role]: face-up cards that left play from that role's hand or side
        self.discards: list[tuple[int, ...]] = [() for _ in range(n)]
        #: known[role]: cards that role knows to be in another hand (Scout tops drawn by another)
        self.known: list[tuple[int, ...]] = [() for _ in range(n)]
        self.current = 0  # the role whose turn it is
        self.passes = 0  # passes in succession (stalemate policy)
        self.turn = 0
        #: 60-bit mask of the troops on the table (on a flag or discarded face up). Troops reach
        #: the table only from a hand and never leave it, so the troops a claim proof must
        #: consider are exactly the ruleset's troops outside this mask.
        self.table = 0
        #: per side: a cached claim verdict (see steps.claimable_flags); a pure function of the
        #: rest of the state, shared between copies (entries are immutable)
        self.proofs: list[tuple | None] = [None] * (9 * n)
        #: per deck: ``(deck tuple, its card options)``, the options of the last draw from that
        #: deck (see board.deck_options); valid while ``decks[d]`` is that very tuple
        self.deck_options: list[tuple | None] = [None, None]

    def copy(self) -> STState:
        other = STState.__new__(STState)
        self._copy_into(other)
        other.hands = self.hands.copy()
        other.decks = self.decks.copy()
        other.tops = self.tops.copy()
        other.sides = self.sides.copy()
        other.placed = self.placed.copy()
        other.fog = self.fog.copy()
        other.mud = self.mud.copy()
        other.claimed = self.claimed.copy()
        other.tactics_played = self.tactics_played.copy()
        other.leader_played = self.leader_played.copy()
        other.discards = self.discards.copy()
        other.known = self.known.copy()
        other.current = self.current
        other.passes = self.passes
        other.turn = self.turn
        other.table = self.table
        other.proofs = self.proofs.copy()
        other.deck_options = self.deck_options.copy()
        return other

    # -- small queries used by steps, views and bots ------------------------------------------

    @property
    def n_roles(self) -> int:
        return len(self.rules.roles)

    def capacity(self, flag: int) -> int:
        """Cards a side of ``flag`` needs to be complete: 3, or 4 with Mud."""
        return 4 if self.mud[flag] != NO_ONE else 3

    def side(self, flag: int, role: int) -> tuple[int, ...]:
        return self.sides[flag * len(self.rules.roles) + role]

    def completed_at(self, flag: int, role: int) -> int | None:
        """Decision number at which that side became complete, or ``None`` if it is not."""
        i = flag * len(self.rules.roles) + role
        if len(self.sides[i]) < self.capacity(flag):
            return None
        return max(self.placed[i])

    def deck_size(self, deck: int) -> int:
        return len(self.decks[deck]) + len(self.tops[deck])

    def unseen_mask(self) -> int:
        """Mask of the troops not on the table: the troop deck and every hand (claim proofs
        consider these)."""
        return _ALL_TROOPS[self.rules.max_value] & ~self.table

    def unseen_troops(self) -> list[int]:
        """Troops not on the table, ascending."""
        mask = self.unseen_mask()
        return [c for c in range(60) if mask >> c & 1]


#: the full troop deck of each ruleset (tuples are immutable: every new state shares one)
_TROOP_DECKS = {max_value: tuple(troop_deck(max_value)) for max_value in (9, 10)}
_ALL_TROOPS = {max_value: sum(1 << c for c in troop_deck(max_value)) for max_value in (9, 10)}
