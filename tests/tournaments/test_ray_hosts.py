"""A split referee whose matches are Ray actors on a 3-node cluster on loopback
(``ray.cluster_utils.Cluster``, one CPU per node): remote SDK bots' matches against a built-in
bot are played on the nodes, the referee only routing bytes; the records are those of a referee
playing the matches itself; a node lost mid-match ends that match as ``error``."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import sys
import threading
from pathlib import Path

import pytest
from kits.server import RawClient, ServerThread, comparable_record

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                reason="Ray is not installed: the optional extra, pip install -e '.[ray]'")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


@pytest.fixture(scope="module")
def cluster():
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    # The nodes' workers find tests/kits (kits.faultyengine) through the inherited PYTHONPATH.
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent.parent), saved]))
    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        for _ in range(2):
            nodes.add_node(num_cpus=1)
        nodes.wait_for_nodes(timeout=120)
        ray.init(address=nodes.address)
        yield nodes
    finally:
        ray.shutdown()
        nodes.shutdown()
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def _records(server: ServerThread, ids: dict[int, str]) -> dict[int, list[dict]]:
    out = {}
    for seed, match_id in ids.items():
        out[seed] = comparable_record(server.record(match_id), match_id=False)
    return out


def _play_three(server: ServerThread) -> dict[int, list[dict]]:
    """Three matches at once, each a remote SDK bot of its own against ``greedy``."""
    ids: dict[int, str] = {}
    bots = []
    for number, seed in enumerate((41, 42, 43)):
        token = server.tokens.add(f"bot{number}")
        bots.append(run_in_thread(RandomBot(number), server.address, token, matches=1)[0])

    def start(number: int, seed: int) -> None:
        ids[seed] = server.start_match([f"remote:bot{number}", "greedy"], seed=seed, wait=True).match_id

    starters = [threading.Thread(target=start, args=(n, s)) for n, s in enumerate((41, 42, 43))]
    for thread in starters:
        thread.start()
    for thread in starters + bots:
        thread.join(120)
    return _records(server, ids)


def test_remote_matches_are_played_on_the_nodes_with_the_same_records(cluster, tmp_path):
    from standoff.tournaments.ray_hosts import RayHosts

    hosts = RayHosts()
    server = ServerThread(tmp_path / "ray", hosts=hosts).start()
    try:
        on_ray = _play_three(server)
    finally:
        server.stop()
    # One CPU per node, three matches at once: each was played on a node of its own.
    assert len(hosts.cpu_by_node) == 3 and all(cpu > 0 for cpu in hosts.cpu_by_node.values())
    single = ServerThread(tmp_path / "single").start()
    try:
        assert _play_three(single) == on_ray
    finally:
        single.stop()
    assert all(lines[-1]["termination"] not in ("error", "not_played") for lines in on_ray.values())


def test_a_node_lost_mid_match_ends_that_match_as_error(cluster, tmp_path):
    import ray

    from standoff.tournaments.ray_hosts import RayHosts

    node = cluster.add_node(num_cpus=1, resources={"doomed": 1})
    cluster.wait_for_nodes(timeout=120)
    hosts = RayHosts()
    server = ServerThread(tmp_path, hosts=hosts).start()
    client = None
    try:
        alice = server.tokens.add("alice")
        client = RawClient(server.address, alice)
        hosts_actor_options = {"resources": {"doomed": 1}}
        hosts.actor_options = hosts_actor_options  # place this match on the node about to go
        started = server.start_match(["remote:alice", "greedy"], seed=51)
        decision = client.next("decision", timeout=60)
        assert decision is not None
        cluster.remove_node(node)
        client.choose(decision.decision, 0)
        ended = client.next("match_ended", timeout=120)
        assert ended is not None and ended.match_ended.termination == "error"
        assert "Ray actor died" in ended.match_ended.reason
        last = json.loads(server.record(started.match_id).splitlines()[-1])
        assert last["termination"] == "error"
    finally:
        if client is not None:
            client.close()
        server.stop()
    assert ray.is_initialized()


def test_a_hosted_match_that_fails_on_a_node_is_one_line_naming_the_node(cluster, tmp_path, monkeypatch):
    """A tournament with ``split_referee = true`` on Ray: an engine bug in some hosted matches
    (tests/kits/faultyengine.py, loaded on the nodes through $STANDOFF_PLUGINS) makes each of them
    an unrated ``error`` result with one line ``standoff: error: match M on node N: ...``; the
    rest are played."""
    from standoff.sdk import Bot
    from standoff.server.auth import TokenRegistry
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import load_config
    from standoff.tournaments.runner import run_tournament

    class Stateless(Bot):
        name = "stateless"

        def choose(self, decision, view):
            return (decision.decision_id * 7919) % len(decision.options)

    monkeypatch.setenv("STANDOFF_PLUGINS", "kits.faultyengine")
    try:
        registry = load_registry()
        tokens = TokenRegistry(tmp_path / "tokens.json")
        alice = tokens.add("alice")
        config = tmp_path / "hosted.toml"
        config.write_text("\n".join([
            'name = "hosted"', 'game = "schotten-totten"', f'output_dir = "{tmp_path / "runs"}"', "master_seed = 2",
            'entrants = ["greedy", "remote:alice"]', "games_per_pairing = 8", 'executor = "ray"',
            "split_referee = true", "remote_wait_s = 60",
        ]) + "\n")
        ready, box, stream = threading.Event(), {}, io.StringIO()

        def announce(address):
            box["address"] = address
            ready.set()

        runner = threading.Thread(target=lambda: box.setdefault("summary", run_tournament(
            load_config(config, registry=registry), registry=registry, tokens=tokens, announce=announce,
            progress=stream)), daemon=True)
        runner.start()
        assert ready.wait(120)
        bot, _ = run_in_thread(Stateless(1), box["address"], alice, matches=8)
        runner.join(300)
        bot.join(30)
    finally:
        faulty = sys.modules.pop("kits.faultyengine", None)
        if faulty is not None:
            faulty.restore()
    results = box["summary"].results
    failed = [r.match_id for r in results if r.termination == "error"]
    assert 0 < len(failed) < 8, [r.termination for r in results]
    lines = stream.getvalue().splitlines()
    for match_id in failed:
        line = next((x for x in lines if x.startswith(f"standoff: error: match {match_id} on node ")), lines)
        assert "EngineBug" in line, line
