"""Malformed and random ``Play`` messages, and an asyncio client that sends many of them fast.

Message makers (all from one seeded ``random.Random``, so a failing run can be replayed):

* ``structured``: well-formed PlayRequests with hostile values (huge or unicode strings, random
  64-bit ids, indices far out of range, real match ids of matches the sender has no seat in,
  hellos with other protocol versions, many ``games``);
* ``mutated``: a valid serialised message with bits flipped, bytes inserted/deleted, truncated,
  fields duplicated or unknown fields appended;
* ``random``: random bytes (0-64 of them);
* ``unknown``: envelopes with only unknown fields or an unknown ``oneof`` member.

Bytes that do not parse as a PlayRequest end a stream (gRPC cannot decode them), so
:func:`plan_stream` puts at most one of them, last; and a hello with another protocol version
ends a session before its first good hello, so those come last too.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import grpc
from google.protobuf.message import DecodeError

from standoff.v1 import referee_pb2 as pb

ALPHABET = "abcdef0123456789-_:/ é中\u0000\U0001F600"


def _text(rng: random.Random, real: list[str]) -> str:
    roll = rng.random()
    if roll < 0.25 and real:
        return rng.choice(real)
    if roll < 0.35:
        return ""
    if roll < 0.40:
        return "x" * rng.choice((1000, 65_536, 300_000))  # big, but under the 1 MiB limit
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(1, 40)))


def _int(rng: random.Random, bits: int) -> int:
    roll = rng.random()
    if roll < 0.3:
        return rng.randrange(0, 8)
    if roll < 0.5:
        return (1 << bits) - 1 - rng.randrange(0, 4)
    return rng.getrandbits(bits)


def structured(rng: random.Random, real: list[str], helloed: bool) -> pb.PlayRequest:
    msg = pb.PlayRequest()
    if rng.random() < 0.2:
        hello = msg.hello
        hello.protocol_version = 1 if (helloed or rng.random() < 0.9) else _int(rng, 32)
        hello.bot_name = _text(rng, [])
        hello.bot_version = _text(rng, [])
        hello.games.extend(_text(rng, ["schotten-totten", "twilight-struggle"]) for _ in range(rng.randrange(0, 5)))
        while hello.ByteSize() > 900_000:  # stay under the 1 MiB limit (tested on its own)
            hello.games.pop() if hello.games else hello.ClearField("bot_name")
        hello.max_concurrent_matches = _int(rng, 32)
    else:
        c = msg.choice
        c.match_id = _text(rng, real)
        c.decision_id = _int(rng, 64)
        c.option_index = _int(rng, 32)
        c.think_us = _int(rng, 64)
    return msg


def _valid_bytes(rng: random.Random, real: list[str]) -> bytes:
    return structured(rng, real, True).SerializeToString()


def mutated(rng: random.Random, real: list[str]) -> bytes:
    data = bytearray(_valid_bytes(rng, real)[:2000])
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        if op == 0 and data:  # flip a bit
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert bytes
            i = rng.randrange(len(data) + 1)
            data[i:i] = bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 8)))
        elif op == 2 and data:  # delete a range
            i = rng.randrange(len(data))
            del data[i : i + rng.randrange(1, 8)]
        elif op == 3 and data:  # truncate
            del data[rng.randrange(len(data)) :]
        elif op == 4:  # the field again (protobuf merges repeated fields of a message)
            data += _valid_bytes(rng, real)[:2000]
        else:  # unknown fields
            data += unknown(rng)
    return bytes(data)


def random_bytes(rng: random.Random) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 65)))


def unknown(rng: random.Random) -> bytes:
    """Only unknown fields: varints, fixed64, fixed32 and length-delimited, or a oneof member
    this version does not have."""
    number = rng.choice((3, 4, 15, 31, 100, 2047, 536_870_911))
    wire = rng.choice((0, 1, 2, 5))
    key = _varint((number << 3) | wire)
    if wire == 0:
        return key + _varint(rng.getrandbits(rng.choice((7, 32, 64))))
    if wire == 1:
        return key + bytes(rng.getrandbits(8) for _ in range(8))
    if wire == 5:
        return key + bytes(rng.getrandbits(8) for _ in range(4))
    payload = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 16)))
    return key + _varint(len(payload)) + payload


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def parses(data: bytes) -> pb.PlayRequest | None:
    try:
        return pb.PlayRequest.FromString(data)
    except DecodeError:
        return None


def ends_session(message: pb.PlayRequest, helloed: bool) -> bool:
    return message.WhichOneof("body") == "hello" and not helloed and message.hello.protocol_version != 1


@dataclass
class StreamPlan:
    messages: list[bytes]
    kinds: dict[str, int] = field(default_factory=dict)


def plan_stream(rng: random.Random, size: int, real: list[str]) -> StreamPlan:
    """``size`` messages for one stream: mostly parseable ones (each answered by one message
    from the referee), then possibly one that ends the stream."""
    kinds: dict[str, int] = {}
    messages: list[bytes] = []
    helloed = False
    if rng.random() < 0.7:  # most streams say hello first, so that choices reach the match logic
        messages.append(pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name="fuzz")).SerializeToString())
        kinds["hello"] = 1
        helloed = True
    last: bytes | None = None
    while len(messages) < size - 1:
        roll = rng.random()
        if roll < 0.45:
            kind, message = "structured", structured(rng, real, helloed)
            data = message.SerializeToString()
        else:
            if roll < 0.8:
                kind, data = "mutated", mutated(rng, real)
            elif roll < 0.9:
                kind, data = "random", random_bytes(rng)
            else:
                kind, data = "unknown", unknown(rng)
            message = parses(data)
            if message is None:
                last = last or data  # cannot be decoded: only as the last message
                continue
        if ends_session(message, helloed):
            last = last or data
            continue
        if message.WhichOneof("body") == "hello" and message.hello.protocol_version == 1:
            helloed = True
        kinds[kind] = kinds.get(kind, 0) + 1
        messages.append(data)
    if last is not None and rng.random() < 0.5:
        kinds["terminal"] = 1
        messages.append(last)
    return StreamPlan(messages, kinds)


@dataclass
class Tally:
    sent: int = 0
    answered: int = 0
    streams: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)  # one example per status


async def send_plan(channel: grpc.aio.Channel, token: str, plan: StreamPlan, tally: Tally, window: int = 24,
                    stall_s: float = 1.0) -> None:
    """Send one plan on one Play stream, keeping at most ``window`` messages unanswered (so the
    referee's inbox never overflows: this is fuzzing, not flooding)."""
    call = channel.stream_stream(
        "/standoff.v1.RefereeService/Play", request_serializer=None, response_deserializer=None,
    )(metadata=(("authorization", f"Bearer {token}"),))
    answered = 0
    room = asyncio.Event()
    room.set()
    done = asyncio.Event()

    async def read() -> None:
        nonlocal answered
        try:
            while (message := await call.read()) is not grpc.aio.EOF:
                answered += 1
                room.set()
        except (grpc.RpcError, asyncio.CancelledError):
            pass
        finally:
            done.set()
            room.set()

    reader = asyncio.ensure_future(read())
    sent = 0
    try:
        for data in plan.messages:
            while sent - answered >= window and not done.is_set():
                room.clear()
                try:
                    await asyncio.wait_for(room.wait(), stall_s)
                except asyncio.TimeoutError:
                    answered += 1  # a message that gets no answer (seated sessions): move on
            if done.is_set():
                break
            try:
                await call.write(data)
            except (grpc.RpcError, asyncio.InvalidStateError):
                break
            sent += 1
        if not done.is_set():
            await call.done_writing()
        try:
            await asyncio.wait_for(done.wait(), 5)
        except asyncio.TimeoutError:
            call.cancel()
        code = await call.code()
        if code.name not in tally.details:
            tally.details[code.name] = await call.details()
    finally:
        reader.cancel()
    tally.sent += sent
    tally.answered += answered
    tally.streams += 1
    tally.statuses[code.name] = tally.statuses.get(code.name, 0) + 1
    for kind, n in plan.kinds.items():
        tally.kinds[kind] = tally.kinds.get(kind, 0) + n


async def fuzz(address: str, tokens: list[str], total: int, *, seed: int = 0, per_stream: int = 250,
               concurrency: int = 32, real: list[str] | None = None, progress=None,
               tally: Tally | None = None) -> Tally:
    """Send at least ``total`` messages over streams of ``per_stream``, ``concurrency`` at a time,
    spread over ``tokens``, one stream per token at a time (a second stream's hello would
    supersede the first session, which the server then ends while its client is still writing)."""
    tally = tally if tally is not None else Tally()
    goal = tally.sent + total
    rng = random.Random(seed)
    real = real if real is not None else []
    channels = [grpc.aio.insecure_channel(address, options=[("grpc.max_send_message_length", 4 << 20)])
                for _ in range(4)]
    per_token = {t: asyncio.Semaphore(1) for t in tokens}
    pending: set[asyncio.Task] = set()
    started = time.monotonic()
    number = 0
    try:
        while tally.sent + sum(len(getattr(t, "plan").messages) for t in pending) < goal:
            plan = plan_stream(random.Random(rng.getrandbits(64)), per_stream, real)
            token = tokens[number % len(tokens)]
            channel = channels[number % len(channels)]
            number += 1

            async def one(token=token, channel=channel, plan=plan) -> None:
                async with per_token[token]:
                    await send_plan(channel, token, plan, tally)

            task = asyncio.ensure_future(one())
            task.plan = plan  # type: ignore[attr-defined]
            pending.add(task)
            if len(pending) >= concurrency:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for t in done:
                    t.result()
                if progress is not None:
                    progress(tally, time.monotonic() - started)
        if pending:
            for t in (await asyncio.wait(pending))[0]:
                t.result()
    finally:
        for channel in channels:
            await channel.close()
    return tally


async def seated(channel: grpc.aio.Channel, token: str, rng: random.Random, tally: Tally, *, seconds: float,
                 foreign: list[str], matches: int = 1) -> int:
    """A session that holds a seat and answers each decision with up to 5 hostile messages
    (out-of-range indices, old or future decision ids, foreign match ids, malformed envelopes)
    and then, nine times in ten, a valid answer (so give its matches a time control). Returns the
    number of matches it saw end."""
    call = channel.stream_stream(
        "/standoff.v1.RefereeService/Play", request_serializer=None, response_deserializer=pb.PlayResponse.FromString,
    )(metadata=(("authorization", f"Bearer {token}"),))
    await call.write(pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name="seated-fuzz")).SerializeToString())
    sent, ended = 1, 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            try:
                message = await asyncio.wait_for(call.read(), max(0.05, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if message is grpc.aio.EOF:
                break
            kind = message.WhichOneof("body")
            if kind == "match_ended":
                ended += 1
                if ended >= matches:
                    break
            if kind != "decision":
                continue
            d = message.decision
            for _ in range(rng.randrange(0, 6)):
                roll = rng.random()
                c = pb.PlayRequest()
                c.choice.match_id = d.match_id
                if roll < 0.3:
                    c.choice.decision_id = d.decision_id
                    c.choice.option_index = len(d.options) + rng.randrange(0, 1 << 31)
                elif roll < 0.6:
                    c.choice.decision_id = rng.choice((0, max(0, d.decision_id - 1), d.decision_id + 1, _int(rng, 64)))
                    c.choice.option_index = rng.randrange(0, len(d.options))
                elif roll < 0.8 and foreign:
                    c.choice.match_id = rng.choice(foreign)
                    c.choice.decision_id = d.decision_id
                else:
                    data = mutated(rng, [d.match_id]) if rng.random() < 0.5 else unknown(rng)
                    if parses(data) is None:
                        continue
                    await call.write(data)
                    sent += 1
                    continue
                await call.write(c.SerializeToString())
                sent += 1
            if rng.random() < 0.9:
                c = pb.PlayRequest()
                c.choice.match_id = d.match_id
                c.choice.decision_id = d.decision_id
                c.choice.option_index = rng.randrange(0, len(d.options))
                await call.write(c.SerializeToString())
                sent += 1
    except grpc.RpcError:
        pass
    finally:
        call.cancel()
    tally.sent += sent
    tally.kinds["seated"] = tally.kinds.get("seated", 0) + sent
    return ended
