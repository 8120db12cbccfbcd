"""The ``ray`` executor on a multi-node Ray cluster on loopback (``ray.cluster_utils.Cluster``:
a head and two worker nodes, one CPU each, separate raylets), and the ways a Ray run fails:

* a worker node killed mid-run: its matches are played again elsewhere, and results.jsonl,
  elo.jsonl and ratings.json are byte-identical to the local executor's;
* one Ctrl-C (SIGINT to the process group, as a terminal sends it): the run stops at once with
  the partial summary and how to resume, exit 130 as with the local executor; the rerun finishes
  with the same outputs;
* a match that fails on a node: ``standoff: error: match M on node N: ...``, an unrated ``error``
  result, the other matches played, exit 1 naming the failed matches;
* a node that cannot load an entrant's plugin (installed only in the coordinator's working
  directory, which Ray puts on every worker's path but exists only on the coordinator's machine):
  refused at start, naming the node;
* an address nobody answers at, a cluster that needs a token, a connection that hangs, no
  cluster for "auto": one line each, no traceback.

The module is also a plugin (``STANDOFF_PLUGINS=test_ray_cluster``): ``crasher`` kills its own
worker process in every match that has a marker file, so Ray's retries all die.
``STANDOFF_LONG=1`` adds a longer run with both worker nodes killed one after the other.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from standoff.bots.random_bot import RandomBot
from standoff.server.plugins import BotSpec, hookimpl

HERE = Path(__file__).resolve().parent
HAVE_RAY = importlib.util.find_spec("ray") is not None
pytestmark = pytest.mark.skipif(
    not HAVE_RAY, reason="Ray is not installed: the optional extra, pip install -e '.[ray]' (the dev extra has it)"
)
LONG = bool(os.environ.get("STANDOFF_LONG"))
MARKERS_ENV = "STANDOFF_TEST_CRASH_MARKERS"
CLI = [sys.executable, "-m", "standoff.tournaments.cli", "tournament"]

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # loopback only (read at `import ray`)


class Crasher(RandomBot):
    """Plays like ``random``, but dies (``os._exit``) at its third decision of a match whose id
    has a marker file in $STANDOFF_TEST_CRASH_MARKERS: every attempt at that match dies."""

    name = "crasher"

    def start(self, match):
        super().start(match)
        self.match_id = match.match_id
        self.calls = 0

    def choose(self, decision, view):
        self.calls += 1
        folder = os.environ.get(MARKERS_ENV)
        if self.calls == 3 and folder and (Path(folder) / self.match_id).exists():
            os._exit(1)
        return super().choose(decision, view)


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(Crasher, trusted=True)]


# -- the cluster -----------------------------------------------------------------------------------


class Nodes:
    def __init__(self, cluster, workers, markers: Path) -> None:
        self.cluster = cluster
        self.workers = workers
        self.markers = markers

    @property
    def address(self) -> str:
        return self.cluster.address

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a coordinator subprocess that connects to this cluster."""
        env = {key: value for key, value in os.environ.items() if key != "STANDOFF_PLUGINS"}
        return {**env, "RAY_ADDRESS": self.address, **extra}


def _start_cluster(cluster_class):
    """A head and two worker nodes, one CPU each: ``(cluster, workers)``. Ray waits a fixed 30 s
    for a new raylet to register; on a loaded 2-core CI machine that start-up (not standoff) has
    timed out once, so a cluster that did not come up is shut down and started once more."""
    for attempt in (1, 2):
        cluster = cluster_class()
        try:
            cluster.add_node(num_cpus=1, include_dashboard=False)  # the first node is the head
            workers = [cluster.add_node(num_cpus=1) for _ in range(2)]
            cluster.wait_for_nodes(timeout=120)
            return cluster, workers
        except Exception as exc:  # noqa: BLE001 - Ray raises a bare Exception for this
            cluster.shutdown()
            if attempt == 2 or "timed out during startup" not in str(exc):
                raise


