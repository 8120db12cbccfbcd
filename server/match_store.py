"""What a referee looks up about its finished matches, behind one set of methods (a *store*).

``ListMatches``, ``GetStandings``, ``GetMatchRecord`` and the referee's "is this match over?"
(:meth:`Referee._refuse_choice`) ask a :class:`MatchStore`:

* ``page(filters, page_token, limit)``: finished matches, newest first (by ledger line), one page
  at a time, with the token of the next page;
* ``get(match_id)``: one finished match; ``has(match_id)``: whether it is a finished one;
* ``standings(game)``: per bot, played/wins/draws/losses/score over the rated finished matches.

Two stores implement it: :class:`~.match_index.MatchIndex` (SQLite, ``index.sqlite`` in a
server's data folder: the whole history, in time independent of its length) and
:class:`RecentMatches` here (the last matches finished by this process, in memory: a
tournament's referee, whose run folder keeps its own index). This is the seam where another
backend (a PostgreSQL shared by several server fronts reading one history) would go: a class
with these four methods, filled from the same ledger lines. None is added here.

A page token is opaque to clients; inside it is the ledger line number (``seq``) the next page
starts below, so that matches finishing between two calls never shift a page (no duplicate, no
gap).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from standoff.v1 import referee_pb2 as pb

from .core.game import UNRATED_TERMINATIONS

#: The largest page ``ListMatches`` serves (a larger ``limit`` is cut to it: ask for the next page).
MAX_PAGE = 1000
#: Matches a :class:`RecentMatches` keeps (the oldest are forgotten first).
RECENT_MATCHES = 10_000
_TOKEN_PREFIX = "seq:"


class PageTokenError(ValueError):
    """A ``page_token`` this server did not make (one line, for INVALID_ARGUMENT)."""


@dataclass(frozen=True)
class Filters:
    """``ListMatches``' filters; an empty or zero field does not filter. ``bot``: one of the
    match's seats (as ``MatchSummary.seats`` and ``GetStandings`` name it: ``remote:alice``,
    ``greedy``, ``alice@1.0``...); the times are the wall-clock ms the match finished at
    (``finished_after_ms`` inclusive, ``finished_before_ms`` exclusive); a match without a
    finishing time (one written before times were kept, or still being played) does not pass a
    time filter."""

    bot: str = ""
    game: str = ""
    finished_after_ms: int = 0
    finished_before_ms: int = 0

    @property
    def timed(self) -> bool:
        return bool(self.finished_after_ms or self.finished_before_ms)

    def admits(self, summary: pb.MatchSummary) -> bool:
        """Whether ``summary`` (a live match's or a finished one's) passes the filters."""
        if self.game and summary.game != self.game:
            return False
        if self.bot and all(seat.bot != self.bot for seat in summary.seats):
            return False
        if self.timed:
            finished = summary.finished_ms
            if not finished or finished < self.finished_after_ms:
                return False
            if self.finished_before_ms and finished >= self.finished_before_ms:
                return False
        return True


def encode_token(seq: int) -> str:
    """The token of the page that starts below ledger line ``seq``."""
    return base64.urlsafe_b64encode(f"{_TOKEN_PREFIX}{seq}".encode()).decode().rstrip("=")


def decode_token(token: str) -> int | None:
    """The ``seq`` a token says the page starts below (None: no token, the first page);
    :class:`PageTokenError` for one this server did not make."""
    if not token:
        return None
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        if not text.startswith(_TOKEN_PREFIX):
            raise ValueError
        seq = int(text[len(_TOKEN_PREFIX):])
        if seq < 1:
            raise ValueError
    except (ValueError, UnicodeDecodeError, binascii.Error):
        shown = token if len(token) <= 40 else token[:40] + "..."
        raise PageTokenError(f"page_token {shown!r} is not one this server gave (pass next_page_token as it came, "
                             "or none for the first page)") from None
    return seq


class MatchStore(Protocol):
    """The finished matches' look-ups; see the module docstring."""

    def page(self, filters: Filters, page_token: str, limit: int) -> tuple[list[pb.MatchSummary], str]: ...

    def get(self, match_id: str) -> pb.MatchSummary | None: ...

    def standings(self, game: str) -> list[pb.BotStanding]: ...

    def has(self, match_id: str) -> bool: ...


