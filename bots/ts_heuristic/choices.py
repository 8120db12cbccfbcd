"""The card choices, discards and event questions of ``ts-heuristic`` (a base class of the bot).

Card choices (discards, Missile Envy, Aldrich Ames, Star Wars, SALT, UN Intervention...) go by
the cards' values (:class:`~.valuation.Valuation`); the questions events ask (``choice:`` keys)
by the event models or fixed preferences: when the *opponent* is phasing at DEFCON 2, the
choices it leaves us (Olympic boycott, Summit's DEFCON, How I Learned's DEFCON 1) end the game in
our favour; the free coups and realignments of Junta, "Tear Down This Wall" and Ortega are only
taken when every target they offer is safe. Ties go through the bot's ``_pick`` (its ``rng``).
"""

from __future__ import annotations

import re

from .context import Ctx
from .data import (
    BG,
    CARD,
    CARD_NUM,
    EE,
    EUROPE_SET,
    INDEX,
    LATAM,
    OWNER,
    REGIONS,
    REGION_COUNTRIES,
    SCORING_CARDS,
    SOUTH_AMERICA,
    USSR,
    WIN,
)
from .data import country_index as _c
from .simulation import Sim, remove_all_best
from .valuation import Valuation


class Choices(Valuation):
    """The ``choice:`` questions (``_ch_<step>``), card choices and discard steps."""

    def _ops_choice(self, x: Ctx, keys, value, prefix="choice:", card=None):
        """Operations worth ``value`` spent on influence, a coup, realignments or nothing."""
        scored = []
        for i, k in enumerate(keys):
            use = k[len(prefix):] if k.startswith(prefix) else k
            if use == "influence":
                scored.append((self.influence_value(x, value, None), i))
            elif use == "coup":
                cv, ct = self.best_coup(x, value, card, x.defcon)
                if ct is not None:
                    scored.append((cv, i))
            elif use == "realign":
                rv = self.realign_value(x, value, x.defcon)
                if rv > 0:
                    scored.append((rv, i))
            elif use in ("none", "neither"):
                scored.append((0.0, i))
        return self._pick(scored) if scored else None

    # -- card-choice steps -----------------------------------------------------------------------

    def _step_space_discard(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((-0.3, i))
                continue
            c = CARD_NUM.get(k[5:])
            if c is not None:
                scored.append((-self.keep_value(x, c), i))
        return self._pick(scored) if scored else None

    def _step_ask_not_discard(self, x: Ctx, d, keys):
        m = re.search(r"\((\d+) so far\)", d.prompt or "")
        so_far = int(m.group(1)) if m else 0
        held = sum(1 for c in x.hand if c in SCORING_CARDS)
        # every card drawn may be a scoring card: keep enough rounds to play them all this turn
        after = x.rounds_left(0) - (1 if x.ar and x.phasing == 0 else 0)
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((-0.6, i))
                continue
            c = CARD_NUM.get(k[5:])
            if c is None:
                continue
            if held - (c in SCORING_CARDS) + so_far + 1 > after:
                continue
            scored.append((-self.keep_value(x, c), i))
        return self._pick(scored) if scored else None

    def _step_tehran_discard(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            if k == "done":
                scored.append((0.5, i))
                continue
            c = CARD_NUM.get(k[5:])
            if c is None:
                continue
            if c in SCORING_CARDS:
                harm = -x.score_net(c)
            elif OWNER.get(c) == x.opp:
                harm = -self.event_value(x, c, 1)
            else:
                harm = -1.0
            scored.append((harm, i))
        return self._pick(scored) if scored else None

    # -- choices ---------------------------------------------------------------------------------

    def _choice(self, x: Ctx, d, keys):
        step = d.step
        method = getattr(self, "_ch_" + step, None)
        if method is not None:
            got = method(x, d, keys)
            if got is not None:
                return got
        # card choices (un_intervention, missile_envy, star_wars, salt, aldrich ames, trap, blockade...)
        if any(CARD_NUM.get(k[7:]) for k in keys):
            return self._card_choice(x, step, keys)
        return None

    def _card_choice(self, x: Ctx, step: str, keys):
        scored = []
        for i, k in enumerate(keys):
            name = k[7:]
            c = CARD_NUM.get(name)
            if c is None:
                scored.append((self._special_key_value(x, step, name), i))
                continue
            if step in ("trap_discard", "blockade", "latin_american_debt_crisis"):
                scored.append((-self.keep_value(x, c), i))  # discard the card we value least
            elif step == "missile_envy":  # we give it away
                given = self.event_value(x, c, 1) if OWNER.get(c) in (None, x.opp) else -0.5 * CARD[c].ops
                scored.append((-self.keep_value(x, c) + given, i))
            elif step == "aldrich_ames_remix":  # discard the US card worth most to the US
                if c in SCORING_CARDS:
                    worth = -x.score_net(c)
                elif OWNER.get(c) == x.me:
                    worth = 0.5 * CARD[c].ops
                else:
                    worth = -self.event_value(x, c, 1) + 0.3 * CARD[c].ops
                scored.append((worth, i))
            elif step == "star_wars":
                if not x.playable(c, 0) or OWNER.get(c) == x.opp or not self.event_safe(x, c, 0, x.defcon):
                    scored.append((-WIN, i))
                else:
                    scored.append((self.event_value(x, c, 0), i))
            elif step == "salt_negotiations":
                scored.append((self.keep_value(x, c) if OWNER.get(c) != x.opp else -1.0, i))
            elif step == "un_intervention":
                harm = -self.event_value(x, c, 1) if x.playable(c, 1) else 0.0
                scored.append((harm + 0.5 * self.influence_value(x, x.ops_value(0, c), c), i))
            else:
                scored.append((self.keep_value(x, c), i))
        return self._pick(scored) if scored else None

    def _special_key_value(self, x: Ctx, step: str, name: str) -> float:
        """Value (to us) of a non-card key of a card choice."""
        if name == "lose_west_germany":  # we are the US
            wg = _c("west_germany")
            return x.ev.delta(x.B, x.cnt, wg, 0, x.B[1][wg])
        if name == "double_ussr_influence":  # we are the US: the USSR doubles in 2 countries
            sim = Sim(x)
            ussr = x.rel(USSR)
            for _ in range(2):
                opts = [c for c in REGION_COUNTRIES[SOUTH_AMERICA] if sim.B[ussr][c] > 0]
                if not opts:
                    break
                sim.best_country(ussr, opts, lambda t, c: t.setinf(ussr, c, t.B[ussr][c] * 2))
            return sim.value
        return 0.0

    def _ch_olympic_games(self, x: Ctx, d, keys):
        # the opponent sponsors; boycott lowers DEFCON (the phasing player loses at DEFCON 2)
        if x.defcon == 2:
            if x.phasing == 1 and "choice:boycott" in keys:
                return keys.index("choice:boycott")
            return keys.index("choice:participate") if "choice:participate" in keys else None
        # participate: they win 2 VP with 81%; boycott: DEFCON −1 and 4 Ops for them
        if x.defcon == 3 and "choice:participate" in keys:
            return keys.index("choice:participate")
        return keys.index("choice:participate") if "choice:participate" in keys else None

    def _ch_how_i_learned_to_stop_worrying(self, x: Ctx, d, keys):
        if x.phasing == 1 and "choice:defcon_1" in keys:
            return keys.index("choice:defcon_1")  # the opponent is phasing: it loses
        # our military operations are met anyway (+5); make theirs hard to meet
        target = 5 if x.milops[1] <= 2 else 4
        if x.rounds_left(1) >= 3 and x.milops[1] >= 3:
            target = x.defcon if x.defcon >= 3 else 3
        key = f"choice:defcon_{max(2, target)}"
        if key in keys:
            return keys.index(key)
        for n in (5, 4, 3, 2):
            if f"choice:defcon_{n}" in keys:
                return keys.index(f"choice:defcon_{n}")
        return None

    def _ch_summit_defcon(self, x: Ctx, d, keys):
        if x.defcon == 2 and x.phasing == 1 and "choice:lower_defcon" in keys:
            return keys.index("choice:lower_defcon")
        if x.defcon <= 2 and "choice:raise_defcon" in keys:
            return keys.index("choice:raise_defcon")
        return keys.index("choice:leave_defcon") if "choice:leave_defcon" in keys else None

    def _ch_cancel_missile_crisis(self, x: Ctx, d, keys):
        need = max(0, x.defcon - x.milops[0])
        if need >= 3 and x.rounds_left(0) <= 2:
            scored = []
            for i, k in enumerate(keys):
                c = INDEX.get(k[7:])
                if c is None:
                    continue
                scored.append((x.ev.delta(x.B, x.cnt, c, x.B[0][c] - 2, x.B[1][c]) + need * 0.8, i))
            if scored and max(scored)[0] > 0:
                return self._pick(scored)
        return keys.index("choice:keep") if "choice:keep" in keys else None

    def _ch_missile_crisis_coup(self, x: Ctx, d, keys):
        """A coup of ours is chosen under the Cuban Missile Crisis: ``keep`` would lose the game,
        so cancel, removing the 2 influence where it costs least."""
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[7:])
            if c is not None:
                scored.append((x.ev.delta(x.B, x.cnt, c, x.B[0][c] - 2, x.B[1][c]), i))
        if scored:
            return self._pick(scored)
        return keys.index("choice:keep") if "choice:keep" in keys else None

    def _ch_we_will_bury_you(self, x: Ctx, d, keys):
        if "choice:un_intervention" in keys:
            return keys.index("choice:un_intervention")
        return keys.index("choice:accept") if "choice:accept" in keys else None

    def _ch_grain_sales_to_soviets(self, x: Ctx, d, keys):
        card = None
        for e in reversed(x.history):
            if len(e) >= 4 and e[2] == "grain_sales":
                card = CARD_NUM.get(str(e[3]).partition(":")[2])
                break
        fallback = self.influence_value(x, x.ops_value(0, 67), None)
        if card is None:
            return keys.index("choice:return") if "choice:return" in keys else None
        val, use = self.best_use(x, card)
        # returning the card gives it back to the USSR (its event, its operations)
        if OWNER.get(card) == x.opp and x.playable(card, 1):
            ret = fallback + 0.5 * min(0.0, self.event_value(x, card, 1))
        else:
            ret = fallback - 0.25 * CARD[card].ops
        if use is not None and val > ret and "choice:play" in keys:
            return keys.index("choice:play")
        return keys.index("choice:return") if "choice:return" in keys else None

    def _ch_warsaw_pact_formed(self, x: Ctx, d, keys):
        a = Sim(x)
        remove_all_best(a, 0, EE, 4)
        b = Sim(x)
        b.place(0, 5, EE, max_per=2)
        key = "choice:remove_us_influence" if a.value >= b.value else "choice:add_ussr_influence"
        return keys.index(key) if key in keys else None

    def _ch_south_african_unrest(self, x: Ctx, d, keys):
        sa = _c("south_africa")
        a = Sim(x)
        a.add(0, sa, 2)
        b = Sim(x)
        b.add(0, sa, 1)
        b.place(0, 2, (_c("angola"), _c("botswana")))
        key = "choice:two_in_south_africa" if a.value >= b.value else "choice:one_in_south_africa_two_adjacent"
        return keys.index(key) if key in keys else None

    def _ch_indo_pakistani_war(self, x: Ctx, d, keys):
        return self._war_choice(x, keys)

    def _ch_iran_iraq_war(self, x: Ctx, d, keys):
        return self._war_choice(x, keys)

    def _war_choice(self, x: Ctx, keys):
        scored = []
        for i, k in enumerate(keys):
            c = INDEX.get(k[7:])
            if c is None:
                continue
            sim = Sim(x)
            scored.append((sim.war(0, c, 4, 2, 0), i))
        return self._pick(scored) if scored else None

    def _free_op_choice(self, x: Ctx, keys, among, card, ops):
        """junta / tear_down_this_wall / ortega: a free coup, free realignments, or neither."""
        scored = []
        for i, k in enumerate(keys):
            use = k[7:]
            if use == "coup":
                if self.coup_cant(x):
                    continue
                cv, ct = self.best_coup(x, ops, card, x.defcon, free=True, among=among)
                if ct is None:
                    continue
                # the coup step offers every target: all must be safe at DEFCON 2
                if not self.bg_coup_safe(x, x.defcon) and any(
                        BG[c] for c in self.coup_targets(x, x.defcon, free=True, among=among)):
                    continue
                scored.append((cv, i))
            elif use == "realign":
                rv, rt = self.best_realign(x, ops, x.defcon, free=True, among=among)
                if rt is not None and rv > 0.1:
                    scored.append((rv * ops * 0.7, i))
            elif use in ("neither", "none"):
                scored.append((0.0, i))
        return self._pick(scored) if scored else None

    def _ch_junta(self, x: Ctx, d, keys):
        return self._free_op_choice(x, keys, LATAM, 47, x.ops_value(0, 47))

    def _ch_tear_down_this_wall(self, x: Ctx, d, keys):
        return self._free_op_choice(x, keys, tuple(EUROPE_SET), 96, x.ops_value(0, 96))

    def _ch_ortega_elected_in_nicaragua(self, x: Ctx, d, keys):
        among = (_c("cuba"), _c("honduras"), _c("costa_rica"))
        return self._free_op_choice(x, keys, among, 91, x.ops_value(0, 91))

    def _ch_un_intervention_ops(self, x: Ctx, d, keys):
        card = None
        for e in reversed(x.history):
            if len(e) >= 4 and e[2] == "un_intervention":
                card = CARD_NUM.get(str(e[3]).partition(":")[2])
                break
        value = x.ops_value(0, card) if card else 2
        return self._ops_choice(x, keys, value, card=card)

    def _ch_missile_envy_ops(self, x: Ctx, d, keys):
        card = None
        for e in reversed(x.history):
            if len(e) >= 4 and e[2] == "missile_envy_gives":
                card = CARD_NUM.get(str(e[3]).partition(":")[2])
                break
        value = x.ops_value(0, card) if card else 2
        return self._ops_choice(x, keys, value, card=card)

    def _ch_kal_007_ops(self, x: Ctx, d, keys):
        return self._ops_choice(x, keys, 4)

    def _ch_glasnost_ops(self, x: Ctx, d, keys):
        return self._ops_choice(x, keys, 4)

    def _ch_chernobyl(self, x: Ctx, d, keys):
        scored = []
        for i, k in enumerate(keys):
            name = k[7:].replace("_", " ")
            r = next((j for j, reg in enumerate(REGIONS) if reg.lower() == name), None)
            if r is None:
                continue
            stake = x.ev.wr[r] * 2 + sum(
                (1.0 if BG[c] else 0.3) for c in REGION_COUNTRIES[r] if not x.controls(0, c) and not x.controls(1, c)
            )
            scored.append((stake, i))
        return self._pick(scored) if scored else None

    def _ch_salt_negotiations(self, x: Ctx, d, keys):
        return self._card_choice(x, "salt_negotiations", keys)

    def _ch_latin_american_debt_crisis(self, x: Ctx, d, keys):
        return self._card_choice(x, "latin_american_debt_crisis", keys)

    def _ch_blockade(self, x: Ctx, d, keys):
        scored = []
        wg = _c("west_germany")
        for i, k in enumerate(keys):
            name = k[7:]
            c = CARD_NUM.get(name)
            if c is None:
                scored.append((x.ev.delta(x.B, x.cnt, wg, 0, x.B[1][wg]), i))
            else:
                scored.append((-self.keep_value(x, c), i))
        return self._pick(scored) if scored else None
