"""Security checks of the referee server.

Already covered elsewhere (referenced, not repeated):

* no token / wrong token: ``tests/server/test_referee.py::test_missing_or_wrong_token_is_refused``;
* revoked token, non-admin StartMatch: ``test_referee.py::test_revoked_token_and_non_admin_start``;
* hashed token store: ``tests/server/test_auth_and_serve.py::test_registry_stores_only_hashes_and_verifies``;
* TLS with a test CA: ``test_auth_and_serve.py::test_tls_with_a_test_ca``;
* plaintext refused on non-loopback binds: ``test_auth_and_serve.py::test_plaintext_on_a_public_address_is_refused``
  and ``::test_serve_refuses_plaintext_public_address_via_cli``;
* answering for another seat or match: ``test_referee.py::test_a_bot_cannot_answer_for_another_seat_or_match``;
* Schotten Totten views leak-tested at the wire: ``test_referee.py::test_wire_bytes_depend_only_on_what_the_seat_may_see``.

Here: the 1 MiB message limit, the per-token session limit and rate limit (``serve
--max-sessions-per-bot``, ``--rate-limit``, ``--rate-burst``), what a session is ever sent
(only its own matches and seats), records of running matches, and the Twilight Struggle wire
leak test.
"""

from __future__ import annotations

import queue
import random
import threading
import time

import grpc
import pytest
from kits.reliability import LONG, LimitedServer, report, wait_until
from kits.server import RawClient

from standoff.server import cli
from standoff.server.core.record import parse_record
from standoff.server.games import get_game
from standoff.server.rpc import Limits
from standoff.server.wire import decision_message, encode_view, serialize
from standoff.v1 import referee_pb2 as pb


def hello_of(size: int) -> bytes:
    return pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name="x" * size)).SerializeToString()


# -- message size ------------------------------------------------------------------------------------


def test_a_message_over_1_mib_is_refused_and_the_server_serves_on(server):
    token = server.tokens.add("big")
    big = RawClient(server.address, token, hello=False)
    big.send(hello_of((1 << 20) + 100))
    assert big.next() is None
    assert big.status.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "larger than max" in big.status.details()
    big.close()
    # just under the limit is a message like any other
    fine = RawClient(server.address, token, hello=False)
    fine.send(hello_of((1 << 20) - 1000))
    assert fine.next("welcome") is not None
    fine.close()
    # the same for a unary call
    with pytest.raises(grpc.RpcError) as info:
        server.call("StartMatch", pb.StartMatchRequest(game="x" * ((1 << 20) + 10)), pb.StartMatchResponse)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert server.start_match(["random", "random"], wait=True).summary.status == pb.MATCH_STATUS_FINISHED


# -- sessions per token ----------------------------------------------------------------------------


def _ended(client: RawClient, timeout: float = 5.0) -> bool:
    return wait_until(lambda: client.status is not None, timeout)


def test_sessions_per_token_are_limited_and_reconnecting_still_works(tmp_path):
    srv = LimitedServer(tmp_path, limits=Limits(max_sessions_per_bot=2)).start()
    try:
        token = srv.tokens.add("alice")
        first = RawClient(srv.address, token)
        first.next("welcome")
        # Two more streams, no hello yet (they count): whichever the server sees second is
        # refused (on a loaded machine the second one opened may arrive first).
        a = RawClient(srv.address, token, hello=False)
        b = RawClient(srv.address, token, hello=False)
        assert wait_until(lambda: a.status is not None or b.status is not None, 5)
        third, idle = (a, b) if a.status is not None else (b, a)
        assert third.status.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "2 open sessions (limit 2" in third.status.details()
        assert not _ended(idle, 0.5)  # the other one stays open
        # Another token is not affected.
        other = RawClient(srv.address, srv.tokens.add("bob"))
        assert other.next("welcome") is not None
        # A closed session frees its place.
        idle.close()
        assert wait_until(lambda: _try_open(srv.address, token), 5)
        # Reconnect: a new session's hello supersedes (and closes) the older one, which then no
        # longer counts, so a bot that reconnects again and again is never refused.
        match_id = srv.start_match(["remote:alice", "random"], seed=3).match_id
        decision = first.next("decision").decision
        for _ in range(5):
            newer = RawClient(srv.address, token)
            welcome = newer.next("welcome").welcome
            assert list(welcome.resumed_match_ids) == [match_id]
            error = first.next("error").error
            assert "superseded" in error.message
            assert first.next() is None and first.status is None  # ended with OK
            first = newer
        again = first.next("decision").decision
        assert again.decision_id == decision.decision_id  # the pending decision comes again
        first.choose(again, 0)
        while (msg := first.next()) is not None and msg.WhichOneof("body") != "match_ended":
            if msg.WhichOneof("body") == "decision":
                first.choose(msg.decision, 0)
        assert msg.match_ended.termination != "forfeit" and not msg.match_ended.faults
        for c in (first, other):
            c.close()
    finally:
        srv.stop()


