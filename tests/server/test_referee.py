"""The referee server end to end: real gRPC on 127.0.0.1, SDK bots and scripted raw sessions."""

from __future__ import annotations

import json
import queue
import random
import threading
import time

import grpc
import pytest
import trio
from kits.server import RawClient, ServerThread

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import SessionError, run, run_in_thread
from standoff.server.core.record import parse_record, replay
from standoff.server.games import get_game
from standoff.server.local import chance_rng, sample_chance
from standoff.server.wire import decision_message, encode_view, serialize
from standoff.v1 import referee_pb2 as pb

ST = get_game("schotten-totten")


def play_out(client: RawClient, choose=lambda decision: 0, timeout: float = 30.0) -> pb.MatchEnded:
    """Answer every decision until the match ends; returns MatchEnded."""
    while True:
        msg = client.next(timeout=timeout)
        assert msg is not None, f"stream ended: {client.status}"
        kind = msg.WhichOneof("body")
        if kind == "decision":
            client.choose(msg.decision, choose(msg.decision))
        elif kind == "match_ended":
            return msg.match_ended


def faults(ended: pb.MatchEnded) -> dict[tuple[str, str], int]:
    return {(f.role, f.kind): f.count for f in ended.faults}


def record_lines(server: ServerThread, match_id: str) -> list[dict]:
    return [json.loads(line) for line in server.record(match_id).splitlines()]


def test_two_sdk_bots_play_complete_matches(server):
    alice, bob = server.tokens.add("alice"), server.tokens.add("bob")
    ta, box_a = run_in_thread(RandomBot(1), server.address, alice, matches=2)
    tb, box_b = run_in_thread(RandomBot(2), server.address, bob, matches=2)
    ids = [server.start_match(["remote:alice", "remote:bob"], seed=s, wait=True).match_id for s in (11, 12)]
    ta.join(30), tb.join(30)
    assert [r.match_id for r in box_a] == ids == [r.match_id for r in box_b]
    for match_id, result in zip(ids, box_a, strict=True):
        record = parse_record(server.record(match_id).splitlines())
        state = replay(ST, record)  # the stored record replays to its outcome
        assert ST.outcome(state).termination == result.termination
        assert record.header["roles"] == {"p1": "remote:alice", "p2": "remote:bob"}
        moves = [m for m in record.moves if m["role"] != "chance"]
        assert all("rtt_ms" in m and "think_ms" in m for m in moves)
    standings = server.call("GetStandings", pb.GetStandingsRequest(), pb.GetStandingsResponse)
    assert sum(s.played for s in standings.standings) == 4


def test_an_sdk_bot_that_reads_no_view_gets_none_and_one_that_does_gets_it(server):
    """``uses_view = False``: the SDK's client decodes no view for the bot (None, as in-process
    runners give it); a bot that reads views gets every one, its history complete."""

    class Blind(RandomBot):
        uses_view = False

        def choose(self, decision, view):
            seen.append(("blind", view))
            return super().choose(decision, view)

    class Seeing(RandomBot):
        uses_view = True

        def choose(self, decision, view):
            seen.append(("seeing", view))
            return super().choose(decision, view)

    seen: list = []
    ta, box_a = run_in_thread(Blind(1), server.address, server.tokens.add("alice"), matches=1)
    tb, box_b = run_in_thread(Seeing(2), server.address, server.tokens.add("bob"), matches=1)
    server.start_match(["remote:alice", "remote:bob"], seed=5, wait=True)
    ta.join(30), tb.join(30)
    assert len(box_a) == len(box_b) == 1 and box_a[0].termination in ("breakthrough", "envelopment")
    blind = [view for who, view in seen if who == "blind"]
    seeing = [view for who, view in seen if who == "seeing"]
    assert blind and all(view is None for view in blind)
    assert seeing and all(view is not None and view.history_from == 0 for view in seeing)
    assert [entry.number for entry in seeing[-1].history] == list(range(1, len(seeing[-1].history) + 1))


def test_plugin_vs_remote_match_and_record_over_the_wire(server):
    alice = server.tokens.add("alice")
    thread, box = run_in_thread(RandomBot(3), server.address, alice, matches=1)
    response = server.start_match(["greedy", "remote:alice"], seed=9, wait=True)
    thread.join(30)
    assert box and box[0].match_id == response.match_id
    lines = record_lines(server, response.match_id)
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "outcome"
    listing = server.call("ListMatches", pb.ListMatchesRequest(status=pb.MATCH_STATUS_FINISHED), pb.ListMatchesResponse)
    assert response.match_id in [m.match_id for m in listing.matches]


