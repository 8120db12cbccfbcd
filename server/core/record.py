"""Match records: the replayable truth of a match, one JSON object per line (JSONL).

* header: ``{"type": "header", "format", "game", "rules_version", "ruleset", "options", "roles":
  {role: bot}, "seed", "code_version", "match_id"}``, and ``"position"`` (a position dict,
  docs/positions.md) for a match that started from a set-up position instead of the deal
* one line per decision, chance included: ``{"type": "decision", "n", "role", "step", "key"}`` plus
  optional timing (``think_ms``, ``rtt_ms``) and ``fault`` fields that replay ignores
* footer: ``{"type": "outcome", "winner", "scores", "termination", "reason", "faults"}``

This module only turns records into lines and back and replays them; writing files is the
referee's business (the engine does no I/O).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .game import Decision, Game, IllegalOption, Option, Outcome, RulesError
from .position import PositionError, load_for

RECORD_FORMAT = "standoff-record/1"


class ReplayError(ValueError):
    """A record that does not replay: unknown game, malformed line, or a key that is not legal."""


@dataclass
class Record:
    """A match record in memory."""

    header: dict[str, Any]
    moves: list[dict[str, Any]] = field(default_factory=list)
    footer: dict[str, Any] | None = None

    def keys(self) -> list[str]:
        """The option keys in order: with the header, all a replay needs."""
        return [move["key"] for move in self.moves]

    def lines(self) -> Iterator[str]:
        """The record as JSONL lines (without newlines)."""
        yield dump_line(self.header)
        for move in self.moves:
            yield dump_line(move)
        if self.footer is not None:
            yield dump_line(self.footer)


def make_header(
    game: Game,
    rules: Any,
    seed: int,
    bots: dict[str, str],
    *,
    match_id: str = "",
    code_version: str = "",
    position: dict[str, Any] | None = None,
) -> dict[str, Any]:
    header = {
        "type": "header",
        "format": RECORD_FORMAT,
        "game": game.name,
        "rules_version": game.rules_version,
        "ruleset": rules.ruleset,
        "options": dict(rules.options),
        "roles": dict(bots),
        "seed": seed,
        "code_version": code_version,
        "match_id": match_id,
    }
    if position is not None:
        header["position"] = position
    return header


def start_state(game: Game, rules: Any, header: dict[str, Any]) -> Any:
    """The state a match of ``header`` starts from: the deal (``new_state``), or the header's
    ``position``, whose rules must be the header's. Raises :class:`ReplayError`."""
    position = header.get("position")
    if position is None:
        return game.new_state(rules)
    if not isinstance(position, dict):
        raise ReplayError("record header: 'position' must be a position object")
    try:
        state = load_for(game, position)
    except PositionError as exc:
        raise ReplayError(f"record header: position: {exc}") from None
    mine = (state.rules.ruleset, dict(state.rules.options))
    if mine != (rules.ruleset, dict(rules.options)):
        raise ReplayError("record header: the position's ruleset and options differ from the header's")
    return state


def move_line(number: int, role: str, step: str, key: str, **extra: Any) -> dict[str, Any]:
    line = {"type": "decision", "n": number, "role": role, "step": step, "key": key}
    line.update(extra)
    return line


def outcome_line(outcome: Outcome, roles: tuple[str, ...], **extra: Any) -> dict[str, Any]:
    line = {
        "type": "outcome",
        "winner": outcome.winner,
        "scores": dict(zip(roles, outcome.scores, strict=True)),
        "termination": outcome.termination,
        "reason": outcome.reason,
    }
    line.update(extra)
    return line


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dump_line(obj: dict[str, Any]) -> str:
    """One record line: compact JSON (one shared encoder: ``json.dumps`` with arguments builds
    a new one per call, which shows on a record line per decision)."""
    return _ENCODER.encode(obj)


