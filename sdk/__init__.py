"""The Standoff SDK: what a bot author imports."""

from .bot import Bot

__all__ = ["Bot"]
