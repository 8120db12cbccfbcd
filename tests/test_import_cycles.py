"""No import cycles inside the project's packages.

Every module of the installed packages ``standoff.server``, ``standoff.sdk``, ``standoff.bots``
and ``standoff.tournaments`` is read statically (``ast``; nothing is imported but the packages'
locations): every ``import`` and ``from ... import`` counts, at module level and inside functions
alike (a lazy import only hides a cycle), relative imports resolved against the importing module.

An edge goes to the module named: ``from pkg import name`` is an edge to ``pkg.name`` when that is
a module of the project, else to ``pkg``; ``import a.b`` is an edge to ``a.b``. The implicit import
of a parent package (Python imports ``pkg/__init__`` before ``pkg.mod``) is not an edge: it would
make every package that re-exports its submodules a "cycle" and hide the real ones.

A cycle is reported through its strongly connected component: the component's modules and, for
each import inside it, a shortest cycle through that import (deduplicated), so every circle is
named.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import pathlib
from collections import deque

PACKAGES = ("standoff.server", "standoff.sdk", "standoff.bots", "standoff.tournaments")
TWILIGHT_STRUGGLE = "standoff.server.games.twilight_struggle"


def _modules() -> dict[str, pathlib.Path]:
    """Every module of the project's packages: dotted name → file."""
    found: dict[str, pathlib.Path] = {}
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations, f"{package} is not installed"
        for location in spec.submodule_search_locations:
            root = pathlib.Path(location)
            for path in sorted(root.rglob("*.py")):
                parts = path.relative_to(root).with_suffix("").parts
                # only folders that are packages (an __init__.py all the way down)
                if any(not (root.joinpath(*parts[:i]) / "__init__.py").exists() for i in range(1, len(parts))):
                    continue
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                found[".".join((package, *parts))] = path
    return found


def _is_package(path: pathlib.Path) -> bool:
    return path.name == "__init__.py"


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module named by a (possibly relative) ``from`` import in ``module``."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """The project's import graph: module → the project modules it imports."""
    return graph_of(_modules())


def graph_of(modules: dict[str, pathlib.Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, _is_package(path), node.level, node.module)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.add(sub if sub in modules else base)
        for target in targets:
            # "import a.b.c" where only a.b is a project module (c an attribute): the longest known prefix
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:  # (a package naming its own attributes: no edge)
                graph[name].add(target)
    return graph


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with a cycle (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1 or node in graph[node]:
                    found.append(sorted(members))
    return sorted(found)


def shortest_cycle(graph: dict[str, set[str]], start: str, within: set[str]) -> list[str]:
    """A shortest path start → ... → start inside ``within`` (breadth first)."""
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node] & within):
            if child == start:
                path = [node]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return [*reversed(path), start]
            if child not in parent:
                parent[child] = node
                queue.append(child)
    return []


def cycles_of(graph: dict[str, set[str]], component: list[str]) -> list[list[str]]:
    """For each import (edge) inside ``component`` a shortest cycle through it, each cycle once:
    every import that takes part in a circle is named."""
    within = set(component)
    seen: set[tuple[str, ...]] = set()
    cycles = []
    for start in component:
        for first in sorted(graph[start] & within):
            back = shortest_cycle({**graph, start: {first}}, start, within)
            if back:
                _add(cycles, seen, back)
    return cycles


def _add(cycles: list[list[str]], seen: set[tuple[str, ...]], cycle: list[str]) -> None:
    """Add ``cycle`` (first node repeated at the end) unless a rotation of it is known."""
    if cycle:
        ring = tuple(cycle[:-1])
        key = min(ring[i:] + ring[:i] for i in range(len(ring)))
        if key not in seen:
            seen.add(key)
            cycles.append(cycle)


def describe(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    lines = [f"{len(found)} import cycle(s) among the project's packages:"]
    for component in found:
        lines.append(f"- component of {len(component)} modules: {', '.join(component)}")
        for cycle in cycles_of(graph, component):
            lines.append("    " + " -> ".join(cycle))
    return "\n".join(lines)


def test_the_graph_sees_lazy_and_relative_imports(tmp_path):
    files = {
        "pkg/__init__.py": "from . import a\n",
        "pkg/a.py": "def later():\n    from .b import thing\n",
        "pkg/b.py": "import pkg.sub.c\nthing = 1\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/c.py": "from .. import a\nfrom ..b import thing\n",
    }
    modules = {}
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        modules[name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")] = path
    graph = graph_of(modules)
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},  # inside a function
        "pkg.b": {"pkg.sub.c"},
        "pkg.sub": set(),
        "pkg.sub.c": {"pkg.a", "pkg.b"},  # relative, two levels up
    }
    assert components(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    # and the real graph holds the project's modules
    real = import_graph()
    assert {"standoff.server.games.twilight_struggle.turn", "standoff.sdk", "standoff.bots", "standoff.tournaments"} <= set(real)
    assert "standoff.server.games.twilight_struggle.events.registry" in real["standoff.server.games.twilight_struggle.turn"]


def test_cycle_finder_names_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    found = components(graph)
    assert found == [["a", "b", "c"], ["e"]]
    assert cycles_of(graph, ["a", "b", "c"]) == [["a", "b", "c", "a"]]
    assert "a -> b -> c -> a" in describe(graph, found)
    # every import inside a component is named by some cycle
    graph = {"a": {"b", "c"}, "b": {"a"}, "c": {"a"}}
    assert cycles_of(graph, ["a", "b", "c"]) == [["a", "b", "a"], ["a", "c", "a"]]


def test_twilight_struggle_has_no_import_cycle():
    graph = import_graph()
    found = [c for c in components(graph) if any(m.startswith(TWILIGHT_STRUGGLE) for m in c)]
    assert not found, describe(graph, found)


def test_no_import_cycle_in_the_project():
    """Every cycle among the project's packages, each named (when this test was written, three
    lay outside Twilight Struggle: bots.plugin <-> server.plugins (with server.hookspecs),
    sdk.simulate <-> sdk.simulate_ts, tournaments.executors <-> tournaments.ray_executor; their
    owners removed them)."""
    graph = import_graph()
    found = components(graph)
    assert not found, describe(graph, found)
