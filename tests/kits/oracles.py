"""Independent oracles for hidden information and card conservation, written from the rulebooks
(``twilight-struggle/cards.md`` and ``map.md``, ``schotten-totten/rules.md``), not from the
engines' ``view`` or ``determinize``.

The leak test of the conformance suite re-deals what a role cannot see with the game's own
``determinize`` and checks that the role's view does not change: a hidden field that both
``view`` and ``determinize`` forget passes it. These oracles look at the truth instead (the engine
state: hands, piles, decks, headline slots, cards in play on the frame stack) and decide, from the
rules alone, which cards each side may know at each moment. They follow a match state by state
(``observe`` after every decision, chance included) and check:

* **conservation**: every card of the game is in exactly one place at every state (Twilight
  Struggle: 110 cards, or 103 without the optional cards; Schotten Totten: 60 troops + 10 tactics,
  or 54 troops in the classic ruleset, 60 troops without tactics);
* **leaks**: every string of each role's view (``game.view(state, role, history_from)``: the
  fields of the present and the history entries new since the last state), and the prompt, labels
  and keys of the decisions the role is asked, name only cards the role may know at that moment.
  A card is *named* when a card id is a whole component of a key-like string (``card:nato``,
  ``hand:fidel,nasser``, a list of ids) or a card's name appears in human text (prompts, labels);
* **faithfulness** (a view that hid too much would pass the leak check): the view's own hand,
  discard/removed piles, pile sizes and table equal the truth.

What the rules make public, and so what a role may see named
------------------------------------------------------------
Twilight Struggle (side ``s``, opponent ``o``):

* always: the discard pile and the removed cards (face up), The China Card (#6), every card being
  played (an action-round card, a headline being resolved, a card drawn for Grain Sales, a card
  picked from the discards by SALT or Star Wars, a card discarded at random by Five Year Plan or
  Terrorism, the card taken by Missile Envy: all face up), Shuttle Diplomacy (#73) lying in
  front of the US while its effect lasts, cards not (yet) in the game (the Mid War cards before
  turn 4, the Late War cards before turn 8, the optional cards when they are off);
* ``s``'s own hand and own headline card;
* headlines (map.md §11): both are revealed together once both sides chose; with the Man in Earth
  Orbit ability (space box 4, held by one side alone) the other side chooses and reveals first, so
  its headline card is public as soon as it is chosen;
* draws: a card dealt or drawn is seen by its drawer only (it enters the drawer's hand);
* a card that enters ``o``'s hand from a place ``s`` could see (the discard pile: SALT #43; the
  table: Missile Envy #49 given in exchange; a card being played: Grain Sales #67 given back;
  ``s``'s own hand) stays known to ``s`` while it stays in ``o``'s hand;
* CIA Created (#26): when its event is carried out, the US sees the USSR hand (one look: the cards
  it saw stay known while they stay in that hand, later draws do not);
* "Lone Gunman" (#62): the same, the US hand shown to the USSR;
* The Cambridge Five (#104): the USSR sees the **scoring** cards of the US hand, no other card;
* Aldrich Ames Remix (#98): the US hand is open to the USSR for the rest of the turn (cards drawn
  later that turn included);
* Our Man in Tehran (#108): the US sees the cards it draws; those it discards are public, those
  it returns are known by the US to be in the draw pile (not where they go after a draw);
* "We Will Bury You" (#50): the US answers it at the start of its next round; answering that it
  plays UN Intervention (#32) commits that card, played as an event in that very round (the
  only way to stop #50): the card is public from the answer on;
* a reshuffle makes the draw pile of cards that lay face up in the discard pile: a card
  discarded and reshuffled within one decision ("Ask Not" #77 discards, then draws) may be
  named by that decision's history entries;
* Defectors (#103) headlined by the US: the cancelled USSR headline goes to the discard pile
  (public). Blockade #10, UN Intervention #32, Aldrich Ames Remix, Latin American Debt Crisis #95,
  "Ask Not" #77, Quagmire/Bear Trap, Eagle/Bear Has Landed (space box 6): discarded cards are
  face up (public);
* a view may name a card as the subject of an event carried out (``events_played``) or of a
  lasting effect (``effects``: the effect of a card whose event was carried out, or a card named by
  such an effect's rule: We Will Bury You #50 names UN Intervention #32); map.md §10 F reveals
  held cards at the end of a turn only to find a held scoring card, which ends the match.

Schotten Totten (rules.md §5-6; player ``p``):

* public: every card on the table (formations, Fog and Mud at a flag, both discard piles), a card
  being played (a troop or morale card before its flag is chosen, Fog or Mud before its flag is
  chosen), the number of troops and tactics in each hand (different backs);
* ``p``'s own hand;
* Scout: cards returned on top of a deck are known to their returner while they lie there; when
  another player draws such a card, its returner knows it is in that hand while it stays there; a
  card entering another hand from a place ``p`` could see stays known to ``p`` likewise;
* a player returning cards face down with Scout shows only which deck each went to: the others
  forget which of their known cards of that kind (troop or tactics) are still in that hand.

The engines' state layout the oracles read (the truth, not a rule): Twilight Struggle keeps cards
in ``deck``, ``discard``, ``removed``, ``hands``, ``headline`` (a slot is live while the headline
phase has not resolved it: ``headline_choose``/``headline_reveal`` frames, then one
``headline_resolve`` frame per side), ``china``, and on the frame stack while a card is in play:
``card_use`` and ``dispose`` frames, the ``grain_sales_to_soviets`` choice, ``tehran_draw`` /
``tehran_discard`` frames. Which events were carried out is read from the state's raw history
(``event`` entries: a card's event, logged by the event register). Schotten Totten keeps cards in
``decks``, ``tops`` (Scout), ``hands``, ``sides``, ``discards``, ``fog``/``mud`` (the flag holding
each), and ``place``/``environment`` frames while a played card waits for its flag.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from standoff.server.core.flow import history_since

# -- scanning strings for card mentions -----------------------------------------------------------

_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """``"Duck and Cover"`` → ``duck_and_cover`` (how card ids are made from card names)."""
    return _SLUG.sub("_", text.lower().replace("...", "")).strip("_")


class Mentions:
    """Which cards a string, or any JSON-like value, names.

    Key-like strings (view fields, option keys, history keys) name a card when a card id is one of
    their components (split at ``:``, ``,`` and other separators). Human text (prompts, labels)
    names a card when the card's name appears in it (compared as slugs, word-bounded)."""

    def __init__(self, ids: dict[str, int], separators: str, skip_keys: frozenset[str] = frozenset()) -> None:
        self.ids = ids
        self.split = re.compile(separators).split
        self.skip_keys = skip_keys
        self.id_set = frozenset(ids)
        words = sorted(ids, key=len, reverse=True)
        self.human = re.compile(r"(?<![a-z0-9])(" + "|".join(map(re.escape, words)) + r")(?![a-z0-9])")
        self.memo: dict[str, frozenset[int]] = {}

    def in_key(self, text: str) -> frozenset[int]:
        found = self.memo.get(text)
        if found is None:
            ids = self.ids
            found = frozenset(ids[part] for part in self.split(text) if part in ids)
            if len(self.memo) > 500_000:
                self.memo.clear()
            self.memo[text] = found
        return found

    def in_text(self, text: str) -> frozenset[int]:
        return frozenset(self.ids[m] for m in self.human.findall(slug(text))) | self.in_key(text)

    def in_value(self, value: Any) -> set[int]:
        """Cards named anywhere in a JSON-like value (strings, and dict keys but ``skip_keys``)."""
        text = value if isinstance(value, str) else json.dumps(value)
        for key in self.skip_keys:
            text = text.replace(f'"{key}":', " ")
        ids = self.ids
        return {ids[token] for token in self.id_set.intersection(self.split(text))}


