"""The test tiers (tests/tiers.py): the tables name real tests and fixtures, the fast tier keeps a
test of every module, and the markers reach the collected tests."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tiers

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").rglob("test_*.py"))


def definitions(module: str) -> tuple[dict[str, set[str]], set[str]]:
    """The test functions of ``module`` (each with its argument names) and its fixtures' names."""
    tests, fixtures = {}, set()
    for node in ast.walk(ast.parse((ROOT / module).read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("test_"):
            tests[node.name] = {arg.arg for arg in node.args.args}
        elif any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list):
            fixtures.add(node.name)
    return tests, fixtures


def test_every_name_in_the_tables_is_a_test_or_fixture_of_its_module():
    """A renamed or removed test must leave the tables too (else a renamed slow test would
    silently join the fast tier)."""
    for module in [*tiers.SLOW, *tiers.FIXTURES, *tiers.SLOW_MODULES,
                   *(prefix for prefix in tiers.NEEDS if not prefix.endswith("/"))]:
        assert module in MODULES, f"tests/tiers.py names {module}, which is not a test module"
    for prefix in (prefix for prefix in tiers.NEEDS if prefix.endswith("/")):
        assert any(module.startswith(prefix) for module in MODULES), f"no test module in {prefix}"
    for module, names in tiers.SLOW.items():
        tests, _ = definitions(module)
        assert sorted(set(names) - tests.keys()) == [], f"not tests of {module}"
        assert len(names) == len(set(names)), f"{module} is listed twice in SLOW"
    for module, fixtures in tiers.FIXTURES.items():
        _, defined = definitions(module)
        assert sorted(fixtures.keys() - defined) == [], f"not fixtures of {module}"
    for name in tiers.MARKS:
        module, _, test = name.partition("::")
        assert test in definitions(module)[0], f"tests/tiers.py marks {name}, which is not a test"


def test_the_fast_tier_keeps_a_test_of_every_module():
    """Every area stays in the fast tier by its quick tests, but the modules whose every test needs
    a heavy set-up (tiers.SLOW_MODULES)."""
    emptied = []
    for module in MODULES:
        tests, _ = definitions(module)
        if tests and all("slow" in tiers.markers(module, name, args) for name, args in tests.items()):
            emptied.append(module)
    assert emptied == sorted(tiers.SLOW_MODULES)


def test_markers_come_from_module_fixture_and_name():
    assert tiers.markers("tests/test_accelerate.py", "test_x", {"compiled", "tmp_path"}) == {"compiled", "slow"}
    assert tiers.markers("tests/test_accelerate.py", "test_the_pure_tree_is_fresh") == set()
    assert tiers.markers("tests/tournaments/test_ray.py", "test_x", {"cluster"}) == {"ray", "slow"}
    assert tiers.markers("tests/tournaments/test_ray.py", "test_results_are_idempotent_by_match_id") == {"ray"}
    assert tiers.markers("tests/sandbox/test_hostile_bots.py", "test_x") == {"sandbox"}
    assert tiers.markers("tests/test_node_bot.py", "test_x") == {"node", "slow"}
    assert tiers.markers("tests/bots/test_greedy.py", "test_beats_random") == {"slow"}
    # a fixture of the same name in another module is not the heavy one
    assert tiers.markers("tests/bots/test_greedy.py", "test_x", {"cluster", "compiled"}) == set()


def test_collection_marks_the_tests():
    """``-m "not slow"`` leaves out the table's slow tests (every parametrization) and keeps the
    module's others; ``-m slow`` selects just those."""
    module = "tests/bots/test_greedy.py"

    def collected(expression: str) -> set[str]:
        run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                              "-p", "no:cacheprovider", "-m", expression, module],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
        return {line.split("::")[1].split("[")[0] for line in run.stdout.splitlines() if "::" in line}

    tests, _ = definitions(module)
    assert collected("slow") == set(tiers.SLOW[module])
    assert collected("not slow") == tests.keys() - set(tiers.SLOW[module])