def _try_open(address: str, token: str) -> bool:
    """Whether a new stream (no hello: it must not supersede anyone) is let in."""
    client = RawClient(address, token, hello=False)
    refused = _ended(client, 1.5)  # a refused stream that sends nothing is ended within 1 s
    client.close()
    return not refused


def test_no_session_limit_when_zero(tmp_path):
    srv = LimitedServer(tmp_path, limits=Limits(max_sessions_per_bot=0)).start()
    try:
        token = srv.tokens.add("alice")
        clients = [RawClient(srv.address, token, hello=False) for _ in range(10)]
        time.sleep(1.5)  # (a refused stream that sends nothing is ended within 1 s)
        assert all(c.status is None for c in clients)
        for c in clients:
            c.close()
    finally:
        srv.stop()


def test_the_sdk_stops_on_resource_exhausted_without_retrying(tmp_path, caplog):
    """A session refused by a limit is final for the SDK: run() raises SessionError with the
    status at once instead of reconnecting in a loop (that would only hit the limit again)."""
    from standoff.bots.random_bot import RandomBot
    from standoff.sdk.client import SessionError, run

    srv = LimitedServer(tmp_path, limits=Limits(max_sessions_per_bot=1)).start()
    try:
        token = srv.tokens.add("alice")
        # alice's one allowed stream, surely counted before run() opens its own: the stream is
        # opened lazily, and on a loaded machine run() could otherwise take the slot first and
        # wait forever for a match (a CI run hung here until its 90-minute limit).
        holder = RawClient(srv.address, token)
        assert holder.next("welcome") is not None
        with caplog.at_level("WARNING", logger="standoff.sdk"), pytest.raises(SessionError) as refused:
            run(RandomBot(1), srv.address, token, matches=1)
        assert refused.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "open sessions" in str(refused.value)
        assert not [r for r in caplog.records if "reconnecting" in r.getMessage()]
        holder.close()
    finally:
        srv.stop()


# -- rate limit ------------------------------------------------------------------------------------


def test_rate_limit_ends_a_fast_session_and_spares_a_slow_one(tmp_path):
    srv = LimitedServer(tmp_path, limits=Limits(rate_limit=50.0, rate_burst=20)).start()
    try:
        token = srv.tokens.add("fast")
        fast = RawClient(srv.address, token, hello=False)
        empty = pb.PlayRequest().SerializeToString()
        for _ in range(100):  # 100 messages in ~0.2 s: far over 50/s + 20, never near the inbox limit
            fast.send(empty)
            time.sleep(0.002)
        errors = 0
        while (msg := fast.next()) is not None:
            errors += msg.WhichOneof("body") == "error"
        assert fast.status.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "rate limit" in fast.status.details() and "50 messages/s" in fast.status.details()
        assert 20 <= errors < 100  # the burst (and what refilled meanwhile) was served
        fast.close()
        # The bucket belongs to the token, not the stream: reconnecting at once does not reset it.
        again = RawClient(srv.address, token)  # hello + 15 at once: a fresh bucket would hold 20
        for _ in range(15):
            again.send(empty)
        answered = 0
        while again.next() is not None:
            answered += 1
        assert again.status.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and answered < 16
        again.close()
        time.sleep(0.5)  # ...but waiting does (25 messages refilled)
        rested = RawClient(srv.address, token)
        assert rested.next("welcome") is not None
        rested.close()
        # A bot within the limit is never cut: 30 messages at 25/s.
        slow = RawClient(srv.address, srv.tokens.add("slow"))
        slow.next("welcome")
        for _ in range(30):
            slow.send(empty)
            time.sleep(0.04)
        answers = [slow.next("error") for _ in range(30)]
        assert all(a is not None for a in answers) and slow.status is None
        slow.close()
        # Unary calls are messages too.
        codes = set()
        for _ in range(40):
            try:
                srv.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse, token=token)
                codes.add("OK")
            except grpc.RpcError as exc:
                codes.add(exc.code().name)
        assert codes == {"OK", "RESOURCE_EXHAUSTED"}
    finally:
        srv.stop()