@pytest.mark.parametrize("token", [None, "sto_not-a-real-token"])
def test_missing_or_wrong_token_is_refused(server, token):
    client = RawClient(server.address, token)
    assert client.next() is None
    assert client.status.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as info:
        server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse, token=token or "x")
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
    client.close()


def test_revoked_token_and_non_admin_start(server):
    alice = server.tokens.add("alice")
    with pytest.raises(grpc.RpcError) as info:
        server.start_match(["random", "random"], token=alice)
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    server.tokens.revoke("alice")
    with pytest.raises(SessionError) as refused:
        run(RandomBot(), server.address, alice, reconnect=False)
    assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED


def test_start_match_rejects_bad_requests(server):
    for bots, fields, message in [
        (["random", "random"], {"game": "chess"}, "unknown game"),
        (["nobody", "random"], {}, "nobody"),
        (["random"], {}, "needs 2 bots"),
        (["random", "random"], {"options": {"tactics": "maybe"}}, "tactics"),
    ]:
        with pytest.raises(grpc.RpcError) as info:
            server.start_match(bots, **fields)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert message in info.value.details()


def test_a_bot_cannot_answer_for_another_seat_or_match(server):
    server.tokens.add("alice"), server.tokens.add("bob"), server.tokens.add("mallory")
    alice = RawClient(server.address, server.tokens.mint_ephemeral("alice"))
    bob = RawClient(server.address, server.tokens.mint_ephemeral("bob"))
    mallory = RawClient(server.address, server.tokens.mint_ephemeral("mallory"))
    match_id = server.start_match(["remote:alice", "remote:bob"], seed=4, fault_policy=pb.FAULT_POLICY_RANDOM).match_id
    # Find a decision of bob's (answering alice's own decisions meanwhile).
    target = None
    while target is None:
        for client in (alice, bob):
            try:
                msg = client.inbox.get(timeout=0.1)
            except queue.Empty:
                continue
            if msg is not None and msg.WhichOneof("body") == "decision":
                if client is bob:
                    target = msg.decision
                    break
                alice.choose(msg.decision, 0)
    alice.choose(target, len(target.options) - 1)
    mallory.choose(target, len(target.options) - 1)
    assert mallory.next("error").error.code == pb.ERROR_CODE_NOT_YOUR_MATCH
    bob.choose(target, 0)
    ended_a = []
    t = threading.Thread(target=lambda: ended_a.append(play_out(alice)))
    t.start()
    ended_b = play_out(bob)
    t.join(30)
    lines = record_lines(server, match_id)
    move = next(m for m in lines if m.get("n") == target.decision_id)
    assert move["role"] == "p2" and move["key"] == target.options[0].key  # bob's own answer
    assert faults(ended_b).get(("p1", "stale_decision")) == 1
    assert ("p2", "stale_decision") not in faults(ended_b)
    for c in (alice, bob, mallory):
        c.close()


def _solo(server, policy, retries=0, max_ms=0, seed=5):
    """alice (raw) as p1 against the in-process random bot."""
    token = server.tokens.mint_ephemeral("alice")
    client = RawClient(server.address, token)
    client.next("welcome")
    tc = pb.TimeControl(max_per_decision_ms=max_ms)
    match_id = server.start_match(
        ["remote:alice", "random"], seed=seed, fault_policy=policy, retries=retries, time_control=tc
    ).match_id
    return client, match_id


