"""Twilight Struggle (Deluxe) card data: all 110 cards, including the 7 optional cards #104-110.

Pure data, no I/O. ``CARDS`` was generated once from the JSON in the shared reference
``twilight-struggle/cards.md`` (section 4) and is kept here as a literal; ``summary`` is that
reference's one-paragraph paraphrase of the event (not the card wording).

Fields of ``Card``:

* ``number``: Deluxe card number 1-110 (engines key on it); ``id``: stable snake_case key.
* ``ops``: printed Operations value; 0 for the 7 scoring cards; The China Card (#6) is 4.
* ``side``: whose event it is, ``"us"``, ``"ussr"`` or ``"neutral"``.
* ``period``: ``"early"`` (turn 1), ``"mid"`` (shuffled in at turn 4), ``"late"`` (turn 8).
  Defectors (#103) and optional #104-106 are Early War, #107-108 Mid War, #109-110 Late War.
* ``removed``: the card is removed from the game after its event is carried out (the "starred"
  cards). If the event cannot occur (missing prerequisite, blocked, condition unmet) the card is
  discarded instead. Southeast Asia Scoring (#38) is the one removed scoring card.
* ``scoring``: one of the 7 scoring cards (played only as events, never held over a turn end).
* ``optional``: one of the Deluxe optional cards #104-110 (Defectors #103 is a standard card).
* ``underlined``: the event stays in effect after play until the end condition in ``lasting``
  (Shuttle Diplomacy #73 is underlined but not removed: it is discarded when used up).
* ``headline``: may be headlined (False only for The China Card and UN Intervention).
* ``war_ops``: military-operations credit written on a war card (Korean, Arab-Israeli,
  Indo-Pakistani, Iran-Iraq: 2; Brush War: 3); 0 for every other card. ``war_ops > 0`` = war card.
* ``prerequisite``: card numbers, **any one** of which must have been played as an event for this
  event to be playable (NATO: Warsaw Pact Formed or Marshall Plan; Solidarity: John Paul II).
* ``blocked_by``: the event is unplayable while any of these events is in effect.
* ``cancelled_by``: playing one of these ends this card's lasting effect (Willy Brandt by "Tear Down
  This Wall", Flower Power by "An Evil Empire", NORAD by Quagmire, Formosan Resolution by any **US**
  play of The China Card).
* ``condition``: the reference's free-text requirement for the event (prerequisites and other
  conditions such as "DEFCON must be 2"), or ``None``. ``lasting``: free-text duration, or ``None``.

Reference defaults where sources disagree (cards.md section 11): Iran-Iraq War (#102) is removed
after its event; Latin American Debt Crisis (#95) is not.
"""

from __future__ import annotations

from typing import NamedTuple

US = "us"
USSR = "ussr"
NEUTRAL = "neutral"
SIDES: tuple[str, ...] = (US, USSR, NEUTRAL)

EARLY = "early"
MID = "mid"
LATE = "late"
PERIODS: tuple[str, ...] = (EARLY, MID, LATE)

CHINA_CARD = 6


class Card(NamedTuple):
    number: int
    name: str
    id: str
    ops: int
    side: str
    period: str
    removed: bool = False
    scoring: bool = False
    optional: bool = False
    underlined: bool = False
    headline: bool = True
    war_ops: int = 0
    prerequisite: tuple[int, ...] = ()
    blocked_by: tuple[int, ...] = ()
    cancelled_by: tuple[int, ...] = ()
    condition: str | None = None
    lasting: str | None = None
    summary: str = ""

    @property
    def war(self) -> bool:
        return self.war_ops > 0


