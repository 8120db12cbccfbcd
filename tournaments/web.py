"""The live web face of a running ``standoff serve``, ``standoff tournament`` or ``standoff
ladder`` (``--http ADDRESS``): read-only pages and a JSON API of the same data.

    /                              standings, matches in play, the latest finished matches
    /matches?page_token=T          finished matches, newest first, a page at a time
    /matches/ID                    a match in play: its live public board; a finished match: the
                                   report's page (every hand, every decision); 403 while withheld
    /api/standings?game=G          the standings (a server's GetStandings, of one game or all
                                   added up; a run's ratings now)
    /api/matches?state=playing|finished&page_token=T&limit=N
    /api/matches/ID                one match (404 JSON if unknown)
    /api/matches/ID/live           a match in play as a spectator sees it (web_live.LiveBoard)
    /api/matches/ID/events         the same, as server-sent events ("view", then "end")
    /api/events                    "change" whenever the matches in play or the standings change

**What is shown.** While a match is played a spectator gets its public view only (no hand, no
deck order, no seed, no record line: :mod:`.web_live`); the omniscient report page and nothing
else of the record once the match is over and its source serves its record
(:mod:`.web_sources`: what ``GetMatchRecord`` serves; a run's paired leg once its pair is
complete). Nothing is written anywhere.

**Where it lives, and why here.** The report's pages (:mod:`.html`) and the public views
(:mod:`standoff.sdk.rl_views`) are above the server layer, which never imports them
(tests/test_layers.py). Moving them down would move the report into the server; instead the
server has one injection point, a task started beside its referee (``start_server(beside=...)``,
filled by ``standoff serve --http``, an option the top-level command adds to ``serve``:
:func:`standoff.tournaments.cli.serve_options`), and tells observers of each decision (``Referee.observers``). A run
starts the same task next to its schedule (``run_tournament(beside=...)``). Either way the web
face is a task of the process's trio run (:mod:`.web_http`: Hypercorn in trio), stopped with it.
Starlette gives the routing (on anyio, so on trio); HTTP is Hypercorn's.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections import OrderedDict
from typing import Any

import trio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .html import _viewer_page, esc, html_board, match_tracks
from .web_http import announce, bind_http, serve_app, url_of
from .web_live import Changes, LiveBoard
from .web_pages import finished_page, front_page, front_sections, live_page, message_page
from .web_sources import WITHHELD, PageError, RunSource, ServerSource, Unavailable

__all__ = ["make_app", "referee_beside", "run_beside", "server_beside"]

#: Seconds between two looks at a match's record when nothing woke the stream (a tournament's
#: workers tell nobody: their records are read), and at the front page's data.
POLL_S = 0.25
#: Seconds between two events of one stream at least (a fast match is shown at this pace).
MIN_INTERVAL_S = 0.1
#: Seconds without an event after which a stream sends a comment (proxies close idle streams).
KEEP_ALIVE_S = 15.0
#: Finished matches' pages kept made (a long match's page takes a second or so to make).
PAGE_CACHE = 16
FINISHED_PAGE = 20
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _error(status: int, message: str) -> JSONResponse:
    return _json({"error": message}, status)


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class WebFace:
    """The app's state: its source, the live boards of the matches being watched, the pages
    of finished matches already made."""

    def __init__(self, source: Any, changes: Changes) -> None:
        self.source = source
        self.changes = changes
        self.boards: dict[str, tuple[LiveBoard, trio.Lock]] = {}
        self.pages: OrderedDict[str, str] = OrderedDict()

    # -- live boards ---------------------------------------------------------------------------

    async def live(self, match_id: str) -> dict[str, Any] | None:
        """The spectator's snapshot of ``match_id`` if it is being played (None otherwise). The
        record is read and replayed in a worker thread: a long backlog never holds up the
        process's loop (the referee's, in ``standoff serve``)."""
        path = self.source.live_record(match_id)
        for gone in [m for m in self.boards if m != match_id and self.source.live_record(m) is None]:
            del self.boards[gone]  # matches over: their boards are not kept
        if path is None:
            entry = self.boards.pop(match_id, None)
            if entry is None:
                return None
            board, lock = entry  # it just ended: its last lines
        else:
            entry = self.boards.get(match_id)
            if entry is None or entry[0].path != path:  # (a series: the next game's record)
                entry = self.boards[match_id] = (LiveBoard(path), trio.Lock())
            board, lock = entry
        async with lock:
            return await trio.to_thread.run_sync(_refresh, board)

    async def finished(self, match_id: str) -> str | None:
        """The report's page of a finished match whose record may be shown, else None."""
        if match_id in self.pages:
            self.pages.move_to_end(match_id)
            return self.pages[match_id]
        record = self.source.finished_record(match_id)
        if record is None:
            return None
        summary = self.source.match(match_id) or {}
        text = await trio.to_thread.run_sync(_report_page, match_id, record, summary)
        self.pages[match_id] = text
        while len(self.pages) > PAGE_CACHE:
            self.pages.popitem(last=False)
        return text


