"""``standoff accelerate``: the optional compiled engine (server/accelerate.py).

Both paths are tested: the rest of the suite runs the pure-Python engine (the default install);
here a copy of the ``server`` package is compiled in a temporary folder (once per test run, shared
by pytest-xdist's workers), made importable as ``standoff`` through a ``PYTHONPATH`` shim (as
benchmarks/against.py does), and checked in subprocesses: the modules are the compiled ones, every
engine test of both games passes on them, the behaviour digests equal the pinned ones, and seeded
match records are byte-identical to the pure engine's. (That the ``.pxd`` files agree with their
``.py`` is checked without compiling, in the pure run: tests/test_pxd_declarations.py.) The command's
mistakes (no Cython, no compiler, a folder it cannot write) and the stale-module check are
tested too, and so is the import guard that refuses a stale module wherever the engine is
imported (the SDK, the RL bridges, a Ray node, a plain ``import``), with extension files nobody
built (no compiler needed) and with a real build. Nothing is ever compiled inside the source tree.
"""

from __future__ import annotations

import fcntl
import importlib.machinery
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import standoff.server
from standoff.server import accelerate, cli

SERVER = Path(standoff.server.__file__).resolve().parent
REPO = SERVER.parent
TESTS = Path(__file__).resolve().parent


def _compiler_available() -> bool:
    try:
        accelerate._compiler()
    except accelerate.AccelerateError:
        return False
    return True


_can_build = pytest.mark.skipif(
    importlib.util.find_spec("Cython") is None or not _compiler_available(),
    reason="the accelerator needs Cython (the dev extra installs it) and a C compiler",
)


def needs_build(test):
    """A test of the compiled engine: marked ``compiled`` (``-m "not compiled"`` leaves them out),
    skipped without Cython or a C compiler."""
    return pytest.mark.compiled(_can_build(test))


def _copy_server(dest: Path) -> Path:
    """A copy of the ``server`` package without bytecode or compiled modules."""
    return Path(shutil.copytree(SERVER, dest, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", accelerate.MANIFEST)))


def _shim(folder: Path, server: Path) -> Path:
    """``folder`` importable as the ``standoff`` package with ``server`` as its server: the other
    top-level packages are this tree's (they only import the server through ``standoff``)."""
    package = folder / "standoff"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server").symlink_to(server, target_is_directory=True)
    for name, source in (("sdk", "sdk"), ("bots", "bots"), ("tournaments", "tournaments"),
                         ("v1", "proto/standoff/v1")):
        (package / name).symlink_to(REPO / source, target_is_directory=True)
    return folder


def _run(shim: Path | None, *argv: str, code: str | None = None, timeout: float = 900,
         extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(extra_env or {}))
    env.pop("STANDOFF_DEBUG", None)
    if shim is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim), str(TESTS), env.get("PYTHONPATH")]))
    else:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-c", code, *argv] if code else [sys.executable, "-m", "standoff.tournaments.cli", *argv]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout, cwd=REPO)


def _build_once(folder: Path) -> Path:
    """A shim in ``folder`` over a compiled copy of this tree's ``server``, built by the first
    process that asks (the others wait on a lock, then use it): one build per test run."""
    shim = folder / "shim"
    with open(folder / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "built").exists():
            shutil.rmtree(folder / "shim", ignore_errors=True)
            shutil.rmtree(folder / "server", ignore_errors=True)
            _shim(shim, _copy_server(folder / "server"))
            # Unoptimised C (CFLAGS come after Python's own -O3, so -O0 wins) compiles several
            # times faster; what these tests check, that the compiled engine does what the source
            # says, does not depend on how hard gcc optimised it.
            run = _run(shim, "accelerate", extra_env={"CFLAGS": (os.environ.get("CFLAGS", "") + " -O0").strip()})
            assert run.returncode == 0, run.stderr[-3000:]
            assert "compiled" in run.stdout
            (folder / "built").touch()
    return shim


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> Path:
    """A shim folder whose ``standoff.server`` is a compiled copy of this tree's. The build takes
    a few CPU-minutes: it is made once per run, shared by pytest-xdist's workers (their temporary
    folders share this run's parent) and by every test that needs it."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "accelerated"
    folder.mkdir(exist_ok=True)
    return _build_once(folder)


# -- the compiled engine behaves exactly as the pure one -----------------------------------------

_WHICH = """
import importlib, json
from standoff.server import accelerate
print(json.dumps({m: importlib.import_module("standoff.server." + m).__file__ for m in accelerate.MODULES}))
"""


@needs_build
def test_the_engine_modules_are_the_compiled_ones(compiled):
    run = _run(compiled, code=_WHICH)
    assert run.returncode == 0, run.stderr
    files = json.loads(run.stdout)
    assert set(files) == set(accelerate.MODULES)
    for module, path in files.items():
        assert path.endswith(".so") and path.startswith(str(compiled)), (module, path)
        assert Path(path).resolve().parent == (compiled / "standoff" / "server").resolve().joinpath(
            *module.split(".")[:-1])
    status = _run(compiled, "accelerate", "--status")
    assert status.returncode == 0, status.stderr
    lines = status.stdout.splitlines()
    assert len(lines) == len(accelerate.MODULES)
    assert all(line.startswith("compiled ") for line in lines), status.stdout
    # The C files and compiler temporaries stayed out of the package.
    leftovers = [p for p in (compiled / "standoff" / "server").resolve().rglob("*")
                 if p.suffix in (".c", ".o", ".h", ".partial") or p.name == "build"]
    assert leftovers == []


_DIGESTS = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("digest", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(dict(module.digests(5))))
"""


