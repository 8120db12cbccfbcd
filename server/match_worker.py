"""A match worker process: hosts the matches a split referee's front gives it.

``python -m standoff.server.match_worker`` is started by :class:`~.host_pool.ProcessHosts`. It
reads requests from stdin and writes answers to stdout, each a frame (4-byte big-endian length,
then a pickle; both ends are this package's own code): a request is ``(request_id, match_id,
method, args)`` with ``method`` one of ``open`` (args: the job), ``begin``, ``advance``,
``message``, ``stop`` (the :class:`~.hosting.MatchHost` calls); an answer is ``(request_id, True,
value)`` or ``(request_id, False, one line)``. Each match has a thread of its own, so that a
built-in bot thinking in one match does not hold the others' remote seats waiting; a match's
requests are handled in the order they came.
"""

from __future__ import annotations

import pickle
import queue
import signal
import struct
import sys
import threading
import traceback
from typing import Any, BinaryIO

from .hosting import HostError, MatchHost
from .processes import die_with_parent

_LENGTH = struct.Struct(">I")


def read_frame(stream: BinaryIO) -> Any:
    """The next frame's value, or None at the end of the stream."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    body = stream.read(size)
    if len(body) < size:
        return None
    return pickle.loads(body)


def take_frames(buffer: bytearray) -> list[Any]:
    """The values of the whole frames at the start of ``buffer`` (a non-blocking reader's bytes so
    far), taken out of it; an incomplete frame stays for the next bytes."""
    values = []
    while len(buffer) >= _LENGTH.size:
        (size,) = _LENGTH.unpack_from(buffer)
        end = _LENGTH.size + size
        if len(buffer) < end:
            break
        values.append(pickle.loads(bytes(buffer[_LENGTH.size:end])))
        del buffer[:end]
    return values


def frame(value: Any) -> bytes:
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


class _Matches:
    def __init__(self, registry: Any, out: BinaryIO) -> None:
        self.registry = registry
        self.out = out
        self.write_lock = threading.Lock()
        self.queues: dict[str, queue.SimpleQueue] = {}

    def reply(self, request_id: int, ok: bool, value: Any) -> None:
        data = frame((request_id, ok, value))
        with self.write_lock:
            self.out.write(data)
            self.out.flush()

    def submit(self, request_id: int, match_id: str, method: str, args: tuple) -> None:
        if method == "open":
            jobs: queue.SimpleQueue = queue.SimpleQueue()
            self.queues[match_id] = jobs
            threading.Thread(target=self._serve, args=(match_id, jobs), name=f"match-{match_id}", daemon=True).start()
        jobs = self.queues.get(match_id)
        if jobs is None:
            self.reply(request_id, False, f"match {match_id} is not hosted here")
            return
        jobs.put((request_id, method, args))

    def _serve(self, match_id: str, jobs: queue.SimpleQueue) -> None:
        host: MatchHost | None = None
        while True:
            request_id, method, args = jobs.get()
            try:
                if method == "open":
                    host = MatchHost(args[0], self.registry)
                    answer: tuple[bool, Any] = (True, None)
                else:
                    assert host is not None
                    answer = (True, getattr(host, method)(*args))
            except HostError as exc:
                answer = (False, str(exc))
            except Exception as exc:  # noqa: BLE001 - a host bug: reported to the front, the worker lives on
                traceback.print_exc(file=sys.stderr)
                answer = (False, f"{type(exc).__name__}: {exc}")
            done = host is None or host.over  # could not open, or over: the thread goes
            if done:
                # Before the answer: a request the front sends after it (a stop) must find no
                # queue here and be answered at once, not wait in a queue nobody reads.
                self.queues.pop(match_id, None)
            self.reply(request_id, *answer)
            if done:
                return


def main() -> int:
    from .logs import configure_logging
    from .plugins import load_registry

    die_with_parent()
    configure_logging(json=False, level="warning", stream=sys.stderr)
    # Ctrl-C reaches the process group: the front decides when its matches end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Trusted bots only, as in tournament workers: built-ins and $STANDOFF_PLUGINS modules.
    registry = load_registry(entry_points=False)
    matches = _Matches(registry, sys.stdout.buffer)
    stdin = sys.stdin.buffer
    while (request := read_frame(stdin)) is not None:
        matches.submit(*request)
    return 0


if __name__ == "__main__":
    sys.exit(main())