@pytest.fixture(scope="module")
def nodes(tmp_path_factory):
    """A head and two worker nodes (one CPU each) on loopback, the driver (this process)
    connected. The nodes' workers find this module and tests/kits (PYTHONPATH, inherited)."""
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    markers = tmp_path_factory.mktemp("crash-markers")
    saved = {key: os.environ.get(key) for key in ("PYTHONPATH", MARKERS_ENV)}
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH")]))
    os.environ[MARKERS_ENV] = str(markers)
    cluster, workers = _start_cluster(Cluster)
    try:
        ray.init(address=cluster.address)
        yield Nodes(cluster, workers, markers)
    finally:
        ray.shutdown()
        cluster.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def write_config(folder: Path, name: str, **extra) -> Path:
    extra.setdefault("entrants", ["greedy", "random"])
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"', "master_seed = 3"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(path: Path):
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import load_config
    from standoff.tournaments.runner import run_tournament

    registry = load_registry()
    return run_tournament(load_config(path, registry=registry), registry=registry)


def files(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in ("results.jsonl", "elo.jsonl", "ratings.json")}


def lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def alive_nodes() -> int:
    """Nodes the cluster counts as alive (a node killed a moment ago may still be counted)."""
    import ray

    return sum(1 for node in ray.nodes() if node["Alive"])