@needs_build
def test_behaviour_digests_equal_the_pinned_ones(compiled):
    from schotten_totten.test_behaviour_digest import EXPECTED

    run = _run(compiled, str(TESTS / "schotten_totten" / "behaviour_digest.py"), code=_DIGESTS)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout) == EXPECTED


#: Every test of the two games' engines: rules, events (Twilight Struggle's event tests
#: included), views, positions, golden playthroughs, oracles, the SDK's forward model.
ENGINE_TESTS = ("tests/schotten_totten", "tests/twilight_struggle", "tests/test_golden.py",
                "tests/test_positions.py", "tests/test_position_files.py", "tests/test_oracles.py",
                "tests/bots/test_simulate.py", "tests/bots/test_simulate_ts.py")

CARD_AUDIT = "tests/twilight_struggle/test_card_audit.py"
LONG_RUN = "tests/twilight_struggle/test_long_run.py"
LONG_RUNS = ("test_ten_thousand_random_full_games", "test_a_thousand_games_that_reach_the_late_war")

_PYTEST_COMPILED = """
import importlib, sys
import pytest
from standoff.server import accelerate

pure = [m for m in accelerate.MODULES if not importlib.import_module("standoff.server." + m).__file__.endswith(".so")]
if pure:
    sys.exit(f"not compiled: {pure}")
sys.exit(pytest.main(sys.argv[1:]))
"""


@needs_build
@pytest.mark.timeout(1800)  # the build (when this test comes first) and some 1,500 tests
def test_every_engine_test_of_both_games_passes_on_the_compiled_engine(compiled):
    """The suite's own checks of both engines (:data:`ENGINE_TESTS`), run once more with every
    module of ``accelerate.MODULES`` compiled (checked before they start): a change the compiled
    build runs differently fails here, whatever test sees it. The long runs (STANDOFF_LONG) stay out."""
    for path in ENGINE_TESTS:
        assert (REPO / path).exists(), path
    run = _run(compiled, "-q", "-p", "no:cacheprovider", *ENGINE_TESTS,
               # The card audit's table check re-runs every event test in a subprocess (which run
               # here anyway) to check docs/cards.md: a check of the sources, made by the pure run.
               "--deselect", f"{CARD_AUDIT}::test_every_card_has_an_event_and_a_proving_test_and_the_table_is_current",
               # The long runs (STANDOFF_LONG=1): named, since the marker ``slow`` now also says
               # "not in the fast tier" (tests/tiers.py), and those tests must run compiled too.
               *(arg for name in LONG_RUNS for arg in ("--deselect", f"{LONG_RUN}::{name}")),
               code=_PYTEST_COMPILED, timeout=1800)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary and "xfail" not in summary, summary
    assert "3 deselected" in summary, summary  # the two long runs and the card table, nothing else


