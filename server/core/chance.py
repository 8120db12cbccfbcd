"""The chance role's randomness: a keyed cryptographic stream, never Mersenne Twister.

A match's deals, draws and dice come from :class:`ChanceStream`: SHAKE-256 (SHA-3's extendable
output function) keyed by the match seed, in counter mode. Two properties matter for a tournament
server:

* **same seed, same match**: the stream is a pure function of the seed, so a match is reproducible
  from its seed (and verifiable from its record);
* **observed draws predict nothing**: unlike ``random.Random``, whose whole state can be rebuilt
  from 624 outputs, the outputs of a keyed hash say nothing about later ones (or about the key)
  to anyone who does not hold the seed. A bot that sees every draw of a match still cannot
  predict the next card.

(SHAKE-256 rather than HMAC-SHA256: a keyed sponge is as good a pseudorandom function, with no
length-extension weakness to guard against, and one call yields 64 words: a draw costs a
fraction of an HMAC call's; docs/reliability.md has the figures.)

The seed itself must then stay secret while the match is played (server-chosen seeds come from
:mod:`secrets`; see ``docs/reliability.md``).
"""

from __future__ import annotations

import hashlib
import struct

_WORD = 1 << 64
_BLOCK_WORDS = 64
_BLOCK = struct.Struct(f">{_BLOCK_WORDS}Q")


class ChanceStream:
    """Uniform integers and floats from ``SHAKE-256(key | counter)`` (64 words of 64 bits per
    block), with ``key = SHA-256("standoff-chance/2" | purpose | seed)``.

    It offers the two methods of ``random.Random`` that drawing chance options needs,
    :meth:`randrange` (exactly uniform: rejection sampling, no modulo bias) and :meth:`random`,
    so :func:`standoff.server.core.game.sample_chance` takes either. ``purpose`` separates
    independent streams of one match (``"chance"`` for the chance role, ``"faults"`` for the
    fault policy's random substitutes).
    """

    __slots__ = ("_key", "_counter", "_words")

    def __init__(self, seed: int, purpose: str = "chance") -> None:
        self._key = hashlib.sha256(f"standoff-chance/2\x1f{purpose}\x1f{int(seed)}".encode()).digest()
        self._counter = 0
        self._words: list[int] = []

    def _word(self) -> int:
        """The next 64-bit word of the stream."""
        if not self._words:
            block = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(_BLOCK.size)
            self._counter += 1
            self._words = list(_BLOCK.unpack(block))
            self._words.reverse()  # popped from the end: the block's words in order
        return self._words.pop()

    def randrange(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1`` (``n >= 1``)."""
        if n < 1:
            raise ValueError(f"randrange({n}): empty range")
        limit = _WORD - _WORD % n  # the largest multiple of n that fits: no value is favoured
        while (word := self._word()) >= limit:
            pass
        return word % n

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return (self._word() >> 11) * (1.0 / (1 << 53))