class OracleBase:
    """Violations and figures shared by both oracles."""

    def __init__(self, max_violations: int) -> None:
        self.max_violations = max_violations
        self.violations: list[str] = []
        self.violation_count = 0
        self.stats: Counter[str] = Counter()
        self.context = ""

    def violate(self, message: str) -> None:
        self.violation_count += 1
        if len(self.violations) < self.max_violations:
            self.violations.append(f"{self.context}{message}")

    def card_name(self, card: int) -> str:
        raise NotImplementedError

    def _conservation(self, zones: dict[str, tuple[int, ...]]) -> None:
        """Every card of ``self.full`` in exactly one zone, and no card from outside the game."""
        seen: dict[int, list[str]] = {}
        for zone, cards in zones.items():
            for card in cards:
                seen.setdefault(card, []).append(zone)
        for card in self.full:
            places = seen.get(card)
            if places is None:
                self.violate(f"conservation: {self.card_name(card)} is nowhere")
            elif len(places) > 1:
                self.violate(f"conservation: {self.card_name(card)} is in {places}")
        for card in seen.keys() - self.full:
            self.violate(f"conservation: {self.card_name(card)} is not in this game but lies in {seen[card]}")

    def assert_clean(self) -> None:
        assert not self.violation_count, (
            f"{self.violation_count} oracle violations, first ones:\n" + "\n".join(self.violations[:20])
        )


# -- Twilight Struggle ----------------------------------------------------------------------------

