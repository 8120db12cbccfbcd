"""Soak / load test of the referee server: many concurrent matches of remote SDK bots, on loopback.

    python scripts/soak.py --matches 100 --seconds 180            # the figures in docs/reliability.md
    python scripts/soak.py --matches 20 --seconds 20 --json out.json   # what CI runs (tests/reliability)

It starts ``standoff serve`` on 127.0.0.1 (a fresh data dir), adds one token per seat, starts
``--bot-procs`` bot processes that each run their share of the SDK bots (one session per bot, one
thread each: ``standoff.sdk.client.run_in_thread``; the bots answer at random at once), and keeps
``--matches`` matches in flight (each a pair of remote bots, time control ``--max-ms`` per
decision) until ``--seconds`` have passed; then it lets the matches in flight finish, stops
everything, and reads the records. It reports:

* decisions/s (bot decisions, and all decisions including chance) over the run;
* referee overhead per bot decision, p50/p90/p99/max: ``elapsed_ms`` (the referee's clock, from
  the decision sent to the answer in) minus ``think_ms`` (what the bot measured);
* the server's RSS over time (VmRSS of its process, sampled every second);
* referee-caused time losses: timeout faults (the bots answer at once, so every timeout is the
  server's or the machine's doing: the goal is 0), and decisions whose overhead took more than
  half of the allowance;
* faults of any kind and terminations; matches in flight (sampled with ListMatches).

Everything stops by itself: the run is bounded by ``--seconds`` plus a drain of at most
``--drain`` seconds. Loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# -- the bot processes ----------------------------------------------------------------------------


def bot_worker(address: str, tokens: list[str], seed: int, mode: str) -> int:
    """Run one SDK random bot per token until killed: each in a thread of its own
    (``run_in_thread``, mode "thread"), or all as tasks of one asyncio loop (the SDK's session
    coroutine, mode "asyncio": far less CPU per message than 50 event loops in 50 threads)."""
    import asyncio

    from standoff.bots.random_bot import RandomBot
    from standoff.sdk import client

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    if mode == "thread":
        threads = [client.run_in_thread(RandomBot(seed + i), address, token, max_retries=1000)[0]
                   for i, token in enumerate(tokens)]
        print("ready", flush=True)
        for thread in threads:
            thread.join()
        return 0

    async def main() -> None:
        sessions = [client._run(RandomBot(seed + i), address, token, 0, None, True, 1000, None)
                    for i, token in enumerate(tokens)]
        print("ready", flush=True)
        await asyncio.gather(*sessions)

    asyncio.run(main())
    return 0


# -- the soak -------------------------------------------------------------------------------------


def soak(matches: int, seconds: float, *, bot_procs: int = 4, max_ms: int = 1000, game: str = "schotten-totten",
         drain: float = 60.0, data_dir: Path | None = None, bot_mode: str = "asyncio", log=print) -> dict[str, Any]:
    import grpc

    from standoff.server.auth import TokenRegistry
    from standoff.v1 import referee_pb2 as pb

    data = Path(data_dir or tempfile.mkdtemp(prefix="standoff-soak-"))
    registry = TokenRegistry(data / "tokens.json")
    admin = registry.add("admin", admin=True, replace=True)  # --data-dir may be an earlier soak's
    names = [f"soak{i:04d}" for i in range(2 * matches)]
    tokens = [registry.add(name, replace=True) for name in names]
    server_log = open(data / "serve.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir", str(data),
         "--log-level", "warning"], stdout=subprocess.PIPE, stderr=server_log, text=True,
    )
    line = server.stdout.readline()
    if "listening on" not in line:
        server.kill()
        raise RuntimeError(f"standoff serve did not start: {line!r}")
    address = line.split()[-1]
    workers: list[subprocess.Popen] = []
    samples: list[tuple[float, int]] = []
    in_flight_samples: list[tuple[float, int]] = []
    outcomes: list[Any] = []
    errors: Counter = Counter()
    stop = threading.Event()
    channel = grpc.insecure_channel(address)
    metadata = (("authorization", f"Bearer {admin}"),)
    start_rpc = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                    request_serializer=pb.StartMatchRequest.SerializeToString,
                                    response_deserializer=pb.StartMatchResponse.FromString)
    list_rpc = channel.unary_unary("/standoff.v1.RefereeService/ListMatches",
                                   request_serializer=pb.ListMatchesRequest.SerializeToString,
                                   response_deserializer=pb.ListMatchesResponse.FromString)
    try:
        share = (len(tokens) + bot_procs - 1) // bot_procs
        for k in range(bot_procs):
            part = tokens[k * share : (k + 1) * share]
            if not part:
                continue
            worker = subprocess.Popen(
                [sys.executable, __file__, "--bot-worker", "--address", address, "--seed", str(1000 * k),
                 "--bot-mode", bot_mode],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            worker.stdin.write("\n".join(part) + "\n")
            worker.stdin.close()
            workers.append(worker)
        for worker in workers:
            assert worker.stdout.readline().strip() == "ready"
        log(f"server {address} (pid {server.pid}); {len(tokens)} bots in {len(workers)} processes; "
            f"{matches} matches in flight for {seconds:g} s")
        t0 = time.monotonic()
        deadline = t0 + seconds

        def sample() -> None:
            while not stop.is_set():
                now = time.monotonic() - t0
                try:
                    samples.append((now, rss_kb(server.pid)))
                    running = list_rpc(pb.ListMatchesRequest(status=pb.MATCH_STATUS_RUNNING, limit=100000),
                                       metadata=metadata, timeout=10)
                    in_flight_samples.append((now, len(running.matches)))
                except Exception:  # noqa: BLE001 - the server may be stopping
                    pass
                stop.wait(1.0)

        def drive(pair: int) -> None:
            seed = pair * 100_000
            while time.monotonic() < deadline:
                seed += 1
                request = pb.StartMatchRequest(
                    game=game, bots=[f"remote:{names[2 * pair]}", f"remote:{names[2 * pair + 1]}"], seed=seed,
                    wait=True, connect_timeout_ms=60_000, fault_policy=pb.FAULT_POLICY_FORFEIT,
                )
                request.time_control.max_per_decision_ms = max_ms
                if game == "twilight-struggle":
                    request.options["end_turn"] = "3"
                try:
                    response = start_rpc(request, metadata=metadata, timeout=seconds + drain)
                    outcomes.append(response.summary)
                except grpc.RpcError as exc:
                    errors[exc.code().name] += 1

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        drivers = [threading.Thread(target=drive, args=(pair,), daemon=True) for pair in range(matches)]
        for d in drivers:
            d.start()
        for d in drivers:
            d.join(max(0.0, deadline + drain - time.monotonic()))
        wall = time.monotonic() - t0
        stop.set()
        sampler.join(5)
        undrained = sum(d.is_alive() for d in drivers)
        # A bot process that died (it printed "ready" and then failed) leaves its seats empty and
        # the matches "not played": name it instead.
        bot_exits = {w.pid: w.returncode for w in workers if w.poll() is not None}
        cpu = {"server_cpu_s": round(cpu_s(server.pid), 1),
               "bots_cpu_s": round(sum(cpu_s(w.pid) for w in workers), 1)}
    finally:
        stop.set()
        for worker in workers:
            worker.terminate()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        for worker in workers:
            try:
                worker.wait(10)
            except subprocess.TimeoutExpired:
                worker.kill()
        channel.close()
        server_log.close()
    result = analyse(data, outcomes, samples, in_flight_samples, wall=wall, matches=matches, seconds=seconds,
                     max_ms=max_ms, errors=dict(errors), undrained=undrained, game=game, bot_procs=len(workers))
    result.update(cpu, server_cpu_share=round(cpu["server_cpu_s"] / wall, 2), bot_mode=bot_mode,
                  bot_process_exits=bot_exits)
    return result


def analyse(data: Path, outcomes, samples, in_flight, *, wall, matches, seconds, max_ms, errors, undrained, game,
            bot_procs) -> dict[str, Any]:
    overhead: list[float] = []
    think: list[float] = []
    bot_decisions = all_decisions = 0
    timeouts = near_misses = 0
    faults: Counter = Counter()
    terminations: Counter = Counter()
    partial = 0
    for path in (data / "records").glob("*.jsonl"):
        footer = None
        for raw in path.read_text().splitlines():
            line = json.loads(raw)
            if line["type"] == "decision":
                all_decisions += 1
                if line["role"] == "chance":
                    continue
                bot_decisions += 1
                if "elapsed_ms" in line and "think_ms" in line:
                    over = line["elapsed_ms"] - line["think_ms"]
                    overhead.append(over)
                    think.append(line["think_ms"])
                    if over > max_ms / 2:
                        near_misses += 1
                if line.get("fault") == "timeout":
                    timeouts += 1
            elif line["type"] == "outcome":
                footer = line
        if footer is None:
            partial += 1
            continue
        terminations[footer["termination"]] += 1
        for role, kinds in footer.get("faults", {}).items():
            for kind, n in kinds.items():
                faults[kind] += n
    timeouts = max(timeouts, faults.get("timeout", 0))
    steady = [n for t, n in in_flight if 0.2 * seconds <= t <= seconds]
    rss = [kb for _, kb in samples]
    return {
        "matches_in_flight_target": matches, "seconds": seconds, "wall_s": round(wall, 1), "game": game,
        "bot_processes": bot_procs, "max_ms_per_decision": max_ms,
        "matches_finished": len(outcomes), "matches_unfinished_records": partial, "undrained_drivers": undrained,
        "rpc_errors": errors,
        "in_flight_min": min(steady) if steady else None, "in_flight_median": statistics.median(steady) if steady else None,
        "in_flight_max": max((n for _, n in in_flight), default=None),
        "bot_decisions": bot_decisions, "all_decisions": all_decisions,
        "bot_decisions_per_s": round(bot_decisions / wall, 1), "all_decisions_per_s": round(all_decisions / wall, 1),
        "overhead_ms_p50": round(percentile(overhead, 0.50), 3), "overhead_ms_p90": round(percentile(overhead, 0.90), 3),
        "overhead_ms_p99": round(percentile(overhead, 0.99), 3), "overhead_ms_max": round(max(overhead, default=0), 3),
        "think_ms_p50": round(percentile(think, 0.50), 3),
        "time_losses": timeouts, "near_misses_over_half_allowance": near_misses,
        "faults": dict(faults), "terminations": dict(terminations),
        "rss_kb_start": rss[0] if rss else None, "rss_kb_peak": max(rss) if rss else None,
        "rss_kb_end": rss[-1] if rss else None,
        "rss_kb_over_time": [[round(t), kb] for t, kb in samples[:: max(1, len(samples) // 20)]],
    }


def format_report(r: dict[str, Any]) -> str:
    lines = [
        f"soak: {r['matches_in_flight_target']} matches in flight for {r['seconds']:g} s ({r['game']}, "
        f"{r['bot_processes']} bot processes ({r['bot_mode']}), {r['max_ms_per_decision']} ms per decision); "
        f"wall {r['wall_s']} s",
        f"  matches finished        {r['matches_finished']} (in flight: min {r['in_flight_min']}, median "
        f"{r['in_flight_median']}, max {r['in_flight_max']})",
        f"  decisions/s             {r['bot_decisions_per_s']} by bots, {r['all_decisions_per_s']} with chance "
        f"({r['bot_decisions']} / {r['all_decisions']})",
        f"  referee overhead (ms)   p50 {r['overhead_ms_p50']}  p90 {r['overhead_ms_p90']}  p99 {r['overhead_ms_p99']}"
        f"  max {r['overhead_ms_max']}  (bot think p50 {r['think_ms_p50']} ms)",
        f"  server RSS (MB)         start {r['rss_kb_start'] / 1024:.1f}  peak {r['rss_kb_peak'] / 1024:.1f}"
        f"  end {r['rss_kb_end'] / 1024:.1f}",
        f"  RSS over time (s, MB)   " + " ".join(f"{t}:{kb / 1024:.0f}" for t, kb in r["rss_kb_over_time"]),
        f"  CPU                     server {r['server_cpu_s']} s ({r['server_cpu_share']:.0%} of a core), "
        f"bot processes {r['bots_cpu_s']} s",
        f"  time losses             {r['time_losses']} timeouts; {r['near_misses_over_half_allowance']} decisions "
        f"over half the allowance",
        f"  faults                  {r['faults'] or 'none'}; rpc errors {r['rpc_errors'] or 'none'}",
        f"  terminations            {r['terminations']}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches kept in flight at once")
    parser.add_argument("--seconds", type=float, default=180.0, help="how long to keep starting matches")
    parser.add_argument("--bot-procs", type=int, default=4, help="bot processes (the bots are spread over them)")
    parser.add_argument("--bot-mode", default="asyncio", choices=["asyncio", "thread"],
                        help="in each bot process: one asyncio loop for all its bots, or a thread per bot "
                             "(run_in_thread)")
    parser.add_argument("--max-ms", type=int, default=1000, help="time control: ms per decision")
    parser.add_argument("--game", default="schotten-totten", choices=["schotten-totten", "twilight-struggle"])
    parser.add_argument("--drain", type=float, default=60.0, help="at most this long for the last matches")
    parser.add_argument("--data-dir", default=None, help="keep the server's data (records, tokens, log) here")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument("--bot-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--address", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bot_worker:
        return bot_worker(args.address, [t for t in sys.stdin.read().split() if t], args.seed, args.bot_mode)
    result = soak(args.matches, args.seconds, bot_procs=args.bot_procs, max_ms=args.max_ms, game=args.game,
                  bot_mode=args.bot_mode,
                  drain=args.drain, data_dir=Path(args.data_dir) if args.data_dir else None,
                  log=lambda text: print(text, file=sys.stderr, flush=True))
    print(format_report(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
