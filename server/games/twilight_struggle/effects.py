"""Lasting effects: the names under which card events keep an effect in play (``state.effects``),
each one keyed to the number of the card that sets it.

The names are part of the wire: views list them (``effects``, sorted; docs/protocol.md) and bots
read them, so a name never changes. A name ending in ``:turn`` lasts until the end of the turn
(``turn.EndTurn`` drops them all); the others last until an event ends them, or the game.

Three shapes:

* ``effect(card, name)``: one name (``NATO``).
* ``per_side(card, pattern)``: one name per side, indexed by side (``RED_SCARE[US]`` is
  ``"red_scare:us:turn"``: the side it applies to, as each card says).
* ``Family(card, prefix, suffix)``: a name with an argument (``CHERNOBYL("Europe")`` is
  ``"chernobyl:Europe:turn"``); ``family.args(effects)`` lists the arguments in play.

Where each effect acts: the hook its card registers (:mod:`.hooks`), next to the card's event.
"""

from __future__ import annotations

from collections.abc import Iterable

from .state import SIDE_NAMES

#: Every effect name (or a family's prefix) → the number of the card that sets it.
CARD_OF: dict[str, int] = {}

#: The suffix of the effects that end with the turn.
TURN = ":turn"


def effect(card: int, name: str) -> str:
    """Register ``name`` as the lasting effect of card ``card``."""
    if name in CARD_OF:
        raise ValueError(f"effect {name!r} registered twice")
    CARD_OF[name] = card
    return name


def per_side(card: int, pattern: str) -> tuple[str, str]:
    """One name per side (``pattern`` with ``{side}``), indexed by side (USSR, US)."""
    return tuple(effect(card, pattern.format(side=name)) for name in SIDE_NAMES)  # type: ignore[return-value]


class Family:
    """Effect names carrying an argument: ``prefix + argument + suffix``."""

    __slots__ = ("card", "prefix", "suffix")

    def __init__(self, card: int, prefix: str, suffix: str = "") -> None:
        self.card = card
        self.prefix = prefix
        self.suffix = suffix
        effect(card, prefix)

    def __call__(self, argument: str) -> str:
        return f"{self.prefix}{argument}{self.suffix}"

    def __contains__(self, name: str) -> bool:
        return name.startswith(self.prefix)

    def args(self, effects: Iterable[str]) -> list[str]:
        """The arguments of this family's effects among ``effects``."""
        start = len(self.prefix)
        return [e[start:].removesuffix(self.suffix) for e in effects if e.startswith(self.prefix)]


def lasts_the_turn(name: str) -> bool:
    return name.endswith(TURN)


# -- Early War -------------------------------------------------------------------------------------

VIETNAM_REVOLTS = effect(9, "vietnam_revolts:turn")
DE_GAULLE = effect(17, "de_gaulle")
NATO = effect(21, "nato")
CONTAINMENT = effect(25, "containment:turn")
US_JAPAN_PACT = effect(27, "us_japan_pact")
#: RED_SCARE[side]: ``side``'s cards are worth 1 Op less (the opponent of the player).
RED_SCARE = per_side(31, "red_scare:{side}:turn")
FORMOSAN_RESOLUTION = effect(35, "formosan_resolution")

# -- Mid War ---------------------------------------------------------------------------------------

#: CUBAN_MISSILE_CRISIS[side]: a coup by ``side`` loses the game (the opponent of the player).
CUBAN_MISSILE_CRISIS = per_side(40, "cuban_missile_crisis:{side}:turn")
NUCLEAR_SUBS = effect(41, "nuclear_subs:turn")
QUAGMIRE = effect(42, "quagmire")
SALT_NEGOTIATIONS = effect(43, "salt:turn")
BEAR_TRAP = effect(44, "bear_trap")
#: MISSILE_ENVY[side]: ``side`` holds Missile Envy and must play it for Operations.
MISSILE_ENVY = per_side(49, "missile_envy:{side}")
WE_WILL_BURY_YOU = effect(50, "we_will_bury_you")
WE_WILL_BURY_YOU_UN = effect(50, "we_will_bury_you:un_intervention")
BREZHNEV_DOCTRINE = effect(51, "brezhnev_doctrine:turn")
WILLY_BRANDT = effect(55, "willy_brandt")
FLOWER_POWER = effect(59, "flower_power")
U2_INCIDENT = effect(60, "u2_incident:turn")
#: DEATH_SQUADS[side]: ``side`` played Latin American Death Squads this turn.
DEATH_SQUADS = per_side(69, "death_squads:{side}:turn")
SHUTTLE_DIPLOMACY = effect(73, "shuttle_diplomacy")
#: SCORING_IGNORE(country id): that country does not count in the scoring under way.
SCORING_IGNORE = Family(73, "scoring_ignore:")

# -- Late War --------------------------------------------------------------------------------------

IRANIAN_HOSTAGE_CRISIS = effect(82, "iranian_hostage_crisis")
NORTH_SEA_OIL = effect(86, "north_sea_oil:turn")
THE_REFORMER = effect(87, "the_reformer")
IRAN_CONTRA = effect(93, "iran_contra:turn")
#: CHERNOBYL(region name as in map_data): no USSR influence by Operations there this turn.
CHERNOBYL = Family(94, "chernobyl:", TURN)
ALDRICH_AMES = effect(98, "aldrich_ames:turn")

# -- optional cards --------------------------------------------------------------------------------

NORAD = effect(106, "norad")
YURI_AND_SAMANTHA = effect(109, "yuri_and_samantha:turn")
