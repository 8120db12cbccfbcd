"""Plugins: built-ins as default plugins, real installed distributions found through entry points,
and a tolerant loader (a broken plugin is reported with its distribution and skipped)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from standoff.sdk import Bot
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.plugins import (
    ENTRY_POINT_GROUP,
    BotSpec,
    PluginError,
    Registry,
    UnknownBot,
    UnsupportedGame,
    format_bots,
    format_games,
    hookimpl,
    load_registry,
)

ST = "schotten-totten"

# --- two real distributions, built and installed once per module --------------------------------

DEMO_PYPROJECT = """
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "standoff-demo"
version = "0.1"

[project.entry-points."standoff.bots"]
demo = "standoff_demo_plugin"

[tool.setuptools]
py-modules = ["standoff_demo_plugin"]
"""

DEMO_MODULE = '''
from standoff.sdk import Bot
from standoff.server.plugins import BotSpec, hookimpl


class DemoBot(Bot):
    """Always takes the last option.

    (More text that is not part of the description.)
    """

    name = "demo"
    games = ("schotten-totten",)

    def __init__(self, seed=0):
        super().__init__(seed)
        self.choices = 0

    def choose(self, decision, view):
        self.choices += 1
        return len(decision.options) - 1


@hookimpl
def standoff_bots():
    return [BotSpec.from_class(DemoBot)]
'''

#: One distribution, one broken plugin per entry point (plus one good bot and one that tries to
#: make itself trusted, in the module that also duplicates ``random``).
BROKEN_ENTRY_POINTS = {
    "import-error": "standoff_broken.import_error",
    "exits": "standoff_broken.exits",
    "raises": "standoff_broken.hook_raises",
    "not-a-list": "standoff_broken.not_a_list",
    "not-a-spec": "standoff_broken.not_a_spec",
    "duplicate": "standoff_broken.duplicate",
    "typo": "standoff_broken.typo",
    "no-hooks": "standoff_broken.no_hooks",
    "bad-signature": "standoff_broken.bad_signature",
    "bad-games": "standoff_broken.bad_games",
}

BROKEN_MODULES = {
    "__init__": "",
    "import_error": "import standoff_no_such_module_anywhere\n",
    "exits": "raise SystemExit(3)\n",
    "hook_raises": """
        from standoff.server.plugins import hookimpl

        @hookimpl
        def standoff_bots():
            raise RuntimeError("boom in hook")
    """,
    "not_a_list": """
        from standoff.bots import RandomBot
        from standoff.server.plugins import BotSpec, hookimpl

        @hookimpl
        def standoff_bots():
            return BotSpec("lonely", RandomBot)  # forgot the list
    """,
    "not_a_spec": """
        from standoff.server.plugins import hookimpl

        @hookimpl
        def standoff_bots():
            return [{"name": "dicty"}]
    """,
    "duplicate": """
        from standoff.sdk import Bot
        from standoff.server.plugins import BotSpec, hookimpl

        class Impostor(Bot):
            name = "random"
            def choose(self, decision, view):
                return 0

        class Sneaky(Bot):
            \"\"\"Claims to be trusted.\"\"\"
            name = "sneaky"
            def choose(self, decision, view):
                return 0

        @hookimpl
        def standoff_bots():
            return [BotSpec.from_class(Impostor), BotSpec.from_class(Sneaky, trusted=True)]
    """,
    "typo": """
        from standoff.server.plugins import hookimpl

        @hookimpl
        def standoff_bot():  # not a hook
            return []
    """,
    "no_hooks": """
        def standoff_bots():  # no @hookimpl
            return []
    """,
    "bad_signature": """
        from standoff.server.plugins import hookimpl

        @hookimpl
        def standoff_bots(config):
            return []
    """,
    "bad_games": """
        from standoff.server.games import GAMES
        from standoff.server.plugins import hookimpl

        @hookimpl
        def standoff_games():
            return [object(), GAMES["schotten-totten"]]
    """,
}

PLUGIN_MODULES = ("standoff_demo_plugin", "standoff_broken")


def _write_projects(root: Path) -> list[Path]:
    demo = root / "demo"
    demo.mkdir()
    (demo / "pyproject.toml").write_text(DEMO_PYPROJECT)
    (demo / "standoff_demo_plugin.py").write_text(textwrap.dedent(DEMO_MODULE))

    broken = root / "broken"
    (broken / "standoff_broken").mkdir(parents=True)
    eps = "\n".join(f'{name} = "{value}"' for name, value in BROKEN_ENTRY_POINTS.items())
    (broken / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [build-system]
            requires = ["setuptools"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "standoff-broken"
            version = "0.1"

            [tool.setuptools]
            packages = ["standoff_broken"]
            """
        )
        + f'\n[project.entry-points."{ENTRY_POINT_GROUP}"]\n{eps}\n'
    )
    for name, source in BROKEN_MODULES.items():
        (broken / "standoff_broken" / f"{name}.py").write_text(textwrap.dedent(source))
    return [demo, broken]


