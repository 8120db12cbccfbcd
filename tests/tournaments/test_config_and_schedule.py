"""Tournament configs (standoff.tournaments.config) and schedules (standoff.tournaments.schedule):
the example configs load, every bad config fails with one line naming the file and the key, and
schedules have the right size, order, seeds, seats and ids."""

from __future__ import annotations

import json
from dataclasses import replace
import re
import textwrap
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from standoff.server.core.game import RulesError
from standoff.server.plugins import BotSpec, Registry, load_registry
from standoff.tournaments.config import ConfigError, TournamentConfig, load_config, parse_config
from standoff.tournaments.schedule import ladder_round, matches_per_cycle, pairings, schedule

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [ROOT / "tournaments" / "demo.toml", *sorted((ROOT / "tournaments" / "configs").glob("*.toml"))]


# --- a registry with a few extra bots and games ------------------------------------------------


@dataclass(frozen=True)
class _FakeRules:
    ruleset: str
    options: dict
    roles: tuple[str, ...]


class _FakeGame:
    """A game with ``n`` roles and no options: enough for configs and schedules."""

    rulesets = ("standard",)
    rules_version = "1"

    def __init__(self, name: str, roles: tuple[str, ...]) -> None:
        self.name = name
        self._roles = roles

    def rules(self, ruleset=None, options=None):
        if ruleset not in (None, "standard"):
            raise RulesError(f"unknown ruleset {ruleset!r} for {self.name}")
        if options:
            raise RulesError(f"unknown option {next(iter(options))!r} for {self.name}")
        return _FakeRules(ruleset or "standard", {}, self._roles)

    def new_state(self, rules): ...
    def decision(self, state): ...
    def apply(self, state, option): ...
    def view(self, state, role, history_from=0): ...
    def outcome(self, state): ...


def _bot(name: str, *games: str) -> BotSpec:
    return BotSpec(name=name, factory=lambda seed: None, games=games, distribution="tests")


@pytest.fixture(scope="module")
def registry() -> Registry:
    reg = load_registry(entry_points=False)
    reg.games["tic"] = _FakeGame("tic", ("x", "o"))
    reg.games["trio"] = _FakeGame("trio", ("a", "b", "c"))
    for spec in (_bot("ticker", "tic"), _bot("alpha"), _bot("beta"), _bot("gamma"), _bot("remote_x"),
                 *(_bot(name) for name in plugins(6))):
        reg.bots[spec.name] = spec
    return reg


def cfg(registry: Registry, **data) -> TournamentConfig:
    # A schedule needs a master seed; without one (the default) a run draws a secret one.
    base = {"name": "t", "game": "schotten-totten", "entrants": ["greedy", "random"], "master_seed": 1}
    base.update(data)
    return parse_config(base, source="test.toml", registry=registry)


def remotes(n: int) -> list[str]:
    return [f"remote:bot{i}" for i in range(n)]


def plugins(n: int) -> list[str]:
    """Plugin bots of the test registry: ``schedule(config)`` pairs their legs (remote entrants'
    pairings are always unpaired)."""
    return [f"plugin{i}" for i in range(n)]


# --- valid configs -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_configs_load(path: Path, registry: Registry) -> None:
    config = load_config(path, registry=registry)
    assert config.source == str(path)
    assert config.roles() == {"schotten-totten": ("p1", "p2"), "twilight-struggle": ("ussr", "us")}[config.game]
    seeded = replace(config, master_seed=1) if config.master_seed is None else config
    matches = ladder_round(seeded, 1) if config.format == "ladder" else schedule(seeded)
    assert matches
    # config.json form: JSON-ready, and read back into the same configuration
    data = json.loads(json.dumps(config.to_json()))
    assert TournamentConfig.from_json(data, registry=registry) == config


