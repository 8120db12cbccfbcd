"""The match executors: ``executor = "ray"`` on a local Ray cluster (``ray.init(num_cpus=2)``,
one per module) against ``executor = "local"``: identical outputs, a Ray worker killed mid-match,
kill-and-resume, switching executor on resume, remote entrants kept on the referee.

The Ray tests are skipped when the optional extra is not installed (``pip install -e
'.[dev]'`` installs it: ``dev`` includes ``ray``). This module is also a plugin
(``STANDOFF_PLUGINS=test_ray``): it declares the ``exiter`` bot, which kills its own process
mid-match, once, in a match that has a marker file.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from standoff.bots.random_bot import RandomBot
from standoff.server.plugins import BotSpec, hookimpl
from standoff.tournaments.run_index import remove as remove_index

HERE = Path(__file__).resolve().parent
HAVE_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(
    not HAVE_RAY, reason="Ray is not installed: the optional extra, pip install -e '.[ray]' (the dev extra has it)"
)
EXIT_ENV = "STANDOFF_TEST_EXIT_MARKERS"

# The test cluster is private to this machine: Ray binds it to 127.0.0.1 (read when ray is first
# imported; the executor does the same for ray_address = "local").
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


# -- the plugin: a bot that dies mid-match ---------------------------------------------------------


class Exiter(RandomBot):
    """Plays like ``random``; but in a match whose id has a marker file in $STANDOFF_TEST_EXIT_MARKERS,
    the first process to reach its fifth decision claims the marker (renames it ``<id>.exited``)
    and kills itself with ``os._exit(1)``: its worker dies mid-match, once."""

    name = "exiter"

    def start(self, match):
        super().start(match)
        self.match_id = match.match_id
        self.calls = 0

    def choose(self, decision, view):
        self.calls += 1
        folder = os.environ.get(EXIT_ENV)
        if self.calls == 5 and folder:
            marker = Path(folder) / self.match_id
            try:
                os.rename(marker, marker.with_name(f"{marker.name}.exited"))
            except FileNotFoundError:
                pass
            else:
                os._exit(1)
        return super().choose(decision, view)


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(Exiter, trusted=True)]


# -- helpers -----------------------------------------------------------------------------------


@dataclass
class Cluster:
    address: str
    markers: Path
    startup_s: float


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A local Ray cluster for the module; its workers find this module (PYTHONPATH) and the
    exit markers (the environment is inherited from this process when the cluster starts)."""
    if not HAVE_RAY:
        pytest.skip("Ray is not installed")
    import ray

    markers = tmp_path_factory.mktemp("exit-markers")
    saved = {key: os.environ.get(key) for key in ("PYTHONPATH", EXIT_ENV)}
    # HERE: this module (the exiter plugin); HERE.parent: tests/kits/faultyengine.py (an engine bug)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH")]))
    os.environ[EXIT_ENV] = str(markers)
    started = time.perf_counter()
    for attempt in range(2):  # a start-up can time out (30 s, Ray's own limit) on a busy machine
        try:
            context = ray.init(address="local", num_cpus=2, include_dashboard=False)  # never one found
            break
        except Exception:
            ray.shutdown()
            if attempt:
                raise
    try:
        yield Cluster(context.address_info["address"], markers, time.perf_counter() - started)
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def exiter(monkeypatch):
    monkeypatch.setenv("STANDOFF_PLUGINS", "test_ray")
    yield


