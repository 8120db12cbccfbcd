"""Helpers for the reliability tests: servers with limits, a `standoff serve` subprocess, RSS,
captured server logs and the figures the tests report.

Figures: every test that measures something calls :func:`report`, which prints one JSON line
(shown with ``pytest -s``) and, when ``$STANDOFF_FIGURES`` names a file, appends the line there:

    STANDOFF_FIGURES=figures.jsonl python -m pytest tests/reliability -q
"""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
from kits.server import ServerThread

from standoff.server.rpc import Limits
from standoff.v1 import referee_pb2 as pb

#: Long versions (STANDOFF_LONG=1); CI runs the bounded defaults.
LONG = os.environ.get("STANDOFF_LONG") == "1"
REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def report(name: str, **figures: Any) -> dict[str, Any]:
    line = {"figure": name, **figures}
    text = json.dumps(line, sort_keys=True)
    print(text)
    target = os.environ.get("STANDOFF_FIGURES")
    if target:
        with open(target, "a", encoding="utf-8") as file:
            file.write(text + "\n")
    return line


def rss_kb(pid: int | str = "self") -> int:
    """Resident set size of a process, from /proc/PID/status (VmRSS, in kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LimitedServer(ServerThread):
    """:class:`kits.server.ServerThread` with per-token limits (``Limits()``, the defaults, if none)."""

    def __init__(self, data_dir: Path, *, limits: Limits | None = None, **kwargs: Any) -> None:
        super().__init__(data_dir, limits=limits or Limits(), **kwargs)


class CapturedLogs:
    """Server logs (warning and up) in a buffer the test can read."""

    def __init__(self) -> None:
        from standoff.server.logs import configure_logging

        self.stream = io.StringIO()
        configure_logging(json=True, level="warning", stream=self.stream)

    def entries(self) -> list[dict[str, Any]]:
        out = []
        for line in self.stream.getvalue().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def errors(self) -> list[dict[str, Any]]:
        """Entries that mean a referee bug (an exception caught so that the server lives on)."""
        return [e for e in self.entries() if e.get("level") in ("error", "critical") or "exception" in e]

    def restore(self) -> None:
        from standoff.server.logs import configure_logging

        configure_logging(json=True, level="warning", stream=io.StringIO())


def unary(address: str, token: str, method: str, request: Any, response_type: Any, timeout: float = 60) -> Any:
    with grpc.insecure_channel(address) as channel:
        rpc = channel.unary_unary(
            f"/standoff.v1.RefereeService/{method}",
            request_serializer=type(request).SerializeToString,
            response_deserializer=response_type.FromString,
        )
        return rpc(request, metadata=(("authorization", f"Bearer {token}"),), timeout=timeout)


class ServeProcess:
    """``standoff serve`` in a subprocess (logs in ``DATA/serve-N.log``), to kill or measure."""

    runs = 0

    def __init__(self, data_dir: Path, admin: str, *, port: int | None = None, extra: tuple[str, ...] = (),
                 log_level: str = "warning") -> None:
        self.data_dir, self.admin = data_dir, admin
        self.port = port or free_port()
        ServeProcess.runs += 1
        self.log_path = data_dir / f"serve-{os.getpid()}-{ServeProcess.runs}.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", f"127.0.0.1:{self.port}",
             "--data-dir", str(data_dir), "--log-level", log_level, "--grace", "1", *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        line = self.process.stdout.readline()
        if "listening on" not in line:
            self.process.kill()
            raise RuntimeError(f"standoff serve did not start: {line!r} {self.log_path.read_text()[-2000:]}")
        self.address = line.split()[-1]
        self.pid = self.process.pid

    def call(self, method: str, request: Any, response_type: Any, token: str | None = None, timeout: float = 60):
        return unary(self.address, token or self.admin, method, request, response_type, timeout)

    def start_match(self, bots: list[str], **fields: Any) -> pb.StartMatchResponse:
        tc = fields.pop("time_control", None)
        request = pb.StartMatchRequest(game=fields.pop("game", "schotten-totten"), bots=bots, **fields)
        if tc is not None:
            request.time_control.CopyFrom(tc)
        return self.call("StartMatch", request, pb.StartMatchResponse)

    def matches(self, status: int = 0) -> list[pb.MatchSummary]:
        """Every match listed, page after page (a page holds at most 1000)."""
        found, token = [], ""
        while True:
            response = self.call("ListMatches", pb.ListMatchesRequest(status=status, limit=1000, page_token=token),
                                 pb.ListMatchesResponse)
            found.extend(response.matches)
            token = response.next_page_token
            if not token:
                return found

    def rss_kb(self) -> int:
        return rss_kb(self.pid)

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.log.close()

    def stop(self) -> int:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode

    def log_entries(self) -> list[dict[str, Any]]:
        out = []
        for line in self.log_path.read_text().splitlines():
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
        return out

    def log_errors(self) -> list[dict[str, Any]]:
        return [e for e in self.log_entries() if e.get("level") in ("error", "critical") or "exception" in e]


def wait_until(predicate, timeout: float, interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
