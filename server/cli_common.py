"""What the ``standoff`` commands share (:mod:`.cli`, :mod:`.cli_runs`): the user's mistake as
one line (:class:`UsageError`), the default address and data folder, and the registries a
command loads from its flags."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

DEFAULT_ADDRESS = "127.0.0.1:50051"
DEFAULT_DATA_DIR = "standoff-data"


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option KEY=VALUE`` arguments as a dict; :class:`UsageError` names a malformed one."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {pair!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def plugin_registry():
    """The plugin registry (built-in and installed games and bots), its problems as warnings."""
    from .plugins import load_registry

    registry = load_registry()
    for problem in registry.problems:
        print(f"standoff: warning: {problem}", file=sys.stderr)
    return registry


def token_registry(args: argparse.Namespace):
    """The token registry ``--tokens`` names, else ``DATA_DIR/tokens.json``."""
    from .auth import TokenRegistry

    return TokenRegistry(args.tokens or Path(args.data_dir) / "tokens.json")


def submissions_folder(args: argparse.Namespace) -> Path:
    """``--submissions DIR``, else the data folder's registry (``DATA_DIR/submissions``)."""
    from .submissions import default_folder

    return Path(args.submissions) if args.submissions else default_folder(args.data_dir)
