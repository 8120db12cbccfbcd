"""What a bot runner said as it died: the end of its stderr, and the one line the referee puts in
the seat's fault.

A runner (``standoff bot run``) whose bot raised prints the traceback, then one line naming the
bot, the match and the bot's file:line (``standoff: error: bot 'x' (match m, p1) raised ... at
pkg/bot.py:12``) and exits with status 3. The referee keeps the last :data:`STDERR_KEPT` bytes of
its stderr (a bot that writes more loses the beginning, never the referee's memory), takes that
line as the fault's detail, and logs the rest with the match. A runner killed (a sandbox limit, a
signal) or exiting without that line is described by how it ended.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import trio

#: The end of a runner's stderr kept: its traceback and its last line.
STDERR_KEPT = 32 * 1024
#: The prefix of the runner's one line (:func:`standoff.sdk.cli.cmd_bot_run`).
LINE_PREFIX = "standoff: error: "


class StderrTail:
    """A pipe for a runner's stderr (:attr:`write_fd` goes to the child) and the last
    ``limit`` bytes written to it, read while the runner runs so that it never blocks on a
    full pipe."""

    def __init__(self, limit: int = STDERR_KEPT) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        self.limit = limit
        self.kept = bytearray()

    def started(self) -> None:
        """The child has its copy of the write end: close ours (EOF comes when the child's goes)."""
        if self.write_fd >= 0:
            os.close(self.write_fd)
            self.write_fd = -1

    async def watch(self, process: Any) -> int:
        """``await process.run()`` (its exit status; cancelled, it is killed) while reading the
        pipe; then what the pipe still holds. The pipe is closed either way."""
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._pump)
                code = await process.run()
                nursery.cancel_scope.cancel()
            # Whatever the runner wrote before it died is in the pipe now. Read without waiting
            # for EOF: a process it left behind may hold the write end open.
            self._drain()
            return code
        finally:
            self.close()

    def text(self) -> str:
        return self.kept[-self.limit:].decode("utf-8", "replace")

    def close(self) -> None:
        self.started()
        if self.read_fd >= 0:
            trio.lowlevel.notify_closing(self.read_fd)
            os.close(self.read_fd)
            self.read_fd = -1

    async def _pump(self) -> None:
        while self._drain():
            await trio.lowlevel.wait_readable(self.read_fd)

    def _drain(self) -> bool:
        """Read what is there; False at EOF."""
        while True:
            try:
                chunk = os.read(self.read_fd, 1 << 16)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            self.kept += chunk
            if len(self.kept) > 2 * self.limit:
                del self.kept[: -self.limit]


def runner_fault(bot: str, match_id: str, role: str, code: int, stderr: str) -> str:
    """The fault's detail for a runner that ended while its match went on: its own last
    ``standoff: error:`` line if it printed one, else how it ended (and its last words)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith(LINE_PREFIX):
            return _short(line[len(LINE_PREFIX):])
    if code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    else:
        how = f"exited with status {code}"
    last = f": {lines[-1]}" if lines else ""
    return _short(f"bot {bot!r} (match {match_id}, {role}): its runner {how}{last}")


def _short(text: str, limit: int = 400) -> str:
    """One printable line of at most ``limit`` characters (the bot wrote it: it goes into a
    record and a log, so no control characters)."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
