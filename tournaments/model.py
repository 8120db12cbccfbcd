"""The values a tournament is made of: what to play (:class:`MatchSpec`) and what happened
(:class:`Result`). Results are the only truth: Elo logs, ratings and tables are recomputed from
them.

A result is one line of ``results.jsonl``::

    {"index": 12, "match_id": "r01-000012", "round": 1, "seed": 123, "pair": 6, "leg": 0,
     "seats": {"p1": "greedy", "p2": "random"}, "played": true,
     "winner": "greedy", "winner_role": "p1", "scores": {"p1": 1.0, "p2": 0.0},
     "termination": "breakthrough", "reason": "...", "faults": {"p2": {"timeout": 1}},
     "fallbacks": {"p1": 2},    # only when a bot fell back after an internal error
     "games": [...],            # multi-game matches only: one entry per game
     "records": {"r01-000012.jsonl": "<sha256>"}, "prev": "<sha256 of the line before>"}

``seats`` maps roles to entrant names; ``scores`` are per role (1 win, 0 loss; a draw shares the
point: 0.5 each with two roles, 1/3 each with three; for a multi-game match, the match score
shares). ``fallbacks`` counts, per role, the fallbacks an in-process bot took after an internal
error of its own (:meth:`standoff.sdk.Bot.count_fallback`; summed over the games of a
multi-game match); it is present only when some count is not zero, so a tournament without
fallbacks writes the same lines as before it existed. A remote bot's fallbacks are not seen.
``played`` is false for a match without a result: termination ``not_played`` (a remote entrant
never connected) or ``error`` (an engine or referee error ended it; never a bot's fault): it is
kept in the file but counts for nobody. ``records`` maps the record files the result stands on to
their digests, and ``prev`` (added by the writer) is the SHA-256 of the line before: see
:mod:`standoff.tournaments.ledger`. Ratings see a match of more than two
seats as its pairwise games (:meth:`Result.pairwise`; the choice is explained in
:mod:`standoff.tournaments.report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MatchSpec:
    """One match to play, in canonical order (``index``)."""

    index: int
    match_id: str
    round: int
    seats: tuple[str, ...]  # entrant per role, in role order
    seed: int
    pair: int | None = None  # the paired-seed group: both legs share seed and pair
    leg: int = 0
    position: int | None = None  # index into the config's start positions (None: the deal)

    @property
    def entrants(self) -> tuple[str, ...]:
        return self.seats


@dataclass
class Result:
    """What happened in one match (see the module docstring for the JSON form)."""

    index: int
    match_id: str
    round: int
    seed: int
    seats: dict[str, str]
    played: bool
    winner: str | None
    winner_role: str | None
    scores: dict[str, float]
    termination: str
    reason: str
    faults: dict[str, dict[str, int]] = field(default_factory=dict)
    pair: int | None = None
    leg: int = 0
    games: list[dict[str, Any]] = field(default_factory=list)
    #: The record files this result stands on (file name -> digest, see
    #: :func:`standoff.server.records.record_digest`). Producers name them with an empty digest;
    #: the results writer fills the digests in from the files when it writes the line.
    records: dict[str, str] = field(default_factory=dict)
    #: role -> fallbacks its bot took after an internal error (non-zero counts only)
    fallbacks: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "index": self.index,
            "match_id": self.match_id,
            "round": self.round,
            "seed": self.seed,
            "pair": self.pair,
            "leg": self.leg,
            "seats": self.seats,
            "played": self.played,
            "winner": self.winner,
            "winner_role": self.winner_role,
            "scores": self.scores,
            "termination": self.termination,
            "reason": self.reason,
            "faults": self.faults,
        }
        if self.fallbacks:
            line["fallbacks"] = dict(self.fallbacks)
        if self.games:
            line["games"] = self.games
        if self.records:
            line["records"] = dict(self.records)
        return line

    @classmethod
    def from_json(cls, line: dict[str, Any]) -> Result:
        return cls(
            index=line["index"],
            match_id=line["match_id"],
            round=line["round"],
            seed=line["seed"],
            seats=dict(line["seats"]),
            played=line["played"],
            winner=line.get("winner"),
            winner_role=line.get("winner_role"),
            scores={k: float(v) for k, v in line["scores"].items()},
            termination=line["termination"],
            reason=line.get("reason", ""),
            faults=line.get("faults") or {},
            pair=line.get("pair"),
            leg=line.get("leg", 0),
            games=line.get("games") or [],
            records=dict(line.get("records") or {}),
            fallbacks={k: int(v) for k, v in (line.get("fallbacks") or {}).items()},
        )

    def pairwise(self) -> list[tuple[str, str, float]]:
        """The result as ``(entrant_a, entrant_b, score_a)`` triples for the rating maths:
        one triple for a two-role match; every pair of seats for more roles, in seat order (each
        pair scored by who did better: 1, 0.5 for equal scores, 0). A three-player win gives
        the winner a win over both others and a draw between the two others; a three-player draw
        gives three draws. Empty for a match not played or an entrant against itself."""
        if not self.played:
            return []
        roles = list(self.seats)
        triples = []
        for i, a in enumerate(roles):
            for b in roles[i + 1 :]:
                if self.seats[a] == self.seats[b]:
                    continue
                sa, sb = self.scores[a], self.scores[b]
                score = 1.0 if sa > sb else 0.0 if sa < sb else 0.5
                triples.append((self.seats[a], self.seats[b], score))
        return triples
