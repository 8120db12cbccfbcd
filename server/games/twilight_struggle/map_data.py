"""Twilight Struggle (Deluxe) map data: the 84 countries, regions, scoring table and setup.

Pure data, no I/O. ``COUNTRIES`` was generated once from the JSON in the shared reference
``twilight-struggle/map.md`` (section 3) and is kept here as a literal; everything below it is
derived from that literal at import time.

Conventions (map.md section 1):

* ``id`` is a stable snake_case key; ``region`` is one of the six scoring regions.
* ``subregions``: Western Europe / Eastern Europe split Europe (Austria and Finland are in **both**);
  Southeast Asia is part of Asia. Anything that refers to "Europe" or "Asia" includes its sub-regions.
* ``adjacent`` is sorted and symmetric; the superpower spaces appear as the literal strings
  ``"USA"`` and ``"USSR"`` (they are not countries: no influence, never couped, never scored).
* ``start_us`` / ``start_ussr``: fixed setup influence, placed before the free placements of ``SETUP``.
* Stability of Norway is 4 (herbix's engine says 3; the other three sources and the reference use 4).
"""

from __future__ import annotations

from typing import NamedTuple

EUROPE = "Europe"
MIDDLE_EAST = "Middle East"
ASIA = "Asia"
AFRICA = "Africa"
CENTRAL_AMERICA = "Central America"
SOUTH_AMERICA = "South America"
#: The six scoring regions, in the order of the reference's country list.
REGIONS: tuple[str, ...] = (EUROPE, MIDDLE_EAST, ASIA, AFRICA, CENTRAL_AMERICA, SOUTH_AMERICA)

WESTERN_EUROPE = "Western Europe"
EASTERN_EUROPE = "Eastern Europe"
SOUTHEAST_ASIA = "Southeast Asia"
SUBREGIONS: tuple[str, ...] = (WESTERN_EUROPE, EASTERN_EUROPE, SOUTHEAST_ASIA)
#: The region each sub-region belongs to.
SUBREGION_PARENT: dict[str, str] = {WESTERN_EUROPE: EUROPE, EASTERN_EUROPE: EUROPE, SOUTHEAST_ASIA: ASIA}

#: Superpower spaces as they appear in ``Country.adjacent``.
USA = "USA"
USSR = "USSR"


class Country(NamedTuple):
    id: str
    name: str
    region: str
    subregions: tuple[str, ...]
    stability: int
    battleground: bool
    start_us: int
    start_ussr: int
    adjacent: tuple[str, ...]