#: cards.md §3: number | period (Early, Mid, Late) | S scoring, O optional | name
_TS_TABLE = """\
1|E|S|Asia Scoring
2|E|S|Europe Scoring
3|E|S|Middle East Scoring
4|E||Duck and Cover
5|E||Five Year Plan
6|E||The China Card
7|E||Socialist Governments
8|E||Fidel
9|E||Vietnam Revolts
10|E||Blockade
11|E||Korean War
12|E||Romanian Abdication
13|E||Arab-Israeli War
14|E||COMECON
15|E||Nasser
16|E||Warsaw Pact Formed
17|E||De Gaulle Leads France
18|E||Captured Nazi Scientist
19|E||Truman Doctrine
20|E||Olympic Games
21|E||NATO
22|E||Independent Reds
23|E||Marshall Plan
24|E||Indo-Pakistani War
25|E||Containment
26|E||CIA Created
27|E||US/Japan Mutual Defense Pact
28|E||Suez Crisis
29|E||East European Unrest
30|E||Decolonization
31|E||Red Scare/Purge
32|E||UN Intervention
33|E||De-Stalinization
34|E||Nuclear Test Ban
35|E||Formosan Resolution
36|M||Brush War
37|M|S|Central America Scoring
38|M|S|Southeast Asia Scoring
39|M||Arms Race
40|M||Cuban Missile Crisis
41|M||Nuclear Subs
42|M||Quagmire
43|M||SALT Negotiations
44|M||Bear Trap
45|M||Summit
46|M||How I Learned to Stop Worrying
47|M||Junta
48|M||Kitchen Debates
49|M||Missile Envy
50|M||"We Will Bury You"
51|M||Brezhnev Doctrine
52|M||Portuguese Empire Crumbles
53|M||South African Unrest
54|M||Allende
55|M||Willy Brandt
56|M||Muslim Revolution
57|M||ABM Treaty
58|M||Cultural Revolution
59|M||Flower Power
60|M||U2 Incident
61|M||OPEC
62|M||"Lone Gunman"
63|M||Colonial Rear Guards
64|M||Panama Canal Returned
65|M||Camp David Accords
66|M||Puppet Governments
67|M||Grain Sales to Soviets
68|M||John Paul II Elected Pope
69|M||Latin American Death Squads
70|M||OAS Founded
71|M||Nixon Plays the China Card
72|M||Sadat Expels Soviets
73|M||Shuttle Diplomacy
74|M||The Voice of America
75|M||Liberation Theology
76|M||Ussuri River Skirmish
77|M||"Ask Not What Your Country Can Do For You"
78|M||Alliance for Progress
79|M|S|Africa Scoring
80|M||"One Small Step..."
81|M|S|South America Scoring
82|L||Iranian Hostage Crisis
83|L||The Iron Lady
84|L||Reagan Bombs Libya
85|L||Star Wars
86|L||North Sea Oil
87|L||The Reformer
88|L||Marine Barracks Bombing
89|L||Soviets Shoot Down KAL-007
90|L||Glasnost
91|L||Ortega Elected in Nicaragua
92|L||Terrorism
93|L||Iran-Contra Scandal
94|L||Chernobyl
95|L||Latin American Debt Crisis
96|L||"Tear Down This Wall"
97|L||"An Evil Empire"
98|L||Aldrich Ames Remix
99|L||Pershing II Deployed
100|L||Wargames
101|L||Solidarity
102|L||Iran-Iraq War
103|E||Defectors
104|E|O|The Cambridge Five
105|E|O|Special Relationship
106|E|O|NORAD
107|M|O|Che
108|M|O|Our Man in Tehran
109|L|O|Yuri and Samantha
110|L|O|AWACS Sale to Saudis
"""


@dataclass(frozen=True)
class TSCard:
    number: int
    name: str
    id: str
    period: str  # "early" | "mid" | "late"
    scoring: bool
    optional: bool


def _ts_cards() -> dict[int, TSCard]:
    periods = {"E": "early", "M": "mid", "L": "late"}
    cards = {}
    for line in _TS_TABLE.splitlines():
        number, period, flags, name = line.split("|")
        cards[int(number)] = TSCard(int(number), name, slug(name), periods[period], "S" in flags, "O" in flags)
    return cards


