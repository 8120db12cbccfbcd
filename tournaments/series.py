"""Multi-game matches (a game with the ``flags_claimed`` capability: the rules digest §7): a series of games between the same seats.

The winner of a game scores 5 and the loser 1 per flag it claimed (a drawn game: each side 1 per
flag); the winner starts the next game (after a draw, chance decides). The series ends after
``games`` games or as soon as someone reaches ``target_score`` (when only a target is given, at
most :data:`MAX_GAMES` games are played). The side with the higher total wins the match.
"""

from __future__ import annotations

from typing import Any

from ..server.core.game import UNRATED_TERMINATIONS
from .model import MatchSpec, Result

WIN_POINTS = 5
MAX_GAMES = 25

def result_of_game(spec: MatchSpec, roles: tuple[str, ...], outcome: Any, faults: dict,
                   record: str | None = None) -> Result:
    """A single-game match as a result line (``record``: its record's match id, default the
    spec's). A termination without a result (``not_played``, ``error``) gives ``played`` false."""
    winner_role = outcome.winner
    seats = dict(zip(roles, spec.seats, strict=True))
    return Result(
        index=spec.index, match_id=spec.match_id, round=spec.round, seed=spec.seed, seats=seats,
        played=outcome.termination not in UNRATED_TERMINATIONS, winner=seats[winner_role] if winner_role else None,
        winner_role=winner_role, scores=dict(zip(roles, outcome.scores, strict=True)),
        termination=outcome.termination, reason=outcome.reason, faults=faults, pair=spec.pair, leg=spec.leg,
        records={f"{record or spec.match_id}.jsonl": ""},
    )


class Series:
    """The bookkeeping of one multi-game match; the caller plays the games::

        series = Series(spec, roles, games=3, target=None)
        while (game := series.next_game()) is not None:
            number, first = game          # first: the role that starts, or None (chance)
            series.add(outcome, flags_claimed_by_role, faults_by_role)
        result = series.result()
    """

    def __init__(self, spec: MatchSpec, roles: tuple[str, ...], games: int | None, target: int | None) -> None:
        self.spec, self.roles, self.target = spec, roles, target
        self.limit = games or MAX_GAMES
        self.totals = dict.fromkeys(roles, 0)
        self.faults: dict[str, dict[str, int]] = {}
        self.games: list[dict[str, Any]] = []
        self.first: str | None = None
        self.unplayed: Result | None = None

    def next_game(self) -> tuple[int, str | None] | None:
        done = (
            self.unplayed is not None
            or len(self.games) >= self.limit
            or (self.target is not None and max(self.totals.values()) >= self.target)
        )
        return None if done else (len(self.games) + 1, self.first)

    def add(self, outcome: Any, flags: dict[str, int], faults: dict[str, dict[str, int]]) -> None:
        if outcome.termination in UNRATED_TERMINATIONS:
            # A game without a result (never played, or ended by an error): so is the match.
            number = len(self.games) + 1
            self.unplayed = result_of_game(self.spec, self.roles, outcome, faults, f"{self.spec.match_id}-g{number}")
            self.unplayed.records = {**self._records(), **self.unplayed.records}
            return
        points = {
            role: WIN_POINTS if role == outcome.winner else flags.get(role, 0) for role in self.roles
        }
        for role in self.roles:
            self.totals[role] += points[role]
        for role, kinds in faults.items():
            mine = self.faults.setdefault(role, {})
            for kind, n in kinds.items():
                mine[kind] = mine.get(kind, 0) + n
        self.games.append({
            "game": len(self.games) + 1, "first": self.first, "winner": outcome.winner,
            "termination": outcome.termination, "points": points,
        })
        self.first = outcome.winner  # the winner starts the next game; after a draw, chance

    def _records(self) -> dict[str, str]:
        return {f"{self.spec.match_id}-g{game['game']}.jsonl": "" for game in self.games}

    def result(self) -> Result:
        if self.unplayed is not None:
            return self.unplayed
        roles, spec = self.roles, self.spec
        best = max(self.totals.values())
        leaders = [role for role in roles if self.totals[role] == best]
        winner_role = leaders[0] if len(leaders) == 1 else None
        if winner_role is None:
            scores = {role: (1.0 / len(leaders) if role in leaders else 0.0) for role in roles}
        else:
            scores = {role: 1.0 if role == winner_role else 0.0 for role in roles}
        seats = dict(zip(roles, spec.seats, strict=True))
        reason = ", ".join(f"{role} {self.totals[role]}" for role in roles) + f" after {len(self.games)} games"
        return Result(
            index=spec.index, match_id=spec.match_id, round=spec.round, seed=spec.seed, seats=seats,
            played=True, winner=seats[winner_role] if winner_role else None, winner_role=winner_role,
            scores=scores, termination="series", reason=reason, faults=self.faults, pair=spec.pair,
            leg=spec.leg, games=self.games, records=self._records(),
        )