def test_a_bot_answering_ahead_is_refused_on_a_server(server):
    """A bot that answers each decision and then guesses the next ids (to be charged nothing when
    the decision comes) is refused as stale; the match plays on under the random policy. (That the
    decision then waits for a real answer: tests/server/test_answer_ahead.py, deterministically.
    Here a guess may also reach the referee after its decision was sent: then it is an answer.)"""
    client, match_id = _solo(server, pb.FAULT_POLICY_RANDOM)
    refusals = []
    while True:
        msg = client.next()
        assert msg is not None, f"stream ended: {client.status}"
        kind = msg.WhichOneof("body")
        if kind == "error":
            refusals.append(msg.error)
        elif kind == "decision":
            decision = msg.decision
            client.choose(decision, len(decision.options) - 1)
            # the ids the next decision could have (the opponent's decisions come in between),
            # and one far ahead: certainly not sent when it arrives
            for guess in (*range(decision.decision_id + 1, decision.decision_id + 4), decision.decision_id + 1000):
                client.choose(decision, 0, decision_id=guess)
        elif kind == "match_ended":
            ended = msg.match_ended
            break
    # the guesses after its last decision find the match over: refused, not counted
    stale = [e for e in refusals if e.code == pb.ERROR_CODE_STALE_DECISION and e.message != "the match is over"]
    # each is counted when the match next asks the seat: those of its last two decisions (4
    # guesses each, and the real answer to a decision a guess took) may come after that
    assert len(stale) - 9 <= faults(ended)[("p1", "stale_decision")] <= len(stale) and len(stale) > 20
    assert any(e.message.endswith("was not sent yet") for e in stale)
    assert ended.termination != "forfeit"
    client.close()


def test_stale_decision_id_forfeits_under_forfeit(server):
    client, match_id = _solo(server, pb.FAULT_POLICY_FORFEIT)
    decision = client.next("decision").decision
    client.choose(decision, 0, decision_id=decision.decision_id + 100)
    ended = client.next("match_ended").match_ended
    assert ended.termination == "forfeit" and ended.winner == "p2"
    assert faults(ended) == {("p1", "stale_decision"): 1}
    client.close()


@pytest.mark.parametrize("policy", [pb.FAULT_POLICY_FORFEIT, pb.FAULT_POLICY_RANDOM, pb.FAULT_POLICY_RETRY])
def test_illegal_index_under_each_policy(server, policy):
    client, match_id = _solo(server, policy, retries=1)
    first = client.next("decision").decision
    client.choose(first, len(first.options) + 5)
    assert client.next("error").error.code == pb.ERROR_CODE_ILLEGAL_OPTION
    if policy == pb.FAULT_POLICY_FORFEIT:
        ended = client.next("match_ended").match_ended
        assert ended.termination == "forfeit" and ended.winner == "p2"
    elif policy == pb.FAULT_POLICY_RETRY:
        again = client.next("decision").decision
        assert again.decision_id == first.decision_id and again.attempt == 1
        client.choose(again, 0)
        ended = play_out(client)
        assert ended.termination != "forfeit"
    else:
        ended = play_out(client)
        assert ended.termination != "forfeit"
        move = next(m for m in record_lines(server, match_id) if m.get("n") == first.decision_id)
        assert move["fault"] == "illegal_choice" and move["substituted"] is True
    assert faults(ended)[("p1", "illegal_choice")] == 1
    client.close()


@pytest.mark.parametrize("policy", [pb.FAULT_POLICY_FORFEIT, pb.FAULT_POLICY_RANDOM, pb.FAULT_POLICY_RETRY])
def test_timeout_under_each_policy(server, policy):
    client, match_id = _solo(server, policy, retries=1, max_ms=300)
    first = client.next("decision").decision
    # Say nothing: the referee's clock runs out.
    if policy == pb.FAULT_POLICY_FORFEIT:
        ended = client.next("match_ended").match_ended
        assert ended.termination == "forfeit" and "no answer within 300 ms" in ended.reason
    elif policy == pb.FAULT_POLICY_RETRY:
        assert client.next("error").error.code == pb.ERROR_CODE_TIMEOUT
        again = client.next("decision").decision
        assert again.decision_id == first.decision_id and again.attempt == 1
        client.choose(again, 0)
        ended = play_out(client)
    else:
        assert client.next("error").error.code == pb.ERROR_CODE_TIMEOUT
        ended = play_out(client)
        assert ended.termination != "forfeit"
    assert faults(ended)[("p1", "timeout")] == 1
    client.close()


def test_disconnect_and_reconnect_within_the_grace_window(server):
    token = server.tokens.mint_ephemeral("alice")
    client, match_id = RawClient(server.address, token), None
    client.next("welcome")
    match_id = server.start_match(["remote:alice", "random"], seed=6).match_id
    first = client.next("decision").decision
    client.close()  # gone mid-decision
    time.sleep(0.2)
    back = RawClient(server.address, token)
    welcome = back.next("welcome").welcome
    assert list(welcome.resumed_match_ids) == [match_id]
    assert back.next("match_started").match_started.match_id == match_id
    again = back.next("decision").decision
    assert again.decision_id == first.decision_id
    back.choose(again, 0)
    ended = play_out(back)
    assert ended.termination != "forfeit"
    back.close()