def one_line_error(done: subprocess.CompletedProcess) -> str:
    """The CLI's error line (Ray's own log lines, which start with a date or '[', aside)."""
    assert "Traceback" not in done.stderr, done.stderr
    ours = [line for line in done.stderr.splitlines() if line.startswith("standoff:")]
    assert len(ours) == 1, done.stderr
    return ours[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- Ctrl-C -----------------------------------------------------------------------------------------


def test_one_ctrl_c_stops_a_ray_run_and_the_rerun_finishes_it(tmp_path, nodes):
    common = dict(entrants=["greedy", "random"], games_per_pairing=60, concurrency=3)
    reference = run(write_config(tmp_path / "local", "ctrlc", **common))
    path = write_config(tmp_path / "ray", "ctrlc", executor="ray", ray_address="auto", **common)
    results = tmp_path / "ray" / "runs" / "ctrlc" / "results.jsonl"
    process = subprocess.Popen(CLI + [str(path)], env=nodes.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while process.poll() is None and lines(results) < 5 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert process.poll() is None, "the run ended before Ctrl-C"
    os.killpg(process.pid, signal.SIGINT)  # once, to the whole group, as a terminal does
    out, err = process.communicate(timeout=60)  # one Ctrl-C is enough: no second one is sent
    assert process.returncode == 130, err
    assert "Traceback" not in err and "stopped before the end: run the same command again to continue" in err
    assert "SIGTERM handler is not set" not in err  # Ray's warning about our driver thread: dropped
    written = lines(results)
    assert 5 <= written < 60 and f"Matches: {written} ({written} played" in out
    done = subprocess.run(CLI + [str(path)], env=nodes.env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert files(results.parent) == files(reference.run_dir)


# -- a match that fails on a node ---------------------------------------------------------------------


def test_a_match_that_fails_on_a_node_is_an_error_result_naming_the_node(tmp_path, nodes):
    """An engine bug (tests/kits/faultyengine.py) in some matches, and a bot whose worker dies in
    every attempt at one match: each such match is one line naming the match and the node (or
    Ray's attempts), an unrated `error` result; the rest is played; exit 1 naming them. The
    outputs equal the local executor's for the engine bugs."""
    from standoff.tournaments.schedule import schedule
    from standoff.tournaments.config import load_config
    from standoff.server.plugins import load_registry

    common = dict(entrants=["greedy", "random"], games_per_pairing=8)
    local = write_config(tmp_path / "local", "bugs", **common)
    path = write_config(tmp_path / "ray", "bugs", executor="ray", **common)
    env = nodes.env(STANDOFF_PLUGINS="kits.faultyengine")
    ray_run = subprocess.run(CLI + [str(path)], env=env, capture_output=True, text=True, timeout=300)
    local_run = subprocess.run(CLI + [str(local)], env=env, capture_output=True, text=True, timeout=300)
    assert ray_run.returncode == local_run.returncode == 1, ray_run.stderr
    assert "Traceback" not in ray_run.stderr
    failed = [json.loads(line) for line in (tmp_path / "ray" / "runs" / "bugs" / "results.jsonl").read_text().splitlines()]
    failed = [r["match_id"] for r in failed if r["termination"] == "error"]
    assert 0 < len(failed) < 8
    for match_id in failed:
        line = next((line for line in ray_run.stderr.splitlines() if line.startswith(f"standoff: error: match {match_id} ")),
                    ray_run.stderr)
        assert re.search(r" on node \S+ \([0-9a-f]{8}\): .*EngineBug", line), line
    assert f"standoff: error: {len(failed)} matches ended by an engine or referee error" in ray_run.stderr
    assert files(tmp_path / "ray" / "runs" / "bugs") == files(tmp_path / "local" / "runs" / "bugs")

    # A worker process that dies in every attempt (4: the coordinator's 3 retries) at one match.
    crash = write_config(tmp_path / "crash", "crash", executor="ray", entrants=["crasher", "random"], games_per_pairing=4)
    os.environ["STANDOFF_PLUGINS"] = "test_ray_cluster"
    try:
        victim = schedule(load_config(crash, registry=load_registry()))[2].match_id
    finally:
        os.environ.pop("STANDOFF_PLUGINS")
    (nodes.markers / victim).write_text("")
    done = subprocess.run(CLI + [str(crash)], env=nodes.env(STANDOFF_PLUGINS="test_ray_cluster"),
                          capture_output=True, text=True, timeout=300)
    (nodes.markers / victim).unlink()
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert (f"standoff: error: Ray could not play match {victim}: its worker process died in each of its 4 "
            "attempts (WorkerCrashedError: ") in done.stderr
    assert f"standoff: error: 1 matches ended by an engine or referee error and have no result: {victim} " in done.stderr
    results = [json.loads(line) for line in (tmp_path / "crash" / "runs" / "crash" / "results.jsonl").read_text().splitlines()]
    assert [r["termination"] == "error" for r in results] == [r["match_id"] == victim for r in results]
    assert all(r["played"] is False for r in results if r["match_id"] == victim)


def test_a_task_that_cannot_start_on_its_node_is_an_answer_naming_the_node(nodes, monkeypatch):
    """The task function itself failing on a node (standoff missing or broken there: Ray's
    RayTaskError) is an error answer naming the node, not an exception that ends the run;
    the runner makes it an `error` result like any other."""
    import ray
    import trio

    from standoff.tournaments import ray_executor

    def broken(job):
        raise ImportError("No module named 'standoff'")

    executor = ray_executor.RayExecutor("auto")
    trio.run(executor.start)
    executor.remote = ray.remote(max_retries=0)(broken)
    try:
        answer = trio.run(executor.run, {"spec": {"match_id": "m1"}})
    finally:
        trio.run(executor.aclose)  # the session is the test's: left open
    assert ray.is_initialized()
    assert answer["error"] == "ImportError: No module named 'standoff'"
    assert re.fullmatch(r"[0-9a-fA-F.:]+", answer["node"]), answer


# -- a plugin the nodes do not have --------------------------------------------------------------------


def test_a_plugin_only_in_the_coordinators_folder_is_refused_naming_the_nodes(tmp_path, nodes):
    """The coordinator runs in a folder holding a plugin module (found there: `python -m`); Ray
    would put that folder on every worker's path, where it exists on this machine only. The
    start-up check refuses the run naming every node, as on a real cluster."""
    (tmp_path / "folderbots.py").write_text(
        "from standoff.bots.random_bot import RandomBot\n"
        "from standoff.server.plugins import BotSpec, hookimpl\n"
        "class Folder(RandomBot):\n    name = 'folder'\n"
        "@hookimpl\ndef standoff_bots():\n    return [BotSpec.from_class(Folder, trusted=True)]\n"
    )
    path = write_config(tmp_path, "folder", executor="ray", entrants=["folder", "random"], games_per_pairing=2)
    env = nodes.env(STANDOFF_PLUGINS="folderbots")
    listed = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "bots"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert "folder" in listed.stdout  # the coordinator has it
    done = subprocess.run(CLI + [str(path)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    line = one_line_error(done)
    assert re.match(r'standoff: error: executor = "ray": node \S+ \([0-9a-f]{8}\) cannot load folder', line), line
    assert line.count("cannot load folder: folderbots (from $STANDOFF_PLUGINS): failed to import: "
                      "ModuleNotFoundError: No module named 'folderbots'") == alive_nodes()
    assert not (tmp_path / "runs" / "folder" / "results.jsonl").exists() or lines(tmp_path / "runs" / "folder" / "results.jsonl") == 0


def test_a_node_without_the_plugin_is_named(tmp_path, nodes):
    """A node whose environment lacks the plugin module (PYTHONPATH without it): refused at start,
    that node named (by its node id), before any match is played."""
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import load_config
    from standoff.tournaments.runner import RunError, run_tournament

    bare = nodes.cluster.add_node(num_cpus=1, env_vars={"PYTHONPATH": ""})
    nodes.cluster.wait_for_nodes(timeout=120)
    try:
        os.environ["STANDOFF_PLUGINS"] = "test_ray_cluster"
        path = write_config(tmp_path, "bare", executor="ray", entrants=["crasher", "random"], games_per_pairing=2)
        registry = load_registry()
        with pytest.raises(RunError) as info:
            run_tournament(load_config(path, registry=registry), registry=registry)
    finally:
        os.environ.pop("STANDOFF_PLUGINS", None)
        nodes.cluster.remove_node(bare)
    message = str(info.value)
    assert "\n" not in message
    assert re.match(rf'executor = "ray": node \S+ \({bare.node_id[:8]}\) cannot load crasher: '
                    r"test_ray_cluster \(from \$STANDOFF_PLUGINS\): failed to import: ModuleNotFoundError", message), message
    assert message.count("cannot load") == 1  # the other nodes have it


def test_a_node_with_another_standoff_is_named(tmp_path, nodes, monkeypatch):
    """Records carry the standoff version: a node that runs another one would change them."""
    from standoff.server import local as server_local
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import load_config
    from standoff.tournaments.runner import RunError, run_tournament

    real = server_local.code_version()
    monkeypatch.setattr(server_local, "code_version", lambda: "standoff 0.0.0-other")
    path = write_config(tmp_path, "version", executor="ray")
    registry = load_registry()
    with pytest.raises(RunError) as info:
        run_tournament(load_config(path, registry=registry), registry=registry)
    message = str(info.value)
    assert "\n" not in message
    assert message.count(f"runs {real}, the coordinator standoff 0.0.0-other") == 3, message  # each node


# -- connecting ---------------------------------------------------------------------------------------


def test_connection_failures_are_one_line(tmp_path, nodes):
    port = free_port()
    path = write_config(tmp_path, "nobody", executor="ray", ray_address=f"127.0.0.1:{port}")
    done = subprocess.run(CLI + [str(path)], env=nodes.env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert one_line_error(done) == (f'standoff: error: executor = "ray": no Ray cluster answers at 127.0.0.1:{port}: '
                                    "Connection refused (is it started? is the address right?)")
    # "auto" says where it found the address
    path = write_config(tmp_path, "auto", executor="ray")
    done = subprocess.run(CLI + [str(path)], env=nodes.env(RAY_ADDRESS=f"127.0.0.1:{port}"), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert one_line_error(done).startswith(
        f'standoff: error: executor = "ray": no Ray cluster answers at 127.0.0.1:{port} (from $RAY_ADDRESS): ')


@pytest.fixture
def token_head():
    """A head node with token authentication, as docs/ray.md starts one (`RAY_AUTH_MODE=token
    ray start --head`, here --block in a process group of its own, its own temp folder, no
    CPUs): its GCS address and its token. Stopped by signalling that group (never `ray stop`,
    which would stop every Ray cluster of the machine)."""
    token = secrets.token_hex(32)
    port = free_port()
    temp = tempfile.mkdtemp(prefix="rayt", dir="/tmp")  # short: Ray's socket paths live there
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    env.pop("RAY_ADDRESS", None)
    ray_cli = Path(sys.executable).with_name("ray")
    process = subprocess.Popen(
        [str(ray_cli), "start", "--head", "--block", f"--port={port}", "--num-cpus=0", "--include-dashboard=false",
         "--disable-usage-stats", f"--temp-dir={temp}", "--node-ip-address=127.0.0.1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert process.poll() is None, "ray start --head failed"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the token-authenticated head did not start within 90 s")
        yield f"127.0.0.1:{port}", token
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)  # `ray start --block` may take its time: the group is ours
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        shutil.rmtree(temp, ignore_errors=True)


def test_a_cluster_that_wants_a_token_says_so(tmp_path, token_head):
    """A coordinator without RAY_AUTH_MODE (an explicit address: Ray does not turn it on by
    itself) is told to set it, not "Failed to connect"; one with a wrong token is told so."""
    gcs, token = token_head
    path = write_config(tmp_path, "token", executor="ray", ray_address=gcs)
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_AUTH") and key != "RAY_ADDRESS"}
    done = subprocess.run(CLI + [str(path)], env={**env, "RAY_AUTH_TOKEN": token}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert one_line_error(done) == (
        f'standoff: error: executor = "ray": the Ray cluster at {gcs} requires token authentication: '
        "set RAY_AUTH_MODE=token (RAY_AUTH_MODE is unset) and give its token (~/.ray/auth_token, "
        "$RAY_AUTH_TOKEN_PATH or $RAY_AUTH_TOKEN)")
    done = subprocess.run(CLI + [str(path)], env={**env, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": "0" * 64},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert one_line_error(done) == (
        f'standoff: error: executor = "ray": the Ray cluster at {gcs} refused the token: use the cluster\'s '
        "token (~/.ray/auth_token, $RAY_AUTH_TOKEN_PATH or $RAY_AUTH_TOKEN)")


def test_a_connection_that_hangs_and_no_cluster_for_auto(monkeypatch):
    """Bounded in time: a ray.init that never returns (a silent address) is one line after
    CONNECT_TIMEOUT_S, and the process is not held by the connecting thread (a daemon)."""
    import trio

    from standoff.tournaments import ray_executor
    from standoff.tournaments.errors import RunError

    executor = ray_executor.RayExecutor("10.9.9.9:6379")
    monkeypatch.setattr(ray_executor, "CONNECT_TIMEOUT_S", 0.3)
    hang = threading.Event()
    monkeypatch.setattr(executor, "_connect", lambda: hang.wait(30))
    import ray

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    with pytest.raises(RunError) as info:
        trio.run(executor.start)
    hang.set()
    assert str(info.value) == ("executor = \"ray\": the Ray cluster at '10.9.9.9:6379' did not answer within "
                               "0.3 s (is the address a Ray cluster's? same Ray version?)")
    assert executor.thread is None
    local = ray_executor.RayExecutor("local")
    monkeypatch.setattr(ray_executor, "LOCAL_START_TIMEOUT_S", 0.3)
    monkeypatch.setattr(local, "_connect", lambda: hang.wait(30))
    hang.clear()
    with pytest.raises(RunError) as info:
        trio.run(local.start)
    hang.set()
    assert str(info.value) == ('executor = "ray": a local Ray cluster did not start within 0.3 s (a busy machine? '
                               'try again, or use executor = "local")')

    # "auto" with no $RAY_ADDRESS and no `ray start` here: a cluster running on this machine is
    # still found (as ray.init finds it), and only no cluster at all is "no running Ray cluster".
    auto = ray_executor.RayExecutor("auto")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr("ray._private.services.find_bootstrap_address", lambda temp_dir: None)
    monkeypatch.setattr("ray._private.services.find_gcs_addresses", lambda: ["127.0.0.1:6390"])
    assert auto._gcs_address() == "127.0.0.1:6390" and auto.found == " (found on this machine)"
    monkeypatch.setattr("ray._private.services.find_gcs_addresses", lambda: [])
    with pytest.raises(RunError, match=r'^executor = "ray": no running Ray cluster found: \$RAY_ADDRESS is not set'):
        auto._gcs_address()


def test_one_ctrl_c_while_connecting_to_a_silent_address(tmp_path):
    """An address that accepts connections and never answers (ray.init would wait for it):
    one Ctrl-C stops the run at once, with the usual lines and exit status 130."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        port = silent.getsockname()[1]
        path = write_config(tmp_path, "silent", executor="ray", ray_address=f"127.0.0.1:{port}")
        env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
        process = subprocess.Popen(CLI + [str(path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True)
        time.sleep(3)  # connecting by now (the CLI starts in about a second)
        assert process.poll() is None
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "stopped before the end: run the same command again to continue" in err
    assert "Matches: 0 (0 played" in out


def test_a_cluster_without_cpus_is_refused(monkeypatch):
    import ray
    import trio

    from standoff.tournaments import ray_executor
    from standoff.tournaments.errors import RunError

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"memory": 1.0})
    with pytest.raises(RunError) as info:
        trio.run(ray_executor.RayExecutor("auto").start)
    assert str(info.value) == ('executor = "ray": the Ray session this program opened has no CPUs for tasks '
                               "(`ray status`); start nodes with --num-cpus >= 1")


# -- a node killed mid-run -------------------------------------------------------------------------


def kill_nodes_during(nodes: Nodes, results: Path, after: list[int], ready=lambda node: True,
                      ) -> tuple[threading.Thread, list[int]]:
    """A thread that removes a worker node (its processes killed, not drained) each time
    results.jsonl reaches the next count of ``after`` and ``ready(node)`` holds; and the counts it
    saw at each kill."""
    seen: list[int] = []

    def watch() -> None:
        for count, node in zip(after, list(nodes.workers), strict=False):
            deadline = time.monotonic() + 120
            while (lines(results) < count or not ready(node)) and time.monotonic() < deadline:
                time.sleep(0.005)
            seen.append(lines(results))
            nodes.cluster.remove_node(node, allow_graceful=False)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread, seen


def played_on_nodes(monkeypatch) -> list[str]:
    """The node ids (8 digits) of the matches the Ray executor gets answers for, in order."""
    from standoff.tournaments.ray_executor import RayExecutor

    seen: list[str] = []
    real = RayExecutor.run

    async def run(self, job):
        answer = await real(self, job)
        seen.append(answer.get("node", "")[-9:-1])
        return answer

    monkeypatch.setattr(RayExecutor, "run", run)
    return seen


def test_a_node_killed_mid_run_changes_nothing(tmp_path, nodes, monkeypatch):
    """Three nodes, concurrency 3 (a match on each); a worker node is killed after a few results,
    its running match is played again elsewhere: the outputs equal the local executor's."""
    common = dict(entrants=["greedy", "random"], games_per_pairing=30, concurrency=3)
    reference = run(write_config(tmp_path / "local", "kill", **common))
    path = write_config(tmp_path / "ray", "kill", executor="ray", **common)
    results = tmp_path / "ray" / "runs" / "kill" / "results.jsonl"
    victim = nodes.workers[0]
    played_on = played_on_nodes(monkeypatch)
    # Killed once it has played a match (a loaded machine may start its worker late): the kill
    # then certainly hits a node that takes part in the run.
    thread, seen = kill_nodes_during(nodes, results, [4], ready=lambda node: node.node_id[:8] in played_on)
    summary = run(path)
    thread.join(timeout=60)
    assert seen and seen[0] < 30, "the node was removed only after the run"
    assert not victim.any_processes_alive() and victim not in nodes.cluster.worker_nodes
    assert victim.node_id[:8] in played_on, "the killed node had played nothing"
    assert summary.complete and len(summary.results) == 30 and not summary.failed
    assert files(summary.run_dir) == files(reference.run_dir)
    nodes.workers.remove(victim)  # (the last test of the module that needs three nodes)


# -- the coordinator's own raylet killed ---------------------------------------------------------------


class Head:
    """A one-node cluster as docs/ray.md starts one, `ray start --head` (daemonized, in a process
    group of its own, its own temp folder, token authentication off), at ``port``. Its processes
    are ended by signalling that group (never `ray stop`: it would stop every cluster here)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.temp = tempfile.mkdtemp(prefix="rayh", dir="/tmp")  # short: Ray's socket paths live there
        self.env = {**{k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "STANDOFF_PLUGINS")},
                    "RAY_AUTH_MODE": "disabled"}
        ray_cli = Path(sys.executable).with_name("ray")
        self.process = subprocess.Popen(
            [str(ray_cli), "start", "--head", f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
             "--disable-usage-stats", f"--temp-dir={self.temp}", "--node-ip-address=127.0.0.1"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            assert self.process.wait(timeout=120) == 0, "ray start --head failed"
        except BaseException:
            self.stop()
            raise

    def pids(self, name: str) -> list[int]:
        """The processes of this cluster whose command line holds ``name``."""
        found = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and os.getpgid(int(entry.name)) == self.process.pid:
                    if name in (entry / "cmdline").read_bytes().decode(errors="replace"):
                        found.append(int(entry.name))
            except (OSError, ProcessLookupError):
                continue  # ended meanwhile
        return found

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        shutil.rmtree(self.temp, ignore_errors=True)


def test_the_coordinators_raylet_killed_stops_the_run_and_the_same_command_resumes(tmp_path):
    """`kill -9` of the raylet the coordinator is connected to (its node's), mid-run: an
    infrastructure failure, not the matches' own. The run stops with one line counting the
    matches left unplayed, exit 2, and no `error` result; with the cluster back (started again
    at the same address), the same command plays them: the local executor's outputs. (Before:
    each match in flight or still to come became an `error` result "after 4 attempts", within
    seconds, and a rerun played nothing.)"""
    common = dict(entrants=["greedy", "random"], games_per_pairing=30, concurrency=2)
    reference = run(write_config(tmp_path / "local", "dead", **common))
    path = write_config(tmp_path / "ray", "dead", executor="ray", ray_address="auto", **common)
    results = tmp_path / "ray" / "runs" / "dead" / "results.jsonl"
    port = free_port()
    head = Head(port)
    env = {**head.env, "RAY_ADDRESS": f"127.0.0.1:{port}"}
    try:
        process = subprocess.Popen(CLI + [str(path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True)
        deadline = time.monotonic() + 120
        while process.poll() is None and lines(results) < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert process.poll() is None, "the run ended before its raylet was killed"
        (raylet,) = head.pids("raylet/raylet")
        os.kill(raylet, signal.SIGKILL)
        out, err = process.communicate(timeout=180)
    finally:
        head.stop()
    assert process.returncode == 2, err
    line = one_line_error(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    found = re.fullmatch(r"standoff: error: the Ray cluster failed \(LocalRayletDiedError: The task's local raylet "
                         r"died\. Check raylet\.out for more information\.\): (\d+) matches are left unplayed; run "
                         r"the same command again to resume, once the cluster is back", line)
    assert found, line
    written = [json.loads(text) for text in results.read_text().splitlines()]
    assert all(result["termination"] != "error" for result in written)
    assert 3 <= len(written) < 30 and int(found.group(1)) == 30 - len(written)
    head = Head(port)  # the cluster is back, at the same address
    try:
        done = subprocess.run(CLI + [str(path)], env=env, capture_output=True, text=True, timeout=300)
    finally:
        head.stop()
    assert done.returncode == 0, done.stderr
    assert files(results.parent) == files(reference.run_dir)


# -- longer --------------------------------------------------------------------------------------------


@pytest.mark.skipif(not LONG, reason="long: set STANDOFF_LONG=1")
def test_long_both_worker_nodes_killed_one_after_the_other(tmp_path, nodes):
    """A longer run, both worker nodes killed in turn: the head finishes it
    alone, with the local executor's outputs."""
    while len(nodes.workers) < 2:  # the test above killed one
        nodes.workers.append(nodes.cluster.add_node(num_cpus=1))
    nodes.cluster.wait_for_nodes(timeout=120)
    common = dict(entrants=["greedy", "random"], games_per_pairing=120, concurrency=3)
    reference = run(write_config(tmp_path / "local", "long", **common))
    path = write_config(tmp_path / "ray", "long", executor="ray", **common)
    results = tmp_path / "ray" / "runs" / "long" / "results.jsonl"
    thread, seen = kill_nodes_during(nodes, results, [10, 60])
    summary = run(path)
    thread.join(timeout=60)
    assert len(seen) == 2 and seen[1] < 120
    assert summary.complete and files(summary.run_dir) == files(reference.run_dir)
