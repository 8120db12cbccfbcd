from standoff.v1 import views_pb2 as _views_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class FaultPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_POLICY_UNSPECIFIED: _ClassVar[FaultPolicy]
    FAULT_POLICY_FORFEIT: _ClassVar[FaultPolicy]
    FAULT_POLICY_RANDOM: _ClassVar[FaultPolicy]
    FAULT_POLICY_RETRY: _ClassVar[FaultPolicy]

class ErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_CODE_UNSPECIFIED: _ClassVar[ErrorCode]
    ERROR_CODE_PROTOCOL: _ClassVar[ErrorCode]
    ERROR_CODE_ILLEGAL_OPTION: _ClassVar[ErrorCode]
    ERROR_CODE_STALE_DECISION: _ClassVar[ErrorCode]
    ERROR_CODE_NOT_YOUR_MATCH: _ClassVar[ErrorCode]
    ERROR_CODE_TIMEOUT: _ClassVar[ErrorCode]
    ERROR_CODE_UNSUPPORTED_VERSION: _ClassVar[ErrorCode]
    ERROR_CODE_SUPERSEDED: _ClassVar[ErrorCode]
    ERROR_CODE_SHUTTING_DOWN: _ClassVar[ErrorCode]

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_WAITING: _ClassVar[MatchStatus]
    MATCH_STATUS_RUNNING: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
FAULT_POLICY_UNSPECIFIED: FaultPolicy
FAULT_POLICY_FORFEIT: FaultPolicy
FAULT_POLICY_RANDOM: FaultPolicy
FAULT_POLICY_RETRY: FaultPolicy
ERROR_CODE_UNSPECIFIED: ErrorCode
ERROR_CODE_PROTOCOL: ErrorCode
ERROR_CODE_ILLEGAL_OPTION: ErrorCode
ERROR_CODE_STALE_DECISION: ErrorCode
ERROR_CODE_NOT_YOUR_MATCH: ErrorCode
ERROR_CODE_TIMEOUT: ErrorCode
ERROR_CODE_UNSUPPORTED_VERSION: ErrorCode
ERROR_CODE_SUPERSEDED: ErrorCode
ERROR_CODE_SHUTTING_DOWN: ErrorCode
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_WAITING: MatchStatus
MATCH_STATUS_RUNNING: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus

class PlayRequest(_message.Message):
    __slots__ = ("hello", "choice")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    choice: Choice
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., choice: _Optional[_Union[Choice, _Mapping]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("welcome", "match_started", "decision", "match_ended", "error")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    match_started: MatchStarted
    decision: Decision
    match_ended: MatchEnded
    error: Error
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., match_started: _Optional[_Union[MatchStarted, _Mapping]] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "bot_version", "games", "max_concurrent_matches")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_MATCHES_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    bot_name: str
    bot_version: str
    games: _containers.RepeatedScalarFieldContainer[str]
    max_concurrent_matches: int
    def __init__(self, protocol_version: _Optional[int] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., max_concurrent_matches: _Optional[int] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "session_id", "server_version", "resumed_match_ids")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    RESUMED_MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    bot_name: str
    session_id: str
    server_version: str
    resumed_match_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, protocol_version: _Optional[int] = ..., bot_name: _Optional[str] = ..., session_id: _Optional[str] = ..., server_version: _Optional[str] = ..., resumed_match_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("bank_ms", "increment_ms", "max_per_decision_ms")
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_PER_DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    bank_ms: int
    increment_ms: int
    max_per_decision_ms: int
    def __init__(self, bank_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ..., max_per_decision_ms: _Optional[int] = ...) -> None: ...

class RoleBot(_message.Message):
    __slots__ = ("role", "bot")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    role: str
    bot: str
    def __init__(self, role: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class MatchStarted(_message.Message):
    __slots__ = ("match_id", "game", "rules_version", "ruleset", "options", "role", "seats", "seed", "time_control", "fault_policy")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    FAULT_POLICY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    rules_version: str
    ruleset: str
    options: _containers.ScalarMap[str, str]
    role: str
    seats: _containers.RepeatedCompositeFieldContainer[RoleBot]
    seed: int
    time_control: TimeControl
    fault_policy: FaultPolicy
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., rules_version: _Optional[str] = ..., ruleset: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., role: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[RoleBot, _Mapping]]] = ..., seed: _Optional[int] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., fault_policy: _Optional[_Union[FaultPolicy, str]] = ...) -> None: ...