def test_disconnect_beyond_the_grace_window_forfeits(server):
    token = server.tokens.mint_ephemeral("alice")
    client = RawClient(server.address, token)
    client.next("welcome")
    match_id = server.start_match(["remote:alice", "random"], seed=6).match_id
    client.next("decision")
    client.close()
    summary = server.wait_finished(match_id, timeout=10)
    assert summary.result.termination == "forfeit"
    assert {(f.role, f.kind): f.count for f in summary.result.faults} == {("p1", "disconnect"): 1}


def test_flooding_ends_the_session_with_resource_exhausted(tmp_path, monkeypatch):
    """A bot that sends faster than the referee drains its inbox is ended with RESOURCE_EXHAUSTED.
    The referee is made slow on purpose (a session task that pauses after the hello): with trio on
    the loop's own thread the referee otherwise keeps pace with one stream, so the flood would
    depend on timing."""
    from standoff.server.bridge import Inbox

    get = Inbox.get
    slowed: set[int] = set()

    async def slow_get(self):
        item = await get(self)
        if id(self) not in slowed:  # after each session's first message (its hello), a pause
            slowed.add(id(self))
            await trio.sleep(2)
        return item

    monkeypatch.setattr(Inbox, "get", slow_get)
    srv = ServerThread(tmp_path, inbox_limit=2).start()
    try:
        client = RawClient(srv.address, srv.admin)
        empty = pb.PlayRequest().SerializeToString()
        for _ in range(50):
            client.send(empty)
        # Generous: on a loaded machine replies can pause; this is not a timed assertion.
        while client.next(timeout=60) is not None:
            pass
        assert client.status.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        client.close()
        # The server is still up and serving others.
        assert srv.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse) is not None
    finally:
        srv.stop()


def test_malformed_and_unknown_messages(server):
    token = server.tokens.mint_ephemeral("alice")
    early = RawClient(server.address, token, hello=False)
    choice = pb.PlayRequest()
    choice.choice.match_id = "x"
    early.send(choice)
    assert early.next("error").error.code == pb.ERROR_CODE_PROTOCOL  # a choice before hello
    early.send(pb.PlayRequest())  # no body at all
    assert early.next("error").error.code == pb.ERROR_CODE_PROTOCOL
    early.close()
    future = RawClient(server.address, token, hello=False)
    future.hello(version=2)
    assert future.next("error").error.code == pb.ERROR_CODE_UNSUPPORTED_VERSION
    assert future.next() is None and future.status.code() == grpc.StatusCode.FAILED_PRECONDITION
    future.close()
    garbage = RawClient(server.address, token, hello=False)
    garbage.send(b"\xff\xff\xff\xff garbage")
    assert garbage.next() is None  # the stream is ended by gRPC
    garbage.close()
    # Unknown fields (from a newer client) are ignored; the session works.
    ok = RawClient(server.address, token, hello=False)
    ok.send(pb.PlayRequest(hello=pb.Hello(protocol_version=1)).SerializeToString() + b"\xa0\x06\x01")
    assert ok.next("welcome") is not None
    ok.close()
    thread, box = run_in_thread(RandomBot(1), server.address, server.tokens.add("bob"), matches=1)
    server.start_match(["remote:bob", "random"], wait=True)
    thread.join(30)
    assert len(box) == 1 and box[0].termination


def test_wire_bytes_depend_only_on_what_the_seat_may_see(server):
    """Every decision message alice received is byte-identical to the one built from a state in
    which everything she cannot see was re-dealt."""
    token = server.tokens.mint_ephemeral("alice")
    client = RawClient(server.address, token)
    client.next("welcome")
    match_id = server.start_match(["remote:alice", "greedy"], seed=21).match_id
    received = {}
    rng = random.Random(0)

    def choose(decision):
        received[decision.decision_id] = decision
        return rng.randrange(len(decision.options))

    play_out(client, choose)
    record = parse_record(server.record(match_id).splitlines())
    state = ST.new_state(ST.rules(record.header["ruleset"], record.header["options"]))
    redeal_rng = random.Random(1)
    checked = 0
    for move in record.moves:
        decision = ST.decision(state)
        if move["n"] in received:
            wire = received[move["n"]]
            for _ in range(2):
                other = ST.determinize(state, "p1", redeal_rng)
                since = wire.view.schotten_totten.history_from  # the referee sends what is new
                rebuilt = decision_message(match_id, move["n"], ST.decision(other),
                                           encode_view(ST.name, ST.view(other, "p1", since)), {})
                assert serialize(rebuilt.decision) == serialize(wire)
            checked += 1
        ST.apply(state, decision.options[decision.index_of(move["key"])])
    assert checked == len(received) > 20