@pytest.fixture(scope="module")
def plugin_target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the two distributions, installed by pip (one call, offline)."""
    root = tmp_path_factory.mktemp("plugins")
    projects = _write_projects(root)
    target = root / "site"
    proc = subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
            "--no-index", "--disable-pip-version-check", "--target", str(target),
            *map(str, projects),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in target.glob("*.dist-info")) == [
        "standoff_broken-0.1.dist-info",
        "standoff_demo-0.1.dist-info",
    ]
    return target


@pytest.fixture
def installed(plugin_target: Path, monkeypatch: pytest.MonkeyPatch):
    """The plugins on ``sys.path`` for one test; their modules are forgotten afterwards."""
    monkeypatch.syspath_prepend(str(plugin_target))  # also invalidates the import caches
    yield plugin_target
    for name in list(sys.modules):
        if name.split(".")[0] in PLUGIN_MODULES:
            del sys.modules[name]


@pytest.fixture
def registry(installed: Path) -> Registry:
    return load_registry()


def _problem(registry: Registry, entry_point: str) -> str:
    found = [p for p in registry.problems if f"(entry point {entry_point} = " in p]
    assert len(found) == 1, registry.problems
    assert found[0].startswith(f"standoff-broken (entry point {entry_point} = {BROKEN_ENTRY_POINTS[entry_point]}): ")
    return found[0]


def _play(registry: Registry, first: str, second: str, seed: int = 5):
    game = get_game(ST)
    rules = game.rules()
    p1, p2 = rules.roles
    bots = {p1: registry.make_bot(first, 1, ST), p2: registry.make_bot(second, 2, ST)}
    return bots, play_match(game, rules, bots, seed)


# --- built-ins ------------------------------------------------------------------------------------


def test_builtins_are_default_plugins():
    registry = load_registry(entry_points=False)
    assert list(registry.bots)[:2] == ["random", "greedy"]
    for name in ("random", "greedy"):
        spec = registry.bot(name)
        assert spec.distribution == "standoff"
        assert spec.trusted is True
        assert spec.description
    assert registry.bot("random").games == ()
    assert registry.bot("greedy").games == (ST,)
    assert list(registry.games) == [ST, "twilight-struggle"]
    assert registry.game(ST) is get_game(ST)
    assert registry.problems == []
    assert registry.plugin_manager is not None and registry.plugin_manager.has_plugin("standoff.bots")


def test_builtins_are_found_with_entry_points_too():
    registry = load_registry()
    assert {"random", "greedy"} <= set(registry.bots)
    assert registry.bot("random").distribution == "standoff"


def test_make_bot_returns_a_working_bot():
    registry = load_registry(entry_points=False)
    bots, result = _play(registry, "greedy", "random")
    assert all(isinstance(bot, Bot) for bot in bots.values())
    assert result.outcome.winner in (None, *get_game(ST).rules().roles)
    assert len(result.record.moves) > 10


def test_unknown_bot_lists_known_names():
    registry = load_registry(entry_points=False)
    with pytest.raises(UnknownBot, match=r"unknown bot 'nope' \(known: greedy, ismcts, probability, random, ts-heuristic, ts-search\)") as info:
        registry.make_bot("nope", 1)
    assert isinstance(info.value, LookupError) and isinstance(info.value, PluginError)


def test_bot_that_does_not_play_the_game():
    registry = load_registry(entry_points=False)
    with pytest.raises(UnsupportedGame, match=r"bot 'greedy' does not play twilight-struggle \(it plays schotten-totten\)"):
        registry.make_bot("greedy", 1, "twilight-struggle")
    assert isinstance(registry.make_bot("random", 1, "twilight-struggle"), Bot)  # plays every game
    assert isinstance(registry.make_bot("greedy", 1, ""), Bot)  # no game given: no check


def test_from_class():
    class Solo(Bot):
        """Plays alone.

        Details.
        """

        name = "solo"
        games = ST  # a bare string is one game, not a tuple of letters

    spec = BotSpec.from_class(Solo)
    assert (spec.name, spec.games, spec.description, spec.trusted, spec.distribution) == (
        "solo", (ST,), "Plays alone.", False, ""
    )
    assert isinstance(spec.factory(3), Solo) and spec.factory(3).seed == 3

    class Undocumented(Bot):
        name = "undocumented"

    assert BotSpec.from_class(Undocumented).description == ""  # not Bot's docstring
    assert BotSpec.from_class(Undocumented, description="x", trusted=True).description == "x"
    with pytest.raises(TypeError, match="subclass of standoff.sdk.Bot"):
        BotSpec.from_class(object)  # type: ignore[arg-type]


def test_the_plugin_api_comes_from_the_sdk():
    """Plugin authors import the hook marker and the specs from standoff.sdk; the old names in
    standoff.server.plugins are the same objects."""
    import standoff.sdk as sdk
    from standoff.server import hookspecs, plugins

    assert sdk.hookimpl is plugins.hookimpl is hookspecs.hookimpl
    assert sdk.BotSpec is plugins.BotSpec and sdk.GameSpec is plugins.GameSpec


def test_builtin_games_are_registered_as_specs():
    from standoff.sdk.views import codec_for
    from standoff.server.plugins import game_spec

    registry = load_registry(entry_points=False)
    for name, member in ((ST, "schotten_totten"), ("twilight-struggle", "twilight_struggle")):
        spec = registry.spec(name)
        assert spec.game is get_game(name) and spec.distribution == "standoff" and spec.html_board
        assert spec.codec is codec_for(name) and spec.codec.member == member
        assert spec.seat_board is not None and spec.state_board is not None
        assert game_spec(name).codec is spec.codec


class _TinyGame:
    """Just enough of a game for the loader's checks."""

    rules_version = "1"
    rulesets = ("standard",)

    def __init__(self, name: str) -> None:
        self.name = name

    def rules(self, ruleset=None, options=None):
        raise NotImplementedError

    new_state = decision = apply = view = outcome = rules


