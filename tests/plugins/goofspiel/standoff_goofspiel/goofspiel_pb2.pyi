from standoff.v1 import views_pb2 as _views_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GoofspielView(_message.Message):
    __slots__ = ("ruleset", "role", "cards", "step", "prize", "prizes_left", "hand", "bid", "opponents", "scores", "rounds", "history", "history_from")
    class OpponentsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: GoofspielOpponent
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[GoofspielOpponent, _Mapping]] = ...) -> None: ...
    class ScoresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    PRIZE_FIELD_NUMBER: _ClassVar[int]
    PRIZES_LEFT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FROM_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    role: str
    cards: int
    step: str
    prize: int
    prizes_left: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[int]
    bid: int
    opponents: _containers.MessageMap[str, GoofspielOpponent]
    scores: _containers.ScalarMap[str, int]
    rounds: _containers.RepeatedCompositeFieldContainer[GoofspielRound]
    history: _containers.RepeatedCompositeFieldContainer[_views_pb2.HistoryEntry]
    history_from: int
    def __init__(self, ruleset: _Optional[str] = ..., role: _Optional[str] = ..., cards: _Optional[int] = ..., step: _Optional[str] = ..., prize: _Optional[int] = ..., prizes_left: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[int]] = ..., bid: _Optional[int] = ..., opponents: _Optional[_Mapping[str, GoofspielOpponent]] = ..., scores: _Optional[_Mapping[str, int]] = ..., rounds: _Optional[_Iterable[_Union[GoofspielRound, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[_views_pb2.HistoryEntry, _Mapping]]] = ..., history_from: _Optional[int] = ...) -> None: ...

class GoofspielOpponent(_message.Message):
    __slots__ = ("cards", "bid_placed")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    BID_PLACED_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    bid_placed: bool
    def __init__(self, cards: _Optional[_Iterable[int]] = ..., bid_placed: _Optional[bool] = ...) -> None: ...

class GoofspielRound(_message.Message):
    __slots__ = ("prize", "bids", "winner")
    class BidsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    PRIZE_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    prize: int
    bids: _containers.ScalarMap[str, int]
    winner: str
    def __init__(self, prize: _Optional[int] = ..., bids: _Optional[_Mapping[str, int]] = ..., winner: _Optional[str] = ...) -> None: ...
