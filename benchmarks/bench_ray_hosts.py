"""Remote bots against a thinking built-in bot, refereed by a split referee on a Ray cluster.

    python benchmarks/bench_ray_hosts.py [--nodes 3] [--matches 6] [--opponent ismcts] [--address ADDR]

Starts a simulated cluster on loopback (``ray.cluster_utils.Cluster``: a head and ``--nodes``-1
worker nodes, one CPU each, separate raylets; or joins ``--address``), a referee server in this
process whose matches are Ray actors (:class:`standoff.tournaments.ray_hosts.RayHosts`), and
``--matches`` SDK ``random`` bots (processes of their own), each playing one Schotten Totten match
against ``--opponent`` at once. Printed: each node's CPU seconds spent in the hosted matches (the
built-in bot's thinking, the engine, the views), this process's CPU seconds (the front: sessions
and routing), the wall time, and the remote seats' overhead per decision (p50/p99, their think
time taken out). On one machine the nodes share its cores; the point is where the work lands.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--opponent", default="ismcts")
    parser.add_argument("--address", default=None, help="an existing cluster instead of a simulated one")
    args = parser.parse_args()
    if args.nodes < 1 or args.matches < 1:
        parser.error("--nodes and --matches must be at least 1")

    import grpc
    import ray

    from standoff.server.auth import TokenRegistry
    from standoff.server.logs import configure_logging
    from standoff.server.plugins import load_registry
    from standoff.server.rpc import start_server
    from standoff.tournaments.ray_hosts import RayHosts
    from standoff.v1 import referee_pb2 as pb

    configure_logging(level="warning")
    cluster = None
    if args.address:
        ray.init(address=args.address)
    else:
        from ray.cluster_utils import Cluster

        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
        for _ in range(args.nodes - 1):
            cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes(timeout=120)
        ray.init(address=cluster.address, log_to_driver=False)
    names = {node["NodeID"]: f"{node['NodeManagerAddress']}:{node['NodeManagerPort']}" for node in ray.nodes()}
    data = Path(tempfile.mkdtemp(prefix="standoff-ray-hosts-"))
    tokens = TokenRegistry(data / "tokens.json")
    admin = tokens.add("admin", admin=True)
    secrets = [tokens.add(f"bot{m}") for m in range(args.matches)]
    hosts = RayHosts()
    box: dict = {}
    ready = threading.Event()

    async def serve() -> None:
        running = await start_server("127.0.0.1:0", tokens=tokens, registry=load_registry(entry_points=False),
                                     data_dir=data, hosts=hosts)
        box["address"], box["stop"], box["loop"] = running.address, asyncio.Event(), asyncio.get_running_loop()
        ready.set()
        await box["stop"].wait()
        await running.stop()

    server = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    server.start()
    ready.wait(60)
    bots = [subprocess.Popen([sys.executable, "-m", "standoff.tournaments.cli", "bot", "run", "random", "--address",
                              box["address"], "--matches", "1"], env=dict(os.environ, STANDOFF_TOKEN=secret),
                             stdout=subprocess.DEVNULL) for secret in secrets]
    cpu, wall = time.process_time(), time.perf_counter()

    def start(m: int) -> None:
        with grpc.insecure_channel(box["address"]) as channel:
            call = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                       request_serializer=pb.StartMatchRequest.SerializeToString,
                                       response_deserializer=pb.StartMatchResponse.FromString)
            request = pb.StartMatchRequest(game="schotten-totten", bots=[f"remote:bot{m}", args.opponent],
                                           seed=m + 1, wait=True)
            request.time_control.max_per_decision_ms = 120_000
            call(request, metadata=(("authorization", f"Bearer {admin}"),))

    starters = [threading.Thread(target=start, args=(m,)) for m in range(args.matches)]
    for thread in starters:
        thread.start()
    for thread in starters:
        thread.join()
    wall, front = time.perf_counter() - wall, time.process_time() - cpu
    for bot in bots:
        bot.wait(60)
    overhead, terminations = [], []
    for path in (data / "records").glob("*.jsonl"):
        for line in path.read_text().splitlines():
            move = json.loads(line)
            if move.get("type") == "outcome":
                terminations.append(move["termination"])
            elif move.get("type") == "decision" and move["role"] == "p1":
                overhead.append(move["elapsed_ms"] - move.get("think_ms", 0.0))
    box["loop"].call_soon_threadsafe(box["stop"].set)
    server.join(30)
    overhead.sort()
    print(f"{args.matches} matches, remote random vs {args.opponent}, {len(names)} nodes; "
          f"wall {wall:.1f} s; terminations: {', '.join(sorted(set(terminations)))}")
    print(f"front (this process): {front:.2f} CPU s")
    for node, seconds in sorted(hosts.cpu_by_node.items(), key=lambda item: names.get(item[0], item[0])):
        print(f"node {names.get(node, node[:8])} ({node[:8]}): {seconds:.2f} CPU s in hosted matches")
    if overhead:
        print(f"remote overhead per decision: p50 {overhead[len(overhead) // 2]:.3f} ms, "
              f"p99 {overhead[min(len(overhead) - 1, int(.99 * len(overhead)))]:.3f} ms")
    ray.shutdown()
    if cluster is not None:
        cluster.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
