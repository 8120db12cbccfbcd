"""What a bot receives: decoded decisions, options, match information and results. The types are
the referee's own (:mod:`standoff.server.decisions`: an in-process bot gets the same objects a
remote one decodes); the SDK is where authors import them from."""

from . import plugin as _plugin  # noqa: F401 - a bot's process finds the games' view codecs (discovery)
from ..server.decisions import (
    Decision,
    HistoryBook,
    MatchInfo,
    MatchResult,
    Option,
    SimulationError,
    decode_decision,
    decode_match_ended,
    decode_match_started,
)

__all__ = [
    "Decision",
    "HistoryBook",
    "MatchInfo",
    "MatchResult",
    "Option",
    "SimulationError",
    "decode_decision",
    "decode_match_ended",
    "decode_match_started",
]