class Option(_message.Message):
    __slots__ = ("key", "label")
    KEY_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    key: str
    label: str
    def __init__(self, key: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class RoleClock(_message.Message):
    __slots__ = ("role", "time_left_ms")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    role: str
    time_left_ms: int
    def __init__(self, role: _Optional[str] = ..., time_left_ms: _Optional[int] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("match_id", "decision_id", "role", "step", "prompt", "options", "view", "clocks", "attempt")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    decision_id: int
    role: str
    step: str
    prompt: str
    options: _containers.RepeatedCompositeFieldContainer[Option]
    view: _views_pb2.View
    clocks: _containers.RepeatedCompositeFieldContainer[RoleClock]
    attempt: int
    def __init__(self, match_id: _Optional[str] = ..., decision_id: _Optional[int] = ..., role: _Optional[str] = ..., step: _Optional[str] = ..., prompt: _Optional[str] = ..., options: _Optional[_Iterable[_Union[Option, _Mapping]]] = ..., view: _Optional[_Union[_views_pb2.View, _Mapping]] = ..., clocks: _Optional[_Iterable[_Union[RoleClock, _Mapping]]] = ..., attempt: _Optional[int] = ...) -> None: ...

class Choice(_message.Message):
    __slots__ = ("match_id", "decision_id", "option_index", "think_us")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    THINK_US_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    decision_id: int
    option_index: int
    think_us: int
    def __init__(self, match_id: _Optional[str] = ..., decision_id: _Optional[int] = ..., option_index: _Optional[int] = ..., think_us: _Optional[int] = ...) -> None: ...

class FaultCount(_message.Message):
    __slots__ = ("role", "kind", "count")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    role: str
    kind: str
    count: int
    def __init__(self, role: _Optional[str] = ..., kind: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("match_id", "winner", "scores", "termination", "reason", "faults", "role")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    winner: str
    scores: _containers.RepeatedCompositeFieldContainer[RoleScore]
    termination: str
    reason: str
    faults: _containers.RepeatedCompositeFieldContainer[FaultCount]
    role: str
    def __init__(self, match_id: _Optional[str] = ..., winner: _Optional[str] = ..., scores: _Optional[_Iterable[_Union[RoleScore, _Mapping]]] = ..., termination: _Optional[str] = ..., reason: _Optional[str] = ..., faults: _Optional[_Iterable[_Union[FaultCount, _Mapping]]] = ..., role: _Optional[str] = ...) -> None: ...

class RoleScore(_message.Message):
    __slots__ = ("role", "score")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    role: str
    score: float
    def __init__(self, role: _Optional[str] = ..., score: _Optional[float] = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ("code", "message", "match_id", "decision_id")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    message: str
    match_id: str
    decision_id: int
    def __init__(self, code: _Optional[_Union[ErrorCode, str]] = ..., message: _Optional[str] = ..., match_id: _Optional[str] = ..., decision_id: _Optional[int] = ...) -> None: ...

class MatchSummary(_message.Message):
    __slots__ = ("match_id", "game", "ruleset", "seats", "status", "result", "seed", "finished_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    ruleset: str
    seats: _containers.RepeatedCompositeFieldContainer[RoleBot]
    status: MatchStatus
    result: MatchEnded
    seed: int
    finished_ms: int
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., ruleset: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[RoleBot, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., result: _Optional[_Union[MatchEnded, _Mapping]] = ..., seed: _Optional[int] = ..., finished_ms: _Optional[int] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("status", "limit", "page_token", "bot", "game", "finished_after_ms", "finished_before_ms")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_BEFORE_MS_FIELD_NUMBER: _ClassVar[int]
    status: MatchStatus
    limit: int
    page_token: str
    bot: str
    game: str
    finished_after_ms: int
    finished_before_ms: int
    def __init__(self, status: _Optional[_Union[MatchStatus, str]] = ..., limit: _Optional[int] = ..., page_token: _Optional[str] = ..., bot: _Optional[str] = ..., game: _Optional[str] = ..., finished_after_ms: _Optional[int] = ..., finished_before_ms: _Optional[int] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchSummary]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetMatchRecordRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchRecordResponse(_message.Message):
    __slots__ = ("match_id", "record_jsonl")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSONL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    record_jsonl: str
    def __init__(self, match_id: _Optional[str] = ..., record_jsonl: _Optional[str] = ...) -> None: ...

class StartMatchRequest(_message.Message):
    __slots__ = ("game", "ruleset", "options", "bots", "seed", "time_control", "fault_policy", "retries", "connect_timeout_ms", "wait", "start_position")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    FAULT_POLICY_FIELD_NUMBER: _ClassVar[int]
    RETRIES_FIELD_NUMBER: _ClassVar[int]
    CONNECT_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    START_POSITION_FIELD_NUMBER: _ClassVar[int]
    game: str
    ruleset: str
    options: _containers.ScalarMap[str, str]
    bots: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    time_control: TimeControl
    fault_policy: FaultPolicy
    retries: int
    connect_timeout_ms: int
    wait: bool
    start_position: str
    def __init__(self, game: _Optional[str] = ..., ruleset: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., bots: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., fault_policy: _Optional[_Union[FaultPolicy, str]] = ..., retries: _Optional[int] = ..., connect_timeout_ms: _Optional[int] = ..., wait: _Optional[bool] = ..., start_position: _Optional[str] = ...) -> None: ...

class StartMatchResponse(_message.Message):
    __slots__ = ("match_id", "summary")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    summary: MatchSummary
    def __init__(self, match_id: _Optional[str] = ..., summary: _Optional[_Union[MatchSummary, _Mapping]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class BotStanding(_message.Message):
    __slots__ = ("bot", "played", "wins", "draws", "losses", "score")
    BOT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    bot: str
    played: int
    wins: int
    draws: int
    losses: int
    score: float
    def __init__(self, bot: _Optional[str] = ..., played: _Optional[int] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ..., score: _Optional[float] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: _containers.RepeatedCompositeFieldContainer[BotStanding]
    def __init__(self, standings: _Optional[_Iterable[_Union[BotStanding, _Mapping]]] = ...) -> None: ...
