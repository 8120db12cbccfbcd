from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class View(_message.Message):
    __slots__ = ("schotten_totten", "twilight_struggle", "plugin")
    SCHOTTEN_TOTTEN_FIELD_NUMBER: _ClassVar[int]
    TWILIGHT_STRUGGLE_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    schotten_totten: SchottenTottenView
    twilight_struggle: TwilightStruggleView
    plugin: PluginView
    def __init__(self, schotten_totten: _Optional[_Union[SchottenTottenView, _Mapping]] = ..., twilight_struggle: _Optional[_Union[TwilightStruggleView, _Mapping]] = ..., plugin: _Optional[_Union[PluginView, _Mapping]] = ...) -> None: ...

class PluginView(_message.Message):
    __slots__ = ("game", "json", "typed")
    GAME_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    TYPED_FIELD_NUMBER: _ClassVar[int]
    game: str
    json: str
    typed: PackedMessage
    def __init__(self, game: _Optional[str] = ..., json: _Optional[str] = ..., typed: _Optional[_Union[PackedMessage, _Mapping]] = ...) -> None: ...

class PackedMessage(_message.Message):
    __slots__ = ("type_url", "value")
    TYPE_URL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    type_url: str
    value: bytes
    def __init__(self, type_url: _Optional[str] = ..., value: _Optional[bytes] = ...) -> None: ...

class HistoryEntry(_message.Message):
    __slots__ = ("number", "role", "step", "key")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    number: int
    role: str
    step: str
    key: str
    def __init__(self, number: _Optional[int] = ..., role: _Optional[str] = ..., step: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class SchottenTottenView(_message.Message):
    __slots__ = ("ruleset", "role", "turn", "to_move", "step", "hand", "opponents", "flags", "decks", "discards", "tactics_played", "leader_played", "history", "history_from")
    class OpponentsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: SchottenTottenOpponent
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[SchottenTottenOpponent, _Mapping]] = ...) -> None: ...
    class DecksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: SchottenTottenDeck
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[SchottenTottenDeck, _Mapping]] = ...) -> None: ...
    class DiscardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: CardList
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[CardList, _Mapping]] = ...) -> None: ...
    class TacticsPlayedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class LeaderPlayedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: bool
        def __init__(self, key: _Optional[str] = ..., value: _Optional[bool] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    TACTICS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    LEADER_PLAYED_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FROM_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    role: str
    turn: int
    to_move: str
    step: str
    hand: _containers.RepeatedScalarFieldContainer[str]
    opponents: _containers.MessageMap[str, SchottenTottenOpponent]
    flags: _containers.RepeatedCompositeFieldContainer[SchottenTottenFlag]
    decks: _containers.MessageMap[str, SchottenTottenDeck]
    discards: _containers.MessageMap[str, CardList]
    tactics_played: _containers.ScalarMap[str, int]
    leader_played: _containers.ScalarMap[str, bool]
    history: _containers.RepeatedCompositeFieldContainer[HistoryEntry]
    history_from: int
    def __init__(self, ruleset: _Optional[str] = ..., role: _Optional[str] = ..., turn: _Optional[int] = ..., to_move: _Optional[str] = ..., step: _Optional[str] = ..., hand: _Optional[_Iterable[str]] = ..., opponents: _Optional[_Mapping[str, SchottenTottenOpponent]] = ..., flags: _Optional[_Iterable[_Union[SchottenTottenFlag, _Mapping]]] = ..., decks: _Optional[_Mapping[str, SchottenTottenDeck]] = ..., discards: _Optional[_Mapping[str, CardList]] = ..., tactics_played: _Optional[_Mapping[str, int]] = ..., leader_played: _Optional[_Mapping[str, bool]] = ..., history: _Optional[_Iterable[_Union[HistoryEntry, _Mapping]]] = ..., history_from: _Optional[int] = ...) -> None: ...

class CardList(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class SchottenTottenOpponent(_message.Message):
    __slots__ = ("troops", "tactics", "known")
    TROOPS_FIELD_NUMBER: _ClassVar[int]
    TACTICS_FIELD_NUMBER: _ClassVar[int]
    KNOWN_FIELD_NUMBER: _ClassVar[int]
    troops: int
    tactics: int
    known: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, troops: _Optional[int] = ..., tactics: _Optional[int] = ..., known: _Optional[_Iterable[str]] = ...) -> None: ...

class SchottenTottenSide(_message.Message):
    __slots__ = ("cards", "completed_at")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_AT_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    completed_at: int
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., completed_at: _Optional[int] = ...) -> None: ...

class SchottenTottenFlag(_message.Message):
    __slots__ = ("flag", "claimed_by", "fog", "mud", "sides")
    class SidesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: SchottenTottenSide
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[SchottenTottenSide, _Mapping]] = ...) -> None: ...
    FLAG_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_BY_FIELD_NUMBER: _ClassVar[int]
    FOG_FIELD_NUMBER: _ClassVar[int]
    MUD_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    flag: int
    claimed_by: str
    fog: str
    mud: str
    sides: _containers.MessageMap[str, SchottenTottenSide]
    def __init__(self, flag: _Optional[int] = ..., claimed_by: _Optional[str] = ..., fog: _Optional[str] = ..., mud: _Optional[str] = ..., sides: _Optional[_Mapping[str, SchottenTottenSide]] = ...) -> None: ...

