"""The Node.js example bot (examples/node-bot) against a real referee: the wire contract works from
another language with nothing but the .proto files.

The bot folder is copied to a temporary directory and installed there with ``npm ci`` from its
lockfile (once per module), next to a ``proto/`` folder written by ``copy_protos``, so that the
bot's default ``../../proto`` resolves and no Python is on its path.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from kits.server import ServerThread

from standoff.server.core.record import parse_record, replay
from standoff.server.games import get_game
from standoff.server.protofiles import copy_protos

ROOT = Path(__file__).resolve().parent.parent
BOT_SRC = ROOT / "examples" / "node-bot"
ST = get_game("schotten-totten")
NETWORK_ERRORS = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "network")

pytestmark = pytest.mark.skipif(
    not (shutil.which("node") and shutil.which("npm")),
    reason="node and npm are needed to run the Node.js example bot (.ci/run installs them in CI)",
)


@pytest.fixture(scope="module")
def node_bot(tmp_path_factory) -> Path:
    """bot.js of a fresh `npm ci` install in tmp/examples/node-bot, with tmp/proto beside it."""
    root = tmp_path_factory.mktemp("node")
    bot_dir = root / "examples" / "node-bot"
    shutil.copytree(BOT_SRC, bot_dir, ignore=shutil.ignore_patterns("node_modules"))
    copy_protos(root / "proto")
    out = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
        cwd=bot_dir, capture_output=True, text=True, timeout=180,
    )
    if out.returncode != 0:
        log = out.stdout + out.stderr
        if any(marker in log for marker in NETWORK_ERRORS):
            pytest.skip(f"npm ci could not reach the npm registry:\n{log[-1500:]}")
        pytest.fail(f"npm ci failed in {bot_dir}:\n{log[-3000:]}")
    return bot_dir / "bot.js"


def node_env(**extra: str) -> dict[str, str]:
    """A minimal environment: PATH and HOME only (no PYTHONPATH, no virtualenv), plus ``extra``."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "SYSTEMROOT") if key in os.environ}
    env.update(extra)
    return env


