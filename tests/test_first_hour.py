"""A newcomer's mistakes end in one line on stderr (exit 2), never a traceback; commands do what
they say (issue: the first hour of a new user)."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from kits.server import RawClient, ServerThread
from standoff.v1 import referee_pb2 as pb

ROOT = Path(__file__).resolve().parents[1]


def standoff(*args: str, cwd: Path | None = None, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL, **kwargs)


def one_line_error(run: subprocess.CompletedProcess, *needles: str, code: int = 2) -> str:
    assert "Traceback" not in run.stderr + run.stdout, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == code and len(lines) == 1, (run.returncode, run.stderr)
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_paths_that_are_directories_missing_or_not_writable(tmp_path):
    one_line_error(standoff("play", "schotten-totten", "--bot", "random", "--bot", "random", "--record", str(tmp_path)),
                   str(tmp_path), "Is a directory")
    one_line_error(standoff("proto", "--out", "/proc/nope"), "/proc/nope")
    afile = tmp_path / "afile"
    afile.write_text("x")
    config = tmp_path / "t.toml"
    config.write_text(f'name = "t"\ngame = "schotten-totten"\nentrants = ["greedy", "random"]\noutput_dir = "{afile}"\n')
    one_line_error(standoff("tournament", str(config)), str(afile), "Not a directory")


def test_numbers_out_of_range_are_refused_before_any_call(tmp_path):
    base = ["match", "--game", "schotten-totten", "--bot", "random", "--bot", "random", "--token", "x"]
    one_line_error(standoff(*base, "--seed", "99999999999999999999999"), "--seed")
    one_line_error(standoff(*base, "--retries", "-1"), "--retries -1")
    one_line_error(standoff(*base, "--bank-ms", "-5"), "--bank-ms")
    run = standoff("ladder", str(ROOT / "tournaments" / "demo.toml"), "--rounds", "0")
    assert run.returncode == 2 and "expected a whole number >= 1" in run.stderr and "Traceback" not in run.stderr


def test_a_record_with_a_malformed_header_is_one_line(tmp_path):
    record = tmp_path / "r.jsonl"
    record.write_text(json.dumps({"type": "header", "format": "standoff-record/1", "game": "schotten-totten",
                                  "roles": "x", "ruleset": "battle_line", "options": {}}) + "\n")
    one_line_error(standoff("replay", str(record)), "roles", "must be an object")


def test_an_edited_outcome_names_the_record_file(tmp_path):
    record = tmp_path / "m.jsonl"
    assert standoff("play", "schotten-totten", "--bot", "greedy", "--bot", "random", "--seed", "3",
                    "--record", str(record)).returncode == 0
    lines = record.read_text().splitlines()
    footer = json.loads(lines[-1])
    footer["winner"] = "p2" if footer["winner"] == "p1" else "p1"
    record.write_text("\n".join(lines[:-1] + [json.dumps(footer)]) + "\n")
    one_line_error(standoff("replay", str(record)), str(record), "differs", "standoff verify")


def test_token_list_of_a_missing_registry_says_so(tmp_path):
    one_line_error(standoff("token", "list", "--data-dir", str(tmp_path / "nothing")), "no token registry")


def test_play_draws_a_seed_prints_it_and_replays_it_with_seed(tmp_path):
    first = standoff("play", "schotten-totten", "--bot", "random", "--bot", "random")
    second = standoff("play", "schotten-totten", "--bot", "random", "--bot", "random")
    seed_of = lambda run: int(run.stdout.split(" seed ", 1)[1].split(":", 1)[0])  # noqa: E731
    assert seed_of(first) != seed_of(second)
    again = standoff("play", "schotten-totten", "--bot", "random", "--bot", "random", "--seed", str(seed_of(first)))
    assert again.stdout == first.stdout


def test_ctrl_c_is_one_line_and_exit_130(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "standoff.tournaments.cli", "play", "twilight-struggle",
                                "--bot", "ts-search", "--bot", "ts-search"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err and err.strip() == "standoff: interrupted"


def test_an_sdk_bot_with_a_bad_token_is_one_line_and_prints_each_match_as_it_ends(tmp_path):
    server = ServerThread(tmp_path).start()
    try:
        example = ROOT / "examples" / "random_bot.py"
        env = dict(os.environ, STANDOFF_TOKEN="sto_wrong")
        run = subprocess.run([sys.executable, str(example), "--address", server.address], capture_output=True,
                             text=True, env=env, timeout=60)
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert run.stderr.strip().startswith("random_bot: the referee refused the session: UNAUTHENTICATED")
        # a good token: each match is printed as it ends (the bot keeps running meanwhile)
        env["STANDOFF_TOKEN"] = server.tokens.add("walker")
        bot = subprocess.Popen([sys.executable, str(example), "--address", server.address], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
        try:
            deadline = time.monotonic() + 30
            while "walker" not in [s.identity.name for s in list(server.running.referee.sessions.values())]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            match_id = server.start_match(["remote:walker", "random"], wait=True).match_id
            line = bot.stdout.readline()
            assert line.startswith(f"{match_id} p1 ")
        finally:
            bot.send_signal(signal.SIGINT)
            bot.communicate(timeout=30)
        assert bot.returncode == 130
    finally:
        server.stop()


def test_the_scheme_of_the_bearer_token_is_case_insensitive(server_thread):
    for scheme in ("bearer", "BEARER", "Bearer"):
        with grpc.insecure_channel(server_thread.address) as channel:
            call = channel.unary_unary("/standoff.v1.RefereeService/ListMatches",
                                       request_serializer=pb.ListMatchesRequest.SerializeToString,
                                       response_deserializer=pb.ListMatchesResponse.FromString)
            call(pb.ListMatchesRequest(), metadata=(("authorization", f"{scheme} {server_thread.admin}"),), timeout=10)


@pytest.fixture
def server_thread(tmp_path):
    server = ServerThread(tmp_path).start()
    yield server
    server.stop()


def test_server_reflection_answers_v1_and_v1alpha(server_thread):
    from grpc_reflection.v1alpha import reflection_pb2

    for service in ("grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"):
        with grpc.insecure_channel(server_thread.address) as channel:
            call = channel.stream_stream(f"/{service}/ServerReflectionInfo",
                                         request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                         response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
            (answer,) = call(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10)
            assert "standoff.v1.RefereeService" in [s.name for s in answer.list_services_response.service]


def test_a_disconnection_counts_once_under_the_random_policy(server_thread):
    alice = RawClient(server_thread.address, server_thread.tokens.add("alice"))
    alice.next("welcome")
    match_id = server_thread.start_match(["remote:alice", "random"], fault_policy=pb.FAULT_POLICY_RANDOM,
                                         options={"first": "p1"}).match_id
    assert alice.next("decision") is not None
    alice.close()  # gone for good: every later decision of alice's is substituted
    summary = server_thread.wait_finished(match_id, timeout=120)
    faults = [(f.role, f.kind, f.count) for f in summary.result.faults]
    assert faults == [("p1", "disconnect", 1)]
    record = [json.loads(line) for line in server_thread.record(match_id).splitlines()]
    substituted = [line for line in record if line.get("substituted")]
    assert len(substituted) > 5  # many decisions substituted, one fault counted


def test_output_files_share_one_permission_policy(tmp_path):
    config = tmp_path / "p.toml"
    config.write_text(f'name = "p"\ngame = "schotten-totten"\nentrants = ["greedy", "random"]\n'
                      f'output_dir = "{tmp_path / "runs"}"\n')
    assert standoff("tournament", str(config)).returncode == 0
    run = tmp_path / "runs" / "p"
    modes = {name: stat.S_IMODE((run / name).stat().st_mode) for name in ("results.jsonl", "elo.jsonl", "ratings.json")}
    assert len(set(modes.values())) == 1, modes  # the same for every output...
    assert stat.S_IMODE((run / "master_seed").stat().st_mode) == 0o600  # ...and the secret kept private


def test_resume_ignores_what_does_not_change_results_and_names_what_does(tmp_path):
    text = f'name = "r"\ngame = "schotten-totten"\nentrants = ["greedy", "random"]\noutput_dir = "{tmp_path / "runs"}"\n'
    (tmp_path / "a.toml").write_text(text + "master_seed = 5\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.toml").write_text(text + "master_seed = 5\nconcurrency = 3\nworkers = 1\n")
    (tmp_path / "c.toml").write_text(text + "master_seed = 6\n")
    assert standoff("tournament", str(tmp_path / "a.toml")).returncode == 0
    assert standoff("tournament", "../a.toml", cwd=tmp_path / "sub").returncode == 0  # another spelling
    assert standoff("tournament", str(tmp_path / "sub" / "b.toml")).returncode == 0  # speed keys only
    one_line_error(standoff("tournament", str(tmp_path / "c.toml")), "master_seed: 5 → 6", "--fresh")


def test_a_ladder_plays_n_more_rounds_with_a_summary_after_each(tmp_path):
    config = tmp_path / "l.toml"
    config.write_text(f'name = "l"\ngame = "schotten-totten"\nentrants = ["greedy", "random"]\n'
                      f'games_per_pairing = 2\nformat = "ladder"\noutput_dir = "{tmp_path / "runs"}"\n')
    first = standoff("ladder", str(config), "--rounds", "2")
    second = standoff("ladder", str(config), "--rounds", "2")
    results = (tmp_path / "runs" / "l" / "results.jsonl").read_text().splitlines()
    assert len(results) == 8 and {json.loads(line)["round"] for line in results} == {1, 2, 3, 4}
    summaries = [line for line in second.stderr.splitlines() if line.startswith("after ")]
    assert [s.split(" rounds")[0] for s in summaries] == ["after 3", "after 4"]
    # off a terminal, a round's summary comes after that round's matches
    lines = first.stderr.splitlines()
    assert lines.index(next(l for l in lines if l.startswith("after 1"))) > max(
        i for i, l in enumerate(lines) if ": r001-" in l)


def test_report_says_which_records_do_not_replay(tmp_path):
    config = tmp_path / "d.toml"
    config.write_text(f'name = "d"\ngame = "schotten-totten"\nentrants = ["greedy", "random"]\n'
                      f'output_dir = "{tmp_path / "runs"}"\n')
    assert standoff("tournament", str(config)).returncode == 0
    run = tmp_path / "runs" / "d"
    victim = sorted((run / "records").glob("*.jsonl"))[0]
    victim.unlink()
    report = standoff("report", str(run), "--no-verify")
    assert report.returncode == 1 and "Traceback" not in report.stderr
    assert f"{victim.stem}: no record file" in report.stderr and "1 records could not be shown" in report.stderr


def test_match_started_sends_the_limits_in_force_and_errors_have_distinct_codes(server_thread):
    token = server_thread.tokens.add("twice")
    first = RawClient(server_thread.address, token)
    first.next("welcome")
    match_id = server_thread.start_match(["remote:twice", "random"], options={"first": "p1"}).match_id
    started = first.next("match_started").match_started
    assert started.match_id == match_id
    # no time control given: the referee's default limit per decision is what the seat is told
    assert (started.time_control.bank_ms, started.time_control.max_per_decision_ms) == (0, 30_000)
    second = RawClient(server_thread.address, token)  # the same bot reconnects
    second.next("welcome")
    superseded = first.next("error").error
    assert superseded.code == pb.ERROR_CODE_SUPERSEDED and "superseded" in superseded.message
    assert first.next() is None and first.status is None  # then its stream ends, status OK
    first.close(), second.close()


def test_a_tournament_with_a_remote_entrant_keeps_logs_off_stdout(tmp_path):
    config = tmp_path / "r.toml"
    config.write_text(f'name = "r"\ngame = "schotten-totten"\nentrants = ["greedy", "random", "remote:ghost"]\n'
                      f'remote_wait_s = 0\noutput_dir = "{tmp_path / "runs"}"\n')
    run = standoff("tournament", str(config), "--data-dir", str(tmp_path / "data"))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Matches: ")  # the report, from its first line: no log line before it
    assert not [line for line in run.stdout.splitlines() if line.startswith("{") or "[info" in line or "[warning" in line]
