"""The test kits, in one place (``tests/`` is on ``sys.path``: ``from kits.server import ...``).

* :mod:`kits.server` — a real referee server on 127.0.0.1:0 in a thread (``ServerThread``) and a
  scripted raw bot session (``RawClient``).
* :mod:`kits.reliability` — the reliability tests' servers in processes, free ports, figures.
* :mod:`kits.conformance` — the conformance checks every game must pass.
* :mod:`kits.bots` — decisions and views exactly as a bot receives them (``wire``).
* :mod:`kits.st_positions`, :mod:`kits.ts_positions` — hand-built Schotten Totten and Twilight
  Struggle positions (both built through the public format, docs/positions.md; position files in
  ``tests/positions/``).
* :mod:`kits.fakebots` — misbehaving bots (crash, hang, lie), a plugin for ``$STANDOFF_PLUGINS``.
* :mod:`kits.faultyengine` — a simulated engine bug, a plugin for ``$STANDOFF_PLUGINS``.
* :mod:`kits.cheater` — a bot that tries every channel of the service to learn hidden cards.
"""