class _GamePlugin:
    @hookimpl
    def standoff_games(self):
        from standoff.sdk import GameSpec
        from standoff.sdk.views import JsonViewCodec

        return [
            GameSpec(_TinyGame("tiny-wrong-codec"), codec=JsonViewCodec("another-game")),
            GameSpec(_TinyGame("tiny-bad-board"), seat_board="not a function"),
            GameSpec(_TinyGame("tiny-old-html"), html_board=True),  # before HtmlBoard, a flag
            GameSpec(_TinyGame("tiny-bad-rl"), rl={"keys": []}),
            GameSpec(_TinyGame("tiny-bad-links"), rules_links=(("rules", "file:///etc/passwd"),)),
            GameSpec(_TinyGame("tiny-bad-model"), forward_model=lambda game, view: None),
            _TinyGame("tiny-bare"),
            GameSpec(_TinyGame(ST)),
        ]


def test_game_specs_are_checked():
    from standoff.sdk.views import JsonViewCodec

    registry = load_registry(entry_points=False, extra_plugins=[_GamePlugin()])
    assert list(registry.games) == [ST, "twilight-struggle", "tiny-bare"]
    bare = registry.spec("tiny-bare")
    assert type(bare.codec) is JsonViewCodec and bare.codec.game == "tiny-bare"
    assert bare.distribution == "_GamePlugin"
    problems = "\n".join(registry.problems)
    assert "game 'tiny-wrong-codec': codec JsonViewCodec('another-game')" in problems
    assert "game 'tiny-bad-board': seat_board 'not a function' (str) is not callable" in problems
    assert "game 'tiny-old-html': html_board True is not a HtmlBoard (docs/games.md)" in problems
    assert "game 'tiny-bad-rl': rl {'keys': []} (dict) is not a GameRL (docs/games.md)" in problems
    assert "game 'tiny-bad-model': forward_model <function" in problems
    assert "(function) is not a ForwardModel (docs/games.md)" in problems
    assert "game 'schotten-totten' is already provided by standoff; this one is ignored" in problems
    assert "game 'tiny-bad-links': rules_links (('rules', 'file:///etc/passwd'),) (tuple) is not a tuple of " \
           "(title, http(s) address) pairs" in problems
    assert len(registry.problems) == 7


