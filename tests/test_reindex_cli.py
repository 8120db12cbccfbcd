"""``standoff reindex FOLDER`` (issue 43): an index rebuilt from the files alone, for a run folder
and for a server's data folder; an unusable index moved aside, never deleted; the durable files
never written; every mistake one line and a non-zero exit."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from standoff.tournaments.cli import main

from kits.data_folder import write_finished_matches
from kits.run_checks import assert_agree
from kits.run_history import NAMES, history, write_run


def _files(folder: Path) -> dict[str, bytes]:
    ledger = [p for p in (folder / "results.jsonl", folder / "matches.jsonl") if p.exists()]
    return {p.name: p.read_bytes() for p in [*ledger, *sorted((folder / "records").iterdir())]}


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("standoff: error:"), err
    assert "Traceback" not in err
    return lines[0]


def test_a_run_folder_is_indexed_from_its_files(tmp_path, capsys):
    results = history(7, rounds=6)
    run = write_run(tmp_path / "run", results, config={"entrants": NAMES[:4]})
    before = _files(run)
    assert main(["reindex", str(run)]) == 0
    out = capsys.readouterr().out
    assert f"indexed {len(results)} results" in out
    assert (run / "index.sqlite").exists()
    assert assert_agree(run) == len(results)
    assert _files(run) == before


def test_an_unusable_run_index_is_moved_aside_and_rebuilt(tmp_path, capsys):
    results = history(8, rounds=4)
    run = write_run(tmp_path / "run", results, config={"entrants": NAMES[:4]})
    garbage = b"not an index at all " * 200
    (run / "index.sqlite").write_bytes(garbage)
    before = _files(run)
    assert main(["reindex", str(run)]) == 0
    out = capsys.readouterr().out
    assert "moved to" in out and f"indexed {len(results)} results" in out
    assert (run / "index.sqlite.bad").read_bytes() == garbage  # kept, not deleted
    assert_agree(run)
    assert _files(run) == before


def test_a_data_folder_is_indexed_from_its_files(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    written = write_finished_matches(data, 40)
    before = _files(data)
    assert main(["reindex", str(data)]) == 0
    assert f"indexed {len(written)} finished matches" in capsys.readouterr().out
    conn = sqlite3.connect(f"file:{data / 'index.sqlite'}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT match_id, seats FROM matches WHERE status = 'finished' ORDER BY seq").fetchall()
    finally:
        conn.close()
    assert [(m, json.loads(s)) for m, s in rows] == [(w.match_id, w.seats) for w in written]
    assert _files(data) == before
    # a foreign SQLite file in its place: moved aside byte for byte, a new index made
    (data / "index.sqlite").unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{data / 'index.sqlite'}{suffix}").unlink(missing_ok=True)
    foreign = sqlite3.connect(data / "index.sqlite")
    foreign.execute("CREATE TABLE photos (name TEXT)")
    foreign.commit()
    foreign.close()
    theirs = (data / "index.sqlite").read_bytes()
    assert main(["reindex", str(data)]) == 0
    assert "moved to" in capsys.readouterr().out
    assert (data / "index.sqlite.bad").read_bytes() == theirs


def test_an_edited_ledger_is_refused_in_one_line(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    write_finished_matches(data, 5)
    ledger = data / "matches.jsonl"
    lines = ledger.read_text().splitlines(keepends=True)
    edited = json.loads(lines[1])
    edited["reason"] = "edited by hand"
    lines[1] = json.dumps(edited, sort_keys=True) + "\n"
    ledger.write_text("".join(lines))
    before = _files(data)
    assert main(["reindex", str(data)]) == 2
    line = _one_line(capsys)
    assert str(ledger) in line and "line" in line
    assert _files(data) == before


def test_not_a_folder_to_index_is_one_line(tmp_path, capsys):
    assert main(["reindex", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in _one_line(capsys)
    (tmp_path / "empty").mkdir()
    assert main(["reindex", str(tmp_path / "empty")]) == 2
    assert "nothing to index" in _one_line(capsys)
