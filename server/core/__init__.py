"""Game-agnostic engine kernel: the Game contract, decisions and options, the step stack,
seeds and match records. Pure: no I/O, no clock, no logging, no grpc/trio."""

from .flow import HistoryEntry, StackGame, StackState, Step, iter_history
from .game import (
    CHANCE,
    Decision,
    Game,
    IllegalOption,
    Option,
    Outcome,
    Rules,
    RulesError,
)
from .record import Record, ReplayError, ReplayStep, parse_record, replay, replay_steps
from .seeds import derive_seed

__all__ = [
    "CHANCE",
    "Decision",
    "Game",
    "HistoryEntry",
    "IllegalOption",
    "Option",
    "Outcome",
    "Record",
    "ReplayError",
    "ReplayStep",
    "Rules",
    "RulesError",
    "StackGame",
    "StackState",
    "Step",
    "derive_seed",
    "iter_history",
    "parse_record",
    "replay",
    "replay_steps",
]