def write_config(folder: Path, name: str, tables: str = "", **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"']
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    folder.mkdir(parents=True, exist_ok=True)
    if "master_seed" not in extra:
        lines.append("master_seed = 1")  # explicit: these tests compare runs (the default is a secret seed)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n" + tables)
    return path


def load(path: Path):
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import load_config

    return load_config(path, registry=load_registry())


def run(path: Path, **kwargs):
    from standoff.server.plugins import load_registry
    from standoff.tournaments.runner import run_tournament

    return run_tournament(load(path), registry=load_registry(), **kwargs)


def files(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in ("results.jsonl", "elo.jsonl", "ratings.json")}


def records(run_dir: Path) -> dict[str, list[dict]]:
    """Every record file, parsed, without the measured thinking times (the only thing that
    differs between two plays of a match)."""
    out = {}
    for path in sorted((run_dir / "records").glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        for line in lines:
            line.pop("think_ms", None)
        out[path.name] = lines
    return out


def result_ids(run_dir: Path) -> list[str]:
    return [json.loads(line)["match_id"] for line in (run_dir / "results.jsonl").read_text().splitlines()]


# -- config ------------------------------------------------------------------------------------


def test_executor_keys_are_validated_and_documented(monkeypatch):
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import ConfigError, TournamentConfig, parse_config

    registry = load_registry()
    base = {"name": "t", "game": "schotten-totten", "entrants": ["greedy", "random"]}
    config = parse_config(base, source="t.toml", registry=registry)
    assert (config.executor, config.ray_address) == ("local", "auto")
    assert config.to_json()["executor"] == "local" and "ray_address" not in config.to_json()
    bad = {
        "executor = 'spark'": ({"executor": "spark"}, "t.toml: executor: expected one of local, ray"),
        "ray_address without ray": ({"ray_address": "auto"}, 't.toml: ray_address: only used with executor = "ray"'),
        "no port": ({"executor": "ray", "ray_address": "head"}, "t.toml: ray_address: expected \"auto\", \"local\""),
        "port 0": ({"executor": "ray", "ray_address": "ray://head:0"}, "t.toml: ray_address: expected"),
        "not a string": ({"executor": "ray", "ray_address": 6379}, "t.toml: ray_address: expected a string"),
    }
    for case, (extra, message) in bad.items():
        with pytest.raises(ConfigError) as info:
            parse_config({**base, **extra}, source="t.toml", registry=registry)
        assert str(info.value).startswith(message), case
    if HAVE_RAY:
        for address in ("auto", "local", "ray://head.example:10001", "10.0.0.5:6379", "[::1]:6379"):
            config = parse_config({**base, "executor": "ray", "ray_address": address}, source="t", registry=registry)
            assert config.ray_address == address
            assert TournamentConfig.from_json(json.loads(json.dumps(config.to_json())), registry=registry) == config
    # Without the extra, executor = "ray" is a one-line error that says what to install.
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real_find_spec(name, *a))
    with pytest.raises(ConfigError, match=r"t.toml: executor: .*pip install 'standoff\[ray\]'"):
        parse_config({**base, "executor": "ray"}, source="t.toml", registry=registry)
    text = (HERE.parent.parent / "tournaments" / "demo.toml").read_text()
    assert 'executor = "local"' in text and 'ray_address = "auto"' in text


def test_results_are_idempotent_by_match_id():
    from standoff.tournaments.model import Result
    from standoff.tournaments.results_writer import CanonicalOrder

    def result(i: int) -> Result:
        return Result(i, f"m{i}", 1, i, {"p1": "a", "p2": "b"}, True, "a", "p1", {"p1": 1.0, "p2": 0.0}, "x", "")

    order = CanonicalOrder({"m0"})  # m0 was written by an earlier run
    for i in range(4):
        order.expect(f"m{i}")
    assert order.add(result(0)) == []  # already written (resume): ignored
    assert order.add(result(2)) == []  # early: waits for m1
    assert order.add(result(2)) == []  # a duplicate of a waiting result: ignored
    assert [r.match_id for r in order.add(result(1))] == ["m1", "m2"]
    assert order.add(result(1)) == [] and order.add(result(9)) == []  # written already; never expected
    assert [r.match_id for r in order.add(result(3))] == ["m3"]
    assert order.duplicates == 4 and not order.pending and not order.order


def test_scratch_folders_of_dead_workers_are_removed(tmp_path, monkeypatch):
    """A Ray worker killed mid-match leaves its scratch folder behind (in /dev/shm: memory); the
    first task of a later worker process on that node removes it."""
    from standoff.tournaments import ray_executor

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    leftover = tmp_path / "standoff-ray" / dead.stdout.strip() / "match-x"
    leftover.mkdir(parents=True)
    (leftover / "m.jsonl").write_text("{}\n")
    monkeypatch.setattr(ray_executor, "_SCRATCH", str(tmp_path))
    monkeypatch.setattr(ray_executor, "_scratch", None)
    mine = ray_executor._scratch_dir()
    assert mine == tmp_path / "standoff-ray" / str(os.getpid()) and mine.is_dir()
    assert not leftover.parent.exists()


# -- Ray -----------------------------------------------------------------------------------------


@needs_ray
@pytest.mark.parametrize("series", [False, True], ids=["single-games", "multi-game-matches"])
def test_ray_gives_the_same_outputs_as_local(tmp_path, cluster, series):
    """Same tournament, each executor: byte-identical results.jsonl, elo.jsonl, ratings.json, and
    the same records (written by the coordinator from what the tasks returned)."""
    tables = "[match]\ngames = 3\ntarget_score = 12\n" if series else ""
    common = dict(entrants=["greedy", "random"], games_per_pairing=6, concurrency=3)
    local = run(write_config(tmp_path / "local", "same", tables, **common))
    ray_run = run(write_config(tmp_path / "ray", "same", tables, executor="ray", **common))
    assert local.complete and ray_run.complete and len(ray_run.results) == 6
    assert files(ray_run.run_dir) == files(local.run_dir)
    assert records(ray_run.run_dir) == records(local.run_dir)
    assert not list((ray_run.run_dir / "records").glob(".*.tmp"))
    if series:
        assert all("-g" in name for name in records(ray_run.run_dir))


@needs_ray
def test_a_ray_worker_killed_mid_match_is_retried_and_counted_once(tmp_path, cluster, exiter):
    from standoff.server.records import read_record

    common = dict(entrants=["exiter", "random"], games_per_pairing=4)
    path = write_config(tmp_path / "ray", "crash", executor="ray", **common)
    from standoff.tournaments.schedule import schedule

    victim = schedule(load(path))[1].match_id  # the second match
    (cluster.markers / victim).write_text("")
    summary = run(path)
    # The task's first attempt did die mid-match (the marker was claimed by the exiting process).
    assert not (cluster.markers / victim).exists() and (cluster.markers / f"{victim}.exited").exists()
    assert summary.complete
    ids = result_ids(summary.run_dir)
    assert len(ids) == len(set(ids)) == 4 and victim in ids  # one line for it
    record = read_record(summary.run_dir / "records" / f"{victim}.jsonl")
    assert record.footer is not None and record.footer["type"] == "outcome"  # complete
    # ... and the retry played the same match: outputs as a local run's without any crash.
    local = run(write_config(tmp_path / "local", "crash", **common))
    assert files(summary.run_dir) == files(local.run_dir)
    assert records(summary.run_dir) == records(local.run_dir)


@needs_ray
def test_an_engine_error_in_a_ray_task_is_an_error_result_as_in_local_workers(tmp_path, cluster, monkeypatch):
    """tests/kits/faultyengine.py makes some matches raise in the engine: on Ray as in local workers
    they end as `error` (no result, a record that says why) and the other matches are played."""
    monkeypatch.setenv("STANDOFF_PLUGINS", "kits.faultyengine")
    try:
        common = dict(entrants=["greedy", "random"], games_per_pairing=8)
        ray_run = run(write_config(tmp_path / "ray", "bugs", executor="ray", **common))
        local = run(write_config(tmp_path / "local", "bugs", **common))
    finally:
        faulty = sys.modules.pop("kits.faultyengine", None)  # the coordinator imported it: undo its patch
        if faulty is not None:
            faulty.restore()
    assert ray_run.complete and len(ray_run.results) == 8
    failed = [r for r in ray_run.results if r.termination == "error"]
    assert 0 < len(failed) < 8 and all(not r.played and "EngineBug" in r.reason for r in failed)
    assert [r.match_id for r in ray_run.failed] == [r.match_id for r in failed]
    assert files(ray_run.run_dir) == files(local.run_dir)
    assert records(ray_run.run_dir) == records(local.run_dir)


@needs_ray
def test_kill_the_coordinator_and_resume_with_ray(tmp_path, cluster):
    """SIGKILL a `standoff tournament` connected to the cluster (ray_address = "auto" finds it
    through $RAY_ADDRESS) after some results, twice; rerun it: the outputs equal a local run's."""
    # 64 matches: room enough that a busy machine (the test descheduled for a while) cannot let
    # the run reach its end between two looks at results.jsonl.
    common = dict(entrants=["greedy", "random"], games_per_pairing=64, concurrency=2)
    reference = run(write_config(tmp_path / "ref", "kill", **common))
    path = write_config(tmp_path / "killed", "kill", executor="ray", ray_address="auto", **common)
    results = tmp_path / "killed" / "runs" / "kill" / "results.jsonl"
    command = [sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(path)]
    env = {**os.environ, "RAY_ADDRESS": cluster.address}
    for target in (5, 20):
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists() and results.read_text().count("\n") >= target:
                break
            time.sleep(0.005)
        assert process.poll() is None, "the run ended before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert target <= results.read_text().count("\n") < 64
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ray: matches between plugin bots run as Ray tasks on the Ray cluster at 'auto'" in done.stderr
    assert files(results.parent) == files(reference.run_dir)
    assert records(results.parent) == records(reference.run_dir)


@needs_ray
def test_a_run_can_be_resumed_with_the_other_executor(tmp_path, cluster):
    common = dict(entrants=["greedy", "random"], games_per_pairing=8)
    reference = run(write_config(tmp_path / "ref", "switch", **common))
    run(write_config(tmp_path / "run", "switch", executor="ray", **common))
    results = tmp_path / "run" / "runs" / "switch" / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:3]) + lines[3][:20])  # as if killed mid-write
    remove_index(results.parent)  # a kill leaves the index behind the results, never ahead
    summary = run(write_config(tmp_path / "run", "switch", **common))  # resumed with executor = "local"
    assert summary.complete and files(summary.run_dir) == files(reference.run_dir)
    assert json.loads((summary.run_dir / "config.json").read_text())["executor"] == "local"
    from standoff.tournaments.runner import RunError

    with pytest.raises(RunError, match="different configuration"):  # the tournament itself may not change
        run(write_config(tmp_path / "run", "switch", executor="ray", entrants=["greedy", "random"], games_per_pairing=10))


