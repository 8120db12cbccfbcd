"""``standoff verify``: check that a run's results (or a server's) are what its records say.

Two kinds of folders hold a ledger (:mod:`standoff.server.ledger`) next to ``records/``:

* a tournament run folder: ``results.jsonl`` (one line per match, see
  :mod:`standoff.tournaments.model`);
* a server's data folder: ``matches.jsonl`` (one line per finished match, written by the
  referee of ``standoff serve``).

:func:`verify_folder` checks, line by line, and stops at the first problem
(:class:`VerifyError` naming the file and line):

1. the hash chain (``prev``), so an edited, removed or inserted line shows;
2. every record the line names exists and has the digest the line gives;
3. with ``replay`` (the default), every record replays by the rules (every key legal at its
   decision, the rules' outcome equal to the record's; a match the referee stopped must still be
   going on);
4. the line says what its records say: termination, winner, scores, seats (a multi-game match:
   every game's winner, termination and points, and the match result from their totals).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Any

from .specs import capability
from .core.game import UNRATED_TERMINATIONS
from .core.record import ReplayError, replay
from .ledger import LedgerError, read_chain, record_digest
from .records import read_record

#: A multi-game match: a game's winner scores this many points (tournaments/series.py).
_WIN_POINTS = 5
_SCORE_TOLERANCE = 1e-9


class VerifyError(ValueError):
    """The first problem found; the message is one line naming the file and line."""


@dataclass
class VerifyReport:
    ledger: Path
    lines: int
    records: int
    replayed: int
    unreferenced: list[str]  # record files no line names (matches of a run still going on)

    def summary(self) -> str:
        how = f"{self.replayed} replayed" if self.replayed else "not replayed (--no-replay)"
        extra = f"; {len(self.unreferenced)} records no line names yet" if self.unreferenced else ""
        return f"{self.ledger}: {self.lines} lines, chain intact; {self.records} records, digests match, {how}{extra}"


def ledger_of(folder: Path) -> Path:
    """The ledger of ``folder``: ``results.jsonl`` (a tournament run) or ``matches.jsonl`` (a
    server's data folder). ``VerifyError`` if it has neither."""
    for name in ("results.jsonl", "matches.jsonl"):
        if (folder / name).is_file():
            return folder / name
    raise VerifyError(f"{folder}: no results.jsonl (a tournament run folder) or matches.jsonl (a server's data folder)")


def verify_folder(folder: str | Path, *, registry: Any = None, replay_records: bool = True) -> VerifyReport:
    """Verify the ledger of ``folder`` against its records; see the module docstring."""
    folder = Path(folder)
    if not folder.is_dir():
        raise VerifyError(f"{folder}: no such folder")
    ledger = ledger_of(folder)
    if registry is None and replay_records:
        from .plugins import load_registry

        registry = load_registry()
    checker = LineChecker(folder / "records", registry, replay_records)
    lines = 0
    try:
        for number, line in read_chain(ledger):
            lines += 1
            checker.check(ledger, number, line)
    except LedgerError as exc:
        raise VerifyError(str(exc)) from None
    on_disk = sorted(p.name for p in (folder / "records").glob("*.jsonl")) if (folder / "records").is_dir() else []
    unreferenced = [name for name in on_disk if name not in checker.seen]
    return VerifyReport(ledger, lines, len(checker.seen), checker.replayed, unreferenced)


def _text(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return f"cannot read {exc.filename}: {exc.strerror or exc}"
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)


class LineChecker:
    """Checks ledger lines one at a time against ``records`` (points 2 to 4 of the module
    docstring; the chain is :func:`~.ledger.read_chain`'s). :func:`verify_folder` runs it over
    every line; a server's start (:mod:`.match_index`) over the lines appended since its index's
    last point, without replay. ``headers``: the record headers of the line checked last.
    ``named_before(name)``: for a check that starts after a point, whether a line before the
    point already names the record ``name`` (the index knows; those lines are not read again)."""

    def __init__(self, records: Path, registry: Any = None, replay_records: bool = False, *,
                 named_before: Callable[[str], bool] | None = None) -> None:
        self.records = records
        self.named_before = named_before
        self.registry = registry
        self.replay = replay_records
        self.replayed = 0
        self.seen: set[str] = set()
        self.headers: dict[str, dict[str, Any]] = {}

    def check(self, ledger: Path, number: int, line: dict[str, Any]) -> None:
        """Check line ``number`` of ``ledger``; :class:`VerifyError` naming it if it fails."""
        try:
            self.line(line)
        except (LedgerError, ReplayError, OSError, KeyError, TypeError, ValueError) as exc:
            raise VerifyError(f"{ledger}: line {number} ({line.get('match_id', '?')}): {_text(exc)}") from None

    def line(self, line: dict[str, Any]) -> None:
        self.headers = {}
        names = line["records"]
        if not isinstance(names, dict) or not names:
            raise LedgerError("names no record")
        finals = {}
        for name, digest in names.items():
            if Path(name).name != name or not name.endswith(".jsonl"):
                raise LedgerError(f"record name {name!r} is not a file of records/")
            if name in self.seen or (self.named_before is not None and self.named_before(name)):
                raise LedgerError(f"record {name} is named by an earlier line too")
            self.seen.add(name)
            if record_digest(self.records / name) != digest:
                raise LedgerError(f"record {name} does not match its digest (the record or the line was changed)")
            finals[name] = self._record(name, line)
        if line.get("games"):
            self._series(line, finals)
        elif len(finals) != 1:
            raise LedgerError(f"a one-game match names {len(finals)} records")
        else:
            name, (footer, _) = next(iter(finals.items()))
            self._same_result(line, footer, name)

    def _record(self, name: str, line: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """The record's outcome line and replayed final state (None without replay)."""
        record = read_record(self.records / name)
        self.headers[name] = record.header
        if record.footer is None:
            raise LedgerError(f"record {name} has no outcome line")
        roles = record.header.get("roles") or {}
        if roles != line["seats"]:
            raise LedgerError(f"record {name} seats {roles} but the line says {line['seats']}")
        state = None
        if self.replay:
            game = self.registry.games.get(record.header.get("game"))
            if game is None:
                raise LedgerError(f"record {name} is of game {record.header.get('game')!r}, which is not installed")
            try:
                state = replay(game, record)
            except ReplayError as exc:
                raise ReplayError(f"record {name} does not replay: {exc}") from None
            self.replayed += 1
        return record.footer, (state, record)

    def _same_result(self, line: dict[str, Any], footer: dict[str, Any], name: str) -> None:
        winner_role = line.get("winner_role", line.get("winner"))
        if footer.get("termination") != line["termination"]:
            raise LedgerError(
                f"termination {line['termination']!r} but record {name} says {footer.get('termination')!r}"
            )
        if (footer.get("winner") or None) != (winner_role or None):
            raise LedgerError(f"winner {winner_role!r} but record {name} says {footer.get('winner')!r}")
        _same_scores(line["scores"], footer.get("scores") or {}, f"record {name}")
        self._consistent(line, winner_role)

    def _consistent(self, line: dict[str, Any], winner_role: str | None) -> None:
        if "played" in line and line["played"] != (line["termination"] not in UNRATED_TERMINATIONS):
            raise LedgerError(f"played is {line['played']} for termination {line['termination']!r}")
        if "winner_role" in line:
            expected = line["seats"].get(winner_role) if winner_role else None
            if line.get("winner") != expected:
                raise LedgerError(f"winner {line.get('winner')!r} does not sit in role {winner_role!r}")

    def _series(self, line: dict[str, Any], finals: dict[str, Any]) -> None:
        match_id = line["match_id"]
        roles = list(line["seats"])
        totals = dict.fromkeys(roles, 0)
        for game in line["games"]:
            name = f"{match_id}-g{game['game']}.jsonl"
            if name not in finals:
                raise LedgerError(f"game {game['game']} has no record {name} in the line")
            footer, (state, record) = finals[name]
            if (footer.get("winner") or None, footer.get("termination")) != (game.get("winner") or None, game.get("termination")):
                raise LedgerError(f"game {game['game']}: the line says {game.get('winner')}/{game.get('termination')}, "
                                  f"record {name} says {footer.get('winner')}/{footer.get('termination')}")
            if state is not None:
                claimed = capability(self.registry.games[record.header["game"]], "flags_claimed")
                claimed = claimed(state) if claimed is not None else {}
                points = {r: _WIN_POINTS if r == footer.get("winner") else claimed.get(r, 0) for r in roles}
                if points != game.get("points"):
                    raise LedgerError(f"game {game['game']}: points {game.get('points')} but the replay gives {points}")
            for role in roles:
                totals[role] += game["points"][role]
        if line["termination"] in UNRATED_TERMINATIONS:
            last = max(finals, key=lambda n: int(n.rsplit("-g", 1)[1].split(".")[0]))
            self._same_result(line, finals[last][0], last)
            return
        best = max(totals.values())
        leaders = [r for r in roles if totals[r] == best]
        winner_role = leaders[0] if len(leaders) == 1 else None
        scores = ({r: 1.0 if r == winner_role else 0.0 for r in roles} if winner_role
                  else {r: (1.0 / len(leaders) if r in leaders else 0.0) for r in roles})
        if (line.get("winner_role") or None) != winner_role:
            raise LedgerError(f"winner {line.get('winner_role')!r} but the games' points {totals} give {winner_role!r}")
        _same_scores(line["scores"], scores, "the games' points")
        self._consistent(line, winner_role)


def _same_scores(line: dict[str, Any], other: dict[str, Any], what: str) -> None:
    if set(line) != set(other) or any(abs(float(line[r]) - float(other[r])) > _SCORE_TOLERANCE for r in line):
        raise LedgerError(f"scores {line} but {what} says {other}")

