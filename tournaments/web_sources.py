"""What the web face (:mod:`.web`) serves, from a running ``standoff serve`` or tournament run.

Two sources answer the same questions (standings, matches in play, finished matches newest
first a page at a time, one match, the record file of a match in play, the record of a finished
match that may be shown), each from what its process already keeps:

* :class:`ServerSource`: the referee (``standoff serve``) — its live table of matches and its
  archive, as the gRPC calls read them (``GetStandings``, ``ListMatches``, ``GetMatchRecord``).
  A record is served exactly when ``GetMatchRecord`` would serve it: not while the match is in
  the referee's table (:meth:`~standoff.server.referee.Referee.withheld`), and only a finished
  match's; a summary's seed as :meth:`~standoff.server.referee.Referee.public_summary` leaves it.
* :class:`RunSource`: a tournament or ladder run — the matches it plays now (the runner's
  ``playing``), its index (a connection of its own, read-only: the run's writer owns the index)
  for the ratings and the finished matches. A finished paired leg is *withheld* while a leg of
  its pair has no result yet: its hands are the deal of that leg (:mod:`.html`, the report's
  warning). A withheld match is not listed, its page and record are refused; the standings
  count it (they are the run's ratings, as ``standoff ratings`` prints them mid-run).

Nothing here gives a match's seed before it is over, and no summary of a match in play has one.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from ..server.core.record import Record, parse_record
from ..server.storage import StorageError, connect, index_path
from .model import Result
from .run_index import _COLUMNS, RunIndex, _row_result, ratings_from_index

__all__ = ["PageError", "RunSource", "ServerSource", "Unavailable", "WITHHELD"]

#: The state of a finished match whose record may not be shown yet (a paired leg's twin plays).
WITHHELD = "withheld"
#: Matches per page of finished matches, at most.
MAX_PAGE = 100


class PageError(ValueError):
    """A page token the source did not give (one line)."""


class Unavailable(RuntimeError):
    """The source's storage cannot be read now (one line)."""


def _result_dict(result: Any) -> dict[str, Any]:
    """A ``MatchEnded`` (a finished summary's result) as JSON."""
    return {"winner": result.winner or None, "termination": result.termination, "reason": result.reason,
            "scores": {s.role: s.score for s in result.scores},
            "faults": [{"role": f.role, "kind": f.kind, "count": f.count} for f in result.faults]}


class ServerSource:
    """The web face's questions, answered from a running referee (``standoff serve``)."""

    kind = "server"

    def __init__(self, referee: Any) -> None:
        self.referee = referee
        self.title = "Standoff server"

    # -- standings and lists -------------------------------------------------------------------

    def standings(self, game: str = "") -> dict[str, Any]:
        """``GetStandings``: of one game, or (``""``) every game's added up."""
        try:
            rows = self.referee.archive.standings(game)
        except StorageError as exc:
            raise Unavailable(str(exc)) from None
        return {"kind": self.kind, "game": game, "standings": [
            {"bot": s.bot, "played": s.played, "wins": s.wins, "draws": s.draws, "losses": s.losses,
             "score": round(s.score, 4)} for s in rows]}

    def tables(self) -> list[tuple[str, dict[str, Any]]]:
        """The front page's standings: one table per game that has finished matches."""
        games = sorted(self.referee.registry.games)
        return [(f"Standings: {game}", table) for game in games if (table := self.standings(game))["standings"]]

    def playing(self) -> list[dict[str, Any]]:
        return [self._live(match) for match in sorted(self.referee.matches.values(), key=lambda m: m.id)]

    def finished(self, page_token: str, limit: int) -> tuple[list[dict[str, Any]], str]:
        from ..server.match_store import Filters, PageTokenError

        try:
            summaries, token = self.referee.archive.page(Filters(), page_token, max(1, min(limit, MAX_PAGE)))
        except PageTokenError as exc:
            raise PageError(str(exc)) from None
        except StorageError as exc:
            raise Unavailable(str(exc)) from None
        matches = [self._finished(s) for s in summaries if not self.referee.withheld(s.match_id)]
        return matches, token

    # -- one match -----------------------------------------------------------------------------

    def match(self, match_id: str) -> dict[str, Any] | None:
        live = self.referee.matches.get(match_id)
        if live is not None:
            return self._live(live)
        try:
            summary = self.referee.archive.get(match_id) if len(match_id) <= 256 else None
        except StorageError as exc:
            raise Unavailable(str(exc)) from None
        return self._finished(summary) if summary is not None else None

    def live_record(self, match_id: str) -> Path | None:
        """The record file of ``match_id`` if it is being played (its path never leaves)."""
        live = self.referee.matches.get(match_id)
        return live.record_path if live is not None else None

    def finished_record(self, match_id: str) -> Record | None:
        """The record of a finished match, as ``GetMatchRecord`` serves it (None otherwise)."""
        if self.referee.withheld(match_id) or len(match_id) > 256:
            return None
        try:
            text = self.referee.archive.record_text(match_id)
        except StorageError as exc:
            raise Unavailable(str(exc)) from None
        return parse_record(text.splitlines()) if text is not None else None

    # -- summaries -----------------------------------------------------------------------------

    def _live(self, match: Any) -> dict[str, Any]:
        from standoff.v1 import referee_pb2 as pb

        return {"match_id": match.id, "state": "playing", "game": match.game.name, "ruleset": match.rules.ruleset,
                "seats": {role: match.seats[role].bot for role in match.rules.roles},
                "waiting": match.status == pb.MATCH_STATUS_WAITING}

    def _finished(self, summary: Any) -> dict[str, Any]:
        summary = self.referee.public_summary(summary)
        out = {"match_id": summary.match_id, "state": "finished", "game": summary.game, "ruleset": summary.ruleset,
               "seats": {s.role: s.bot for s in summary.seats}, "result": _result_dict(summary.result)}
        if summary.seed:
            out["seed"] = summary.seed
        if summary.finished_ms:
            out["finished_ms"] = summary.finished_ms
        return out


