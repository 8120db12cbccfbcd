"""Trust: a token that stops verifying stops working at once (open sessions included), a changed
token file is noticed without a restart, and one server per port."""

from __future__ import annotations

import asyncio
import io
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import time

import grpc
import pytest
from kits.server import RawClient, ServerThread

from standoff.server.auth import RegistryError, TokenRegistry
from standoff.server.logs import configure_logging
from standoff.server.plugins import load_registry
from standoff.server.rpc import ServeError, start_server
from standoff.v1 import referee_pb2 as pb

UNKNOWN_TOKEN = "missing, unknown or revoked bearer token"


def _standoff(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def _list_matches(server: ServerThread, token: str):
    return server.call("ListMatches", pb.ListMatchesRequest(), pb.ListMatchesResponse, token=token, timeout=10)


def _refused(server: ServerThread, token: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        _list_matches(server, token)
    return info.value


def _ended_within(client: RawClient, seconds: float) -> float:
    """Seconds until ``client``'s stream ended (it sends nothing meanwhile); fails past ``seconds``."""
    start = time.monotonic()
    try:
        while (msg := client.next(timeout=seconds)) is not None:
            assert time.monotonic() - start < seconds, f"still receiving {msg}"
    except queue.Empty:
        raise AssertionError(f"the stream is still open after {seconds} s") from None
    return time.monotonic() - start


def _assert_open(client: RawClient, for_s: float = 0.8) -> None:
    """``client``'s stream stays open for ``for_s`` seconds (several token-watch intervals)."""
    time.sleep(for_s)
    assert client.status is None and client.reader.is_alive()


# -- tokens that change while serving ----------------------------------------------------------


def test_revoke_ends_the_open_session_and_refuses_new_calls_at_once(server):
    alice = server.tokens.add("alice")
    client = RawClient(server.address, alice)
    client.next("welcome")
    match_id = server.start_match(["remote:alice", "random"], seed=6).match_id
    client.next("decision")
    TokenRegistry(server.data_dir / "tokens.json").revoke("alice")  # as `standoff token revoke` does
    started = time.monotonic()
    # The client does nothing: the server ends its stream.
    assert _ended_within(client, 3.0) < 1.5
    assert client.status.code() == grpc.StatusCode.UNAUTHENTICATED
    assert client.status.details() == "token revoked"
    error = _refused(server, alice)
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED and error.details() == UNKNOWN_TOKEN
    again = RawClient(server.address, alice)
    again.next(timeout=10)
    assert again.status.code() == grpc.StatusCode.UNAUTHENTICATED
    # The referee saw a disconnect: after the grace window the match's fault policy decides.
    summary = server.wait_finished(match_id, timeout=15)
    assert summary.result.termination == "forfeit"
    assert {(f.role, f.kind): f.count for f in summary.result.faults} == {("p1", "disconnect"): 1}
    assert time.monotonic() - started < 15
    client.close()
    again.close()


def test_a_token_removed_from_the_file_ends_only_its_sessions(server):
    alice, bob = server.tokens.add("alice"), server.tokens.add("bob")
    ephemeral = server.tokens.mint_ephemeral("runner")
    clients = {name: RawClient(server.address, token) for name, token in
               [("alice", alice), ("bob", bob), ("runner", ephemeral)]}
    for client in clients.values():
        client.next("welcome")
    # Another program edits the file in place (same inode): alice is gone.
    path = server.data_dir / "tokens.json"
    data = json.loads(path.read_text())
    del data["bots"]["alice"]
    with open(path, "r+", encoding="utf-8") as file:
        file.write(json.dumps(data))
        file.truncate()
    assert _ended_within(clients["alice"], 3.0) < 1.5
    assert clients["alice"].status.code() == grpc.StatusCode.UNAUTHENTICATED
    assert _refused(server, alice).code() == grpc.StatusCode.UNAUTHENTICATED
    _assert_open(clients["bob"])
    _assert_open(clients["runner"], for_s=0)
    _list_matches(server, bob)
    _list_matches(server, ephemeral)
    for client in clients.values():
        client.close()


def test_replace_ends_the_old_tokens_sessions_and_accepts_the_new_token(server):
    old = server.tokens.add("alice")
    first = RawClient(server.address, old)
    first.next("welcome")
    new = TokenRegistry(server.data_dir / "tokens.json").add("alice", replace=True)
    assert _ended_within(first, 3.0) < 1.5
    assert first.status.code() == grpc.StatusCode.UNAUTHENTICATED and first.status.details() == "token revoked"
    assert _refused(server, old).code() == grpc.StatusCode.UNAUTHENTICATED
    second = RawClient(server.address, new)
    assert second.next("welcome") is not None
    _list_matches(server, new)
    _assert_open(second)
    first.close()
    second.close()


def test_a_broken_token_file_keeps_the_last_good_tokens_and_logs_once(server):
    buffer = io.StringIO()
    configure_logging(json=True, level="warning", stream=buffer)
    try:
        alice = server.tokens.add("alice")
        client = RawClient(server.address, alice)
        client.next("welcome")
        path = server.data_dir / "tokens.json"
        path.write_text("{not json")
        time.sleep(0.6)  # the watcher sees it
        for _ in range(3):  # every call looks at the file too
            _list_matches(server, alice)
            _list_matches(server, server.admin)
            error = _refused(server, "sto_unknown")
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED and error.details() == UNKNOWN_TOKEN
        _assert_open(client)
        errors = [json.loads(line) for line in buffer.getvalue().splitlines() if '"error"' in line]
        unusable = [e for e in errors if e["event"].startswith("token file unusable")]
        assert len(unusable) == 1 and "not valid JSON" in unusable[0]["error"], errors
        path.write_text('{"bots": []}')  # another broken version: one more line
        _list_matches(server, alice)
        time.sleep(0.6)
        unusable = [line for line in buffer.getvalue().splitlines() if "token file unusable" in line]
        assert len(unusable) == 2
        # Fixed again (alice revoked meanwhile): the new file counts.
        path.write_text(json.dumps({"bots": {"admin": {"sha256": TokenRegistry.digest(server.admin), "admin": True}}}))
        assert _ended_within(client, 3.0) < 1.5
        assert _refused(server, alice).code() == grpc.StatusCode.UNAUTHENTICATED
        _list_matches(server, server.admin)
        client.close()
    finally:
        configure_logging(json=True, level="warning", stream=io.StringIO())


def test_a_deleted_token_file_leaves_only_ephemeral_tokens(server):
    alice = server.tokens.add("alice")
    ephemeral = server.tokens.mint_ephemeral("runner")
    client, runner = RawClient(server.address, alice), RawClient(server.address, ephemeral)
    client.next("welcome")
    runner.next("welcome")
    (server.data_dir / "tokens.json").unlink()
    assert _ended_within(client, 3.0) < 1.5
    assert client.status.code() == grpc.StatusCode.UNAUTHENTICATED
    assert _refused(server, server.admin).code() == grpc.StatusCode.UNAUTHENTICATED
    _assert_open(runner)
    _list_matches(server, ephemeral)
    # A new file (`standoff token add`) is read again.
    bob = TokenRegistry(server.data_dir / "tokens.json").add("bob")
    _list_matches(server, bob)
    client.close()
    runner.close()


# -- standoff token ----------------------------------------------------------------------------


def test_add_of_an_existing_name_is_refused_unless_replace(tmp_path):
    data = tmp_path / "data"
    first = _standoff("token", "add", "alice", "--data-dir", str(data))
    assert first.returncode == 0, first.stderr
    before = (data / "tokens.json").read_text()
    again = _standoff("token", "add", "alice", "--data-dir", str(data))
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.splitlines() == [
        "standoff: error: bot 'alice' already has a token; revoke it, or pass --replace to issue a new one "
        "(the old one stops working)"
    ]
    assert (data / "tokens.json").read_text() == before
    old = first.stdout.strip()
    assert TokenRegistry(data / "tokens.json").verify(old).name == "alice"
    replaced = _standoff("token", "add", "alice", "--replace", "--data-dir", str(data))
    assert replaced.returncode == 0, replaced.stderr
    new = replaced.stdout.strip()
    registry = TokenRegistry(data / "tokens.json")
    assert registry.verify(new).name == "alice" and registry.verify(old) is None
    # The API says the same; a revoked name may have a new token without --replace.
    with pytest.raises(RegistryError, match="already has a token"):
        registry.add("alice")
    registry.revoke("alice")
    assert registry.verify(registry.add("alice")).name == "alice"


def test_token_list_shows_admin_and_revoked(tmp_path):
    data = str(tmp_path / "data")
    for args in (["alice"], ["root", "--admin"], ["bob"]):
        assert _standoff("token", "add", *args, "--data-dir", data).returncode == 0
    assert _standoff("token", "revoke", "bob", "--data-dir", data).returncode == 0
    listed = _standoff("token", "list", "--data-dir", data)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["alice", "bob    revoked", "root   admin"]
    unknown = _standoff("token", "revoke", "carol", "--data-dir", data)
    assert unknown.returncode == 2 and unknown.stderr.splitlines() == [
        "standoff: error: no bot named 'carol' in the registry"
    ]


# -- ports -------------------------------------------------------------------------------------


def _start_second(port: int, data_dir) -> None:
    """Try a second server on ``port`` in this thread; stop it again if it did start."""

    async def attempt() -> None:
        running = await start_server(f"127.0.0.1:{port}", tokens=TokenRegistry(),
                                     registry=load_registry(entry_points=False), data_dir=data_dir)
        await running.stop(grace=0)

    asyncio.run(attempt())


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def test_a_second_server_on_a_port_in_use_is_refused(server, tmp_path):
    port = _port(server.address)
    with pytest.raises(ServeError) as info:
        _start_second(port, tmp_path / "second")
    assert str(info.value) == f"cannot listen on 127.0.0.1:{port}: address in use or not available"
    _list_matches(server, server.admin)  # the first one keeps serving
    # A port some other program listens on (no SO_REUSEPORT there) is refused the same way.
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        taken = other.getsockname()[1]
        with pytest.raises(ServeError, match=f"cannot listen on 127.0.0.1:{taken}: address in use"):
            _start_second(taken, tmp_path / "third")


def _serve(data_dir, address: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", address, "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _finish(proc: subprocess.Popen, timeout: float = 30) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("`standoff serve` kept running on a port in use") from None
    return proc.returncode, out, err


def test_serve_on_a_port_in_use_exits_2_with_one_line(server, tmp_path):
    port = _port(server.address)
    code, out, err = _finish(_serve(tmp_path / "second", f"127.0.0.1:{port}"))
    assert code == 2 and out == ""
    assert err.splitlines() == [f"standoff: error: cannot listen on 127.0.0.1:{port}: address in use or not available"]
    _list_matches(server, server.admin)


def test_tournament_on_a_port_in_use_exits_2_with_one_line(server, tmp_path):
    port = _port(server.address)
    config = tmp_path / "busy.toml"
    config.write_text(
        'name = "busy"\ngame = "schotten-totten"\nentrants = ["random", "remote:zed"]\n'
        f'games_per_pairing = 2\nmaster_seed = 1\nremote_wait_s = 1\naddress = "127.0.0.1:{port}"\n'
        f'output_dir = "{tmp_path / "runs"}"\n'
    )
    out = _standoff("tournament", str(config), "--data-dir", str(tmp_path / "data"))
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        f"standoff: error: cannot listen on 127.0.0.1:{port}: address in use or not available"
    ]
    assert not (tmp_path / "runs" / "busy" / "results.jsonl").exists()
    _list_matches(server, server.admin)


def test_restart_on_the_same_port_after_a_stop_or_a_kill(tmp_path):
    # In-process: stop with a session and a call behind it, start again on the same port.
    first = ServerThread(tmp_path / "a").start()
    port = _port(first.address)
    client = RawClient(first.address, first.tokens.add("alice"))
    client.next("welcome")
    _list_matches(first, first.admin)
    first.stop()
    client.close()
    second = ServerThread(tmp_path / "a", port=port).start()
    try:
        assert second.address == f"127.0.0.1:{port}"
        _list_matches(second, second.admin)
        # ... and it is the only one there.
        with pytest.raises(ServeError, match="address in use"):
            _start_second(port, tmp_path / "other")
    finally:
        second.stop()
    # `standoff serve` killed (SIGKILL) with a session open, and started again at once.
    data = tmp_path / "b"
    token = TokenRegistry(data / "tokens.json").add("alice")
    served = _serve(data, f"127.0.0.1:{port}")
    try:
        assert "listening on" in served.stdout.readline(), served.stderr.read()
        client = RawClient(f"127.0.0.1:{port}", token)
        client.next("welcome")
        served.send_signal(signal.SIGKILL)
        served.communicate(timeout=30)
        client.close()
        again = _serve(data, f"127.0.0.1:{port}")
        try:
            line = again.stdout.readline()
            assert line.strip() == f"standoff referee listening on 127.0.0.1:{port}", again.stderr.read()
            back = RawClient(f"127.0.0.1:{port}", token)
            assert back.next("welcome") is not None
            back.close()
            with pytest.raises(ServeError, match="address in use"):
                _start_second(port, tmp_path / "other")
        finally:
            again.send_signal(signal.SIGTERM)
            again.communicate(timeout=30)
            assert again.returncode == 0
    finally:
        if served.poll() is None:
            served.kill()
        served.communicate(timeout=30)
    assert os.path.exists(data / "tokens.json")