def test_demo_loads_with_the_default_registry() -> None:
    config = load_config(ROOT / "tournaments" / "demo.toml")
    assert (config.name, config.game, config.format) == ("demo", "schotten-totten", "round_robin")
    assert config.entrants == ("greedy", "random")
    assert config.paired_seeds and config.games_per_pairing % 2 == 0
    assert config.run_dir == Path("runs") / "demo"
    assert config.master_seed is None  # the demo shows the default: a secret seed per run
    assert len(schedule(replace(config, master_seed=7))) == config.games_per_pairing
    with pytest.raises(ValueError, match="no master_seed"):
        schedule(config)


def test_demo_documents_every_key() -> None:
    text = (ROOT / "tournaments" / "demo.toml").read_text()
    for key in (
        "name", "game", "ruleset", "[options]", "entrants", "format", "gauntlet", "games_per_pairing",
        "paired_seeds", "[match]", "games", "target_score", "[time_control]", "bank_ms", "increment_ms",
        "max_per_decision_ms", "[faults]", "policy", "retries", "concurrency", "workers", "master_seed",
        "output_dir", "remote_wait_s", "address", "[elo]", "k =", "start", "submissions",
    ):
        assert key in text, key


def test_defaults(registry: Registry) -> None:
    config = parse_config({"name": "t", "game": "schotten-totten", "entrants": ["greedy", "random"]},
                          source="test.toml", registry=registry)
    assert config.ruleset is None and config.options == {}
    assert config.format == "round_robin" and config.gauntlet == ()
    assert config.games_per_pairing == 2 and config.paired_seeds is True
    assert config.match_games is None and config.target_score is None and not config.multi_game
    assert (config.bank_ms, config.increment_ms, config.max_per_decision_ms) == (0, 0, 0)
    assert (config.fault_policy, config.retries) == ("forfeit", 2)
    assert config.concurrency == 2 and 1 <= config.workers <= 2
    assert config.master_seed is None and config.output_dir == "runs"
    assert config.remote_wait_s == 30.0 and config.address == "127.0.0.1:0"
    assert (config.elo_k, config.elo_start) == (32, 1500)


def test_every_key_is_read(registry: Registry) -> None:
    config = cfg(
        registry,
        ruleset="classic",
        options={"claim_timing": "end_of_turn"},
        entrants=["greedy", "random", "remote:me.v2"],
        format="gauntlet",
        gauntlet=["remote:me.v2"],
        games_per_pairing=3,
        paired_seeds=False,
        match={"games": 3, "target_score": 12},
        time_control={"bank_ms": 60000, "increment_ms": 100, "max_per_decision_ms": 5000},
        faults={"policy": "retry", "retries": 0},
        concurrency=4,
        workers=3,
        master_seed=-9,
        output_dir="/tmp/out",
        remote_wait_s=2.5,
        address="[::1]:50051",
        elo={"k": 16, "start": 1200.0},
    )
    assert config.ruleset == "classic" and config.options == {"claim_timing": "end_of_turn"}
    assert config.remote_entrants == ("remote:me.v2",)
    assert config.gauntlet == ("remote:me.v2",) and config.games_per_pairing == 3
    assert (config.match_games, config.target_score) == (3, 12) and config.multi_game
    assert (config.bank_ms, config.increment_ms, config.max_per_decision_ms) == (60000, 100, 5000)
    assert (config.fault_policy, config.retries) == ("retry", 0)
    assert (config.concurrency, config.workers, config.master_seed) == (4, 3, -9)
    assert config.run_dir == Path("/tmp/out/t")
    assert (config.remote_wait_s, config.address, config.elo_k, config.elo_start) == (2.5, "[::1]:50051", 16, 1200.0)
    assert TournamentConfig.from_json(config.to_json(), registry=registry) == config
    hash(config)  # frozen and hashable despite the options dict


# --- bad configs: one line naming the file and the key -----------------------------------------

GOOD = """\
name = "t"
game = "schotten-totten"
entrants = ["greedy", "random"]
"""

