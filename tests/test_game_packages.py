"""A game is one folder: no generic module names a game (issue 42; docs/architecture.md, "Layers").

Every module of ``standoff.server`` outside the built-in games' own packages, of ``standoff.sdk``
and of ``standoff.tournaments`` is read as text, comments and docstrings included: none may name a
game or a game's module. Generic code reaches a game only through the registry (its
:class:`~standoff.server.specs.GameSpec`). Allowed: ``server/games/<game>/`` (the game itself) and
``server/games/__init__.py`` (the table of built-in games). ``bots/`` is exempt: a bot may be
written for one game.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re

GENERIC = ("standoff.server", "standoff.sdk", "standoff.tournaments")
#: The games' names and module names, as any style writes them.
GAME_WORDS = re.compile(r"schotten|twilight|goofspiel|battle[ _-]?line", re.IGNORECASE)


def _root(package: str) -> pathlib.Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return pathlib.Path(next(iter(spec.submodule_search_locations)))


def _game_homes() -> list[pathlib.Path]:
    games = _root("standoff.server.games")
    return [games / "__init__.py", *(p for p in sorted(games.iterdir()) if (p / "__init__.py").is_file())]


def naming_lines(files: list[pathlib.Path], homes: list[pathlib.Path]) -> list[str]:
    """``file:line: text`` for every line of ``files`` outside ``homes`` that names a game."""
    found = []
    for path in files:
        if any(path == home or home in path.parents for home in homes):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_WORDS.search(line):
                found.append(f"{path.as_posix()}:{number}: {line.strip()}")
    return found


def test_the_check_finds_a_game_named_in_a_generic_module(tmp_path):
    home = tmp_path / "games" / "chess"
    home.mkdir(parents=True)
    (home / "rules.py").write_text('NAME = "twilight-struggle"\n')
    generic = tmp_path / "wire.py"
    generic.write_text('import os\nif game.name == "schotten-totten":  # Battle Line\n    pass\n')
    assert naming_lines([home / "rules.py", generic], [home]) == [
        f"{generic.as_posix()}:2: if game.name == \"schotten-totten\":  # Battle Line"]


def test_no_generic_module_names_a_game():
    files = sorted(p for package in GENERIC for p in _root(package).rglob("*.py"))
    found = naming_lines(files, _game_homes())
    assert found == [], f"{len(found)} lines of generic modules name a game:\n" + "\n".join(found[:60])
