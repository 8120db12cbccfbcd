"""``--http ADDRESS``: where the web face listens, and its HTTP server (Hypercorn, in trio).

The address is bound here, in the command, before anything else starts: a mistyped address or a
port in use is one line (:class:`~standoff.server.cli_common.UsageError`), not a traceback from
inside a running server. The bound socket is handed to Hypercorn (``fd://``), which serves the
web face's ASGI app (:mod:`.web`) as a task of the process's trio run: the referee's
(``standoff serve``: trio is a guest of grpc.aio's asyncio loop, :mod:`standoff.server.bridge`),
or a tournament's; it stops when that task is cancelled, with the server or the run. HTTP is
Hypercorn's (h11); nothing here reads a request.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import re
import socket
import sys
from typing import Any

import trio

from ..server.cli_common import UsageError

__all__ = ["DEFAULT_HOST", "HTTP_HELP", "bind_http", "serve_app", "url_of"]

#: The host of an address given as a port alone: loopback (a spectator on this machine).
DEFAULT_HOST = "127.0.0.1"
HTTP_HELP = ("serve a read-only web face on ADDRESS (PORT or HOST:PORT; a port alone is loopback, "
             f"{DEFAULT_HOST}): standings, matches in play with a live public board, finished matches "
             "with the report's pages, and a JSON API (/api/...)")


def _split(address: str) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` as (host, port); ValueError otherwise."""
    text = address.strip()
    if re.fullmatch(r"[0-9]+", text):
        host, port = DEFAULT_HOST, text
    else:
        found = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:([0-9]+)|([^:\[\]\s]*):([0-9]+)", text)
        if found is None:
            raise ValueError("expected PORT or HOST:PORT (e.g. 8080 or 127.0.0.1:8080)")
        host, port = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
        host = host or DEFAULT_HOST
    number = int(port)
    if not 0 <= number <= 65535:
        raise ValueError(f"port {number} is not 0-65535")
    return host, number


def bind_http(address: str) -> socket.socket:
    """A listening socket on ``address`` (``--http``); :class:`UsageError` (one line) for an
    address that is not one, a host that does not resolve here, or a port in use."""
    try:
        host, port = _split(address)
    except ValueError as exc:
        raise UsageError(f"--http {address!r}: {exc}") from None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise UsageError(f"--http {address}: cannot listen on host {host!r}: {exc.strerror or exc}") from None
    family, kind, proto, _, sockaddr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart binds again at once
        sock.bind(sockaddr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        what = ("address in use (something already listens there: stop it or pick another port)"
                if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc))
        raise UsageError(f"--http {address}: cannot listen: {what}") from None
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    """The web face's URL for a bound socket (the port the system chose, for port 0)."""
    host, port = sock.getsockname()[:2]
    try:
        if ipaddress.ip_address(host).is_unspecified:
            host = DEFAULT_HOST if ":" not in host else "::1"
    except ValueError:
        pass
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


async def serve_app(app: Any, sock: socket.socket, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    """Serve ``app`` on the bound ``sock`` until cancelled (Hypercorn's trio server). Its
    errors go to the ``standoff.web`` logger; no access log."""
    from hypercorn.config import Config
    from hypercorn.trio import serve

    config = Config()
    config.bind = [f"fd://{sock.detach()}"]  # plain HTTP (no certificate): bind, not insecure_bind
    config.accesslog = None
    config.errorlog = logging.getLogger("standoff.web")
    config.graceful_timeout = 1.0
    config.keep_alive_timeout = 30.0
    await serve(app, config, task_status=task_status)


def announce(url: str) -> None:
    """The line that says where the web face is (stderr: stdout may be a report)."""
    print(f"standoff: web face on {url}", file=sys.stderr, flush=True)
