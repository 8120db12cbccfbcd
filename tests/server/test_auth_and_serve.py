"""Tokens, TLS, plaintext refusal and the `standoff serve` / `token` / `match` commands."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import grpc
import pytest
from kits.server import ServerThread

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import SessionError, Tls, run
from standoff.server.auth import RegistryError, TokenRegistry
from standoff.server.rpc import ServeError, is_loopback


def test_registry_stores_only_hashes_and_verifies(tmp_path):
    path = tmp_path / "tokens.json"
    registry = TokenRegistry(path)
    token = registry.add("alice")
    admin = registry.add("root", admin=True)
    text = path.read_text()
    assert token not in text and admin not in text
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    again = TokenRegistry(path)
    assert again.verify(token).name == "alice" and not again.verify(token).admin
    assert again.verify(admin).admin
    assert again.verify(token + "x") is None and again.verify("") is None and again.verify(None) is None
    again.revoke("alice")
    assert TokenRegistry(path).verify(token) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON"), ('{"bots": []}', "'bots' object"), ('{"bots": {"a": {}}}', "'sha256'")],
)
def test_broken_registry_file_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "tokens.json"
    path.write_text(content)
    with pytest.raises(RegistryError, match=message):
        TokenRegistry(path)


def test_an_emptied_token_file_is_one_being_written_not_an_empty_registry(tmp_path):
    # Editors and `Path.write_text` truncate before they write: a serving registry that stats the
    # file in between must not read "no tokens" (it would end every session, and were the new
    # text broken, keep none for good). A CI flake of the token-reload test was exactly that.
    path = tmp_path / "tokens.json"
    registry = TokenRegistry(path)
    alice = registry.add("alice")
    generation = registry.generation
    path.write_text("")  # the moment between the truncation and the write
    assert registry.refresh() is False and registry.verify(alice).name == "alice"
    assert registry.generation == generation
    path.write_text("{not json")  # the new text, broken: the last good tokens stay
    with pytest.raises(RegistryError, match="not valid JSON"):
        registry.refresh()
    assert registry.refresh() is False and registry.verify(alice).name == "alice"
    bob = TokenRegistry(tmp_path / "other.json").add("bob")
    path.write_text((tmp_path / "other.json").read_text())  # fixed: the new file counts
    assert registry.refresh() is True
    assert registry.verify(alice) is None and registry.verify(bob).name == "bob"
    path.unlink()  # deleting the file is how every file token goes
    assert registry.refresh() is True and registry.verify(bob) is None
    path.write_text("")  # an empty file with nothing before it is simply an empty registry
    assert registry.refresh() is False and registry.names() == []
    assert TokenRegistry(path).names() == []


def test_bad_bot_names_are_refused(tmp_path):
    with pytest.raises(RegistryError, match="bad bot name"):
        TokenRegistry(tmp_path / "t.json").add("no spaces please")


@pytest.mark.parametrize(
    ("address", "loopback"),
    [("127.0.0.1:1", True), ("localhost:1", True), ("[::1]:1", True), ("0.0.0.0:1", False), ("10.1.2.3:5", False)],
)
def test_loopback_detection(address, loopback):
    assert is_loopback(address) is loopback


def test_plaintext_on_a_public_address_is_refused(tmp_path):
    import asyncio

    from standoff.server.plugins import load_registry
    from standoff.server.rpc import start_server

    async def attempt():
        await start_server("0.0.0.0:0", tokens=TokenRegistry(), registry=load_registry(entry_points=False),
                           data_dir=tmp_path)

    with pytest.raises(ServeError, match="refusing plaintext"):
        asyncio.run(attempt())


def _make_certs(folder):
    """A test CA and a server certificate for localhost, made with openssl."""
    def sh(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=60)

    sh("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
       "-subj", "/CN=standoff test CA")
    sh("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
       "-subj", "/CN=localhost")
    (folder / "ext.cnf").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    sh("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
       "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make test certificates")
def test_tls_with_a_test_ca(tmp_path):
    import asyncio
    import threading

    from standoff.server.plugins import load_registry
    from standoff.server.rpc import TlsFiles, start_server

    _make_certs(tmp_path)
    tokens = TokenRegistry(tmp_path / "tokens.json")
    admin, alice = tokens.add("admin", admin=True), tokens.add("alice")
    box, ready = {}, threading.Event()

    async def serve():
        running = await start_server("127.0.0.1:0", tokens=tokens, registry=load_registry(entry_points=False),
                                     data_dir=tmp_path, tls=TlsFiles(tmp_path / "server.pem", tmp_path / "server.key"))
        box.update(address=running.address, stop=asyncio.Event(), loop=asyncio.get_running_loop())
        ready.set()
        await box["stop"].wait()
        await running.stop()

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    assert ready.wait(30)
    try:
        from standoff.sdk.client import run_in_thread
        from standoff.v1 import referee_pb2 as pb

        tls = Tls(root_certificates=(tmp_path / "ca.pem").read_bytes(), server_name="localhost")
        bot_thread, results = run_in_thread(RandomBot(1), box["address"], alice, matches=1, tls=tls)
        creds = grpc.ssl_channel_credentials((tmp_path / "ca.pem").read_bytes())
        with grpc.secure_channel(box["address"], creds, options=[("grpc.ssl_target_name_override", "localhost")]) as ch:
            start = ch.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                   request_serializer=pb.StartMatchRequest.SerializeToString,
                                   response_deserializer=pb.StartMatchResponse.FromString)
            response = start(pb.StartMatchRequest(game="schotten-totten", bots=["remote:alice", "random"], wait=True),
                             metadata=(("authorization", f"Bearer {admin}"),), timeout=60)
        bot_thread.join(30)
        assert results and results[0].match_id == response.match_id
        # A plaintext client cannot talk to the TLS server.
        with pytest.raises(SessionError):
            run(RandomBot(), box["address"], alice, reconnect=False)
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(30)


def _standoff(*args, env=None, timeout=120, **kwargs):
    return subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, **kwargs)


def test_serve_token_match_commands_end_to_end(tmp_path):
    data = tmp_path / "data"
    added = _standoff("token", "add", "ops", "--admin", "--data-dir", str(data))
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip()
    assert token.startswith("sto_") and token not in (data / "tokens.json").read_text()
    server = subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = server.stdout.readline()
        assert "listening on" in line, server.stderr.read()
        address = line.split()[-1]
        env = dict(os.environ, STANDOFF_TOKEN=token)
        played = _standoff("match", "--address", address, "--game", "schotten-totten", "--bot", "greedy",
                           "--bot", "random", "--seed", "3", env=env)
        assert played.returncode == 0, played.stderr
        assert "wins by" in played.stdout or "draw by" in played.stdout
        bad = _standoff("match", "--address", address, "--game", "chess", "--bot", "random", "--bot", "random", env=env)
        assert bad.returncode == 2 and "unknown game" in bad.stderr
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0  # graceful shutdown
        logs = [json.loads(x) for x in server.stderr.read().splitlines() if x.startswith("{")]
        assert any(entry.get("event") == "shutting down" for entry in logs)
        assert len(list((data / "records").glob("*.jsonl"))) == 1
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_serve_refuses_plaintext_public_address_via_cli(tmp_path):
    out = _standoff("serve", "--address", "0.0.0.0:0", "--data-dir", str(tmp_path), timeout=60)
    assert out.returncode == 2 and "refusing plaintext" in out.stderr


def test_restarted_server_keeps_finished_matches(tmp_path):
    first = ServerThread(tmp_path).start()
    match_id = first.start_match(["random", "random"], wait=True).match_id
    first.stop()
    second = ServerThread(tmp_path).start()
    try:
        assert second.record(match_id).count("\n") > 10
    finally:
        second.stop()
    time.sleep(0)
