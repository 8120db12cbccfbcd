"""What the sandbox costs an untrusted bot: start-up per match and overhead per decision,
sandboxed (bubblewrap: standoff.server.sandbox) against the plain subprocess runner
(``--unsandboxed``), interleaved.

    python benchmarks/bench_sandbox.py [--rounds 5] [--matches 4]

One real server on 127.0.0.1 (its Unix socket for the sandboxes too). An untrusted copy of the
built-in ``random`` bot (a plugin module written for the run, on ``$STANDOFF_PLUGINS``, marked
untrusted: the referee starts ``standoff bot run`` for it at each match, exactly as for a
third-party plugin) plays p1 against the in-process ``random``, Schotten Totten. Each round plays
``--matches`` matches sandboxed and as many unsandboxed, one after the other (a match at a time),
the side that goes first alternating from round to round.

Per side and round:

* **match wall**: ``StartMatch(wait=true)`` to its answer, in s: the runner's start-up (process,
  interpreter, imports, connection; in the sandbox also prlimit, bwrap's namespaces and mounts,
  the uid switch) and the match itself;
* **decision overhead p50**: per decision of p1, the record's ``elapsed_ms - think_ms``
  (referee + wire + SDK, the bot's own thinking taken out; the same measure as
  benchmarks/bench_referee.py's *remote p50*): a sandboxed bot talks over a Unix socket, the
  plain one over TCP loopback.

Printed: the median of the rounds per side, *extra per match* (sandboxed - plain match wall,
the targets say <= 0.2 s) and *per decision* (sandboxed / plain p50, <= 1.10). Needs bubblewrap
(``apt-get install bubblewrap``); as root the sandboxed bot runs under a uid of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc

from standoff.server.auth import TokenRegistry
from standoff.server.logs import configure_logging
from standoff.server.plugins import load_registry
from standoff.server.rpc import start_server
from standoff.server.sandbox import Sandbox, backend_problem
from standoff.v1 import referee_pb2 as pb

PLUGIN = '''
from standoff.bots.random_bot import RandomBot
from standoff.server.plugins import BotSpec, hookimpl


class UntrustedRandom(RandomBot):
    name = "random-untrusted"


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(UntrustedRandom, trusted=False)]
'''


class Server:
    """A referee in a thread of its own (its asyncio loop), sandboxing by default."""

    def __init__(self, data: Path) -> None:
        self.tokens = TokenRegistry(data / "tokens.json")
        self.admin = self.tokens.add("admin", admin=True, replace=True)
        self.data = data
        self.ready = threading.Event()
        threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True).start()
        assert self.ready.wait(60), "the server did not start"

    async def _main(self) -> None:
        self.running = await start_server("127.0.0.1:0", tokens=self.tokens, registry=load_registry(entry_points=False),
                                          data_dir=self.data, ledger=False, verify=False)
        self.ready.set()
        await asyncio.Event().wait()

    def play(self, sandboxed: bool, seed: int) -> tuple[float, list[float]]:
        """One match: its wall time (s) and p1's per-decision overheads (ms)."""
        self.running.referee.sandbox = Sandbox(enabled=sandboxed)
        request = pb.StartMatchRequest(game="schotten-totten", bots=["random-untrusted", "random"], seed=seed,
                                       wait=True, connect_timeout_ms=60_000)
        with grpc.insecure_channel(self.running.address) as channel:
            call = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                       request_serializer=pb.StartMatchRequest.SerializeToString,
                                       response_deserializer=pb.StartMatchResponse.FromString)
            started = time.perf_counter()
            response = call(request, metadata=(("authorization", f"Bearer {self.admin}"),), timeout=300)
            wall = time.perf_counter() - started
            termination = response.summary.result.termination
            assert termination not in ("error", "not_played", "forfeit"), f"match ended by {termination}"
            record = self._record(channel, response.match_id)
        moves = [json.loads(line) for line in record.splitlines()[1:-1]]
        overheads = [m["elapsed_ms"] - m.get("think_ms", 0.0) for m in moves if m.get("role") == "p1" and "rtt_ms" in m]
        return wall, overheads

    def _record(self, channel: grpc.Channel, match_id: str) -> str:
        call = channel.unary_unary("/standoff.v1.RefereeService/GetMatchRecord",
                                   request_serializer=pb.GetMatchRecordRequest.SerializeToString,
                                   response_deserializer=pb.GetMatchRecordResponse.FromString)
        for _ in range(600):  # served once the match is off the running list, just after its end
            try:
                return call(pb.GetMatchRecordRequest(match_id=match_id),
                            metadata=(("authorization", f"Bearer {self.admin}"),), timeout=30).record_jsonl
            except grpc.RpcError as exc:
                if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
                time.sleep(0.05)
        raise RuntimeError(f"the record of {match_id} was never served")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--matches", type=int, default=4, help="matches per side and round")
    args = parser.parse_args()
    if (problem := backend_problem()) is not None:
        print(f"bench_sandbox: {problem}", file=sys.stderr)
        return 2
    configure_logging(json=False, level="warning")
    work = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
    work.chmod(0o755)  # as root the sandboxed bot runs under a uid of its own: its code must be readable
    (work / "bench_untrusted.py").write_text(PLUGIN)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(work), os.environ.get("PYTHONPATH", "")]))
    os.environ["STANDOFF_PLUGINS"] = "bench_untrusted"
    sys.path.insert(0, str(work))  # the server's registry imports it too
    (work / "data").mkdir()
    server = Server(work / "data")
    print(f"{'round':>5}  {'side':<10} {'match wall s':>12} {'decision p50 ms':>16}  (uid {os.geteuid()}, "
          f"{args.matches} matches per side)")
    results: dict[str, list[tuple[float, float]]] = {"sandboxed": [], "plain": []}
    seed = 1
    for number in range(1, args.rounds + 1):
        sides = ["sandboxed", "plain"] if number % 2 else ["plain", "sandboxed"]
        for side in sides:
            walls, overheads = [], []
            for _ in range(args.matches):
                wall, found = server.play(side == "sandboxed", seed)
                seed += 1
                walls.append(wall)
                overheads += found
            figures = (statistics.median(walls), statistics.median(overheads))
            results[side].append(figures)
            print(f"{number:>5}  {side:<10} {figures[0]:>12.3f} {figures[1]:>16.3f}", flush=True)
    sandboxed = [statistics.median(r[i] for r in results["sandboxed"]) for i in (0, 1)]
    plain = [statistics.median(r[i] for r in results["plain"]) for i in (0, 1)]
    print(f"median of {args.rounds} rounds: match wall {sandboxed[0]:.3f} s sandboxed, {plain[0]:.3f} s plain: "
          f"extra per match {sandboxed[0] - plain[0]:+.3f} s (target <= 0.2 s)")
    print(f"decision overhead p50 {sandboxed[1]:.3f} ms sandboxed, {plain[1]:.3f} ms plain: "
          f"ratio {sandboxed[1] / plain[1]:.3f} (target <= 1.10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