def parse_record(lines: Iterable[str]) -> Record:
    """Parse JSONL lines into a :class:`Record`; raise :class:`ReplayError` naming the bad line."""
    header: dict[str, Any] | None = None
    record: Record | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise ReplayError(f"line {number}: expected a JSON object with a 'type'")
        kind = obj["type"]
        if header is None:
            if kind != "header":
                raise ReplayError(f"line {number}: a record starts with its header")
            if obj.get("format") != RECORD_FORMAT:
                raise ReplayError(
                    f"line {number}: unsupported record format {obj.get('format')!r}"
                    f" (expected {RECORD_FORMAT!r})"
                )
            _check_header(obj, number)
            header = obj
            record = Record(header)
        elif kind == "decision":
            assert record is not None
            if record.footer is not None:
                raise ReplayError(f"line {number}: decision after the outcome line")
            if not isinstance(obj.get("key"), str):
                raise ReplayError(f"line {number}: decision without a string 'key'")
            record.moves.append(obj)
        elif kind == "outcome":
            assert record is not None
            record.footer = obj
        else:
            raise ReplayError(f"line {number}: unknown line type {kind!r}")
    if record is None:
        raise ReplayError("empty record: no header line")
    return record


#: Header fields a replay reads, with their JSON types.
_HEADER_FIELDS = (("game", str, "a string"), ("ruleset", (str, type(None)), "a string"),
                  ("options", (dict, type(None)), "an object"), ("roles", (dict, type(None)), "an object"),
                  ("position", (dict, type(None)), "an object"))


def _check_header(header: dict[str, Any], number: int) -> None:
    """Fields of the wrong JSON type (a missing one is reported where it is needed)."""
    for name, kinds, what in _HEADER_FIELDS:
        if name in header and not isinstance(header[name], kinds):
            raise ReplayError(f"line {number}: the header's {name!r} must be {what}, got {header.get(name)!r}")
    for field in ("options", "roles"):
        for key, value in (header.get(field) or {}).items():
            if not isinstance(value, str):
                raise ReplayError(f"line {number}: the header's {field}[{key!r}] must be a string, got {value!r}")


class ReplayStep(NamedTuple):
    """One replayed decision: the decision as it was asked, the option chosen, its index, and the
    state *after* applying it (the live replay state: copy it to keep it)."""

    number: int
    decision: Decision
    index: int
    option: Option
    state: Any


def replay_steps(game: Game, record: Record) -> Iterator[ReplayStep]:
    """Rebuild every state of ``record``. Raises :class:`ReplayError` on any key that is not an
    option of the pending decision, a role/step mismatch, or moves past the end of the match."""
    header = record.header
    if header.get("game") != game.name:
        raise ReplayError(f"record is for game {header.get('game')!r}, not {game.name!r}")
    try:
        rules = game.rules(header.get("ruleset"), header.get("options") or {})
    except RulesError as exc:
        raise ReplayError(f"record header: {exc}") from None
    state = start_state(game, rules, header)
    for number, move in enumerate(record.moves, start=1):
        decision = game.decision(state)
        if decision is None:
            raise ReplayError(f"move {number}: the match was already over")
        if move.get("role", decision.role) != decision.role or move.get(
            "step", decision.step
        ) != decision.step:
            raise ReplayError(
                f"move {number}: record says {move.get('role')}/{move.get('step')}, "
                f"the game asks {decision.role}/{decision.step}"
            )
        try:
            index = decision.index_of(move["key"])
        except IllegalOption as exc:
            raise ReplayError(f"move {number}: {exc}") from None
        option = decision.options[index]
        game.apply(state, option)
        yield ReplayStep(number, decision, index, option, state)


def replay(game: Game, record: Record) -> Any:
    """Replay ``record`` and return the final state. If the record has an outcome line, the
    replayed outcome must match it (a match the referee stopped early, e.g. by forfeit, must
    replay to a state that is not over yet)."""
    state = None
    for step in replay_steps(game, record):
        state = step.state
    if state is None:  # no moves at all
        rules = game.rules(record.header.get("ruleset"), record.header.get("options"))
        state = start_state(game, rules, record.header)
    footer = record.footer
    if footer is None:
        return state
    outcome = game.outcome(state)
    if outcome is None:
        if footer.get("termination") not in REFEREE_TERMINATIONS:
            raise ReplayError("record ends before the match is over")
    elif (outcome.winner, outcome.termination) != (footer.get("winner"), footer.get("termination")):
        raise ReplayError(
            f"replayed outcome {outcome.winner}/{outcome.termination} differs from the "
            f"record's {footer.get('winner')}/{footer.get('termination')}"
        )
    return state


#: Terminations decided by the referee rather than the rules (the match stops mid-game).
REFEREE_TERMINATIONS = frozenset(
    {"forfeit", "timeout", "illegal_choice", "disconnect", "crash", "aborted", "error", "shutdown", "not_played",
     "stopped"}
)
