"""What benchmarks/bench_storage.py times, through the public entry points only: a ``standoff serve``
process asked over gRPC with the tree's generated stubs, and ``standoff ladder CONFIG --rounds N``
processes. Each runs as ``python -m standoff.tournaments.cli`` (the ``standoff`` command), so
that with ``--against`` the processes import the tree of the round (``PYTHONPATH``, see
benchmarks/against.py).

Every measurement has a cap (``--max-seconds``): past it the process is killed (a server that
has not answered yet, a ladder still resuming) and the figure is :class:`Capped`.
"""

from __future__ import annotations

import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from standoff.v1 import referee_pb2 as pb
from standoff.v1 import referee_pb2_grpc

#: gRPC client options: a server still starting is retried every few milliseconds, not after the
#: default backoff of a second or more (which would be counted as start-up time).
CHANNEL_OPTIONS = [("grpc.initial_reconnect_backoff_ms", 10), ("grpc.min_reconnect_backoff_ms", 10),
                   ("grpc.max_reconnect_backoff_ms", 50)]
#: The index file a server or run folder may hold (server/storage.py's INDEX_NAME; a tree from
#: before the index has none, and ignores the file).
INDEX_FILES = ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm")


class Capped(Exception):
    """A measurement stopped at the cap."""


@dataclass
class Series:
    """Latencies of one kind of call (ms), and whether the cap stopped it early."""

    times: list[float]
    capped: bool = False
    wrong: int = 0  # rows that do not match the call's filter

    def percentile(self, p: float) -> float:
        ordered = sorted(self.times)
        return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def command(*words: str) -> list[str]:
    """The ``standoff`` command, from the tree this interpreter imports."""
    return [sys.executable, "-m", "standoff.tournaments.cli", *words]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def remove_index(folder: Path) -> None:
    """A first start: the folder as a tree before the index left it (the index is derived)."""
    for name in INDEX_FILES:
        (folder / name).unlink(missing_ok=True)