def summary_of(match_id: str, game: str, ruleset: str, seats: dict[str, str], *, winner: str | None,
               scores: dict[str, float], termination: str, reason: str, faults: dict[str, dict[str, int]] | None,
               seed: int | None, finished_ms: int | None) -> pb.MatchSummary:
    """A finished match's ``MatchSummary`` (seats and scores in role order, faults per role in
    role order then kind, as :func:`~.wire.match_ended_message` orders them)."""
    summary = pb.MatchSummary(match_id=match_id, game=game, ruleset=ruleset, status=pb.MATCH_STATUS_FINISHED,
                              seed=seed or 0, finished_ms=finished_ms or 0)
    for role, bot in seats.items():
        summary.seats.add(role=role, bot=bot)
    result = summary.result
    result.match_id = match_id
    result.winner = winner or ""
    for role in seats:
        if role in scores:
            result.scores.add(role=role, score=float(scores[role]))
    result.termination = termination
    result.reason = reason
    for role in seats:
        for kind, count in sorted(((faults or {}).get(role) or {}).items()):
            result.faults.add(role=role, kind=kind, count=int(count))
    return summary


def add_standing(table: dict[str, list[Any]], bot: str, score: float) -> None:
    """Count one seat's ``score`` for ``bot`` in ``table`` (bot -> [played, wins, draws,
    losses, score]): a win scores 1, a draw more than 0, a loss 0."""
    row = table.setdefault(bot, [0, 0, 0, 0, 0.0])
    row[0] += 1
    row[1 if score == 1.0 else 2 if score > 0 else 3] += 1
    row[4] += score


def standings_list(rows: Iterable[tuple[str, int, int, int, int, float]]) -> list[pb.BotStanding]:
    """``BotStanding`` messages, best first (score, then name)."""
    standings = [pb.BotStanding(bot=bot, played=played, wins=wins, draws=draws, losses=losses, score=score)
                 for bot, played, wins, draws, losses, score in rows]
    standings.sort(key=lambda s: (-s.score, s.bot))
    return standings


class RecentMatches:
    """The matches finished by this process, the last :data:`RECENT_MATCHES` of them, in
    memory: the store of a tournament's referee (``Archive(ledger=False)``). Its run folder has
    its own index (:mod:`standoff.tournaments.run_index`, also ``index.sqlite``), which the
    server's must not be confused with, so this keeps no file; its memory is bounded however
    long the run."""

    def __init__(self, maxlen: int = RECENT_MATCHES) -> None:
        self._matches: deque[tuple[int, pb.MatchSummary]] = deque(maxlen=maxlen)
        self._ids: dict[str, int] = {}  # match id -> seq, for the matches still kept
        self._seq = 0

    def add(self, summary: pb.MatchSummary) -> None:
        if len(self._matches) == self._matches.maxlen:
            _, oldest = self._matches[0]
            self._ids.pop(oldest.match_id, None)
        self._seq += 1
        self._matches.append((self._seq, summary))
        self._ids[summary.match_id] = self._seq

    def page(self, filters: Filters, page_token: str, limit: int) -> tuple[list[pb.MatchSummary], str]:
        before = decode_token(page_token)
        found: list[tuple[int, pb.MatchSummary]] = []
        for seq, summary in reversed(self._matches):
            if before is not None and seq >= before:
                continue
            if filters.admits(summary):
                found.append((seq, summary))
                if len(found) > limit:
                    break
        if len(found) > limit:
            last = found[limit - 1][0] if limit else found[0][0] + 1
            return [s for _, s in found[:limit]], encode_token(last)
        return [s for _, s in found], ""

    def get(self, match_id: str) -> pb.MatchSummary | None:
        seq = self._ids.get(match_id)
        if seq is None:
            return None
        return self._matches[seq - self._matches[0][0]][1]

    def has(self, match_id: str) -> bool:
        return match_id in self._ids

    def standings(self, game: str) -> list[pb.BotStanding]:
        table: dict[str, list[Any]] = {}
        for _, summary in self._matches:
            if (game and summary.game != game) or summary.result.termination in UNRATED_TERMINATIONS:
                continue  # no result: counts for nobody
            scores = {s.role: s.score for s in summary.result.scores}
            for seat in summary.seats:
                add_standing(table, seat.bot, scores.get(seat.role, 0.0))
        return standings_list((bot, *row) for bot, row in table.items())


def json_text(value: Any) -> str:
    """Compact JSON for the index's JSON columns (keys in the order given: role order)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


__all__ = ["MAX_PAGE", "RECENT_MATCHES", "Filters", "MatchStore", "PageTokenError", "RecentMatches", "add_standing",
           "decode_token", "encode_token", "json_text", "standings_list", "summary_of"]