def test_server_keeps_serving_after_a_bot_crashes_in_process(tmp_path):
    from standoff.sdk.bot import Bot
    from standoff.server.plugins import BotSpec, load_registry

    class Crasher(Bot):
        name = "crasher"

        def choose(self, decision, view):
            raise RuntimeError("boom")

    registry = load_registry(entry_points=False)
    registry.bots["crasher"] = BotSpec.from_class(Crasher, trusted=True)
    srv = ServerThread(tmp_path, registry=registry).start()
    try:
        response = srv.start_match(["crasher", "random"], wait=True)
        result = response.summary.result
        assert result.termination == "forfeit" and "RuntimeError: boom" in result.reason
        assert {(f.role, f.kind) for f in result.faults} == {("p1", "crash")}
        assert srv.start_match(["random", "random"], wait=True).summary.result.termination != "forfeit"
    finally:
        srv.stop()


def test_sdk_bots_see_the_whole_history_though_the_wire_sends_only_what_is_new(server):
    """The referee sends each seat the new history entries only; the SDK completes them."""
    from standoff.sdk.bot import Bot

    seen = {}

    class Watcher(Bot):
        name = "watcher"

        def choose(self, decision, view):
            assert view.history_from == 0
            seen[decision.decision_id] = [(e.number, e.role, e.step, e.key) for e in view.history]
            return self.rng.randrange(len(decision.options))

    thread, box = run_in_thread(Watcher(1), server.address, server.tokens.add("watcher"), matches=1)
    match_id = server.start_match(["remote:watcher", "greedy"], seed=8, wait=True).match_id
    thread.join(30)
    record = parse_record(server.record(match_id).splitlines())
    state = ST.new_state(ST.rules())
    for move in record.moves:
        if move["n"] in seen:
            full = [tuple(entry) for entry in ST.view(state, "p1")["history"]]
            assert seen[move["n"]] == full
        decision = ST.decision(state)
        ST.apply(state, decision.options[decision.index_of(move["key"])])
    assert len(seen) > 20