TS_CARDS: dict[int, TSCard] = _ts_cards()
TS_CARD_BY_ID: dict[str, int] = {c.id: n for n, c in TS_CARDS.items()}
TS_SCORING: frozenset[int] = frozenset(n for n, c in TS_CARDS.items() if c.scoring)
CHINA = 6
CIA_CREATED, LONE_GUNMAN, CAMBRIDGE_FIVE, ALDRICH_AMES, SHUTTLE_DIPLOMACY = 26, 62, 104, 98, 73
WE_WILL_BURY_YOU, UN_INTERVENTION = 50, 32
#: The US's answer to We Will Bury You that commits UN Intervention to its round (engine's name).
_UN_COMMITTED = "we_will_bury_you:un_intervention"
#: Cards a lasting effect's rule names (not where they lie): We Will Bury You → UN Intervention.
_NAMED_BY_EFFECT = {WE_WILL_BURY_YOU: frozenset({UN_INTERVENTION})}
#: View fields naming cards as history rather than where they lie (checked apart).
_TS_SPECIAL_FIELDS = frozenset({"history", "headline", "effects", "events_played"})
#: Frames whose card is in play, face up (the engine's names; see the module docstring).
_IN_PLAY_FRAMES = frozenset({"card_use", "dispose"})

TS_MENTIONS = Mentions(TS_CARD_BY_ID, r"[^A-Za-z0-9_]+")


@dataclass
class _TSSnap:
    turn: int
    hands: tuple[frozenset[int], frozenset[int]]
    deck: frozenset[int]
    tehran: frozenset[int]
    flow: tuple[frozenset[int], frozenset[int]]  # what each side sees of the table and hands
    vis: tuple[frozenset[int], frozenset[int]]  # flow + what it knows of the draw pile