# fmt: off
COUNTRIES: tuple[Country, ...] = (
    Country("canada", "Canada", EUROPE, (WESTERN_EUROPE,), 4, False, 2, 0,
            ("USA", "uk")),
    Country("uk", "UK", EUROPE, (WESTERN_EUROPE,), 5, False, 5, 0,
            ("benelux", "canada", "france", "norway")),
    Country("norway", "Norway", EUROPE, (WESTERN_EUROPE,), 4, False, 0, 0,
            ("sweden", "uk")),
    Country("sweden", "Sweden", EUROPE, (WESTERN_EUROPE,), 4, False, 0, 0,
            ("denmark", "finland", "norway")),
    Country("finland", "Finland", EUROPE, (WESTERN_EUROPE, EASTERN_EUROPE), 4, False, 0, 1,
            ("USSR", "sweden")),
    Country("denmark", "Denmark", EUROPE, (WESTERN_EUROPE,), 3, False, 0, 0,
            ("sweden", "west_germany")),
    Country("benelux", "Benelux", EUROPE, (WESTERN_EUROPE,), 3, False, 0, 0,
            ("uk", "west_germany")),
    Country("france", "France", EUROPE, (WESTERN_EUROPE,), 3, True, 0, 0,
            ("algeria", "italy", "spain_portugal", "uk", "west_germany")),
    Country("west_germany", "West Germany", EUROPE, (WESTERN_EUROPE,), 4, True, 0, 0,
            ("austria", "benelux", "denmark", "east_germany", "france")),
    Country("east_germany", "East Germany", EUROPE, (EASTERN_EUROPE,), 3, True, 0, 3,
            ("austria", "czechoslovakia", "poland", "west_germany")),
    Country("poland", "Poland", EUROPE, (EASTERN_EUROPE,), 3, True, 0, 0,
            ("USSR", "czechoslovakia", "east_germany")),
    Country("czechoslovakia", "Czechoslovakia", EUROPE, (EASTERN_EUROPE,), 3, False, 0, 0,
            ("east_germany", "hungary", "poland")),
    Country("austria", "Austria", EUROPE, (WESTERN_EUROPE, EASTERN_EUROPE), 4, False, 0, 0,
            ("east_germany", "hungary", "italy", "west_germany")),
    Country("hungary", "Hungary", EUROPE, (EASTERN_EUROPE,), 3, False, 0, 0,
            ("austria", "czechoslovakia", "romania", "yugoslavia")),
    Country("italy", "Italy", EUROPE, (WESTERN_EUROPE,), 2, True, 0, 0,
            ("austria", "france", "greece", "spain_portugal", "yugoslavia")),
    Country("spain_portugal", "Spain/Portugal", EUROPE, (WESTERN_EUROPE,), 2, False, 0, 0,
            ("france", "italy", "morocco")),
    Country("yugoslavia", "Yugoslavia", EUROPE, (EASTERN_EUROPE,), 3, False, 0, 0,
            ("greece", "hungary", "italy", "romania")),
    Country("romania", "Romania", EUROPE, (EASTERN_EUROPE,), 3, False, 0, 0,
            ("USSR", "hungary", "turkey", "yugoslavia")),
    Country("bulgaria", "Bulgaria", EUROPE, (EASTERN_EUROPE,), 3, False, 0, 0,
            ("greece", "turkey")),
    Country("greece", "Greece", EUROPE, (WESTERN_EUROPE,), 2, False, 0, 0,
            ("bulgaria", "italy", "turkey", "yugoslavia")),
    Country("turkey", "Turkey", EUROPE, (WESTERN_EUROPE,), 2, False, 0, 0,
            ("bulgaria", "greece", "romania", "syria")),
    Country("lebanon", "Lebanon", MIDDLE_EAST, (), 1, False, 0, 0,
            ("israel", "jordan", "syria")),
    Country("syria", "Syria", MIDDLE_EAST, (), 2, False, 0, 1,
            ("israel", "lebanon", "turkey")),
    Country("israel", "Israel", MIDDLE_EAST, (), 4, True, 1, 0,
            ("egypt", "jordan", "lebanon", "syria")),
    Country("iraq", "Iraq", MIDDLE_EAST, (), 3, True, 0, 1,
            ("gulf_states", "iran", "jordan", "saudi_arabia")),
    Country("iran", "Iran", MIDDLE_EAST, (), 2, True, 1, 0,
            ("afghanistan", "iraq", "pakistan")),
    Country("libya", "Libya", MIDDLE_EAST, (), 2, True, 0, 0,
            ("egypt", "tunisia")),
    Country("egypt", "Egypt", MIDDLE_EAST, (), 2, True, 0, 0,
            ("israel", "libya", "sudan")),
    Country("jordan", "Jordan", MIDDLE_EAST, (), 2, False, 0, 0,
            ("iraq", "israel", "lebanon", "saudi_arabia")),
    Country("gulf_states", "Gulf States", MIDDLE_EAST, (), 3, False, 0, 0,
            ("iraq", "saudi_arabia")),
    Country("saudi_arabia", "Saudi Arabia", MIDDLE_EAST, (), 3, True, 0, 0,
            ("gulf_states", "iraq", "jordan")),
    Country("afghanistan", "Afghanistan", ASIA, (), 2, False, 0, 0,
            ("USSR", "iran", "pakistan")),
    Country("pakistan", "Pakistan", ASIA, (), 2, True, 0, 0,
            ("afghanistan", "india", "iran")),
    Country("india", "India", ASIA, (), 3, True, 0, 0,
            ("burma", "pakistan")),
    Country("burma", "Burma", ASIA, (SOUTHEAST_ASIA,), 2, False, 0, 0,
            ("india", "laos_cambodia")),
    Country("laos_cambodia", "Laos/Cambodia", ASIA, (SOUTHEAST_ASIA,), 1, False, 0, 0,
            ("burma", "thailand", "vietnam")),
    Country("thailand", "Thailand", ASIA, (SOUTHEAST_ASIA,), 2, True, 0, 0,
            ("laos_cambodia", "malaysia", "vietnam")),
    Country("vietnam", "Vietnam", ASIA, (SOUTHEAST_ASIA,), 1, False, 0, 0,
            ("laos_cambodia", "thailand")),
    Country("malaysia", "Malaysia", ASIA, (SOUTHEAST_ASIA,), 2, False, 0, 0,
            ("australia", "indonesia", "thailand")),
    Country("indonesia", "Indonesia", ASIA, (SOUTHEAST_ASIA,), 1, False, 0, 0,
            ("malaysia", "philippines")),
    Country("philippines", "Philippines", ASIA, (SOUTHEAST_ASIA,), 2, False, 1, 0,
            ("indonesia", "japan")),
    Country("australia", "Australia", ASIA, (), 4, False, 4, 0,
            ("malaysia",)),
    Country("japan", "Japan", ASIA, (), 4, True, 1, 0,
            ("USA", "philippines", "south_korea", "taiwan")),
    Country("taiwan", "Taiwan", ASIA, (), 3, False, 0, 0,
            ("japan", "south_korea")),
    Country("south_korea", "South Korea", ASIA, (), 3, True, 1, 0,
            ("japan", "north_korea", "taiwan")),
    Country("north_korea", "North Korea", ASIA, (), 3, True, 0, 3,
            ("USSR", "south_korea")),
    Country("morocco", "Morocco", AFRICA, (), 3, False, 0, 0,
            ("algeria", "spain_portugal", "west_african_states")),
    Country("algeria", "Algeria", AFRICA, (), 2, True, 0, 0,
            ("france", "morocco", "saharan_states", "tunisia")),
    Country("tunisia", "Tunisia", AFRICA, (), 2, False, 0, 0,
            ("algeria", "libya")),
    Country("west_african_states", "West African States", AFRICA, (), 2, False, 0, 0,
            ("ivory_coast", "morocco")),
    Country("saharan_states", "Saharan States", AFRICA, (), 1, False, 0, 0,
            ("algeria", "nigeria")),
    Country("nigeria", "Nigeria", AFRICA, (), 1, True, 0, 0,
            ("cameroon", "ivory_coast", "saharan_states")),
    Country("ivory_coast", "Ivory Coast", AFRICA, (), 2, False, 0, 0,
            ("nigeria", "west_african_states")),
    Country("cameroon", "Cameroon", AFRICA, (), 1, False, 0, 0,
            ("nigeria", "zaire")),
    Country("zaire", "Zaire", AFRICA, (), 1, True, 0, 0,
            ("angola", "cameroon", "zimbabwe")),
    Country("angola", "Angola", AFRICA, (), 1, True, 0, 0,
            ("botswana", "south_africa", "zaire")),
    Country("botswana", "Botswana", AFRICA, (), 2, False, 0, 0,
            ("angola", "south_africa", "zimbabwe")),
    Country("south_africa", "South Africa", AFRICA, (), 3, True, 1, 0,
            ("angola", "botswana")),
    Country("se_african_states", "SE African States", AFRICA, (), 1, False, 0, 0,
            ("kenya", "zimbabwe")),
    Country("zimbabwe", "Zimbabwe", AFRICA, (), 1, False, 0, 0,
            ("botswana", "se_african_states", "zaire")),
    Country("sudan", "Sudan", AFRICA, (), 1, False, 0, 0,
            ("egypt", "ethiopia")),
    Country("ethiopia", "Ethiopia", AFRICA, (), 1, False, 0, 0,
            ("somalia", "sudan")),
    Country("somalia", "Somalia", AFRICA, (), 2, False, 0, 0,
            ("ethiopia", "kenya")),
    Country("kenya", "Kenya", AFRICA, (), 2, False, 0, 0,
            ("se_african_states", "somalia")),
    Country("mexico", "Mexico", CENTRAL_AMERICA, (), 2, True, 0, 0,
            ("USA", "guatemala")),
    Country("guatemala", "Guatemala", CENTRAL_AMERICA, (), 1, False, 0, 0,
            ("el_salvador", "honduras", "mexico")),
    Country("el_salvador", "El Salvador", CENTRAL_AMERICA, (), 1, False, 0, 0,
            ("guatemala", "honduras")),
    Country("honduras", "Honduras", CENTRAL_AMERICA, (), 2, False, 0, 0,
            ("costa_rica", "el_salvador", "guatemala", "nicaragua")),
    Country("costa_rica", "Costa Rica", CENTRAL_AMERICA, (), 3, False, 0, 0,
            ("honduras", "nicaragua", "panama")),
    Country("panama", "Panama", CENTRAL_AMERICA, (), 2, True, 1, 0,
            ("colombia", "costa_rica")),
    Country("nicaragua", "Nicaragua", CENTRAL_AMERICA, (), 1, False, 0, 0,
            ("costa_rica", "cuba", "honduras")),
    Country("cuba", "Cuba", CENTRAL_AMERICA, (), 3, True, 0, 0,
            ("USA", "haiti", "nicaragua")),
    Country("haiti", "Haiti", CENTRAL_AMERICA, (), 1, False, 0, 0,
            ("cuba", "dominican_republic")),
    Country("dominican_republic", "Dominican Republic", CENTRAL_AMERICA, (), 1, False, 0, 0,
            ("haiti",)),
    Country("venezuela", "Venezuela", SOUTH_AMERICA, (), 2, True, 0, 0,
            ("brazil", "colombia")),
    Country("colombia", "Colombia", SOUTH_AMERICA, (), 1, False, 0, 0,
            ("ecuador", "panama", "venezuela")),
    Country("ecuador", "Ecuador", SOUTH_AMERICA, (), 2, False, 0, 0,
            ("colombia", "peru")),
    Country("peru", "Peru", SOUTH_AMERICA, (), 2, False, 0, 0,
            ("bolivia", "chile", "ecuador")),
    Country("brazil", "Brazil", SOUTH_AMERICA, (), 2, True, 0, 0,
            ("uruguay", "venezuela")),
    Country("bolivia", "Bolivia", SOUTH_AMERICA, (), 2, False, 0, 0,
            ("paraguay", "peru")),
    Country("chile", "Chile", SOUTH_AMERICA, (), 3, True, 0, 0,
            ("argentina", "peru")),
    Country("argentina", "Argentina", SOUTH_AMERICA, (), 2, True, 0, 0,
            ("chile", "paraguay", "uruguay")),
    Country("paraguay", "Paraguay", SOUTH_AMERICA, (), 2, False, 0, 0,
            ("argentina", "bolivia", "uruguay")),
    Country("uruguay", "Uruguay", SOUTH_AMERICA, (), 2, False, 0, 0,
            ("argentina", "brazil", "paraguay")),
)
# fmt: on