@needs_ray
def test_remote_entrants_stay_on_the_referee(tmp_path, cluster):
    """With executor = "ray" the coordinator still starts its referee for remote entrants; the
    matches between plugin bots go to Ray (here: greedy vs random), the others wait for the
    remote bot (which never connects: not played)."""
    path = write_config(tmp_path, "mixed", entrants=["greedy", "random", "remote:ghost"], games_per_pairing=2,
                        remote_wait_s=0.5, executor="ray")
    summary = run(path)
    assert summary.complete and len(summary.results) == 6
    for result in summary.results:
        remote = "remote:ghost" in result.seats.values()
        assert result.played is not remote and (result.termination == "not_played") is remote
    played = sorted(r.match_id for r in summary.results if r.played)
    assert len(played) == 2
    # every result has its record; a match not played has one that says so (header and outcome)
    assert sorted(p.stem for p in (summary.run_dir / "records").glob("*.jsonl")) == sorted(r.match_id for r in summary.results)
    for result in summary.results:
        footer = json.loads((summary.run_dir / "records" / f"{result.match_id}.jsonl").read_text().splitlines()[-1])
        assert footer["termination"] == result.termination


@needs_ray
def test_ray_address_local_starts_and_stops_a_cluster_of_its_own(tmp_path, cluster):
    """The CLI with ray_address = "local": ray.init(num_cpus=workers) for the run, shut down
    after it (the process exits cleanly), same outputs."""
    common = dict(entrants=["greedy", "random"], games_per_pairing=4)
    reference = run(write_config(tmp_path / "ref", "own", **common))
    path = write_config(tmp_path / "own", "own", executor="ray", ray_address="local", workers=1, **common)
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    done = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(path)], env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "Ray tasks on a local Ray cluster (127.0.0.1): 1 CPUs" in done.stderr
    assert files(tmp_path / "own" / "runs" / "own") == files(reference.run_dir)