class RunSource:
    """The web face's questions, answered from a tournament or ladder run being played."""

    kind = "run"

    def __init__(self, prepared: Any, playing: dict[str, Any]) -> None:
        self.prepared = prepared
        self.config = prepared.config
        self.folder = Path(prepared.folder)
        self.records = self.folder / "records"
        self.roles = tuple(self.config.game_roles)
        self.playing_specs = playing
        self.title = f"Standoff run {self.folder.name}"
        self._conn: sqlite3.Connection | None = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _index(self) -> RunIndex:
        if self._conn is None:
            self._conn = connect(index_path(self.folder), readonly=True)
        return RunIndex(self.folder, self._conn)

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._index().conn.execute(sql, params).fetchall()
        except (sqlite3.Error, StorageError) as exc:
            self.close()  # opened again at the next question
            raise Unavailable(f"{index_path(self.folder)}: {exc}") from None

    # -- standings and lists -------------------------------------------------------------------

    def tables(self) -> list[tuple[str, dict[str, Any]]]:
        return [(f"Ratings: {self.config.game}", self.standings())]

    def standings(self, game: str = "") -> dict[str, Any]:
        """The run's ratings now (``ratings.json``'s standings, from its index's sums)."""
        if game and game != self.config.game:
            return {"kind": self.kind, "game": game, "standings": []}
        try:
            ratings = ratings_from_index(self._index(), self.prepared.entrants())
        except (sqlite3.Error, StorageError) as exc:
            self.close()
            raise Unavailable(str(exc)) from None
        keys = ("name", "rating", "margin", "games", "wins", "draws", "losses", "score_pct")
        return {"kind": self.kind, "game": self.config.game,
                "standings": [{k: p.get(k) for k in keys} for p in ratings.get("players", [])]}

    def playing(self) -> list[dict[str, Any]]:
        return [self._live(spec) for _, spec in sorted(self.playing_specs.items())]

    def finished(self, page_token: str, limit: int) -> tuple[list[dict[str, Any]], str]:
        """Newest first (the run's canonical order, backwards); the token is where the page
        stopped."""
        if page_token and not re.fullmatch(r"[0-9]{1,18}", page_token):
            raise PageError(f"page_token {page_token[:40]!r} is not one this server gave")
        below = int(page_token) if page_token else 1 << 62
        limit = max(1, min(limit, MAX_PAGE))
        rows = self._query(f"SELECT {_COLUMNS} FROM results WHERE idx < ? ORDER BY idx DESC LIMIT ?", (below, limit))
        results = [_row_result(row) for row in rows]
        token = str(results[-1].index) if len(results) == limit else ""
        return [self._finished(r) for r in results if not self._withheld(r)], token

    # -- one match -----------------------------------------------------------------------------

    def match(self, match_id: str) -> dict[str, Any] | None:
        """One match; or one game of a finished multi-game match (``ID-gK``: its record's page)."""
        spec = self.playing_specs.get(match_id)
        if spec is not None:
            return self._live(spec)
        result = self._result(match_id)
        if result is None:
            series = self._series_game(match_id)
            if series is None:
                return None
            parent = self.match(series)
            return parent if parent is None or parent["state"] != "finished" else {
                **parent, "match_id": match_id, "series": series}
        if self._withheld(result):
            return {"match_id": match_id, "state": WITHHELD, "game": self.config.game,
                    "reason": "a paired leg: shown once every leg of its seed has been played"}
        return self._finished(result)

    def live_record(self, match_id: str) -> Path | None:
        """The record file being written for ``match_id`` (a series: its latest game's)."""
        if match_id not in self.playing_specs:
            return None
        single = self.records / f"{match_id}.jsonl"
        games = [p for p in self.records.glob(f"{_glob(match_id)}-g*.jsonl")
                 if re.fullmatch(re.escape(match_id) + r"-g\d+", p.stem)]
        if games and not single.exists():
            return max(games, key=lambda p: int(p.stem.rsplit("-g", 1)[1]))
        return single

    def finished_record(self, match_id: str) -> Record | None:
        """The record of a finished match that may be shown; of a multi-game match's game
        (``ID-gK``), the match itself having none."""
        series = self._series_game(match_id)
        result = self._result(series or match_id)
        if result is None or self._withheld(result) or not result.played or (result.games and not series):
            return None
        path = self.records / f"{match_id}.jsonl"
        try:
            return parse_record(path.read_text(encoding="utf-8").splitlines())
        except (OSError, UnicodeDecodeError):
            return None

    # -- helpers -------------------------------------------------------------------------------

    def _result(self, match_id: str) -> Result | None:
        rows = self._query(f"SELECT {_COLUMNS} FROM results WHERE match_id = ?", (match_id,))
        return _row_result(rows[0]) if rows else None

    def _series_game(self, match_id: str) -> str | None:
        """``ID`` for ``ID-gK``, a game of the finished multi-game match ``ID``; else None."""
        found = re.fullmatch(r"(.+)-g([0-9]{1,4})", match_id)
        if found is None or match_id in self.playing_specs:
            return None
        result = self._result(found.group(1))
        numbers = {g.get("game") for g in result.games} if result is not None else set()
        return found.group(1) if int(found.group(2)) in numbers else None

    def _withheld(self, result: Result) -> bool:
        """A paired leg whose pair is not complete: a leg of the same seed is still to play."""
        if result.pair is None:
            return False
        legs = self._query("SELECT COUNT(*) FROM results WHERE pair = ?", (result.pair,))[0][0]
        return legs < len(self.roles) or any(s.pair == result.pair for s in self.playing_specs.values())

    def _live(self, spec: Any) -> dict[str, Any]:
        return {"match_id": spec.match_id, "state": "playing", "game": self.config.game, "round": spec.round,
                "seats": dict(zip(self.roles, spec.seats, strict=False))}

    def _finished(self, result: Result) -> dict[str, Any]:
        out: dict[str, Any] = {
            "match_id": result.match_id, "state": "finished", "game": self.config.game, "round": result.round,
            "seats": dict(result.seats), "seed": result.seed,
            "result": {"winner": result.winner, "winner_role": result.winner_role,
                       "termination": result.termination, "reason": result.reason,
                       "scores": dict(result.scores), "faults": json.loads(json.dumps(result.faults))}}
        if result.games:
            out["games"] = [{"game": g.get("game"), "winner": g.get("winner"), "termination": g.get("termination"),
                             "page": f"/matches/{result.match_id}-g{g.get('game')}"} for g in result.games]
        return out


def _glob(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)