class TSOracle(OracleBase):
    """Follows one Twilight Struggle match: call :meth:`observe` on every state (the first one
    included, after its decision is settled), then :meth:`finish` on the last."""

    def __init__(self, game: Any, state: Any, *, views: bool = True, max_violations: int = 30) -> None:
        super().__init__(max_violations)
        self.game = game
        self.views = views
        rules = state.rules
        self.roles: tuple[str, ...] = rules.roles
        self.us, self.ussr = self.roles.index("us"), self.roles.index("ussr")
        self.full = frozenset(n for n, c in TS_CARDS.items() if rules.optional_cards or not c.optional)
        self.absent = frozenset(TS_CARDS) - self.full
        self.period = {p: frozenset(n for n in self.full if TS_CARDS[n].period == p) for p in ("mid", "late")}
        self.known: list[set[int]] = [set(), set()]  # known[s]: cards s knows to be in the other hand
        self.deck_known: set[int] = set()  # cards the US returned to the draw pile (Our Man in Tehran)
        self.events_seen: set[int] = set()
        self.aldrich_turn: int | None = None
        #: the headline cards of the last reveal (raw history ``headline_reveal`` entries) and its
        #: turn: the view's ``headline`` field keeps showing them until the next headline phase
        #: (public history, not a leak; counted as ``stale_headline_views`` from the next turn on)
        self.headlines_revealed: set[int] = set()
        self.headlines_turn = 0
        self.pre_reveal = False  # between the headline choices and their reveal
        self.last_number = -1
        self.prev: _TSSnap | None = None
        self.history: dict[str, list] = {r: [] for r in self.roles}
        self.observe(state)

    # -- the truth ------------------------------------------------------------------------------

    def _seer(self, state: Any) -> int | None:
        """The side with the Man in Earth Orbit ability (space box 4, there alone)."""
        space = state.space
        for side in (0, 1):
            if space[side] >= 4 and space[1 - side] < 4:
                return side
        return None

    def _zones(self, state: Any) -> tuple[dict[str, tuple[int, ...]], set[int], set[int], set[int]]:
        """Every place a card can be, with the in-play (public) cards, the Our Man in Tehran
        cards (seen by the US) and the public headline cards."""
        stack = state.stack
        frames = {f[0] for f in stack}
        zones: dict[str, tuple[int, ...]] = {
            "deck": state.deck,
            "discard": state.discard,
            "removed": state.removed,
            f"hand:{self.roles[0]}": state.hands[0],
            f"hand:{self.roles[1]}": state.hands[1],
            "china": (CHINA,),
        }
        in_play: set[int] = set()
        tehran: set[int] = set()
        public_headlines: set[int] = set()
        self.pre_reveal = "headline_choose" in frames or "headline_reveal" in frames
        if self.pre_reveal:
            seer = self._seer(state)
            for side in (0, 1):
                card = state.headline[side]
                if card:
                    zones[f"headline:{self.roles[side]}"] = (card,)
                    if seer is not None and side != seer:
                        public_headlines.add(card)
        else:
            for f in stack:
                if f[0] == "headline_resolve":
                    card = state.headline[f[1]]
                    zones[f"headline:{self.roles[f[1]]}"] = (card,)
                    public_headlines.add(card)
        played = []
        for f in stack:
            name = f[0]
            if name in _IN_PLAY_FRAMES:
                if f[1] != CHINA:
                    played.append(f[1])
            elif name == "ev_choice" and f[2] == "grain_sales_to_soviets":
                played.append(f[4])
            elif name == "tehran_draw":
                tehran.update(f[2])
            elif name == "tehran_discard":
                tehran.update(f[1])
        if played:
            zones["in_play"] = tuple(played)
            in_play.update(played)
        if tehran:
            zones["tehran"] = tuple(sorted(tehran))
        if "shuttle_diplomacy" in state.effects:
            zones["table"] = (SHUTTLE_DIPLOMACY,)
            in_play.add(SHUTTLE_DIPLOMACY)
        box = []
        if state.turn < 4:
            box.extend(self.period["mid"])
        if state.turn < 8:
            box.extend(self.period["late"])
        if box:
            zones["box"] = tuple(box)
        return zones, in_play, tehran, public_headlines

    def card_name(self, card: int) -> str:
        return f"card #{card} {TS_CARDS[card].id}" if card in TS_CARDS else f"card #{card}"

    # -- following the match ----------------------------------------------------------------------

    def observe(self, state: Any) -> None:
        self.game.decision(state)  # settle the automatic steps first
        self.stats["states"] += 1
        us, ussr = self.us, self.ussr
        zones, in_play, tehran, public_headlines = self._zones(state)
        self._conservation(zones)
        hands = (frozenset(state.hands[0]), frozenset(state.hands[1]))
        deck = frozenset(state.deck)
        prev = self.prev
        entries = history_since(state.history, self.last_number)
        fired = []
        for e in entries:
            if e.step == "event" and e.key.startswith("card:"):
                fired.append(TS_CARD_BY_ID[e.key[5:]])
            elif e.step == "headline_reveal" and e.key.startswith("card:"):
                if self.headlines_turn != state.turn:
                    self.headlines_revealed, self.headlines_turn = set(), state.turn
                self.headlines_revealed.add(TS_CARD_BY_ID[e.key[5:]])
        self.events_seen.update(fired)
        # Knowledge carried by the movement of cards: into the other hand from a place seen.
        for s in (0, 1):
            o = 1 - s
            known = self.known[s]
            if prev is not None:
                entered = hands[o] - prev.hands[o]
                gained = entered & prev.flow[s]
                if gained:
                    known.update(gained)
                    self.stats["known_by_card_flow"] += len(gained)
            known.intersection_update(hands[o])
        # Reveals by card events (the module docstring).
        reveal: list[set[int]] = [set(), set()]
        prev_hands = prev.hands if prev is not None else hands
        for card in fired:
            if card == CIA_CREATED:
                reveal[us] |= hands[ussr] | prev_hands[ussr]
                self.known[us] |= hands[ussr]
                self.stats["reveal:26_cia_created"] += 1
            elif card == LONE_GUNMAN:
                reveal[ussr] |= hands[us] | prev_hands[us]
                self.known[ussr] |= hands[us]
                self.stats["reveal:62_lone_gunman"] += 1
            elif card == CAMBRIDGE_FIVE:
                reveal[ussr] |= (hands[us] | prev_hands[us]) & TS_SCORING
                self.known[ussr] |= hands[us] & TS_SCORING
                self.stats["reveal:104_cambridge_five"] += 1
            elif card == ALDRICH_AMES:
                self.aldrich_turn = state.turn
                self.stats["reveal:98_aldrich_ames"] += 1
        if self.aldrich_turn == state.turn:
            reveal[ussr] |= prev_hands[us]
            self.known[ussr] |= hands[us]
            self.stats["states_with_us_hand_open"] += 1
        if prev is not None:
            # A reshuffle during this decision: the cards it brought into the draw pile lay face up
            # in the discard pile a moment before (e.g. discarded by "Ask Not", then reshuffled
            # for its draws): the history entries of this decision may name them.
            reshuffled = deck - prev.deck - prev.tehran
            if reshuffled:
                reveal[0] |= reshuffled
                reveal[1] |= reshuffled
            if prev.tehran:
                self.deck_known |= prev.tehran & deck
        self.deck_known &= deck
        committed = frozenset()
        if _UN_COMMITTED in state.effects and UN_INTERVENTION in hands[us]:
            committed = frozenset({UN_INTERVENTION})
            self.stats["states_with_un_intervention_committed"] += 1
        if tehran:
            self.stats["states_with_tehran_cards"] += 1
        if public_headlines:
            self.stats["states_with_public_headline"] += 1
        public = (
            frozenset(state.discard) | frozenset(state.removed) | in_play | public_headlines | self.absent
            | {CHINA} | frozenset(zones.get("box", ())) | committed
        )
        own_headline = [frozenset(zones.get(f"headline:{self.roles[s]}", ())) for s in (0, 1)]
        flow = []
        vis = []
        for s in (0, 1):
            seen = public | hands[s] | own_headline[s] | self.known[s]
            if s == us:
                seen = seen | tehran
            flow.append(seen)
            vis.append(seen | self.deck_known if s == us else seen)
        snap = _TSSnap(state.turn, hands, deck, frozenset(tehran), (flow[0], flow[1]), (vis[0], vis[1]))
        if self.views:
            self._check_views(state, snap, reveal)
        self.prev = snap
        self.last_number = state.number

    def _check_views(self, state: Any, snap: _TSSnap, reveal: list[set[int]]) -> None:
        game = self.game
        prev_vis = self.prev.vis if self.prev is not None else snap.vis
        decision = game.decision(state)
        mentions = TS_MENTIONS
        events_ids = sorted(TS_CARDS[c].id for c in self.events_seen)
        named_by_effects = set()
        for card in self.events_seen:
            named_by_effects |= _NAMED_BY_EFFECT.get(card, frozenset())
        for s, role in enumerate(self.roles):
            view = game.view(state, role, self.last_number)
            self.stats["views"] += 1
            allowed = snap.vis[s]
            self._faithful(state, s, role, view)
            # The fields of the present, all at once (then field by field to say where).
            plain = {k: v for k, v in view.items() if k not in _TS_SPECIAL_FIELDS}
            if mentions.in_value(plain) - allowed:
                for field, value in plain.items():
                    self._mentioned(mentions.in_value(value) - allowed, role, f"view field {field!r}", state)
            found = mentions.in_value(view["headline"])
            if found and self.headlines_turn != state.turn:
                self.stats["stale_headline_views"] += 1
                if decision is not None and decision.role == role:
                    self.stats["stale_headline_views_at_own_decision"] += 1
            # The last reveal's cards stay named until the next headline phase begins (stale, not
            # secret); while both sides choose, only what is public or one's own.
            stale_ok = frozenset() if self.pre_reveal else self.headlines_revealed
            self._mentioned(found - allowed - stale_ok, role, "view field 'headline'", state)
            found = mentions.in_value(view["effects"])
            self._mentioned(found - allowed - self.events_seen - named_by_effects, role, "view field 'effects'", state)
            self._mentioned(mentions.in_value(view["events_played"]) - self.events_seen, role,
                            "view field 'events_played'", state)
            entries = view["history"]
            self.history[role].extend(entries)
            if entries:
                ok = allowed | prev_vis[s] | reveal[s]
                if mentions.in_value(entries) - ok:
                    for entry in entries:
                        self._mentioned(mentions.in_value(entry) - ok, role, f"history entry {entry}", state)
            if sorted(view["events_played"]) != events_ids:
                self.violate(f"{role} view: events_played {view['events_played']} != events carried out {events_ids}")
            if decision is not None and decision.role == role:
                found = set(mentions.in_text(decision.prompt))
                for option in decision.options:
                    found |= mentions.in_key(option.key) | mentions.in_text(option.label)
                self._mentioned(found - allowed, role, f"decision {decision.step!r}", state)
                self.stats["decisions_checked"] += 1

    def _faithful(self, state: Any, s: int, role: str, view: dict) -> None:
        ids = lambda cards: [TS_CARDS[c].id for c in cards]  # noqa: E731
        o = 1 - s
        problems = []
        if sorted(view["hand"]) != sorted(ids(state.hands[s])):
            problems.append(f"hand {view['hand']}")
        if view["discard"] != ids(state.discard):
            problems.append("discard pile")
        if view["removed"] != ids(state.removed):
            problems.append("removed cards")
        if view["deck_size"] != len(state.deck):
            problems.append("deck size")
        if view["opponent_hand_size"] != len(state.hands[o]):
            problems.append("opponent hand size")
        holder = view["china_card"]["holder"]
        if holder != (self.roles[state.china] if state.china in (0, 1) else None):
            problems.append("China Card holder")
        if problems:
            self.violate(f"{role} view is not faithful to the state: {', '.join(problems)}")

    def _mentioned(self, cards: set[int], role: str, where: str, state: Any) -> None:
        if not cards:
            return
        located = []
        for card in sorted(cards):
            located.append(f"#{card} {TS_CARDS[card].id} ({self._where(state, card)})")
        self.violate(f"leak: {role} {where} names {', '.join(located)}")

    def _where(self, state: Any, card: int) -> str:
        zones = self._zones(state)[0]
        return ", ".join(z for z, cards in zones.items() if card in cards) or "nowhere"

    def finish(self, state: Any) -> None:
        """At the end of a match: each role's whole history equals the entries it was shown
        state by state (old entries never change), and the final state was observed."""
        if self.prev is None or self.last_number != state.number:
            self.observe(state)
        if not self.views:
            return
        for role in self.roles:
            if self.game.view(state, role)["history"] != self.history[role]:
                self.violate(f"{role}: the whole history differs from the entries shown state by state")


