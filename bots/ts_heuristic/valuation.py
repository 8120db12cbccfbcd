"""What cards and operations are worth to ``ts-heuristic``, as a base class of the bot.

**Operations.** Influence is planned with *packages* (:meth:`~.evaluation.Evaluator.best_plan`)
among the countries we may place in; The China Card's Asia point and Vietnam Revolts' Southeast
Asia point are planned as separate, restricted plans. Coups are valued by their six possible
results, plus the military operations still missing this turn (more urgent as the rounds run
out), minus a DEFCON cost for battlegrounds; realignments by the distribution of the two dice
(only taken when clearly good); the space race by its chance of success (the engine's table)
times the VP and ability of the next box.

**Cards.** Each card in hand is valued by its best use: its event (the per-card model of
:mod:`.events`), its operations, or the space race. An opponent's card costs the harm of its
event (the same model, carried out greedily for the opponent) unless it goes to the space race,
so harmful cards are sent to space or held; their event is resolved first, so that our
operations can repair. While this turn's space attempt is open for the card, firing an
opponent's event costs more (:attr:`Valuation.SPACE_SLOT`, plus half its harm again): the attempt
is lost if unused, so the worst opponent card goes to space before any opponent event fires. The
victim of Quagmire / Bear Trap never fires it on itself (space, or keep it; never its headline).
A non-battleground coup once military operations are met costs :attr:`Valuation.WASTED_COUP`;
a battleground coup bringing DEFCON to 2 on ourselves costs :attr:`Valuation.DEFCON2_COST` plus
:attr:`Valuation.DEFCON2_PER_ROUND` per round of ours left in the turn.
Under Flower Power every US use of a war card but space costs its 2 VP; "An Evil Empire" is
worth more as an event while Flower Power is in play; Nixon on the last turn moves the China
Card's final-scoring VP (issue 25).

**DEFCON safety.** Nothing that can bring DEFCON to 1 during our own round (or our headline) is
ever chosen: no battleground coup at DEFCON 2 (Nuclear Subs excepted for the US), no event that
lowers DEFCON (Duck and Cover, "We Will Bury You", KAL-007, Olympic Games and Summit whose
outcome the opponent decides, Missile Envy and Five Year Plan that may draw one) and no opponent
card whose event could (those, plus CIA Created / Lone Gunman / Grain Sales / Ortega / "Tear Down
This Wall" / Star Wars that hand the opponent a coup or a card), counting the drops of the event
and of our coup together. How I Learned to Stop Worrying (any DEFCON) and Grain Sales / Star Wars
that could give the opponent that card are avoided at any DEFCON. No coup at all (free ones
included) while the Cuban Missile Crisis restricts us.
"""

from __future__ import annotations

from .context import Ctx
from .data import (
    ASIA_SET,
    BG,
    CARD,
    CHINA,
    CIA_CREATED,
    DEFCON_DROPPERS,
    DEFECTORS,
    DUCK_AND_COVER,
    EUROPE_SET,
    FIVE_YEAR_PLAN,
    GRAIN_SALES,
    HOW_I_LEARNED,
    KAL_007,
    LATAM,
    LONE_GUNMAN,
    ME_SET,
    MISSILE_ENVY,
    N,
    NEIGH,
    ORTEGA,
    OWNER,
    OWN_SPACE,
    REGION_COUNTRIES,
    RIDX,
    RISKY_FOR_PHASING,
    SCORING_CARDS,
    SEA_SET,
    SIDE_NAME,
    SPACE,
    SPACE_ABILITY,
    STAR_WARS,
    TDTW,
    UN_INTERVENTION,
    US,
    USSR,
    WARGAMES,
    WIN,
)
from .data import AN_EVIL_EMPIRE, TRAP_ON, WAR_CARDS
from .data import country_index as _c
from .events import EVENTS
from .simulation import Sim