class SchottenTottenDeck(_message.Message):
    __slots__ = ("size", "top")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    size: int
    top: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, size: _Optional[int] = ..., top: _Optional[_Iterable[str]] = ...) -> None: ...

class TwilightStruggleView(_message.Message):
    __slots__ = ("role", "turn", "action_round", "phasing", "step", "vp", "defcon", "military_ops", "space", "hand", "opponent_hand_size", "china_card", "headline", "influence", "deck_size", "discard", "removed", "effects", "events_played", "history", "history_from", "chinese_civil_war", "opponent_hand", "rules", "control", "event_card", "event_side")
    class MilitaryOpsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class SpaceEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class HeadlineEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class InfluenceEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: TwilightStruggleInfluence
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[TwilightStruggleInfluence, _Mapping]] = ...) -> None: ...
    class ControlEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTION_ROUND_FIELD_NUMBER: _ClassVar[int]
    PHASING_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    DEFCON_FIELD_NUMBER: _ClassVar[int]
    MILITARY_OPS_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    CHINA_CARD_FIELD_NUMBER: _ClassVar[int]
    HEADLINE_FIELD_NUMBER: _ClassVar[int]
    INFLUENCE_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    EFFECTS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FROM_FIELD_NUMBER: _ClassVar[int]
    CHINESE_CIVIL_WAR_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_HAND_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    CONTROL_FIELD_NUMBER: _ClassVar[int]
    EVENT_CARD_FIELD_NUMBER: _ClassVar[int]
    EVENT_SIDE_FIELD_NUMBER: _ClassVar[int]
    role: str
    turn: int
    action_round: int
    phasing: str
    step: str
    vp: int
    defcon: int
    military_ops: _containers.ScalarMap[str, int]
    space: _containers.ScalarMap[str, int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    opponent_hand_size: int
    china_card: TwilightStruggleChinaCard
    headline: _containers.ScalarMap[str, str]
    influence: _containers.MessageMap[str, TwilightStruggleInfluence]
    deck_size: int
    discard: _containers.RepeatedScalarFieldContainer[str]
    removed: _containers.RepeatedScalarFieldContainer[str]
    effects: _containers.RepeatedScalarFieldContainer[str]
    events_played: _containers.RepeatedScalarFieldContainer[str]
    history: _containers.RepeatedCompositeFieldContainer[HistoryEntry]
    history_from: int
    chinese_civil_war: int
    opponent_hand: _containers.RepeatedScalarFieldContainer[str]
    rules: TwilightStruggleRules
    control: _containers.ScalarMap[str, str]
    event_card: str
    event_side: str
    def __init__(self, role: _Optional[str] = ..., turn: _Optional[int] = ..., action_round: _Optional[int] = ..., phasing: _Optional[str] = ..., step: _Optional[str] = ..., vp: _Optional[int] = ..., defcon: _Optional[int] = ..., military_ops: _Optional[_Mapping[str, int]] = ..., space: _Optional[_Mapping[str, int]] = ..., hand: _Optional[_Iterable[str]] = ..., opponent_hand_size: _Optional[int] = ..., china_card: _Optional[_Union[TwilightStruggleChinaCard, _Mapping]] = ..., headline: _Optional[_Mapping[str, str]] = ..., influence: _Optional[_Mapping[str, TwilightStruggleInfluence]] = ..., deck_size: _Optional[int] = ..., discard: _Optional[_Iterable[str]] = ..., removed: _Optional[_Iterable[str]] = ..., effects: _Optional[_Iterable[str]] = ..., events_played: _Optional[_Iterable[str]] = ..., history: _Optional[_Iterable[_Union[HistoryEntry, _Mapping]]] = ..., history_from: _Optional[int] = ..., chinese_civil_war: _Optional[int] = ..., opponent_hand: _Optional[_Iterable[str]] = ..., rules: _Optional[_Union[TwilightStruggleRules, _Mapping]] = ..., control: _Optional[_Mapping[str, str]] = ..., event_card: _Optional[str] = ..., event_side: _Optional[str] = ...) -> None: ...

class TwilightStruggleRules(_message.Message):
    __slots__ = ("ruleset", "optional_cards", "chinese_civil_war", "bid_side", "bid", "end_turn")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_CARDS_FIELD_NUMBER: _ClassVar[int]
    CHINESE_CIVIL_WAR_FIELD_NUMBER: _ClassVar[int]
    BID_SIDE_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    optional_cards: bool
    chinese_civil_war: bool
    bid_side: str
    bid: int
    end_turn: int
    def __init__(self, ruleset: _Optional[str] = ..., optional_cards: _Optional[bool] = ..., chinese_civil_war: _Optional[bool] = ..., bid_side: _Optional[str] = ..., bid: _Optional[int] = ..., end_turn: _Optional[int] = ...) -> None: ...

class TwilightStruggleChinaCard(_message.Message):
    __slots__ = ("holder", "face_up")
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    holder: str
    face_up: bool
    def __init__(self, holder: _Optional[str] = ..., face_up: _Optional[bool] = ...) -> None: ...

class TwilightStruggleInfluence(_message.Message):
    __slots__ = ("us", "ussr")
    US_FIELD_NUMBER: _ClassVar[int]
    USSR_FIELD_NUMBER: _ClassVar[int]
    us: int
    ussr: int
    def __init__(self, us: _Optional[int] = ..., ussr: _Optional[int] = ...) -> None: ...
