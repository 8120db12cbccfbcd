"""Games are plugins end to end: a third game, Goofspiel, shipped as a distribution of its own
(``tests/plugins/goofspiel``: rules, its own view message, text boards and a bot), installed by
pip into a temporary folder (never into this environment), then played over gRPC by an SDK bot,
in a tournament, replayed and reported, with nothing in standoff naming it.
"""

from __future__ import annotations

import ast
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kits.conformance import (
    check_every_option_applies,
    check_replays,
    check_views_leak_free,
    fingerprint,
    random_match,
)
from standoff.sdk import Bot, MessageViewCodec, as_dict, capability
from standoff.sdk.types import HistoryBook, decode_decision
from standoff.sdk.views import JsonViewCodec, canonical_json, codec_for
from standoff.server.plugins import format_games, game_spec, load_registry
from standoff.server.wire import decision_message, encode_view, serialize
from standoff.v1 import referee_pb2 as pb

SOURCE = Path(__file__).parent / "plugins" / "goofspiel"
GAME = "goofspiel"
PROTO_ROOT = Path(__file__).resolve().parent.parent / "proto"


# --- the distribution, installed once for this module ------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin installed by pip into a folder of its own (built from a copy of its source, so
    that no build files land in the repository)."""
    root = tmp_path_factory.mktemp("goofspiel")
    source = root / "src"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = root / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "--target", str(target), str(source)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in target.glob("*.dist-info")) == ["standoff_goofspiel-0.1.dist-info"]
    return target


@pytest.fixture(scope="module")
def installed(site: Path):
    """The plugin on ``sys.path`` and on ``PYTHONPATH`` (the referee's bot runners and the CLI
    subprocesses find it there) for this module; its modules are forgotten afterwards."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(site))
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH", "")])))
        yield site
    for name in list(sys.modules):
        if name.split(".")[0] == "standoff_goofspiel":
            del sys.modules[name]


@pytest.fixture(scope="module")
def registry(installed: Path):
    return load_registry()


@pytest.fixture(scope="module")
def game(registry):
    return registry.game(GAME)


def _env_without_plugin() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                        if p and "goofspiel" not in p)
    return env