class Valuation:
    """The values of card uses, operations and events for one decision's :class:`~.context.Ctx`
    (memoised in its ``_cache``); the bot's steps (:mod:`.bot`, :mod:`.choices`) choose by them."""

    # -- operations: values ----------------------------------------------------------------------

    def eligible(self, x: Ctx) -> tuple[int, ...]:
        key = "eligible"
        if key in x._cache:
            return x._cache[key]
        mine = x.B[0]
        el = set(OWN_SPACE[x.me])
        for c in range(N):
            if mine[c] > 0:
                el.add(c)
                el.update(NEIGH[c])
        if x.me == USSR:
            for e in x.effects:
                if e.startswith("chernobyl:"):
                    region = e.split(":")[1]
                    if region in RIDX:
                        el -= set(REGION_COUNTRIES[RIDX[region]])
        out = tuple(sorted(el))
        x._cache[key] = out
        return out

    def influence_value(self, x: Ctx, v: int, card: int | None) -> float:
        key = ("infl", v, card == CHINA)
        if key in x._cache:
            return x._cache[key]
        el = self.eligible(x)
        table = x.table(True, el)
        gain, seq = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, el, v, opcost=True, table=table)
        if card == CHINA:
            asia = tuple(c for c in el if c in ASIA_SET)
            if asia:
                g2, s2 = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, asia, v + 1, opcost=True, table=table)
                if g2 > gain:
                    gain, seq = g2, s2
        if x.me == USSR and x.has("vietnam_revolts:turn"):
            sea = tuple(c for c in el if c in SEA_SET)
            if sea:
                g3, s3 = x.ev.best_plan(x.B, x.cnt, 0, 0, 1, sea, v + 1 + (card == CHINA), opcost=True,
                                        table=table)
                if g3 > gain:
                    gain, seq = g3, s3
        x._cache[key] = gain
        x._cache[("inflseq",) + key[1:]] = seq
        return gain

    def coup_mod(self, x: Ctx, c: int) -> int:
        mod = -1 if x.has("salt:turn") else 0
        if c in LATAM:
            if x.has(f"death_squads:{SIDE_NAME[x.me]}:turn"):
                mod += 1
            if x.has(f"death_squads:{SIDE_NAME[x.opp]}:turn"):
                mod -= 1
        return mod

    def protected(self, x: Ctx, c: int) -> bool:
        if x.me != USSR:
            return False
        if c == _c("japan") and x.has("us_japan_pact"):
            return True
        if x.has("nato") and c in EUROPE_SET and x.controls(1, c):
            if c == _c("france") and x.has("de_gaulle"):
                return False
            if c == _c("west_germany") and x.has("willy_brandt"):
                return False
            return True
        return False

    def defcon_allows(self, defcon: int, c: int) -> bool:
        if defcon <= 4 and c in EUROPE_SET:
            return False
        if defcon <= 3 and c in ASIA_SET:
            return False
        return not (defcon <= 2 and c in ME_SET)

    def coup_targets(self, x: Ctx, defcon: int, *, free=False, among=None) -> list[int]:
        out = []
        for c in among if among is not None else range(N):
            if x.B[1][c] <= 0 or self.protected(x, c):
                continue
            if not free and not self.defcon_allows(defcon, c):
                continue
            if x.me == USSR and c in EUROPE_SET and x.has("the_reformer"):
                continue
            out.append(c)
        return out

    def coup_cant(self, x: Ctx) -> bool:
        """The Cuban Missile Crisis restricts us: any coup loses."""
        return x.has(f"cuban_missile_crisis:{SIDE_NAME[x.me]}:turn")

    def bg_coup_safe(self, x: Ctx, defcon: int) -> bool:
        if x.me == US and x.has("nuclear_subs:turn"):
            return True
        return defcon >= 3

    def defcon_cost(self, x: Ctx, defcon: int) -> float:
        """Cost of lowering DEFCON from ``defcon`` by our battleground coup."""
        if x.me == US and x.has("nuclear_subs:turn"):
            return 0.0
        new = defcon - 1
        if new <= 1:
            return WIN
        if new == 2:
            # DEFCON 2 until the end of the turn: every round we play is one more chance to be
            # forced into a card whose event ends the game on our round, and none of our own
            # battleground coups (issue 25, habit 4): dearer the more of our rounds are left
            return self.DEFCON2_COST + self.DEFCON2_PER_ROUND * x.rounds_left(0) + 2.5 * self.danger_excess(x, 2)
        if new == 3:
            return 0.35
        return 0.2

    def coup_value(self, x: Ctx, c: int, ops: int, defcon: int, *, free=False) -> float:
        v = x.ev.coup_ev(x.B, x.cnt, 0, c, ops, self.coup_mod(x, c))
        end_defcon = defcon
        if BG[c]:
            v -= self.defcon_cost(x, defcon)
            if not (x.me == US and x.has("nuclear_subs:turn")):
                end_defcon = defcon - 1
        if not free:
            need = max(0, end_defcon - x.milops[0])
            v += min(ops, need) * x.urgency
            if need == 0 and not BG[c]:
                # military operations already met: a non-battleground coup only trades Operations
                # for a die roll that influence would have placed surely (issue 25, habit 4)
                v -= self.WASTED_COUP
        if x.me == US and x.has("yuri_and_samantha:turn"):
            v -= 1.0
        return v

    def best_coup(self, x: Ctx, v: int, card: int | None, defcon: int, *, allow_bg=True, free=False,
                  among=None) -> tuple[float, int | None]:
        if self.coup_cant(x):
            return -WIN, None
        key = ("coup", v, card == CHINA, defcon, allow_bg, free, among)
        if key in x._cache:
            return x._cache[key]
        best = (-WIN, None)
        for c in self.coup_targets(x, defcon, free=free, among=among):
            if BG[c] and (not allow_bg or not self.bg_coup_safe(x, defcon)):
                continue
            ops = v + (1 if card == CHINA and c in ASIA_SET else 0)
            if x.me == USSR and x.has("vietnam_revolts:turn") and c in SEA_SET and card is not None:
                ops += 1
            val = self.coup_value(x, c, ops, defcon, free=free)
            if val > best[0]:
                best = (val, c)
        x._cache[key] = best
        return best

    def best_realign(self, x: Ctx, v: int, defcon: int, *, free=False, among=None) -> tuple[float, int | None]:
        key = ("realign", defcon, free, among)
        if key in x._cache:
            return x._cache[key]
        best = (-1.0, None)
        ic = x.has("iran_contra:turn")
        for c in among if among is not None else range(N):
            if x.B[1][c] <= 0 or self.protected(x, c):
                continue
            if not free and not self.defcon_allows(defcon, c):
                continue
            val = x.ev.realign_ev(x.B, x.cnt, 0, c, ic)
            if val > best[0]:
                best = (val, c)
        x._cache[key] = best
        return best

    def realign_value(self, x: Ctx, v: int, defcon: int) -> float:
        val, c = self.best_realign(x, v, defcon)
        if c is None or val < 0.2:
            return -1.0
        return val * v * 0.75

    def space_value(self, x: Ctx) -> float:
        box = x.space[0] + 1
        if box > 8:
            return -1.0
        _, hi, first, second = SPACE[box]
        leader = x.space[1] < box
        gain = (first if leader else second) + (SPACE_ABILITY.get(box, 0.0) if leader else 0.0)
        return hi / 6.0 * gain

    def space_possible(self, x: Ctx, v: int) -> bool:
        box = x.space[0] + 1
        if box > 8 or v < SPACE[box][0]:
            return False
        allowed = 2 if (x.space[0] >= 2 and x.space[1] < 2) else 1
        return x.space_attempts() < allowed

    # -- events: values and DEFCON risk ----------------------------------------------------------

    def event_value(self, x: Ctx, card: int, actor: int) -> float:
        """Value (to us) of the event of ``card`` carried out by ``actor`` (0 us, 1 them)."""
        key = ("event", card, actor)
        if key in x._cache:
            return x._cache[key]
        if not x.playable(card, actor):
            val = 0.0
        else:
            sim = Sim(x)
            fn = EVENTS.get(card)
            if fn is not None:
                fn(sim, actor)
            val = sim.value
        x._cache[key] = val
        return val

    def dangerous_unseen(self, x: Ctx, cards) -> bool:
        return any(x.unseen(c) for c in cards)

    def event_drop(self, x: Ctx, card: int, player: int, defcon: int) -> int:
        """How far DEFCON may fall during our round when ``card``'s event fires, the card played
        by ``player`` (0: us, as an event; 1: the opponent's event fired by our operations).
        5 means 'may be set to 1 outright'."""
        if not x.playable(card, x.event_actor(card, player)):
            return 0
        me_abs = x.me
        if player == 0:
            if card in DEFCON_DROPPERS:
                return 1
            if card in RISKY_FOR_PHASING:
                return 1
            if card == MISSILE_ENVY:
                return 1 if defcon <= 3 else 0
            if card == FIVE_YEAR_PLAN and me_abs == US:
                return 1 if self.dangerous_unseen(x, (DUCK_AND_COVER, KAL_007)) else 0
            return 0
        # the opponent's event, fired during our round
        if card in DEFCON_DROPPERS:
            return 1
        if card == FIVE_YEAR_PLAN:  # we are the USSR: a US event of our hand fires
            others = [c for c in x.hand if c != FIVE_YEAR_PLAN]
            return 1 if any(c in (DUCK_AND_COVER, KAL_007, CIA_CREATED, TDTW, GRAIN_SALES, STAR_WARS)
                            for c in others) else 0
        if card in (CIA_CREATED, LONE_GUNMAN):
            return 1
        if card == GRAIN_SALES:  # we are the USSR: the US may play one of our cards
            if HOW_I_LEARNED in x.hand:
                return 5
            return 1
        if card == ORTEGA:
            return 1 if x.B[0][_c("cuba")] > 0 else 0
        if card == TDTW:
            return 1
        if card == STAR_WARS:
            if HOW_I_LEARNED in x.discard:
                return 5
            return 1
        return 0

    def event_safe(self, x: Ctx, card: int, player: int, defcon: int, extra_drop: int = 0) -> bool:
        drop = self.event_drop(x, card, player, defcon)
        if drop >= 5:
            return False
        if card == WARGAMES and player == 0 and defcon == 2:
            return x.lead - 6 > 0
        return defcon - drop - extra_drop >= 2

    # -- a card's best use -----------------------------------------------------------------------

    #: what a non-battleground coup costs once military operations are met
    WASTED_COUP = 2.0
    #: what our battleground coup bringing DEFCON to 2 costs, plus this much per round of ours
    #: left in the turn
    DEFCON2_COST = 1.5
    DEFCON2_PER_ROUND = 0.25
    #: what firing an opponent's event costs, beyond its harm, while this turn's space attempt is
    #: still open for the card (plus half the harm again): the attempt is lost if unused
    SPACE_SLOT = 3.0
    SLOT_HARM = 0.5

    def flower_power_on(self, x: Ctx) -> bool:
        return "flower_power" in x.effects and AN_EVIL_EMPIRE not in x.events_played

    def card_uses(self, x: Ctx, card: int, offered: set[str] | None = None) -> list[tuple[float, str]]:
        """(value, option key) of every sensible use of ``card`` now, unsafe ones left out.
        ``offered``: the card_use option keys when known.

        Lasting effects and the space slot (issue 25): the US pays Flower Power's 2 VP on every
        use of a war card but space; the victim of Quagmire / Bear Trap never fires it on itself
        (space, or keep it); an opponent's event that hurts us costs more while this turn's space
        attempt could take the card instead."""
        uses = self._card_uses(x, card, offered)
        if x.me == US and card in WAR_CARDS and self.flower_power_on(x):
            uses = [(val - 2.0 if key != "use:space" else val, key) for val, key in uses]
        if card not in self.danger_cards(x) and self.space_for_danger(x):
            # the attempt is needed to get rid of a card that could lower DEFCON on our round
            uses = [(val - 3.0 if key == "use:space" else val, key) for val, key in uses]
        return uses

    def _card_uses(self, x: Ctx, card: int, offered: set[str] | None = None) -> list[tuple[float, str]]:
        data = CARD[card]
        defcon = x.defcon
        out: list[tuple[float, str]] = []
        if data.scoring:
            out.append((x.score_net(card), "use:event"))
            return out
        v = x.ops_value(0, card)
        owner = OWNER[card]
        mine = owner is None or owner == x.me
        china_cost = 0.0
        if card == CHINA:
            china_cost = 2.2 if x.turn < 10 else 2.0
        infl = self.influence_value(x, v, card) - china_cost
        space = self.space_value(x) - china_cost if self.space_possible(x, v) else None
        if offered is not None:
            if "use:space" not in offered:
                space = None
            elif space is None:
                space = self.space_value(x) - china_cost
        if mine:
            if card != CHINA and x.playable(card, 0) and (offered is None or "use:event" in offered):
                if self.event_safe(x, card, 0, defcon):
                    if card == UN_INTERVENTION:
                        ev = self.un_value(x)
                    else:
                        ev = self.event_value(x, card, x.event_actor(card, 0))
                    out.append((ev, "use:event"))
            out.append((infl, "use:influence"))
            cv, ct = self.best_coup(x, v, card, defcon)
            if ct is not None:
                out.append((cv - china_cost, "use:coup"))
            rv = self.realign_value(x, v, defcon)
            if rv > 0:
                out.append((rv - china_cost, "use:realign"))
            if space is not None:
                out.append((space, "use:space"))
        else:
            actor = 1
            fires = x.playable(card, actor)
            harm = -self.event_value(x, card, actor) if fires else 0.0
            drop = self.event_drop(x, card, 1, defcon) if fires else 0
            if card == DEFECTORS and x.me == USSR:
                harm += 1.0
            order = "event_first"
            if fires and card == TRAP_ON[x.me]:
                drop = 5  # trapping ourselves: no use but space (or keeping the card)
            slot = 0.0
            if (fires and harm > -0.25 and space is not None and self.space_possible(x, v)
                    and (card in self.danger_cards(x) or not self.space_for_danger(x))):
                slot = self.SPACE_SLOT + self.SLOT_HARM * max(0.0, harm)
            if drop < 5 and defcon - drop >= 2:
                if fires and drop == 0 and harm > 0.05:
                    first, after = self.order_values(x, card, v)
                    if after > first + 0.05:
                        out.append((after - slot, "use:influence:event_after"))
                    else:
                        out.append((first - slot, "use:influence:event_first"))
                else:
                    out.append((infl - harm - slot, f"use:influence:{order}"))
                cv, ct = self.best_coup(x, v, card, defcon - drop, allow_bg=(defcon - drop >= 3))
                if ct is not None:
                    out.append((cv - harm - slot, f"use:coup:{order}"))
                rv = self.realign_value(x, v, defcon - drop)
                if rv > 0:
                    out.append((rv - harm - slot, f"use:realign:{order}"))
            if space is not None:
                out.append((space + (0.15 if fires else 0.0), "use:space"))
        return out

    def order_values(self, x: Ctx, card: int, v: int) -> tuple[float, float]:
        """Our influence placement with the opponent's event of ``card``: (event first, then our
        placement on the board it leaves; our placement first, then the event on that board)."""
        key = ("order", card, v)
        if key in x._cache:
            return x._cache[key]
        fn = EVENTS.get(card)
        el = self.eligible(x)
        first_sim = Sim(x)
        if fn is not None:
            fn(first_sim, 1)
        gain1, _ = x.ev.best_plan(first_sim.B, first_sim.cnt, 0, 0, 1, el, v, opcost=True)
        first = first_sim.value + gain1
        gain0 = self.influence_value(x, v, card)
        seq = x._cache.get(("inflseq", v, card == CHINA)) or []
        after_sim = Sim(x)
        for c in seq:
            after_sim.add(0, c, 1)
        after_sim.value = 0.0
        if fn is not None:
            fn(after_sim, 1)
        after = gain0 + after_sim.value
        x._cache[key] = (first, after)
        return first, after

    def danger_cards(self, x: Ctx) -> list[int]:
        """Opponent's cards in hand whose event could lower DEFCON during our round, and the trap
        we never fire on ourselves (Quagmire / Bear Trap): each can only be kept past the turn or
        sent to the space race, so they share the same slots (a mirror game was lost by DEFCON 1
        when the US kept Quagmire and had to play "We Will Bury You" at DEFCON 2)."""
        key = "danger"
        if key not in x._cache:
            trap = TRAP_ON[x.me]
            x._cache[key] = [c for c in x.hand if OWNER.get(c) == x.opp and (
                self.event_drop(x, c, 1, 2) >= 1 or (c == trap and x.playable(c, 1)))]
        return x._cache[key]

    def space_for_danger(self, x: Ctx) -> bool:
        """Does the turn's space attempt belong to a card whose event could lower DEFCON on our
        round: more of them in hand than the cards we may keep at the end of the turn?"""
        danger = self.danger_cards(x)
        return bool(danger) and len(danger) > len(x.hand) - x.rounds_left(0)

    def danger_excess(self, x: Ctx, defcon: int) -> int:
        """How many of those we might be forced to play at DEFCON 2 this turn: more than the cards
        we may keep at the end and the space-race attempts left for them."""
        danger = self.danger_cards(x)
        if not danger:
            return 0
        key = ("excess",)
        if key in x._cache:
            return x._cache[key]
        slack = len(x.hand) - x.rounds_left(0)
        if x.me == USSR and FIVE_YEAR_PLAN in x.hand:
            slack -= 1  # its event (fired by our operations) takes a card of our hand
        box = x.space[0] + 1
        if box <= 8:
            allowed = 2 if (x.space[0] >= 2 and x.space[1] < 2) else 1
            left = max(0, allowed - x.space_attempts())
            slack += min(left, sum(1 for c in danger if x.ops_value(0, c) >= SPACE[box][0]))
        x._cache[key] = max(0, len(danger) - max(0, slack))
        return x._cache[key]

    def un_value(self, x: Ctx) -> float:
        best = -1.0
        for c in x.hand:
            if OWNER.get(c) != x.opp or c == UN_INTERVENTION:
                continue
            harm = -self.event_value(x, c, 1) if x.playable(c, 1) else 0.0
            val = 0.7 * self.influence_value(x, x.ops_value(0, c), c) + 0.9 * harm
            best = max(best, val)
        return best

    def best_use(self, x: Ctx, card: int, offered=None) -> tuple[float, str | None]:
        uses = self.card_uses(x, card, offered)
        if not uses:
            return -WIN, None
        return max(uses, key=lambda t: t[0])

    def keep_value(self, x: Ctx, card: int) -> float:
        """What keeping ``card`` in hand is worth to us (negative: we would rather lose it)."""
        if card in SCORING_CARDS:
            return x.score_net(card) if x.score_net(card) < 0 else 0.5 + x.score_net(card)
        val, _ = self.best_use(x, card)
        return val