def run_bot(bot: Path, *args: str, timeout: float = 30, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["node", str(bot), *args], env=node_env(**env), capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def server(tmp_path):
    srv = ServerThread(tmp_path).start()
    yield srv
    srv.stop()


# Opponent and seat of the Node bot for each match: both plugin bots, both seats.
SCHEDULE = [
    ("random", "p1", 101),
    ("random", "p2", 102),
    ("random", "p1", 103),
    ("greedy", "p2", 104),
    ("greedy", "p1", 105),
]


def expected_history(record, role: str, last: int) -> int:
    """How many history entries ``role`` saw in full at decision ``last`` (replayed)."""
    state = ST.new_state(ST.rules(record.header["ruleset"], record.header["options"]))
    for move in record.moves:
        decision = ST.decision(state)
        if move["n"] == last:
            return len(ST.view(state, role)["history"])
        ST.apply(state, decision.options[decision.index_of(move["key"])])
    raise AssertionError(f"decision {last} not in the record")


def test_node_bot_plays_schotten_totten_against_plugin_bots(node_bot, server):
    token = server.tokens.add("node")
    started = time.monotonic()
    process = subprocess.Popen(
        ["node", str(node_bot), "--address", server.address, "--matches", str(len(SCHEDULE)), "--json"],
        env=node_env(STANDOFF_TOKEN=token), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        ids, seats = [], {}
        for opponent, role, seed in SCHEDULE:
            bots = ["remote:node", opponent] if role == "p1" else [opponent, "remote:node"]
            response = server.start_match(bots, wait=True, seed=seed)
            assert response.summary.result.termination not in ("not_played", "forfeit"), response.summary
            ids.append(response.match_id)
            seats[response.match_id] = (role, dict(zip(("p1", "p2"), bots, strict=True)))
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, stderr
    assert time.monotonic() - started < 45

    events = [json.loads(line) for line in stdout.splitlines()]
    assert events[0]["event"] == "welcome" and events[0]["bot"] == "node"
    ended = {e["match_id"]: e for e in events if e["event"] == "match_ended"}
    assert list(ended) == ids
    summary = events[-1]
    assert summary["event"] == "summary" and summary["played"] == len(SCHEDULE)
    assert summary["wins"] + summary["draws"] + summary["losses"] == len(SCHEDULE)

    for match_id in ids:
        role, roles = seats[match_id]
        record = parse_record(server.record(match_id).splitlines())
        assert record.header["roles"] == roles
        assert record.header["seed"] in [seed for _, _, seed in SCHEDULE]
        footer = record.footer
        assert footer is not None and footer["type"] == "outcome"
        assert footer["termination"] in ("breakthrough", "envelopment", "stalemate", "decision_cap")
        assert footer["faults"] == {}, footer  # the Node bot never answered wrongly or late
        mine = [m for m in record.moves if m["role"] == role]
        assert mine, "the Node bot made no decision"
        for move in mine:
            assert "rtt_ms" in move and "think_ms" in move, move
            assert move["think_ms"] > 0 and move["rtt_ms"] >= 0
        state = replay(ST, record)  # raises unless every key is legal and the outcome matches
        assert ST.outcome(state).winner == footer["winner"]
        # What the bot printed agrees with the record.
        event = ended[match_id]
        assert event["role"] == role and event["termination"] == footer["termination"]
        assert event["winner"] == (footer["winner"] or "")
        assert event["result"] == ("draw" if not footer["winner"] else "win" if footer["winner"] == role else "loss")
        assert event["decisions"] == len(mine)
        # The incremental views were completed into the whole history the seat may see.
        assert event["history_entries"] == expected_history(record, role, mine[-1]["n"])


class CuttingProxy:
    """A TCP relay to the referee that drops the first connection once it has carried
    ``cut_after`` bytes towards the bot (mid-match), and relays later connections untouched."""

    def __init__(self, target: str, cut_after: int) -> None:
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.cut_after = cut_after
        self.cuts = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        first = True
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            pair = (client, upstream)
            threading.Thread(target=self._pipe, args=(client, upstream, None), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, pair if first else None), daemon=True).start()
            first = False

    def _pipe(self, source: socket.socket, sink: socket.socket, cut: tuple | None) -> None:
        carried = 0
        try:
            while data := source.recv(65536):
                sink.sendall(data)
                carried += len(data)
                if cut is not None and carried >= self.cut_after:
                    self.cuts += 1
                    break
        except OSError:
            pass
        for sock in cut or (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()


def test_node_bot_reconnects_and_resumes_its_seat(node_bot, tmp_path):
    server = ServerThread(tmp_path, grace_s=10).start()
    proxy = CuttingProxy(server.address, cut_after=8000)
    try:
        token = server.tokens.add("node")
        process = subprocess.Popen(
            ["node", str(node_bot), "--address", proxy.address, "--matches", "1", "--json"],
            env=node_env(STANDOFF_TOKEN=token), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            match_id = server.start_match(["remote:node", "greedy"], wait=True, seed=9).match_id
            stdout, stderr = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        assert process.returncode == 0, stderr
        assert proxy.cuts == 1 and "reconnecting" in stderr
        events = [json.loads(line) for line in stdout.splitlines()]
        welcomes = [e for e in events if e["event"] == "welcome"]
        assert [w["resumed"] for w in welcomes] == [[], [match_id]]  # cut mid-match, seat resumed
        assert len([e for e in events if e["event"] == "match_started"]) == 1  # the re-sent one is known
        record = parse_record(server.record(match_id).splitlines())
        assert record.footer["faults"] == {}  # back within the grace window: no fault
        replay(ST, record)
        (ended,) = [e for e in events if e["event"] == "match_ended"]
        mine = [m for m in record.moves if m["role"] == "p1"]
        # A choice lost in the cut is answered again when the decision is re-sent.
        assert len(mine) <= ended["decisions"] <= len(mine) + 1
        # The full history re-sent after the reconnect (history_from = 0) was kept right.
        assert ended["history_entries"] == expected_history(record, "p1", mine[-1]["n"])
    finally:
        proxy.close()
        server.stop()


def test_a_wrong_token_is_refused_with_a_clear_message(node_bot, server):
    out = run_bot(node_bot, "--address", server.address, "--matches", "1", STANDOFF_TOKEN="sto_not-a-token")
    assert out.returncode == 3, out
    assert "refused the session" in out.stderr and "UNAUTHENTICATED" in out.stderr
    assert "STANDOFF_TOKEN" in out.stderr
    assert out.stdout == ""


def test_the_proto_dir_can_be_given_and_a_missing_one_is_reported(node_bot, server, tmp_path):
    protos = tmp_path / "elsewhere"
    copy_protos(protos)
    out = run_bot(node_bot, "--address", server.address, STANDOFF_TOKEN="sto_x", STANDOFF_PROTO_DIR=str(protos))
    assert out.returncode == 3, out  # loaded the protos from there, then the token was refused
    out = run_bot(node_bot, "--proto-dir", str(tmp_path / "nowhere"), STANDOFF_TOKEN="sto_x")
    assert out.returncode == 2, out
    assert "cannot find standoff/v1/referee.proto" in out.stderr


def test_no_token_is_a_usage_error(node_bot):
    out = run_bot(node_bot, "--address", "127.0.0.1:1")
    assert out.returncode == 2 and "no token" in out.stderr, out


def test_node_bot_plays_twilight_struggle(node_bot, server):
    """The same bot plays the other game: it only picks an index among the options."""
    token = server.tokens.add("node")
    process = subprocess.Popen(
        ["node", str(node_bot), "--address", server.address, "--matches", "2", "--json"],
        env=node_env(STANDOFF_TOKEN=token), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    ts = get_game("twilight-struggle")
    try:
        ids = []
        for seed, bots in ((7, ["remote:node", "random"]), (8, ["random", "remote:node"])):
            response = server.start_match(bots, game="twilight-struggle", options={"end_turn": "2"},
                                          wait=True, seed=seed)
            assert response.summary.result.termination not in ("not_played", "forfeit"), response.summary
            ids.append(response.match_id)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, stderr
    for match_id in ids:
        record = parse_record(server.record(match_id).splitlines())
        assert record.header["game"] == "twilight-struggle"
        state = replay(ts, record)
        assert ts.outcome(state).termination == record.footer["termination"]
        node_role = next(r for r, b in record.header["roles"].items() if b == "remote:node")
        assert any(m["role"] == node_role and "rtt_ms" in m for m in record.moves)


SHUTDOWN_TRIES = 5  # each starts 2 Node processes (~0.5 s apiece) and waits for their answers
THINK_MS = 500


def test_node_bots_mid_decision_get_match_ended_at_shutdown(node_bot, tmp_path):
    """The server shuts down as `standoff serve --drain-s 0` does on SIGTERM while Node bots
    think (--think-ms): each gets MatchEnded (termination shutdown) and exits 0, the server
    having closed its session. tests/server/test_shutdown_mid_decision.py tries the SDK and a
    plain grpc.aio client the same way."""
    from standoff.v1 import referee_pb2 as pb

    lost = []
    for n in range(SHUTDOWN_TRIES):
        server = ServerThread(tmp_path / str(n)).start()
        processes, seated = [], []
        try:
            for i in range(2):
                token = server.tokens.add(f"node{i}")
                process = subprocess.Popen(
                    ["node", str(node_bot), "--address", server.address, "--json", "--think-ms", str(THINK_MS)],
                    env=node_env(STANDOFF_TOKEN=token), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                )
                processes.append(process)
                match_id = server.start_match([f"remote:node{i}", "greedy"],
                                              time_control=pb.TimeControl(max_per_decision_ms=120_000)).match_id
                seated.append(match_id)
                # As p1 it is asked at once after MatchStarted: from here it thinks THINK_MS.
                while (line := process.stdout.readline()) and json.loads(line)["event"] != "match_started":
                    pass
                assert line, process.stderr.read()
            server.shutdown(drain_s=0)
            outputs = [process.communicate(timeout=30) for process in processes]
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                    process.communicate()
            server.stop()
        for process, (stdout, stderr), match_id in zip(processes, outputs, seated, strict=True):
            ended = [(e["match_id"], e["termination"]) for e in map(json.loads, stdout.splitlines())
                     if e["event"] == "match_ended"]
            if ended != [(match_id, "shutdown")] or process.returncode != 0:
                lost.append(f"exit {process.returncode}, ended {ended}: {stderr.strip()[-300:]}")
    assert lost == [], f"{len(lost)} of {SHUTDOWN_TRIES * 2} Node bots: {lost[:3]}"
