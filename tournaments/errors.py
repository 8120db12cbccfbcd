"""The errors of a tournament run (their messages are one line for the user)."""

from __future__ import annotations


class RunError(RuntimeError):
    """A run that cannot go on (a run folder of another config, a Ray cluster out of reach...)."""


class MatchCrashed(RunError):
    """One match could not be played: the worker processes playing it kept dying. The run goes
    on; the match is an ``error`` result."""
