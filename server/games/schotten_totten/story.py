"""Schotten Totten / Battle Line told as a story (``GameSpec.story``; the contract is
:mod:`standoff.server.story`): "p1 plays Red 8 to flag 3", the tactics cards with what they did,
draws, claims with the formations on both sides and the proof under them, the game's end.

A match is a series of player turns; each gets a chapter ("Turn 12 · p1"), the deal and the
choice of who starts make the "Setup". A card played and its destination are two decisions (play,
then place; Traitor: take, then put) told as one sentence when the second is answered. Draws and
Scout's cards are read from the hands the viewer sees (its own hand by name, another's as counts
of troops and tactics, plus the cards it knows through Scout), so a seat's story never names a
card the seat did not see; the whole table's story names every card. Claims are explained from
the table alone (:mod:`.claims`): public, the same for everyone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...story import Chapter, StoryLine
from . import claims as K
from .claims import card_text, cards_text, count_text

#: What the morale cards are, said when one is placed.
_MORALE = {
    "alexander": "a leader: any colour, any value",
    "darius": "a leader: any colour, any value",
    "companion-cavalry": "an 8 of any colour",
    "shield-bearers": "a 1, 2 or 3 of any colour",
}
_RULESETS = {
    "battle_line": "Battle Line rules: 60 troop cards (1 to 10 in six colours), 9 flags",
    "classic": "Classic Schotten Totten rules: 54 clan cards (1 to 9 in six colours), 9 stones, no tactics",
    "three_player": "Three-player rules: 60 troop cards, 9 flags, no tactics",
}
_SCOUT_STEPS = ("scout_draw", "draw_card")
#: A deck's name in a sentence ("the troop deck").
_DECKS = {"troops": "troop", "tactics": "tactics"}
#: The steps told from their own key (``_on_<step>``).
_TOLD = frozenset((
    "first_player", "play", "place", "environment", "claim", "scout_return", "redeploy", "redeploy_to",
    "mud_discard", "deserter", "traitor", "traitor_to",
))


def _flag(key: str) -> int | None:
    """``flag:4`` -> 4."""
    return int(key[5:]) if key.startswith("flag:") and key[5:].isdigit() else None


def _card(key: str) -> str | None:
    """``card:red-5`` -> ``red-5`` (``None`` for a redacted or other key)."""
    name = key[5:] if key.startswith("card:") else ""
    return name if K.is_card_name(name) else None


def _deck(key: str) -> str | None:
    """``deck:troops`` -> ``troops``."""
    return key[5:] if key.startswith("deck:") else None


def _is_troop(name: str) -> bool:
    return name.rpartition("-")[2].isdigit()


class Hand:
    """A hand as one view shows it: the cards by name (its own hand, or every hand on the whole
    table), or counts of troops and tactics and the cards the viewer knows in it."""

    def __init__(self, view: Mapping[str, Any], role: str) -> None:
        hands = view.get("hands")
        if isinstance(hands, Mapping) and role in hands:
            self.cards: list[str] | None = list(hands[role])
        elif view.get("role") == role and view.get("hand") is not None:
            self.cards = list(view["hand"])
        else:
            self.cards = None
        other = (view.get("opponents") or {}).get(role) or {}
        if view.get("role") == role and self.cards is None:  # a spectator's view: counts only
            other = dict(view.get("hand_size") or {})
        if self.cards is not None:
            self.troops = sum(1 for c in self.cards if _is_troop(c))
            self.tactics = len(self.cards) - self.troops
            self.known: list[str] = list(self.cards)
        else:
            self.troops, self.tactics = int(other.get("troops", 0)), int(other.get("tactics", 0))
            self.known = list(other.get("known") or [])


class Gain:
    """What a hand gained between two views: cards by name, and those the viewer only counts."""

    def __init__(self, before: Hand, after: Hand) -> None:
        if after.cards is not None and before.cards is not None:
            self.named = list((Counter(after.cards) - Counter(before.cards)).elements())
            self.troops = self.tactics = 0
            return
        self.named = list((Counter(after.known) - Counter(before.known)).elements())
        known_troops = sum(1 for c in self.named if _is_troop(c))
        self.troops = max(0, after.troops - before.troops - known_troops)
        self.tactics = max(0, after.tactics - before.tactics - (len(self.named) - known_troops))

    def __bool__(self) -> bool:
        return bool(self.named or self.troops or self.tactics)

    def add(self, other: Gain) -> None:
        self.named += other.named
        self.troops += other.troops
        self.tactics += other.tactics

    def text(self) -> str:
        """``Red 5, a troop card and a tactics card``."""
        parts = [card_text(c) for c in self.named]
        if self.troops:
            parts.append("a troop card" if self.troops == 1 else count_text(self.troops, "troop card"))
        if self.tactics:
            parts.append("a tactics card" if self.tactics == 1 else count_text(self.tactics, "tactics card"))
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _roles(view: Mapping[str, Any]) -> list[str]:
    flags = view.get("flags") or []
    if flags:
        return list(flags[0]["sides"])
    return [view["role"]] if view.get("role") else []


def _side(view: Mapping[str, Any], flag: int, role: str) -> Mapping[str, Any] | None:
    for entry in view.get("flags") or []:
        if entry["flag"] == flag:
            return entry["sides"].get(role)
    return None


def _find(view: Mapping[str, Any], card: str) -> tuple[int, str] | None:
    """(flag, owner) of ``card`` on the table: in a formation, or Fog/Mud beside a flag."""
    for entry in view.get("flags") or []:
        for role, side in entry["sides"].items():
            if card in (side.get("cards") or []):
                return entry["flag"], role
        if card in ("fog", "mud") and entry.get(card):
            return entry["flag"], entry[card]
    return None


class STStory:
    """The teller of one Schotten Totten match (``GameSpec.story`` makes one per match told)."""

    #: Schotten Totten's own kinds of line (server/story.py's KINDS has the common ones): a claim
    #: is a moment (bold, and a jump in the page's chapter list).
    kinds = {"claim": "moment", "formation": ""}

    def __init__(self) -> None:
        self.turn = 0
        self.roles: list[str] = []
        self.pending: tuple[str, str, Any] | None = None  # (role, card, what the next step needs)
        self.scout: dict[str, Any] | None = None  # the Scout being resolved
        self.dealt = False
        self.passes = 0

    # -- the protocol --------------------------------------------------------------------------

    def start(self, view: Mapping[str, Any]) -> Iterable[Chapter | StoryLine]:
        self.roles = _roles(view)
        out: list[Chapter | StoryLine] = [Chapter("Setup")]
        rules = _RULESETS.get(str(view.get("ruleset")))
        if rules:
            tactics = (view.get("decks") or {}).get("tactics", {}).get("size", 0)
            if view.get("ruleset") == "battle_line" and tactics:
                rules += ", with the 10 tactics cards"
            elif view.get("ruleset") == "battle_line" and not view.get("turn"):  # (a position may have drawn them all)
                rules += ", without tactics cards"
            out.append(StoryLine(rules + ".", "setup"))
        if view.get("turn"):  # a match from a position: no deal to tell
            self.dealt = True
            self.turn = int(view["turn"])
            out.append(StoryLine(f"The match starts from a position: turn {view['turn']}, "
                                 f"{view.get('to_move')} to move.", "setup"))
            out.append(Chapter(f"Turn {self.turn} \u00b7 {view.get('to_move')}"))
        return out

    def tell(self, before: Mapping[str, Any], entries: Sequence[Sequence[Any]],
             after: Mapping[str, Any]) -> Iterable[Chapter | StoryLine]:
        out: list[Chapter | StoryLine] = []
        turn = before.get("turn") or 0
        if turn and turn != self.turn:
            self.turn = turn
            out.append(Chapter(f"Turn {turn} \u00b7 {before.get('to_move')}"))
        for entry in entries:
            _, role, step, key = entry[:4]
            out += self._entry(str(role), str(step), str(key), before, after)
        out += self._hands(before, after, entries)
        if after.get("step") is None:
            out += self._end(entries, after)
        return out

    # -- one decision --------------------------------------------------------------------------

    def _entry(self, role: str, step: str, key: str, before: Mapping[str, Any],
               after: Mapping[str, Any]) -> list[StoryLine]:
        # the deal, draws and Scout's draws are told from the hands (_hands), not from their keys
        handler = getattr(self, "_on_" + step, None) if step in _TOLD else None
        return handler(role, key, before, after) if handler is not None else []

    def _on_first_player(self, role, key, before, after):
        starter = key[5:] if key.startswith("role:") else after.get("to_move")
        return [StoryLine(f"{starter} starts (drawn at random).", "setup", starter)]

    def _on_play(self, role, key, before, after):
        if key == "pass":
            self.passes += 1
            return [StoryLine(f"{role} passes: no troop card can be placed.", "play", role)]
        self.passes = 0
        card = _card(key)
        if card is None:
            return []
        if card == "scout":
            self.scout = {"role": role, "drawn": None, "returned": [], "phase": "draw"}
            return [StoryLine(f"{role} plays Scout: draws three cards, then puts two back on the decks.",
                              "play", role)]
        self.pending = (role, card, None)  # told when its destination is chosen
        return []

    def _on_place(self, role, key, before, after):
        pending, self.pending = self.pending, None
        flag = _flag(key)
        if pending is None or flag is None:
            return []
        card = pending[1]
        text = f"{role} plays {card_text(card)} to flag {flag}"
        if card in _MORALE:
            text += f" ({_MORALE[card]})"
        return [StoryLine(text + self._completes(before, after, flag, role) + ".", "play", role)]

    def _completes(self, before: Mapping[str, Any], after: Mapping[str, Any], flag: int, role: str) -> str:
        """``, completing a wedge (sum 27)`` when ``role``'s side of ``flag`` became complete."""
        was = _side(before, flag, role)
        if was is not None and was.get("completed_at") is not None:
            return ""
        entry = K.read_flag(after, flag)
        made = K.complete_formation(entry, role) if entry is not None else None
        return f", completing {made}" if made else ""

    def _on_environment(self, role, key, before, after):
        pending, self.pending = self.pending, None
        flag = _flag(key)
        if pending is None or flag is None:
            return []
        if pending[1] == "fog":
            what = "only the sum of each side counts there"
        else:
            what = "each side there needs 4 cards"
        return [StoryLine(f"{role} plays {card_text(pending[1])} at flag {flag}: {what}.", "play", role)]

    def _on_claim(self, role, key, before, after):
        flag = _flag(key)
        if flag is None:
            return []  # "done": nothing more claimed
        self.passes = 0
        entry = K.read_flag(before, flag)
        if entry is None:
            return []
        return [StoryLine(K.claim_sentence(entry, role), "claim", role, tuple(K.proof_lines(entry, role)))]

    def _on_scout_return(self, role, key, before, after):
        if self.scout is not None:
            card = _card(key)
            deck = _DECKS.get(_deck(key) or "") or ("troop" if card and _is_troop(card) else "tactics")
            self.scout["returned"].append((card_text(card) if card else f"a {deck} card", deck))
        return []

    def _on_redeploy(self, role, key, before, after):
        card = _card(key)
        found = _find(before, card) if card else None
        self.pending = (role, card or "", found[0] if found else None)
        return []

    def _on_redeploy_to(self, role, key, before, after):
        pending, self.pending = self.pending, None
        if pending is None:
            return []
        card, source = card_text(pending[1]), pending[2]
        flag = _flag(key)
        if flag is None:
            return [StoryLine(f"{role} plays Redeploy: discards {card} from flag {source}.", "play", role)]
        return [StoryLine(f"{role} plays Redeploy: moves {card} from flag {source} to flag {flag}"
                          + self._completes(before, after, flag, role) + ".", "play", role)]

    def _on_mud_discard(self, role, key, before, after):
        card = _card(key)
        found = _find(before, card) if card else None
        where = f"flag {found[0]}" if found else "its flag"
        return [StoryLine(f"Mud has left {where}: {role} discards {card_text(card or '')} from its side there.",
                          "play", role)]

    def _on_deserter(self, role, key, before, after):
        self.pending = None
        card = _card(key)
        found = _find(before, card) if card else None
        if card is None or found is None:
            return []
        return [StoryLine(f"{role} plays Deserter: {found[1]}'s {card_text(card)} is discarded from flag {found[0]}.",
                          "play", role)]

    def _on_traitor(self, role, key, before, after):
        card = _card(key)
        found = _find(before, card) if card else None
        self.pending = (role, card or "", found)
        return []

    def _on_traitor_to(self, role, key, before, after):
        pending, self.pending = self.pending, None
        flag = _flag(key)
        if pending is None or flag is None or pending[2] is None:
            return []
        source, owner = pending[2]
        return [StoryLine(f"{role} plays Traitor: takes {owner}'s {card_text(pending[1])} from flag {source} "
                          f"to its own side of flag {flag}" + self._completes(before, after, flag, role) + ".", "play", role)]

    # -- what the hands show: the deal, draws, Scout's cards -----------------------------------

    def _hands(self, before: Mapping[str, Any], after: Mapping[str, Any],
               entries: Sequence[Sequence[Any]]) -> list[StoryLine]:
        steps = {str(e[2]) for e in entries}
        if not self.dealt:
            if "deal" in steps and after.get("step") == "deal":
                return []  # told once the deal is over
            self.dealt = True
            return self._deal(after)
        out = []
        for role in self.roles:
            gain = Gain(Hand(before, role), Hand(after, role))
            scout = self.scout
            if scout is not None and scout["role"] == role and scout["phase"] == "draw":
                if scout["drawn"] is None:
                    scout["drawn"] = gain
                else:
                    scout["drawn"].add(gain)
                continue
            if gain:
                out.append(StoryLine(f"{role} draws {gain.text()}.", "deal", role))
        out += self._scout_progress(after)
        return out

    def _deal(self, after: Mapping[str, Any]) -> list[StoryLine]:
        out = []
        for role in self.roles:
            hand = Hand(after, role)
            if hand.cards is not None:
                text = f"{role} is dealt {cards_text(hand.cards)}."
            else:
                text = f"{role} is dealt {count_text(hand.troops + hand.tactics, 'troop card')}."
            out.append(StoryLine(text, "deal", role))
        if after.get("turn") and after.get("step") is not None:
            # no chance decision chose the first player: the match's options did
            out.append(StoryLine(f"{after.get('to_move')} starts (as the match's options say).", "setup",
                                 after.get("to_move")))
        return out

    def _scout_progress(self, after: Mapping[str, Any]) -> list[StoryLine]:
        """Scout's draws once they are over, and its returns once they are over."""
        scout = self.scout
        if scout is None:
            return []
        step = after.get("step")
        role = scout["role"]
        out = []
        if scout["phase"] == "draw" and step not in _SCOUT_STEPS:
            drawn = scout["drawn"]
            text = drawn.text() if drawn else "nothing (the decks are empty)"
            out.append(StoryLine(f"{role}'s Scout draws {text}.", "deal", role))
            scout["phase"] = "return"
        if scout["phase"] == "return" and step != "scout_return":
            if scout["returned"]:
                parts = [f"{what} on the {deck} deck" for what, deck in scout["returned"]]
                text = parts[0] if len(parts) == 1 else ", then ".join(parts)
                out.append(StoryLine(f"{role} puts back {text} (the last one on top).", "deal", role))
            self.scout = None
        return out

    # -- the end -------------------------------------------------------------------------------

    def _end(self, entries: Sequence[Sequence[Any]], after: Mapping[str, Any]) -> list[StoryLine]:
        """The end, read from the flags held (a breakthrough or an envelopment ends the game the
        moment it is made, so holding one is having won by it), else a stalemate or the cap."""
        flags = after.get("flags") or []
        held = {role: [f["flag"] for f in flags if f.get("claimed_by") == role] for role in self.roles}
        envelop = 4 if len(self.roles) == 3 else 5  # rules digest §7: any four flags with three players
        for role, mine in held.items():
            for start in mine:
                if start + 1 in mine and start + 2 in mine:
                    return [StoryLine(f"{role} breaks through with flags {start}, {start + 1} and {start + 2} "
                                      f"side by side: {role} wins.", "end", role)]
        for role, mine in held.items():
            if len(mine) >= envelop:
                return [StoryLine(f"{role} envelops the enemy with {count_text(len(mine), 'flag')} "
                                  f"({', '.join(map(str, mine))}): {role} wins.", "end", role)]
        counts = ", ".join(f"{role} {len(mine)}" for role, mine in held.items())
        if self.passes >= len(self.roles):
            return [StoryLine(f"Every player passed in succession and nobody can prove a flag: "
                              f"the match ends in a stalemate (flags held: {counts}).", "end")]
        return [StoryLine(f"The decision cap is reached: the match ends as a draw (flags held: {counts}).", "end")]
