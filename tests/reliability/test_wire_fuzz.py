"""Wire fuzzing against a live `standoff serve` process: 100,000 malformed and random messages
(and 1,000,000 more with STANDOFF_LONG=1). The server never crashes, its memory stays bounded, and
well-formed sessions alongside keep playing. A Hypothesis property checks every answer of a
session against a model of the protocol."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kits.reliability import LONG, LimitedServer, ServeProcess, report

import fuzzwire
from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.v1 import referee_pb2 as pb

#: RSS the server may grow by between the warm-up and the end of the run (allocator noise,
#: caches, finished-match summaries); a leak per message would be far beyond it.
RSS_TOLERANCE_KB = 48 * 1024
SEATED_MATCHES = 5


def test_wire_fuzz_server_survives_and_others_play(tmp_path):
    _fuzz_run(tmp_path, 100_000)


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set STANDOFF_LONG=1")
def test_wire_fuzz_long(tmp_path):
    """The long version of the above: 1,000,000 messages with another seed (about 4 minutes)."""
    _fuzz_run(tmp_path, 1_000_000, seed=7)


def _fuzz_run(tmp_path, total: int, seed: int = 1) -> None:
    registry = TokenRegistry(tmp_path / "tokens.json")
    admin = registry.add("admin", admin=True)
    tokens = [registry.add(f"fuzz{i}") for i in range(48)]
    seated_tokens = [registry.add(f"seat{i}") for i in range(4)]
    healthy_a, healthy_b = registry.add("healthy-a"), registry.add("healthy-b")
    srv = ServeProcess(tmp_path, admin)  # default limits: 4 sessions/bot, 5,000 msgs/s
    stop = threading.Event()
    healthy_done: list[pb.MatchSummary] = []
    try:
        thread_a, box_a = run_in_thread(RandomBot(1), srv.address, healthy_a)
        thread_b, box_b = run_in_thread(RandomBot(2), srv.address, healthy_b)

        def healthy_matches() -> None:  # one healthy match after another for as long as we fuzz
            seed_ = 1
            while not stop.is_set():
                response = srv.call("StartMatch", pb.StartMatchRequest(
                    game="schotten-totten", bots=["remote:healthy-a", "remote:healthy-b"], seed=seed_, wait=True,
                    connect_timeout_ms=30_000), pb.StartMatchResponse)
                healthy_done.append(response.summary)
                seed_ += 1

        driver = threading.Thread(target=healthy_matches, daemon=True)
        driver.start()
        # Seated fuzzers: real seats in matches (random policy: their junk is counted, the match
        # goes on), and the healthy matches' ids as foreign ids to answer for.
        # They leave one decision in ten unanswered, so their matches get a clock: 1 s, not
        # tighter, because the in-process opponent's clock includes waiting for the GIL, and a
        # server saturated by the fuzz once made it miss 300 ms.
        tc = pb.TimeControl(max_per_decision_ms=1000)
        seated_ids = []
        for i in range(len(seated_tokens)):  # 5 matches at once per seated session; seat3 plays TS
            game = {"game": "twilight-struggle", "options": {"end_turn": "2"}} if i == 3 else {}
            seated_ids += [srv.start_match([f"remote:seat{i}", "random"], seed=300 + 10 * i + k, time_control=tc,
                                           fault_policy=pb.FAULT_POLICY_RANDOM, connect_timeout_ms=30_000,
                                           **game).match_id for k in range(SEATED_MATCHES)]
        samples: list[tuple[float, int]] = []

        async def main() -> tuple[fuzzwire.Tally, float, int, int]:
            tally = fuzzwire.Tally()
            channel = grpc.aio.insecure_channel(srv.address)
            seated = [asyncio.ensure_future(fuzzwire.seated(channel, token, random.Random(i), tally, seconds=120,
                                                            foreign=[m.match_id for m in healthy_done[-3:]],
                                                            matches=SEATED_MATCHES))
                      for i, token in enumerate(seated_tokens)]
            started = time.monotonic()
            await fuzzwire.fuzz(srv.address, tokens, total // 10, seed=seed, real=seated_ids, tally=tally)
            rss_warm = srv.rss_kb()
            samples.append((time.monotonic() - started, rss_warm))

            def progress(t, elapsed):
                if elapsed - samples[-1][0] > 1.0:
                    samples.append((elapsed, srv.rss_kb()))

            await fuzzwire.fuzz(srv.address, tokens, total - tally.sent, seed=seed + 1, tally=tally,
                                real=seated_ids + [m.match_id for m in healthy_done[-5:]],
                                progress=lambda t, _: progress(t, time.monotonic() - started))
            elapsed = time.monotonic() - started
            ended = sum(await asyncio.gather(*seated))
            await channel.close()
            return tally, elapsed, rss_warm, ended

        rss_start = srv.rss_kb()
        tally, elapsed, rss_warm, seated_ended = asyncio.run(main())
        rss_end = srv.rss_kb()
        stop.set()
        driver.join(120)

        assert srv.alive(), "the server died"
        assert tally.sent >= total, tally
        # The server answered (or refused with a status) every stream; it never hung up rudely.
        assert set(tally.statuses) <= {"OK", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED"}, tally.details
        assert srv.log_errors() == []
        # Memory: bounded (no growth per message beyond the tolerance after warm-up).
        peak = max(rss for _, rss in samples + [(0, rss_end)])
        assert rss_end - rss_warm < RSS_TOLERANCE_KB, (rss_warm, rss_end)
        # Well-formed sessions kept playing: healthy matches completed without a fault.
        assert len(healthy_done) >= 3
        for summary in healthy_done:
            assert summary.result.termination not in ("forfeit", "aborted", "not_played"), summary
            assert not summary.result.faults, summary
        # The seated fuzzers' matches ended (their junk counted as faults), nothing else hurt.
        finished = {m.match_id: m for m in srv.matches(pb.MATCH_STATUS_FINISHED)}
        for match_id in seated_ids:
            summary = finished.get(match_id)
            assert summary is not None, f"seated match {match_id} did not finish"
            assert all(f.role == summary.seats[0].role for f in summary.result.faults), summary
        assert srv.start_match(["random", "random"], wait=True).summary.result.termination != "forfeit"
        report("wire_fuzz", messages=tally.sent, streams=tally.streams, seconds=round(elapsed, 1),
               messages_per_s=round(tally.sent / elapsed), rss_start_kb=rss_start, rss_warm_kb=rss_warm,
               rss_peak_kb=peak, rss_end_kb=rss_end, rss_growth_kb=rss_end - rss_warm, kinds=tally.kinds,
               statuses=tally.statuses, healthy_matches=len(healthy_done), seated_matches_ended=seated_ended)
    finally:
        stop.set()
        srv.stop()


# -- a property: every answer of a session, as a model of the protocol predicts --------------------

choices = st.builds(
    lambda m, d, i, t: pb.PlayRequest(choice=pb.Choice(match_id=m, decision_id=d, option_index=i, think_us=t)),
    st.text(max_size=40), st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1),
)
hellos = st.builds(
    lambda v, n, g: pb.PlayRequest(hello=pb.Hello(protocol_version=v, bot_name=n, games=g)),
    st.one_of(st.just(1), st.just(1), st.integers(0, 2**32 - 1)), st.text(max_size=40),
    st.lists(st.text(max_size=20), max_size=4),
)
envelopes = st.one_of(
    choices.map(lambda m: m.SerializeToString()),
    hellos.map(lambda m: m.SerializeToString()),
    st.binary(max_size=48),
    st.builds(lambda seed: fuzzwire.mutated(random.Random(seed), []), st.integers(0, 2**32)),
    st.builds(lambda seed: fuzzwire.unknown(random.Random(seed)), st.integers(0, 2**32)),
)


def expected_answers(messages: list[bytes]) -> tuple[list[tuple[str, int]], str]:
    """What a session with no seat answers to ``messages``, and the status it ends with."""
    answers: list[tuple[str, int]] = []
    helloed = False
    for data in messages:
        message = fuzzwire.parses(data)
        if message is None:
            return answers, "INVALID_ARGUMENT"
        kind = message.WhichOneof("body")
        if kind == "hello" and not helloed:
            if message.hello.protocol_version != 1:
                answers.append(("error", pb.ERROR_CODE_UNSUPPORTED_VERSION))
                return answers, "FAILED_PRECONDITION"
            answers.append(("welcome", 0))
            helloed = True
        elif kind == "choice" and helloed:
            answers.append(("error", pb.ERROR_CODE_NOT_YOUR_MATCH))
        else:  # a choice before hello, a second hello, no body or an unknown one
            answers.append(("error", pb.ERROR_CODE_PROTOCOL))
    return answers, "OK"


def test_every_answer_is_what_the_protocol_says(tmp_path):
    """Hypothesis: random sequences of envelopes (valid, hostile, malformed, undecodable) get
    exactly the answers a model of the protocol predicts, and the stream ends as predicted."""
    srv = LimitedServer(tmp_path).start()
    token = srv.tokens.add("prop")
    count = {"examples": 0, "messages": 0}
    try:
        @settings(max_examples=600 if LONG else 120, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.lists(envelopes, min_size=1, max_size=25))
        def check(messages):
            answers, status = _exchange(srv.address, token, messages)
            want, want_status = expected_answers(messages)
            assert answers == want
            assert status == want_status
            count["examples"] += 1
            count["messages"] += len(messages)

        check()
        assert srv.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse) is not None
        report("wire_property", **count)
    finally:
        srv.stop()


def _exchange(address: str, token: str, messages: list[bytes]) -> tuple[list[tuple[str, int]], str]:
    with grpc.insecure_channel(address) as channel:
        call = channel.stream_stream(
            "/standoff.v1.RefereeService/Play", request_serializer=None,
            response_deserializer=pb.PlayResponse.FromString,
        )
        stream = call(iter(messages), metadata=(("authorization", f"Bearer {token}"),), timeout=30)
        answers = []
        try:
            for response in stream:
                kind = response.WhichOneof("body")
                answers.append((kind, response.error.code if kind == "error" else 0))
            status = "OK"
        except grpc.RpcError as exc:
            status = exc.code().name
    return answers, status
