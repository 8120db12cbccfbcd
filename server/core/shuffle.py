"""``random.Random.shuffle`` written out, for the re-deals of the forward model.

A determinization shuffles the cards a role cannot see once per sample, many thousand times a
search; :func:`shuffle` gives the very permutation ``rng.shuffle`` gives, without its two Python
calls per card. Both games' re-deals (``determinize.py``) use it, and the SDK's rollout draws its
``randrange`` the same way (:data:`EXACT_RANDBELOW`).
"""

from __future__ import annotations

import random

#: Whether ``random.Random`` draws ``randbelow(n)`` with ``_randbelow_with_getrandbits`` here
#: (CPython 3.2 and later): ``getrandbits(n.bit_length())`` drawn again until below ``n``. Only
#: then are the inline draws exactly ``randrange`` / ``shuffle``; anything else keeps the calls.
EXACT_RANDBELOW = getattr(random.Random, "_randbelow", None) is getattr(
    random.Random, "_randbelow_with_getrandbits", object())

#: ``n.bit_length()`` for ``n`` below 128: an index, not a method call, in the loops that draw
#: ``randbelow(n)`` inline (this shuffle, the SDK's rollout and the games' playouts)
BIT_LENGTHS = tuple(n.bit_length() for n in range(128))


def shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``, exactly: for a plain ``random.Random``, its loop with
    ``randbelow(n)`` as ``getrandbits(n.bit_length())`` drawn again until below ``n`` (random.py's
    ``_randbelow_with_getrandbits``) written out, without two Python calls per card; any other
    generator shuffles itself. The same permutation either way (tests/bots/test_simulate.py)."""
    if type(rng) is not random.Random or not EXACT_RANDBELOW:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    bits = BIT_LENGTHS
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 128 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
