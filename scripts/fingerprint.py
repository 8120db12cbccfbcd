"""Behaviour fingerprint: what a behaviour-preserving change must leave identical.

    python scripts/fingerprint.py --out before.json        # before the change
    python scripts/fingerprint.py --check before.json      # after: exit 1 and a diff if anything moved

Three parts, each a digest per item:

* ``records``: every record of the strength tournaments (``tournaments/configs/strength_*.toml``),
  each played into a temporary folder (``--games N`` caps games per pairing for the slow ones:
  the schedule's first N games per pairing are the same matches, with the same seeds). Digests
  leave out wall-clock timings (:func:`standoff.server.ledger.record_digest`).
* ``wire``: the exact bytes a remote bot receives (every ``PlayResponse``, in order) in matches of
  both games on a real server, ``remote:`` seats answered by a scripted client.
* ``golden``: the golden playthroughs (``scripts/golden.py``), as text.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import queue
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ["strength_st", "strength_ts", "strength_ismcts", "strength_ts_search"]
SLOW = {"strength_ismcts": 2, "strength_ts_search": 2}  # games per pairing by default


def records(games: int | None) -> dict[str, str]:
    import tomllib

    from standoff.server.ledger import record_digest
    from standoff.tournaments.config import parse_config
    from standoff.tournaments.runner import run_tournament

    out: dict[str, str] = {}
    os.environ.setdefault("STANDOFF_ISMCTS_ITERATIONS", "700")  # as docs/bots.md runs it
    for name in CONFIGS:
        source = ROOT / "tournaments" / "configs" / f"{name}.toml"
        data = tomllib.loads(source.read_text())
        cap = games or SLOW.get(name)
        if cap:
            data["games_per_pairing"] = min(data.get("games_per_pairing", 2), cap)
        with tempfile.TemporaryDirectory() as folder:
            data["output_dir"] = folder
            summary = run_tournament(parse_config(data, source=str(source)))
            for path in sorted((summary.run_dir / "records").glob("*.jsonl")):
                out[f"{name}/{path.name}"] = record_digest(path)
        print(f"{name}: {sum(k.startswith(name + '/') for k in out)} records", file=sys.stderr)
    return out


def wire() -> dict[str, str]:
    import grpc

    from standoff.server.auth import TokenRegistry
    from standoff.server.logs import configure_logging
    from standoff.server.plugins import load_registry
    from standoff.server.rpc import start_server
    from standoff.v1 import referee_pb2 as pb

    configure_logging(level="error")
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        tokens = TokenRegistry(Path(folder) / "tokens.json")
        admin, bot = tokens.add("admin", admin=True), tokens.add("bot")
        ready, box = threading.Event(), {}

        def serve() -> None:
            async def main() -> None:
                running = await start_server("127.0.0.1:0", tokens=tokens, registry=load_registry(entry_points=False),
                                             data_dir=Path(folder))
                box["running"], box["stop"], box["loop"] = running, asyncio.Event(), asyncio.get_running_loop()
                ready.set()
                await box["stop"].wait()
                await running.stop(grace=0.5)

            asyncio.run(main())

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        ready.wait(30)
        address = box["running"].address
        channel = grpc.insecure_channel(address)
        meta = lambda token: (("authorization", f"Bearer {token}"),)  # noqa: E731
        outbox: queue.Queue = queue.Queue()

        def requests():
            hello = pb.PlayRequest()
            hello.hello.protocol_version = 1
            yield hello
            while (item := outbox.get()) is not None:
                yield item

        play = channel.stream_stream("/standoff.v1.RefereeService/Play", request_serializer=pb.PlayRequest.SerializeToString,
                                     response_deserializer=lambda b: b)(requests(), metadata=meta(bot))
        start = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                    request_serializer=pb.StartMatchRequest.SerializeToString,
                                    response_deserializer=pb.StartMatchResponse.FromString)
        cases = [("schotten-totten", {}, ["remote:bot", "greedy"], seed) for seed in (11, 12)]
        cases += [("twilight-struggle", {"end_turn": "3"}, ["ts-heuristic", "remote:bot"], seed) for seed in (21, 22)]
        received = iter(play)
        next(received)  # welcome (its session id is random)
        for game, options, bots, seed in cases:
            request = pb.StartMatchRequest(game=game, options=options, bots=bots, seed=seed)
            match_id = start(request, metadata=meta(admin)).match_id
            digest = hashlib.sha256()
            while True:
                raw = next(received)
                message = pb.PlayResponse.FromString(raw)
                kind = message.WhichOneof("body")
                # the match id is random: digest the bytes with it blanked out, length kept
                digest.update(raw.replace(match_id.encode(), b"#" * len(match_id)))
                if kind == "decision":
                    choice = pb.PlayRequest()
                    choice.choice.match_id = match_id
                    choice.choice.decision_id = message.decision.decision_id
                    choice.choice.option_index = (message.decision.decision_id * 7) % len(message.decision.options)
                    outbox.put(choice)
                if kind == "match_ended":
                    break
            out[f"{game}/seed{seed}"] = digest.hexdigest()
        outbox.put(None)
        channel.close()
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(30)
    return out


def golden() -> dict[str, str]:
    sys.path.insert(0, str(ROOT / "scripts"))
    import golden as gold

    return {
        f"{game}/{ruleset}/{seed}": hashlib.sha256(gold.playthrough(game, ruleset, options, seed).encode()).hexdigest()
        for game, ruleset, options, seed in gold.CASES
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the fingerprint (JSON) here")
    parser.add_argument("--check", help="compare with this fingerprint; exit 1 if anything differs")
    parser.add_argument("--games", type=int, default=None, help="cap games per pairing of every strength config")
    parser.add_argument("--parts", default="records,wire,golden")
    args = parser.parse_args()
    parts = args.parts.split(",")
    now = {part: {"records": lambda: records(args.games), "wire": wire, "golden": golden}[part]() for part in parts}
    if args.out:
        Path(args.out).write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    if args.check:
        before = json.loads(Path(args.check).read_text())
        moved = [f"{part}: {key}" for part in parts for key in sorted(set(before.get(part, {})) | set(now[part]))
                 if before.get(part, {}).get(key) != now[part].get(key)]
        for line in moved:
            print(f"differs: {line}")
        print(f"{sum(len(now[p]) for p in parts)} items compared, {len(moved)} differ")
        return 1 if moved else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