COUNTRY_BY_ID: dict[str, Country] = {c.id: c for c in COUNTRIES}
#: Country id -> its position in ``COUNTRIES`` (engines keep influence in per-index lists).
INDEX: dict[str, int] = {c.id: i for i, c in enumerate(COUNTRIES)}
#: ``NEIGHBOURS[i]``: indices of the countries adjacent to country ``i`` (ascending), superpower
#: spaces excluded (see ``SUPERPOWER_NEIGHBOURS``).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(INDEX[a] for a in c.adjacent if a in INDEX)) for c in COUNTRIES
)
#: Country ids adjacent to each superpower space: ``"us"`` = the USA space, ``"ussr"`` = the USSR space.
#: A side may always place influence next to its own space; it adds +1 to its realignment rolls there.
SUPERPOWER_NEIGHBOURS: dict[str, frozenset[str]] = {
    "us": frozenset(c.id for c in COUNTRIES if USA in c.adjacent),
    "ussr": frozenset(c.id for c in COUNTRIES if USSR in c.adjacent),
}
#: Region scoring bonus: +1 VP per controlled country bordering the **enemy** superpower space.
#: ``ADJACENCY_BONUS["us"]`` = countries adjacent to the USSR (Finland, Poland, Romania, Afghanistan,
#: North Korea); ``ADJACENCY_BONUS["ussr"]`` = countries adjacent to the USA (Canada, Mexico, Cuba, Japan).
ADJACENCY_BONUS: dict[str, frozenset[str]] = {
    "us": SUPERPOWER_NEIGHBOURS["ussr"],
    "ussr": SUPERPOWER_NEIGHBOURS["us"],
}

