"""The entries of Twilight Struggle's story, one handler per step (``_on_<step>``): the card
played and how, the headlines, the dice with who rolled them and the modifiers, the results of
coups, realignments, wars and the space race, the scoring cards. A mixin of
:class:`.story.TSStoryTeller`, which keeps the state they share (the card in play, the open
roll, the events being carried out) and tells what is left of each decision's changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...story import StoryLine
from . import card_data as CD
from . import effects as E
from . import map_data as M
from . import scoring_view as SV
from . import story_rolls as R
from . import story_words as W
from .story_scoring import scoring_line, southeast_asia_line
from .story_words import SIDE, Diff, card_name, card_ops, country_name, other, side_name

#: How Operations granted by an event are used (``event_ops`` keys).
EVENT_OPS = {"influence": "to place influence", "realign": "for realignment rolls", "coup": "for a coup",
             "space": "on the Space Race"}
#: The region each region scoring card scores.
SCORING_REGIONS = {
    "asia_scoring": M.ASIA, "europe_scoring": M.EUROPE, "middle_east_scoring": M.MIDDLE_EAST,
    "central_america_scoring": M.CENTRAL_AMERICA, "africa_scoring": M.AFRICA,
    "south_america_scoring": M.SOUTH_AMERICA,
}


class _Change:
    """A change of the VP or DEFCON track, written once the decision's sentences are in their
    order, so that the running total each one gives follows them ("USSR +2 VP (VP: USSR 5)")."""

    def __init__(self, track: str, amount: int) -> None:
        self.track, self.amount = track, amount

    def text(self, totals: dict[str, int]) -> str:
        before = totals[self.track]
        totals[self.track] = before + self.amount
        if self.track == "vp":
            return W.vp_change(self.amount, before + self.amount)
        return W.defcon_change(before, before + self.amount)


class _Line:
    """A sentence being written during one decision: its effects (what the rest of the
    decision's changes did) are added before it is written out. No text: the effects alone."""

    def __init__(self, text: str, kind: str, role: str | None, *, card: str | None = None,
                 accepts: bool = False, detail: Sequence[str] = ()) -> None:
        self.text, self.kind, self.role, self.card = text, kind, role, card
        self.accepts = accepts
        self.effects: list[str | _Change] = []
        self.detail = list(detail)

    def line(self, totals: dict[str, int]) -> StoryLine:
        """The sentence, the tracks' running ``totals`` (updated) written into its changes."""
        parts = [e.text(totals) if isinstance(e, _Change) else e for e in self.effects]
        said = "; ".join(p for p in parts if p)
        if self.text:
            text = self.text + (": " + said if said else "")
        else:
            text = said[:1].upper() + said[1:]
        return StoryLine(text + ("" if text.endswith((".", "!", "?")) else "."), self.kind, self.role,
                         tuple(self.detail))



class Handlers:
    """The ``_on_<step>`` handlers (a mixin: the state is :class:`.story.TSStoryTeller`'s)."""

    events: list[tuple[str, str]]
    play: dict[str, Any] | None
    headlines: dict[str, str]
    dice: list[int]
    rolling: tuple[Any, ...] | None
    deal: dict[str, Any] | None
    shuttle: tuple[str, str] | None
    europe_winner: str | None

    def _vp(self, diff: Diff, amount: int) -> _Change:
        """Tell ``amount`` of the decision's VP change (taken out of the diff)."""
        diff.vp -= amount
        return _Change("vp", amount)

    def _defcon(self, diff: Diff) -> _Change:
        """Tell the decision's DEFCON change (what is left once the end of the turn took its share)."""
        amount, diff.defcon = diff.defcon, 0
        return _Change("defcon", amount)

    # set-up, deals and headlines

    def _on_deal(self, side, key, before, after, diff, lines):
        if self.deal is None:
            self.deal = {"start": before, "reshuffled": []}

    def _on_reshuffle(self, side, key, before, after, diff, lines):
        size = key.partition(":")[2]
        text = f"The discard pile is reshuffled into a new draw deck ({size} cards)"
        if self.deal is not None:
            self.deal["reshuffled"].append(text)
        else:
            lines.append(_Line(text, "deal", None))

    def _on_headline(self, side, key, before, after, diff, lines):
        cid = key.partition(":")[2]
        self.events, self.play = [], None
        if cid == "hidden":
            lines.append(_Line(f"{SIDE[side]} chooses a headline card, face down", "headline", side))
        else:
            self.headlines[side] = cid
            lines.append(_Line(f"{SIDE[side]} chooses {card_ops(cid)} as its headline", "headline", side))

    def _on_headline_reveal(self, side, key, before, after, diff, lines):
        self.headlines[side] = key.partition(":")[2]
        revealed = {s: c for s, c in self.headlines.items() if c != "hidden"}
        if len(revealed) < 2 or self.headlines.get("_told"):
            return
        self.headlines["_told"] = "yes"
        ops = {s: (CD.CARD_BY_ID[c].ops if c in CD.CARD_BY_ID else 0) for s, c in revealed.items()}
        first = "ussr" if ops.get("ussr", 0) > ops.get("us", 0) else "us"
        lines.append(_Line(
            f"Headlines revealed: USSR {card_ops(revealed['ussr'])}, US {card_ops(revealed['us'])}; "
            f"the {SIDE[first]}'s goes first", "headline", None))

    def _on_headline_cancel(self, side, key, before, after, diff, lines):
        cid = key.partition(":")[2]
        lines.append(_Line(f"The US headline Defectors cancels the USSR headline, {card_name(cid)}: "
                           "discarded without its event", "headline", side))

    # action rounds

    def _on_action_round(self, side, key, before, after, diff, lines):
        if key == "pass":
            lines.append(_Line(f"{SIDE[side]} passes (only The China Card left in hand)", "play", side))
            return
        cid = key.partition(":")[2]
        self.play = {"card": cid, "side": side, "notes": []}
        self.headlines = {}
        self.events = []
        if diff.china:
            china = after.get("china_card") or {}
            holder = china.get("holder")
            self.play["notes"].append(f"The China Card passes to the {side_name(holder)}, "
                                      f"{'face up' if china.get('face_up') else 'face down'}")
            diff.china = False

    def _on_card_use(self, side, key, before, after, diff, lines):
        parts = key.split(":")
        use = parts[1] if len(parts) > 1 else key
        play = self.play or {"card": None, "side": side, "notes": []}
        play["use"] = use
        cid = play.get("card")
        value, reasons = R.ops_value(before, side, cid) if cid else (0, [])
        name = card_ops(cid) if cid else "a card"
        if reasons and use != "event" and name.endswith(")"):
            name = f"{name[:-1]} {' '.join(reasons)} = {value} Ops)"
        text = f"{SIDE[side]} plays {name} {W.USES.get(use, W.words(use))}"
        card = CD.CARD_BY_ID.get(cid) if cid else None
        if len(parts) > 2 and card is not None:
            owner = card.side
            text += (f"; the {SIDE.get(owner, owner)} event goes first" if parts[2] == "event_first"
                     else f"; the {SIDE.get(owner, owner)} event follows")
        if play["notes"]:
            text += "; " + "; ".join(play["notes"])
            play["notes"] = []
        # (a card played for Operations may act by itself too: Defectors gives the US 1 VP)
        line = _Line(text, "play" if use != "space" else "space", side, card=cid, accepts=True)
        play["line"] = line
        lines.append(line)
        if use == "space":
            self.rolling = ("space", side, before)

    def _on_event(self, side, key, before, after, diff, lines):
        cid = key.partition(":")[2]
        self.events.append((cid, side))
        play = self.play
        if cid in SCORING_REGIONS or cid == "southeast_asia_scoring":
            self._scoring(cid, side, before, after, diff, lines)
            return
        if play and play.get("card") == cid and play.get("use") == "event" and play.get("line") in lines:
            play["line"].kind = "event"
            return
        owner = next((s for s, c in self.headlines.items() if c == cid and s in SIDE), None)
        if (before.get("action_round") or 0) == 0 and owner is not None:
            text = f"The {SIDE[owner]} headline, {card_ops(cid)}, takes effect"
            if owner != side:
                text += f" (a {SIDE.get(side, side)} event)"
        else:
            text = f"The {SIDE.get(side, side)} event {card_ops(cid)} takes effect"
        lines.append(_Line(text, "event", side, card=cid, accepts=True))

    def _on_event_blocked(self, side, key, before, after, diff, lines):
        cid = key.partition(":")[2]
        lines.append(_Line(f"The {card_name(cid)} event cannot take place now (its conditions are not met)",
                           "event", side, card=cid))

    def _on_event_ops(self, side, key, before, after, diff, lines):
        use = key.split(":")[1] if ":" in key else key
        of = f" of {card_name(self.events[-1][0])}" if self.events else ""
        lines.append(_Line(f"{SIDE[side]} uses the Operations{of} {EVENT_OPS.get(use, W.words(use))}", "ops", side))
        if use == "space":
            self.rolling = ("space", side, before)

    def _on_realign(self, side, key, before, after, diff, lines):
        if key == "done":
            lines.append(_Line(f"{SIDE[side]} stops its realignment rolls", "realign", side))
            return
        self.rolling = ("realign", side, key.partition(":")[2])
        self.dice = []

    def _on_coup(self, side, key, before, after, diff, lines):
        self.rolling = ("coup", side, key.partition(":")[2])
        self.dice = []

    _on_che_coup = _on_coup

    def _on_die(self, side, key, before, after, diff, lines):
        self.dice.append(int(key.partition(":")[2]))
        rolling = self.rolling
        if rolling and rolling[0] == "realign" and rolling[2] and len(self.dice) == 2:
            self._realign(rolling[1], rolling[2], before, after, diff, lines)

    def _on_coup_result(self, side, key, before, after, diff, lines):
        _, cid, margin = key.split(":")
        self._coup(side, cid, int(margin), before, after, diff, lines)

    def _on_war_result(self, side, key, before, after, diff, lines):
        _, cid, result = key.split(":")
        card = next((c for c, _ in reversed(self.events) if c in R.WARS), None)
        self._war(side, card, cid, result == "won", before, after, diff, lines)

    def _on_space_race(self, side, key, before, after, diff, lines):
        box = int(key.partition(":")[2])
        rolling = self.rolling
        if rolling and rolling[0] == "space" and rolling[1] == side and self.dice:
            die = self.dice[-1]
            target = R.space_target(box)
            needs = f" (needs 1–{target[1]})" if target else ""
            text = f"{SIDE[side]} rolls {die}{needs}: advances to box {box}, {W.SPACE_BOXES.get(box, '')}"
            self.rolling, self.dice = None, []
        else:
            text = f"{SIDE[side]} advances to box {box} of the Space Race, {W.SPACE_BOXES.get(box, '')}"
        diff.space.pop(side, None)
        line = _Line(text, "space", side)
        target = R.space_target(box)
        if target is not None:  # the VP of arrival: the first there, or the second
            first = int((before.get("space") or {}).get(other(side), 0)) < box
            vp = target[2] if first else target[3]
            if vp:
                line.effects.append(self._vp(diff, vp if side == "us" else -vp))
        lines.append(line)

    def _on_military_ops_shortfall(self, side, key, before, after, diff, lines):
        pass  # told with the end of the turn (_end_of_turn_split)

    def _on_china_card_claimed(self, side, key, before, after, diff, lines):
        lines.append(_Line(f"{SIDE[side]} claims The China Card (Chinese Civil War)", "play", side))
        diff.china = False

    def _on_olympic_result(self, side, key, before, after, diff, lines):
        _, high, low = key.split(":")
        sponsor = next((s for c, s in reversed(self.events) if c == "olympic_games"), side)
        dice = self.dice[-2:]
        rolls = ""
        if len(dice) == 2:
            rolls = (f"{SIDE[sponsor]} rolls {dice[0]} +2 = {dice[0] + 2}, {SIDE[other(sponsor)]} rolls {dice[1]}: ")
        line = _Line(f"Olympic Games: {rolls}{SIDE[side]} wins ({high} to {low})", "die", side)
        line.effects.append(self._vp(diff, 2 if side == "us" else -2))
        lines.append(line)
        self.dice = []

    def _on_summit_result(self, side, key, before, after, diff, lines):
        parts = key.split(":")
        scores = {parts[0]: int(parts[1]), parts[2]: int(parts[3])}
        dice = self.dice[-2:]
        actor = parts[0]
        if len(dice) == 2:
            rolls = (f"{SIDE[actor]} rolls {dice[0]} + {scores[actor] - dice[0]} = {scores[actor]}, "
                     f"{SIDE[parts[2]]} rolls {dice[1]} + {scores[parts[2]] - dice[1]} = {scores[parts[2]]}"
                     " (+1 per region dominated or controlled)")
        else:
            rolls = f"{SIDE[actor]} {scores[actor]}, {SIDE[parts[2]]} {scores[parts[2]]}"
        winner = max(scores, key=lambda s: scores[s]) if scores[actor] != scores[parts[2]] else None
        line = _Line(f"Summit: {rolls}: " + (f"{SIDE[winner]} wins" if winner else "a tie, nothing happens"),
                     "die", side)
        if winner:
            line.effects.append(self._vp(diff, 2 if winner == "us" else -2))
        lines.append(line)
        self.dice = []

    def _on_trap_result(self, side, key, before, after, diff, lines):
        trap = "Quagmire" if side == "us" else "Bear Trap"
        die = f"rolls {self.dice[-1]} (needs 1–4)" if self.dice else "rolls"
        outcome = "and escapes" if key == "freed" else "and stays trapped"
        lines.append(_Line(f"{SIDE[side]} {die} {outcome} ({trap})", "die", side))
        self.dice = []
        for name in list(diff.ended):
            if name in (E.QUAGMIRE, E.BEAR_TRAP):
                diff.ended.remove(name)

    def _on_trap_discard(self, side, key, before, after, diff, lines):
        trap = "Quagmire" if side == "us" else "Bear Trap"
        cid = key.partition(":")[2]
        lines.append(_Line(f"{SIDE[side]} discards {card_ops(cid)} to try to escape ({trap})", "play", side))
        if cid in diff.discarded:
            diff.discarded.remove(cid)

    def _on_reveal_hand(self, side, key, before, after, diff, lines):
        cards = key.partition(":")[2]
        if cards == "hidden":
            lines.append(_Line(f"The {SIDE[side]} shows its hand to the {SIDE[other(side)]}", "event", side))
        else:
            lines.append(_Line(f"The {SIDE[side]} hand is shown to the {SIDE[other(side)]}: "
                               f"{W.cards_list(c for c in cards.split(',') if c)}", "event", side))

    def _on_reveal_scoring_cards(self, side, key, before, after, diff, lines):
        cards = key.partition(":")[2]
        if cards == "hidden":
            text = f"The {SIDE[side]} shows its scoring cards to the {SIDE[other(side)]}"
        else:
            text = (f"The {SIDE[side]} reveals its scoring cards: "
                    f"{W.cards_list(c for c in cards.split(',') if c)}")
        lines.append(_Line(text, "event", side, accepts=True, card=self.events[-1][0] if self.events else None))

    def _on_missile_envy_gives(self, side, key, before, after, diff, lines):
        cid = key.partition(":")[2]
        lines.append(_Line(f"{SIDE[side]} gives up {card_ops(cid)} for Missile Envy", "event", side))

    def _on_shuttle_diplomacy(self, side, key, before, after, diff, lines):
        cid = key.partition(":")[2]
        lines.append(_Line(f"US chooses {country_name(cid)} as the battleground Shuttle Diplomacy leaves out",
                           "event", side))
        if self.shuttle is not None:
            card, actor = self.shuttle
            self.shuttle = None
            self._scoring(card, actor, before, after, diff, lines, ignore=(cid,))
        return None

    def _chance_card(self, side, key, before, after, diff, lines, what):
        cid = key.partition(":")[2]
        name = "a card" if cid == "hidden" else card_ops(cid)
        lines.append(_Line(what.format(name), "event", None, accepts=True))

    def _on_five_year_plan(self, side, key, before, after, diff, lines):
        self._chance_card(side, key, before, after, diff, lines, "Five Year Plan: the USSR discards {} at random")

    def _on_terrorism(self, side, key, before, after, diff, lines):
        self._chance_card(side, key, before, after, diff, lines, "Terrorism: {} is discarded at random")

    def _on_grain_sales(self, side, key, before, after, diff, lines):
        self._chance_card(side, key, before, after, diff, lines, "Grain Sales to Soviets: the US takes {} from the USSR hand at random")

    def _on_tehran_draw(self, side, key, before, after, diff, lines):
        self._chance_card(side, key, before, after, diff, lines, "Our Man in Tehran: the US draws {}")

    # -- rolls -----------------------------------------------------------------------------------

    def _coup(self, side, cid, margin, before, after, diff, lines):
        die = self.dice[-1] if self.dice else None
        stability = M.COUNTRY_BY_ID[cid].stability
        mods, mod_reasons = R.coup_modifiers(before, side, cid)
        play = self.play or {}
        from_card = play.get("card") if play.get("use") == "coup" and play.get("side") == side else None
        estimate = None
        if from_card:
            estimate, _ = R.ops_value(before, side, from_card)
            bonus, bonus_reasons = R.coup_bonus(side, cid, from_card, list(before.get("effects") or []))
            estimate += bonus
            mod_reasons = bonus_reasons + mod_reasons
        if die is None:
            roll = ""
        elif margin > 0:
            total = margin + 2 * stability - die  # Ops + modifiers, as the result shows them
            ops = total - mods
            roll = f"{SIDE[side]} rolls {die} + {ops} Ops{self._signed_mods(mods, mod_reasons)} − {2 * stability} = {margin}"
        elif estimate is not None:
            value = die + estimate + mods - 2 * stability
            roll = (f"{SIDE[side]} rolls {die} + {estimate} Ops{self._signed_mods(mods, mod_reasons)} − "
                    f"{2 * stability} = {W.number(value)}")
        else:
            roll = f"{SIDE[side]} rolls {die}"
        stab = f"stability {stability}{', battleground' if M.COUNTRY_BY_ID[cid].battleground else ''}"
        line = _Line(f"Coup in {country_name(cid)} ({stab}): {roll}" if roll else f"Coup in {country_name(cid)}",
                     "coup", side)
        changes = {cid: diff.take_country(cid)} if margin > 0 else {}
        line.effects.append(W.influence_phrase(changes, before, after) if margin > 0 else "fails")
        if diff.defcon:
            line.effects.append(self._defcon(diff))
        if side in diff.milops:
            diff.milops.pop(side)
            line.effects.append(f"{SIDE[side]} military ops {(after.get('military_ops') or {}).get(side, 0)}")
        line.accepts = True
        lines.append(line)
        self.rolling, self.dice = None, []

    @staticmethod
    def _signed_mods(mods: int, reasons: list[str]) -> str:
        return R.mods_text(reasons) if reasons else ""

    def _realign(self, side, cid, before, after, diff, lines):
        mine, theirs = self.dice[-2], self.dice[-1]
        my_mod, my_reasons = R.realign_modifier(before, side, cid)
        their_mod, their_reasons = R.realign_modifier(before, other(side), cid)
        a, b = mine + my_mod, theirs + their_mod
        text = (f"Realignment in {country_name(cid)}: {SIDE[side]} rolls {mine}{self._plus(my_mod, my_reasons, a)}, "
                f"{SIDE[other(side)]} rolls {theirs}{self._plus(their_mod, their_reasons, b)}")
        line = _Line(text, "realign", side)
        changes = {cid: diff.take_country(cid)}
        if a == b:
            line.effects.append("a tie, no change")
        elif any(changes[cid].values()):
            line.effects.append(W.influence_phrase(changes, before, after))
        else:
            loser = other(side) if a > b else side
            line.effects.append(f"the {SIDE[loser]} has no influence there to lose")
        lines.append(line)
        self.dice = []
        self.rolling = None

    @staticmethod
    def _plus(mod: int, reasons: list[str], total: int) -> str:
        """`` +2 (+1 adjacent control, +1 more influence) = 7`` (nothing without a modifier)."""
        if not mod and not reasons:
            return ""
        return f" {W.signed(mod)}{R.mods_text(reasons)} = {W.number(total)}"

    def _war(self, actor, card, cid, won, before, after, diff, lines):
        die = self.dice[-1] if self.dice else None
        _, at_least, vp, _ = R.WARS.get(card or "", (None, 4, 2, 2))
        mod, reasons = R.war_modifier(before, card or "", actor, cid)
        name = card_name(card) if card else "war"
        roll = f"{SIDE[actor]} rolls {die}" if die is not None else f"{SIDE[actor]} rolls"
        if mod and die is not None:
            roll += f" − {mod} ({', '.join(reasons)}) = {W.number(die - mod)}"
        line = _Line(f"{name} in {country_name(cid)}: {roll} (wins on {at_least}+): "
                     f"{SIDE[actor]} {'wins' if won else 'loses'}", "war", actor)
        if won:
            line.effects.append(W.influence_phrase({cid: diff.take_country(cid)}, before, after))
            line.effects.append(self._vp(diff, vp if actor == "us" else -vp))
        lines.append(line)
        self.dice, self.rolling = [], None

    def _settle_rolls(self, before, after, diff, lines):
        """A die with no result entry of its own: a failed space race roll, a re-rolled tie."""
        rolling = self.rolling
        if rolling and rolling[0] == "space" and self.dice:
            side = rolling[1]
            box = int((before.get("space") or {}).get(side, 0)) + 1
            target = R.space_target(box)
            needs = f" (needs 1–{target[1]})" if target else ""
            lines.append(_Line(f"{SIDE[side]} rolls {self.dice[-1]} for box {box} of the Space Race{needs}: fails",
                               "space", side))
            self.rolling, self.dice = None, []
        elif len(self.dice) >= 2 and self.events and self.events[-1][0] == "olympic_games":
            mine, theirs = self.dice[-2], self.dice[-1]
            sponsor = self.events[-1][1]
            lines.append(_Line(f"Olympic Games: {SIDE[sponsor]} rolls {mine} +2 = {mine + 2}, "
                               f"{SIDE[other(sponsor)]} rolls {theirs}: a tie, both roll again", "die", None))
            self.dice = []

    # -- scoring ---------------------------------------------------------------------------------

    def _scoring(self, cid, side, before, after, diff, lines, ignore: Iterable[str] = ()):
        if cid == "southeast_asia_scoring":
            line, net = southeast_asia_line(after)
        else:
            region = SCORING_REGIONS[cid]
            effects = list(before.get("effects") or [])
            asks = (E.SHUTTLE_DIPLOMACY in effects and region in (M.ASIA, M.MIDDLE_EAST) and not ignore
                    and any(M.COUNTRY_BY_ID[c].battleground and SV.controller(after.get("influence") or {}, c) == "ussr"
                            for c in (M.COUNTRIES[i].id for i in M.REGION_COUNTRIES[region])))
            if asks and self.shuttle is None and after.get("step") == "shuttle_diplomacy":
                self.shuttle = (cid, side)
                lines.append(_Line(f"{card_name(cid)} is played; Shuttle Diplomacy first", "scoring", side))
                return
            score = SV.score_region(after.get("influence") or {}, region, effects, ignore)
            line, net = scoring_line(score)
            if score.europe_winner:
                self.europe_winner = score.europe_winner
                net = 0
        scored = _Line(line.text, "scoring", side, detail=line.detail)
        if not self.europe_winner:
            scored.effects.append(self._vp(diff, net) if net else "no VP change")
        lines.append(scored)