# fmt: off
CARDS: tuple[Card, ...] = (
    Card(1, "Asia Scoring", "asia_scoring", 0, NEUTRAL, EARLY, scoring=True,
        summary=(
            "Score Asia (all 15 Asian countries, Southeast Asia included): Presence 3, "
            "Domination 7, Control 9; +1 VP per controlled battleground; +1 VP per controlled"
            " country adjacent to the enemy superpower (US: Afghanistan, North Korea; USSR: "
            "Japan). Net difference moves the VP marker."
        ),
    ),
    Card(2, "Europe Scoring", "europe_scoring", 0, NEUTRAL, EARLY, scoring=True,
        summary=(
            "Score Europe (21 countries incl. both sub-regions): Presence 3, Domination 7; "
            "Control = that side wins the game immediately. +1 VP per controlled "
            "battleground; +1 VP per controlled country adjacent to the enemy superpower (US:"
            " Finland, Poland, Romania; USSR: Canada)."
        ),
    ),
    Card(3, "Middle East Scoring", "middle_east_scoring", 0, NEUTRAL, EARLY, scoring=True,
        summary=(
            "Score the Middle East: Presence 3, Domination 5, Control 7; +1 VP per controlled"
            " battleground. (No Middle East country touches a superpower.)"
        ),
    ),
    Card(4, "Duck and Cover", "duck_and_cover", 3, US, EARLY,
        summary="DEFCON drops by 1; then the US gains VP equal to 5 minus the new DEFCON level.",
    ),
    Card(5, "Five Year Plan", "five_year_plan", 3, US, EARLY,
        summary=(
            "The USSR discards one card chosen at random from its hand (The China Card is "
            "never eligible). If that card carries a US event, the event takes place "
            "immediately, resolved by the US (a starred card is then removed). A USSR or "
            "neutral event, or a scoring card, is simply discarded with no effect."
        ),
    ),
    Card(6, "The China Card", "the_china_card", 4, NEUTRAL, EARLY, headline=False,
        summary=(
            "No event. 4 Operations; +1 Operations when every point is spent in Asia (incl. "
            "Southeast Asia). After being played it passes face down to the opponent (face up"
            " at end of turn). Holder at end of turn 10 gains 1 VP."
        ),
    ),
    Card(7, "Socialist Governments", "socialist_governments", 3, USSR, EARLY, blocked_by=(83,),
        summary=(
            "The USSR removes a total of 3 US influence from Western European countries, at "
            "most 2 from any one country."
        ),
    ),
    Card(8, "Fidel", "fidel", 2, USSR, EARLY, removed=True,
        summary=(
            "All US influence in Cuba is removed; the USSR then adds enough influence to "
            "control Cuba (brings USSR influence up to the stability, 3)."
        ),
    ),
    Card(9, "Vietnam Revolts", "vietnam_revolts", 2, USSR, EARLY, removed=True,
        lasting="rest of turn (the +1 Ops bonus)",
        summary=(
            "The USSR adds 2 influence to Vietnam. For the rest of the turn, every USSR card "
            "whose Operations are all spent in Southeast Asia gets +1 Operations."
        ),
    ),
    Card(10, "Blockade", "blockade", 1, USSR, EARLY, removed=True,
        summary=(
            "The US must choose: discard from its hand a card worth 3 or more Operations "
            "(value after modifiers; not The China Card), or lose all of its influence in "
            "West Germany."
        ),
    ),
    Card(11, "Korean War", "korean_war", 2, USSR, EARLY, removed=True, war_ops=2,
        summary=(
            "War: North Korea attacks South Korea. USSR adds 2 to its military-ops track. "
            "Roll a die and subtract 1 for each US-controlled country adjacent to South Korea"
            " (Japan, Taiwan, North Korea). On 4-6 the USSR gains 2 VP and every US influence"
            " marker in South Korea is replaced by the same number of USSR markers. On 1-3 "
            "nothing else happens."
        ),
    ),
    Card(12, "Romanian Abdication", "romanian_abdication", 1, USSR, EARLY, removed=True,
        summary=(
            "All US influence in Romania is removed; the USSR then adds enough influence to "
            "control Romania (USSR influence brought up to 3)."
        ),
    ),
    Card(13, "Arab-Israeli War", "arab_israeli_war", 2, USSR, EARLY, war_ops=2, blocked_by=(65,),
        summary=(
            "War: Arab coalition attacks Israel. USSR adds 2 to its military-ops track. Roll "
            "a die, subtract 1 if Israel itself is US-controlled and 1 for each US-controlled"
            " neighbour of Israel (Lebanon, Syria, Jordan, Egypt). On 4-6 the USSR gains 2 VP"
            " and all US influence in Israel is replaced by equal USSR influence."
        ),
    ),
    Card(14, "COMECON", "comecon", 3, USSR, EARLY, removed=True,
        summary=(
            "The USSR adds 1 influence to each of 4 different Eastern European countries that"
            " are not US-controlled."
        ),
    ),
    Card(15, "Nasser", "nasser", 1, USSR, EARLY, removed=True,
        summary=(
            "The USSR adds 2 influence to Egypt, and half of the US influence in Egypt "
            "(rounded up) is removed."
        ),
    ),
    Card(16, "Warsaw Pact Formed", "warsaw_pact_formed", 3, USSR, EARLY,
        removed=True, underlined=True,
        lasting="rest of game (enables NATO)",
        summary=(
            "USSR chooses one: (a) remove all US influence from 4 Eastern European countries,"
            " or (b) add 5 USSR influence to Eastern European countries, at most 2 per "
            "country. Either way, NATO (#21) becomes playable as an event."
        ),
    ),
    Card(17, "De Gaulle Leads France", "de_gaulle_leads_france", 3, USSR, EARLY,
        removed=True, underlined=True,
        lasting="rest of game (France loses NATO protection)",
        summary=(
            "2 US influence is removed from France and the USSR adds 1 influence there. "
            "France is permanently exempt from NATO protection."
        ),
    ),
    Card(18, "Captured Nazi Scientist", "captured_nazi_scientist", 1, NEUTRAL, EARLY, removed=True,
        summary=(
            "The player's space-race marker moves forward one box, with the normal VP and "
            "ability for that box."
        ),
    ),
    Card(19, "Truman Doctrine", "truman_doctrine", 1, US, EARLY, removed=True,
        summary=(
            "All USSR influence is removed from one European country that neither side "
            "controls."
        ),
    ),
    Card(20, "Olympic Games", "olympic_games", 2, NEUTRAL, EARLY,
        summary=(
            "The player sponsors the Games; the opponent chooses. Participate: both roll a "
            "die, the sponsor adds 2, ties are re-rolled, the higher total gains 2 VP. "
            "Boycott: DEFCON drops by 1 and the sponsor then conducts operations as if with a"
            " 4-Ops card (influence, realignment or coup; not space race)."
        ),
    ),
    Card(21, "NATO", "nato", 4, US, EARLY, removed=True, underlined=True, prerequisite=(16, 23),
        condition=(
            "Marshall Plan (#23) or Warsaw Pact Formed (#16) must have been played as an "
            "event earlier."
        ),
        lasting="rest of game",
        summary=(
            "From now on any European country that is US-controlled at the moment of the "
            "attempt is off limits to USSR coups and USSR realignments, and such countries "
            "cannot be the target of a USSR Brush War."
        ),
    ),
    Card(22, "Independent Reds", "independent_reds", 2, US, EARLY, removed=True,
        summary=(
            "The US picks one of Yugoslavia, Romania, Bulgaria, Hungary or Czechoslovakia and"
            " adds influence there until US influence equals USSR influence."
        ),
    ),
    Card(23, "Marshall Plan", "marshall_plan", 4, US, EARLY, removed=True, underlined=True,
        lasting="rest of game (enables NATO)",
        summary=(
            "The US adds 1 influence to each of 7 different Western European countries not "
            "controlled by the USSR. NATO (#21) becomes playable as an event."
        ),
    ),
    Card(24, "Indo-Pakistani War", "indo_pakistani_war", 2, NEUTRAL, EARLY, war_ops=2,
        summary=(
            "War: the player chooses India to attack Pakistan or Pakistan to attack India. "
            "Player adds 2 to its military-ops track. Roll a die and subtract 1 for each "
            "country adjacent to the target that the opponent controls (India's neighbours: "
            "Pakistan, Burma; Pakistan's: Afghanistan, Iran, India). A modified 4-6 wins: 2 "
            "VP to the player, and the opponent's influence in the target is swapped for the "
            "same amount of the player's influence."
        ),
    ),
    Card(25, "Containment", "containment", 3, US, EARLY, removed=True,
        lasting="rest of turn",
        summary=(
            "For the rest of the turn every card the US plays gets +1 Operations, but this "
            "bonus never raises a card above 4."
        ),
    ),
    Card(26, "CIA Created", "cia_created", 1, US, EARLY, removed=True,
        summary=(
            "The USSR shows its hand to the US (a one-time look, not for the whole turn); "
            "then the US conducts operations worth 1 Op with this card."
        ),
    ),
    Card(27, "US/Japan Mutual Defense Pact", "us_japan_mutual_defense_pact", 4, US, EARLY,
        removed=True, underlined=True,
        lasting="rest of game",
        summary=(
            "The US adds enough influence to control Japan. For the rest of the game the USSR"
            " may not make coup attempts or realignment rolls in Japan."
        ),
    ),
    Card(28, "Suez Crisis", "suez_crisis", 3, USSR, EARLY, removed=True,
        summary=(
            "The USSR strips 4 US influence in total, taken from Israel, France and/or the "
            "UK, with no more than 2 coming from any single one of these three."
        ),
    ),
    Card(29, "East European Unrest", "east_european_unrest", 3, US, EARLY,
        summary=(
            "The US picks 3 Eastern European countries and removes 1 USSR influence from each"
            " (2 from each if played in the Late War, turns 8-10)."
        ),
    ),
    Card(30, "Decolonization", "decolonization", 2, USSR, EARLY,
        summary=(
            "The USSR adds 1 influence to each of 4 different countries in Africa and/or "
            "Southeast Asia."
        ),
    ),
    Card(31, "Red Scare/Purge", "red_scare_purge", 4, NEUTRAL, EARLY,
        lasting="rest of turn",
        summary=(
            "For the rest of the turn every card the opponent plays is worth 1 Operation less"
            " (minimum 1)."
        ),
    ),
    Card(32, "UN Intervention", "un_intervention", 1, NEUTRAL, EARLY, headline=False,
        condition="the player must hold a card with an opponent-associated event to pair with it.",
        summary=(
            "Played together with a card from your hand that carries the opponent's event: "
            "that event is cancelled (card goes to the discard pile even if starred) and you "
            "conduct operations using the cancelled card's Operations value."
        ),
    ),
    Card(33, "De-Stalinization", "de_stalinization", 3, USSR, EARLY, removed=True,
        summary=(
            "The USSR takes up to 4 of its influence from anywhere on the map and places the "
            "same number in countries the US does not control, at most 2 per destination "
            "country (no adjacency needed)."
        ),
    ),
    Card(34, "Nuclear Test Ban", "nuclear_test_ban", 4, NEUTRAL, EARLY,
        summary=(
            "The player gains VP equal to the current DEFCON minus 2, then DEFCON improves by"
            " 2 (not above 5)."
        ),
    ),
    Card(35, "Formosan Resolution", "formosan_resolution", 2, US, EARLY,
        removed=True, underlined=True, cancelled_by=(6,),
        lasting="until the US plays The China Card (any use); then it leaves play",
        summary=(
            "While in effect: whenever Asia is scored (Asia Scoring card or final scoring) "
            "and the US controls Taiwan, Taiwan counts as a battleground for that scoring. It"
            " is never a battleground for any other purpose."
        ),
    ),
    Card(36, "Brush War", "brush_war", 3, NEUTRAL, MID, war_ops=3,
        summary=(
            "War: the player attacks any country with stability 1 or 2. Player adds 3 to its "
            "military-ops track. Roll a die and subtract 1 for each adjacent country "
            "controlled by the opponent (a neighbouring superpower space counts as controlled"
            " by that superpower). A modified 3-6 wins: 1 VP to the player, and the "
            "opponent's influence in the target is swapped for the same amount of the "
            "player's influence."
        ),
    ),
    Card(37, "Central America Scoring", "central_america_scoring", 0, NEUTRAL, MID, scoring=True,
        summary=(
            "Score Central America: Presence 1, Domination 3, Control 5; +1 VP per controlled"
            " battleground; +1 VP per controlled country adjacent to the enemy superpower "
            "(only the USSR can earn this: Mexico, Cuba)."
        ),
    ),
    Card(38, "Southeast Asia Scoring", "southeast_asia_scoring", 0, NEUTRAL, MID,
        removed=True, scoring=True,
        summary=(
            "Each side gains 1 VP per controlled country among Burma, Laos/Cambodia, Vietnam,"
            " Malaysia, Indonesia and the Philippines, and 2 VP if it controls Thailand. Net "
            "difference applied. Removed from the game after play."
        ),
    ),
    Card(39, "Arms Race", "arms_race", 3, NEUTRAL, MID,
        summary=(
            "If the phasing player's military-ops total exceeds the opponent's, the phasing "
            "player gains 1 VP; if it exceeds the opponent's AND is at least the current "
            "DEFCON level (the requirement), it gains 3 VP instead."
        ),
    ),
    Card(40, "Cuban Missile Crisis", "cuban_missile_crisis", 3, NEUTRAL, MID, removed=True,
        lasting="rest of turn, unless cancelled",
        summary=(
            "DEFCON is set to 2. For the rest of the turn, if the opponent of the player of "
            "this event attempts any coup (including free coups from events), that opponent "
            "loses immediately. The restricted side may cancel the effect at any moment by "
            "removing 2 of its own influence: the USSR from Cuba, the US from West Germany or"
            " from Turkey (2 from the same country)."
        ),
    ),
    Card(41, "Nuclear Subs", "nuclear_subs", 2, US, MID, removed=True,
        lasting="rest of turn",
        summary="Until the turn ends, a US coup against a battleground leaves DEFCON where it is.",
    ),
    Card(42, "Quagmire", "quagmire", 3, USSR, MID, removed=True, underlined=True,
        lasting="until the US rolls 1-4 (survives across turns; not in headline)",
        summary=(
            "The US is trapped. In each following US action round (not headline), instead of "
            "playing normally the US must discard a card worth 2 or more Operations (after "
            "modifiers; not The China Card), then roll a die: 1-4 ends the trap (normal play "
            "from the next action round), 5-6 it continues. If the US has no such card it "
            "must play any scoring cards it holds, otherwise it skips the round. Cancels "
            "NORAD (#106)."
        ),
    ),
    Card(43, "SALT Negotiations", "salt_negotiations", 3, NEUTRAL, MID, removed=True,
        lasting="rest of turn (coup −1)",
        summary=(
            "DEFCON improves by 2. For the rest of the turn all coup rolls by both sides get "
            "−1. The player may then look through the discard pile, show one non-scoring card"
            " to the opponent and take it into hand."
        ),
    ),
    Card(44, "Bear Trap", "bear_trap", 3, US, MID, removed=True, underlined=True,
        lasting="until the USSR rolls 1-4 (survives across turns)",
        summary=(
            "Mirror of Quagmire for the USSR: in each following USSR action round the USSR "
            "must discard a card worth 2+ Operations (after modifiers; not The China Card) "
            "and roll; 1-4 ends the trap. With no eligible card it must play its scoring "
            "cards, otherwise it skips the round."
        ),
    ),
    Card(45, "Summit", "summit", 1, NEUTRAL, MID,
        summary=(
            "Both players roll a die and add 1 for each region (of the six) they Dominate or "
            "Control. The higher total scores 2 VP and then chooses to raise DEFCON by one, "
            "lower it by one, or leave it. Ties: nothing, no re-roll."
        ),
    ),
    Card(46, "How I Learned to Stop Worrying", "how_i_learned_to_stop_worrying", 2, NEUTRAL, MID,
        removed=True,
        summary=(
            "The player sets DEFCON to any level from 1 to 5 and adds 5 to its own "
            "military-ops track."
        ),
    ),
    Card(47, "Junta", "junta", 2, NEUTRAL, MID,
        summary=(
            "The player adds 2 influence to one country in Central or South America, then may"
            " make either one free coup attempt or free realignment rolls (using this card's "
            "Operations value) against targets in Central/South America."
        ),
    ),
    Card(48, "Kitchen Debates", "kitchen_debates", 1, US, MID, removed=True,
        condition=(
            "US must control strictly more battlegrounds than the USSR (else no event; card "
            "is discarded, not removed)."
        ),
        summary=(
            "When the number of battlegrounds (whole map) under US control is strictly "
            "greater than the number under USSR control, the US scores 2 VP (the card jokes "
            "that it pokes the opponent in the chest)."
        ),
    ),
    Card(49, "Missile Envy", "missile_envy", 2, NEUTRAL, MID,
        lasting="until the receiving player's next action round",
        summary=(
            "The player takes the opponent's card with the highest Operations value (opponent"
            " chooses among ties; The China Card can never be taken) and gives Missile Envy "
            "to the opponent in exchange. If the taken card's event is the player's own or "
            "neutral, that event happens immediately for the player; if it is the opponent's "
            "event, the player instead conducts operations with its value and the event does "
            "not happen. The opponent must play Missile Envy for operations in its next "
            "action round."
        ),
    ),
    Card(50, "\"We Will Bury You\"", "we_will_bury_you", 4, USSR, MID, removed=True,
        lasting="until the US's next action round",
        summary=(
            "DEFCON drops by 1. Unless the US plays UN Intervention as an event in its next "
            "action round, the USSR gains 3 VP at the start of that US action round, before "
            "any VP the US could score."
        ),
    ),
    Card(51, "Brezhnev Doctrine", "brezhnev_doctrine", 3, USSR, MID, removed=True,
        lasting="rest of turn",
        summary=(
            "For the rest of the turn every card the USSR plays gets +1 Operations, never "
            "raised above 4 by this bonus."
        ),
    ),
    Card(52, "Portuguese Empire Crumbles", "portuguese_empire_crumbles", 2, USSR, MID, removed=True,
        summary="The USSR adds 2 influence to SE African States and 2 to Angola.",
    ),
    Card(53, "South African Unrest", "south_african_unrest", 2, USSR, MID,
        summary=(
            "USSR chooses one: add 2 influence to South Africa, or add 1 to South Africa and "
            "2 more to country/countries adjacent to South Africa (Angola, Botswana)."
        ),
    ),
    Card(54, "Allende", "allende", 1, USSR, MID, removed=True,
        summary="The USSR adds 2 influence to Chile.",
    ),
    Card(55, "Willy Brandt", "willy_brandt", 2, USSR, MID,
        removed=True, underlined=True, blocked_by=(96,), cancelled_by=(96,),
        lasting="rest of game, until cancelled by #96",
        summary=(
            "USSR scores 1 VP and places 1 influence in West Germany; from then on NATO no "
            "longer shields West Germany."
        ),
    ),
    Card(56, "Muslim Revolution", "muslim_revolution", 4, USSR, MID, blocked_by=(110,),
        summary=(
            "All US influence is removed from 2 of these countries: Sudan, Iran, Iraq, Egypt,"
            " Libya, Saudi Arabia, Syria, Jordan."
        ),
    ),
    Card(57, "ABM Treaty", "abm_treaty", 4, NEUTRAL, MID,
        summary=(
            "DEFCON improves by 1; then the player conducts operations as if with a 4-Ops "
            "card (influence, realignment or coup)."
        ),
    ),
    Card(58, "Cultural Revolution", "cultural_revolution", 3, USSR, MID, removed=True,
        summary=(
            "If the US holds The China Card (face up or down), the USSR takes it face up and "
            "may play it this turn. If the USSR already holds it, the USSR gains 1 VP."
        ),
    ),
    Card(59, "Flower Power", "flower_power", 4, USSR, MID,
        removed=True, underlined=True, blocked_by=(97,), cancelled_by=(97,),
        lasting="rest of game, until cancelled by #97",
        summary=(
            "From now on, each time the US plays a war card (Arab-Israeli War, Korean War, "
            "Brush War, Indo-Pakistani War, Iran-Iraq War) either as an event or for "
            "operations, the USSR gains 2 VP. Space-race plays are exempt."
        ),
    ),
    Card(60, "U2 Incident", "u2_incident", 3, USSR, MID, removed=True,
        lasting="rest of turn (UN Intervention watch)",
        summary=(
            "The USSR gains 1 VP. If UN Intervention is played as an event later this turn by"
            " either side, the USSR gains 1 more VP."
        ),
    ),
    Card(61, "OPEC", "opec", 3, USSR, MID, blocked_by=(86,),
        summary=(
            "The USSR gains 1 VP for each of these it controls: Egypt, Iran, Libya, Saudi "
            "Arabia, Iraq, Gulf States, Venezuela."
        ),
    ),
    Card(62, "\"Lone Gunman\"", "lone_gunman", 1, USSR, MID, removed=True,
        summary=(
            "The US shows its hand to the USSR (one-time); then the USSR conducts operations "
            "worth 1 Op with this card."
        ),
    ),
    Card(63, "Colonial Rear Guards", "colonial_rear_guards", 2, US, MID,
        summary=(
            "The US adds 1 influence to each of 4 different countries in Africa and/or "
            "Southeast Asia."
        ),
    ),
    Card(64, "Panama Canal Returned", "panama_canal_returned", 1, US, MID, removed=True,
        summary="The US adds 1 influence each to Panama, Costa Rica and Venezuela.",
    ),
    Card(65, "Camp David Accords", "camp_david_accords", 2, US, MID, removed=True, underlined=True,
        lasting="rest of game",
        summary=(
            "The US gains 1 VP and adds 1 influence each to Israel, Jordan and Egypt. From "
            "then on the event of Arab-Israeli War (#13) is disabled."
        ),
    ),
    Card(66, "Puppet Governments", "puppet_governments", 2, US, MID, removed=True,
        summary=(
            "The US adds 1 influence to each of up to 3 countries that currently contain no "
            "influence of either side."
        ),
    ),
    Card(67, "Grain Sales to Soviets", "grain_sales_to_soviets", 2, US, MID,
        summary=(
            "The US draws one card at random from the USSR hand (not The China Card). The US "
            "either plays it as if from its own hand (event, operations, space race; a USSR "
            "event fires normally if it is used for ops; a scoring card is scored) or gives "
            "it back. If it is given back, or the USSR had no cards, the US conducts "
            "operations with Grain Sales' own value (2)."
        ),
    ),
    Card(68, "John Paul II Elected Pope", "john_paul_ii_elected_pope", 2, US, MID,
        removed=True, underlined=True,
        lasting="rest of game (enables Solidarity)",
        summary=(
            "2 USSR influence is removed from Poland and the US adds 1 influence there. "
            "Solidarity (#101) becomes playable as an event."
        ),
    ),
    Card(69, "Latin American Death Squads", "latin_american_death_squads", 2, NEUTRAL, MID,
        lasting="rest of turn",
        summary=(
            "For the rest of the turn the player's coup rolls in Central and South America "
            "get +1 and the opponent's coup rolls there get −1."
        ),
    ),
    Card(70, "OAS Founded", "oas_founded", 1, US, MID, removed=True,
        summary="The US adds a total of 2 influence to countries in Central and/or South America.",
    ),
    Card(71, "Nixon Plays the China Card", "nixon_plays_the_china_card", 2, US, MID, removed=True,
        summary=(
            "If the US holds The China Card it gains 2 VP; otherwise the USSR hands it to the"
            " US face down (not playable until it flips at end of turn)."
        ),
    ),
    Card(72, "Sadat Expels Soviets", "sadat_expels_soviets", 1, US, MID, removed=True,
        summary="All USSR influence is removed from Egypt and the US adds 1 influence there.",
    ),
    Card(73, "Shuttle Diplomacy", "shuttle_diplomacy", 3, US, MID, underlined=True,
        lasting="until the next Asia or Middle East scoring card",
        summary=(
            "Stays in front of the US. At the next scoring of Asia or of the Middle East by "
            "its scoring card (whichever comes first), one USSR-controlled battleground in "
            "that region, chosen by the US, is ignored entirely for that scoring; then this "
            "card goes to the discard pile."
        ),
    ),
    Card(74, "The Voice of America", "the_voice_of_america", 2, US, MID,
        summary=(
            "The US removes a total of 4 USSR influence from countries outside Europe, at "
            "most 2 from any one country."
        ),
    ),
    Card(75, "Liberation Theology", "liberation_theology", 2, USSR, MID,
        summary=(
            "The USSR adds a total of 3 influence to Central American countries, at most 2 "
            "per country."
        ),
    ),
    Card(76, "Ussuri River Skirmish", "ussuri_river_skirmish", 3, US, MID, removed=True,
        summary=(
            "If the USSR holds The China Card, the US takes it face up and may play it this "
            "turn. If the US already holds it, the US adds a total of 4 influence to Asian "
            "countries, at most 2 per country."
        ),
    ),
    Card(77, "\"Ask Not What Your Country Can Do For You\"", "ask_not_what_your_country_can_do_for_you", 3, US, MID,
        removed=True,
        summary=(
            "The US discards any number of cards from its hand, scoring cards included (no "
            "events occur, no scoring), announcing how many before drawing, then draws that "
            "many replacements from the draw pile."
        ),
    ),
    Card(78, "Alliance for Progress", "alliance_for_progress", 3, US, MID, removed=True,
        summary=(
            "The US gains 1 VP for each battleground it controls in Central and South America"
            " combined."
        ),
    ),
    Card(79, "Africa Scoring", "africa_scoring", 0, NEUTRAL, MID, scoring=True,
        summary=(
            "Score Africa: Presence 1, Domination 4, Control 6; +1 VP per controlled "
            "battleground."
        ),
    ),
    Card(80, "\"One Small Step...\"", "one_small_step", 2, NEUTRAL, MID,
        condition="the player must be strictly behind on the space race.",
        summary=(
            "If the player is strictly behind the opponent on the space race, its marker "
            "advances 2 boxes; VP only for the second box (abilities of boxes passed are "
            "handled normally)."
        ),
    ),
    Card(81, "South America Scoring", "south_america_scoring", 0, NEUTRAL, MID, scoring=True,
        summary=(
            "Score South America: Presence 2, Domination 5, Control 6; +1 VP per controlled "
            "battleground."
        ),
    ),
    Card(82, "Iranian Hostage Crisis", "iranian_hostage_crisis", 3, USSR, LATE,
        removed=True, underlined=True,
        lasting="rest of game (Terrorism doubled vs US)",
        summary=(
            "All US influence in Iran is removed and the USSR adds 2 influence there. For the"
            " rest of the game, Terrorism (#92) played by the USSR makes the US discard 2 "
            "random cards instead of 1."
        ),
    ),
    Card(83, "The Iron Lady", "the_iron_lady", 3, US, LATE, removed=True, underlined=True,
        lasting="rest of game",
        summary=(
            "The US gains 1 VP; the USSR adds 1 influence to Argentina; all USSR influence in"
            " the United Kingdom is removed. From then on the event of Socialist Governments "
            "(#7) is disabled."
        ),
    ),
    Card(84, "Reagan Bombs Libya", "reagan_bombs_libya", 2, US, LATE, removed=True,
        summary=(
            "US scores VP equal to the USSR influence in Libya divided by 2, fractions "
            "dropped."
        ),
    ),
    Card(85, "Star Wars", "star_wars", 2, US, LATE, removed=True,
        condition=(
            "US strictly ahead on the space race (else no event; card is discarded, not "
            "removed)."
        ),
        summary=(
            "If the US is strictly ahead on the space race, the US picks any non-scoring card"
            " from the discard pile and its event happens immediately."
        ),
    ),
    Card(86, "North Sea Oil", "north_sea_oil", 3, US, LATE, removed=True, underlined=True,
        lasting="rest of game (OPEC block); rest of turn (extra round)",
        summary=(
            "The OPEC (#61) event is disabled for the rest of the game. This turn the US may "
            "take an 8th action round."
        ),
    ),
    Card(87, "The Reformer", "the_reformer", 3, USSR, LATE, removed=True, underlined=True,
        lasting="rest of game",
        summary=(
            "The USSR adds 4 influence to European countries, at most 2 per country (6 "
            "instead of 4 if the USSR is ahead on VP when the event resolves). For the rest "
            "of the game the USSR may not attempt coups in Europe. Enables the bonus of "
            "Glasnost (#90)."
        ),
    ),
    Card(88, "Marine Barracks Bombing", "marine_barracks_bombing", 2, USSR, LATE, removed=True,
        summary=(
            "All US influence in Lebanon is removed, then the USSR removes a further 2 US "
            "influence from any Middle Eastern countries (split as it likes)."
        ),
    ),
    Card(89, "Soviets Shoot Down KAL-007", "soviets_shoot_down_kal_007", 4, US, LATE, removed=True,
        summary=(
            "DEFCON drops by 1 and the US gains 2 VP. If the US controls South Korea, the US "
            "may then place influence or make realignment rolls as if with a 4-Ops card."
        ),
    ),
    Card(90, "Glasnost", "glasnost", 4, USSR, LATE, removed=True,
        summary=(
            "The USSR gains 2 VP and DEFCON improves by 1. If The Reformer (#87) is in "
            "effect, the USSR may then place influence or make realignment rolls as if with a"
            " 4-Ops card."
        ),
    ),
    Card(91, "Ortega Elected in Nicaragua", "ortega_elected_in_nicaragua", 2, USSR, LATE,
        removed=True,
        summary=(
            "All US influence in Nicaragua is removed; then the USSR may make one free coup "
            "attempt, using this card's Operations value, against a country adjacent to "
            "Nicaragua (Cuba, Honduras, Costa Rica)."
        ),
    ),
    Card(92, "Terrorism", "terrorism", 2, NEUTRAL, LATE,
        summary=(
            "The opponent discards one card at random from its hand (not The China Card); "
            "discarded events do not occur. If the USSR plays it while Iranian Hostage Crisis"
            " is in effect, the US discards 2 random cards."
        ),
    ),
    Card(93, "Iran-Contra Scandal", "iran_contra_scandal", 2, USSR, LATE, removed=True,
        lasting="rest of turn",
        summary="For the rest of the turn all US realignment rolls get −1.",
    ),
    Card(94, "Chernobyl", "chernobyl", 3, US, LATE, removed=True,
        lasting="rest of turn",
        summary=(
            "The US names one region; for the rest of the turn the USSR may not add influence"
            " there by spending Operations on influence placement."
        ),
    ),
    Card(95, "Latin American Debt Crisis", "latin_american_debt_crisis", 2, USSR, LATE,
        summary=(
            "The US chooses: discard a card worth 3 or more Operations (after modifiers; not "
            "The China Card), or let the USSR double its own influence in 2 South American "
            "countries (each chosen country gains as much USSR influence as it already has)."
        ),
    ),
    Card(96, "\"Tear Down This Wall\"", "tear_down_this_wall", 3, US, LATE,
        removed=True, underlined=True,
        lasting="rest of game (Willy Brandt block)",
        summary=(
            "The US adds 3 influence to East Germany, then may make one free coup attempt or "
            "free realignment rolls in Europe using this card's Operations value. Willy "
            "Brandt (#55) stops working if it is in effect, and its event is disabled from "
            "then on."
        ),
    ),
    Card(97, "\"An Evil Empire\"", "an_evil_empire", 3, US, LATE, removed=True, underlined=True,
        lasting="rest of game",
        summary=(
            "The US gains 1 VP. Flower Power (#59) stops working if it is in effect, and its "
            "event is disabled from then on."
        ),
    ),
    Card(98, "Aldrich Ames Remix", "aldrich_ames_remix", 3, USSR, LATE, removed=True,
        lasting="rest of turn (US hand open)",
        summary=(
            "The US plays the rest of the turn with its hand face up. The USSR picks one card"
            " from the US hand (not The China Card) and it is discarded without its event."
        ),
    ),
    Card(99, "Pershing II Deployed", "pershing_ii_deployed", 3, USSR, LATE, removed=True,
        summary=(
            "The USSR gains 1 VP and removes 1 US influence from each of up to 3 Western "
            "European countries."
        ),
    ),
    Card(100, "Wargames", "wargames", 4, NEUTRAL, LATE, removed=True,
        condition="DEFCON must be 2.",
        summary=(
            "Only if DEFCON is exactly 2: the player may end the game at once after giving "
            "the opponent 6 VP; there is no final scoring and the side ahead on VP wins (tie "
            "= draw)."
        ),
    ),
    Card(101, "Solidarity", "solidarity", 2, US, LATE, removed=True, prerequisite=(68,),
        condition="John Paul II Elected Pope (#68) must have been played as an event.",
        summary="The US adds 3 influence to Poland.",
    ),
    Card(102, "Iran-Iraq War", "iran_iraq_war", 2, NEUTRAL, LATE, removed=True, war_ops=2,
        summary=(
            "War: the player chooses Iran to attack Iraq or Iraq to attack Iran. Player adds "
            "2 to its military-ops track. Roll a die, subtract 1 for each opponent-controlled"
            " country adjacent to the target (Iran's neighbours: Afghanistan, Pakistan, Iraq;"
            " Iraq's: Iran, Jordan, Gulf States, Saudi Arabia). A modified 4-6 wins: 2 VP to "
            "the player, and the opponent's influence in the target is swapped for the same "
            "amount of the player's influence."
        ),
    ),
    Card(103, "Defectors", "defectors", 2, US, EARLY,
        summary=(
            "If the US plays it as its headline, the USSR's headline card is cancelled (no "
            "event, even a scoring card; the card goes to the discard pile). If the USSR "
            "plays it during an action round (for operations, not space race), the US gains 1"
            " VP."
        ),
    ),
    Card(104, "The Cambridge Five", "the_cambridge_five", 2, USSR, EARLY, optional=True,
        condition="Cannot be played as an event in the Late War (turns 8-10).",
        summary=(
            "The US reveals every scoring card in its hand; the USSR may then add 1 influence"
            " to one country in a region named on one of the revealed cards (Southeast Asia "
            "if that card was revealed)."
        ),
    ),
    Card(105, "Special Relationship", "special_relationship", 2, US, EARLY, optional=True,
        condition="US controls the United Kingdom.",
        summary=(
            "Only if the US controls the United Kingdom: with NATO (#21) not in effect, the "
            "US adds 1 influence to one country adjacent to the UK (Canada, Norway, Benelux, "
            "France); with NATO in effect, the US instead puts 2 influence into one Western "
            "European country and scores 2 VP."
        ),
    ),
    Card(106, "NORAD", "norad", 3, US, EARLY,
        removed=True, optional=True, underlined=True, cancelled_by=(42,),
        lasting="rest of game, until cancelled by #42",
        summary=(
            "At the end of each action round in which DEFCON moved to 2, if the US controls "
            "Canada, the US adds 1 influence to one country that already contains US "
            "influence."
        ),
    ),
    Card(107, "Che", "che", 3, USSR, MID, optional=True,
        summary=(
            "The USSR may launch a coup with this card's Operations value at a country that "
            "is not a battleground and lies in Central America, South America or Africa. "
            "Should that coup take away at least one US influence, a second coup with the "
            "same value may follow against another such country (different target, same "
            "restrictions)."
        ),
    ),
    Card(108, "Our Man in Tehran", "our_man_in_tehran", 2, US, MID, removed=True, optional=True,
        condition=(
            "at least one Middle East country under US control (else no event; card is "
            "discarded, not removed)."
        ),
        summary=(
            "Provided the US controls some Middle East country: the US draws the top 5 cards "
            "of the draw pile, may discard any of them face up (their events do not occur), "
            "returns the rest to the draw pile and reshuffles it."
        ),
    ),
    Card(109, "Yuri and Samantha", "yuri_and_samantha", 2, USSR, LATE, removed=True, optional=True,
        lasting="rest of turn",
        summary="For the rest of the turn the USSR gains 1 VP each time the US attempts a coup.",
    ),
    Card(110, "AWACS Sale to Saudis", "awacs_sale_to_saudis", 3, US, LATE,
        removed=True, optional=True, underlined=True,
        lasting="rest of game",
        summary=(
            "The US adds 2 influence to Saudi Arabia. The Muslim Revolution (#56) event is "
            "disabled for the rest of the game."
        ),
    ),
)
# fmt: on

CARD_BY_NUMBER: dict[int, Card] = {c.number: c for c in CARDS}
CARD_BY_ID: dict[str, Card] = {c.id: c for c in CARDS}


def _deck(period: str) -> tuple[int, ...]:
    return tuple(sorted(c.number for c in CARDS if c.period == period and c.number != CHINA_CARD))


#: Card numbers shuffled into the draw deck for each period, optional cards included (filter with
#: ``OPTIONAL_CARDS`` for a standard game). The China Card is never in a deck.
EARLY_WAR: tuple[int, ...] = _deck(EARLY)
MID_WAR: tuple[int, ...] = _deck(MID)
LATE_WAR: tuple[int, ...] = _deck(LATE)
SCORING_CARDS: tuple[int, ...] = tuple(c.number for c in CARDS if c.scoring)
OPTIONAL_CARDS: tuple[int, ...] = tuple(c.number for c in CARDS if c.optional)
WAR_CARDS: tuple[int, ...] = tuple(c.number for c in CARDS if c.war_ops)
