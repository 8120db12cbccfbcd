"""Test kit: a server's data folder with N finished matches, written fast without playing them.

:func:`write_finished_matches` writes what ``standoff serve`` leaves after N matches (a record
per match in ``records/``, one chained line per match in ``matches.jsonl``) with the project's
own writers (:func:`~standoff.server.records.write_record`, :class:`~standoff.server.ledger.LedgerWriter`,
:func:`~standoff.server.archive.ledger_line`). The records hold a header and an outcome line and
no decisions: they pass every check a start makes (digests, the line against its record) and
``standoff verify --no-replay``, not a replay. Seeded: the same call writes the same folder.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from standoff.server.archive import ledger_line
from standoff.server.core.game import Outcome
from standoff.server.core.record import Record, make_header, outcome_line
from standoff.server.ledger import LedgerWriter, record_digest
from standoff.server.match_index import LEDGER_NAME
from standoff.server.plugins import load_registry
from standoff.server.records import read_record, write_record

GAMES = ("schotten-totten", "twilight-struggle")
BOTS = ("greedy", "random", "remote:alice", "remote:bob", "carol@1.0")
#: Terminations drawn (the unrated ones count for nobody in the standings).
TERMINATIONS = ("breakthrough", "envelopment", "stalemate", "forfeit", "not_played", "error", "shutdown")
START_MS = 1_700_000_000_000


@dataclass
class Written:
    match_id: str
    game: str
    seats: dict[str, str]
    termination: str
    scores: dict[str, float]
    finished_ms: int | None


def finished_record(data: Path, match_id: str, game_name: str, seats: dict[str, str], seed: int,
                    termination: str, winner: str | None, *, footer: bool = True) -> Path:
    """``records/<match_id>.jsonl``: header, then (``footer``) the outcome line."""
    game = load_registry(entry_points=False).games[game_name]
    rules = game.rules(None, {})
    roles = tuple(seats)
    if termination in ("not_played", "error", "shutdown"):
        outcome = Outcome(None, tuple(0.0 for _ in roles), termination, "no result")
    elif winner is None:
        outcome = Outcome(None, tuple(0.5 for _ in roles), "stalemate", "a draw")
    else:
        outcome = Outcome.win(roles, winner, termination, f"{winner} won")
    path = data / "records" / f"{match_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = Record(make_header(game, rules, seed, seats, match_id=match_id),
                    footer=outcome_line(outcome, roles, faults={}) if footer else None)
    write_record(path, record)
    return path


def write_finished_matches(data: Path, count: int, *, seed: int = 1, first: int = 0, ledger: bool = True,
                           start_ms: int | None = START_MS) -> list[Written]:
    """Write ``count`` finished matches into the data folder ``data`` (appending to a ledger
    already there), match ids ``m000000``... from ``first``, finished one second apart from
    ``start_ms`` (None: lines without times, as written before the index); returns what was
    written, in ledger order. ``ledger=False``: records only (a folder whose ledger a kill left
    behind)."""
    rng = random.Random(seed)
    registry = load_registry(entry_points=False)
    writer = LedgerWriter(data / LEDGER_NAME) if ledger else None
    written, texts = [], []
    try:
        for i in range(first, first + count):
            game_name = rng.choice(GAMES)
            roles = registry.games[game_name].rules(None, {}).roles
            seats = {role: rng.choice(BOTS) for role in roles}
            termination = rng.choice(TERMINATIONS)
            winner = None if termination == "stalemate" else rng.choice(roles)
            match_id = f"m{i:06d}"
            path = finished_record(data, match_id, game_name, seats, rng.randrange(1, 2**62), termination, winner)
            footer = read_record(path).footer  # as written, for the line
            finished_ms = None if start_ms is None else start_ms + 1000 * i
            if writer is not None:
                line = ledger_line(match_id, game_name, registry.games[game_name].rules(None, {}).ruleset, seats,
                                   footer, path.name, record_digest(path), None, finished_ms or 0)
                if finished_ms is None:
                    del line["finished_ms"]
                else:
                    line["started_ms"] = finished_ms - 500
                texts.append(writer.text(line))
            written.append(Written(match_id, game_name, seats, footer["termination"], dict(footer["scores"]),
                                   finished_ms))
        if writer is not None:
            writer.append("".join(texts))  # one fsync
    finally:
        if writer is not None:
            writer.close()
    return written
