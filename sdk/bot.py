"""The class a bot author subclasses (:class:`Bot`). It lives with the referee that plays it
(:mod:`standoff.server.bot`); the SDK is where authors import it from."""

from ..server.bot import Bot

__all__ = ["Bot"]