def test_serve_options_reach_the_server(monkeypatch):
    seen = {}

    async def fake_serve_forever(address, **kwargs):
        seen.update(kwargs, address=address)

    monkeypatch.setattr("standoff.server.rpc.serve_forever", fake_serve_forever)
    monkeypatch.setattr(cli, "_registry", lambda: None)
    assert cli.main(["serve", "--address", "127.0.0.1:0", "--max-sessions-per-bot", "2", "--rate-limit", "100",
                     "--rate-burst", "50", "--log-level", "error"]) == 0
    assert seen["limits"] == Limits(2, 100.0, 50)
    assert cli.main(["serve", "--address", "127.0.0.1:0", "--log-level", "error"]) == 0
    assert seen["limits"] == Limits()  # the defaults: 4 sessions, 5,000 messages/s, burst 10,000
    assert cli.main(["serve", "--rate-limit", "-1", "--log-level", "error"]) == 2


# -- what a session is ever sent -------------------------------------------------------------------


class Player:
    """A raw session that answers at random and keeps every message it was sent."""

    def __init__(self, srv, name: str, seed: int) -> None:
        self.client = RawClient(srv.address, srv.tokens.add(name))
        self.received: list[pb.PlayResponse] = []
        self.rng = random.Random(seed)
        self.ended: set[str] = set()
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self) -> None:
        while True:
            try:
                msg = self.client.inbox.get(timeout=60)
            except queue.Empty:
                return
            if msg is None:
                return
            self.received.append(msg)
            kind = msg.WhichOneof("body")
            if kind == "decision":
                self.client.choose(msg.decision, self.rng.randrange(len(msg.decision.options)))
            elif kind == "match_ended":
                self.ended.add(msg.match_ended.match_id)


def test_a_session_only_ever_hears_about_its_own_matches_and_seats(server):
    alice, bob, carol = (Player(server, name, seed) for seed, name in enumerate(("alice", "bob", "carol")))
    for p in (alice, bob, carol):
        assert wait_until(lambda p=p: any(m.WhichOneof("body") == "welcome" for m in p.received), 10)
    ids = {
        "ab": server.start_match(["remote:alice", "remote:bob"], seed=1).match_id,
        "cg": server.start_match(["remote:carol", "greedy"], seed=2).match_id,
        "ba": server.start_match(["remote:bob", "remote:alice"], seed=3, game="twilight-struggle",
                                 options={"end_turn": "1"}).match_id,
        "aa": server.start_match(["remote:alice", "remote:alice"], seed=4).match_id,  # self-play
    }
    # Another bot may list matches (summaries: ids, seats, status) but not read the record of
    # one still being played.
    holder = RawClient(server.address, server.tokens.add("holder"))
    holder.next("welcome")
    held = server.start_match(["remote:holder", "random"], seed=5).match_id
    holder.next("decision")  # running now, and waiting for holder's answer
    bob_token = server.tokens.mint_ephemeral("bob-reader")
    listing = server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse, token=bob_token)
    summary = next(m for m in listing.matches if m.match_id == held)
    assert summary.status == pb.MATCH_STATUS_RUNNING and [s.bot for s in summary.seats] == ["remote:holder", "random"]
    with pytest.raises(grpc.RpcError) as info:
        server.call("GetMatchRecord", pb.GetMatchRecordRequest(match_id=held), pb.GetMatchRecordResponse, token=bob_token)
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    holder.close()
    mine = {"alice": {ids["ab"], ids["ba"], ids["aa"]}, "bob": {ids["ab"], ids["ba"]}, "carol": {ids["cg"]}}
    for name, player in (("alice", alice), ("bob", bob), ("carol", carol)):
        assert wait_until(lambda p=player, n=name: p.ended >= mine[n], 60), (name, player.ended)
    for name, player in (("alice", alice), ("bob", bob), ("carol", carol)):
        roles: dict[str, set[str]] = {}
        for msg in player.received:
            kind = msg.WhichOneof("body")
            if kind == "match_started":
                assert msg.match_started.match_id in mine[name]
                roles.setdefault(msg.match_started.match_id, set()).add(msg.match_started.role)
        decided = 0
        for msg in player.received:
            kind = msg.WhichOneof("body")
            body = getattr(msg, kind)
            match_id = getattr(body, "match_id", "")
            assert match_id in mine[name] | {""}, (name, kind, match_id)
            if kind == "decision":
                view = msg.decision.view
                seen_as = getattr(view, view.WhichOneof("game")).role
                assert msg.decision.role in roles[match_id] and seen_as == msg.decision.role
                decided += 1
        assert decided > 10
        # ...and each decision it got was one of its own seats' in the record.
        for match_id in mine[name]:
            record = parse_record(server.record(match_id).splitlines())
            own = {m["n"] for m in record.moves if m["role"] in roles[match_id]}
            got = {m.decision.decision_id for m in player.received
                   if m.WhichOneof("body") == "decision" and m.decision.match_id == match_id}
            assert got <= own and got
    for p in (alice, bob, carol):
        p.client.close()


