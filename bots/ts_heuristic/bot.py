"""``ts-heuristic``'s bot: :class:`TSHeuristicBot` answers every decision from the view alone.

Each decision builds a :class:`~.context.Ctx` and goes to a ``_step_<step>`` handler (here for
the set-up, the action round and its card use, influence, coups, realignments, the headline and
event placements and removals; :mod:`.choices` for the ``choice:`` questions and discards), all
judged by the one board evaluation. **Scoring cards** are played when our rounds left this turn
no longer exceed the scoring cards held (never held past the turn), or earlier when one scores
well for us (≥ 1 VP, or an automatic win in Europe) or when none of our cards can improve its
region (:meth:`TSHeuristicBot.stale_scoring`); one is headlined when it scores at least evenly
(a headline costs no operations). The headline avoids DEFCON droppers unless DEFCON is 4+ and no
card that sets DEFCON to 2 can resolve before ours. Influence is placed by the plan made
when the card was played, marker by marker while the board is as expected. Any unexpected
failure falls back to a safe option (never a coup at DEFCON 2, never DEFCON 1...). Ties are
broken with ``self.rng``, so the bot is deterministic given its seed.
"""

from __future__ import annotations

import re
from typing import Any

from ...sdk.bot import Bot
from .choices import Choices
from .context import Ctx, read_view
from .data import (
    ASIA,
    ASIA_SET,
    BG,
    CARD,
    CARD_BY_NAME,
    CARD_NUM,
    CHINA,
    CIA_CREATED,
    DEFCON_DROPPERS,
    DEFCON_RAISERS,
    DEFECTORS,
    GRAIN_SALES,
    IDS,
    INDEX,
    LONE_GUNMAN,
    MAX_PER,
    MIDDLE_EAST,
    ORTEGA,
    OWNER,
    REG,
    SCORING_CARDS,
    SCORING_COUNTRIES,
    SEA_SET,
    SETS_DEFCON_2,
    SIDE,
    SIDE_NAME,
    STAR_WARS,
    TDTW,
    TRAP_ON,
    US,
    USSR,
    WIN,
)
from .simulation import Sim

#: the Operations of a coup step, from its prompt
_OPS = re.compile(r"\((\d+) ops\)")


