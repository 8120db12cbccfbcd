"""A ladder open to submissions (config key ``submissions``, docs/submissions.md): two submitted
bots pinning clashing versions of one dependency play each other, in the sandbox where bubblewrap
is installed; a submission made between rounds joins at the next round; a retired one is not
scheduled again; a resume plays a round begun with the entrants it began with (``rounds.jsonl``).

The submitted bots check, at every decision, the version of ``clashlib`` they import and (in the
sandbox) that they see neither a file of the organiser's nor a network: any failure is a crash
fault of theirs, which the tests look for.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from kits import packages as P
from standoff.server.plugins import load_registry
from standoff.server.sandbox import backend_problem
from standoff.server.submissions import retire, submit
from standoff.tournaments.config import ConfigError, parse_config
from standoff.tournaments.report import read_results
from standoff.tournaments.rosters import Rosters
from standoff.tournaments.run_folder import prepare
from standoff.tournaments.runner import RunError, run_tournament
from standoff.tournaments.schedule import ladder_round

REGISTRY = load_registry()
SANDBOXED = backend_problem() is None


def _bot(tmp: Path, name: str, version: str | None, secret: Path) -> Path:
    """A wheel of bot ``name`` needing ``clashlib==version`` (None: no dependency)."""
    checks = []
    if version is not None:
        checks.append(f"assert clashlib.VERSION == {version!r}, clashlib.VERSION")
    if SANDBOXED:
        checks += [f"assert not os.path.exists({str(secret)!r}), 'I see the organiser\\'s files'",
                   "assert socket.if_nameindex() == [(1, 'lo')], socket.if_nameindex()"]
    body = "\n".join([*checks, "return self.rng.randrange(len(decision.options))"])
    imports = "import os, socket" + (", clashlib" if version is not None else "")
    package = f"{name}_bot"
    return P.write_wheel(tmp / name, f"{name}-bot", "0.1", P.bot_files(package, P.bot_module(name, imports=imports,
                                                                                              body=body)),
                         [f"clashlib=={version}"] if version else [], P.bot_entry_points(package))


@pytest.fixture(scope="module")
def registry_folder(tmp_path_factory) -> Path:
    """alice@1 (clashlib 1.0), bob@1 (clashlib 2.0) and, in a folder beside, carol's wheel."""
    root = tmp_path_factory.mktemp("ladder-subs")
    for version in ("1.0", "2.0"):
        P.write_wheel(root / "wheels", "clashlib", version, {"clashlib/__init__.py": f"VERSION = {version!r}\n"})
    # A file of the organiser's beside the registry, as a master seed or a token file would be:
    # run as the server's user, a bot sees it; in the sandbox, it must not.
    secret = root / "secret"
    secret.write_text("12345\n")
    for name, version in (("alice", "1.0"), ("bob", "2.0")):
        submit(_bot(root, name, version, secret), name, root / "subs", registry=REGISTRY, no_index=True,
               find_links=[str(root / "wheels")], unsandboxed=not SANDBOXED)
    _bot(root, "carol", None, secret)
    return root