# -- Twilight Struggle views at the wire --------------------------------------------------------------


def test_twilight_struggle_wire_bytes_depend_only_on_what_the_seat_may_see(server):
    """Every decision message the USSR seat received is byte-identical to the one built from a
    state in which everything the USSR cannot see (the US hand, the draw pile, a secret US
    headline) was re-dealt."""
    ts = get_game("twilight-struggle")
    checks = {}
    runs = [("ussr", ["remote:{}", "random"], 21), ("us", ["random", "remote:{}"], 22),
            ("ussr", ["remote:{}", "random"], 23), ("us", ["random", "remote:{}"], 24)]
    for number, (role, bots, seed) in enumerate(runs):
        name = f"leak-{number}"
        client = RawClient(server.address, server.tokens.mint_ephemeral(name))
        client.next("welcome")
        match_id = server.start_match([b.format(name) for b in bots], game="twilight-struggle",
                                      options={"end_turn": "3"}, seed=seed).match_id
        received = {}
        rng = random.Random(0)
        while (msg := client.next(timeout=60)) is not None:
            kind = msg.WhichOneof("body")
            if kind == "decision":
                received[msg.decision.decision_id] = msg.decision
                client.choose(msg.decision, rng.randrange(len(msg.decision.options)))
            elif kind == "match_ended":
                break
        record = parse_record(server.record(match_id).splitlines())
        state = ts.new_state(ts.rules(record.header["ruleset"], record.header["options"]))
        redeal = random.Random(1)
        checked = 0
        for move in record.moves:
            decision = ts.decision(state)
            if move["n"] in received:
                wire = received[move["n"]]
                since = wire.view.twilight_struggle.history_from
                for _ in range(2):
                    other = ts.determinize(state, role, redeal)
                    rebuilt = decision_message(match_id, move["n"], ts.decision(other),
                                               encode_view(ts.name, ts.view(other, role, since)), {})
                    assert serialize(rebuilt.decision) == serialize(wire), (role, move)
                checked += 1
            ts.apply(state, decision.options[decision.index_of(move["key"])])
        assert checked == len(received) > 20, (role, checked)
        checks[f"{role}/{seed}"] = checked
        client.close()
    report("ts_wire_leak", decisions_checked=checks)


# -- a client that never reads -------------------------------------------------------------------


