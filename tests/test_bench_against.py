"""benchmarks/against.py, the ``--against REV`` machinery of the speed benchmarks: the import shim
loads the tree it was made for, ``--against`` is taken out of the rounds' arguments, and the
report flags trees that did different work. No timing is asserted."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import against  # noqa: E402


def test_the_shim_imports_the_tree_it_was_made_for(tmp_path):
    shim = against._shim(ROOT, tmp_path / "shim")
    assert (shim / "standoff" / "server").is_symlink()
    assert (shim / "standoff" / "v1").resolve() == (ROOT / "proto" / "standoff" / "v1").resolve()
    env = dict(os.environ, PYTHONPATH=str(shim), PYTHONDONTWRITEBYTECODE="1")
    code = ("import standoff.server.games.schotten_totten.game as g, standoff.v1.referee_pb2;"
            "print(g.__file__)")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    loaded = Path(run.stdout.strip())
    assert str(loaded).startswith(str(shim))  # through the shim...
    # ...to the tree (game.py, or its compiled module beside it after `standoff accelerate`)
    assert loaded.resolve().parent == (ROOT / "server" / "games" / "schotten_totten").resolve()
    assert loaded.name.split(".")[0] == "game"


def test_against_is_not_passed_to_the_rounds():
    argv = ["--games", "10", "--against", "HEAD~1", "--rounds", "3", "--against=main", "--profile"]
    assert against._argv_without_against(argv) == ["--games", "10", "--rounds", "3", "--profile"]


def test_the_arguments_every_benchmark_shares():
    parser = argparse.ArgumentParser()
    against.add_arguments(parser, rounds=4)
    args = parser.parse_args([])
    assert args.rounds == 4 and args.against is None and not args.round_json
    assert parser.parse_args(["--against", "HEAD"]).against == "HEAD"


def test_the_report_gives_medians_ratios_and_flags_different_work(capsys):
    metrics = (against.Metric("games/s"), against.Metric("p50", "{:.1f}", "lower", "ms"),
               against.Metric("decisions/game", "{:.1f}", "same"))
    this = [{"games/s": 10.0, "p50": 2.0, "decisions/game": 5.0}, {"games/s": 30.0, "p50": 4.0, "decisions/game": 5.0},
            {"games/s": 20.0, "p50": 3.0, "decisions/game": 5.0}]
    rev = [{"games/s": 10.0, "p50": 6.0, "decisions/game": 6.0}] * 3
    against._report({"this tree": this, "REV x": rev}, metrics)
    out = capsys.readouterr().out
    assert "2.00x (higher is better)" in out  # median 20 over 10
    assert "0.50x (lower is better)" in out  # median 3 over 6
    assert "DIFFERENT" in out and "did not do the same work" in out


def test_a_figure_only_one_tree_measures_is_shown_alone_without_a_ratio(capsys):
    # An older tree's benchmark may lack a newer figure: shown for this tree, '-' for the other.
    metrics = (against.Metric("games/s"), against.Metric("paced p50", "{:.1f}", "lower", "ms"))
    this = [{"games/s": 20.0, "paced p50": 2.0}] * 3
    rev = [{"games/s": 10.0}] * 3
    against._report({"this tree": this, "REV x": rev}, metrics)
    lines = {line.split("  ")[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "2.00x" in lines["games/s"]
    paced = lines["paced p50"]
    assert "2.0 ms" in paced and paced.split()[-1] == "-" and "x" not in paced.split("ms")[-1]


def test_rev_built_gives_rev_only_the_compiled_modules_whose_sources_it_shares(tmp_path):
    # --rev-built: the same compiled engine on both sides when only other code differs.
    here, rev = tmp_path / "here", tmp_path / "rev"
    for tree in (here, rev):
        (tree / "server" / "core").mkdir(parents=True)
    so = ".cpython-311-x86_64-linux-gnu.so"
    for name, ours, theirs in [("same", "x = 1\n", "x = 1\n"), ("edited", "x = 1\n", "x = 2\n"),
                               ("pxd", "x = 1\n", "x = 1\n")]:
        (here / "server" / "core" / f"{name}.py").write_text(ours)
        (rev / "server" / "core" / f"{name}.py").write_text(theirs)
        (here / "server" / "core" / f"{name}{so}").write_bytes(b"built " + name.encode())
    (here / "server" / "core" / "pxd.pxd").write_text("cdef int x\n")  # REV has no .pxd: differs
    (here / "server" / ".accelerated.json").write_text("{}\n")
    copied, differ = against._copy_built(here, rev)
    assert copied == 1 and sorted(differ) == ["server/core/edited.py", "server/core/pxd.py"]
    assert (rev / "server" / "core" / f"same{so}").read_bytes() == b"built same"
    assert not (rev / "server" / "core" / f"edited{so}").exists()
    assert not (rev / "server" / "core" / f"pxd{so}").exists()
    assert (rev / "server" / ".accelerated.json").exists()


def test_rev_built_without_against_is_one_line():
    args = argparse.Namespace(round_json=False, rev_built=True, against=None, rounds=1)
    with pytest.raises(SystemExit, match="use it with --against REV"):
        against.run(args, lambda a: {}, [])
