"""Card keys and card facts of the Twilight Struggle forward model (:mod:`.belief`):
the keys a view's history uses for what the role could not see (``card:hidden``, ``hand:hidden``),
the cards a ``card:<id>`` / ``choice:<id>`` / ``hand:<id>,...`` key names, the steps and frames that
hold drawn cards or list hand cards, and whether a card is a scoring card or may be headlined.
Shared by the rules inference, the replay and the re-deal.
"""

from __future__ import annotations

from ...forward_model import SimulationError
from . import card_data as CD
from . import determinize as D

HIDDEN_CARD = "card:hidden"
HIDDEN_HAND = "hand:hidden"
_CARD = CD.CARD_BY_NUMBER
_BY_ID = CD.CARD_BY_ID
_OPTIONAL = frozenset(CD.OPTIONAL_CARDS)
_DRAWS = ("deal", "tehran_draw")  # chance decisions that draw from the draw pile
_TEHRAN = D.TEHRAN_FRAMES  # frames holding Our Man in Tehran's drawn cards
#: event choices whose keys list cards of a hand (``choice:<card id>``), and maybe a last other key
_HAND_CHOICES = D.HAND_CHOICES
_ATTEMPTS = 40  # tries per decision when the engine's consequences of a hidden hand differ
_NEVER = 1 << 30


def _number(name: str) -> int | None:
    card = _BY_ID.get(name)
    return card.number if card is not None else None


def _named_card(key: str) -> int | None:
    """The card a ``card:<id>`` or ``choice:<id>`` key names, else None."""
    kind, _, name = key.partition(":")
    return _number(name) if kind in ("card", "choice") else None


def _hand_cards(key: str) -> list[int]:
    """The cards of a ``hand:<id>,<id>...`` key (a reveal)."""
    names = key.partition(":")[2]
    cards = [_number(n) for n in names.split(",") if n]
    if any(c is None for c in cards):
        raise SimulationError(f"unknown card in {key!r}")
    return cards  # type: ignore[return-value]


def _scoring(card: int) -> bool:
    return _CARD[card].scoring


def _eligible(card: int) -> bool:
    return _CARD[card].headline