_RECORDS = """
import sys
from standoff.server.games import get_game
from standoff.server.local import bot_seed, play_match
from standoff.server.plugins import load_registry
from standoff.server.records import RecordWriter

out = sys.argv[1]
registry = load_registry()
ST, TS = "schotten-totten", "twilight-struggle"
matches = [(ST, "battle_line", {}, ("probability", "greedy"), 11), (ST, "battle_line", {}, ("random", "random"), 12),
           (ST, "classic", {}, ("greedy", "random"), 13), (ST, "battle_line", {"claim_timing": "end_of_turn"},
           ("greedy", "probability"), 14), (ST, "three_player", {}, ("random", "greedy", "random"), 15),
           (TS, None, {"end_turn": "4"}, ("ts-heuristic", "random"), 5), (TS, None, {}, ("random", "ts-heuristic"), 6),
           (TS, None, {"end_turn": "3"}, ("ts-heuristic", "ts-heuristic"), 7)]
for i, (name, ruleset, options, names, seed) in enumerate(matches):
    game = get_game(name)
    rules = game.rules(ruleset, options)
    bots = {role: registry.make_bot(name, bot_seed(seed, role), game.name) for role, name in zip(rules.roles, names)}
    writer = RecordWriter(f"{out}/{i}.jsonl")
    try:
        play_match(game, rules, bots, seed, bot_names=dict(zip(rules.roles, names)), on_line=writer.write,
                   timing=False)
    finally:
        writer.close()
"""


@needs_build
def test_seeded_match_records_are_byte_identical(compiled, tmp_path):
    pure, fast = tmp_path / "pure", tmp_path / "compiled"
    pure.mkdir()
    fast.mkdir()
    for shim, out in ((None, pure), (compiled, fast)):
        run = _run(shim, str(out), code=_RECORDS)
        assert run.returncode == 0, run.stderr[-3000:]
    names = sorted(p.name for p in pure.iterdir())
    assert len(names) == 8
    assert names == sorted(p.name for p in fast.iterdir())
    for name in names:
        assert (fast / name).read_bytes() == (pure / name).read_bytes(), name


_ROLLOUTS = """
import json, random
from standoff.sdk.simulate import Belief, rollout
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game

out = []
for name in ("schotten-totten", "twilight-struggle"):
    game = get_game(name)
    rules = game.rules()
    for seed in range(3):
        state, rng, seen = game.new_state(rules), random.Random(seed), 0
        at = None  # the last player's decision before the target (a random game may end sooner)
        while (d := game.decision(state)) is not None and seen < 30 + 10 * seed:
            if d.role != CHANCE:
                seen, at = seen + 1, (state.copy(), d.role)
            game.apply(state, d.options[rng.randrange(len(d.options))])
        belief = Belief(game, game.view(*at), options=dict(rules.options))
        for k in range(4):
            sample = belief.sample(rng)
            hidden = repr([sample.hands, getattr(sample, "decks", None) or sample.deck])
            outcome = rollout(game, sample, rng=rng)
            out.append([name, seed, k, hidden, sample.number, repr(outcome), rng.random()])
print(json.dumps(out))
"""


@needs_build
def test_the_forward_model_samples_and_rolls_out_alike(compiled):
    """The SDK's belief samples and uniform rollouts (Battle Line's on the compiled playout.py,
    the re-deals' inline shuffles) draw and play exactly as the pure engine's."""
    runs = [_run(shim, code=_ROLLOUTS) for shim in (None, compiled)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-3000:]
    pure, fast = (json.loads(run.stdout) for run in runs)
    assert len(pure) == 24 and fast == pure


# -- stale modules: the command line refuses to run them -----------------------------------------


@pytest.fixture
def compiled_copy(compiled, tmp_path) -> tuple[Path, Path]:
    """A private copy of the compiled tree (its sources may be edited): (shim, server)."""
    server = Path(shutil.copytree((compiled / "standoff" / "server").resolve(), tmp_path / "server",
                                  symlinks=True))
    return _shim(tmp_path / "shim", server), server


def _play(shim: Path) -> subprocess.CompletedProcess:
    return _run(shim, "play", "schotten-totten", "--bot", "random", "--bot", "random", "--seed", "3")


@needs_build
def test_a_compiled_module_older_than_its_source_stops_every_command(compiled_copy):
    shim, server = compiled_copy
    assert _play(shim).returncode == 0
    source = server / "games" / "schotten_totten" / "tactics.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    for argv in (("play", "schotten-totten", "--bot", "random", "--bot", "random"),
                 ("serve", "--address", "127.0.0.1:0"), ("tournament", "nothing.toml"),
                 ("match", "--game", "schotten-totten")):
        run = _run(shim, *argv, timeout=120)  # a server that started would never return
        assert run.returncode == 2, (argv, run.stdout, run.stderr)
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
        assert "games.schotten_totten.tactics does not match its source" in run.stderr
        assert "`standoff accelerate` again" in run.stderr and "--remove" in run.stderr
    status = _run(shim, "accelerate", "--status")  # the accelerator itself still runs
    assert status.returncode == 0
    assert "stale     standoff.server.games.schotten_totten.tactics" in status.stdout
    assert status.stdout.count("compiled ") == len(accelerate.MODULES) - 1
    removed = _run(shim, "accelerate", "--remove")
    assert removed.returncode == 0 and f"removed {len(accelerate.MODULES)}" in removed.stdout
    assert not list(server.rglob("*.so")) and not (server / accelerate.MANIFEST).exists()
    assert _play(shim).returncode == 0
    status = _run(shim, "accelerate", "--status")
    assert all(line.startswith("pure ") for line in status.stdout.splitlines())