class TSHeuristicBot(Choices, Bot):
    """Rule-based Twilight Struggle bot (see the module and package docstrings)."""

    name = "ts-heuristic"
    version = "1"
    games = ("twilight-struggle",)

    #: Tests set this to see exceptions; in play, an unexpected failure falls back to a safe
    #: option rather than forfeiting, counted and logged (:meth:`Bot.count_fallback`).
    strict = False

    #: a scoring card netting us at least this many VP is played at once, not held
    SCORE_NOW = 1

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._reset()

    def _reset(self) -> None:
        #: card uses valued at our last action round, for the card_use decision that follows
        self._uses_memo: dict[tuple, list] = {}
        #: the influence plan being carried out: (board signature expected, countries left)
        self._plan: tuple | None = None

    def start(self, match: Any) -> None:
        super().start(match)
        self._reset()

    def choose(self, decision: Any, view: Any) -> int:
        options = decision.options
        if len(options) <= 1:
            return 0
        try:
            v = read_view(view)
            x = Ctx(self, v, decision)
            index = self._choose(x, decision)
        except Exception as exc:
            if self.strict:
                raise
            self.count_fallback(exc, decision)
            return self._fallback(decision, view)
        if index is None or not isinstance(index, int) or not 0 <= index < len(options):
            # No handler, or one that found no answer: counted like an error.
            self.count_fallback(f"no answer ({index!r}) for {len(options)} options", decision)
            return self._fallback(decision, view)
        return index

    # -- dispatch --------------------------------------------------------------------------------

    def _choose(self, x: Ctx, d: Any) -> int | None:
        step = d.step
        keys = [o.key for o in d.options]
        handler = getattr(self, "_step_" + step, None)
        if handler is not None:
            return handler(x, d, keys)
        if all(k.startswith("choice:") for k in keys):
            return self._choice(x, d, keys)
        if all(k.startswith("country:") for k in keys):
            return self._country_choice(x, d, keys)
        return None

    def _pick(self, scored: list[tuple[float, int]]) -> int:
        """The best index; ties broken with self.rng."""
        best = max(v for v, _ in scored)
        tied = [i for v, i in scored if v >= best - 1e-9]
        return tied[0] if len(tied) == 1 else tied[self.rng.randrange(len(tied))]

    def _fallback(self, d: Any, view: Any) -> int:
        """A safe option: never a coup / DEFCON 1 / boycott / lowering; 'done'-like keys first."""
        keys = [o.key for o in d.options]
        try:
            defcon = int(read_view(view).get("defcon") or 5)
        except Exception:
            defcon = 2
        bad = {"choice:defcon_1", "choice:lower_defcon", "choice:boycott", "choice:coup", "use:event"}
        safe = [i for i, k in enumerate(keys) if k not in bad and ":coup" not in k and not k.startswith("use:coup")]
        if defcon <= 2 and d.step in ("coup", "che_coup"):
            safe = [i for i, k in enumerate(keys)
                    if k == "done" or (k.startswith("country:") and not BG[INDEX.get(k[8:], 0)])] or safe
        for pref in ("done", "choice:none", "choice:neither", "choice:keep", "choice:leave_defcon",
                     "choice:participate", "choice:accept", "choice:return", "use:space",
                     "use:influence", "use:influence:event_first"):
            if pref in keys:
                return keys.index(pref)
        pool = safe or list(range(len(keys)))
        return pool[self.rng.randrange(len(pool))]

    # -- set-up ----------------------------------------------------------------------------------

    SETUP_PLAN = {
        USSR: ("poland", "poland", "poland", "poland", "east_germany", "austria"),
        US: ("west_germany", "west_germany", "west_germany", "west_germany", "italy", "italy", "italy"),
    }

    def _step_setup_place(self, x: Ctx, d, keys):
        placed = sum(1 for e in x.history if len(e) >= 4 and e[2] == "setup_place" and e[1] == SIDE_NAME[x.me])
        plan = self.SETUP_PLAN[x.me]
        if placed < len(plan):
            key = "country:" + plan[placed]
            if key in keys:
                return keys.index(key)
        return self._place_marker(x, keys, 1, opcost=False)

    def _step_bid(self, x: Ctx, d, keys):
        return self._place_marker(x, keys, self._left(d.prompt, 1), opcost=False)

    # -- helpers for country decisions -----------------------------------------------------------

    @staticmethod
    def _left(prompt: str, default: int) -> int:
        m = re.search(r"\((\d+)[^)]*left\)", prompt or "")
        if m:
            return max(1, int(m.group(1)))
        m = re.search(r"add (\d+) influence", prompt or "")
        if m:
            return max(1, int(m.group(1)))
        return default

    def _place_marker(self, x: Ctx, keys, budget, *, opcost, max_per=None, optional=False, bonus_sets=()):
        """Index of the first marker of the best placement plan among the offered countries."""
        cands = [INDEX[k[8:]] for k in keys if k.startswith("country:") and k[8:] in INDEX]
        if not cands:
            return None
        plans = []
        if bonus_sets:
            for restrict, extra in bonus_sets:
                sub = [c for c in cands if c in restrict]
                if sub:
                    plans.append((sub, budget))
            plans.append((cands, max(1, budget - sum(extra for _, extra in bonus_sets))))
        else:
            plans.append((cands, budget))
        best = None
        table = x.table(opcost, cands)
        for sub, b in plans:
            gain, seq = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, tuple(sub), b, opcost=opcost, max_per=max_per,
                                       optional=optional, table=table)
            if seq and (best is None or gain > best[0]):
                best = (gain, seq)
        if best is None:
            if optional and "done" in keys:
                return keys.index("done")
            return None
        if optional and best[0] <= 0 and "done" in keys:
            return keys.index("done")
        return keys.index("country:" + IDS[best[1][0]])


    # -- action rounds ---------------------------------------------------------------------------

    def _step_action_round(self, x: Ctx, d, keys):
        cards = [(i, CARD_NUM.get(k[5:])) for i, k in enumerate(keys) if k.startswith("card:")]
        cards = [(i, c) for i, c in cards if c is not None]
        self._uses_memo = {}
        scoring = [(i, c) for i, c in cards if c in SCORING_CARDS]
        held_scoring = sum(1 for c in x.hand if c in SCORING_CARDS)
        if scoring:
            nets = [(x.score_net(c), i) for i, c in scoring]
            best_net, best_i = max(nets)
            if held_scoring >= x.rounds_left(0) or len(scoring) == len(cards) or best_net >= WIN:
                return best_i
            if best_net >= self.SCORE_NOW:
                # ahead in the region: score before the opponent's rounds can take it back (a
                # scoring card held to the last round is a target, issue 25 habit 5)
                return best_i
        scored = []
        danger = self.danger_cards(x)
        excess = self.danger_excess(x, x.defcon)
        for i, c in cards:
            if c in SCORING_CARDS:
                continue
            uses = self.card_uses(x, c)
            v = x.ops_value(0, c)
            self._uses_memo[(x.sig, c)] = (uses, x._cache.get(("inflseq", v, c == CHINA)))
            val, use = max(uses, key=lambda t: t[0]) if uses else (-WIN, None)
            if danger and excess == 0 and c in danger and x.defcon in (3, 4) and use is not None:
                val += 0.5
            if excess > 0 and use is not None:
                if c in danger and x.defcon >= 3 and use != "use:space":
                    # get rid of it while DEFCON allows: it could be our forced last card at DEFCON 2
                    val += {3: 4.0, 4: 3.0}.get(x.defcon, 1.5)
                elif x.defcon == 2 and use == "use:event" and c in DEFCON_RAISERS:
                    val += 3.0
            scored.append((val, i))
        if "pass" in keys:
            scored.append((0.0, keys.index("pass")))
        if not scored:
            return self._pick([(0.0, i) for i, _ in cards]) if cards else None
        if scoring:
            stale = self.stale_scoring(x, scoring)
            if stale is not None:
                return stale
        return self._pick(scored)

    def stale_scoring(self, x: Ctx, scoring) -> int | None:
        """The option index of a held scoring card (not yet due, scoring < :attr:`SCORE_NOW`)
        whose region none of our cards can improve, else None.

        A scoring card takes one action round whenever it is played, so holding it only pays
        while our plays could raise what it will score; when none can (no influence our biggest
        card could place there raises its score, no coup or realignment there is worth making),
        only the opponent's rounds move the region and it can only get worse: it is played now
        (issue 25 habit 5: held to the last round without improving). Holding is otherwise
        kept: playing such a card as soon as the round's best play went elsewhere cost ~5 VP a
        game in scoring (a 100-game pilot against the frozen heuristic)."""
        others = [c for c in x.hand if c not in SCORING_CARDS]
        if not others:
            return None
        v = max(x.ops_value(0, c) for c in others)
        eligible = self.eligible(x)
        stale = []
        for i, c in scoring:
            net = x.score_net(c)
            if net >= self.SCORE_NOW:
                continue
            region = SCORING_COUNTRIES[c]
            cands = tuple(k for k in eligible if k in region)
            if cands:
                after = [x.B[0][:], x.B[1][:]]
                cnt = [r[:] for r in x.cnt]
                x.ev.plan(after, cnt, 0, 0, 1, cands, v, opcost=True)
                if x.score_net(c, after) > net:
                    continue
            among = tuple(sorted(region))
            if self.best_coup(x, v, None, x.defcon, among=among)[0] > 0 \
                    or self.best_realign(x, v, x.defcon, among=among)[0] > 0.2:
                continue
            stale.append((net, i))
        return max(stale)[1] if stale else None

    def _step_extra_action_round(self, x: Ctx, d, keys):
        """Space Station / North Sea Oil: the extra round is optional. Take it when some card
        in hand has a use worth more than passing (the action round's own yardstick: 0), pass
        when every card left would help the opponent. Always take it holding a scoring card:
        it is the side's last round, and a scoring card held at the end of the turn loses."""
        if "choice:accept" not in keys or "pass" not in keys:
            return None
        if any(c in SCORING_CARDS for c in x.hand):
            return keys.index("choice:accept")
        best = max((val for c in x.hand if c not in SCORING_CARDS for val, _ in self.card_uses(x, c)),
                   default=-WIN)
        return keys.index("choice:accept" if best > 0.0 else "pass")

    def _step_card_use(self, x: Ctx, d, keys):
        card = None
        m = re.match(r"how to play (.*)$", d.prompt or "")
        if m:
            card = CARD_BY_NAME.get(m.group(1).strip())
        if card is None:
            card, _ = x.current_play()
        if card is None:
            return None
        offered = set(keys)
        memo = self._uses_memo.get((x.sig, card))
        seq = None
        if memo is not None:
            uses, seq = list(memo[0]), memo[1]
            if "use:space" in offered and not any(k == "use:space" for _, k in uses):
                uses.append((self.space_value(x) - (2.2 if card == CHINA else 0.0), "use:space"))
        else:
            uses = self.card_uses(x, card, offered)
        scored = [(v, keys.index(k)) for v, k in uses if k in keys]
        self._plan = None
        if scored:
            best = self._pick(scored)
            if keys[best].startswith("use:influence"):
                if seq is None:
                    v = x.ops_value(0, card)
                    self.influence_value(x, v, card)
                    seq = x._cache.get(("inflseq", v, card == CHINA))
                if seq:
                    self._plan = (x.board_sig(), list(seq))
            return best
        if not scored:
            # no safe use was valued: space, then influence (never a suicidal event)
            for k in ("use:space", "use:influence", "use:influence:event_first", "use:influence:event_after",
                      "use:realign", "use:realign:event_first"):
                if k in keys:
                    return keys.index(k)
            return None
        return self._pick(scored)

    def _step_influence(self, x: Ctx, d, keys):
        left = self._left(d.prompt, 1)
        card, _ = x.current_play()
        bonus = []
        placed = x.placements_since_play()
        if card == CHINA and all(c in ASIA_SET for c in placed):
            bonus.append((ASIA_SET, 1))
        if x.me == USSR and x.has("vietnam_revolts:turn") and card is not None and all(c in SEA_SET for c in placed):
            bonus.append((SEA_SET, 1))
        if "country:chinese_civil_war" in keys and x.me == USSR:
            return keys.index("country:chinese_civil_war")
        plan = self._plan
        if plan is not None and plan[1] and plan[0] == x.board_sig():
            key = "country:" + IDS[plan[1][0]]
            if key in keys:
                c = plan[1][0]
                after = (plan[0][0][:c] + (plan[0][0][c] + 1,) + plan[0][0][c + 1:], plan[0][1])
                self._plan = (after, plan[1][1:])
                return keys.index(key)
        self._plan = None
        return self._place_marker(x, keys, left, opcost=True, bonus_sets=tuple(bonus))

    def _coup_context(self, x: Ctx) -> tuple[bool, int | None]:
        """(free coup?, card) of the coup being resolved."""
        me = SIDE_NAME[x.me]
        for e in reversed(x.history):
            if len(e) < 4 or e[1] != me:
                continue
            if e[2] in ("junta", "tear_down_this_wall", "ortega_elected_in_nicaragua"):
                return True, None
            if e[2] in ("card_use", "event_ops", "un_intervention_ops", "missile_envy_ops"):
                break
        card, _ = x.current_play()
        return False, card

    def _step_coup(self, x: Ctx, d, keys):
        m = _OPS.search(d.prompt or "")
        ops = int(m.group(1)) if m else 2
        free, card = self._coup_context(x)
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[8:])
            if c is None:
                continue
            o = ops + (1 if card == CHINA and c in ASIA_SET else 0)
            val = self.coup_value(x, c, o, x.defcon, free=free)
            if BG[c] and not self.bg_coup_safe(x, x.defcon):
                val -= 10 * WIN
            scored.append((val, i))
        return self._pick(scored) if scored else None

    def _step_realign(self, x: Ctx, d, keys):
        ic = x.has("iran_contra:turn")
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((0.12, i))
                continue
            c = INDEX.get(k[8:])
            if c is None:
                continue
            scored.append((x.ev.realign_ev(x.B, x.cnt, 0, c, ic), i))
        return self._pick(scored) if scored else None

    def _step_che_coup(self, x: Ctx, d, keys):
        if self.coup_cant(x):
            return keys.index("done") if "done" in keys else None
        m = _OPS.search(d.prompt or "")
        ops = int(m.group(1)) if m else 3
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((0.0, i))
                continue
            c = INDEX.get(k[8:])
            if c is None:
                continue
            val = self.coup_value(x, c, ops, x.defcon)
            if BG[c] and not self.bg_coup_safe(x, x.defcon):
                val -= 10 * WIN
            scored.append((val, i))
        return self._pick(scored) if scored else None

    # -- headline --------------------------------------------------------------------------------

    def headline_safe(self, x: Ctx, card: int) -> bool:
        player = 0
        owner = OWNER[card]
        if owner is not None and owner != x.me:
            # an opponent's card: its event fires for them while we are phasing
            if card == TRAP_ON[x.me] and x.playable(card, 1):
                return False  # Quagmire / Bear Trap on ourselves
            if card in DEFCON_DROPPERS or card in (CIA_CREATED, LONE_GUNMAN, ORTEGA, TDTW, GRAIN_SALES, STAR_WARS):
                return x.defcon >= 4 and not self._set2_first(x, card)
            return True
        drop = self.event_drop(x, card, player, x.defcon)
        if drop == 0:
            return True
        if x.defcon <= 3:
            return False
        return not self._set2_first(x, card)

    def _set2_first(self, x: Ctx, card: int) -> bool:
        """Could an opponent headline that sets DEFCON to 2 resolve before ``card``?"""
        if x.turn < 4:
            return False
        ops = CARD[card].ops
        for c in SETS_DEFCON_2:
            if not x.unseen(c):
                continue
            o = CARD[c].ops
            if o > ops or (o == ops and x.me == USSR):  # ties: the US headline first
                return True
        return False

    def _step_headline(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            c = CARD_NUM.get(k[5:])
            if c is None:
                continue
            if c in SCORING_CARDS:
                net = x.score_net(c)
                if net >= WIN:
                    val = WIN
                elif net <= -WIN:
                    val = -WIN / 2
                else:
                    val = 1.3 + net if net >= 0 else net - 1.0
                scored.append((val, i))
                continue
            ar_val, _ = self.best_use(x, c)
            owner = OWNER[c]
            if not self.headline_safe(x, c):
                scored.append((-WIN, i))
                continue
            if owner is None or owner == x.me:
                hl = self.event_value(x, c, x.event_actor(c, 0)) if x.playable(c, 0) else 0.0
                if c == DEFECTORS and x.me == US:
                    hl = 1.5
            else:
                hl = self.event_value(x, c, 1) if x.playable(c, 1) else 0.0
                if c == DEFECTORS and x.me == USSR:
                    hl = 0.0
            scored.append((hl - ar_val, i))
        return self._pick(scored) if scored else None

    # -- events: placements, removals, countries -------------------------------------------------

    def _step_event_place(self, x: Ctx, d, keys):
        card = x.current_event()
        left = self._left(d.prompt, 1)
        if (d.prompt or "").startswith("add ") and "one country" in (d.prompt or ""):
            amount = self._left(d.prompt, 1)
            scored = []
            for i, k in enumerate(keys):
                c = INDEX.get(k[8:])
                if c is None:
                    continue
                scored.append((x.ev.delta(x.B, x.cnt, c, x.B[0][c] + amount, x.B[1][c]), i))
            return self._pick(scored) if scored else None
        return self._place_marker(x, keys, left, opcost=False, max_per=MAX_PER.get(card),
                                  optional="done" in keys)

    def _step_event_remove(self, x: Ctx, d, keys):
        prompt = d.prompt or ""
        m = re.match(r"remove (?:(\d+) )?(ussr|us) influence", prompt)
        target_abs = SIDE.get(m.group(2)) if m else x.opp
        per = int(m.group(1)) if m and m.group(1) else None
        target = x.rel(target_abs) if target_abs is not None else 1
        card = x.current_event()
        cands = [INDEX[k[8:]] for k in keys if k.startswith("country:") and k[8:] in INDEX]
        if not cands:
            return keys.index("done") if "done" in keys else None
        if per is not None:  # remove `per` from each chosen country
            scored = []
            for i, k in enumerate(keys):
                c = INDEX.get(k[8:])
                if c is None:
                    continue
                if target == 1:
                    nm, no = x.B[0][c], max(0, x.B[1][c] - per)
                else:
                    nm, no = max(0, x.B[0][c] - per), x.B[1][c]
                scored.append((x.ev.delta(x.B, x.cnt, c, nm, no), i))
            return self._pick(scored)
        left = self._left(prompt, 1)
        optional = "done" in keys
        B = [x.B[0][:], x.B[1][:]]
        cnt = [r[:] for r in x.cnt]
        floor = -0.35 if target == 0 else 0.0
        gain, seq = x.ev.plan(B, cnt, 0, target, -1, tuple(cands), left, max_per=MAX_PER.get(card),
                              optional=optional, floor=floor)
        if not seq:
            return keys.index("done") if optional else None
        return keys.index("country:" + IDS[seq[0]])

    def _country_choice(self, x: Ctx, d, keys):
        """Event country choices (truman_doctrine, warsaw_pact_remove, brush_war...)."""
        step = d.step
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[8:])
            if c is None:
                continue
            scored.append((self._country_value(x, step, c), i))
        return self._pick(scored) if scored else None

    def _country_value(self, x: Ctx, step: str, c: int) -> float:
        B, cnt, ev = x.B, x.cnt, x.ev
        m, o = B[0][c], B[1][c]
        if step in ("truman_doctrine", "warsaw_pact_remove", "muslim_revolution"):
            return ev.delta(B, cnt, c, m, 0)
        if step == "independent_reds":
            return ev.delta(B, cnt, c, max(m, o), o)
        if step == "latin_american_debt_crisis_double":
            return ev.delta(B, cnt, c, m * 2, o)
        if step == "brush_war":
            sim = Sim(x)
            return sim.war(0, c, 3, 1, 0)
        if step == "shuttle_diplomacy":
            return 0.0
        return ev.delta(B, cnt, c, m + 1, o)

    def _step_shuttle_diplomacy(self, x: Ctx, d, keys):
        scored = []
        region = None
        for i, k in enumerate(keys):
            cid = k.partition(":")[2]
            c = INDEX.get(cid)
            if c is None:
                continue
            region = REG[c]
            B = [x.B[0][:], x.B[1][:]]
            B[0][c] = B[1][c] = 0  # ignoring it is like emptying it for this scoring
            card = {ASIA: 1, MIDDLE_EAST: 3}.get(region)
            scored.append((x.score_net(card, B) if card else 0.0, i))
        return self._pick(scored) if scored else None

    def _step_event_ops(self, x: Ctx, d, keys):
        m = re.search(r"use (\d+) Operations", d.prompt or "")
        value = int(m.group(1)) if m else 2
        return self._ops_choice(x, keys, value, prefix="use:")
