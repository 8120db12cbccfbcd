"""Generate a long history fast, without playing: a server's data folder and a ladder's run folder
of N finished matches each, in the files and formats today's code writes (for
benchmarks/bench_storage.py).

    python benchmarks/gen_history.py --matches 1000000 --out /work/bench-data/1e6 [--kind both] [--seed 43]

* ``--kind server``: ``OUT/server/``, what ``standoff serve --data-dir OUT/server`` would hold after
  N matches: ``records/<match_id>.jsonl`` and ``matches.jsonl`` (the server's ledger: one chained
  line per finished match, in finishing order, as :class:`standoff.server.archive.Archive` writes
  it). Half Schotten Totten, half Twilight Struggle; several bots per game, remote ones among
  them, some played more than others; mostly ends by the rules, a few draws, forfeits (a bot
  timed out), ``not_played`` (a remote bot never came) and ``shutdown`` endings.
* ``--kind ladder``: ``OUT/ladder.toml`` (a Schotten Totten ladder of cheap built-in bots, without
  ``master_seed``: the run keeps a secret one) and its run folder ``OUT/ladder/`` (``config.json``,
  ``master_seed``, ``results.jsonl``, ``records/``) holding the first rounds of that ladder, whole
  rounds, at least N results: the matches the ladder's schedule gives
  (:func:`standoff.tournaments.schedule.ladder_round`: same ids, seeds, seats, pair and leg), so
  that ``standoff ladder OUT/ladder.toml --rounds 1`` resumes from it and plays the next round.
  (``elo.jsonl`` and ``ratings.json`` are derived: the first resume writes them.)

Records are copies of real ones (benchmarks/history_templates.py: a handful played at start
with the project's own functions) with header (match id, seed, seats) and outcome line rewritten;
a copy keeps the template's outcome, so every copy replays by the rules (``standoff verify``
passes). Not realistic: the two legs of a ladder seed do not deal the same cards (the seed is
not replayed: a replay follows the recorded chance keys), and records carry no times. Durable
files only: no index. Deterministic for a given ``--seed``.

Put the data outside the repository: records are 15 KB on average, so a million matches take
about 16 GB on disk (both kinds: 32 GB; writing them, 3 and 4 minutes); the disk use is printed
at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from history_templates import ST, TS, Template, ladder_templates, server_templates  # noqa: E402

from standoff.server.core.seeds import derive_seed  # noqa: E402
from standoff.server.ledger import GENESIS, chain_text, line_digest  # noqa: E402

#: The server's bots per game, most played first (weights below).
SERVER_BOTS = {
    ST: ("remote:alice", "greedy", "remote:bob", "probability", "remote:carol", "random"),
    TS: ("remote:dave", "ts-heuristic", "remote:erin", "ts-search", "random"),
}
#: How a server's matches end, in parts per thousand.
SERVER_ENDINGS = {"natural": 890, "draw": 40, "forfeit": 45, "not_played": 15, "shutdown": 10}
#: The ladder: cheap built-in bots, 3 pairings x 2 games a round.
LADDER_ENTRANTS = ("greedy", "probability", "random")
LADDER_GAMES_PER_PAIRING = 2
LEDGER_BATCH = 4096  # ledger lines written at once


class RecordFolder:
    """Writes record files into one folder (``0700``, files ``0600``, as the server's), fast:
    one ``os.open`` relative to the folder's descriptor. Counts bytes and blocks written."""

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path, 0o700)
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        self.block = os.statvfs(path).f_frsize or 4096
        self.bytes = self.blocks = self.files = 0

    def write(self, name: str, data: bytes) -> None:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600, dir_fd=self.fd)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        self.files += 1
        self.bytes += len(data)
        self.blocks += -(-len(data) // self.block)

    def close(self) -> None:
        os.close(self.fd)


class Ledger:
    """A ledger written from scratch: chained lines (``standoff.server.ledger.chain_text``),
    appended in batches."""

    def __init__(self, path: Path) -> None:
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        os.chmod(path, 0o600)
        self.prev, self.pending, self.lines = GENESIS, [], 0

    def add(self, line: dict[str, Any]) -> None:
        text = chain_text(line, self.prev)
        self.prev = line_digest(text)
        self.pending.append(text + "\n")
        self.lines += 1
        if len(self.pending) >= LEDGER_BATCH:
            self.flush()

    def flush(self) -> None:
        self.file.write("".join(self.pending))
        self.pending.clear()

    def close(self) -> None:
        self.flush()
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()


class Progress:
    def __init__(self, what: str, total: int) -> None:
        self.what, self.total, self.started, self.next = what, total, time.monotonic(), max(1, total // 10)

    def tick(self, done: int) -> None:
        if done >= self.next or done == self.total:
            self.next += max(1, self.total // 10)
            elapsed = time.monotonic() - self.started
            print(f"  {self.what}: {done:,}/{self.total:,} ({elapsed:.0f} s, {done / max(elapsed, 1e-9):,.0f}/s)",
                  flush=True)


# -- a server's data folder -------------------------------------------------------------------------


def match_ids(seed: int) -> Iterator[str]:
    """Distinct 12-hex-digit ids in a scrambled order (the server draws ``secrets.token_hex(6)``):
    an affine permutation of 48-bit numbers, so no two are equal and none has to be remembered."""
    rng = random.Random(derive_seed(seed, "match ids"))
    multiplier, offset = rng.getrandbits(48) | 1, rng.getrandbits(48)
    n = 0
    while True:
        yield f"{(n * multiplier + offset) % (1 << 48):012x}"
        n += 1


def server_line(match_id: str, header: dict[str, Any], footer: dict[str, Any], name: str, digest: str
                ) -> dict[str, Any]:
    """The ledger line the referee writes for a finished match (``Archive._ledger_text``): the
    summary's fields as the protobuf carries them (a score is a double)."""
    return {
        "match_id": match_id, "game": header["game"], "ruleset": header["ruleset"], "seats": header["roles"],
        "winner": footer.get("winner") or None,
        "scores": {role: float(score) for role, score in (footer.get("scores") or {}).items()},
        "termination": footer.get("termination", ""), "reason": footer.get("reason", ""),
        "faults": footer.get("faults") or {}, "records": {name: digest},
    }


def _seats(rng: random.Random, game: str, roles: tuple[str, ...], kind: str) -> dict[str, str]:
    bots = SERVER_BOTS[game]
    weights = [len(bots) - i for i in range(len(bots))]
    first = rng.choices(bots, weights)[0]
    second = rng.choices([b for b in bots if b != first], [w for b, w in zip(bots, weights) if b != first])[0]
    if kind == "not_played" and not any(b.startswith("remote:") for b in (first, second)):
        second = bots[0]  # the seat nobody came to is a remote bot's
    pair = (first, second) if rng.random() < 0.5 else (second, first)
    return dict(zip(roles, pair, strict=True))


def generate_server(folder: Path, matches: int, seed: int, templates: dict[str, list[Template]]) -> RecordFolder:
    """``folder`` as a server's data folder holding ``matches`` finished matches."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    rng = random.Random(derive_seed(seed, "server"))
    by_kind = {game: {kind: [t for t in found if t.kind == kind] for kind in SERVER_ENDINGS}
               for game, found in templates.items()}
    kinds = [kind for kind in SERVER_ENDINGS if all(by_kind[g][kind] for g in by_kind)]
    weights = [SERVER_ENDINGS[kind] for kind in kinds]
    records = RecordFolder(folder / "records")
    ledger = Ledger(folder / "matches.jsonl")
    progress = Progress("server matches", matches)
    ids = match_ids(seed)
    for n in range(matches):
        game = (ST, TS)[n % 2]
        kind = rng.choices(kinds, weights)[0]
        template = rng.choice(by_kind[game][kind])
        roles = _seats(rng, game, tuple(template.header["roles"]), kind)
        reason = None
        if kind == "not_played":
            reason = f"never connected: {', '.join(b for b in roles.values() if b.startswith('remote:'))}"
        match_id = next(ids)
        name = f"{match_id}.jsonl"
        data, digest, footer = template.copy(match_id, rng.getrandbits(63) or 1, roles, reason)
        records.write(name, data)
        ledger.add(server_line(match_id, {**template.header, "roles": roles}, footer, name, digest))
        progress.tick(n + 1)
    ledger.close()
    records.close()
    return records


# -- a ladder's run folder ----------------------------------------------------------------------------


def ladder_toml(out: Path, entrants: tuple[str, ...]) -> str:
    names = ", ".join(json.dumps(e) for e in entrants)
    return (
        "# A Schotten Totten ladder of cheap built-in bots (benchmarks/gen_history.py wrote it; its run\n"
        "# folder is ladder/ next to this file). No master_seed: the run keeps a secret one.\n"
        f'name = "ladder"\ngame = "{ST}"\nentrants = [{names}]\nformat = "ladder"\n'
        f"games_per_pairing = {LADDER_GAMES_PER_PAIRING}\npaired_seeds = true\n"
        f"output_dir = {json.dumps(str(out.resolve()))}\nconcurrency = 2\n"
    )


def generate_ladder(out: Path, matches: int, seed: int, registry: Any, template_rounds: int = 3) -> RecordFolder:
    """``out/ladder.toml`` and its run folder ``out/ladder`` with whole rounds, at least
    ``matches`` results, copied from the matches of ``template_rounds`` rounds played first."""
    from dataclasses import replace

    from standoff.server.private_files import replace_private
    from standoff.tournaments.config import load_config
    from standoff.tournaments.run_folder import SECRET_SEED_FILE, run_dir_of
    from standoff.tournaments.schedule import ladder_round, matches_per_cycle, untrusted_entrants

    out.mkdir(parents=True, exist_ok=True)
    toml = out / "ladder.toml"
    toml.write_text(ladder_toml(out, LADDER_ENTRANTS), encoding="utf-8")
    config = load_config(toml, registry=registry)
    folder = run_dir_of(config)
    if folder.exists() and any(folder.iterdir()):
        raise SystemExit(f"{folder} is not empty: generate into a new --out")
    folder.mkdir(mode=0o700)
    replace_private(folder / "config.json", json.dumps(config.to_json(), sort_keys=True, indent=2) + "\n")
    master = derive_seed(seed, "ladder master seed")
    replace_private(folder / SECRET_SEED_FILE, f"{master}\n")
    resolved = replace(config, master_seed=master)
    templates = ladder_templates(resolved, registry, template_rounds)
    roles = tuple(config.roles())
    untrusted = untrusted_entrants(resolved, registry)
    rounds = math.ceil(matches / matches_per_cycle(resolved))
    rng = random.Random(derive_seed(seed, "ladder"))
    records = RecordFolder(folder / "records")
    ledger = Ledger(folder / "results.jsonl")
    progress = Progress("ladder results", rounds * matches_per_cycle(resolved))
    for number in range(1, rounds + 1):
        for spec in ladder_round(resolved, number, untrusted=untrusted):
            template = rng.choice(templates)
            seats = dict(zip(roles, spec.seats, strict=True))
            name = f"{spec.match_id}.jsonl"
            data, digest, footer = template.copy(spec.match_id, spec.seed, seats)
            records.write(name, data)
            line = dict(template.result)
            winner_role = line.get("winner_role")
            line.update(index=spec.index, match_id=spec.match_id, round=spec.round, seed=spec.seed, pair=spec.pair,
                        leg=spec.leg, seats=seats, winner=seats[winner_role] if winner_role else None,
                        reason=template.renamed(line["reason"], seats), records={name: digest})
            ledger.add(line)
            progress.tick(ledger.lines)
    ledger.close()
    records.close()
    return records


# -- the command ------------------------------------------------------------------------------------


def _size(nbytes: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if nbytes < 1024 or unit == "GB":
            return f"{nbytes:,.1f} {unit}"
        nbytes /= 1024
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1_000_000, metavar="N", help="matches per folder")
    parser.add_argument("--kind", choices=("server", "ladder", "both"), default="both")
    parser.add_argument("--out", required=True, metavar="DIR", help="where to write (outside the repository)")
    parser.add_argument("--seed", type=int, default=43, help="the same seed writes the same files")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches takes 1 or more")
    out = Path(args.out)
    if args.kind in ("server", "both") and (out / "server").exists() and any((out / "server").iterdir()):
        raise SystemExit(f"{out / 'server'} is not empty: generate into a new --out")
    from standoff.server.plugins import load_registry

    registry = load_registry(entry_points=False)
    started = time.monotonic()
    written = []
    if args.kind in ("server", "both"):
        with tempfile.TemporaryDirectory(prefix="gen-history-") as tmp:
            templates = server_templates(registry, Path(tmp), seed=args.seed)
        count = sum(len(found) for found in templates.values())
        print(f"{count} server templates played ({time.monotonic() - started:.1f} s)", flush=True)
        written.append(("server data folder", out / "server", generate_server(out / "server", args.matches, args.seed,
                                                                                templates)))
    if args.kind in ("ladder", "both"):
        written.append(("ladder run folder", out / "ladder", generate_ladder(out, args.matches, args.seed, registry)))
    for what, folder, records in written:
        print(f"{what} {folder}: {records.files:,} records, {_size(records.bytes)} written, "
              f"{_size(records.blocks * records.block)} on disk in {records.block}-byte blocks")
    print(f"done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
