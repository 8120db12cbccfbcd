"""The values a bot receives, decoded from the wire (``standoff.v1``).

Remote bots (through :func:`standoff.sdk.run`) and in-process plugin bots get the same objects,
decoded from the same bytes, so a bot behaves identically in both places.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from standoff.v1 import referee_pb2 as pb

from .core.game import UNRATED_TERMINATIONS
from .codec_table import decode_view
from .codecs import varint
from .forward_model import SimulationError as SimulationError  # re-exported (sdk.types)


@dataclass(frozen=True, slots=True)
class Option:
    """One choice: ``key`` is stable (``card:red-5``, ``flag:4``, ``done``), ``label`` is for humans."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Decision:
    """What the referee asks: answer with an index into ``options``."""

    match_id: str
    decision_id: int
    role: str
    step: str
    prompt: str
    options: tuple[Option, ...]
    #: milliseconds left on each role's clock before this decision (empty without clocks)
    clocks: dict[str, int] = field(default_factory=dict)
    attempt: int = 0

    def index_of(self, key: str) -> int:
        """Index of the option with ``key``; ``ValueError`` if there is none."""
        for i, option in enumerate(self.options):
            if option.key == key:
                return i
        raise ValueError(f"{key!r} is not an option of step {self.step!r}")

    def keys(self) -> list[str]:
        return [option.key for option in self.options]


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match this bot is seated in."""

    match_id: str
    game: str
    rules_version: str
    ruleset: str
    options: dict[str, str]
    role: str
    seats: dict[str, str]  # role -> bot name
    seed: int
    bank_ms: int = 0
    increment_ms: int = 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    match_id: str
    winner: str | None
    scores: dict[str, float]
    termination: str
    reason: str
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # role -> kind -> count
    role: str = ""  # the seat this result was sent to (a session may hold several seats)

    @property
    def rated(self) -> bool:
        """False for the terminations that are no result (``not_played``, ``error``,
        ``shutdown``): scores are then all 0 and the match counts for nobody."""
        return self.termination not in UNRATED_TERMINATIONS


_OPTIONS: dict[tuple[str, str], Option] = {}


def _new_option(key: tuple[str, str]) -> Option:
    """``Option(*key)``, memoised (see :func:`decode_decision`)."""
    if len(_OPTIONS) >= 100_000:
        _OPTIONS.clear()
    found = _OPTIONS[key] = Option(*key)
    return found


def decode_decision(msg: pb.Decision, with_view: bool = True) -> tuple[Decision, Any]:
    """A wire ``Decision`` as the bot sees it: ``(decision, view)`` where ``view`` is the typed
    view of the game (a built-in game's member message of ``View``; for a game plugin its own message
    where the plugin is installed, else the engine-style dict: :func:`standoff.sdk.views.decode_view`),
    or ``None`` if none was sent (or ``with_view`` is false: a bot that reads no view)."""
    # On the path of every remote decision (inside the referee's clock): options are memoised,
    # as a game offers the same ones again and again and a frozen dataclass is slow to build
    # (options are immutable: sharing them is safe); each wire field is read once.
    known = _OPTIONS.get
    options = []
    for o in msg.options:
        key = (o.key, o.label)
        options.append(known(key) or _new_option(key))
    clocks = msg.clocks
    decision = Decision(
        msg.match_id,
        msg.decision_id,
        msg.role,
        msg.step,
        msg.prompt,
        tuple(options),
        {c.role: c.time_left_ms for c in clocks} if clocks else {},
        msg.attempt,
    )
    return decision, decode_view(msg.view) if with_view else None


class HistoryBook:
    """Completes incremental view histories.

    The referee sends each seat only the history entries it has not had (``history_from`` > 0).
    The book keeps every match's history and fills it into each view, so that a bot always sees
    the whole history (``history_from == 0``), exactly as if it had been sent in full. Works on
    typed views (messages with ``history`` and ``history_from`` fields) and on dict views (a
    game plugin's view decoded from JSON: ``history`` is a list of ``[number, role, step, key]``).

    A typed view's history is kept as its wire bytes (:class:`_WireHistory`) and parsed back into
    each view in one call: copying the entries message by message cost far more, and grew with
    the match (the whole history is filled in at every decision).
    """

    def __init__(self) -> None:
        self._books: dict[str, Any] = {}

    def complete(self, match_id: str, view: Any) -> None:
        if isinstance(view, dict):
            self._complete_dict(match_id, view)
            return
        if view is None or not hasattr(view, "history_from"):
            return
        book = self._books.get(match_id)
        if book is None or book.type is not type(view):
            book = self._books[match_id] = _WireHistory(type(view))
        start = view.history_from
        book.record(view.history, start)
        if start:
            view.ClearField("history")
            view.MergeFromString(book.data)
            view.history_from = 0

    def _complete_dict(self, match_id: str, view: dict[str, Any]) -> None:
        history = view.get("history")
        if not isinstance(history, list):
            return
        book = self._books.get(match_id)
        if not isinstance(book, list):
            book = self._books[match_id] = []
        start = view.get("history_from") or 0
        if start == 0:
            book[:] = history
        else:
            keep = len(book)
            while keep and book[keep - 1][0] > start:
                keep -= 1
            del book[keep:]
            book.extend(history)
            view["history"] = list(book)
            view["history_from"] = 0

    def forget(self, match_id: str) -> None:
        self._books.pop(match_id, None)


class _WireHistory:
    """One seat's history for a typed view type: the serialised ``history`` field (one
    length-delimited record per entry, as the field is encoded inside the view) and each entry's
    number and offset, to drop the entries a resend replaces."""

    __slots__ = ("type", "tag", "data", "numbers", "offsets")

    def __init__(self, view_type: type) -> None:
        self.type = view_type
        number = view_type.DESCRIPTOR.fields_by_name["history"].number
        self.tag = varint(number << 3 | 2)  # wire type 2: length-delimited
        self.data = b""
        self.numbers: list[int] = []
        self.offsets: list[int] = []

    def record(self, entries: Any, start: int) -> None:
        """Keep the entries numbered up to ``start`` and append ``entries`` (all of them when
        ``start`` is 0)."""
        numbers, offsets = self.numbers, self.offsets
        if start == 0:
            keep = 0
        else:
            keep = len(numbers)
            while keep and numbers[keep - 1] > start:
                keep -= 1
        if keep < len(numbers):
            self.data = self.data[: offsets[keep]] if keep else b""
            del numbers[keep:], offsets[keep:]
        if not entries:
            return
        tag, offset = self.tag, len(self.data)
        chunks = [self.data]
        for entry in entries:
            body = entry.SerializeToString()
            record = tag + varint(len(body)) + body
            numbers.append(entry.number)
            offsets.append(offset)
            offset += len(record)
            chunks.append(record)
        self.data = b"".join(chunks)


def decode_match_started(msg: pb.MatchStarted) -> MatchInfo:
    return MatchInfo(
        match_id=msg.match_id,
        game=msg.game,
        rules_version=msg.rules_version,
        ruleset=msg.ruleset,
        options=dict(msg.options),
        role=msg.role,
        seats={s.role: s.bot for s in msg.seats},
        seed=msg.seed,
        bank_ms=msg.time_control.bank_ms,
        increment_ms=msg.time_control.increment_ms,
    )


def decode_match_ended(msg: pb.MatchEnded) -> MatchResult:
    faults: dict[str, dict[str, int]] = {}
    for f in msg.faults:
        faults.setdefault(f.role, {})[f.kind] = f.count
    return MatchResult(
        match_id=msg.match_id,
        winner=msg.winner or None,
        scores={s.role: s.score for s in msg.scores},
        termination=msg.termination,
        reason=msg.reason,
        faults=faults,
        role=msg.role,
    )
