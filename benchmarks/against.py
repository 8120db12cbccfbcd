"""``--against REV``: run one benchmark on this tree and on a git revision, interleaved.

Every speed benchmark in this folder measures through :func:`run`::

    parser = argparse.ArgumentParser(...)
    against.add_arguments(parser)          # --rounds, --against REV (and the internal --round-json)
    args = parser.parse_args()
    return against.run(args, measure, METRICS, title="...")

``measure(args)`` runs one round and returns ``{metric name: value}``; ``METRICS`` says how to
print each figure and which way is better. How the two sides are measured:

* **this tree** is the source tree the installed ``standoff`` package points to (the editable
  install: ``pip install -e .``), uncommitted changes included; **REV** is checked out with
  ``git worktree add --detach`` into a temporary folder, removed at the end.
* Each round of each side runs in a **fresh interpreter** (``python <this script> ... --round-json``)
  that imports ``standoff`` from its own tree: a throw-away folder holding ``standoff/__init__.py``
  and one symbolic link per entry of that tree's ``[tool.setuptools] package-dir``
  (``standoff/server -> <tree>/server``...), first on ``PYTHONPATH``, so that the processes a
  benchmark starts itself (an SDK bot, tournament workers) import the same tree. Both sides run the
  *same benchmark code* (this script); only the package differs.
* Rounds are **interleaved** (this, REV, REV, this, this, REV...: neither side always goes first)
  and nothing is warmed up for either side beyond what the round itself does. The **median** of
  the rounds is printed for both sides with their ratio, and the per-round figures.
* Figures marked ``same`` (decisions per game, games played) are checks, not speeds: when the two
  trees play different games the comparison is flagged, since the engines then do different work.

Without ``--against`` the rounds run in this process, one after the other, and their medians are
printed. These machines are shared and noisy: compare only figures measured in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

RESULT_PREFIX = "BENCH-ROUND "
_TREE_ENV = "STANDOFF_BENCH_TREE"


@dataclass(frozen=True)
class Metric:
    """How a figure prints: ``name`` (the key ``measure`` returns), a format for its value, and
    ``better``: ``"higher"``, ``"lower"``, or ``"same"`` for a count both trees must agree on."""

    name: str
    fmt: str = "{:,.0f}"
    better: str = "higher"
    unit: str = ""

    def show(self, value: float) -> str:
        return self.fmt.format(value) + (f" {self.unit}" if self.unit else "")


def add_arguments(parser: argparse.ArgumentParser, rounds: int = 5) -> None:
    parser.add_argument("--rounds", type=int, default=rounds,
                        help=f"rounds per tree; medians are reported (default {rounds})")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="also run this benchmark on git revision REV (a temporary worktree), "
                             "interleaved with this tree, and print both medians and their ratio")
    parser.add_argument("--rev-built", action="store_true",
                        help="with --against: give REV this tree's compiled modules (standoff accelerate) "
                             "wherever REV's source of the module is the same as this tree's, so that a "
                             "change outside them is measured with the same engine on both sides")
    parser.add_argument("--round-json", action="store_true", help=argparse.SUPPRESS)


def machine() -> str:
    return (f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()} "
            f"({platform.python_implementation()})")


def this_tree() -> Path:
    """The source tree the imported ``standoff`` package comes from."""
    import standoff.server

    return Path(standoff.server.__file__).resolve().parent.parent


def run(args: argparse.Namespace, measure: Callable[[argparse.Namespace], Mapping[str, float]],
        metrics: Sequence[Metric], title: str = "") -> int:
    """Measure as ``args`` say (see the module's documentation); returns the exit status."""
    if args.round_json:  # one round in a fresh interpreter, for the parent below
        result: dict = dict(measure(args))
        result["_tree"] = str(this_tree())
        print(RESULT_PREFIX + json.dumps(result), flush=True)
        return 0
    if getattr(args, "rev_built", False) and args.against is None:
        raise SystemExit("--rev-built gives REV this tree's compiled modules: use it with --against REV")
    print(machine())
    if title:
        print(title)
    if args.against is None:
        rounds = []
        for r in range(args.rounds):
            rounds.append(dict(measure(args)))
            print(f"round {r + 1}: " + ", ".join(f"{m.name} {m.show(rounds[-1][m.name])}" for m in metrics
                                                 if m.name in rounds[-1]), flush=True)
        _report({"this tree": rounds}, metrics)
        return 0
    return _run_against(args, metrics)


# -- two trees -----------------------------------------------------------------------------------


def _run_against(args: argparse.Namespace, metrics: Sequence[Metric]) -> int:
    here = this_tree()
    rev = args.against
    described = _git(here, "describe", "--always", "--dirty", "--all").strip()
    full = _git(here, "rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    argv = _argv_without_against(sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="standoff-against-") as tmp:
        worktree = Path(tmp) / "tree"
        _git(here, "worktree", "add", "--detach", "--quiet", str(worktree), full)
        try:
            if getattr(args, "rev_built", False):
                copied, differ = _copy_built(here, worktree)
                print(f"--rev-built: {copied} compiled modules of this tree given to REV"
                      + (f"; not given, their source differs in REV: {', '.join(differ)}" if differ else ""))
            shims = {"this": _shim(here, Path(tmp) / "shim-this"), "rev": _shim(worktree, Path(tmp) / "shim-rev")}
            print(f"this tree: {here} ({described}); REV: {rev} = {full[:12]} (worktree {worktree})")
            rounds: dict[str, list[dict[str, float]]] = {"this": [], "rev": []}
            for r in range(args.rounds):
                order = ("this", "rev") if r % 4 in (0, 3) else ("rev", "this")
                for side in order:
                    result = _one_round(shims[side], argv)
                    tree = here if side == "this" else worktree
                    if Path(result.pop("_tree")) != tree.resolve():
                        raise SystemExit(f"a round meant for {tree} imported another tree")
                    rounds[side].append(result)
                print(f"round {r + 1} ({' then '.join(order)}): " + "; ".join(
                    f"{m.name} {m.show(rounds['this'][-1][m.name])} vs {m.show(rounds['rev'][-1][m.name])}"
                    for m in metrics if m.better != "same" and m.name in rounds["this"][-1]
                    and m.name in rounds["rev"][-1]), flush=True)
            _report({"this tree": rounds["this"], f"REV {rev}": rounds["rev"]}, metrics)
        finally:
            # only this run's worktree (no `git worktree prune`: other worktrees are not ours)
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(worktree)],
                           capture_output=True)
    return 0