def test_a_session_whose_client_does_not_read_is_ended_at_the_queue_limit():
    """The referee queues at most OUT_LIMIT messages for a session; past that the session ends
    with RESOURCE_EXHAUSTED instead of queueing without bound (unit level: deterministic)."""
    import asyncio
    from collections import deque

    from standoff.server.auth import Identity
    from standoff.server.rpc import STATUS_OF_ENDING
    from standoff.server.sessions import OUT_LIMIT, Session

    class Inbox:
        def __init__(self):
            self.items, self.closed = deque([1, 2]), False

        def close(self):
            self.closed = True

    session = Session(id="s", identity=Identity("deaf"), inbox=Inbox(), out=asyncio.Queue())
    for _ in range(OUT_LIMIT + 10):
        session.send(b"x")
    assert session.closed and session.out.qsize() == OUT_LIMIT + 1  # ...and the end marker
    ending, details = session.ending
    assert STATUS_OF_ENDING[ending] == grpc.StatusCode.RESOURCE_EXHAUSTED and "not reading" in details
    assert session.inbox.closed and not session.inbox.items  # nothing more is handled for it


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: set STANDOFF_LONG=1")
def test_a_client_that_never_reads_is_ended_not_buffered_forever(tmp_path):
    """End to end: a client that sends (paced, 20 per ms) and never reads what it is sent fills
    the transport's buffers (a few hundred kB to MBs), then the referee's queues: its session is
    ended with RESOURCE_EXHAUSTED instead of the server buffering without bound."""
    srv = LimitedServer(tmp_path, limits=Limits(rate_limit=0)).start()  # (the rate limit would cut it first)
    try:
        token = srv.tokens.add("deaf")
        choice = pb.PlayRequest(choice=pb.Choice(match_id="m" * 60, decision_id=1)).SerializeToString()
        total = 60_000
        sent = [0]

        def messages():
            yield hello_of(10)
            for number in range(total):
                if number % 20 == 0:
                    time.sleep(0.001)
                sent[0] += 1
                yield choice

        with grpc.insecure_channel(srv.address) as channel:
            call = channel.stream_stream("/standoff.v1.RefereeService/Play", request_serializer=None,
                                         response_deserializer=pb.PlayResponse.FromString)
            responses = call(messages(), metadata=(("authorization", f"Bearer {token}"),), timeout=120)
            sessions = srv.running.referee.sessions
            assert wait_until(lambda: sent[0] == total or ("deaf" not in sessions and sent[0] > 100), 90)
            time.sleep(0.3)
            assert "deaf" not in sessions  # the referee gave up on it
            read = 0
            with pytest.raises(grpc.RpcError) as info:
                for _ in responses:  # now read what was buffered
                    read += 1
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "not reading" in info.value.details() or "flooding" in info.value.details()
        assert read < total
        report("not_reading", answers_buffered_before_the_cut=read, details=info.value.details())
    finally:
        srv.stop()


# -- a flood of answers while the seat is not asked -----------------------------------------------


def test_a_flood_of_answers_while_the_opponent_thinks_ends_only_that_session(server):
    """Regression: answers queue for a seat until its match asks it. Before the per-seat limit, the
    65th queued answer raised inside the referee and stopped it for everyone (every later call
    failed with trio.RunFinishedError). Now that one session ends with RESOURCE_EXHAUSTED."""
    alice = RawClient(server.address, server.tokens.add("alice"))
    bob = RawClient(server.address, server.tokens.add("bob"))  # never answers: alice's seat is not asked
    alice.next("welcome"), bob.next("welcome")
    server.start_match(["remote:alice", "remote:bob"], seed=3, fault_policy=pb.FAULT_POLICY_RANDOM,
                       time_control=pb.TimeControl(max_per_decision_ms=5_000), options={"first": "p1"})
    last = None
    while True:  # answer alice's decisions until it is bob's turn
        try:
            msg = alice.inbox.get(timeout=1.0)
        except queue.Empty:
            break
        if msg.WhichOneof("body") == "decision":
            last = msg.decision
            alice.choose(last, 0)
    assert last is not None
    for _ in range(100):
        alice.choose(last, 0, decision_id=1)
    while alice.next() is not None:
        pass
    assert alice.status.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "answers waiting for one seat" in alice.status.details()
    assert server.start_match(["random", "random"], wait=True).summary.status == pb.MATCH_STATUS_FINISHED
    alice.close(), bob.close()
