"""Chaos bots: clients that misbehave on purpose, to check that the referee copes.

Run one by hand against a server (each prints a JSON summary of what it saw on stdout):

    standoff token add chaos                          # once; prints the token
    python -m tests.reliability.chaos crash --address 127.0.0.1:50051 --token sto_...
    STANDOFF_TOKEN=sto_... python -m tests.reliability.chaos flood --address 127.0.0.1:50051
    standoff match --game schotten-totten --bot remote:chaos --bot random --policy random

Kinds (``--after N``: the misbehaviour starts at the bot's N-th decision, 1 = the first):

=================  ================================================================================
crash              answers N-1 decisions, then the process dies (``os._exit``) mid-match
hang               answers N-1 decisions, then never answers again (the stream stays open)
late               answers ``--count`` decisions ``--late-ms`` late (past the clock), then on time
flood              at its N-th decision sends ``--count`` envelopes as fast as it can
garbage            at its N-th decision sends bytes that are no protobuf message at all
malformed          before each of ``--count`` answers sends a malformed envelope: empty, unknown
                   fields only, an unknown ``oneof`` member (protocol errors)
replay             before every answer re-sends its previous answer (an old decision id)
other-seat         before every answer answers for the next decision id (the other seat's) and,
                   with ``--foreign-match ID``, for a match it has no seat in
reconnect-storm    at its N-th decision reconnects ``--count`` times in a row, then opens a burst of
                   parallel sessions (more than the server's --max-sessions-per-bot), then plays on
sessions           opens ``--count`` sessions with its one token at once, then plays on one of them
=================  ================================================================================

Every kind otherwise answers like a random bot and stops after ``--matches`` matches (default 1)
or ``--seconds`` (default 120). The module needs only grpc and the generated ``standoff.v1`` code.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import sys
import threading
import time
from collections import Counter
from typing import Any

import grpc

from standoff.v1 import referee_pb2 as pb

KINDS = (
    "crash", "hang", "late", "flood", "garbage", "malformed", "replay", "other-seat", "reconnect-storm",
    "sessions",
)
ERROR_NAMES = {value: name for name, value in pb.ErrorCode.items()}


class Stream:
    """One raw ``Play`` stream: the caller decides every message (bytes or PlayRequest)."""

    def __init__(self, channel: grpc.Channel, token: str) -> None:
        self.outbox: queue.Queue = queue.Queue()
        self.inbox: queue.Queue = queue.Queue()
        self.status: grpc.StatusCode | None = None
        self.details = ""
        self.ended = threading.Event()
        call = channel.stream_stream(
            "/standoff.v1.RefereeService/Play",
            request_serializer=lambda m: m if isinstance(m, bytes) else m.SerializeToString(),
            response_deserializer=pb.PlayResponse.FromString,
        )

        def requests():
            while (item := self.outbox.get()) is not None:
                yield item

        self.call = call(requests(), metadata=(("authorization", f"Bearer {token}"),))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for message in self.call:
                self.inbox.put(message)
            self.status = grpc.StatusCode.OK
        except grpc.RpcError as exc:
            self.status, self.details = exc.code(), exc.details() or ""
        self.ended.set()
        self.inbox.put(None)

    def send(self, message: Any) -> None:
        self.outbox.put(message)

    def hello(self, name: str = "chaos") -> None:
        self.send(pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name=name)))

    def next(self, timeout: float) -> pb.PlayResponse | None:
        """The next message; None when the stream ended (or nothing came within ``timeout``)."""
        try:
            message = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None
        if message is None:
            self.inbox.put(None)
        return message

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()


def choice(match_id: str, decision_id: int, index: int) -> pb.PlayRequest:
    msg = pb.PlayRequest()
    msg.choice.match_id = match_id
    msg.choice.decision_id = decision_id
    msg.choice.option_index = index
    return msg


#: Envelopes that parse as a PlayRequest but are not a valid one (each is a protocol error).
MALFORMED = (
    b"",  # no body at all
    b"\xa0\x06\x01",  # an unknown field (number 100) and nothing else
    b"\xfa\x01\x02\x08\x01",  # an unknown oneof member (field 31, a message)
)
#: Bytes that are no PlayRequest at all (the stream ends: gRPC cannot decode them).
GARBAGE = (b"\xff\xff\xff\xff garbage \x00\x01", b"\x0a\xff\xff\xff\xff\x0f", b"\x12\x05\xc3\x28\xa0\xa1\xe2")


class Chaos:
    def __init__(self, kind: str, address: str, token: str, *, after: int = 3, count: int = 0,
                 late_ms: int = 600, matches: int = 1, seconds: float = 120.0, foreign_match: str = "",
                 seed: int = 0, exit_on_crash: bool = True) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown chaos kind {kind!r} (choose from {', '.join(KINDS)})")
        self.kind, self.address, self.token = kind, address, token
        self.after, self.late_ms, self.matches = max(1, after), late_ms, matches
        self.count = count or {"flood": 5000, "malformed": 3, "late": 3, "reconnect-storm": 20, "sessions": 10}.get(kind, 0)
        self.deadline = time.monotonic() + seconds
        self.foreign_match = foreign_match
        self.rng = random.Random(seed)
        self.exit_on_crash = exit_on_crash
        self.channel = grpc.insecure_channel(address)
        self.streams: list[Stream] = []
        self.summary: dict[str, Any] = {
            "kind": kind, "decisions": 0, "errors": Counter(), "match_ids": [], "ended": [], "sent": Counter(),
            "refused": 0, "statuses": [],
        }

    # -- helpers ------------------------------------------------------------------------------

    def open(self, hello: bool = True) -> Stream:
        stream = Stream(self.channel, self.token)
        self.streams.append(stream)
        if hello:
            stream.hello(f"chaos-{self.kind}")
        return stream

    def note(self, message: pb.PlayResponse) -> str:
        kind = message.WhichOneof("body")
        if kind == "error":
            self.summary["errors"][ERROR_NAMES.get(message.error.code, str(message.error.code))] += 1
        elif kind == "match_started" and message.match_started.match_id not in self.summary["match_ids"]:
            self.summary["match_ids"].append(message.match_started.match_id)
        elif kind == "match_ended":
            ended = message.match_ended
            self.summary["ended"].append({
                "match_id": ended.match_id, "winner": ended.winner, "termination": ended.termination,
                "faults": {f"{f.role}:{f.kind}": f.count for f in ended.faults},
            })
        return kind

    def left(self) -> float:
        return self.deadline - time.monotonic()

    # -- the main loop --------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        try:
            if self.kind == "sessions":
                stream = self._open_many()
            else:
                stream = self.open()
            self._play(stream)
        finally:
            for stream in self.streams:
                if stream.status is not None:
                    self.summary["statuses"].append(stream.status.name)
                stream.close()
            self.channel.close()
        self.summary["errors"] = dict(self.summary["errors"])
        self.summary["sent"] = dict(self.summary["sent"])
        return self.summary

    def _play(self, stream: Stream) -> None:
        previous: pb.PlayRequest | None = None
        late_left = self.count if self.kind == "late" else 0
        malformed_left = self.count if self.kind == "malformed" else 0
        while self.left() > 0:
            message = stream.next(timeout=min(1.0, max(0.01, self.left())))
            if message is None:
                if stream.ended.is_set():
                    return
                continue
            kind = self.note(message)
            if kind == "match_ended" and len(self.summary["ended"]) >= self.matches:
                return
            if kind != "decision":
                continue
            decision = message.decision
            self.summary["decisions"] += 1
            number = self.summary["decisions"]
            answer = choice(decision.match_id, decision.decision_id, self.rng.randrange(len(decision.options)))
            if number >= self.after:
                if self.kind == "crash":
                    self.summary["sent"]["crash"] += 1
                    if self.exit_on_crash:
                        print(json.dumps(self._final()), flush=True)
                        os._exit(17)  # no goodbye: the process is gone
                    stream.call.cancel()
                    return
                if self.kind == "hang":
                    self.summary["sent"]["hang"] += 1
                    self._drain(stream)  # keep the stream open, never answer
                    return
                if self.kind == "late" and late_left > 0:
                    late_left -= 1
                    self.summary["sent"]["late"] += 1
                    time.sleep(self.late_ms / 1000.0)
                if self.kind == "flood":
                    empty = pb.PlayRequest().SerializeToString()
                    for i in range(self.count):
                        stream.send(empty if i % 2 else answer)
                    self.summary["sent"]["flood"] += self.count
                    self._drain(stream, until_end=True)
                    return
                if self.kind == "garbage":
                    for data in GARBAGE:
                        stream.send(data)
                    self.summary["sent"]["garbage"] += len(GARBAGE)
                    self._drain(stream, until_end=True)
                    return
                if self.kind == "malformed" and malformed_left > 0:
                    stream.send(MALFORMED[(self.count - malformed_left) % len(MALFORMED)])
                    malformed_left -= 1
                    self.summary["sent"]["malformed"] += 1
                if self.kind == "replay" and previous is not None:
                    stream.send(previous)
                    self.summary["sent"]["replay"] += 1
                if self.kind == "other-seat":
                    stream.send(choice(decision.match_id, decision.decision_id + 1, 0))
                    self.summary["sent"]["other-seat"] += 1
                    if self.foreign_match:
                        stream.send(choice(self.foreign_match, decision.decision_id, 0))
                        self.summary["sent"]["foreign-match"] += 1
                if self.kind == "reconnect-storm" and not self.summary["sent"]["reconnect"]:
                    stream = self._storm(stream)
                    continue  # the pending decision comes again on the new session
            stream.send(answer)
            previous = answer

    def _drain(self, stream: Stream, until_end: bool = False) -> None:
        """Read (and note) whatever comes until the match ends (or, ``until_end``, the stream) or
        time is up, answering nothing."""
        while self.left() > 0:
            message = stream.next(timeout=min(1.0, max(0.01, self.left())))
            if message is None:
                if stream.ended.is_set():
                    return
                continue
            if self.note(message) == "match_ended" and len(self.summary["ended"]) >= self.matches:
                if not until_end:
                    return
                self.deadline = min(self.deadline, time.monotonic() + 10.0)  # the stream should end soon

    def _storm(self, stream: Stream) -> Stream:
        """Reconnect ``count`` times in a row (each hello supersedes the session before), then
        open a burst of parallel sessions; play on with the one that lives."""
        for _ in range(self.count):
            newer = self.open()
            while (message := newer.next(timeout=10)) is not None and self.note(message) != "welcome":
                pass
            self.summary["sent"]["reconnect"] += 1
            stream = newer
        burst = [self.open(hello=False) for _ in range(8)]
        time.sleep(1.5)  # a stream refused before its first message is ended within 1 s
        refused = [s for s in burst if s.ended.is_set() and s.status == grpc.StatusCode.RESOURCE_EXHAUSTED]
        self.summary["refused"] += len(refused)
        for s in burst:
            if not s.ended.is_set():
                s.close()
        return stream

    def _open_many(self) -> Stream:
        """``count`` streams with one token at once: those past the server's limit are refused."""
        streams = [self.open(hello=False) for _ in range(self.count)]
        time.sleep(1.5)  # a stream refused before its first message is ended within 1 s
        refused = [s for s in streams if s.ended.is_set() and s.status == grpc.StatusCode.RESOURCE_EXHAUSTED]
        self.summary["refused"] = len(refused)
        alive = [s for s in streams if not s.ended.is_set()]
        for s in alive[1:]:
            s.close()
        if not alive:
            return self.open()
        alive[0].hello(f"chaos-{self.kind}")
        return alive[0]

    def _final(self) -> dict[str, Any]:
        summary = dict(self.summary)
        summary["errors"] = dict(summary["errors"])
        summary["sent"] = dict(summary["sent"])
        return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.reliability.chaos", description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--address", default="127.0.0.1:50051")
    parser.add_argument("--token", default=None, help="default $STANDOFF_TOKEN")
    parser.add_argument("--after", type=int, default=3, help="misbehave from the bot's N-th decision on")
    parser.add_argument("--count", type=int, default=0, help="how many times (per kind; see the table)")
    parser.add_argument("--late-ms", type=int, default=600)
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--foreign-match", default="")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    token = args.token or os.environ.get("STANDOFF_TOKEN")
    if not token:
        parser.error("no token: give --token or set STANDOFF_TOKEN")
    bot = Chaos(args.kind, args.address, token, after=args.after, count=args.count, late_ms=args.late_ms,
                matches=args.matches, seconds=args.seconds, foreign_match=args.foreign_match, seed=args.seed)
    print(json.dumps(bot.run()), flush=True)
    return 0


if __name__ == "__main__":
    code = main()
    # The summary is out; leave at once. A superseded stream's request thread (gRPC's, not a
    # daemon) may still wait on its outbox and would hold interpreter exit until killed.
    sys.stdout.flush()
    os._exit(code)