def test_the_example_bot_plays(server):
    import os
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"
    env = dict(os.environ, STANDOFF_TOKEN=server.tokens.add("mybot"))
    bot = subprocess.Popen([sys.executable, str(example), "--address", server.address, "--matches", "1"],
                           env=env, stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    response = None
    while response is None and time.monotonic() < deadline:
        try:
            response = server.start_match(["remote:mybot", "random"], wait=True, connect_timeout_ms=30_000)
        except grpc.RpcError:
            time.sleep(0.2)
    out, _ = bot.communicate(timeout=60)
    assert bot.returncode == 0
    assert response.match_id in out


def test_protocol_error_during_a_match_is_a_fault(server):
    client, match_id = _solo(server, pb.FAULT_POLICY_FORFEIT)
    client.next("decision")
    client.send(pb.PlayRequest())  # an envelope with no body, mid-match
    assert client.next("error").error.code == pb.ERROR_CODE_PROTOCOL
    ended = client.next("match_ended").match_ended
    assert ended.termination == "forfeit" and faults(ended) == {("p1", "protocol_error"): 1}
    client.close()


def test_time_bank_and_increment_are_measured_by_the_referee(server):
    """Clocks in each decision show both banks; a bot that spends its bank loses on time."""
    token = server.tokens.mint_ephemeral("alice")
    client = RawClient(server.address, token)
    client.next("welcome")
    tc = pb.TimeControl(bank_ms=600, increment_ms=50)
    server.start_match(["remote:alice", "random"], seed=7, time_control=tc)
    banks = []
    while True:
        msg = client.next()
        kind = msg.WhichOneof("body")
        if kind == "decision":
            clocks = {c.role: c.time_left_ms for c in msg.decision.clocks}
            assert set(clocks) == {"p1", "p2"}
            banks.append(clocks["p1"])
            time.sleep(0.2)  # think slowly: 200 ms a decision against a 50 ms increment
            client.choose(msg.decision, 0)
        elif kind == "match_ended":
            ended = msg.match_ended
            break
    assert banks[0] == 600 and banks[1] < banks[0]
    assert ended.termination == "forfeit" and faults(ended) == {("p1", "timeout"): 1}
    assert 3 <= len(banks) <= 6  # 600 ms lasts about four 200 ms decisions at +50 ms each
    client.close()


def test_health_and_reflection_services(server):
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    with grpc.insecure_channel(server.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "standoff.v1.RefereeService"):
            response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            assert response.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        (response,) = list(stub.ServerReflectionInfo(iter([request]), timeout=10))
        names = {s.name for s in response.list_services_response.service}
        assert "standoff.v1.RefereeService" in names


def test_sdk_reconnects_after_the_server_comes_back(tmp_path):
    """`run` retries while the server is unavailable and plays once it is back."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first = ServerThread(tmp_path, port=port).start()
    token = first.tokens.add("alice")
    thread, box = run_in_thread(RandomBot(1), first.address, token, matches=1)
    time.sleep(0.3)
    first.stop()  # the session is cut
    time.sleep(0.3)
    second = ServerThread(tmp_path, port=port).start()  # same data dir: alice's token is still valid
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                match_id = second.start_match(["remote:alice", "random"], wait=True, connect_timeout_ms=20_000).match_id
                break
            except grpc.RpcError:
                time.sleep(0.2)
        thread.join(30)
        assert box and box[0].match_id == match_id
    finally:
        second.stop()


def test_twilight_struggle_over_the_wire(server):
    """A Twilight Struggle match between an SDK bot and a plugin bot; the SDK bot reads the typed
    view, whose history it gets complete."""
    from standoff.sdk.bot import Bot

    seen = []

    class Reader(Bot):
        name = "reader"

        def choose(self, decision, view):
            seen.append((view.turn, view.defcon, len(view.hand), view.history_from))
            return self.rng.randrange(len(decision.options))

    thread, box = run_in_thread(Reader(1), server.address, server.tokens.add("reader"), matches=1)
    response = server.start_match(["random", "remote:reader"], game="twilight-struggle",
                                  options={"end_turn": "2"}, seed=3, wait=True)
    thread.join(30)
    assert box and box[0].match_id == response.match_id
    assert seen and all(h == 0 for *_, h in seen) and max(t for t, *_ in seen) >= 1
    record = parse_record(server.record(response.match_id).splitlines())
    game = get_game("twilight-struggle")
    state = replay(game, record)
    assert game.outcome(state).termination == record.footer["termination"]


@pytest.mark.parametrize("guest", ["one-thread", "threads"])
def test_a_referee_bug_handling_a_message_ends_only_that_session(tmp_path, monkeypatch, guest):
    """A bug while the referee handles a session's message (a choice here) ends that session with
    INTERNAL and nothing else: the next session is served. Checked on both trio drivers: with one
    thread the choice is handled straight from the gRPC reader (``Inbox.direct``), otherwise by
    the session's trio task."""
    from standoff.server.bridge import GUEST_ENV
    from standoff.server.referee import Referee

    monkeypatch.setenv(GUEST_ENV, guest)
    choice = Referee._choice

    def buggy(self, session, message):
        if message.match_id == "boom":
            raise RuntimeError("a referee bug")
        return choice(self, session, message)

    monkeypatch.setattr(Referee, "_choice", buggy)
    srv = ServerThread(tmp_path).start()
    try:
        hit = RawClient(srv.address, srv.tokens.add("alice"))
        assert hit.next("welcome") is not None
        boom = pb.PlayRequest()
        boom.choice.match_id = "boom"
        hit.send(boom)
        assert hit.next() is None and hit.status.code() == grpc.StatusCode.INTERNAL
        assert "internal referee error" in hit.status.details()
        hit.close()
        other = RawClient(srv.address, srv.tokens.add("bob"))
        assert other.next("welcome") is not None
        fine = pb.PlayRequest()
        fine.choice.match_id = "nothing-here"
        other.send(fine)
        assert other.next("error").error.code == pb.ERROR_CODE_NOT_YOUR_MATCH
        other.close()
    finally:
        srv.stop()
