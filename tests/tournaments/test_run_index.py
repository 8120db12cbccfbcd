"""The run folder's index (issue 43, tournaments/run_index.py): built from the files, caught up
from them at every open, written in the same step as them, repaired from them (never the other
way round), refusing files changed under it; ratings from its sums equal to the full
computation's. Last, issue 43's "Done when": a ladder killed with SIGKILL at 20 points."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kits.ratings_oracle import oracle_ratings
from kits.run_checks import assert_agree, open_and_check
from kits.run_history import history, write_record, write_run

from standoff.server.ledger import LedgerWriter, digests
from standoff.server.storage import StorageError, index_path
from standoff.server.verify import VerifyError
from standoff.tournaments import run_index
from standoff.tournaments.errors import RunError
from standoff.tournaments.config import load_config
from standoff.tournaments.report import ratings_text, read_results
from standoff.tournaments.run_index import RunIndex, ratings_from_index, rebuild
from standoff.tournaments.runner import run_tournament

ENTRANTS = ["greedy", "random", "never-seated"]
CONFIG = {"entrants": ENTRANTS, "elo": {"k": 24.0, "start": 1200.0}}


def append(run, results):
    """Append ``results`` to the run's results.jsonl as a run does (records first, chained
    lines), without touching the index: what a kill between the append and the index leaves."""
    ledger = LedgerWriter(run / "results.jsonl")
    text = []
    for result in results:
        write_record(run / "records", result)
        result.records = digests(run / "records", result.records)
        text.append(ledger.text(result.to_json()))
    ledger.append("".join(text))
    ledger.close()


@pytest.fixture
def made(tmp_path):
    results = history(5)
    run = write_run(tmp_path / "run", results, config=CONFIG)
    return run, results


def test_a_history_is_indexed_on_first_open_and_agrees_with_its_files(made):
    run, results = made
    assert not index_path(run).exists()  # a run folder from before the index
    assert open_and_check(run, ENTRANTS) == len(results)
    elo = [json.loads(line) for line in (run / "elo.jsonl").read_text().splitlines()]
    assert elo[0]["a_before"] == 1200.0  # the config's Elo start and k
    # The index is a plain SQLite file an organiser may query read-only (docs/storage.md, "A run folder").
    conn = sqlite3.connect(f"file:{index_path(run)}?mode=ro", uri=True)
    (total,) = conn.execute("SELECT value FROM counters WHERE name = 'total'").fetchone()
    waiting = conn.execute("SELECT COUNT(*) FROM paired_legs WHERE legs = 1").fetchone()[0]
    conn.close()
    assert total == len(results) and waiting >= 1  # a leg whose partner never came waits
    if shutil.which("sqlite3"):
        out = subprocess.run(["sqlite3", "-readonly", str(index_path(run)),
                              "SELECT a, b, wins, draws, losses FROM pairs ORDER BY a, b LIMIT 1"],
                             capture_output=True, text=True, check=True).stdout
        assert out.count("|") == 4


def test_catching_up_piece_by_piece_gives_the_full_computation(tmp_path, monkeypatch):
    """A ladder's history arriving a few lines at a time (entrants joining late, pairs finished
    in a later piece), in batches smaller than a piece: after every open, index and files agree,
    and the ratings are the oracle's."""
    monkeypatch.setattr(run_index, "BATCH", 7)
    results = history(6)
    run = write_run(tmp_path / "run", results[:5], config=CONFIG)
    cut = 5
    for step in (1, 2, 13, 40, 64, len(results)):
        append(run, results[cut:cut + step])
        cut += step
        open_and_check(run, ENTRANTS)
    assert cut >= len(results)


def test_the_write_step_indexes_what_it_appends(tmp_path):
    """:meth:`RunIndex.add` (the runner's step): results lines, their Elo lines, their rows."""
    run = tmp_path / "run"
    (run / "records").mkdir(parents=True)
    results = history(7, rounds=6)
    ledger = LedgerWriter(run / "results.jsonl")
    with RunIndex.open(run, elo=(16.0, 1000.0)) as index:
        for start in range(0, len(results), 5):
            batch = results[start:start + 5]
            for result in batch:
                write_record(run / "records", result)
                result.records = digests(run / "records", result.records)
            text = "".join(ledger.text(r.to_json()) for r in batch)
            index.add(batch, text, ledger.append, "".join(index.elo_step(r) for r in batch))
    ledger.close()
    assert assert_agree(run, ENTRANTS, k=16.0, start=1000.0) == len(results)


