"""What one decision of ``ts-heuristic`` knows: :class:`Ctx` reads the view it is given (decoded
from the wire, turned into the engine's dict with :func:`standoff.sdk.views.as_dict`) and the
decision's prompt, never the referee's state: the board relative to us (``B = [mine, theirs]``),
VP, DEFCON, military operations, space race, hands, lasting effects, the history. It builds the
:class:`~.evaluation.Evaluator` with this turn's weights (higher for the regions whose scoring
card we hold, lower for the Mid War regions before their cards are in the deck, higher near the
final scoring), counts the action rounds left, tells which events can happen now and what a
scoring card would score (:meth:`Ctx.score_net`, the engine's region tiers and Formosan
Resolution's extra battleground). Values computed for the decision are memoised in ``_cache``.
"""

from __future__ import annotations

from typing import Any

from ...sdk.views import as_dict
from .data import (
    ALL_BGS,
    ASIA,
    BATTLEGROUNDS,
    BG,
    BONUS,
    CARD,
    CARD_NUM,
    CHINA,
    INDEX,
    MID_REGIONS,
    MIDDLE_EAST,
    MISSILE_ENVY,
    N,
    OWNER,
    REG,
    REGION_COUNTRIES,
    SCORING,
    SCORING_REGION,
    SEA_SCORE,
    SIDE,
    SIDE_NAME,
    STAR_WARS,
    UN_INTERVENTION,
    US,
    USSR,
    WARGAMES,
    WIN,
)
from .data import country_index as _c
from .evaluation import Evaluator, ctrl, region_level

#: the scoring card of each region that has one (Southeast Asia's is valued apart)
REGION_CARD = {r: card for card, r in SCORING_REGION.items()}


def read_view(view: Any) -> dict[str, Any]:
    """The engine-style dict of a view, its history converted lazily (:func:`as_dict`)."""
    return as_dict(view, lazy_history=True)