@pytest.fixture
def here(tmp_path, registry_folder, monkeypatch) -> Path:
    """A copy of the module's registry (tests retire and submit), the current folder."""
    shutil.copytree(registry_folder, tmp_path, symlinks=True, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _config(**extra):
    data = {"name": "open", "game": "schotten-totten", "format": "ladder", "submissions": "subs",
            "games_per_pairing": 2, "concurrency": 2, **extra}
    if not SANDBOXED:
        data["unsandboxed"] = True  # the sandbox is tested where bubblewrap is installed
    return parse_config(data, source="open.toml", registry=REGISTRY)


def _round_of(results, number):
    return [r for r in results if r.round == number]


def test_conflicting_submissions_play_each_other_then_the_ladder_follows_the_registry(here):
    config = _config()
    summary = run_tournament(config, registry=REGISTRY, ladder=True, rounds=1)
    first = _round_of(summary.results, 1)
    assert sorted(tuple(r.seats.values()) for r in first) == [("alice@1", "bob@1"), ("bob@1", "alice@1")]
    for result in first:  # a crash (a wrong clashlib, the seed seen, a network) would be a fault
        assert result.faults == {} and result.termination not in ("error", "not_played", "forfeit"), result
    rounds = [json.loads(line) for line in (here / "runs/open/rounds.jsonl").read_text().splitlines()]
    assert rounds == [{"round": 1, "entrants": ["alice@1", "bob@1"], "first_index": 0}]

    # A round begun (its entrants recorded) when the run stopped; carol submits meanwhile. The
    # resume plays that round with the entrants it began with: carol waits for the next one.
    prepared = prepare(config, REGISTRY)
    assert prepared.rosters.round(2).entrants == ("alice@1", "bob@1")
    carol = submit(here / "carol" / "carol_bot-0.1-py3-none-any.whl", "carol", "subs", registry=REGISTRY,
                   no_index=True, unsandboxed=not SANDBOXED)
    assert carol.entrant == "carol@1"
    summary = run_tournament(config, registry=REGISTRY, ladder=True, rounds=1)
    assert {tuple(sorted(r.seats.values())) for r in _round_of(summary.results, 2)} == {("alice@1", "bob@1")}
    assert not _round_of(summary.results, 3)

    # Next round: carol is in, and bob, retired, is not scheduled.
    retire("subs", "bob@1")
    summary = run_tournament(config, registry=REGISTRY, ladder=True, rounds=1)
    third = _round_of(summary.results, 3)
    assert sorted(tuple(r.seats.values()) for r in third) == [("alice@1", "carol@1"), ("carol@1", "alice@1")]
    for result in third:
        assert result.faults == {} and result.termination not in ("error", "not_played", "forfeit"), result
    rounds = [json.loads(line) for line in (here / "runs/open/rounds.jsonl").read_text().splitlines()]
    assert [(r["round"], r["entrants"], r["first_index"]) for r in rounds] == [
        (1, ["alice@1", "bob@1"], 0), (2, ["alice@1", "bob@1"], 2), (3, ["alice@1", "carol@1"], 4)]
    # Each version is its own entrant in the ratings, bob@1 too (its results stay); the results
    # read back in play order (indices unique, increasing from round to round).
    names = {p["name"] for p in summary.ratings["players"]}
    assert names == {"alice@1", "bob@1", "carol@1"}
    assert [r.index for r in read_results(here / "runs/open/results.jsonl")] == [0, 1, 2, 3, 4, 5]


def test_a_submission_retired_in_a_round_begun_is_not_played_there(here):
    config = _config()
    prepare(config, REGISTRY).rosters.round(1)  # begun with alice@1 and bob@1
    retire("subs", "bob@1")
    summary = run_tournament(config, registry=REGISTRY, ladder=True, rounds=1)
    assert [(r.termination, r.reason) for r in summary.results] == [("not_played", "retired: bob@1")] * 2
    with pytest.raises(RunError, match=r"ladder round 2 needs at least 2 entrants; active now: alice@1"):
        run_tournament(config, registry=REGISTRY, ladder=True, rounds=1)


def test_the_config_names_submissions_with_one_line_errors(here):
    retire("subs", "bob@1")
    cases = [
        ({"format": "round_robin", "entrants": ["alice@1", "greedy"]}, None),
        ({"format": "round_robin", "entrants": ["alice@9", "greedy"]},
         "open.toml: entrants[0]: unknown submission 'alice@9' in subs (active: alice@1)"),
        ({"format": "round_robin", "entrants": ["bob@1", "greedy"]},
         "open.toml: entrants[0]: submission 'bob@1' is retired"),
        ({"format": "round_robin", "entrants": ["alice@1", "greedy"], "submissions": None},
         "open.toml: entrants[0]: 'alice@1' names a submitted bot: say where the registry is (submissions = \"DIR\")"),
        ({"format": "round_robin", "entrants": ["ts-heuristic", "random"], "game": "twilight-struggle"}, None),
        ({"format": "round_robin", "entrants": ["alice@1", "random"], "game": "twilight-struggle"},
         "open.toml: entrants[0]: submission 'alice@1' does not play twilight-struggle (it plays schotten-totten)"),
        ({"entrants": ["bob@1", "greedy"]}, None),  # a ladder's: its rounds leave it out
        ({"submissions": ""}, "open.toml: submissions: expected a folder path, got an empty string"),
        ({"submissions": 3}, "open.toml: submissions: expected a string, got 3"),
        ({"format": "round_robin"}, "open.toml: entrants: required"),
    ]
    for extra, expected in cases:
        data = {"name": "open", "game": "schotten-totten", "format": "ladder", "submissions": "subs",
                "games_per_pairing": 2, **extra}
        data = {k: v for k, v in data.items() if v is not None}
        try:
            config = parse_config(data, source="open.toml", registry=REGISTRY)
        except ConfigError as exc:
            assert expected is not None and str(exc).startswith(expected), (extra, str(exc))
            assert "\n" not in str(exc)
            continue
        assert expected is None, (extra, config)
    assert _config().entrants == () and _config().to_json()["submissions"] == "subs"


def test_rounds_of_different_entrants_number_their_matches_on(here):
    config = replace(_config(), master_seed=7, entrants=("greedy", "random"))
    small = ladder_round(config, 1)
    big = ladder_round(replace(config, entrants=("greedy", "random", "alice@1")), 2, first_index=len(small),
                       untrusted={"alice@1"})
    again = ladder_round(config, 3, first_index=len(small) + len(big))
    indices = [m.index for m in (*small, *big, *again)]
    assert indices == list(range(len(indices)))
    # The entrants' own matches keep their seeds whichever others a round has.
    full = {m.match_id: m.seed for m in ladder_round(replace(config, entrants=("greedy", "random", "alice@1")), 3)}
    assert all(full[m.match_id] == m.seed for m in again)
    # Paired legs among trusted bots keep unique pairs; a submission's pairings are unpaired.
    assert all(m.pair is None for m in big if "alice@1" in m.seats)
    pairs = [m.pair for m in (*small, *big, *again) if m.pair is not None]
    assert len(set(pairs)) * 2 == len(pairs)


def test_rosters_keep_a_torn_last_line_out(here):
    config = replace(_config(), master_seed=7)
    folder = here / "runs" / "open"
    folder.mkdir(parents=True)
    rosters = Rosters(config, folder)
    rosters.round(1)
    with open(folder / "rounds.jsonl", "a") as f:
        f.write('{"round": 2, "entr')  # killed mid-write
    again = Rosters(config, folder)
    assert sorted(again.rounds) == [1]
    assert again.round(2).first_index == 2
    assert len((folder / "rounds.jsonl").read_text().splitlines()) == 2


def test_without_bubblewrap_a_run_with_submissions_is_refused_before_any_match(here, monkeypatch):
    """Even an open ladder whose listed entrants are all built-in bots: its rounds add submitted
    bots, which run only in a sandbox (or with unsandboxed = true)."""
    import standoff.server.sandbox as sandbox

    missing = "bubblewrap (bwrap) is not installed: apt-get install bubblewrap, or run untrusted bots --unsandboxed"
    monkeypatch.setattr(sandbox, "_backend_problem", lambda: missing)
    config = parse_config({"name": "open", "game": "schotten-totten", "format": "ladder", "submissions": "subs",
                           "entrants": ["greedy"]}, source="open.toml", registry=REGISTRY)
    with pytest.raises(RunError) as caught:
        run_tournament(config, registry=REGISTRY, ladder=True, rounds=1)
    assert str(caught.value) == f"open.toml: submitted bots run only in a sandbox: {missing} (or unsandboxed = true / --unsandboxed)"
    assert not (here / "runs/open/results.jsonl").exists() or not (here / "runs/open/results.jsonl").read_text()

