"""A run folder moved or copied elsewhere, with its config or alone, resumes and reads: nothing in
it names its own place (records are named relative to ``records/``; where the run folder is,
``output_dir``, is no part of the configuration a resume compares)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from standoff.server.ledger import record_digest
from standoff.tournaments.config import load_config
from standoff.tournaments.run_index import remove as remove_index
from standoff.tournaments.runner import run_tournament


def write_config(folder: Path, output_dir: str, *, name: str = "m", **extra: object) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', 'entrants = ["greedy", "random"]',
             "games_per_pairing = 4", "master_seed = 11", f"output_dir = {json.dumps(output_dir)}"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def outputs(run: Path) -> dict[str, object]:
    """What a run's outcome is: its result files' bytes and every record's digest (a record's
    timings vary from run to run; its digest leaves them out)."""
    found: dict[str, object] = {name: (run / name).read_bytes() for name in ("results.jsonl", "elo.jsonl", "ratings.json")}
    found["records"] = {path.name: record_digest(path) for path in sorted((run / "records").glob("*.jsonl"))}
    return found


def interrupted(config: Path, keep: int) -> Path:
    """Play ``config`` through, then cut its results to the first ``keep`` lines: what a run
    killed there leaves (a canonical prefix; records of matches after it may be there too). A
    kill leaves the run's index behind the results, never ahead: it goes too (a run folder from
    before the index, which the resume indexes)."""
    summary = run_tournament(load_config(config))
    lines = (summary.run_dir / "results.jsonl").read_text().splitlines(keepends=True)
    (summary.run_dir / "results.jsonl").write_text("".join(lines[:keep]))
    remove_index(summary.run_dir)
    return summary.run_dir


def standoff(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                         cwd=cwd, timeout=300, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr
    return run


def test_a_run_moved_with_its_config_resumes_to_the_unmoved_runs_files(tmp_path):
    unmoved = run_tournament(load_config(write_config(tmp_path / "unmoved", str(tmp_path / "unmoved" / "runs"))))
    old = interrupted(write_config(tmp_path / "a", str(tmp_path / "a" / "runs")), keep=3)
    # Both moved: the config now names where the runs are (an absolute output_dir, so edited).
    shutil.move(tmp_path / "a", tmp_path / "b")
    config = write_config(tmp_path / "b", str(tmp_path / "b" / "runs"))
    resumed = run_tournament(load_config(config))
    assert resumed.complete and resumed.run_dir == tmp_path / "b" / "runs" / "m" and not old.exists()
    assert outputs(resumed.run_dir) == outputs(unmoved.run_dir)


def test_a_run_folder_moved_alone_or_copied_resumes(tmp_path):
    unmoved = run_tournament(load_config(write_config(tmp_path / "unmoved", str(tmp_path / "unmoved" / "runs"))))
    config = write_config(tmp_path / "configs", str(tmp_path / "disk1"))
    run = interrupted(config, keep=2)
    # A copy elsewhere, the config (left where it was) pointed at it: the copy resumes...
    shutil.copytree(run, tmp_path / "disk2" / "m")
    copied = run_tournament(load_config(write_config(tmp_path / "configs", str(tmp_path / "disk2"))))
    assert copied.complete and outputs(copied.run_dir) == outputs(unmoved.run_dir)
    # ...and so does the original, untouched by its copy's resume.
    assert len((run / "results.jsonl").read_text().splitlines()) == 2
    original = run_tournament(load_config(write_config(tmp_path / "configs", str(tmp_path / "disk1"))))
    assert outputs(original.run_dir) == outputs(unmoved.run_dir)


def test_a_folder_of_an_absolute_output_dir_resumes_from_a_relative_one_and_reads_where_it_is(tmp_path):
    # Written with an absolute output_dir (stored so in its config.json), then the run and its
    # config moved together and the config given the usual relative output_dir ("runs", from
    # the folder the command is run in).
    unmoved = run_tournament(load_config(write_config(tmp_path / "unmoved", str(tmp_path / "unmoved" / "runs"))))
    interrupted(write_config(tmp_path / "a", str(tmp_path / "a" / "runs")), keep=1)
    assert json.loads((tmp_path / "a" / "runs" / "m" / "config.json").read_text())["output_dir"].startswith("/")
    shutil.move(tmp_path / "a", tmp_path / "b")
    here = tmp_path / "b"
    write_config(here, "runs")
    standoff("tournament", "m.toml", cwd=here)
    assert outputs(here / "runs" / "m") == outputs(unmoved.run_dir)
    # The commands that read a run folder read it where it now is.
    assert "4 lines, chain intact; 4 records, digests match, 4 replayed" in standoff("verify", "runs/m", cwd=here).stdout
    assert "greedy" in standoff("ratings", "runs/m", cwd=here).stdout
    standoff("report", "runs/m", cwd=here)
    assert (here / "runs" / "m" / "report" / "index.html").is_file()