# -- Schotten Totten ------------------------------------------------------------------------------

#: rules.md §1: colours of the troops (card id ``colour * 10 + value - 1``, the state's encoding)
ST_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
#: rules.md §1: the 10 tactics cards, ids 60..69 in this order
ST_TACTICS = ("Alexander", "Darius", "Companion Cavalry", "Shield Bearers", "Fog", "Mud", "Scout",
              "Redeploy", "Deserter", "Traitor")
ST_FOG, ST_MUD = 64, 65


def st_card_name(card: int) -> str:
    if card < 60:
        return f"{ST_COLOURS[card // 10]}-{card % 10 + 1}"
    return ST_TACTICS[card - 60].lower().replace(" ", "-")


ST_CARD_BY_NAME: dict[str, int] = {st_card_name(c): c for c in range(70)}
#: ``fog`` and ``mud`` are also the names of two fields of a flag in the view (dict keys).
ST_MENTIONS = Mentions(ST_CARD_BY_NAME, r"[^A-Za-z0-9_-]+", skip_keys=frozenset({"fog", "mud"}))


@dataclass
class _STSnap:
    hands: tuple[frozenset[int], ...]
    tops: dict[int, int | None]  # card on a deck top → its returner
    vis: tuple[frozenset[int], ...]


class STOracle(OracleBase):
    """Follows one Schotten Totten / Battle Line match (any number of players): call
    :meth:`observe` on every state, then :meth:`finish`."""

    def __init__(self, game: Any, state: Any, *, views: bool = True, max_violations: int = 30) -> None:
        super().__init__(max_violations)
        self.game = game
        self.views = views
        rules = state.rules
        self.roles: tuple[str, ...] = rules.roles
        self.n = len(self.roles)
        troops = [c * 10 + v - 1 for c in range(6) for v in range(1, rules.max_value + 1)]
        self.full = frozenset(troops) | (frozenset(range(60, 70)) if rules.tactics else frozenset())
        #: known[s]: card → the player s knows holds it
        self.known: list[dict[int, int]] = [{} for _ in self.roles]
        self.last_number = -1
        self.prev: _STSnap | None = None
        self.history: dict[str, list] = {r: [] for r in self.roles}
        self.observe(state)

    def _zones(self, state: Any) -> tuple[dict[str, tuple[int, ...]], set[int]]:
        zones: dict[str, tuple[int, ...]] = {
            "troop deck": state.decks[0],
            "tactics deck": state.decks[1],
            "troop deck top": tuple(c for c, _ in state.tops[0]),
            "tactics deck top": tuple(c for c, _ in state.tops[1]),
        }
        table: set[int] = set()
        for r, role in enumerate(self.roles):
            zones[f"hand:{role}"] = state.hands[r]
            zones[f"discards:{role}"] = state.discards[r]
            table.update(state.discards[r])
        for i, side in enumerate(state.sides):
            if side:
                zones[f"flag {i // self.n + 1}:{self.roles[i % self.n]}"] = side
                table.update(side)
        for card, where in ((ST_FOG, state.fog), (ST_MUD, state.mud)):
            for f in range(9):
                if where[f] != -1:
                    zones[f"{st_card_name(card)} at flag {f + 1}"] = (card,)
                    table.add(card)
        played = tuple(f[1] for f in state.stack if f[0] in ("place", "environment"))
        if played:
            zones["in_play"] = played
            table.update(played)
        return zones, table

    def card_name(self, card: int) -> str:
        return st_card_name(card)

    def observe(self, state: Any) -> None:
        self.game.decision(state)  # settle the automatic steps first
        self.stats["states"] += 1
        zones, table = self._zones(state)
        self._conservation(zones)
        n = self.n
        hands = tuple(frozenset(h) for h in state.hands)
        prev = self.prev
        tops: dict[int, int | None] = {}
        returned_kinds: list[set[bool]] = [set() for _ in range(n)]  # kinds (is troop) returned by r
        for deck in (0, 1):
            for card, _ in state.tops[deck]:
                if prev is not None and card in prev.tops:
                    tops[card] = prev.tops[card]
                    continue
                returner = None
                if prev is not None:
                    returner = next((r for r in range(n) if card in prev.hands[r]), None)
                if returner is None:
                    self.violate(f"{st_card_name(card)} lies on a deck top but left no hand")
                else:
                    returned_kinds[returner].add(card < 60)
                    self.stats["scout_returns"] += 1
                tops[card] = returner
        for s in range(n):
            known = self.known[s]
            for card, holder in list(known.items()):
                if card not in hands[holder] or (card < 60) in returned_kinds[holder]:
                    del known[card]
            if prev is not None:
                for o in range(n):
                    if o == s:
                        continue
                    for card in hands[o] - prev.hands[o]:
                        if card in prev.vis[s]:
                            known[card] = o
                            self.stats["known_by_card_flow"] += 1
        vis = []
        for s in range(n):
            own_tops = {c for c, r in tops.items() if r == s}
            vis.append(frozenset(table | hands[s] | self.known[s].keys() | own_tops))
        snap = _STSnap(hands, tops, tuple(vis))
        if self.views:
            self._check_views(state, snap, zones)
        self.prev = snap
        self.last_number = state.number

    def _check_views(self, state: Any, snap: _STSnap, zones: dict[str, tuple[int, ...]]) -> None:
        game = self.game
        prev_vis = self.prev.vis if self.prev is not None else snap.vis
        decision = game.decision(state)
        mentions = ST_MENTIONS
        for s, role in enumerate(self.roles):
            view = game.view(state, role, self.last_number)
            self.stats["views"] += 1
            allowed = snap.vis[s]
            self._faithful(state, s, role, view)
            plain = {k: v for k, v in view.items() if k != "history"}
            if mentions.in_value(plain) - allowed:
                for field, value in plain.items():
                    self._mentioned(mentions.in_value(value) - allowed, role, f"view field {field!r}", zones)
            entries = view["history"]
            self.history[role].extend(entries)
            ok = allowed | prev_vis[s]
            if entries and mentions.in_value(entries) - ok:
                for entry in entries:
                    self._mentioned(mentions.in_value(entry) - ok, role, f"history entry {entry}", zones)
            if decision is not None and decision.role == role:
                found = set(mentions.in_text(decision.prompt))
                for option in decision.options:
                    found |= mentions.in_key(option.key) | mentions.in_text(option.label)
                self._mentioned(found - allowed, role, f"decision {decision.step!r}", zones)
                self.stats["decisions_checked"] += 1

    def _faithful(self, state: Any, s: int, role: str, view: dict) -> None:
        names = lambda cards: [st_card_name(c) for c in cards]  # noqa: E731
        problems = []
        if sorted(view["hand"]) != sorted(names(state.hands[s])):
            problems.append("hand")
        for r, other in enumerate(self.roles):
            if view["discards"][other] != names(state.discards[r]):
                problems.append(f"discards of {other}")
            if r != s:
                counts = view["opponents"][other]
                troops = sum(1 for c in state.hands[r] if c < 60)
                if (counts["troops"], counts["tactics"]) != (troops, len(state.hands[r]) - troops):
                    problems.append(f"hand counts of {other}")
        for f, flag in enumerate(view["flags"]):
            for r, other in enumerate(self.roles):
                if flag["sides"][other]["cards"] != names(state.sides[f * self.n + r]):
                    problems.append(f"flag {f + 1}")
        for d, name in enumerate(("troops", "tactics")):
            if view["decks"][name]["size"] != len(state.decks[d]) + len(state.tops[d]):
                problems.append(f"{name} deck size")
        if problems:
            self.violate(f"{role} view is not faithful to the state: {', '.join(problems)}")

    def _mentioned(self, cards: set[int], role: str, where: str, zones: dict[str, tuple[int, ...]]) -> None:
        if not cards:
            return
        located = []
        for card in sorted(cards):
            place = ", ".join(z for z, cs in zones.items() if card in cs) or "nowhere"
            located.append(f"{st_card_name(card)} ({place})")
        self.violate(f"leak: {role} {where} names {', '.join(located)}")

    def finish(self, state: Any) -> None:
        if self.prev is None or self.last_number != state.number:
            self.observe(state)
        if not self.views:
            return
        for role in self.roles:
            if self.game.view(state, role)["history"] != self.history[role]:
                self.violate(f"{role}: the whole history differs from the entries shown state by state")


def oracle_for(game: Any, state: Any, **kw: Any) -> TSOracle | STOracle:
    """The oracle of ``game`` (by name) following a match from ``state``."""
    if game.name == "twilight-struggle":
        return TSOracle(game, state, **kw)
    if game.name == "schotten-totten":
        return STOracle(game, state, **kw)
    raise ValueError(f"no oracle for {game.name}")
