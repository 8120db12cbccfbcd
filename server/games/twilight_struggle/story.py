"""Twilight Struggle told as a club player would write it (``GameSpec.story``; the contract is
:mod:`standoff.server.story`): "USSR plays Fidel (2) as Event: removes all US influence from
Cuba, adds 3 USSR influence to Cuba; USSR now controls Cuba." Chapters as the rulebook names the
parts of a turn (viewer44.md): "Setup", "Turn 3 · Headline", "Turn 3 · Action round 2" (the
USSR's round, then the US's: each begins with its side's play), "Turn 3 · End of turn", "Final
scoring".

The teller reads only what its reader saw: the views before and after each decision and the
history entries numbered with it (a seat's own, with the other side's secrets redacted as
``card:hidden``). What happened comes from the entries (the card played and how, the dice and
their results); what it did to the board comes from the difference between the two views,
explained piece by piece (a coup's result in its country, a scoring's VP) and the rest told as
the effect of the event or choice that caused it. Every change of VP, DEFCON, military
operations and the space race is told. The end of a turn happens inside the turn's last
decision: its changes (military operations short, DEFCON, the China Card) are told at the next
decision, under their own chapter, so that each chapter begins where its lines begin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...story import Chapter, StoryLine
from . import card_data as CD
from . import effects as E
from . import map_data as M
from . import scoring_view as SV
from . import story_words as W
from .effects import lasts_the_turn
from .state import SIDE_NAMES
from .story_choices import choice_text, generic
from .story_handlers import Handlers, _Change, _Line
from .story_scoring import final_lines
from .story_words import SIDE, Diff, card_name, country_name, other, side_name

__all__ = ["TSStoryTeller"]

#: Steps of the entries told as a run of single placements (one line when the run ends).
_RUNS = {"influence": "influence", "setup_place": "setup", "bid": "bid", "event_place": "add",
         "event_remove": "remove"}
class TSStoryTeller(Handlers):
    """One match's teller (a new one per match told: it remembers the card in play, the open
    rolls and the runs of placements)."""

    #: Twilight Struggle's own kinds of line and how the pages show them (server/story.py's KINDS
    #: has the common ones): the tracks' changes grey, the plays plain.
    kinds = {"headline": "", "ops": "", "space": "", "coup": "", "realign": "", "war": "minor",
             "vp": "minor", "defcon": "minor", "milops": "minor"}

    def __init__(self) -> None:
        self.chapter: tuple[Any, ...] | None = None
        self.deferred: list[Chapter | StoryLine] | None = None  # the end of a turn, told next
        self.play: dict[str, Any] | None = None  # the card of the action round
        self.headlines: dict[str, str] = {}
        self.dice: list[int] = []
        self.rolling: tuple[Any, ...] | None = None  # ("space", side) ("realign", side, country)...
        self.run: dict[str, Any] | None = None  # a run of placements
        self.deal: dict[str, Any] | None = None
        self.events: list[tuple[str, str]] = []  # (card, side) of the events being carried out
        self.shuttle: str | None = None  # a scoring waiting for Shuttle Diplomacy's choice
        self.europe_winner: str | None = None
        self.final_scored = False
        self.end_turn = 10

    # -- the contract ---------------------------------------------------------------------------

    def start(self, view: Mapping[str, Any]) -> list[Chapter | StoryLine]:
        self.end_turn = int((view.get("rules") or {}).get("end_turn") or 10)
        key, title = self._chapter_of(view)
        self.chapter = key
        items: list[Chapter | StoryLine] = [Chapter(title)]
        if key[0] == "setup":
            rules = view.get("rules") or {}
            holder = (view.get("china_card") or {}).get("holder")
            china = (f"The {side_name(holder)} holds The China Card" if holder
                     else "The China Card is out of play until the USSR claims it (Chinese Civil War)")
            extra = ""
            if rules.get("bid_side"):
                extra = f"; the {SIDE.get(rules['bid_side'], rules['bid_side'])} then bids {rules['bid']} influence"
            items.append(StoryLine(
                f"Twilight Struggle, {rules.get('ruleset') or 'deluxe'} rules, {self.end_turn} turns: the USSR places "
                f"6 influence in Eastern Europe, then the US 7 in Western Europe{extra}. {china}.", "setup"))
        else:
            china = (view.get("china_card") or {}).get("holder")
            items.append(StoryLine(
                f"The match starts from a position: turn {view.get('turn')}, action round {view.get('action_round')}, "
                f"{side_name(view.get('phasing'))} phasing; VP {W.vp_track(int(view.get('vp') or 0))}, "
                f"DEFCON {view.get('defcon')}; The China Card with the {side_name(china) if china else 'nobody'}.",
                "setup"))
        return items

    def tell(self, before: Mapping[str, Any], entries: Sequence[Sequence[Any]],
             after: Mapping[str, Any]) -> list[Chapter | StoryLine]:
        out: list[Chapter | StoryLine] = []
        if self.deferred is not None:  # the end of the previous turn: this decision opens its chapter
            out += self.deferred
            self.deferred = None
        else:
            key, title = self._chapter_of(before)
            if key != self.chapter:
                self.chapter = key
                self.events, self.play = [], None  # an action round's events end with it
                out.append(Chapter(title))
        diff = Diff.of(before, after)
        ended = after.get("step") is None
        eot = self._end_of_turn_split(before, after, entries, diff)
        lines: list[_Line] = []
        for entry in entries:
            self._entry(entry, before, after, diff, lines)
        self._settle_rolls(before, after, diff, lines)
        self._residual(diff, before, after, lines)
        self._end_runs(after, lines, ended or eot is not None)
        totals = {"vp": int(before.get("vp") or 0), "defcon": int(before.get("defcon") or 5)}
        out += [line.line(totals) for line in lines]
        if eot is not None:
            told = self._end_of_turn_lines(eot, before, after)
            if ended or self.chapter == ("eot", before.get("turn")):
                if self.chapter != ("eot", before.get("turn")):
                    out.append(Chapter(f"Turn {before.get('turn')} · End of turn"))
                out += told
            else:
                self.deferred = [Chapter(f"Turn {before.get('turn')} · End of turn"), *told]
                self.chapter = ("eot", before.get("turn"))
        if ended:
            out += self._final(eot, before, after, entries)
        return out

    # -- chapters --------------------------------------------------------------------------------

    def _chapter_of(self, view: Mapping[str, Any]) -> tuple[tuple[Any, ...], str]:
        turn, ar, step = view.get("turn") or 1, view.get("action_round") or 0, view.get("step")
        if step == "space_discard":
            return ("eot", turn), f"Turn {turn} · End of turn"
        if ar > 0:  # both sides' rounds (each half begins with its side's play: "USSR plays...")
            return ("ar", turn, ar), f"Turn {turn} · Action round {ar}"
        if turn == 1 and step in ("deal", "setup_place", "bid"):
            return ("setup",), "Setup"
        return ("headline", turn), f"Turn {turn} · Headline"

    # -- one entry --------------------------------------------------------------------------------

    def _entry(self, entry: Sequence[Any], before: Mapping[str, Any], after: Mapping[str, Any], diff: Diff,
               lines: list[_Line]) -> None:
        _, role, step, key = entry[0], entry[1], entry[2], str(entry[3])
        side = role if role in SIDE else None
        kind, _, rest = key.partition(":")
        run = _RUNS.get(step)
        if run is not None and kind == "country":
            self._extend_run(run, side, rest, before, diff, lines)
            return
        if step != "deal" and step != "reshuffle":
            self._end_run(lines, diff)
        handler = getattr(self, "_on_" + step, None)
        if handler is not None and handler(side, key, before, after, diff, lines) is not False:
            return
        self._generic(side, step, key, lines)

    def _generic(self, side: str | None, step: str, key: str, lines: list[_Line]) -> None:
        """Any other choice: an event's choice as its sentence (:mod:`.story_choices`), else who
        chose what, and for which card's event."""
        card = W.step_card(step) or (self.events[-1][0] if self.events else None)
        text = choice_text(step, side, key) or generic(step, side, key, card)
        lines.append(_Line(text, "event", side, card=card, accepts=True))

    # -- what is left of the diff ------------------------------------------------------------------

    def _residual(self, diff: Diff, before, after, lines: list[_Line]) -> None:
        """What is left of the diff once every entry took its part: the effect of the events and
        choices of this decision (attached to the sentence that caused it), else a line of its own."""
        if diff.empty():
            return
        own_cards = {c for c, _ in self.events} | ({self.play["card"]} if self.play else set())
        own_cards |= set(self.headlines.values())
        targets = [line for line in lines if line.accepts]
        parts_by_line: dict[int, list[str]] = {}
        # influence: to the line whose card names the country, else the last accepting line
        if diff.influence:
            groups: dict[int, dict[str, dict[str, int]]] = {}
            for cid in diff.countries():
                target = self._line_for_country(targets, cid)
                groups.setdefault(target, {})[cid] = diff.take_country(cid)
            for target, changes in groups.items():
                parts_by_line.setdefault(target, []).append(W.influence_phrase(changes, before, after))
        # the rest: to the line whose card's text speaks of it (VP, DEFCON...), else the last one
        topics: list[tuple[str, str]] = []
        if diff.vp:
            topics.append((self._vp(diff, diff.vp), "VP"))
        if diff.defcon:
            topics.append((self._defcon(diff), "DEFCON"))
        for side in W.SIDES:
            if side in diff.milops:
                topics.append((f"{SIDE[side]} military ops {(after.get('military_ops') or {}).get(side, 0)}", "military"))
            if side in diff.space:
                box = int((after.get("space") or {}).get(side, 0))
                topics.append((f"{SIDE[side]} space race box {box}"
                               + (f", {W.SPACE_BOXES[box]}" if box in W.SPACE_BOXES else ""), "space"))
        diff.milops, diff.space = {}, {}
        for name in diff.added:
            topics.append((f"{W.effect_words(name)} now in effect", W.effect_card(name)))
        for name in diff.ended:
            topics.append((f"{W.effect_words(name)} no longer in effect", W.effect_card(name)))
        diff.added, diff.ended = [], []
        if diff.china:
            china = after.get("china_card") or {}
            holder = china.get("holder")
            topics.append((f"The China Card goes to the {side_name(holder)}, "
                           f"{'face up' if china.get('face_up') else 'face down'}" if holder
                           else "The China Card leaves play", "China Card"))
            diff.china = False
        discarded = [c for c in diff.discarded if c not in own_cards]
        removed = [c for c in diff.removed if c not in own_cards]
        if discarded:
            topics.append((f"{W.cards_list(discarded)} to the discard pile", "discard"))
        if removed:
            topics.append((f"{W.cards_list(removed)} removed from the game", "remove"))
        diff.discarded, diff.removed = [], []
        for text, topic in topics:
            parts_by_line.setdefault(self._line_for_topic(targets, topic), []).append(text)
        for index, parts in parts_by_line.items():
            parts = [p for p in parts if p]
            if not parts:
                continue
            if index >= 0:
                targets[index].effects.extend(parts)
            else:
                line = _Line(card_name(self.events[-1][0]) if self.events else "", _kind_of(parts), None)
                line.effects.extend(parts)
                lines.append(line)

    @staticmethod
    def _line_for_topic(targets: list[_Line], topic: str) -> int:
        """The sentence a change of ``topic`` belongs to: the one whose card is ``topic`` or
        whose card text speaks of it; else the last that takes effects (-1: none)."""
        if len(targets) > 1:  # the latest such sentence: an event's own line after its card's play
            for i in range(len(targets) - 1, -1, -1):
                card = CD.CARD_BY_ID.get(targets[i].card or "")
                if card is not None and (card.name == topic or topic in card.summary):
                    return i
        return len(targets) - 1

    @staticmethod
    def _line_for_country(targets: list[_Line], cid: str) -> int:
        if not targets:
            return -1
        name = country_name(cid)
        region = M.COUNTRY_BY_ID[cid].region if cid in M.COUNTRY_BY_ID else ""
        if len(targets) > 1:  # the latest sentence whose card's text names the country or its region
            for i in range(len(targets) - 1, -1, -1):
                card = CD.CARD_BY_ID.get(targets[i].card or "")
                if card is not None and (name in card.summary or (region and region in card.summary)):
                    return i
        return len(targets) - 1

    # -- runs of placements ----------------------------------------------------------------------

    def _extend_run(self, run, side, cid, before, diff, lines):
        current = self.run
        if current is None or current["run"] != run or current["side"] != side:
            self._end_run(lines, diff)
            current = self.run = {"run": run, "side": side, "start": before, "countries": [],
                                  "card": self.events[-1][0] if self.events else None}
        if cid not in current["countries"]:
            current["countries"].append(cid)
        current["changes"] = current.get("changes", {})
        for s, delta in diff.take_country(cid).items():
            current["changes"].setdefault(cid, {}).setdefault(s, 0)
            current["changes"][cid][s] += delta
        current["after"] = diff.after

    def _end_runs(self, after, lines: list[_Line], force: bool) -> None:
        if self.run is not None and (force or _RUNS.get(after.get("step") or "") != self.run["run"]):
            self._end_run(lines, None)
        if self.deal is not None and (force or after.get("step") != "deal"):
            self._end_deal(after, lines)

    def _end_run(self, lines: list[_Line], diff: Diff | None) -> None:
        run, self.run = self.run, None
        if run is None:
            return
        side, start, end = run["side"], run["start"], run.get("after") or run["start"]
        changes = {cid: d for cid, d in (run.get("changes") or {}).items() if any(d.values())}
        of = f" ({card_name(run['card'])})" if run["card"] and run["run"] in ("add", "remove") else ""
        if run["run"] in ("influence", "setup", "bid"):
            cells = [(cid, d.get(side, 0)) for cid, d in changes.items() if d.get(side, 0)]
            what = {"influence": "places influence in", "setup": "places its set-up influence in",
                    "bid": "places its bid influence in"}[run["run"]]
            text = f"{SIDE[side]} {what} " + W.join([f"{country_name(c)} (+{n})" for c, n in cells])
            control = W.control_phrase(changes, start, end)
            if control:
                text += f"; {control}"
            kind = "setup" if run["run"] in ("setup", "bid") else "ops"
        else:
            text = f"{SIDE[side]} {W.influence_phrase(changes, start, end)}{of}" if changes else \
                f"{SIDE[side]} makes no change{of}"
            kind = "event"
        lines.append(_Line(text, kind, side))

    def _end_deal(self, after, lines: list[_Line]) -> None:
        deal, self.deal = self.deal, None
        start = deal["start"]
        parts = []
        for side in ("ussr", "us"):
            old, new = _hand(start, side), _hand(after, side)
            if new is None or old is None:
                size_old, size_new = _hand_size(start, side), _hand_size(after, side)
                if size_new > size_old:
                    parts.append(f"the {SIDE[side]} draws {size_new - size_old} card{'s' if size_new - size_old != 1 else ''}")
                continue
            drawn = [c for c in new if c not in old]
            if drawn:
                parts.append(f"the {SIDE[side]} draws {W.cards_list(drawn)}")
        for text in deal["reshuffled"]:
            lines.append(_Line(text, "deal", None))
        if parts:
            text = "; ".join(parts)
            lines.append(_Line(text[0].upper() + text[1:], "deal", None))

    # -- the end of a turn, and of the game --------------------------------------------------------

    def _end_of_turn_split(self, before, after, entries, diff) -> dict[str, Any] | None:
        """The end of the turn's share of this decision's changes (taken out of ``diff``), if the
        turn ended in it: the VP of military operations short, DEFCON's improvement, the China
        Card turned face up, the effects that lasted the turn."""
        shortfalls = [(str(e[1]), int(str(e[3]).partition(":")[2])) for e in entries if e[2] == "military_ops_shortfall"]
        turn_changed = after.get("turn") != before.get("turn")
        ended = after.get("step") is None
        reset = any(int((before.get("military_ops") or {}).get(s, 0)) > 0
                    and int((after.get("military_ops") or {}).get(s, 0)) == 0 for s in W.SIDES)
        if not (turn_changed or shortfalls or (ended and reset)):
            return None
        eot: dict[str, Any] = {"shortfalls": shortfalls, "turn": before.get("turn"), "defcon": 0}
        short_vp = sum(n if side == "ussr" else -n for side, n in shortfalls)  # the other side gains
        eot["short_vp"] = short_vp
        diff.vp -= short_vp
        diff.later_vp += short_vp
        final = None
        if ended and int(before.get("turn") or 0) >= self.end_turn:
            final = SV.final_scoring(after)
            applied = 0 if final.europe_winner else final.net
            if final.europe_winner or abs(int(after.get("vp") or 0) - applied) < 20 or not shortfalls:
                eot["final"] = final
                diff.vp -= applied
                diff.later_vp += applied
        if turn_changed:
            known = sum(1 for e in entries if e[2] == "coup_result" and _defcon_coup(before, str(e[1]), str(e[3])))
            guess = int(before.get("defcon") or 5) - known
            now = int(after.get("defcon") or 5)
            end = now - 1 if now < 5 else (4 if guess <= 4 else 5)
            eot["defcon"] = now - end
            eot["defcon_now"] = now
            diff.defcon -= now - end
            diff.later_defcon += now - end
        diff.milops = {}
        china = after.get("china_card") or {}
        if diff.china and (before.get("china_card") or {}).get("holder") == china.get("holder"):
            eot["china"] = china.get("holder")
            diff.china = False
        turn_effects = [e for e in diff.ended if lasts_the_turn(e)]
        eot["effects"] = turn_effects
        diff.ended = [e for e in diff.ended if e not in turn_effects]
        return eot

    def _end_of_turn_lines(self, eot: dict[str, Any], before, after) -> list[Chapter | StoryLine]:
        out: list[Chapter | StoryLine] = []
        final = eot.get("final")
        applied = final.net if final is not None and not final.europe_winner else 0
        running = int(after.get("vp") or 0) - applied - eot["short_vp"]  # before the end of the turn
        for side, n in eot["shortfalls"]:
            gain = -n if side == "us" else n
            running += gain
            out.append(StoryLine(f"The {SIDE[side]} is {n} military op{'s' if n != 1 else ''} short of DEFCON: "
                                 f"{W.vp_change(gain, running)}.", "milops", side))
        if eot.get("effects"):
            out.append(StoryLine("Effects for the turn end: " + W.join([W.effect_words(e) for e in eot["effects"]]) + ".",
                                 "turn", None))
        if "china" in eot:
            out.append(StoryLine(f"The China Card is turned face up ({side_name(eot['china'])}).", "turn", None))
        if eot.get("defcon"):
            out.append(StoryLine(f"DEFCON improves to {eot['defcon_now']}.", "defcon", None))
        turn = int(after.get("turn") or 0)
        if turn != eot["turn"] and turn in (4, 8):
            period = "Mid War" if turn == 4 else "Late War"
            out.append(StoryLine(f"The {period} cards are shuffled into the draw deck.", "turn", None))
        if eot.get("final"):
            out.append(Chapter("Final scoring"))
            out += final_lines(final, int(after.get("vp") or 0) - applied)
            self.final_scored = True
        return out

    def _final(self, eot, before, after, entries) -> list[StoryLine]:
        """The game's end: who wins and why."""
        vp = int(after.get("vp") or 0)
        keys = [(str(e[2]), str(e[3])) for e in entries]
        phasing = before.get("phasing")
        effects = list(before.get("effects") or [])
        crisis = next((s for s in W.SIDES if E.CUBAN_MISSILE_CRISIS[SIDE_NAMES.index(s)] in effects
                       and any(step in ("coup", "che_coup") for step, _ in keys)
                       and not any(step == "coup_result" for step, _ in keys)), None)
        if ("event", "card:wargames") in keys:
            winner = "us" if vp > 0 else "ussr" if vp < 0 else None
            text = (f"Wargames ends the game: {SIDE[winner]} wins on VP ({W.vp_track(vp)})" if winner
                    else "Wargames ends the game with the VP level: a draw")
        elif crisis is not None:
            text = f"The {SIDE[crisis]} coups under the Cuban Missile Crisis: nuclear war; the {SIDE[other(crisis)]} wins"
        elif self.europe_winner or (eot and eot.get("final") and eot["final"].europe_winner):
            winner = self.europe_winner or eot["final"].europe_winner
            text = f"The {SIDE[winner]} controls Europe: the {SIDE[winner]} wins"
        elif int(after.get("defcon") or 5) <= 1:
            text = f"DEFCON 1: nuclear war. The {side_name(phasing)} (phasing) loses; the {side_name(other(phasing or 'us'))} wins"
        elif eot and eot.get("final"):
            text = (f"The US wins by {vp} VP" if vp > 0 else f"The USSR wins by {-vp} VP" if vp < 0
                    else "VP level after final scoring: a draw")
        elif abs(vp) >= 20:
            winner = "us" if vp > 0 else "ussr"
            text = f"The {SIDE[winner]} reaches 20 VP and wins"
        else:
            holders = [s for s in W.SIDES if _holds_scoring(after, s)]
            if not holders and after.get("role") in SIDE:
                holders = [other(after["role"])]  # the other hand, unseen: held the card
            if len(holders) == 2:
                text = "Both sides held a scoring card at the end of the turn: a draw"
            elif holders:
                text = f"The {SIDE[holders[0]]} held a scoring card at the end of the turn: the {SIDE[other(holders[0])]} wins"
            else:
                text = "The game ends"
        return [StoryLine(text + ".", "end", None)]