def test_standoff_games_lists_each_games_rules_links():
    listed = format_games(load_registry(entry_points=False)).splitlines()
    for name in (ST, "twilight-struggle"):
        links = [line for line in listed if line.startswith(f"{name} rules: ")]
        assert links and all(" https://" in line for line in links), listed


# --- plugins handed in by the caller (no installation) ---------------------------------------------


class _Good(Bot):
    name = "good"

    def choose(self, decision, view):
        return 0


class _ExtraPlugin:
    @hookimpl
    def standoff_bots(self):
        return [
            BotSpec.from_class(_Good, trusted=True),
            BotSpec("not-a-bot", lambda seed: object()),
            BotSpec("crashes", lambda seed: 1 / 0),
        ]


class _RaisingPlugin:
    @hookimpl
    def standoff_bots(self):
        raise ValueError("nope")


def test_extra_plugins():
    registry = load_registry(entry_points=False, extra_plugins=[_RaisingPlugin(), _ExtraPlugin()])
    assert registry.problems == ["_RaisingPlugin (extra plugin): standoff_bots() raised ValueError: nope"]
    good = registry.bot("good")
    assert (good.trusted, good.distribution) == (True, "_ExtraPlugin")  # the caller's code: kept
    assert isinstance(registry.make_bot("good", 0, ST), _Good)
    with pytest.raises(PluginError, match=r"bot 'not-a-bot' \(from _ExtraPlugin\): its factory returned .*object"):
        registry.make_bot("not-a-bot", 0)
    with pytest.raises(PluginError, match=r"bot 'crashes' \(from _ExtraPlugin\) failed to start: ZeroDivisionError"):
        registry.make_bot("crashes", 0)
    assert "skipped plugin _RaisingPlugin (extra plugin): standoff_bots() raised ValueError: nope" in format_bots(
        registry
    )
    with pytest.raises(UnknownBot, match="1 plugin problem, see `standoff bots`"):
        registry.bot("missing")


# --- installed distributions -------------------------------------------------------------------------


def test_third_party_plugin_is_discovered(registry: Registry):
    spec = registry.bot("demo")
    assert spec.distribution == "standoff-demo"
    assert spec.trusted is False
    assert spec.games == (ST,)
    assert spec.description == "Always takes the last option."
    assert registry.plugin_manager.has_plugin("standoff-demo:demo")


def test_third_party_bot_works(registry: Registry):
    bots, result = _play(registry, "demo", "random")
    demo = next(bot for bot in bots.values() if bot.name == "demo")
    assert type(demo).__module__ == "standoff_demo_plugin"
    assert demo.choices > 0
    assert result.outcome.termination
    with pytest.raises(UnsupportedGame, match="bot 'demo' does not play twilight-struggle"):
        registry.make_bot("demo", 1, "twilight-struggle")


def test_entry_points_can_be_turned_off(installed: Path):
    assert "demo" not in load_registry(entry_points=False).bots


def test_broken_plugins_are_skipped_and_reported(registry: Registry):
    # The good ones all load: built-ins, the demo plugin, the good bot next to the duplicate.
    assert list(registry.bots)[:2] == ["random", "greedy"]
    assert {"random", "greedy", "demo", "sneaky"} <= set(registry.bots)
    assert {"lonely", "dicty"}.isdisjoint(registry.bots)
    assert list(registry.games) == [ST, "twilight-struggle"]

    assert "failed to import: ModuleNotFoundError: No module named 'standoff_no_such_module_anywhere'" in _problem(
        registry, "import-error"
    )
    assert "failed to import: SystemExit: 3" in _problem(registry, "exits")
    assert "standoff_bots() raised RuntimeError: boom in hook" in _problem(registry, "raises")
    assert "standoff_bots() returned BotSpec(name='lonely'" in _problem(registry, "not-a-list")
    assert "expected a list" in _problem(registry, "not-a-list")
    assert "standoff_bots() returned {'name': 'dicty'} (dict), expected a standoff.sdk.BotSpec" in _problem(
        registry, "not-a-spec"
    )
    assert "bot 'random' is already provided by standoff; this one is ignored" in _problem(registry, "duplicate")
    assert "unknown hook 'standoff_bot'" in _problem(registry, "typo")
    assert "defines no @hookimpl" in _problem(registry, "no-hooks")
    assert "standoff_bots" in _problem(registry, "bad-signature")
    bad_games = [p for p in registry.problems if "(entry point bad-games = " in p]
    assert len(bad_games) == 2
    assert "standoff_games() returned <object object" in bad_games[0] and "expected a Game" in bad_games[0]
    assert "game 'schotten-totten' is already provided by standoff; this one is ignored" in bad_games[1]
    assert len(registry.problems) == len(BROKEN_ENTRY_POINTS) + 1  # bad-games has two

    # The built-in wins the name; nothing from the broken distribution is trusted.
    assert registry.bot("random").distribution == "standoff"
    assert type(registry.make_bot("random", 1)).__module__ == "standoff.bots.random_bot"
    sneaky = registry.bot("sneaky")
    assert (sneaky.distribution, sneaky.trusted, sneaky.description) == ("standoff-broken", False, "Claims to be trusted.")