def _refresh(board: LiveBoard) -> dict[str, Any]:
    board.advance()
    return board.snapshot()


def _report_page(match_id: str, record: Any, summary: dict[str, Any]) -> str:
    """The report's page of one finished match (its viewer: every seat's eyes and every hand)."""
    from ..server.review import game_for

    try:
        data = match_tracks(game_for(record.header.get("game")), record)
    except (ValueError, KeyError) as exc:  # a record that does not replay, an unknown game
        return message_page(f"Match {match_id}", f"the record does not replay: {exc}")
    seats = dict(record.header.get("roles") or summary.get("seats") or {})
    result = summary.get("result") or {}
    bits = [f"{esc(record.header.get('game'))} ({esc(record.header.get('ruleset') or 'default')})",
            f"seed {esc(record.header.get('seed'))}",
            " vs ".join(f"{esc(role)} {esc(bot)}" for role, bot in seats.items()), esc(data["meta"]["outcome"])]
    if result.get("reason") and result.get("termination") in ("not_played", "shutdown", "error"):
        bits.append(esc(result["reason"]))
    nav = '<a href="/">\u2190 standings and matches</a> \u00b7 <a href="/matches">finished matches</a>'
    return _viewer_page(f"Match {match_id}", nav, " \u00b7 ".join(bits), data, seats)


# -- the app --------------------------------------------------------------------------------------