def _git(tree: Path, *words: str) -> str:
    run = subprocess.run(["git", "-C", str(tree), *words], capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"git {' '.join(words)}: {run.stderr.strip()}")
    return run.stdout


def _argv_without_against(argv: list[str]) -> list[str]:
    out, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word == "--against":
            skip = True
        elif not word.startswith("--against="):
            out.append(word)
    return out


def _copy_built(here: Path, worktree: Path) -> tuple[int, list[str]]:
    """Copy this tree's compiled extension modules (``NAME.cpython-*.so`` beside ``NAME.py``) into
    the worktree where its ``NAME.py`` is byte-identical: the same compiled code. Returns how many
    were copied and the modules left out because their source differs."""
    copied, differ = 0, []
    for built in sorted(here.rglob("*.so")):
        relative = built.relative_to(here)
        if relative.parts[0].startswith(".") or "build" in relative.parts:
            continue
        source = built.with_name(built.name.split(".", 1)[0] + ".py")
        if not source.exists():
            continue
        # The module's sources: NAME.py and, for Cython, its NAME.pxd.
        if all(_read(here / part) == _read(worktree / part)
               for part in (source.relative_to(here), source.with_suffix(".pxd").relative_to(here))):
            shutil.copy2(built, worktree / relative)
            copied += 1
        else:
            differ.append(str(source.relative_to(here)))
    for manifest in here.rglob(".accelerated.json"):  # what vouches for them (server/accelerate.py)
        if not manifest.relative_to(here).parts[0].startswith("."):
            shutil.copy2(manifest, worktree / manifest.relative_to(here))
    return copied, differ


def _read(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


def _shim(tree: Path, folder: Path) -> Path:
    """A folder to put first on ``PYTHONPATH`` so that ``import standoff`` loads ``tree``: the
    tree's ``package-dir`` mapping (pyproject.toml) as symbolic links under ``standoff/``."""
    config = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))
    mapping = config.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    package = folder / "standoff"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name, source in sorted(mapping.items()):
        parts = name.split(".")
        if parts[0] != "standoff" or len(parts) < 2:
            continue
        link = folder.joinpath(*parts)
        link.parent.mkdir(parents=True, exist_ok=True)
        if not (link.parent / "__init__.py").exists():
            (link.parent / "__init__.py").write_text("")
        link.symlink_to((tree / source).resolve(), target_is_directory=True)
    return folder


def _one_round(shim: Path, argv: list[str]) -> dict[str, float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim), env.get("PYTHONPATH")]))
    env[_TREE_ENV] = str(shim)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # leave no __pycache__ in the worktree or this tree
    script = Path(sys.argv[0]).resolve()
    run = subprocess.run([sys.executable, str(script), *argv, "--round-json"], env=env,
                         capture_output=True, text=True)
    lines = [line for line in run.stdout.splitlines() if line.startswith(RESULT_PREFIX)]
    if run.returncode or not lines:
        sys.stderr.write(run.stdout[-3000:] + run.stderr[-3000:])
        raise SystemExit(f"a round failed with the package from {shim} (exit {run.returncode})")
    return json.loads(lines[-1][len(RESULT_PREFIX):])


def _report(sides: dict[str, list[dict[str, float]]], metrics: Sequence[Metric]) -> None:
    names = list(sides)
    width = max(len(m.name) for m in metrics)
    header = f"{'median of ' + str(len(sides[names[0]])) + ' rounds':<{width}}  " + "  ".join(f"{n:>18}" for n in names)
    if len(names) == 2:
        header += "  ratio (this / REV)"
    print(header)
    flagged = []
    for m in metrics:
        values = [[r[m.name] for r in sides[n] if m.name in r] for n in names]
        if not any(values):
            continue
        # A figure only one tree measures (an older tree's benchmark lacks it) is shown alone.
        medians = [statistics.median(v) if v else None for v in values]
        line = f"{m.name:<{width}}  " + "  ".join(f"{m.show(v) if v is not None else '-':>18}" for v in medians)
        if len(names) == 2 and None not in medians:
            if m.better == "same":
                same = values[0] == values[1]
                line += "  same" if same else "  DIFFERENT"
                if not same:
                    flagged.append(m.name)
            elif medians[1]:
                ratio = medians[0] / medians[1]
                line += f"  {ratio:.2f}x ({m.better} is better)"
        print(line)
    if flagged:
        print(f"warning: the trees differ in {', '.join(flagged)}: they did not do the same work")