def make_token(folder: Path) -> tuple[Path, str]:
    """A token registry outside the data folder (the generated history is left as it is)."""
    path = folder / "tokens.json"
    run = subprocess.run(command("token", "add", "bench", "--tokens", str(path)), capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"standoff token add failed: {run.stderr.strip()}")
    return path, run.stdout.strip().splitlines()[-1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


# -- the server --------------------------------------------------------------------------------------


class Server:
    """One ``standoff serve`` process on ``data_dir`` (a free loopback port, its output in
    ``log``)."""

    def __init__(self, data_dir: Path, tokens: Path, token: str, log: Path) -> None:
        self.data_dir, self.tokens, self.log = data_dir, tokens, log
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.address = f"127.0.0.1:{free_port()}"
        self.process: subprocess.Popen | None = None
        self.channel: grpc.Channel | None = None
        self.stub: Any = None

    def start(self, cap_s: float) -> float:
        """Start it; the seconds until it answers a ListMatches call. :class:`Capped` (the
        process killed) if that takes more than ``cap_s``."""
        with open(self.log, "ab") as log:
            started = time.perf_counter()
            self.process = subprocess.Popen(
                command("serve", "--data-dir", str(self.data_dir), "--tokens", str(self.tokens),
                        "--address", self.address, "--drain-s", "0", "--log-level", "warning"),
                stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
        self.channel = grpc.insecure_channel(self.address, options=CHANNEL_OPTIONS)
        self.stub = referee_pb2_grpc.RefereeServiceStub(self.channel)
        call = self.stub.ListMatches.future(pb.ListMatchesRequest(limit=1), metadata=self.metadata,
                                            timeout=cap_s, wait_for_ready=True)
        while not call.done():
            if self.process.poll() is not None:
                call.cancel()
                raise SystemExit(f"standoff serve on {self.data_dir} exited ({self.process.returncode}):\n"
                                 + self.tail())
            time.sleep(0.002)
        try:
            call.result()
        except grpc.RpcError as exc:
            self.kill()
            if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                raise Capped() from None
            raise SystemExit(f"ListMatches on {self.data_dir}: {exc.code().name} {exc.details()}") from None
        return time.perf_counter() - started

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]

    def rss_mb(self) -> float:
        assert self.process is not None
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        """SIGTERM (a graceful stop: nothing is being played), SIGKILL after 20 s."""
        if self.channel is not None:
            self.channel.close()
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    # -- calls ----------------------------------------------------------------------------------------

    def series(self, requests: list[Any], method: str, cap_s: float, check: Any = None) -> Series:
        """Time ``requests`` one after the other (ms each); stop at ``cap_s`` in all.
        ``check(request, response)``: how many rows are wrong."""
        call = getattr(self.stub, method)
        out = Series([])
        deadline = time.perf_counter() + cap_s
        for request in requests:
            left = deadline - time.perf_counter()
            if left <= 0:
                out.capped = True
                break
            started = time.perf_counter()
            try:
                response = call(request, metadata=self.metadata, timeout=left)
            except grpc.RpcError as exc:
                if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise SystemExit(f"{method}: {exc.code().name} {exc.details()}") from None
                out.capped = True
                break
            out.times.append((time.perf_counter() - started) * 1000)
            if check is not None:
                out.wrong += check(request, response)
        return out


# -- ListMatches on either tree --------------------------------------------------------------------------


def new_fields() -> bool:
    """Whether this tree's ListMatchesRequest has the filters by bot and game (and paging)."""
    fields = pb.ListMatchesRequest.DESCRIPTOR.fields_by_name
    return "bot" in fields and "game" in fields


def paging() -> bool:
    return ("page_token" in pb.ListMatchesRequest.DESCRIPTOR.fields_by_name
            and "next_page_token" in pb.ListMatchesResponse.DESCRIPTOR.fields_by_name)


def list_request(limit: int, **filters: Any) -> Any:
    """A ListMatchesRequest with ``filters`` (field name -> value), set whatever the field's
    kind (a repeated field gets the one value)."""
    request = pb.ListMatchesRequest(limit=limit)
    for name, value in filters.items():
        field = request.DESCRIPTOR.fields_by_name[name]
        if field.is_repeated:
            getattr(request, name).append(value)
        else:
            setattr(request, name, value)
    return request


def wrong_rows(request: Any, response: Any) -> int:
    """Rows of a page that its filters exclude."""
    fields = request.DESCRIPTOR.fields_by_name
    bot = getattr(request, "bot", "") if "bot" in fields else ""
    bot = bot if isinstance(bot, str) else (list(bot) or [""])[0]
    game = getattr(request, "game", "") if "game" in fields else ""
    bad = 0
    for match in response.matches:
        if (bot and bot not in {seat.bot for seat in match.seats}) or (game and match.game != game):
            bad += 1
        elif request.status and match.status != request.status:
            bad += 1
    return bad


# -- the ladder --------------------------------------------------------------------------------------------


#: What ``standoff ladder`` prints when a round is over (its ratings so far).
ROUND_OVER = b"after "


@dataclass
class LadderRun:
    """A ``standoff ladder`` run: its seconds, and when (seconds from its start) each round's
    summary line came (``after N rounds (M matches): ...`` on its standard error)."""

    seconds: float
    rounds_over: list[float]

    def round_times(self) -> list[float]:
        """Seconds between one round's summary and the next's: each a whole round (its matches,
        their lines written, the ratings updated), without the start-up and the resume."""
        return [b - a for a, b in zip(self.rounds_over, self.rounds_over[1:])]


def ladder(config: Path, rounds: int, cap_s: float, log: Path) -> LadderRun:
    """Run ``standoff ladder CONFIG --rounds N``; :class:`Capped` (the process group killed)
    past ``cap_s``. Its output goes to ``log``, read as it comes to time the rounds' ends."""
    started = time.perf_counter()
    process = subprocess.Popen(command("ladder", str(config), "--rounds", str(rounds)), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    rounds_over: list[float] = []

    def read() -> None:
        assert process.stdout is not None
        with open(log, "ab") as out:
            for line in process.stdout:
                if line.startswith(ROUND_OVER):
                    rounds_over.append(time.perf_counter() - started)
                out.write(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        code = process.wait(cap_s)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise Capped() from None
    finally:
        reader.join(10)
    elapsed = time.perf_counter() - started
    if code:
        raise SystemExit(f"standoff ladder {config} --rounds {rounds} exited {code}:\n"
                         + log.read_text(errors="replace")[-2000:])
    return LadderRun(elapsed, rounds_over)
