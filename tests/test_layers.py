"""The packages depend on each other one way (docs/architecture.md, "Layers"):

    server  <-  sdk  <-  bots  <-  tournaments

each may import only the packages to its left. The graph is the one the import-cycle test reads
(every ``import`` counts, lazy ones inside functions too).
"""

from __future__ import annotations

from test_import_cycles import import_graph

#: Lowest first: a module may import its own package's modules and those of the packages before it.
LAYERS = ("standoff.server", "standoff.sdk", "standoff.bots", "standoff.tournaments")


def _layer(module: str) -> int | None:
    for rank, package in enumerate(LAYERS):
        if module == package or module.startswith(package + "."):
            return rank
    return None  # standoff.v1 (generated wire code), the standard library, dependencies


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module of a higher layer, as ``importer -> imported`` lines."""
    found = []
    for module, targets in sorted(graph.items()):
        rank = _layer(module)
        for target in sorted(targets):
            other = _layer(target)
            if rank is not None and other is not None and other > rank:
                found.append(f"{module} -> {target}")
    return found


def test_the_check_sees_an_upward_import():
    graph = {"standoff.server.wire": {"standoff.sdk.client", "standoff.server.codecs"},
             "standoff.bots.greedy": {"standoff.sdk.bot", "standoff.server.games"},
             "standoff.sdk.rl": {"standoff.bots.plugin"}}
    assert upward_imports(graph) == ["standoff.sdk.rl -> standoff.bots.plugin",
                                     "standoff.server.wire -> standoff.sdk.client"]


def test_packages_import_only_the_layers_below_them():
    assert upward_imports(import_graph()) == []