#: Region -> indices of its countries (Europe and Asia include their sub-regions).
REGION_COUNTRIES: dict[str, tuple[int, ...]] = {
    r: tuple(i for i, c in enumerate(COUNTRIES) if c.region == r) for r in REGIONS
}
#: Sub-region -> indices of its countries (Austria and Finland are in both European halves).
SUBREGION_COUNTRIES: dict[str, tuple[int, ...]] = {
    s: tuple(i for i, c in enumerate(COUNTRIES) if s in c.subregions) for s in SUBREGIONS
}
#: Indices of the 29 printed battlegrounds (Taiwan is not one; Formosan Resolution is an event rule).
BATTLEGROUNDS: tuple[int, ...] = tuple(i for i, c in enumerate(COUNTRIES) if c.battleground)

#: Region scoring VP: ``region -> (presence, domination, control)`` (map.md section 6).
#: Europe's control entry is ``None``: controlling Europe when it is scored (Europe Scoring card or
#: final scoring) wins the game immediately instead of scoring VP.
SCORING: dict[str, tuple[int, int, int | None]] = {
    EUROPE: (3, 7, None),
    ASIA: (3, 7, 9),
    MIDDLE_EAST: (3, 5, 7),
    CENTRAL_AMERICA: (1, 3, 5),
    SOUTH_AMERICA: (2, 5, 6),
    AFRICA: (1, 4, 6),
}

#: Southeast Asia Scoring card (#38): VP per controlled country, no tiers, net difference applied.
#: Not used at final scoring (those countries simply count inside Asia then).
SOUTHEAST_ASIA_SCORING: dict[str, int] = {
    COUNTRIES[i].id: (2 if COUNTRIES[i].id == "thailand" else 1) for i in SUBREGION_COUNTRIES[SOUTHEAST_ASIA]
}

#: Deluxe setup (map.md section 4): the USSR places its fixed influence plus 6 anywhere in Eastern
#: Europe (any split, may stack on the fixed ones); then the US places its fixed influence plus 7
#: anywhere in Western Europe. The USSR starts with The China Card face up. Totals: USSR 9 + 6 = 15,
#: US 18 + 7 = 25 (the 1st-edition errata's 23 for the US is not used).
SETUP: dict[str, dict[str, int] | tuple[int, str]] = {
    "ussr": {c.id: c.start_ussr for c in COUNTRIES if c.start_ussr},
    "us": {c.id: c.start_us for c in COUNTRIES if c.start_us},
    "ussr_free": (6, EASTERN_EUROPE),
    "us_free": (7, WESTERN_EUROPE),
}
