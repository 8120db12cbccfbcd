"""Test kit for the referee server: a real server on 127.0.0.1:0 in a thread with its own asyncio
loop (for sync tests), and scripted raw bot sessions."""

from __future__ import annotations

import asyncio
import queue
import threading
from pathlib import Path

import grpc
import pytest

from standoff.server.auth import TokenRegistry
from standoff.server.host_pool import ProcessHosts
from standoff.server.logs import configure_logging
from standoff.server.plugins import load_registry
from standoff.server.rpc import start_server
from standoff.v1 import referee_pb2 as pb


#: What a record measures rather than decides: left out when records of one match played in
#: different ways (a split referee, Ray) are compared.
TIMING_FIELDS = ("elapsed_ms", "think_ms", "rtt_ms")


def comparable_record(text: str, *, match_id: bool = True) -> list[dict]:
    """A record's lines without their timing (and, unless ``match_id``, without the header's
    random match id)."""
    import json

    lines = [json.loads(line) for line in text.splitlines()]
    for line in lines:
        for key in TIMING_FIELDS:
            line.pop(key, None)
    if not match_id:
        lines[0].pop("match_id", None)
    return lines


class ServerThread:
    def __init__(
        self, data_dir: Path, *, grace_s: float = 1.0, inbox_limit: int = 64, registry=None, port: int = 0,
        limits=None, match_workers: int = 0, hosts=None, sandbox=None, beside=None,
    ) -> None:
        self.beside = beside  # a task beside the referee (start_server(beside=...): the web face)
        self.port = port
        self.sandbox = sandbox  # standoff.server.sandbox.Sandbox (None: the server's default, sandboxed)
        self.match_workers = match_workers  # > 0: a split referee, matches in worker processes
        self.hosts = hosts or (ProcessHosts(match_workers) if match_workers else None)  # or given hosts (Ray)
        self.limits = limits  # standoff.server.rpc.Limits (None: the server's defaults)
        self.data_dir = data_dir
        self.tokens = TokenRegistry(data_dir / "tokens.json")
        self.admin = self.tokens.add("admin", admin=True, replace=True)  # (replaces an earlier admin token)
        self.grace_s = grace_s
        self.inbox_limit = inbox_limit
        self.registry = registry or load_registry(entry_points=False)
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            running = await start_server(
                f"127.0.0.1:{self.port}", tokens=self.tokens, registry=self.registry, data_dir=self.data_dir,
                grace_s=self.grace_s, inbox_limit=self.inbox_limit, limits=self.limits,
                hosts=self.hosts, sandbox=self.sandbox, beside=self.beside,
            )
            self.running = running
            self.address = running.address
            self._ready.set()
            await self._stop.wait()
            await running.stop(grace=0.5)

        try:
            asyncio.run(main())
        except BaseException as exc:  # noqa: BLE001
            self.error = exc
            self._ready.set()

    def start(self) -> ServerThread:
        self.thread.start()
        assert self._ready.wait(30), "server did not start"
        if self.error:
            raise self.error
        return self

    def stop(self) -> None:
        if not self.thread.is_alive():  # stopped already (or never started)
            return
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(30)
        assert not self.thread.is_alive(), "server did not stop"

    def shutdown(self, drain_s: float = 0.0) -> None:
        """What `standoff serve --drain-s DRAIN_S` does on SIGTERM, in-process: drain (running
        matches get ``drain_s``, then end as ``shutdown``; every session ends), then stop."""
        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(self.running.drain(drain_s), self.loop).result(60)
        self.stop()

    # -- unary helpers ---------------------------------------------------------------------------

    def call(self, method: str, request, response_type, token: str | None = None, timeout: float = 60):
        with grpc.insecure_channel(self.address) as channel:
            rpc = channel.unary_unary(
                f"/standoff.v1.RefereeService/{method}",
                request_serializer=type(request).SerializeToString,
                response_deserializer=response_type.FromString,
            )
            metadata = (("authorization", f"Bearer {token or self.admin}"),)
            return rpc(request, metadata=metadata, timeout=timeout)

    def start_match(self, bots, *, wait=False, token=None, **fields) -> pb.StartMatchResponse:
        tc = fields.pop("time_control", None)
        request = pb.StartMatchRequest(game=fields.pop("game", "schotten-totten"), bots=bots, wait=wait, **fields)
        if tc:
            request.time_control.CopyFrom(tc)
        return self.call("StartMatch", request, pb.StartMatchResponse, token=token)

    def record(self, match_id: str) -> str:
        return self.call("GetMatchRecord", pb.GetMatchRecordRequest(match_id=match_id), pb.GetMatchRecordResponse).record_jsonl

    def wait_finished(self, match_id: str, timeout: float = 60) -> pb.MatchSummary:
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            listing = self.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse)
            for summary in listing.matches:
                if summary.match_id == match_id and summary.status == pb.MATCH_STATUS_FINISHED:
                    return summary
            time.sleep(0.05)
        raise AssertionError(f"match {match_id} did not finish")


class RawClient:
    """A scripted bot session: the test decides every message sent."""

    def __init__(self, address: str, token: str | None, *, hello: bool = True) -> None:
        self.channel = grpc.insecure_channel(address)
        self.outbox: queue.Queue = queue.Queue()
        self.inbox: queue.Queue = queue.Queue()
        call = self.channel.stream_stream(
            "/standoff.v1.RefereeService/Play",
            request_serializer=lambda b: b if isinstance(b, bytes) else b.SerializeToString(),
            response_deserializer=pb.PlayResponse.FromString,
        )
        metadata = (("authorization", f"Bearer {token}"),) if token else ()

        def requests():
            while (item := self.outbox.get()) is not None:
                yield item

        self.call = call(requests(), metadata=metadata)
        self.status: grpc.RpcError | None = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        if hello:
            self.hello()

    def _read(self) -> None:
        try:
            for message in self.call:
                self.inbox.put(message)
        except grpc.RpcError as exc:
            self.status = exc
        self.inbox.put(None)

    def hello(self, version: int = 1, name: str = "raw") -> pb.PlayResponse:
        msg = pb.PlayRequest()
        msg.hello.protocol_version = version
        msg.hello.bot_name = name
        self.send(msg)

    def send(self, message) -> None:
        self.outbox.put(message)

    def choose(self, decision: pb.Decision, index: int, decision_id: int | None = None) -> None:
        msg = pb.PlayRequest()
        msg.choice.match_id = decision.match_id
        msg.choice.decision_id = decision.decision_id if decision_id is None else decision_id
        msg.choice.option_index = index
        self.send(msg)

    def next(self, kind: str | None = None, timeout: float = 20.0) -> pb.PlayResponse | None:
        """The next message (of ``kind``, skipping others); None when the stream ended."""
        while True:
            msg = self.inbox.get(timeout=timeout)
            if msg is None:
                self.inbox.put(None)
                return None
            if kind is None or msg.WhichOneof("body") == kind:
                return msg

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()
        self.channel.close()