BAD = [
    # (id, TOML text, key, part of the message)
    ("unknown key", GOOD + 'formt = "gauntlet"\n', "formt", "did you mean 'format'"),
    ("unknown table", GOOD + "[option]\ntactics = 'off'\n", "option", "unknown key"),
    ("unknown nested key", GOOD + "[time_control]\nbank = 5\n", "time_control.bank", "known: bank_ms, increment_ms"),
    ("unknown faults key", GOOD + "[faults]\nretry = 1\n", "faults.retry", "unknown key"),
    ("missing name", 'game = "schotten-totten"\nentrants = ["greedy", "random"]\n', "name", "required"),
    ("bad name", GOOD.replace('"t"', '"my tournament"'), "name", "letters, digits"),
    ("dots name", GOOD.replace('"t"', '".."'), "name", "letters, digits"),
    ("name not a string", GOOD.replace('"t"', "5"), "name", "expected a string, got 5"),
    ("missing game", 'name = "t"\nentrants = ["greedy", "random"]\n', "game", "required"),
    ("unknown game", GOOD.replace('"schotten-totten"', '"chess"'), "game", "unknown game 'chess' (known:"),
    ("unknown ruleset", GOOD + 'ruleset = "modern"\n', "ruleset", "unknown ruleset 'modern'"),
    ("missing entrants", 'name = "t"\ngame = "schotten-totten"\n', "entrants", "required"),
    ("one entrant", GOOD.replace('"greedy", "random"', '"greedy"'), "entrants", "at least 2"),
    ("entrants not a list", GOOD.replace('["greedy", "random"]', '"greedy"'), "entrants", "expected an array"),
    ("entrant not a string", GOOD.replace('"random"', "3"), "entrants[1]", "expected a string, got 3"),
    ("unknown bot", GOOD.replace('"random"]', '"random", "gredy"]'), "entrants[2]", "unknown bot 'gredy' (known: "),
    ("duplicate entrant", GOOD.replace('"random"]', '"random", "greedy"]'), "entrants[2]", "duplicate entrant 'greedy'"),
    ("duplicate remote", GOOD.replace('"random"]', '"remote:a", "remote:a"]'), "entrants[2]", "duplicate entrant 'remote:a'"),
    ("bot not playing the game", GOOD.replace('"random"]', '"ticker"]'), "entrants[1]", "does not play schotten-totten"),
    ("bad remote name", GOOD.replace('"random"', '"remote:-x"'), "entrants[1]", "bad remote entrant"),
    ("empty remote name", GOOD.replace('"random"', '"remote:"'), "entrants[1]", "bad remote entrant"),
    ("bad option value", GOOD + "[options]\ntactics = 'maybe'\n", "options", "choose from on, off"),
    ("unknown option", GOOD + "[options]\ntactic = 'off'\n", "options", "unknown option 'tactic'"),
    ("option not a string", GOOD + "[options]\ndecision_cap = 500\n", "options.decision_cap", 'quote it: "500"'),
    ("options not a table", GOOD + 'options = "tactics=off"\n', "options", "expected a table"),
    ("odd games, paired", GOOD + "games_per_pairing = 5\n", "games_per_pairing", "must be even"),
    ("zero games", GOOD + "games_per_pairing = 0\n", "games_per_pairing", "expected a whole number >= 1, got 0"),
    ("float games", GOOD + "games_per_pairing = 2.0\n", "games_per_pairing", "whole number >= 1, got 2.0"),
    ("bool games", GOOD + "games_per_pairing = true\n", "games_per_pairing", "got true (a boolean)"),
    ("paired not bool", GOOD + 'paired_seeds = "yes"\n', "paired_seeds", "expected true or false"),
    ("unknown format", GOOD + 'format = "swiss"\n', "format", "expected one of round_robin, double_round_robin"),
    ("gauntlet without list", GOOD + 'format = "gauntlet"\n', "gauntlet", "required"),
    ("gauntlet empty", GOOD + 'format = "gauntlet"\ngauntlet = []\n', "gauntlet", "at least one"),
    ("gauntlet unknown name", GOOD + 'format = "gauntlet"\ngauntlet = ["randm"]\n', "gauntlet[0]", "'randm' is not an entrant"),
    ("gauntlet everyone", GOOD + 'format = "gauntlet"\ngauntlet = ["greedy", "random"]\n', "gauntlet", "at least one entrant out"),
    ("gauntlet duplicate", GOOD + 'format = "gauntlet"\ngauntlet = ["greedy", "greedy"]\n', "gauntlet[1]", "duplicate"),
    ("gauntlet list, other format", GOOD + 'gauntlet = ["greedy"]\n', "gauntlet", 'only used with format = "gauntlet"'),
    ("bad policy", GOOD + "[faults]\npolicy = 'ignore'\n", "faults.policy", "expected one of forfeit, random, retry, got 'ignore'"),
    ("negative retries", GOOD + "[faults]\nretries = -1\n", "faults.retries", ">= 0, got -1"),
    ("negative bank", GOOD + "[time_control]\nbank_ms = -5\n", "time_control.bank_ms", "expected a whole number >= 0, got -5"),
    ("string increment", GOOD + "[time_control]\nincrement_ms = '100'\n", "time_control.increment_ms", "got '100' (a string)"),
    ("time_control not a table", GOOD + "time_control = 5\n", "time_control", "expected a table"),
    ("zero concurrency", GOOD + "concurrency = 0\n", "concurrency", ">= 1, got 0"),
    ("zero workers", GOOD + "workers = 0\n", "workers", ">= 1, got 0"),
    ("float seed", GOOD + "master_seed = 1.5\n", "master_seed", "expected a whole number, got 1.5"),
    ("negative wait", GOOD + "remote_wait_s = -1\n", "remote_wait_s", "expected a number >= 0, got -1"),
    ("nan wait", GOOD + "remote_wait_s = nan\n", "remote_wait_s", "expected a number"),
    ("output_dir not a string", GOOD + "output_dir = 3\n", "output_dir", "expected a string"),
    ("empty output_dir", GOOD + "output_dir = ''\n", "output_dir", "empty"),
    ("bad address", GOOD + "address = 'localhost'\n", "address", 'expected "HOST:PORT"'),
    ("bad port", GOOD + "address = 'localhost:99999'\n", "address", 'expected "HOST:PORT"'),
    ("zero elo k", GOOD + "[elo]\nk = 0\n", "elo.k", "expected a number > 0, got 0"),
    ("string elo start", GOOD + "[elo]\nstart = 'x'\n", "elo.start", "expected a number"),
    ("empty match", GOOD + "[match]\n", "match", "games = N and/or target_score"),
    ("match zero games", GOOD + "[match]\ngames = 0\n", "match.games", ">= 1, got 0"),
    ("match negative target", GOOD + "[match]\ntarget_score = -3\n", "match.target_score", ">= 1, got -3"),
    ("match unknown key", GOOD + "[match]\nrounds = 3\n", "match.rounds", "known: games, target_score"),
    (
        "match on another game",
        'name = "t"\ngame = "tic"\nentrants = ["ticker", "random"]\n[match]\ngames = 3\n',
        "match",
        "only defined for schotten-totten, not 'tic'",
    ),
    (
        "three roles, too few entrants",
        'name = "t"\ngame = "trio"\nentrants = ["random", "alpha"]\ngames_per_pairing = 3\n',
        "entrants",
        "at least 3 entrants",
    ),
    (
        "three roles, paired games not a multiple of 3",
        'name = "t"\ngame = "trio"\nentrants = ["random", "alpha", "beta"]\n',
        "games_per_pairing",
        "multiple of 3",
    ),
]