class Ctx:
    """Everything one decision needs, read from the view (plus the decision's prompt); ``bot``
    is the :class:`~.bot.TSHeuristicBot` asking."""

    #: weight of a region's scoring (presence / domination / control) in the evaluation
    REGION_WEIGHT = 0.45
    #: weight of a region's scoring while we hold its scoring card (it will be scored this turn)
    HELD_WEIGHT = 1.0
    #: weight of controlling a country that is not a battleground (a battleground: 1). Its
    #: region's scoring (presence, domination, control) is counted apart, through
    #: ``REGION_WEIGHT``; this is only what holding it is worth besides. Lowered from 0.3 in
    #: issue 25's sixth round (docs/bots.md, ``ts-heuristic``, has the pilots' figures): points
    #: spent on plain countries for their own sake were points the opponent spent on battlegrounds.
    PLAIN_WEIGHT = 0.1
    #: :attr:`urgency` by our action rounds left (1, 2, ...; the last entry for more)
    URGENCY = (1.4, 1.3, 1.2, 1.1, 1.0, 0.9, 0.8)
    #: card counting (issue 25's seventh round), turns 1-8: a region whose scoring card is in the
    #: discard pile cannot be scored again before a reshuffle, its weight times this ...
    DISCARD_FACTOR = 0.7
    #: ... and a region whose scoring card is unseen moves this share of the way from its weight
    #: to :attr:`HELD_WEIGHT` by the chance that the opponent holds the card now (its hand's
    #: share of the unseen cards: the draw pile and its hand); a scoring card seen in its hand
    #: (Aldrich Ames Remix) weighs as if we held it
    OPP_SHARE = 1.0

    def __init__(self, bot: Any, view: dict[str, Any], decision: Any) -> None:
        self.bot = bot
        self.view = view
        self.decision = decision
        me = SIDE[view["role"]]
        self.me = me
        self.opp = 1 - me
        self.turn = int(view.get("turn") or 1)
        self.ar = int(view.get("action_round") or 0)
        self.defcon = int(view.get("defcon") or 5)
        vp = int(view.get("vp") or 0)
        self.lead = vp if me == US else -vp  # our VP lead
        milops = view.get("military_ops") or {}
        space = view.get("space") or {}
        self.milops = [int(milops.get(SIDE_NAME[me], 0)), int(milops.get(SIDE_NAME[1 - me], 0))]
        self.space = [int(space.get(SIDE_NAME[me], 0)), int(space.get(SIDE_NAME[1 - me], 0))]
        self.hand = [CARD_NUM[c] for c in view.get("hand") or () if c in CARD_NUM]
        self.opp_hand = [CARD_NUM[c] for c in view.get("opponent_hand") or () if c in CARD_NUM]
        self.opp_hand_size = int(view.get("opponent_hand_size") or 0)
        china = view.get("china_card") or {}
        holder = china.get("holder")
        self.china = None if holder is None else (0 if SIDE.get(holder) == me else 1)
        self.china_up = bool(china.get("face_up"))
        self.effects = frozenset(view.get("effects") or ())
        self.events_played = frozenset(CARD_NUM[c] for c in view.get("events_played") or () if c in CARD_NUM)
        self.discard = [CARD_NUM[c] for c in view.get("discard") or () if c in CARD_NUM]
        self.deck_size = int(view.get("deck_size") or 0)
        self.removed = frozenset(CARD_NUM[c] for c in view.get("removed") or () if c in CARD_NUM)
        phasing = view.get("phasing")
        self.phasing = 0 if SIDE.get(phasing, me) == me else 1
        self.history = view.get("history") or []
        B = [[0] * N, [0] * N]
        for cid, inf in (view.get("influence") or {}).items():
            i = INDEX.get(cid)
            if i is None:
                continue
            B[0][i] = int(inf.get(SIDE_NAME[me], 0))
            B[1][i] = int(inf.get(SIDE_NAME[1 - me], 0))
        self.B = B
        self.ev = self._evaluator()
        self.cnt = self.ev.counts(B)
        self._cache: dict[Any, Any] = {}
        total = 6 if self.turn <= 3 else 7
        self.rounds_total = [total, total]
        for s in (0, 1):
            if self.space[s] >= 8 and self.space[1 - s] < 8:
                self.rounds_total[s] += 1
        if "north_sea_oil:turn" in self.effects:
            us = 0 if me == US else 1
            if self.rounds_total[us] == total:
                self.rounds_total[us] += 1

    # -- basics ----------------------------------------------------------------------------------

    def table(self, opcost: bool, cands) -> dict:
        """Our placement packages on the current board (shared by every plan made from it)."""
        key = ("table", opcost)
        table = self._cache.get(key)
        if table is None:
            table = self._cache[key] = {}
        missing = [c for c in cands if c not in table]
        if missing:
            table.update(self.ev.table(self.B, self.cnt, 0, 0, 1, missing, 8, opcost))
        return table

    def board_sig(self) -> tuple:
        return (tuple(self.B[0]), tuple(self.B[1]))

    @property
    def sig(self) -> tuple:
        """What the valuation of a card's uses depends on (besides the card)."""
        return (self.turn, self.ar, self.defcon, self.lead, tuple(self.milops), tuple(self.space),
                self.effects, self.board_sig())

    def abs(self, s: int) -> int:
        return self.me if s == 0 else 1 - self.me

    def rel(self, side_abs: int) -> int:
        return 0 if side_abs == self.me else 1

    def has(self, effect: str) -> bool:
        return effect in self.effects

    def rounds_left(self, s: int) -> int:
        """Action rounds of ``s`` (relative) still to come this turn, the current one included."""
        ar = self.ar
        if ar <= 0:
            return self.rounds_total[s]
        side_abs = self.abs(s)
        left = self.rounds_total[s] - ar
        phasing_abs = self.abs(self.phasing)
        if phasing_abs == side_abs or (side_abs == US and phasing_abs == USSR):
            left += 1
        return max(0, left)

    @property
    def urgency(self) -> float:
        """Weight of a military-operations point still missing this turn: the VP it saves, more
        than a point of board value once the rounds run out (that VP is certain). Raised in
        issue 25 (it was 0.4 with 7 rounds left, 0.5 .. 1.3 after): in 16 paired games the
        frozen heuristic lost ~2 VP a game to the shortfall as the US, the bot with issue 25's
        first fixes (the space slot) ~5."""
        left = self.rounds_left(0)
        table = self.URGENCY
        return table[min(left, len(table)) - 1] if left >= 1 else table[0]

    def _evaluator(self) -> Evaluator:
        turn = self.turn
        wr = []
        held_regions = {SCORING_REGION[c] for c in self.hand if c in SCORING_REGION}
        for r in range(6):
            w = self.REGION_WEIGHT
            if turn <= 3 and r in MID_REGIONS:
                w = self.REGION_WEIGHT / 2
            if turn >= 9:
                w = 0.7
            if turn >= 10:
                w = 1.0
            if turn <= 8:  # turns 9-10 weigh every region for the final scoring
                w = self.counted_weight(r, w)
            if r in held_regions:
                w = max(w, self.HELD_WEIGHT)
            wr.append(w)
        rmul = [1.15, 1.0, 1.05, 0.85, 0.85, 0.85]
        if turn <= 3:
            rmul[3] = rmul[4] = rmul[5] = 0.6
        cw = [(1.0 if BG[c] else self.PLAIN_WEIGHT) * rmul[REG[c]] for c in range(N)]
        if 38 in self.hand:
            for c, v in SEA_SCORE.items():
                cw[c] += 0.8 * v
        return Evaluator(self.me, wr, cw)

    def counted_weight(self, r: int, w: float) -> float:
        """Region ``r``'s weight ``w`` corrected by where its scoring card is, as far as we can
        know it (card counting): discarded (not scored again before a reshuffle), seen in the
        opponent's hand, or unseen (in the draw pile or the opponent's hand, by their sizes).
        Southeast Asia has no region weight of its own (its card is valued in ``cw``); a Mid War
        region before turn 4 keeps its halved weight (its card is not in the deck yet)."""
        card = REGION_CARD.get(r)
        if card is None or card in self.hand:
            return w
        if card in self.discard:
            return w * self.DISCARD_FACTOR
        if card in self.opp_hand:
            return max(w, self.HELD_WEIGHT)
        if self.turn <= 3 and r in MID_REGIONS:
            return w
        unseen = self.deck_size + self.opp_hand_size
        p = self.opp_hand_size / unseen if unseen else 0.0
        return w + self.OPP_SHARE * p * max(0.0, self.HELD_WEIGHT - w)

    def ops_value(self, s: int, card: int) -> int:
        side_abs = self.abs(s)
        v = 4 if card == CHINA else CARD[card].ops
        bonus = "containment:turn" if side_abs == US else "brezhnev_doctrine:turn"
        if bonus in self.effects and v < 4:
            v += 1
        if f"red_scare:{SIDE_NAME[side_abs]}:turn" in self.effects:
            v = max(1, v - 1)
        return v

    def controls(self, s: int, c: int) -> bool:
        return ctrl(c, self.B[s][c], self.B[1 - s][c]) > 0

    # -- history ---------------------------------------------------------------------------------

    def current_event(self) -> int | None:
        for entry in reversed(self.history):
            if len(entry) >= 4 and entry[2] == "event":
                return CARD_NUM.get(str(entry[3]).partition(":")[2])
        return None

    def current_play(self) -> tuple[int | None, str]:
        """(card, use key) of our latest card play this round, from the history."""
        me = SIDE_NAME[self.me]
        hist = self.history
        for i in range(len(hist) - 1, -1, -1):
            e = hist[i]
            if len(e) < 4:
                continue
            if e[1] == me and e[2] == "card_use":
                for j in range(i - 1, max(-1, i - 6), -1):
                    f = hist[j]
                    if len(f) >= 4 and f[2] in ("action_round", "grain_sales"):
                        return CARD_NUM.get(str(f[3]).partition(":")[2]), str(e[3])
                return None, str(e[3])
            if e[2] in ("action_round", "headline_reveal") and e[1] != me:
                return None, ""
        return None, ""

    def placements_since_play(self) -> list[int]:
        me = SIDE_NAME[self.me]
        out = []
        for e in reversed(self.history):
            if len(e) < 4:
                continue
            if e[1] == me and e[2] == "card_use":
                break
            if e[1] == me and e[2] == "influence":
                c = INDEX.get(str(e[3]).partition(":")[2])
                if c is not None:
                    out.append(c)
        return out

    def space_attempts(self) -> int:
        if "space_attempts" in self._cache:
            return self._cache["space_attempts"]
        me = SIDE_NAME[self.me]
        n = 0
        for e in reversed(self.history):
            if len(e) < 4:
                continue
            if e[2] in ("headline_reveal", "headline"):
                break
            if e[1] == me and e[2] == "card_use" and str(e[3]) == "use:space":
                n += 1
        self._cache["space_attempts"] = n
        return n

    # -- card knowledge --------------------------------------------------------------------------

    def unseen(self, card: int) -> bool:
        """Could ``card`` be in the opponent's hand?"""
        if card in self.removed or card in self.hand or card in self.discard:
            return False
        if self.opp_hand and card not in self.opp_hand:
            return False
        return True

    def playable(self, card: int, s: int) -> bool:
        """Whether the event of ``card`` can happen now for ``s`` (relative)."""
        data = CARD[card]
        if card == CHINA or card not in CARD:
            return False
        if data.prerequisite and not any(p in self.events_played for p in data.prerequisite):
            return False
        if any(b in self.events_played for b in data.blocked_by):
            return False
        side_abs = self.abs(s)
        if self.china is None and card in (31, 35, 58):  # Chinese Civil War variant, unclaimed
            return card == 31 and side_abs == US
        if card == UN_INTERVENTION:
            hand = self.hand if s == 0 else self.opp_hand
            return s == 1 or any(OWNER[c] == 1 - side_abs for c in hand if c != UN_INTERVENTION)
        if card == 48:
            us = 0 if self.me == US else 1
            a = sum(1 for c in BATTLEGROUNDS if self.controls(us, c))
            b = sum(1 for c in BATTLEGROUNDS if self.controls(1 - us, c))
            return a > b
        if card == MISSILE_ENVY:
            return f"missile_envy:{SIDE_NAME[side_abs]}" not in self.effects
        if card == 80:
            return self.space[s] < self.space[1 - s]
        if card == STAR_WARS:
            us = 0 if self.me == US else 1
            return self.space[us] > self.space[1 - us]
        if card == WARGAMES:
            return self.defcon == 2
        if card == 104:
            return self.turn < 8
        if card == 108:
            us = 0 if self.me == US else 1
            return any(self.controls(us, c) for c in REGION_COUNTRIES[MIDDLE_EAST])
        return True

    def event_actor(self, card: int, player: int) -> int:
        owner = OWNER[card]
        return player if owner is None else self.rel(owner)

    # -- scoring ---------------------------------------------------------------------------------

    def score_net(self, card: int, B=None) -> float:
        """Our net VP from playing scoring card ``card`` now (± WIN for Europe control)."""
        B = B or self.B
        if card == 38:
            net = 0
            for c, v in SEA_SCORE.items():
                k = ctrl(c, B[0][c], B[1][c])
                net += k * v
            return float(net)
        r = SCORING_REGION[card]
        res = []
        formosan = r == ASIA and self.has("formosan_resolution")
        taiwan = _c("taiwan")
        us = 0 if self.me == US else 1
        counts = []
        for s in (0, 1):
            t = b = bon = 0
            side_abs = self.abs(s)
            for c in REGION_COUNTRIES[r]:
                if ctrl(c, B[s][c], B[1 - s][c]) > 0:
                    t += 1
                    if BG[c] or (formosan and s == us and c == taiwan):
                        b += 1
                    bon += BONUS[side_abs][c]
            counts.append((t, b, bon))
        all_bgs = ALL_BGS[r] + (1 if formosan and ctrl(taiwan, B[us][taiwan], B[1 - us][taiwan]) > 0 else 0)
        for s in (0, 1):
            t, b, bon = counts[s]
            ot, ob, _ = counts[1 - s]
            level = region_level(t, b, ot, ob, all_bgs)
            v = SCORING[r][level - 1] if level else 0
            if v is None:  # controlling Europe wins the game
                return WIN if s == 0 else -WIN
            res.append(v + b + bon)
        return float(res[0] - res[1])

