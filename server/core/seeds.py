"""Seeds derived with SHA-256, never with ``hash()`` (which is salted per process).

A tournament has one master seed; every match, every bot in it and the chance role get their own
seed derived from it and a path of names, so that any single match is reproducible on its own.
"""

from __future__ import annotations

import hashlib

SEED_BITS = 63  # fits a signed 64-bit integer on the wire


def derive_seed(*parts: object) -> int:
    """A 63-bit seed that depends only on ``parts`` (their ``str()``), e.g.
    ``derive_seed(master, "match", 17, "chance")``."""
    text = "\x1f".join(str(part) for part in parts)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
