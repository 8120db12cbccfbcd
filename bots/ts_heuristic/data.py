"""Static data of ``ts-heuristic``, all of it taken or derived at import time from the engine's
tables (:mod:`~standoff.server.games.twilight_struggle.map_data`, ``card_data``, ``state``'s side
numbers and ``ops``' space race table and superpower neighbours), turned into the index-based
tuples the bot's hot loops want: stability, battlegrounds, regions and their countries, scoring
VP, adjacency bonuses, card owners, the region each scoring card scores. No rule number is typed
here; what remains literal is the bot's own judgement (the value of a space race ability, which
cards it treats as DEFCON risks) and the per-card limits of event placements and removals, which
the engine keeps inside its event functions and the view does not carry.
"""

from __future__ import annotations

from ...server.games.twilight_struggle import card_data as CD
from ...server.games.twilight_struggle import map_data as M
from ...server.games.twilight_struggle import ops as OPS
from ...server.games.twilight_struggle.state import SIDE_NAMES, US, USSR

# --- sides and the map ---------------------------------------------------------------------------

#: the engine's side numbers (USSR 0, US 1) and names; the bot indexes its tables by them
SIDE_NAME = SIDE_NAMES
SIDE = {name: side for side, name in enumerate(SIDE_NAMES)}
N = len(M.COUNTRIES)
INDEX = M.INDEX
IDS = tuple(c.id for c in M.COUNTRIES)
STAB = tuple(c.stability for c in M.COUNTRIES)
BG = tuple(bool(c.battleground) for c in M.COUNTRIES)
REGIONS = M.REGIONS
EUROPE, MIDDLE_EAST, ASIA, AFRICA, CENTRAL_AMERICA, SOUTH_AMERICA = (
    REGIONS.index(r) for r in (M.EUROPE, M.MIDDLE_EAST, M.ASIA, M.AFRICA, M.CENTRAL_AMERICA, M.SOUTH_AMERICA)
)
RIDX = {r: i for i, r in enumerate(REGIONS)}
REG = tuple(RIDX[c.region] for c in M.COUNTRIES)
REGION_COUNTRIES = tuple(tuple(M.REGION_COUNTRIES[r]) for r in REGIONS)
BATTLEGROUNDS = M.BATTLEGROUNDS
ALL_BGS = tuple(sum(1 for c in cs if BG[c]) for cs in REGION_COUNTRIES)
#: region scoring VP by region index: (presence, domination, control); control None = Europe
SCORING = tuple(M.SCORING[r] for r in REGIONS)
NEIGH = M.NEIGHBOURS
#: BONUS[side][c]: c borders the enemy superpower of ``side`` (+1 VP in region scoring)
BONUS = tuple(tuple(c.id in M.ADJACENCY_BONUS[SIDE_NAME[s]] for c in M.COUNTRIES) for s in (USSR, US))
#: OWN_SPACE[side]: the countries next to ``side``'s own superpower space (the engine's table)
OWN_SPACE = tuple(OPS.OWN_SPACE[s] for s in (USSR, US))
EUROPE_SET = frozenset(REGION_COUNTRIES[EUROPE])
ASIA_SET = frozenset(REGION_COUNTRIES[ASIA])
ME_SET = frozenset(REGION_COUNTRIES[MIDDLE_EAST])
SEA = tuple(M.SUBREGION_COUNTRIES[M.SOUTHEAST_ASIA])
SEA_SET = frozenset(SEA)
WE = tuple(M.SUBREGION_COUNTRIES[M.WESTERN_EUROPE])
EE = tuple(M.SUBREGION_COUNTRIES[M.EASTERN_EUROPE])
SEA_SCORE = {INDEX[k]: v for k, v in M.SOUTHEAST_ASIA_SCORING.items()}
LATAM = tuple(sorted(REGION_COUNTRIES[CENTRAL_AMERICA] + REGION_COUNTRIES[SOUTH_AMERICA]))
OUTSIDE_EUROPE = tuple(c for c in range(N) if c not in EUROPE_SET)
AFRICA_SEA = tuple(sorted(REGION_COUNTRIES[AFRICA] + SEA))


def country_index(name: str) -> int:
    """The index of the country with id ``name`` (modules import it as ``_c``)."""
    return INDEX[name]


# --- cards ---------------------------------------------------------------------------------------