@needs_build
def test_an_edited_pxd_or_a_lost_manifest_makes_modules_stale(compiled_copy):
    shim, server = compiled_copy
    pxd = server / "games" / "schotten_totten" / "formations.pxd"
    pxd.write_text(pxd.read_text() + "\n# edited\n")
    assert accelerate.stale(server) == ["games.schotten_totten.formations"]
    (server / accelerate.MANIFEST).unlink()
    assert accelerate.stale(server) == sorted(accelerate.MODULES)
    run = _play(shim)
    assert run.returncode == 2 and f"and {len(accelerate.MODULES) - 1} more do not match" in run.stderr


def test_an_extension_module_nobody_built_counts_as_stale(tmp_path):
    server = _copy_server(tmp_path / "server")
    (server / "core" / f"game{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    assert accelerate.stale(server) == ["core.game"]
    with pytest.raises(accelerate.AccelerateError, match="core.game does not match its source"):
        accelerate.check_fresh(server)


def test_the_test_suite_refuses_a_stale_compiled_engine(tmp_path):
    """pytest would test the old compiled module instead of the edited source: the suite stops
    before collecting anything, with the command line's one line (tests/conftest.py)."""
    server = _copy_server(tmp_path / "server")
    (server / "core" / f"flow{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    shim = _shim(tmp_path / "shim", server)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(shim), os.environ.get("PYTHONPATH")])),
               PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"{TESTS / 'test_accelerate.py'}::test_the_pure_tree_is_fresh"],
                         env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "standoff: error: the compiled engine module standoff.server.core.flow does not match its source" in (
        run.stdout + run.stderr)
    assert "passed" not in run.stdout


def test_the_pure_tree_is_fresh():
    """This checkout, as the suite runs it, has no compiled module (the default install)."""
    assert accelerate.stale() == []
    assert all(state == "pure" for _, state in accelerate.status())


# -- stale modules: refused wherever the engine is imported (server/import_guard.py) --------------


def _fake_stale(tmp_path: Path, *modules: str) -> Path:
    """A shim over a copy of this tree with an extension module nobody built beside each of
    ``modules``' sources (no manifest vouches for it: stale, as after an edit of the source)."""
    server = _copy_server(tmp_path / "server")
    for module in modules:
        py = server.joinpath(*module.split(".")).with_suffix(".py")
        py.with_name(py.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"\x7fELF")
    return _shim(tmp_path / "shim", server)


def _assert_refused(run: subprocess.CompletedProcess, module: str) -> None:
    """The import failed with the guard's one line naming ``module`` and the fix, before the
    code after it ran (it would print ``ran``) and before Python tried to load the extension."""
    assert run.returncode == 1 and "ran" not in run.stdout, (run.stdout, run.stderr)
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("standoff.server.import_guard.StaleEngineError: the compiled engine module "
                           f"standoff.server.{module} does not match its source ("), run.stderr[-2000:]
    assert last.endswith("run `standoff accelerate` again, or `standoff accelerate --remove`")
    assert "ELF" not in run.stderr


def test_a_bare_import_of_a_game_refuses_a_stale_module(tmp_path):
    shim = _fake_stale(tmp_path, "games.schotten_totten.tactics")
    _assert_refused(_run(shim, code="import standoff.server.games.schotten_totten; print('ran')"),
                    "games.schotten_totten.tactics")
    # Modules that do not import the stale one still load: only stale code is refused.
    run = _run(shim, code="import standoff.server.core.game, standoff.server.accelerate; print('ran')")
    assert run.returncode == 0 and run.stdout == "ran\n", run.stderr


def test_the_sdk_refuses_a_stale_engine(tmp_path):
    shim = _fake_stale(tmp_path, "core.game", "games.schotten_totten.playout")
    # The SDK's names load on first use (PEP 562): its Bot needs the engine's contract.
    _assert_refused(_run(shim, code="from standoff.sdk import Bot; print('ran')"), "core.game")
    shim = _fake_stale(tmp_path / "forward-model", "games.schotten_totten.playout")
    run = _run(shim, code="import standoff.sdk; print('sdk')")  # the SDK's core does not load the playout
    assert run.returncode == 0 and run.stdout == "sdk\n", run.stderr
    # The forward model is the game's (its spec's): the SDK reaches it, and the playout, on first use.
    run = _run(shim, code="from standoff.sdk.simulate import rollout; print('sdk')")
    assert run.returncode == 0 and run.stdout == "sdk\n", run.stderr
    _assert_refused(_run(shim, code="from standoff.sdk.simulate import forward_model\n"
                                    "from standoff.server.games import get_game\n"
                                    "forward_model(get_game('schotten-totten')); print('ran')"),
                    "games.schotten_totten.playout")


_GYM = """
from standoff.sdk.rl_envs import StandoffGymEnv
StandoffGymEnv("schotten-totten").reset(seed=1)
print("ran")
"""
_AEC = """
from standoff.sdk.rl_envs import aec_env
aec_env("schotten-totten").reset(seed=1)
print("ran")
"""
_SPEC = """
from standoff.sdk.rl import spec_for
spec_for("schotten-totten")
print("ran")
"""
_OPENSPIEL = """
from standoff.sdk import rl_openspiel
rl_openspiel.load("schotten-totten").new_initial_state()
print("ran")
"""


@pytest.mark.parametrize("bridge", ["gymnasium", "pettingzoo", "spec", "openspiel"])
def test_the_rl_bridges_refuse_a_stale_engine(bridge, tmp_path):
    """The issue's case: ``StandoffGymEnv('schotten-totten').reset()`` with a compiled rules
    module older than its source, and the other bridges into the engine."""
    if bridge == "openspiel":
        pytest.importorskip("pyspiel")
    code = {"gymnasium": _GYM, "pettingzoo": _AEC, "spec": _SPEC, "openspiel": _OPENSPIEL}[bridge]
    shim = _fake_stale(tmp_path, "games.schotten_totten.tactics")
    _assert_refused(_run(shim, code=code), "games.schotten_totten.tactics")


@needs_build
def test_a_compiled_module_older_than_its_source_is_refused_by_the_rl_bridges_too(compiled_copy):
    """The issue's case with a real build: the command line refused it, but a Gymnasium
    environment ran the old compiled rules silently."""
    shim, server = compiled_copy
    run = _run(shim, code=_GYM)  # fresh: the compiled modules pass the guard
    assert run.returncode == 0 and run.stdout == "ran\n", run.stderr[-2000:]
    source = server / "games" / "schotten_totten" / "tactics.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    bridges = (_GYM, _OPENSPIEL) if importlib.util.find_spec("pyspiel") else (_GYM,)
    for code in (*bridges, "import standoff.server.games.schotten_totten; print('ran')"):
        _assert_refused(_run(shim, code=code), "games.schotten_totten.tactics")


_NODE_CHECK = """
import json
from standoff.tournaments import ray_executor
ray_executor._this_node = lambda: "10.0.0.1 (aaaaaaaa)"  # no Ray runtime to ask in this process
answer = ray_executor.check_node("", [], ["random"])
print(json.dumps([answer["stale"], ray_executor.node_faults([answer], "standoff 0.1.0")]))
"""


@pytest.mark.parametrize("module", ["core.game", "games.schotten_totten.tactics"])
def test_a_ray_nodes_start_up_check_names_its_stale_modules(module, tmp_path):
    """The node check names every stale module (the tournament stops with one line), instead of
    failing on the first one the import guard refuses: the executor's module does not import the
    engine, and the check looks before it loads the bots."""
    shim = _fake_stale(tmp_path, module, "games.twilight_struggle.ops")
    run = _run(shim, code=_NODE_CHECK)
    assert run.returncode == 0, run.stderr[-2000:]
    stale, faults = json.loads(run.stdout)
    assert stale == sorted([module, "games.twilight_struggle.ops"])
    assert faults == [f"node 10.0.0.1 (aaaaaaaa) has a stale compiled engine ({', '.join(stale)}: "
                      "run `standoff accelerate` again there, or `standoff accelerate --remove`)"]


def test_the_command_line_refuses_a_stale_engine_module_in_one_line_and_can_remove_it(tmp_path):
    """``core.game`` is imported by nearly everything; the command line still says one line
    (not the import's traceback), and ``standoff accelerate`` still runs to repair it."""
    shim = _fake_stale(tmp_path, "core.game")
    server = (shim / "standoff" / "server").resolve()
    for argv in (("play", "schotten-totten", "--bot", "random", "--bot", "random"), ("bots",),
                 ("replay", "nothing.jsonl")):
        run = _run(shim, *argv, timeout=120)
        assert run.returncode == 2, (argv, run.stdout, run.stderr)
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, (argv, run.stderr)
        assert run.stderr.startswith("standoff: error: the compiled engine module standoff.server.core.game "
                                     "does not match its source (")
    status = _run(shim, "accelerate", "--status")
    assert status.returncode == 0 and "stale     standoff.server.core.game\n" in status.stdout, status.stderr
    removed = _run(shim, "accelerate", "--remove")
    assert removed.returncode == 0 and "removed 1 compiled modules" in removed.stdout, removed.stderr
    assert not list(server.rglob("*.so"))
    assert _play(shim).returncode == 0


_NO_HASHING = """
import sys
from standoff.server import import_guard

def refuse(*args):
    raise AssertionError("hashed a source with no compiled module beside it")

import_guard.source_hash = import_guard.read_manifest = refuse
assert sys.meta_path[0] is import_guard._Guard
import standoff.server.games, standoff.sdk.simulate, standoff.server.local
print("ran")
"""


def test_a_pure_engine_is_imported_through_the_guard_without_reading_or_hashing(tmp_path):
    shim = _shim(tmp_path / "shim", _copy_server(tmp_path / "server"))
    run = _run(shim, code=_NO_HASHING)
    assert run.returncode == 0 and run.stdout == "ran\n", run.stderr[-2000:]


# -- the command's mistakes: one line each, nothing written ---------------------------------------


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """``standoff accelerate`` pointed at a copy of the server package (never this tree)."""
    server = _copy_server(tmp_path / "server")
    monkeypatch.setattr(accelerate, "package_dir", lambda: server)
    return server


def _accelerate(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["accelerate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _nothing_built(server: Path) -> bool:
    return not list(server.rglob("*.so")) and not (server / accelerate.MANIFEST).exists()


def test_without_cython_it_names_the_extra(scratch, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "Cython", None)
    monkeypatch.setitem(sys.modules, "Cython.Build", None)
    code, out, err = _accelerate(capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "Cython is not installed" in err and "pip install -e '.[accel]'" in err
    assert _nothing_built(scratch)


@needs_build
def test_without_a_c_compiler_it_says_so(scratch, monkeypatch, capsys):
    monkeypatch.setenv("CC", "no-such-c-compiler-here")
    code, out, err = _accelerate(capsys)
    assert code == 2 and err.count("\n") == 1
    assert "no C compiler found" in err and "no-such-c-compiler-here" in err
    assert _nothing_built(scratch)


@needs_build
def test_an_unwritable_package_folder_is_named(scratch, monkeypatch, capsys):
    folder = scratch / "games" / "schotten_totten"
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.geteuid() == 0:  # root writes anywhere: answer as the OS answers any other user
            real = os.access
            monkeypatch.setattr(accelerate.os, "access",
                                lambda path, mode: False if Path(path) == folder else real(path, mode))
        code, out, err = _accelerate(capsys)
    finally:
        folder.chmod(stat.S_IRWXU)
    assert code == 2 and err.count("\n") == 1
    assert f"{folder}: not writable" in err
    assert _nothing_built(scratch)


def test_status_and_remove_on_a_pure_tree(scratch, capsys):
    code, out, err = _accelerate(capsys, "--status")
    assert code == 0 and err == ""
    assert out.splitlines() == [f"pure      standoff.server.{m}" for m in sorted(accelerate.MODULES)]
    code, out, err = _accelerate(capsys, "--remove")
    assert code == 0 and "no compiled modules" in out
    with pytest.raises(SystemExit) as exit:  # argparse: not both
        _accelerate(capsys, "--status", "--remove")
    assert exit.value.code == 2


def test_the_engine_modules_exist_and_the_engine_does_no_accelerator_check():
    """Every listed module is a real source file; the freshness checks live outside the engine
    packages, which do no I/O: in the command line and in the import guard, which the package
    ``standoff.server`` installs before any engine module is imported."""
    for module in accelerate.MODULES:
        assert accelerate.sources(SERVER, module)[0].is_file()
    for folder in (SERVER / "core", SERVER / "games"):
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "accelerate" not in text and "import_guard" not in text, path