def make_app(source: Any, changes: Changes | None = None) -> Starlette:
    """The web face's ASGI app over ``source`` (:class:`~.web_sources.ServerSource` or
    :class:`~.web_sources.RunSource`); ``changes`` wakes its event streams."""
    face = WebFace(source, changes or Changes())

    def guarded(handler: Any) -> Any:
        @functools.wraps(handler)
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(face, request)
            except Unavailable as exc:
                if request.url.path.startswith("/api/"):
                    return _error(503, str(exc))
                return HTMLResponse(message_page("Unavailable", str(exc)), status_code=503)
        return endpoint

    routes = [
        Route("/", guarded(front)),
        Route("/matches", guarded(finished_list)),
        Route("/matches/{match_id}", guarded(match_page)),
        Route("/api/standings", guarded(api_standings)),
        Route("/api/matches", guarded(api_matches)),
        Route("/api/matches/{match_id}", guarded(api_match)),
        Route("/api/matches/{match_id}/live", guarded(api_live)),
        Route("/api/matches/{match_id}/events", guarded(api_match_events)),
        Route("/api/events", guarded(api_events)),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return _error(404, f"no such resource: {request.url.path}")
        return HTMLResponse(message_page("Not found", f"nothing at {request.url.path}"), status_code=404)

    async def read_only(request: Request, exc: Exception) -> Response:
        return _error(405, f"{request.method}: the web face is read-only (GET)")

    return Starlette(routes=routes, exception_handlers={404: not_found, 405: read_only})


def _limit(request: Request) -> int | None:
    text = request.query_params.get("limit", "")
    if not text:
        return FINISHED_PAGE
    return int(text) if text.isdigit() and 0 < int(text) <= 100 else None


async def front(face: WebFace, request: Request) -> Response:
    source = face.source
    finished, token = source.finished("", FINISHED_PAGE)
    sections = front_sections(source.tables(), source.playing(), finished, token)
    if request.query_params.get("sections"):
        return HTMLResponse(sections, headers={"Cache-Control": "no-store"})
    return HTMLResponse(front_page(source.title, sections), headers={"Cache-Control": "no-store"})


async def finished_list(face: WebFace, request: Request) -> Response:
    try:
        finished, token = face.source.finished(request.query_params.get("page_token", ""), FINISHED_PAGE)
    except PageError as exc:
        return HTMLResponse(message_page("Bad page", str(exc)), status_code=400)
    return HTMLResponse(finished_page(face.source.title, finished, token))


async def match_page(face: WebFace, request: Request) -> Response:
    match_id = request.path_params["match_id"]
    match = face.source.match(match_id)
    if match is None:
        return HTMLResponse(message_page("Not found", f"no match {match_id!r} here"), status_code=404)
    if match["state"] == "playing":
        snapshot = await face.live(match_id)
        if snapshot is not None:
            board = html_board(match.get("game", ""))
            return HTMLResponse(live_page(match, snapshot, board), headers={"Cache-Control": "no-store"})
        match = face.source.match(match_id) or match  # it ended meanwhile
    if match["state"] == WITHHELD:
        return HTMLResponse(message_page(f"Match {match_id}", f"match {match_id} is withheld: {match['reason']}"),
                            status_code=403)
    if match.get("games") and "series" not in match:  # a multi-game match: a page per game
        links = " · ".join(f'<a href="{esc(g["page"])}">game {esc(g["game"])}</a>' for g in match["games"])
        return HTMLResponse(message_page(f"Match {match_id}", f"a match of {len(match['games'])} games").replace(
            "</p>", f"</p><p id=\"games\">{links}</p>", 1))
    page = await face.finished(match_id)
    if page is None:
        return HTMLResponse(message_page(f"Match {match_id}", f"match {match_id} has no record to show"),
                            status_code=404)
    return HTMLResponse(page)


async def api_standings(face: WebFace, request: Request) -> Response:
    return _json(face.source.standings(request.query_params.get("game", "")[:200]))


async def api_matches(face: WebFace, request: Request) -> Response:
    state = request.query_params.get("state", "playing")
    limit = _limit(request)
    if limit is None:
        return _error(400, "limit: a whole number from 1 to 100")
    if state == "playing":
        return _json({"matches": face.source.playing()[:limit], "next_page_token": ""})
    if state != "finished":
        return _error(400, f"state {state[:40]!r}: playing or finished")
    try:
        matches, token = face.source.finished(request.query_params.get("page_token", ""), limit)
    except PageError as exc:
        return _error(400, str(exc))
    return _json({"matches": matches, "next_page_token": token})


async def api_match(face: WebFace, request: Request) -> Response:
    match_id = request.path_params["match_id"]
    match = face.source.match(match_id)
    if match is None:
        return _error(404, f"no match {match_id!r}")
    if match["state"] == WITHHELD:
        return _error(403, f"match {match_id} is withheld: {match['reason']}")
    links = {"page": f"/matches/{match_id}"}
    if match["state"] == "playing":
        links.update(live=f"/api/matches/{match_id}/live", events=f"/api/matches/{match_id}/events")
    return _json({**match, "links": links})


async def api_live(face: WebFace, request: Request) -> Response:
    match_id = request.path_params["match_id"]
    snapshot = await face.live(match_id) if face.source.live_record(match_id) is not None else None
    if snapshot is None:
        match = face.source.match(match_id)
        if match is None:
            return _error(404, f"no match {match_id!r}")
        return _error(409, f"match {match_id} is not being played: see /api/matches/{match_id}")
    return _json({"match_id": match_id, **snapshot})


async def api_match_events(face: WebFace, request: Request) -> Response:
    match_id = request.path_params["match_id"]
    first = await face.live(match_id)
    if first is None:
        return _error(404 if face.source.match(match_id) is None else 409, f"match {match_id!r} is not being played")

    async def stream() -> Any:
        snapshot, version = first, face.changes.version
        yield _event("view", snapshot)
        quiet = trio.current_time()
        while True:
            version = await face.changes.wait(version, POLL_S)
            await trio.sleep(MIN_INTERVAL_S)  # a fast match: what it played meanwhile, at once
            latest = await face.live(match_id)
            if latest is None or (latest["over"] and face.source.live_record(match_id) is None):
                yield _event("end", latest if latest is not None else {**snapshot, "over": True})
                return
            if latest != snapshot:
                snapshot, quiet = latest, trio.current_time()
                yield _event("view", snapshot)
            elif trio.current_time() - quiet > KEEP_ALIVE_S:  # a bot thinking long: the stream is alive
                quiet = trio.current_time()
                yield ": still playing\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream", headers=SSE_HEADERS)


