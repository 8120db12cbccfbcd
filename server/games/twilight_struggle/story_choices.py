"""The choices events ask, as sentences (:mod:`.story`): "US discards Independent Reds
(Blockade)", "USSR attacks Pakistan (Indo-Pakistani War)", "US boycotts the Olympic Games".

:data:`CHOICES` maps an event's decision step to its sentences: by the whole key
(``choice:lose_west_germany``), else by the key's kind (``card``, ``country``, ``choice``: then
``{x}`` is the object in words: a card, a country, a region). ``{S}`` is the side choosing,
``{O}`` the other side, ``{use}`` how granted Operations are used. A step or key not listed gets
:func:`generic`: the side, the choice in words and the event's card.
"""

from __future__ import annotations

from .story_words import SIDE, card_name, choice_words, other, words

#: How Operations granted by an event are used (a ``choice:<use>`` or ``use:<use>`` key).
USE_WORDS = {"influence": "to place influence", "realign": "for realignment rolls", "coup": "for a coup",
             "space": "on the Space Race"}

_OPS = {"choice": "{S} uses the Operations {use}", "neither": "{S} uses none of the Operations",
        "none": "{S} makes no coup"}

CHOICES: dict[str, dict[str, str]] = {
    "un_intervention": {"choice": "{S} plays {x} with UN Intervention (its event does not happen)"},
    "un_intervention_ops": _OPS, "missile_envy_ops": _OPS, "kal_007_ops": _OPS,
    "junta": {**_OPS, "choice": "{S} makes {free} (Junta)", "neither": "{S} makes no free coup or realignment (Junta)"},
    "tear_down_this_wall": {**_OPS, "choice": "{S} makes {free} in Europe (\"Tear Down This Wall\")",
                            "neither": "{S} makes no free coup or realignment (\"Tear Down This Wall\")"},
    "ortega_elected_in_nicaragua": {"choice:coup": "USSR makes a free coup (Ortega Elected in Nicaragua)",
                                    "choice:none": "USSR makes no coup (Ortega Elected in Nicaragua)"},
    "indo_pakistani_war": {"choice": "{S} attacks {x} (Indo-Pakistani War)"},
    "iran_iraq_war": {"choice": "{S} attacks {x} (Iran-Iraq War)"},
    "brush_war": {"country": "{S} wages a Brush War on {x}"},
    "blockade": {"choice": "{S} discards {x} (Blockade)",
                 "choice:lose_west_germany": "{S} gives up its influence in West Germany (Blockade)"},
    "warsaw_pact_formed": {"choice:remove_us_influence": "USSR chooses to remove US influence (Warsaw Pact Formed)",
                           "choice:add_ussr_influence": "USSR chooses to add USSR influence (Warsaw Pact Formed)"},
    "warsaw_pact_remove": {"country": "USSR removes all US influence from {x} (Warsaw Pact Formed)"},
    "truman_doctrine": {"country": "{S} picks {x} (Truman Doctrine)"},
    "independent_reds": {"country": "{S} picks {x} (Independent Reds)"},
    "muslim_revolution": {"country": "{S} picks {x} (Muslim Revolution)"},
    "south_african_unrest": {"choice:two_in_south_africa": "USSR chooses 2 in South Africa (South African Unrest)",
                             "choice:one_in_south_africa_two_adjacent":
                                 "USSR chooses 1 in South Africa and 2 next to it (South African Unrest)"},
    "tehran_discard": {"card": "{S} discards {x} (Our Man in Tehran)",
                       "done": "{S} returns the other drawn cards to the draw deck (Our Man in Tehran)"},
    "ask_not_discard": {"card": "{S} discards {x} (\"Ask Not What Your Country Can Do For You\")",
                        "done": "{S} stops discarding (\"Ask Not What Your Country Can Do For You\")"},
    "space_discard": {"card": "{S} discards {x}, a held card (its space race privilege)",
                      "done": "{S} keeps its held cards"},
    "aldrich_ames_remix": {"choice": "USSR discards {x} from the US hand (Aldrich Ames Remix)"},
    "how_i_learned_to_stop_worrying": {"choice": "{S} sets {x} (How I Learned to Stop Worrying)"},
    "olympic_games": {"choice:participate": "{S} takes part in the Olympic Games",
                      "choice:boycott": "{S} boycotts the Olympic Games"},
    "we_will_bury_you": {"choice:accept": "US lets \"We Will Bury You\" give the USSR 3 VP",
                         "choice:un_intervention": "US commits to play UN Intervention (\"We Will Bury You\")"},
    "grain_sales_to_soviets": {"choice:play": "US plays the card it took (Grain Sales to Soviets)",
                               "choice:return": "US gives the card back (Grain Sales to Soviets)"},
    "summit_defcon": {"choice:raise_defcon": "{S} raises DEFCON (Summit)",
                      "choice:lower_defcon": "{S} lowers DEFCON (Summit)",
                      "choice:leave_defcon": "{S} leaves DEFCON as it is (Summit)"},
    "extra_action_round": {"choice:accept": "{S} takes its extra action round", "pass": "{S} passes its extra action round"},
    "latin_american_debt_crisis": {"choice": "US discards {x} (Latin American Debt Crisis)",
                                   "choice:double_ussr_influence":
                                       "US lets the USSR double its influence in two South American countries "
                                       "(Latin American Debt Crisis)"},
    "latin_american_debt_crisis_double": {"country": "USSR doubles its influence in {x} (Latin American Debt Crisis)"},
    "cancel_missile_crisis": {"choice": "{S} removes 2 influence from {x} to end the Cuban Missile Crisis",
                              "choice:keep": "{S} keeps the Cuban Missile Crisis"},
    "missile_crisis_coup": {"choice": "{S} removes 2 influence from {x} to end the Cuban Missile Crisis",
                            "choice:keep": "{S} makes the coup under the Cuban Missile Crisis"},
    "star_wars": {"choice": "US plays the event of {x} from the discard pile (Star Wars)"},
    "salt_negotiations": {"choice": "{S} takes {x} back from the discard pile (SALT Negotiations)",
                          "choice:none": "{S} takes no card back (SALT Negotiations)"},
    "missile_envy": {"choice": "{S} gives {x} to the {O} (Missile Envy)"},
    "chernobyl": {"choice": "US names {x}: no USSR influence there by Operations this turn (Chernobyl)"},
    "shuttle_diplomacy": {"choice": "US leaves {x} out of the scoring (Shuttle Diplomacy)"},
    "event_remove": {"done": "{S} stops removing influence"},
    "event_place": {"done": "{S} stops adding influence"},
    "che_coup": {"done": "USSR makes no second coup (Che)"},
}