@pytest.mark.parametrize(("text", "key", "fragment"), [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_config_is_one_line_naming_file_and_key(
    text: str, key: str, fragment: str, tmp_path: Path, registry: Registry
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path, registry=registry)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}: "), message
    assert fragment in message, message
    assert (info.value.source, info.value.key) == (str(path), key)
    assert isinstance(info.value, ValueError)


def test_unknown_key_lists_the_known_keys(registry: Registry) -> None:
    with pytest.raises(ConfigError, match=r"^x\.toml: colour: unknown key \(known: name, game, ruleset, options"):
        parse_config({"name": "t", "colour": "red"}, source="x.toml", registry=registry)


def test_unknown_bot_message(registry: Registry) -> None:
    with pytest.raises(ConfigError) as info:
        cfg(registry, entrants=["greedy", "random", "gredy"])
    assert str(info.value).startswith("test.toml: entrants[2]: unknown bot 'gredy' (known: alpha, beta, gamma, greedy, ")


def test_toml_syntax_error_has_line_and_column(tmp_path: Path, registry: Registry) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "t"\ngame = "schotten-totten"\nentrants = ["greedy" "random"]\n')
    with pytest.raises(ConfigError) as info:
        load_config(path, registry=registry)
    message = str(info.value)
    assert re.fullmatch(rf"{re.escape(str(path))}: line 3, column \d+: TOML syntax error: .+", message), message


def test_missing_file(tmp_path: Path, registry: Registry) -> None:
    with pytest.raises(ConfigError, match=r"nope\.toml: cannot read the file"):
        load_config(tmp_path / "nope.toml", registry=registry)


# --- schedules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("games", [2, 4])
def test_round_robin_sizes(n: int, games: int, registry: Registry) -> None:
    entrants = remotes(n)
    single = schedule(cfg(registry, entrants=entrants, games_per_pairing=games))
    double = schedule(cfg(registry, entrants=entrants, games_per_pairing=games, format="double_round_robin"))
    assert len(single) == n * (n - 1) // 2 * games
    assert len(double) == 2 * len(single)
    assert [m.index for m in double] == list(range(len(double)))
    assert {m.round for m in single} == {1} and {m.round for m in double} == {1, 2}
    # every pair of entrants meets `games` times per cycle
    meetings = Counter(frozenset(m.seats) for m in single)
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {games}


@pytest.mark.parametrize(("n", "g"), [(3, 1), (5, 2), (6, 3)])
def test_gauntlet_size(n: int, g: int, registry: Registry) -> None:
    entrants = remotes(n)
    config = cfg(registry, entrants=entrants, format="gauntlet", gauntlet=entrants[-g:], games_per_pairing=4)
    matches = schedule(config)
    assert len(matches) == g * (n - g) * 4 == matches_per_cycle(config)
    for match in matches:  # each match: exactly one gauntlet entrant against one outsider
        assert len(set(match.seats) & set(config.gauntlet)) == 1


def test_canonical_order(registry: Registry) -> None:
    config = cfg(registry, entrants=["remote:a", "remote:b", "remote:c"], games_per_pairing=2)
    assert pairings(config) == [("remote:a", "remote:b"), ("remote:a", "remote:c"), ("remote:b", "remote:c")]
    assert [m.match_id for m in schedule(config)] == [
        "c1-remote_a-vs-remote_b-g01",
        "c1-remote_a-vs-remote_b-g02",
        "c1-remote_a-vs-remote_c-g01",
        "c1-remote_a-vs-remote_c-g02",
        "c1-remote_b-vs-remote_c-g01",
        "c1-remote_b-vs-remote_c-g02",
    ]


def test_paired_legs_share_seed_and_swap_seats(registry: Registry) -> None:
    matches = schedule(cfg(registry, entrants=plugins(4), games_per_pairing=6, format="double_round_robin"))
    assert all(m.pair is not None for m in matches)
    for leg0, leg1 in zip(matches[::2], matches[1::2]):
        assert (leg0.leg, leg1.leg) == (0, 1)
        assert leg0.seed == leg1.seed and leg0.pair == leg1.pair and leg0.round == leg1.round
        assert leg1.seats == leg0.seats[::-1]
        assert leg1.index == leg0.index + 1
    pairs = [m.pair for m in matches[::2]]
    assert len(set(pairs)) == len(pairs)  # a pair id per seed, unique over the tournament
    seeds = [m.seed for m in matches[::2]]
    assert len(set(seeds)) == len(seeds)  # every pair its own seed (cycles differ too)


def test_unpaired_matches_have_their_own_seeds(registry: Registry) -> None:
    matches = schedule(cfg(registry, entrants=remotes(3), games_per_pairing=5, paired_seeds=False))
    assert all(m.pair is None and m.leg == 0 for m in matches)
    assert len({m.seed for m in matches}) == len(matches)


def test_seed_formula(registry: Registry) -> None:
    from standoff.server.core.seeds import derive_seed

    config = cfg(registry, entrants=["random", "greedy"], games_per_pairing=4, master_seed=42)
    matches = schedule(config)
    # names sorted, pair number from 1
    assert [m.seed for m in matches] == [
        derive_seed(42, "match", 1, "greedy", "random", n) for n in (1, 1, 2, 2)
    ]


def test_match_ids_unique_safe_and_stable(registry: Registry) -> None:
    config = cfg(
        registry,
        entrants=["greedy", "random", "remote:x", "remote_x", "remote:a.b-c_d"],
        games_per_pairing=12,
        format="double_round_robin",
    )
    matches = schedule(config)
    ids = [m.match_id for m in matches]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", i) for i in ids)
    assert ids == [m.match_id for m in schedule(load_again(config, registry))]
    # "remote:x" and "remote_x" both read "remote_x": those ids carry their index
    assert "c1-greedy-vs-remote_x-g01-i" in " ".join(ids)


def load_again(config: TournamentConfig, registry: Registry) -> TournamentConfig:
    return TournamentConfig.from_json(json.loads(json.dumps(config.to_json())), registry=registry)


def test_determinism(registry: Registry) -> None:
    data = {"entrants": remotes(4), "games_per_pairing": 4, "format": "double_round_robin"}
    first = schedule(cfg(registry, **data))
    assert first == schedule(cfg(registry, **data))
    assert first == schedule(load_again(cfg(registry, **data), registry))
    other = schedule(cfg(registry, master_seed=2, **data))
    assert [m.match_id for m in other] == [m.match_id for m in first]
    assert not {m.seed for m in other} & {m.seed for m in first}


def test_seeds_do_not_depend_on_list_positions(registry: Registry) -> None:
    a = schedule(cfg(registry, entrants=plugins(4), games_per_pairing=2))
    b = schedule(cfg(registry, entrants=plugins(4)[::-1], games_per_pairing=2))
    c = schedule(cfg(registry, entrants=[*plugins(4), "greedy"], games_per_pairing=2))

    def seeds(matches):
        return {(frozenset(m.seats), m.pair is not None and m.leg): m.seed for m in matches}

    assert seeds(a) == seeds(b)
    assert seeds(a).items() <= seeds(c).items()


@pytest.mark.parametrize(("n", "games"), [(2, 1), (4, 1), (5, 1), (6, 1), (5, 3), (4, 5)])
def test_p1_balance_without_paired_seeds(n: int, games: int, registry: Registry) -> None:
    matches = schedule(cfg(registry, entrants=remotes(n), games_per_pairing=games, paired_seeds=False))
    played = Counter(e for m in matches for e in m.seats)
    first = Counter(m.seats[0] for m in matches)
    for entrant in remotes(n):
        assert abs(2 * first[entrant] - played[entrant]) <= max(2, games), (entrant, first, played)
    if n > 2:
        assert all(0 < first[e] < played[e] for e in remotes(n))  # nobody always or never first
    # within a pairing, who sits first alternates
    by_pairing: dict[frozenset, list[str]] = {}
    for m in matches:
        by_pairing.setdefault(frozenset(m.seats), []).append(m.seats[0])
    for firsts in by_pairing.values():
        assert all(x != y for x, y in zip(firsts, firsts[1:]))


def test_double_round_robin_flips_first_seat(registry: Registry) -> None:
    matches = schedule(
        cfg(registry, entrants=remotes(3), games_per_pairing=1, paired_seeds=False, format="double_round_robin")
    )
    cycle1, cycle2 = matches[:3], matches[3:]
    for a, b in zip(cycle1, cycle2):
        assert b.seats == a.seats[::-1]


def test_three_roles_rotate_seats(registry: Registry) -> None:
    config = cfg(registry, game="trio", entrants=["random", "alpha", "beta", "gamma"], games_per_pairing=3)
    assert config.roles() == ("a", "b", "c")
    matches = schedule(config)
    assert len(matches) == 4 * 3  # C(4, 3) groups × 3 games
    for legs in zip(matches[::3], matches[1::3], matches[2::3]):
        assert [m.leg for m in legs] == [0, 1, 2]
        assert len({m.seed for m in legs}) == 1 and len({m.pair for m in legs}) == 1
        assert {m.seats[0] for m in legs} == set(legs[0].seats)  # everyone sits first once
        assert all(sorted(m.seats) == sorted(legs[0].seats) for m in legs)


def test_ladder_rounds(registry: Registry) -> None:
    config = cfg(registry, entrants=plugins(4), games_per_pairing=2, format="ladder")
    with pytest.raises(ValueError, match="ladder_round"):
        schedule(config)
    per_round = matches_per_cycle(config)
    assert per_round == 6 * 2
    rounds = [ladder_round(config, r) for r in (1, 2, 3)]
    for r, matches in enumerate(rounds, start=1):
        assert [m.index for m in matches] == list(range((r - 1) * per_round, r * per_round))
        assert {m.round for m in matches} == {r}
        assert all(m.match_id.startswith(f"r{r:03d}-") for m in matches)
    everything = [m for matches in rounds for m in matches]
    assert len({m.match_id for m in everything}) == len(everything)
    assert len({m.seed for m in everything}) == len(everything) // 2
    assert len({m.pair for m in everything}) == len(everything) // 2
    assert ladder_round(config, 2) == rounds[1]  # stable
    # a round among a subset: the full round's matches between them, same index/id/seed/seats
    subset = ladder_round(config, 2, entrants=["plugin3", "plugin1"])
    assert subset == [m for m in rounds[1] if set(m.seats) == {"plugin1", "plugin3"}]
    assert len(subset) == 2
    three = ladder_round(config, 2, entrants=plugins(3))
    assert len(three) == 3 * 2 and all(m in rounds[1] for m in three)
    with pytest.raises(ValueError, match="remote:zed"):
        ladder_round(config, 1, entrants=["plugin1", "remote:zed"])
    with pytest.raises(ValueError):
        ladder_round(config, 0)


def test_ladder_round_one_matches_a_round_robin_cycle(registry: Registry) -> None:
    rr = schedule(cfg(registry, entrants=plugins(3)))
    ladder = ladder_round(cfg(registry, entrants=plugins(3), format="ladder"), 1)
    assert [(m.index, m.seats, m.seed, m.pair, m.leg) for m in rr] == [
        (m.index, m.seats, m.seed, m.pair, m.leg) for m in ladder
    ]


def test_schedule_is_fast(registry: Registry) -> None:
    config = cfg(registry, entrants=remotes(30), games_per_pairing=20, format="double_round_robin")
    matches = schedule(config)
    assert len(matches) == 30 * 29 // 2 * 20 * 2
    assert len({m.match_id for m in matches}) == len(matches)
