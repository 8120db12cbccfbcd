"""The errors of a tournament run (their messages are one line for the user)."""

from __future__ import annotations


class RunError(RuntimeError):
    """A run that cannot go on (a run folder of another config, a Ray cluster out of reach...)."""


class MatchCrashed(RunError):
    """One match could not be played: the worker processes playing it kept dying. The run goes
    on; the match is an ``error`` result."""


class ClusterFailed(RunError):
    """The machinery that plays the matches failed, not a match: the Ray cluster lost the
    coordinator's own node (its raylet), the GCS, or kept losing the nodes a match ran on.
    Such a failure is never a result: the run stops (:func:`standoff.tournaments.runner.run_schedule`
    says how many matches are left unplayed), and the same command resumes them."""