def _kind_of(parts: list[Any]) -> str:
    """The kind of a line of changes alone: by the first track it moves."""
    for part in parts:
        if isinstance(part, _Change):
            return part.track
    joined = " ".join(p for p in parts if isinstance(p, str))
    if "military ops" in joined:
        return "milops"
    if "space race" in joined:
        return "space"
    return "event"


def _hand(view: Mapping[str, Any], side: str) -> list[str] | None:
    if view.get("role") is None:
        return list((view.get("hands") or {}).get(side) or [])
    if view.get("role") == side and view.get("hand") is not None:
        return list(view["hand"])
    return None  # another's hand; or a spectator's view (the web face's), its ``hand`` None


def _hand_size(view: Mapping[str, Any], side: str) -> int:
    hand = _hand(view, side)
    if hand is not None:
        return len(hand)
    if view.get("role") == side:  # a spectator's view: the seat's own hand counted, not shown
        return int(view.get("hand_size") or 0)
    return int(view.get("opponent_hand_size") or 0)


def _holds_scoring(view: Mapping[str, Any], side: str) -> bool:
    hand = _hand(view, side)
    if hand is None and view.get("opponent_hand"):
        hand = list(view["opponent_hand"])
    return any(CD.CARD_BY_ID[c].scoring for c in hand or [] if c in CD.CARD_BY_ID)


def _defcon_coup(before: Mapping[str, Any], side: str, key: str) -> bool:
    """Whether a coup (its result entry) lowers DEFCON: a battleground, unless Nuclear Subs
    spares a US coup."""
    cid = key.split(":")[1]
    country = M.COUNTRY_BY_ID.get(cid)
    if country is None or not country.battleground:
        return False
    return not (side == "us" and E.NUCLEAR_SUBS in (before.get("effects") or []))