async def api_events(face: WebFace, request: Request) -> Response:
    def fingerprint() -> str:
        source = face.source
        return json.dumps([[m["match_id"] for m in source.playing()], source.standings(),
                           [m["match_id"] for m in source.finished("", 1)[0]]], sort_keys=True)

    async def stream() -> Any:
        seen, version = fingerprint(), face.changes.version
        yield _event("hello", {})
        while True:
            version = await face.changes.wait(version, 1.0)
            await trio.sleep(MIN_INTERVAL_S)
            try:
                now = fingerprint()
            except Unavailable:
                continue
            if now != seen:
                seen = now
                yield _event("change", {})

    return StreamingResponse(stream(), media_type="text/event-stream", headers=SSE_HEADERS)


# -- starting it beside a server or a run ---------------------------------------------------------


def server_beside(args: argparse.Namespace) -> Any:
    """``standoff serve``'s task beside its referee for ``--http`` (None without it); the
    address is bound now (one line if it cannot be)."""
    if not getattr(args, "http", None):
        return None
    return referee_beside(bind_http(args.http))


def referee_beside(sock: Any) -> Any:
    """The task ``start_server(beside=...)`` starts: the web face of its referee on the bound
    ``sock``; its ``url`` attribute says where."""

    async def beside(referee: Any, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        changes = Changes()
        referee.observers.append(changes.bump)
        url = url_of(sock)
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(serve_app, make_app(ServerSource(referee), changes), sock)
                announce(url)
                task_status.started(url)
        finally:
            referee.observers.remove(changes.bump)

    beside.url = url_of(sock)  # type: ignore[attr-defined]
    return beside


def run_beside(address: str) -> Any:
    """A run's task for ``--http ADDRESS`` (``run_tournament(beside=...)``); the address is bound
    now (one line if it cannot be)."""
    sock = bind_http(address)

    async def beside(prepared: Any, referee: Any, playing: dict[str, Any], *,
                     task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        changes = Changes()
        if referee is not None:  # the matches it plays wake the streams; the workers' are read
            referee.observers.append(changes.bump)
        source = RunSource(prepared, playing)
        url = url_of(sock)
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(serve_app, make_app(source, changes), sock)
                announce(url)
                task_status.started(url)
        finally:
            source.close()
            if referee is not None:
                referee.observers.remove(changes.bump)

    beside.url = url_of(sock)  # type: ignore[attr-defined]
    return beside