def _standoff(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


# --- registration ------------------------------------------------------------------------------------


def test_the_distribution_registers_its_game_and_bot(registry):
    spec = registry.spec(GAME)
    assert registry.problems == []
    assert spec.distribution == "standoff-goofspiel"
    assert isinstance(spec.codec, MessageViewCodec) and spec.codec.game == GAME
    assert spec.seat_board is not None and spec.state_board is not None and not spec.html_board
    assert type(spec.game).__module__ == "standoff_goofspiel.rules"
    assert capability(spec.game, "determinize") is not None
    assert capability(spec.game, "flags_claimed") is None
    bot = registry.bot("goofspiel-greedy")
    assert (bot.distribution, bot.trusted, bot.games) == ("standoff-goofspiel", False, (GAME,))
    # One table for the whole process: wire, SDK, replay and report find it by name.
    assert codec_for(GAME) is spec.codec
    assert game_spec(GAME) is spec
    assert list(registry.games)[:2] == ["schotten-totten", "twilight-struggle"]  # built-ins first
    row = next(line for line in format_games(registry).splitlines() if line.startswith(GAME))
    assert row.split()[:3] == [GAME, "p1,", "p2"]
    assert "plugin: goofspiel.v1.GoofspielView" in row and row.endswith("standoff-goofspiel")


def test_standoff_games_and_bots_list_the_plugin(installed):
    games = _standoff("games")
    assert games.returncode == 0, games.stderr
    assert any(line.startswith("goofspiel ") for line in games.stdout.splitlines())
    bots = _standoff("bots")
    assert any(line.startswith("goofspiel-greedy ") and "subprocess" in line for line in bots.stdout.splitlines())


def test_plugin_authors_import_only_from_the_sdk():
    plugin = (SOURCE / "standoff_goofspiel" / "plugin.py").read_text()
    for path in (SOURCE / "standoff_goofspiel").glob("*.py"):
        if path.name.endswith("_pb2.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("standoff.server"):
                # the rules use the engine contract's types; nothing else reaches into the server
                assert path.name == "rules.py" and node.module == "standoff.server.core.game", (path.name, node.module)
    assert "from standoff.sdk import BotSpec, GameSpec, hookimpl" in plugin


def test_a_bare_game_object_gets_the_generic_codec_and_boards(installed):
    from standoff_goofspiel.rules import Goofspiel

    from standoff.sdk import hookimpl
    from standoff.server.review import render_state, render_view

    class Bare(Goofspiel):
        name = "bare-goofspiel"

    class NotAGame:
        name = "coin-toss"

    class Plugin:
        @hookimpl
        def standoff_games(self):
            return [Bare(), NotAGame()]

    registry = load_registry(entry_points=False, extra_plugins=[Plugin()])
    spec = registry.spec("bare-goofspiel")
    assert type(spec.codec) is JsonViewCodec and spec.seat_board is None and spec.state_board is None
    assert any("NotAGame" in p and "expected a Game or a GameSpec" in p for p in registry.problems)
    game = registry.game("bare-goofspiel")
    state = game.new_state(game.rules())
    game.apply(state, game.decision(state).options[0])
    view = game.view(state, "p1")
    wire = encode_view("bare-goofspiel", view)
    assert wire.WhichOneof("game") == "plugin" and not wire.plugin.HasField("typed")
    assert json.loads(wire.plugin.json) == view
    assert "  prize: 1" in render_view(game, view)  # the generic listing of the view
    assert "-- as p1 --" in render_state(game, state) and "-- as p2 --" in render_state(game, state)


def test_the_plugins_generated_code_is_up_to_date(tmp_path):
    """goofspiel_pb2.py(i) are what the pinned protoc makes of goofspiel.proto (which imports
    standoff/v1/views.proto for HistoryEntry)."""
    protoc = pytest.importorskip("grpc_tools.protoc", reason="grpcio-tools (dev extra) bundles protoc")
    status = protoc.main(["protoc", f"-I{SOURCE}", f"-I{PROTO_ROOT}", f"--python_out={tmp_path}",
                          f"--pyi_out={tmp_path}", "standoff_goofspiel/goofspiel.proto"])
    assert status == 0
    for name in ("goofspiel_pb2.py", "goofspiel_pb2.pyi"):
        assert (tmp_path / "standoff_goofspiel" / name).read_text() == (SOURCE / "standoff_goofspiel" / name).read_text()


# --- the rules: pure, and the shared conformance suite -----------------------------------------------


def test_the_rules_code_is_pure(installed):
    forbidden = ["grpc", "trio", "structlog", "time", "os", "asyncio", "logging", "socket", "threading",
                 "subprocess", "io", "pathlib", "datetime"]
    code = (
        "import sys; before = set(sys.modules)\n"
        "import standoff_goofspiel.rules\n"
        f"bad = sorted(m for m in set(sys.modules) - before if m.split('.')[0] in {forbidden!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
    tree = ast.parse((SOURCE / "standoff_goofspiel" / "rules.py").read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {m for m in imported if m.split(".")[0] in forbidden}, imported


CASES = [({}, 2000), ({"cards": "3"}, 500), ({"cards": "13"}, 300)]
IDS = ["default", "cards=3", "cards=13"]


@pytest.mark.parametrize(("options", "count"), CASES, ids=IDS)
def test_conformance_terminates_and_replays(game, options, count):
    rules = game.rules(None, options)
    outcomes = set()
    for seed in range(count):
        record, state = random_match(game, rules, seed)
        check_replays(game, record, state)
        outcome = game.outcome(state)
        assert outcome.termination == "points"
        assert len(record.moves) == 3 * rules.cards  # a reveal and two bids per round
        outcomes.add(outcome.winner)
    assert outcomes == {"p1", "p2", None}  # wins both ways and draws (ties) all happen


@pytest.mark.parametrize(("options", "count"), CASES, ids=IDS)
def test_conformance_same_seed_same_record(game, options, count):
    rules = game.rules(None, options)
    for seed in range(0, count, 10):
        assert list(random_match(game, rules, seed)[0].lines()) == list(random_match(game, rules, seed)[0].lines())


@pytest.mark.parametrize(("options", "count"), CASES, ids=IDS)
def test_conformance_every_option_applies_and_copies_are_independent(game, options, count):
    rules = game.rules(None, options)
    for seed in range(count // 10):
        random_match(game, rules, seed, check=lambda state, decision, n: check_every_option_applies(game, state, decision))


@pytest.mark.parametrize(("options", "count"), CASES, ids=IDS)
def test_conformance_views_are_leak_free(game, options, count):
    rules = game.rules(None, options)
    rng = random.Random(11)
    for seed in range(count // 5):
        random_match(game, rules, seed, check=lambda state, decision, n: check_views_leak_free(game, state, rng))


def test_the_leak_check_can_see_a_leak(game):
    """Re-dealing p1's pending bid changes the state (p1's own view shows its bid), so the leak
    test is not vacuous; p2's view is unchanged."""
    state = game.new_state(game.rules())
    game.apply(state, game.decision(state).options[3])  # prize 4 up
    game.apply(state, game.decision(state).options[5])  # p1 bids 6: hidden from p2
    assert game.decision(state).role == "p2"
    rng = random.Random(3)
    worlds = [game.determinize(state, "p2", rng) for _ in range(6)]
    assert sum(fingerprint(game, w) != fingerprint(game, state) for w in worlds) >= 4
    assert all(game.view(w, "p2") == game.view(state, "p2") for w in worlds)
    assert game.view(state, "p2")["history"][-1] == [2, "p1", "bid", "card:hidden"]


# --- the wire and the SDK -----------------------------------------------------------------------------


def _states(game, seed: int, options=None):
    """Every state of a random match (copies), with its pending decision."""
    rules = game.rules(None, options or {})
    rng = random.Random(seed)
    state = game.new_state(rules)
    while (decision := game.decision(state)) is not None:
        yield state.copy(), decision
        game.apply(state, decision.options[rng.randrange(len(decision.options))])


def test_views_round_trip_through_the_wire_typed_and_as_json(game):
    codec = codec_for(GAME)
    generic = JsonViewCodec(GAME)
    book_typed, book_json = HistoryBook(), HistoryBook()
    sent = {"p1": 0, "p2": 0}
    for state, decision in _states(game, 5):
        if decision.role == "chance":
            continue
        role = decision.role
        full = game.view(state, role)
        view = game.view(state, role, sent[role])  # only what is new, as the referee sends it
        sent[role] = view["history"][-1][0] if view["history"] else sent[role]
        wire = encode_view(GAME, view)
        assert wire.WhichOneof("game") == "plugin" and wire.plugin.game == GAME
        assert wire.plugin.json == canonical_json(view) and json.loads(wire.plugin.json) == view
        assert wire.plugin.typed.type_url == "type.googleapis.com/goofspiel.v1.GoofspielView"
        message = decision_message("m", state.number + 1, decision, wire, {})
        bot_decision, typed = decode_decision(pb.PlayResponse.FromString(serialize(message)).decision)
        assert type(typed).__name__ == "GoofspielView" and bot_decision.keys() == [o.key for o in decision.options]
        assert as_dict(typed) == view == codec.to_dict(typed)
        # a bot without the plugin: the JSON, as a dict
        plain = generic.decode(pb.PlayResponse.FromString(serialize(message)).decision.view)
        assert plain == view
        # the history book completes both kinds
        book_typed.complete(f"m-{role}", typed)
        book_json.complete(f"m-{role}", plain)
        assert as_dict(typed) == plain == dict(full, history_from=0)


def test_a_bot_without_the_plugin_gets_a_dict(game, tmp_path):
    """In a process where the plugin is not installed, the SDK decodes the same bytes to the
    engine's dict (from the JSON)."""
    state, decision = next((s, d) for s, d in _states(game, 2) if d.role == "p2")
    view = game.view(state, "p2")
    data = serialize(decision_message("m1", state.number + 1, decision, encode_view(GAME, view), {}))
    (tmp_path / "decision.bin").write_bytes(data)
    code = (
        "import json, sys\n"
        "from standoff.sdk.types import decode_decision\n"
        "from standoff.v1 import referee_pb2 as pb\n"
        f"msg = pb.PlayResponse.FromString(open({str(tmp_path / 'decision.bin')!r}, 'rb').read())\n"
        "decision, view = decode_decision(msg.decision)\n"
        "print(json.dumps([type(view).__name__, view, decision.keys()]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env_without_plugin(),
                         check=True)
    kind, decoded, keys = json.loads(out.stdout)
    assert kind == "dict" and decoded == view and keys == [o.key for o in decision.options]
    # Where the plugin is installed, the SDK finds its codec by itself (no registry loaded).
    code = code.replace("print(json.dumps([type(view).__name__, view, decision.keys()]))",
                        "from standoff.sdk import as_dict\n"
                        "print(json.dumps([type(view).__name__, as_dict(view), decision.keys()]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    kind, decoded, _ = json.loads(out.stdout)
    assert kind == "GoofspielView" and decoded == view


def test_wire_bytes_are_identical_after_re_dealing_hidden_bids(game):
    """Every decision message is byte-identical (JSON and typed message alike) to the one built
    from a state where the other seat's pending bid was re-dealt."""
    rng = random.Random(1)
    checked = 0
    for seed in range(20):
        sent = {"p1": 0, "p2": 0}
        for state, decision in _states(game, seed):
            role = decision.role
            if role == "chance":
                continue
            since = sent[role]
            view = game.view(state, role, since)
            sent[role] = view["history"][-1][0] if view["history"] else since
            wire = serialize(decision_message("m", 1, decision, encode_view(GAME, view), {}).decision)
            for _ in range(2):
                other = game.determinize(state, role, rng)
                again = decision_message("m", 1, game.decision(other), encode_view(GAME, game.view(other, role, since)), {})
                assert serialize(again.decision) == wire
            checked += 1
    assert checked == 20 * 16


class Recorder(Bot):
    """An SDK bot for any game: bids at random, keeps what it was sent."""

    name = "recorder"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.views: list = []

    def choose(self, decision, view) -> int:
        self.views.append(view)
        return self.rng.randrange(len(decision.options))


def test_an_sdk_bot_plays_the_plugin_bot_over_grpc(registry, tmp_path):
    """A real server; the SDK bot connects over gRPC, the plugin's bot runs in a subprocess bot
    runner (third-party code never runs in the referee), both decode the plugin's view."""
    from kits.server import ServerThread

    from standoff.sdk.client import run_in_thread
    from standoff.server.core.record import parse_record, replay

    server = ServerThread(tmp_path, registry=registry).start()
    try:
        bot = Recorder(7)
        thread, box = run_in_thread(bot, server.address, server.tokens.add("alice"), matches=2)
        ids = [
            server.start_match(bots, game=GAME, seed=seed, wait=True, connect_timeout_ms=60_000).match_id
            for bots, seed in ((["remote:alice", "goofspiel-greedy"], 3), (["goofspiel-greedy", "remote:alice"], 4))
        ]
        thread.join(60)
        assert [r.match_id for r in box] == ids, box
        for match_id, result in zip(ids, box):
            assert result.termination == "points", result
            record = parse_record(server.record(match_id).splitlines())
            assert record.header["game"] == GAME
            assert registry.game(GAME).outcome(replay(registry.game(GAME), record)).termination == "points"
            greedy = next(role for role, name in record.header["roles"].items() if name == "goofspiel-greedy")
            assert all("rtt_ms" in m for m in record.moves if m["role"] == greedy)  # answered over the wire
        assert len(bot.views) == 16 and all(type(v).__name__ == "GoofspielView" for v in bot.views)
        last = as_dict(bot.views[7])  # the history book completed the incremental histories
        assert last["history_from"] == 0 and last["history"][0][:3] == [1, "chance", "reveal"]
        assert len(last["rounds"]) == 7
    finally:
        server.stop()


# --- the generic forward model: the game's determinize ------------------------------------------------


def test_the_generic_forward_model_rebuilds_every_view(game):
    """The plugin brings no forward model, only ``determinize``: ``Belief`` replays each view's
    history on the engine (trying the other seat's hidden bids until its revealed ones agree)
    and samples worlds with ``determinize``. At every seat's decision of random matches (a
    non-default option, passed as a bot gets it), the replayed state and every sample show the
    view exactly, the other seat's pending bid is re-dealt among the cards it has not shown,
    and a rollout from a sample ends."""
    from standoff.sdk.determinized import DeterminizedBelief
    from standoff.sdk.simulate import Belief, rollout

    assert game_spec(GAME).forward_model is None
    options = {"cards": "6"}
    rng = random.Random(5)
    checked = redealt = 0
    for seed in range(12):
        for state, decision in _states(game, seed, options):
            if decision.role == "chance":
                continue
            view = game.view(state, decision.role)
            belief = Belief(game, view, options=options)
            assert isinstance(belief.replayed, DeterminizedBelief)
            assert game.view(belief.state, decision.role) == view
            other = 1 - belief.me
            bids = set()
            for _ in range(6):
                world = belief.sample(rng)
                assert game.view(world, decision.role) == view
                bids.add(world.bids[other])
            if state.bids[other] is None:
                assert bids == {None}
            else:
                assert bids <= set(state.hands[other]) | {state.bids[other]}
                redealt += len(bids) > 1
            assert rollout(game, world, rng=rng).termination == "points"
            checked += 1
    assert checked == 12 * 2 * 6 and redealt > 20


def test_the_generic_forward_model_says_what_disagrees(game):
    from standoff.sdk.simulate import Belief, SimulationError

    state, _ = next((s, d) for s, d in _states(game, 3) if d.role == "p2" and len(s.rounds) == 2)
    view = game.view(state, "p2")
    Belief(game, view)  # the default options: the match's
    with pytest.raises(SimulationError, match="cards"):  # not the match's options
        Belief(game, view, options={"cards": "9"})
    tampered = json.loads(json.dumps(view))
    shown = next(e for e in tampered["history"] if e[1] == "p1" and e[2] == "show")
    shown[3] = "card:99"  # p1 never held it
    with pytest.raises(SimulationError, match=f"entry {shown[0]}"):
        Belief(game, tampered)

    class Blind(type(game)):  # the same game without the determinize capability
        determinize = None

    with pytest.raises(SimulationError, match="no forward model for game 'goofspiel'.*no determinize"):
        Belief(Blind(), view)


def test_the_search_bot_plays_the_plugin_game_through_the_generic_forward_model(registry, game):
    """``ismcts`` plays every game: for one it has no code for, it searches worlds sampled by the
    generic forward model. In both seats against ``random``, strict (an error raises instead of
    falling back), it searches every decision with a choice, takes no fallback, and wins most
    matches."""
    from standoff.server.local import play_match

    assert registry.bot("ismcts").plays(GAME)
    score = 0.0
    for seed in range(6):
        for me, other in (("p1", "p2"), ("p2", "p1")):
            bot = registry.make_bot("ismcts", seed, GAME)
            bot.strict, bot.iterations, bot.seconds = True, 160, None
            bots = {me: bot, other: registry.make_bot("random", seed, GAME)}
            result = play_match(game, game.rules(), bots, seed, match_id=f"search-{seed}-{me}")
            assert (bot.fallbacks, bot.searches) == (0, 7)  # 8 bids, the last one forced
            score += result.outcome.scores[("p1", "p2").index(me)]
    assert score >= 9, score


# --- positions: the plugin's format and text form, through the generic path ------------------------------


def _observed(game, state) -> str:
    """The decision and every view, but the history (a position starts none)."""
    decision = game.decision(state)
    views = {role: {k: v for k, v in game.view(state, role).items() if k not in ("history", "history_from")}
             for role in state.rules.roles}
    pending = None if decision is None else [decision.role, decision.step, [o.key for o in decision.options]]
    return json.dumps([views, pending, repr(game.outcome(state))], sort_keys=True)


@pytest.mark.parametrize("options", [{}, {"cards": "3"}], ids=["default", "cards=3"])
def test_positions_of_the_plugin_game_round_trip_as_json_and_text(game, options):
    from standoff.sdk.positions import from_position, to_position, write_notation

    rules = game.rules(None, options)
    seen = []

    def check(state, decision, n):
        position = to_position(state, GAME)  # found by name: the spec's PositionFormat
        text = write_notation(position)  # the spec's Notation
        for loaded in (from_position(GAME, json.loads(json.dumps(position))), from_position(game, text)):
            assert _observed(game, loaded) == _observed(game, state), (n, text)
            assert to_position(loaded, game) == position, (n, text)
        seen.append(n)

    for seed in range(20):
        random_match(game, rules, seed, check=check)
    assert len(seen) > 20 * 2 * 3


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p["hands"]["p1"].append(p["hands"]["p1"][0]), r"^hands\.p1: the cards 1 to 8 are not each in"),
    (lambda p: p.update(prize=None), r"^prizes: the cards 1 to 8"),
    (lambda p: (p["bids"].update(p2=1), p["hands"]["p2"].remove(1)), r"^bids\.p2: p1 bids first"),
    (lambda p: (p["bids"].update(p1=1, p2=2), p["hands"]["p1"].remove(1), p["hands"]["p2"].remove(2)),
     r"^bids: both bids are in"),
    (lambda p: p.update(scores={"p1": 99, "p2": 0}), r"^scores: the rounds give"),
    (lambda p: p.update(options={"cards": "99"}), r"^options: option cards='99'"),
])
def test_a_bad_plugin_position_is_one_line_naming_the_field(game, change, message):
    from standoff.sdk.positions import PositionError, from_position, to_position

    state = game.new_state(game.rules())
    game.apply(state, game.decision(state).options[2])  # prize 3 up, nobody has bid
    position = to_position(state, game)
    change(position)
    with pytest.raises(PositionError, match=message) as caught:
        from_position(GAME, position)
    assert "\n" not in str(caught.value)


def test_standoff_play_starts_the_plugin_game_from_a_position_and_replay_writes_it_back(installed, tmp_path):
    position = tmp_path / "late.txt"
    text = "goofspiel cards=4 number=7 prize=2 left=1 p1=1,4 p2=2,3 bids=-,- rounds=3:2-4,4:3-1"
    position.write_text(text + "\n")
    record = tmp_path / "from-position.jsonl"
    done = _standoff("play", GAME, "--bot", "random", "--bot", "random", "--seed", "3", "--position", str(position),
                     "--record", str(record))
    assert done.returncode == 0, done.stderr
    moves = [json.loads(line) for line in record.read_text().splitlines()[1:] if '"decision"' in line]
    assert [m["step"] for m in moves] == ["bid", "bid", "reveal", "bid", "bid"]  # from the position on
    back = _standoff("replay", str(record), "--position", "1", "--notation")
    assert back.returncode == 0, back.stderr
    assert back.stdout.strip() == text
    end = _standoff("replay", str(record), "--position", "6")  # replayed from the header's position
    assert end.returncode == 0, end.stderr
    final = json.loads(end.stdout)
    assert (final["prize"], final["prizes_left"], len(final["rounds"])) == (None, [], 4)
    assert final["rounds"][:2] == [{"prize": 3, "bids": {"p1": 2, "p2": 4}}, {"prize": 4, "bids": {"p1": 3, "p2": 1}}]
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("p2=2,3", "p2=2,2"))
    refused = _standoff("play", GAME, "--bot", "random", "--bot", "random", "--position", str(bad))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "hands.p2: the cards 1 to 4 are not each in exactly one place" in refused.stderr


def test_a_game_with_only_the_position_capabilities_gets_the_generic_format(installed):
    """A game object with ``to_position``/``from_position`` methods and no ``PositionFormat`` in
    its spec: positions, and records that start from one, go through its methods."""
    from standoff_goofspiel import position as goof
    from standoff_goofspiel.rules import Goofspiel

    from standoff.sdk import hookimpl
    from standoff.sdk.positions import PositionError, from_position, to_position
    from standoff.server.core.record import make_header, start_state

    class WithMethods(Goofspiel):
        name = "methods-goofspiel"

        def to_position(self, state):
            return {**goof.to_position(state), "game": self.name}

        def from_position(self, data):
            return goof.from_position({**data, "game": goof.NAME})

    class Plugin:
        @hookimpl
        def standoff_games(self):
            return [WithMethods()]

    registry = load_registry(entry_points=False, extra_plugins=[Plugin()])
    game = registry.game("methods-goofspiel")
    assert registry.spec("methods-goofspiel").positions is None
    state = game.new_state(game.rules(None, {"cards": "5"}))
    for index in (4, 0, 1):  # prize 5 up, p1 bids 1, p2 bids 2
        game.apply(state, game.decision(state).options[index])
    position = to_position(state, "methods-goofspiel")
    assert position["rounds"] == [{"prize": 5, "bids": {"p1": 1, "p2": 2}}] and position["game"] == "methods-goofspiel"
    loaded = from_position("methods-goofspiel", json.dumps(position))
    assert _observed(game, loaded) == _observed(game, state)
    header = make_header(game, loaded.rules, 1, {"p1": "random", "p2": "random"}, position=position)
    assert _observed(game, start_state(game, loaded.rules, header)) == _observed(game, state)
    with pytest.raises(PositionError, match=r"has no text notation: write the position as a JSON object"):
        from_position("methods-goofspiel", "methods-goofspiel cards=5")


# --- a tournament, its replays and its report -----------------------------------------------------------


@pytest.fixture(scope="module")
def run_dir(installed, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("goofspiel-tournament")
    config = folder / "goofspiel.toml"
    config.write_text(
        'name = "goofspiel-cup"\n'
        'game = "goofspiel"\n'
        'entrants = ["goofspiel-greedy", "random"]\n'
        "games_per_pairing = 4\n"
        "master_seed = 11\n"
        f"output_dir = {json.dumps(str(folder / 'runs'))}\n"
        "[options]\n"
        'cards = "6"\n'
    )
    done = _standoff("tournament", str(config))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "goofspiel-greedy" in done.stdout
    return folder / "runs" / "goofspiel-cup"


def test_a_tournament_of_the_plugin_game_completes_with_ratings(run_dir):
    results = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line.strip()]
    assert len(results) == 4 and all(r["termination"] == "points" for r in results)
    ratings = json.loads((run_dir / "ratings.json").read_text())
    players = {p["name"]: p for p in ratings["players"]}
    assert set(players) == {"goofspiel-greedy", "random"} and all(p["games"] == 4 for p in players.values())
    assert len(list((run_dir / "records").glob("*.jsonl"))) == 4
    verify = _standoff("verify", str(run_dir))
    assert verify.returncode == 0, verify.stderr  # replays every record by the plugin's rules


def test_standoff_replay_shows_the_games_own_boards(run_dir):
    record = sorted((run_dir / "records").glob("*.jsonl"))[0]
    everything = _standoff("replay", str(record))
    assert everything.returncode == 0, everything.stderr
    assert "goofspiel, 6 cards - everything" in everything.stdout  # the plugin's state_board
    assert "wins by points" in everything.stdout or "draw by points" in everything.stdout
    seat = _standoff("replay", str(record), "--as", "p2")
    assert seat.returncode == 0, seat.stderr
    assert "goofspiel, 6 cards - as seen by p2" in seat.stdout  # the plugin's seat_board
    assert "p1 bid -> card:hidden" in seat.stdout and "everything" not in seat.stdout
    # Without the plugin installed, the record's game is unknown: one clear line.
    missing = _standoff("replay", str(record), env=_env_without_plugin())
    assert missing.returncode == 2 and "unknown game 'goofspiel'" in missing.stderr


def test_standoff_report_shows_the_games_own_boards(run_dir):
    done = _standoff("report", str(run_dir))
    assert done.returncode == 0, done.stderr
    index = (run_dir / "report" / "index.html").read_text()
    assert "goofspiel" in index and "goofspiel-greedy" in index
    pages = sorted((run_dir / "report" / "matches").glob("*.html"))
    assert len(pages) == 4
    page = pages[0].read_text()
    assert "goofspiel, 6 cards - everything" in page  # omniscient track: the plugin's state_board
    tracks = {}
    for island in page.split('<script type="application/json" id="track-')[1:]:
        name = island.split('"', 1)[0]
        tracks[name] = json.loads(island.split(">", 1)[1].split("</script>", 1)[0])
    from standoff.tournaments.html import omniscient_boards

    for role in ("p1", "p2"):
        boards = omniscient_boards(tracks[role])  # seat tracks of a plugin game: text boards
        assert boards[0].startswith(f"goofspiel, 6 cards - as seen by {role}")
        assert all("everything" not in board for board in boards)
