"""benchmarks/gen_history.py, the scale benchmark's history: what it writes must be what the project
writes. A generated server data folder passes ``standoff verify`` with replays, its ledger's
digests are :func:`record_digest`'s, and a generated ladder run folder is one the ladder resumes
(the schedule's matches) and plays on from. Small histories; no timing is asserted."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import gen_history  # noqa: E402
from history_templates import ST, TS, Template, server_templates  # noqa: E402

from standoff.server.ledger import read_chain, record_digest  # noqa: E402
from standoff.server.local import play_match  # noqa: E402
from standoff.server.plugins import load_registry  # noqa: E402
from standoff.server.records import RecordWriter  # noqa: E402
from standoff.server.verify import verify_folder  # noqa: E402
from standoff.tournaments.config import load_config  # noqa: E402
from standoff.tournaments.run_folder import prepare  # noqa: E402
from standoff.tournaments.runner import run_tournament  # noqa: E402

SERVER_MATCHES = 40
LADDER_MATCHES = 30  # 5 rounds of 6


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


@pytest.fixture(scope="module")
def server_folder(registry, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gen-server")
    templates = server_templates(registry, tmp / "templates", seed=5, per_game=2)
    gen_history.generate_server(tmp / "server", SERVER_MATCHES, 5, templates)
    return tmp / "server"


@pytest.fixture(scope="module")
def ladder_folder(registry, tmp_path_factory):
    out = tmp_path_factory.mktemp("gen-ladder")
    gen_history.generate_ladder(out, LADDER_MATCHES, 5, registry, template_rounds=1)
    return out


def test_a_copys_digest_is_the_digest_of_the_file_it_writes(tmp_path, registry):
    """The digest computed from the template's pre-encoded lines equals record_digest of the
    copy's file, whatever the new header and outcome hold (a name outside ASCII included)."""
    game = registry.game(ST)
    path = tmp_path / "one.jsonl"
    bots = {"p1": registry.make_bot("greedy", 1, ST), "p2": registry.make_bot("random", 2, ST)}
    with RecordWriter(path) as writer:
        play_match(game, game.rules(None, {}), bots, 7, bot_names={"p1": "greedy", "p2": "random"},
                   match_id="one", on_line=writer.write)
    template = Template.from_file(path, "natural")
    assert record_digest(path) == template.copy("one", 7, {"p1": "greedy", "p2": "random"})[1]
    for roles, reason in (({"p1": "remote:zoë", "p2": "greedy"}, None), ({"p1": "a", "p2": "b"}, "arrêté: « fin »")):
        data, digest, footer = template.copy("c0ffee", 123, roles, reason)
        copy = tmp_path / "c0ffee.jsonl"
        copy.write_bytes(data)
        assert record_digest(copy) == digest
        header = json.loads(data.splitlines()[0])
        assert (header["match_id"], header["seed"], header["roles"]) == ("c0ffee", 123, roles)
        assert footer["winner"] == template.footer["winner"] and json.loads(data.splitlines()[-1]) == footer


def test_server_match_ids_are_distinct_and_the_same_for_a_seed():
    ids = gen_history.match_ids(3)
    first = [next(ids) for _ in range(20_000)]
    assert len(set(first)) == len(first) and all(len(i) == 12 and int(i, 16) >= 0 for i in first)
    again = gen_history.match_ids(3)
    assert [next(again) for _ in range(100)] == first[:100]


def test_a_generated_server_folder_verifies_with_replays(server_folder, registry):
    report = verify_folder(server_folder, registry=registry, replay_records=True)
    assert (report.lines, report.records, report.replayed, report.unreferenced) == (
        SERVER_MATCHES, SERVER_MATCHES, SERVER_MATCHES, [])


def test_the_server_ledgers_digests_are_record_digest(server_folder):
    lines = [line for _, line in read_chain(server_folder / "matches.jsonl")]
    for line in lines[::3]:
        ((name, digest),) = line["records"].items()
        assert name == f"{line['match_id']}.jsonl"
        assert record_digest(server_folder / "records" / name) == digest


def test_a_generated_server_history_is_a_mix(server_folder):
    """Both games, half each; several bots per game; endings by the rules and by the referee."""
    lines = [line for _, line in read_chain(server_folder / "matches.jsonl")]
    games = Counter(line["game"] for line in lines)
    assert games == {ST: SERVER_MATCHES // 2, TS: SERVER_MATCHES // 2}
    for game in (ST, TS):
        bots = {bot for line in lines if line["game"] == game for bot in line["seats"].values()}
        assert len(bots) >= 3, bots
    assert len({line["match_id"] for line in lines}) == SERVER_MATCHES
    assert len({line["termination"] for line in lines}) >= 4


def test_a_generated_ladder_is_resumed_from_the_next_round(ladder_folder, registry):
    config = load_config(ladder_folder / "ladder.toml", registry=registry)
    prepared = prepare(config, registry)  # verifies the folder (indexing it) and checks it against the schedule
    rounds = LADDER_MATCHES // 6
    try:
        assert prepared.index.count() == LADDER_MATCHES
        assert [r.index for r in prepared.index.results()] == list(range(LADDER_MATCHES))
        assert prepared.first == rounds + 1 and not prepared.done  # the next round: none of it played
    finally:
        prepared.index.close()
    report = verify_folder(prepared.folder, registry=registry, replay_records=True)
    assert report.replayed == LADDER_MATCHES

    summary = run_tournament(config, registry=registry, ladder=True, rounds=1)
    assert summary.complete and len(summary.results) == LADDER_MATCHES + 6
    assert {r.round for r in summary.results[LADDER_MATCHES:]} == {rounds + 1}
    assert verify_folder(prepared.folder, registry=registry, replay_records=False).lines == LADDER_MATCHES + 6