CARD = CD.CARD_BY_NUMBER
CARD_NUM = {c.id: c.number for c in CD.CARDS}
CARD_BY_NAME = {c.name: c.number for c in CD.CARDS}
OWNER = {c.number: (US if c.side == CD.US else USSR if c.side == CD.USSR else None) for c in CD.CARDS}
CHINA = CD.CHINA_CARD
SCORING_CARDS = frozenset(c.number for c in CD.CARDS if c.scoring)
#: region index scored by each region scoring card ("Asia Scoring" scores Asia...); Southeast Asia
#: Scoring (#38) scores a sub-region and is handled apart (SEA_SCORE)
SCORING_REGION = {c.number: RIDX[c.name.removesuffix(" Scoring")] for c in CD.CARDS
                  if c.scoring and c.name.removesuffix(" Scoring") in RIDX}
#: the countries each scoring card scores (Southeast Asia Scoring: its sub-region)
SCORING_COUNTRIES = {**{card: frozenset(REGION_COUNTRIES[r]) for card, r in SCORING_REGION.items()},
                     **{c.number: SEA_SET for c in CD.CARDS if c.scoring and c.number not in SCORING_REGION}}
#: the regions whose scoring card is a Mid War card (not in the deck before turn 4)
MID_REGIONS = tuple(sorted({r for card, r in SCORING_REGION.items() if CARD[card].period == CD.MID}))

#: Space race boxes 1..8: (ops needed, highest succeeding roll, VP first, VP second): the engine's
SPACE = OPS.SPACE
#: what holding a box's ability is worth (the bot's estimate, in VP-equivalents)
SPACE_ABILITY = {2: 0.7, 4: 0.9, 6: 1.0, 8: 2.0}

#: Distribution of (first die − second die) for two d6.
DIFF = tuple((d, (6 - abs(d)) / 36.0) for d in range(-5, 6))


def _card(card_id: str) -> int:
    return CD.CARD_BY_ID[card_id].number


# Event cards whose DEFCON effect concerns the phasing player.
DUCK_AND_COVER, FIVE_YEAR_PLAN, OLYMPIC_GAMES, CIA_CREATED = (
    _card(i) for i in ("duck_and_cover", "five_year_plan", "olympic_games", "cia_created")
)
UN_INTERVENTION, CMC, SUMMIT, HOW_I_LEARNED, MISSILE_ENVY, WWBY = (
    _card(i) for i in ("un_intervention", "cuban_missile_crisis", "summit", "how_i_learned_to_stop_worrying",
                       "missile_envy", "we_will_bury_you")
)
LONE_GUNMAN, GRAIN_SALES, STAR_WARS, KAL_007, ORTEGA, TDTW, WARGAMES, DEFECTORS = (
    _card(i) for i in ("lone_gunman", "grain_sales_to_soviets", "star_wars", "soviets_shoot_down_kal_007",
                       "ortega_elected_in_nicaragua", "tear_down_this_wall", "wargames", "defectors")
)
QUAGMIRE, BEAR_TRAP, AN_EVIL_EMPIRE, NIXON = (
    _card(i) for i in ("quagmire", "bear_trap", "an_evil_empire", "nixon_plays_the_china_card")
)
#: the trap each side must never fire on itself (Quagmire traps the US, Bear Trap the USSR)
TRAP_ON = {US: QUAGMIRE, USSR: BEAR_TRAP}
#: the war cards (Flower Power costs the US 2 VP for each one it uses, except for space)
WAR_CARDS = frozenset(CD.WAR_CARDS)
#: cards whose event, fired for its owner, lowers DEFCON by one on its own
DEFCON_DROPPERS = frozenset((DUCK_AND_COVER, WWBY, KAL_007))
#: neutral cards that may lower DEFCON by a decision of the opponent (or by chance) when fired
RISKY_FOR_PHASING = frozenset((OLYMPIC_GAMES, SUMMIT))
#: events that raise DEFCON (Nuclear Test Ban, SALT, ABM Treaty, Glasnost, How I Learned...)
DEFCON_RAISERS = frozenset((34, 43, 57, 90, 46))
#: cards that may set DEFCON to 2 during the headline phase before our headline resolves
SETS_DEFCON_2 = (CMC, HOW_I_LEARNED)

#: per-country limits of event placements / removals (the view does not carry them)
MAX_PER = {7: 2, 14: 1, 16: 2, 23: 1, 28: 2, 29: 1, 30: 1, 33: 2, 63: 1, 66: 1, 74: 2, 75: 2, 76: 2, 87: 2, 99: 1}

WIN = 60.0  # value of a won game, in VP-equivalents
EUROPE_CONTROL = 14.0  # Europe control inside the evaluation (the real win is handled apart)