def test_format_bots(registry: Registry):
    text = format_bots(registry)
    lines = text.splitlines()
    assert lines[0].split() == ["NAME", "GAMES", "RUNS", "DISTRIBUTION", "DESCRIPTION"]
    rows = {line.split()[0]: line for line in lines[1:] if line and not line.startswith("skipped")}
    assert rows["random"].split()[:4] == ["random", "any", "in-process", "standoff"]
    assert rows["greedy"].split()[:4] == ["greedy", ST, "in-process", "standoff"]
    assert rows["demo"].split()[:4] == ["demo", ST, "subprocess", "standoff-demo"]
    assert rows["demo"].endswith("Always takes the last option.")
    assert rows["sneaky"].split()[:4] == ["sneaky", "any", "subprocess", "standoff-broken"]
    # built-ins first, columns aligned
    builtins = sorted(load_registry(entry_points=False).bots)
    n = len(builtins)
    assert [line.split()[0] for line in lines[1 : n + 3]] == [*builtins, "demo", "sneaky"]
    assert len({line.index("RUNS") if i == 0 else line.index("in-process" if "in-process" in line else "subprocess")
                for i, line in enumerate(lines[:5])}) == 1
    skipped = [line for line in lines if line.startswith("skipped plugin ")]
    assert skipped == [f"skipped plugin {problem}" for problem in registry.problems]
    assert any(
        line.startswith("skipped plugin standoff-broken (entry point raises = standoff_broken.hook_raises): ")
        for line in skipped
    )


def test_format_bots_without_problems():
    text = format_bots(load_registry(entry_points=False))
    assert "skipped" not in text
    assert not text.endswith("\n") and len(text.splitlines()) == 1 + len(load_registry(entry_points=False).bots)


# --- third-party bots on the referee server --------------------------------------------------------


def test_third_party_bot_plays_on_the_server_in_a_subprocess(registry, installed, monkeypatch, tmp_path):
    """An untrusted plugin bot is never run in the referee's process: the server starts a
    `standoff bot run` subprocess that connects through the SDK with an ephemeral token."""
    import json
    import os

    from kits.server import ServerThread

    assert registry.bot("demo").trusted is False
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(installed), os.environ.get("PYTHONPATH", "")]))
    server = ServerThread(tmp_path, registry=registry).start()
    try:
        response = server.start_match(["demo", "random"], seed=3, wait=True, connect_timeout_ms=60_000)
        result = response.summary.result
        assert result.termination not in ("not_played", "forfeit"), result
        header = json.loads(server.record(response.match_id).splitlines()[0])
        assert header["roles"] == {"p1": "demo", "p2": "random"}
        moves = [json.loads(x) for x in server.record(response.match_id).splitlines()[1:-1]]
        assert any(m["role"] == "p1" and "rtt_ms" in m for m in moves)  # answered over the wire
    finally:
        server.stop()


def test_standoff_play_refuses_untrusted_plugins_unless_trusted(installed, capsys):
    from standoff.tournaments.cli import main

    assert main(["play", "schotten-totten", "--bot", "demo", "--bot", "random", "--seed", "1"]) == 2
    assert "third-party plugin (standoff-demo)" in capsys.readouterr().err
    assert main(["play", "schotten-totten", "--bot", "demo", "--bot", "random", "--seed", "1", "--trust"]) == 0
