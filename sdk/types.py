"""What a bot receives: decoded decisions, options, match information and results. The types are
the referee's own (:mod:`standoff.server.decisions`: an in-process bot gets the same objects a
remote one decodes); the SDK is where authors import them from."""

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
