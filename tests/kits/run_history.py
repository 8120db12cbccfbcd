"""A seeded random run history, for the tests of the run folder's index and of the ratings
computed from aggregates: results as a ladder open to submissions writes them (entrants joining
late, paired legs and unpaired games, a few three-seat matches, draws, forfeits with faults,
fallbacks, matches not played or ended by an error, a paired leg whose partner never came), and,
on request, a run folder of them (a chained ``results.jsonl`` and a record per match that agrees
with its line) without playing anything.
"""

from __future__ import annotations

import random
from pathlib import Path

from standoff.server.core.record import RECORD_FORMAT
from standoff.server.ledger import LedgerWriter, digests
from standoff.server.records import RecordWriter
from standoff.tournaments.model import Result

NAMES = ["greedy", "random", "alice@1", "bob@1", "carol@2", "dave@1", "eve@3"]


def _outcome(rng: random.Random, seats: dict[str, str]) -> dict:
    roles = list(seats)
    roll = rng.random()
    if roll < 0.05:
        return dict(played=False, winner_role=None, scores=dict.fromkeys(roles, 0.0), termination="not_played",
                    reason="never connected")
    if roll < 0.08:
        return dict(played=False, winner_role=None, scores=dict.fromkeys(roles, 0.0), termination="error",
                    reason="engine error")
    if roll < 0.25:
        share = 1.0 / len(roles)
        return dict(played=True, winner_role=None, scores=dict.fromkeys(roles, share), termination="stalemate",
                    reason="draw")
    winner = rng.choice(roles)
    if roll < 0.35:  # a forfeit: someone else timed out
        loser = rng.choice([r for r in roles if r != winner])
        scores = {r: 0.0 if r == loser else (1.0 if len(roles) == 2 else 0.5) for r in roles}
        if len(roles) > 2:
            winner = None
        return dict(played=True, winner_role=winner, scores=scores, termination="forfeit",
                    reason=f"{loser} timed out", faults={loser: {"timeout": rng.randint(1, 3)}})
    return dict(played=True, winner_role=winner, scores={r: 1.0 if r == winner else 0.0 for r in roles},
                termination="breakthrough", reason="won")


def history(seed: int, rounds: int = 12) -> list[Result]:
    """The results of ``rounds`` ladder rounds (canonical order, indices unique)."""
    rng = random.Random(seed)
    results: list[Result] = []
    entrants = NAMES[:3]
    for number in range(1, rounds + 1):
        if number in (3, 6, 9) and len(entrants) < len(NAMES):
            entrants = NAMES[: len(entrants) + 1 + (number == 6)]  # submissions join late
        for i, a in enumerate(entrants):
            for b in entrants[i + 1:]:
                paired = rng.random() < 0.7
                for game in range(2):
                    index = len(results)
                    seats = {"p1": a, "p2": b} if game == 0 else {"p1": b, "p2": a}
                    pair = (index - game) if paired else None  # the first leg's index: unique
                    if paired and game == 1 and rng.random() < 0.08:
                        continue  # a leg that never came: its partner waits for ever
                    results.append(_result(rng, index, number, seats, pair, game if paired else 0))
        if number % 4 == 0 and len(entrants) >= 3:  # a three-seat match now and then
            seats = dict(zip(("p1", "p2", "p3"), rng.sample(entrants, 3)))
            results.append(_result(rng, len(results), number, seats, None, 0))
    return results


def _result(rng: random.Random, index: int, number: int, seats: dict[str, str], pair: int | None,
            leg: int) -> Result:
    outcome = _outcome(rng, seats)
    winner_role = outcome["winner_role"]
    fallbacks = {rng.choice(list(seats)): rng.randint(1, 2)} if rng.random() < 0.05 else {}
    match_id = f"r{number:02d}-{index:06d}"
    return Result(index=index, match_id=match_id, round=number, seed=rng.getrandbits(62), seats=seats,
                  played=outcome["played"], winner=seats[winner_role] if winner_role else None,
                  winner_role=winner_role, scores=outcome["scores"], termination=outcome["termination"],
                  reason=outcome["reason"], faults=outcome.get("faults", {}), pair=pair, leg=leg,
                  records={f"{match_id}.jsonl": ""}, fallbacks=fallbacks)


def write_record(records: Path, result: Result) -> None:
    """A record that says what ``result`` says (header and outcome line; no decisions: it is
    never replayed here)."""
    with RecordWriter(records / f"{result.match_id}.jsonl") as writer:
        writer.write({"type": "header", "format": RECORD_FORMAT, "game": "schotten-totten", "seed": result.seed,
                      "roles": result.seats})
        writer.write({"type": "outcome", "termination": result.termination, "winner": result.winner_role,
                      "scores": result.scores, "reason": result.reason})


def write_run(folder: Path, results: list[Result], *, config: dict | None = None) -> Path:
    """A run folder holding ``results`` as a run writes them: records, chained results.jsonl
    (in one append), config.json (``config``, if given)."""
    import json

    records = folder / "records"
    records.mkdir(parents=True, exist_ok=True)
    ledger = LedgerWriter(folder / "results.jsonl")
    text = []
    for result in results:
        write_record(records, result)
        result.records = digests(records, result.records)
        text.append(ledger.text(result.to_json()))
    ledger.append("".join(text))
    ledger.close()
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config, sort_keys=True, indent=2) + "\n")
    return folder