#: What an event's free Operations make (Junta, "Tear Down This Wall").
_FREE = {"coup": "a free coup", "realign": "free realignment rolls"}


def choice_text(step: str, side: str | None, key: str) -> str | None:
    """The sentence of the choice ``key`` at event step ``step`` by ``side`` (no full stop), or
    ``None`` when the step is not one of :data:`CHOICES`."""
    table = CHOICES.get(step)
    if table is None:
        return None
    kind, _, rest = key.partition(":")
    template = table.get(key) or table.get(rest) or table.get(kind)
    if template is None:
        return None
    return template.format(S=SIDE.get(side or "", "Chance"), O=SIDE.get(other(side or "us"), ""),
                           x=words(rest) if rest else words(kind), use=USE_WORDS.get(rest, words(rest)),
                           free=_FREE.get(rest, words(rest)))


#: First words of a choice that reads as a verb ("chooses to remove US influence").
_VERBS = ("remove", "add", "lose", "double", "play", "return", "accept", "raise", "lower", "leave",
          "participate", "boycott", "keep", "take", "discard")


def generic(step: str, side: str | None, key: str, card: str | None) -> str:
    """Any other choice: "USSR chooses Pakistan (Indo-Pakistani War)"."""
    what = choice_words(key)
    of = f" ({card_name(card)})" if card else ""
    if side is None:
        return f"{words(step).capitalize()}: {what}{of}"
    if what.split(" ")[0] in _VERBS:
        what = "to " + what
    return f"{SIDE[side]} chooses {what}{of}"