# -- Ray's failures: the match's own, or the cluster's --------------------------------------------


class Scripted:
    """Stands in for the Ray task at the boundary where the executor receives Ray's answers: each
    ``remote(job)`` is one attempt, whose future fails with the next exception of ``failures``
    (or, once they are used up, answers). ``jobs`` counts the attempts made."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.jobs = 0

    def remote(self, job):
        import concurrent.futures

        self.jobs += 1
        future = concurrent.futures.Future()
        if self.failures:
            future.set_exception(self.failures.pop(0))
        else:
            future.set_result({"result": {"match_id": job["spec"]["match_id"]}, "records": {}, "node": "n"})
        return type("Ref", (), {"future": lambda _self: future})()


def play_scripted(*failures: BaseException):
    """The Ray executor's answer to one job whose attempts fail with ``failures``, and the
    attempts it made: ``(answer or the exception it raised, attempts)``."""
    import ray
    import trio

    from standoff.tournaments.ray_executor import RayExecutor

    executor = RayExecutor("auto")
    executor.ray, executor.slots, executor.remote = ray, trio.Semaphore(1), Scripted(*failures)
    try:
        answer = trio.run(executor.run, {"spec": {"match_id": "m7"}})
    except Exception as exc:  # noqa: BLE001 - what the run would see
        answer = exc
    return answer, executor.remote.jobs


@needs_ray
def test_ray_failures_are_the_matchs_own_or_the_clusters_and_attempts_are_counted():
    """A match is an `error` only for its own failure, with the attempts really made: its worker
    process died in each of 4 attempts (a retry that succeeds is its result). A node lost under
    it costs an attempt. Anything else (the coordinator's raylet lost, the GCS, an object lost...)
    is the cluster's: ClusterFailed, which stops the run with the match unplayed, at once."""
    from ray import exceptions as rx

    from standoff.tournaments import errors, ray_executor

    crashed, node = rx.WorkerCrashedError(), rx.NodeDiedError("node 10.0.0.5 died")
    answer, attempts = play_scripted(crashed, crashed)
    assert attempts == 3 and answer["result"] == {"match_id": "m7"}
    answer, attempts = play_scripted(*[crashed] * 4)
    assert attempts == 4 and isinstance(answer, errors.MatchCrashed)
    assert str(answer) == ("Ray could not play match m7: its worker process died in each of its 4 attempts "
                           "(WorkerCrashedError: The worker died unexpectedly while executing this task. Check "
                           "python-core-worker-*.log files for more information.)")
    answer, attempts = play_scripted(node, crashed, node, crashed, crashed, crashed)
    assert attempts == 6 and isinstance(answer, errors.MatchCrashed)
    assert "its worker process died in 4 of its 6 attempts" in str(answer)
    # The coordinator's raylet dies: the attempt under way dies with it, the next cannot start.
    answer, attempts = play_scripted(crashed, rx.LocalRayletDiedError())
    assert attempts == 2 and type(answer) is errors.ClusterFailed
    assert str(answer) == ("the Ray cluster failed (LocalRayletDiedError: The task's local raylet died. "
                           "Check raylet.out for more information.)")
    answer, attempts = play_scripted(*[node] * 4)
    assert attempts == 4 and type(answer) is errors.ClusterFailed
    assert str(answer) == ("the Ray cluster failed (the node playing match m7 was lost in 4 attempts: "
                           "NodeDiedError: node 10.0.0.5 died)")
    cluster = [rx.LocalRayletDiedError(), rx.RaySystemError("raylet gone"), rx.RpcError("GCS unreachable"),
               rx.ObjectLostError("ab" * 28, "owner", "call site"), rx.OwnerDiedError("ab" * 28, "owner", "site"),
               rx.GetTimeoutError("timed out"), rx.TaskUnschedulableError("node dead"), rx.ObjectStoreFullError(),
               rx.RuntimeEnvSetupError("x"), rx.TaskCancelledError(), rx.RayError("a kind Ray adds one day")]
    for exc in cluster:
        assert ray_executor.failure_kind(exc, rx) == "cluster", exc
        answer, attempts = play_scripted(exc)
        assert attempts == 1 and type(answer) is errors.ClusterFailed, exc
    assert ray_executor.failure_kind(rx.OutOfMemoryError("killed: the node ran out of memory"), rx) == "worker"


@needs_ray
def test_a_gcs_that_does_not_answer_stops_a_match_that_waits(monkeypatch):
    """A head lost whole (raylet and GCS) is never reported as a task's failure: Ray learns of a
    dead raylet from the GCS. A task with no news for HEALTH_EVERY_S has the coordinator ask the
    GCS (ray.nodes()); no answer within GCS_TIMEOUT_S, or an error, is the cluster's failure. A
    GCS that answers lets a long match go on."""
    import concurrent.futures
    import threading

    import ray
    import trio

    from standoff.tournaments import errors, ray_executor

    monkeypatch.setattr(ray_executor, "HEALTH_EVERY_S", 0.01)
    done = concurrent.futures.Future()
    asked = []

    def nodes():  # a healthy GCS; the match ends once it has been asked three times
        asked.append(1)
        if len(asked) == 3:
            done.set_result({"result": {"match_id": "m7"}, "records": {}, "node": "n"})
        return [{}]

    class Pending:
        def remote(self, job):
            return type("Ref", (), {"future": lambda _self: done})()

    def play():
        executor = ray_executor.RayExecutor("auto")
        executor.ray, executor.slots, executor.remote = ray, trio.Semaphore(1), Pending()

        async def run():
            with trio.fail_after(60):  # a guard: without the question to the GCS, it would wait for ever
                return await executor.run({"spec": {"match_id": "m7"}})

        try:
            return trio.run(run)
        except Exception as exc:  # noqa: BLE001 - what the run would see
            return exc

    monkeypatch.setattr(ray, "nodes", nodes)
    assert play()["result"] == {"match_id": "m7"} and len(asked) == 3
    done = concurrent.futures.Future()  # never answered from now on
    gone = threading.Event()
    monkeypatch.setattr(ray, "nodes", lambda: gone.wait(60))  # a GCS that is gone: no answer
    monkeypatch.setattr(ray_executor, "GCS_TIMEOUT_S", 0.2)
    answer = play()
    gone.set()
    assert type(answer) is errors.ClusterFailed
    assert str(answer) == "the Ray cluster failed (its GCS did not answer within 0.2 s)"

    def refused():
        raise ray.exceptions.RpcError("GCS unreachable")

    monkeypatch.setattr(ray, "nodes", refused)
    answer = play()
    assert type(answer) is errors.ClusterFailed
    assert str(answer) == "the Ray cluster failed (its GCS: RpcError: GCS unreachable)"


@needs_ray
def test_a_cluster_failure_stops_the_run_unplayed_and_the_same_command_resumes(tmp_path, cluster, monkeypatch):
    """From the sixth match on, every Ray task fails as when the coordinator's raylet is killed
    (LocalRayletDiedError): the run stops with one line counting the matches left unplayed,
    none of them an `error` result; run again, it plays them: the local executor's outputs."""
    import ray
    from ray import exceptions as rx

    from standoff.tournaments import ray_executor
    from standoff.tournaments.runner import RunError

    common = dict(entrants=["greedy", "random"], games_per_pairing=20, concurrency=2)
    reference = run(write_config(tmp_path / "local", "lost", **common))
    path = write_config(tmp_path / "ray", "lost", executor="ray", **common)
    real = ray.remote(max_retries=0)(ray_executor.play_job)

    class RayletDies:
        """Real tasks for the first five jobs, then only failures (what Ray raises then)."""

        def __init__(self) -> None:
            self.jobs = 0

        def remote(self, job):
            self.jobs += 1
            return real.remote(job) if self.jobs <= 5 else Scripted(rx.LocalRayletDiedError()).remote(job)

    monkeypatch.setattr(ray_executor, "_remote_play", RayletDies())
    with pytest.raises(RunError) as info:
        run(path)
    results = tmp_path / "ray" / "runs" / "lost" / "results.jsonl"
    written = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(written) <= 5 and all(r["termination"] != "error" for r in written)
    assert str(info.value) == (
        "the Ray cluster failed (LocalRayletDiedError: The task's local raylet died. Check raylet.out for more "
        f"information.): {20 - len(written)} matches are left unplayed; run the same command again to resume, "
        "once the cluster is back")
    monkeypatch.undo()
    summary = run(path)
    assert summary.complete and not summary.failed
    assert files(summary.run_dir) == files(reference.run_dir)


# -- the start-up check's verdicts (no cluster needed) ---------------------------------------------


def test_a_node_with_a_stale_compiled_engine_is_named(monkeypatch):
    """A node whose compiled engine no longer matches its sources (``standoff accelerate``, then
    an update) would play old rules: the start-up check names it, as it names a node that cannot
    load a bot or runs another version; a healthy node adds nothing."""
    from standoff.server import accelerate
    from standoff.tournaments import ray_executor

    monkeypatch.setattr(accelerate, "stale", lambda root=None: ["games.schotten_totten.turn"])
    monkeypatch.setattr(ray_executor, "_this_node", lambda: "10.0.0.1 (aaaaaaaa)")
    answer = ray_executor.check_node("", [], ["random"])
    assert answer["stale"] == ["games.schotten_totten.turn"]
    healthy = dict(answer, node="10.0.0.2 (bbbbbbbb)", stale=[])
    faults = ray_executor.node_faults([answer, healthy], answer["version"])
    assert len(faults) == 1
    assert faults[0].startswith("node 10.0.0.1 (aaaaaaaa) has a stale compiled engine (games.schotten_totten.turn")
    assert "standoff accelerate" in faults[0]
    assert ray_executor.node_faults([healthy], answer["version"]) == []
    other = ray_executor.node_faults([healthy], "standoff 0.0-other")
    assert other == [f"node 10.0.0.2 (bbbbbbbb) runs {answer['version']}, the coordinator standoff 0.0-other"]
