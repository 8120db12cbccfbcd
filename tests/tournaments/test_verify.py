"""Tamper-evident results: every results.jsonl line carries its records' digests and the digest of
the line before it; `standoff verify` checks the chain, the digests and every record replayed
against its line; `ratings`, `report` and a resume refuse an edited run (``--no-verify`` to go
on anyway)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from standoff.server.ledger import GENESIS, chain_text, line_digest, record_digest
from standoff.server.verify import VerifyError, verify_folder
from standoff.tournaments.config import load_config
from standoff.tournaments.runner import run_tournament


def write_config(folder: Path, name: str, tables: str = "", **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"',
             'entrants = ["greedy", "random"]', "master_seed = 3"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n" + tables)
    return path


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verify")
    path = write_config(folder, "v", games_per_pairing=6)
    summary = run_tournament(load_config(path))
    return path, summary.run_dir


def copy_run(run_dir: Path, tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "copy" / run_dir.name
    shutil.copytree(run_dir, target)
    return target


def lines_of(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]


def test_every_line_is_chained_and_names_its_records_digests(run):
    _, run_dir = run
    raw = (run_dir / "results.jsonl").read_text().splitlines()
    prev = GENESIS
    for text in raw:
        line = json.loads(text)
        assert line["prev"] == prev  # an independent recomputation of the chain
        prev = hashlib.sha256(text.encode()).hexdigest()
        ((name, digest),) = line["records"].items()
        assert name == f"{line['match_id']}.jsonl" and digest == record_digest(run_dir / "records" / name)
    report = verify_folder(run_dir)
    assert (report.lines, report.records, report.replayed, report.unreferenced) == (6, 6, 6, [])
    ok = cli("verify", str(run_dir))
    assert ok.returncode == 0 and ok.stdout.startswith("verified ") and "6 replayed" in ok.stdout


def test_a_record_digest_ignores_timings_only(tmp_path, run):
    _, run_dir = run
    name = next((run_dir / "records").glob("*.jsonl")).name
    lines = [json.loads(x) for x in (run_dir / "records" / name).read_text().splitlines()]
    for line in lines:
        if line.get("type") == "decision":
            line["think_ms"] = 123.0
    (tmp_path / "r.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert record_digest(tmp_path / "r.jsonl") == record_digest(run_dir / "records" / name)
    lines[1]["key"] = "card:red-9"
    (tmp_path / "r.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert record_digest(tmp_path / "r.jsonl") != record_digest(run_dir / "records" / name)


def edit_line(run_dir: Path, index: int, **changes) -> None:
    path = run_dir / "results.jsonl"
    raw = path.read_text().splitlines()
    line = json.loads(raw[index])
    line.update(changes)
    raw[index] = json.dumps(line, sort_keys=True)
    path.write_text("\n".join(raw) + "\n")


def test_an_edited_result_line_is_refused_by_verify_ratings_report_and_resume(tmp_path):
    path = write_config(tmp_path, "edited", games_per_pairing=4)
    run_dir = run_tournament(load_config(path)).run_dir
    line = lines_of(run_dir)[2]
    loser = next(role for role in line["seats"] if role != line["winner_role"])
    # a consistent forgery of line 3: winner, role and scores all flipped
    edit_line(run_dir, 2, winner=line["seats"][loser], winner_role=loser,
              scores={r: 1.0 if r == loser else 0.0 for r in line["seats"]})
    bad = cli("verify", str(run_dir))
    assert bad.returncode == 1 and len(bad.stderr.splitlines()) == 1
    assert "results.jsonl: line 3" in bad.stderr and "record" in bad.stderr
    for command in (["ratings", str(run_dir)], ["report", str(run_dir)]):
        refused = cli(*command)
        assert refused.returncode == 2 and "line 3" in refused.stderr and "--no-verify" in refused.stderr
        assert len(refused.stderr.splitlines()) == 1
    assert cli("ratings", str(run_dir), "--no-verify").returncode == 0
    # a resume of that run refuses too (one line, exit 2), unless told not to check
    resumed = cli("tournament", str(path))
    assert resumed.returncode == 2 and "line 3" in resumed.stderr and "refusing to resume" in resumed.stderr
    assert cli("tournament", str(path), "--no-verify").returncode == 0


def test_forging_the_line_and_the_chain_still_shows_at_the_record(run, tmp_path):
    """Rewrite line 3 and re-chain every later line: the chain holds, the record does not agree."""
    _, original = run
    run_dir = copy_run(original, tmp_path)
    raw = (run_dir / "results.jsonl").read_text().splitlines()
    objs = [json.loads(x) for x in raw]
    objs[2]["termination"] = "stalemate" if objs[2]["termination"] != "stalemate" else "breakthrough"
    prev, out = GENESIS, []
    for obj in objs:
        obj.pop("prev")
        text = chain_text(obj, prev)
        out.append(text)
        prev = line_digest(text)
    (run_dir / "results.jsonl").write_text("\n".join(out) + "\n")
    with pytest.raises(VerifyError, match=r"line 3 .*termination"):
        verify_folder(run_dir, replay_records=False)


@pytest.mark.parametrize("change", ["removed", "inserted", "swapped"])
def test_removing_inserting_or_reordering_lines_breaks_the_chain(run, tmp_path, change):
    _, original = run
    run_dir = copy_run(original, tmp_path)
    raw = (run_dir / "results.jsonl").read_text().splitlines()
    if change == "removed":
        del raw[1]
    elif change == "inserted":
        raw.insert(1, raw[1])
    else:
        raw[1], raw[2] = raw[2], raw[1]
    (run_dir / "results.jsonl").write_text("\n".join(raw) + "\n")
    with pytest.raises(VerifyError, match="line 2"):
        verify_folder(run_dir, replay_records=False)


def test_an_edited_record_is_refused(run, tmp_path):
    _, original = run
    run_dir = copy_run(original, tmp_path)
    name = lines_of(run_dir)[4]["match_id"] + ".jsonl"
    record = run_dir / "records" / name
    lines = record.read_text().splitlines()
    footer = json.loads(lines[-1])
    footer["reason"] = "edited"
    lines[-1] = json.dumps(footer)
    record.write_text("\n".join(lines) + "\n")
    with pytest.raises(VerifyError, match=f"line 5 .*{name} does not match its digest"):
        verify_folder(run_dir, replay_records=False)


def test_a_record_that_breaks_the_rules_fails_the_replay(run, tmp_path):
    """A record forged with a legal-looking but illegal key, its digest and the chain recomputed:
    only the replay can tell, and it does."""
    _, original = run
    run_dir = copy_run(original, tmp_path)
    first = lines_of(run_dir)[0]
    name = next(iter(first["records"]))
    record = run_dir / "records" / name
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    move = next(line for line in lines if line.get("type") == "decision" and line["step"] == "place")
    move["key"] = "flag:99"
    record.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    objs = lines_of(run_dir)
    objs[0]["records"][name] = record_digest(record)
    prev, out = GENESIS, []
    for obj in objs:
        obj.pop("prev")
        out.append(chain_text(obj, prev))
        prev = line_digest(out[-1])
    (run_dir / "results.jsonl").write_text("\n".join(out) + "\n")
    verify_folder(run_dir, replay_records=False)  # chain and digests hold
    with pytest.raises(VerifyError, match="line 1 .*does not replay"):
        verify_folder(run_dir)


def test_a_multi_game_run_verifies_game_by_game(tmp_path):
    path = write_config(tmp_path, "series", games_per_pairing=2, tables="[match]\ngames = 3\n")
    summary = run_tournament(load_config(path))
    report = verify_folder(summary.run_dir)
    assert report.lines == 2 and report.records == 6 and report.replayed == 6
    # the points of one game changed in the line (and the chain redone): the replay disagrees
    objs = lines_of(summary.run_dir)
    game = objs[0]["games"][0]
    loser = next(role for role in game["points"] if role != game["winner"])
    game["points"][loser] += 1
    prev, out = GENESIS, []
    for obj in objs:
        obj.pop("prev")
        out.append(chain_text(obj, prev))
        prev = line_digest(out[-1])
    (summary.run_dir / "results.jsonl").write_text("\n".join(out) + "\n")
    with pytest.raises(VerifyError, match="line 1 .*points"):
        verify_folder(summary.run_dir)


def test_verify_bad_folders_are_one_line(tmp_path):
    missing = cli("verify", str(tmp_path / "nope"))
    assert missing.returncode == 2 and len(missing.stderr.splitlines()) == 1 and "no such folder" in missing.stderr
    empty = cli("verify", str(tmp_path))
    assert empty.returncode == 1 and "no results.jsonl" in empty.stderr and len(empty.stderr.splitlines()) == 1