def test_elo_jsonl_is_repaired_from_the_results_never_the_other_way(made):
    run, results = made
    open_and_check(run, ENTRANTS)
    good = (run / "elo.jsonl").read_bytes()
    # lines for results whose rows a kill cut off (and a torn one): cut back
    (run / "elo.jsonl").write_bytes(good + b'{"index": 999, "match_id": "x"}\n{"ind')
    open_and_check(run, ENTRANTS)
    assert (run / "elo.jsonl").read_bytes() == good
    for damage in (lambda p: p.unlink(), lambda p: p.write_bytes(good[: len(good) // 2]),
                   lambda p: p.write_bytes(good.replace(b"1200.0", b"1300.0"))):
        damage(run / "elo.jsonl")
        open_and_check(run, ENTRANTS)
        assert (run / "elo.jsonl").read_bytes() == good
    # another K (an execution key): the log is rewritten with it
    RunIndex.open(run, elo=(40.0, 1200.0)).close()
    assert_agree(run, ENTRANTS, k=40.0, start=1200.0)
    assert (run / "results.jsonl").stat().st_size and all((run / "records" / f"{r.match_id}.jsonl").exists()
                                                        for r in results)


def test_a_results_file_cut_or_rewritten_under_the_index_is_refused(made):
    run, results = made
    open_and_check(run, ENTRANTS)
    lines = (run / "results.jsonl").read_bytes().splitlines(keepends=True)
    (run / "results.jsonl").write_bytes(b"".join(lines[:-3]))  # lines cut off the end: the chain holds
    with pytest.raises(VerifyError, match=r"not the file this index was built from .*standoff reindex"):
        RunIndex.open(run)
    assert_agree_refused = (run / "results.jsonl").read_bytes()
    # --no-verify: indexed again as it is, and marked unchecked; a checked open then checks it all
    open_and_check(run, ENTRANTS, verify=False)
    assert (run / "results.jsonl").read_bytes() == assert_agree_refused
    with RunIndex.open(run) as index:
        assert index.count() == len(results) - 3
    # reindex: from the files alone
    assert rebuild(run) == len(results) - 3
    assert_agree(run, ENTRANTS)


def test_an_edit_in_place_is_found_by_checking_the_whole_file(made):
    """The same length, written since the index last saw it: checked whole, the edited line named."""
    run, _ = made
    open_and_check(run, ENTRANTS)
    raw = (run / "results.jsonl").read_text().splitlines()
    line = json.loads(raw[2])
    assert line["reason"] in ("won", "draw") or line["reason"]
    line["reason"] = "x" * len(line["reason"])  # same length
    raw[2] = json.dumps(line, sort_keys=True)
    (run / "results.jsonl").write_text("\n".join(raw) + "\n")
    with pytest.raises(VerifyError, match="line 4 does not follow line 3"):
        RunIndex.open(run)


def test_the_new_lines_records_are_checked_and_a_repeated_line_is_skipped(made):
    run, results = made
    RunIndex.open(run).close()
    extra = history(5, rounds=14)[len(results):]
    append(run, extra[:3])
    record = run / "records" / f"{extra[1].match_id}.jsonl"
    record.write_text(record.read_text().replace('"reason":', '"reason": "edited", "x":'))
    with pytest.raises(VerifyError, match=rf"line {len(results) + 2} .* does not match its digest"):
        RunIndex.open(run)
    write_record(run / "records", extra[1])  # put back
    open_and_check(run, ENTRANTS)
    # A line repeating one already there, identically (ratings count it once); with another result: refused.
    ledger = LedgerWriter(run / "results.jsonl")
    line = dict(extra[0].to_json())
    ledger.append(ledger.text(line))
    ledger.close()
    open_and_check(run, ENTRANTS, verify=False)
    ledger = LedgerWriter(run / "results.jsonl")
    ledger.append(ledger.text({**line, "reason": "another"}))
    ledger.close()
    with pytest.raises(RunError, match="conflicts with line"):
        RunIndex.open(run, verify=False)


def test_the_ratings_from_the_index_are_the_full_computation(made):
    run, results = made
    with RunIndex.open(run) as index:
        for entrants in (None, ENTRANTS, ["someone-else"]):
            assert ratings_text(ratings_from_index(index, entrants)) == ratings_text(
                oracle_ratings(results, entrants=entrants))


@pytest.mark.parametrize("bad", ["garbage", "foreign", "newer", "torn"])
def test_a_bad_index_file_is_one_line_and_reindex_moves_it_aside(made, bad):
    run, results = made
    path = index_path(run)
    RunIndex.open(run).close()
    if bad == "garbage":
        path.write_bytes(b"not a database, whatever it is " * 200)
    elif bad == "torn":
        data = path.read_bytes()
        path.write_bytes(data[:100] + b"\0" * 300 + data[400:])  # pages overwritten
    else:
        path.unlink()
        conn = sqlite3.connect(path)
        if bad == "foreign":
            conn.execute("CREATE TABLE notes (text TEXT)")
        else:
            conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            conn.execute("INSERT INTO meta VALUES ('schema', 'run/2')")
        conn.commit()
        conn.close()
    before = path.read_bytes()
    files = {p.name: p.read_bytes() for p in [run / "results.jsonl", *(run / "records").iterdir()]}
    with pytest.raises(StorageError) as caught:
        RunIndex.open(run)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)
    assert "reindex" in str(caught.value) or "upgrade" in str(caught.value)
    assert path.read_bytes() == before  # not ours to change: not even its header's journal mode
    assert rebuild(run) == len(results)
    assert (run / "index.sqlite.bad").read_bytes() == before
    assert_agree(run, ENTRANTS)
    assert {p.name: p.read_bytes() for p in [run / "results.jsonl", *(run / "records").iterdir()]} == files


def test_rebuild_needs_a_run_folder(tmp_path):
    with pytest.raises(RunError, match="not a run folder"):
        rebuild(tmp_path)


# -- Issue 43, "Done when": a ladder killed with SIGKILL at 20 points leaves its files and its
# index agreeing after the next open, and then goes on to the files an uninterrupted ladder writes.
#
# Each kill is a ``standoff ladder`` process (tests/kits/kill_at.py) killed at the Nth call of one
# place of its write step (results appended; a batch torn; Elo lines appended; inside the index's
# transaction, in a run's step or in the catch-up after an earlier kill; halfway through an Elo
# log rewrite; ratings written; the ratings between rounds), or from outside at a spread time.
# After each: the next open (:meth:`RunIndex.open`, as ``standoff ratings`` or a resume does)
# catches the index up, and then its rows are the file's results, its sums the ones recomputed
# from the file, elo.jsonl the log recomputed from the file, the ratings those of the full
# computation (tests/kits/run_checks.py).

HERE = Path(__file__).resolve().parent
LADDER = ["greedy", "random", "probability"]
# (place, nth call) of tests/kits/kill_at.py, or ("spread", seconds) for a kill from outside;
# "then": no open after this kill, the next process's is the next open (and it is killed in its
# catch-up: "rows" 1 there is inside the transaction that indexes the lines the kill left).
KILLS = [
    ("results", 1), ("elo", 1), ("rows", 1), ("torn", 1), ("results", 2, "then"), ("rows", 1),
    ("elo", 1), ("torn", 2), ("ratings", 1), ("round", 2), ("elo", 1, "then"), ("rows", 1), ("rewrite", 1),
    ("rows", 2), ("spread", 1.1), ("results", 3), ("ratings", 2), ("spread", 1.4), ("round", 3), ("spread", 1.7),
]


def write_config(folder: Path, name: str, k: float = 32) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{k:g}.toml"
    path.write_text(
        f'name = "{name}"\ngame = "schotten-totten"\noutput_dir = "{folder / "runs"}"\n'
        f"entrants = {json.dumps(LADDER)}\ngames_per_pairing = 2\nformat = \"ladder\"\nworkers = 1\n"
        f"master_seed = 7\n[elo]\nk = {k}\n")
    return path


def test_a_ladder_killed_at_20_points_keeps_its_index_and_files_agreeing(tmp_path):
    assert len(KILLS) == 20
    config = write_config(tmp_path, "crash")
    other_k = write_config(tmp_path, "crash", k=40)  # K is an execution key: the log is rewritten
    run = tmp_path / "runs" / "crash"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    killed = 0
    for place, when, *then in KILLS:
        path = other_k if place == "rewrite" else config
        args = ["ladder", str(path), "--rounds", "2" if place == "spread" else "1"]
        if place == "spread":
            process = subprocess.Popen([sys.executable, "-m", "standoff.tournaments.cli", *args], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(when)
            process.kill()
            code = process.wait()
        else:
            code = subprocess.run([sys.executable, "-m", "kits.kill_at", place, str(when), *args], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120).returncode
        killed += code == -9
        if then:
            continue
        # the next open: the index catches up and repairs elo.jsonl from the results
        RunIndex.open(run).close()
        assert_agree(run, LADDER)
    assert killed >= 17  # a spread kill may come after the run ended, a batch hold more lines
    done = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "ladder", str(config), "--rounds", "1"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_agree(run, LADDER)
    # ... and the files are those of a ladder never killed, of as many rounds
    rounds = max(r.round for r in read_results(run / "results.jsonl"))
    assert rounds >= 5
    reference = run_tournament(load_config(write_config(tmp_path / "ref", "crash")), ladder=True, rounds=rounds)
    for name in ("results.jsonl", "elo.jsonl", "ratings.json"):
        assert (run / name).read_bytes() == (reference.run_dir / name).read_bytes(), name
