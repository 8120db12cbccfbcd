"""The ``standoff`` command, whole: the server's commands (:mod:`standoff.server.cli`), the SDK's
``bot run`` (:mod:`standoff.sdk.cli`) and the tournaments' own, ``tournament``, ``ladder``,
``ratings`` and ``report``, here. The command is assembled in this, the top layer, because it is
the one package that may import every other (docs/architecture.md, "Layers")."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..sdk import cli as sdk_cli
from ..server import cli as server_cli
from ..server.cli_common import UsageError, plugin_registry, token_registry
from ..server.cli_runs import verified
from .reindex import cmd_reindex


def main(argv: Sequence[str] | None = None) -> int:
    """``standoff``: every command of every layer (the console script)."""
    return server_cli.main(argv, run_commands=add_commands, client_commands=sdk_cli.add_commands,
                           serve_options=serve_options)


def build_parser() -> argparse.ArgumentParser:
    """The whole command's parser (docs/cli.md is generated from it)."""
    return server_cli.build_parser(run_commands=add_commands, client_commands=sdk_cli.add_commands,
                                   serve_options=serve_options)


def serve_options(parser: argparse.ArgumentParser) -> None:
    """``standoff serve --http``: the web face (:mod:`.web`, imported when it is asked for)."""
    from .web_http import HTTP_HELP

    parser.add_argument("--http", default=None, metavar="ADDRESS", help=HTTP_HELP)

    def beside(args: argparse.Namespace):
        if not args.http:
            return None
        from .web import server_beside

        return server_beside(args)

    parser.set_defaults(beside=beside)


def add_commands(sub) -> None:
    """The tournaments' commands, on the ``standoff`` command's subparsers."""
    from .web_http import HTTP_HELP

    data_options = server_cli.data_options

    def run_options(p: argparse.ArgumentParser) -> None:
        """What a tournament and a ladder both take, after their own options."""
        p.add_argument("--unsandboxed", action="store_true",
                       help="run untrusted entrants unsandboxed (as the config's `unsandboxed = true`)")
        p.add_argument("--no-verify", action="store_true",
                       help="resume without checking the results already there against their records")
        p.add_argument("--http", default=None, metavar="ADDRESS", help=HTTP_HELP.replace("standings", "ratings"))
        data_options(p)

    tour = sub.add_parser("tournament", help="run (or resume) a tournament from a TOML config")
    tour.add_argument("config")
    tour.add_argument("--fresh", action="store_true", help="discard an earlier run of this config")
    run_options(tour)
    tour.set_defaults(func=cmd_tournament)

    lad = sub.add_parser("ladder", help="keep playing rounds among the entrants until stopped")
    lad.add_argument("config")
    lad.add_argument("--rounds", type=server_cli.positive, default=None, metavar="N",
                     help="play N more rounds, from where the run stands, then stop (default: until Ctrl-C)")
    lad.add_argument("--fresh", action="store_true")
    run_options(lad)
    lad.set_defaults(func=cmd_ladder)

    rat = sub.add_parser("ratings", help="print the ratings of a run folder again (recomputed)")
    rat.add_argument("run_dir")
    rat.add_argument("--no-verify", action="store_true", help="skip checking the results against their records")
    rat.set_defaults(func=cmd_ratings)

    rdx = sub.add_parser("reindex", help="rebuild the index (index.sqlite) of a run folder or a server's data folder "
                         "from its files (stop the run or the server first)")
    rdx.add_argument("folder")
    rdx.set_defaults(func=cmd_reindex)

    rpt = sub.add_parser("report", help="write a static HTML report of a run folder (RUN_DIR/report/index.html)")
    rpt.add_argument("run_dir")
    rpt.add_argument("--no-verify", action="store_true", help="skip checking the results against their records")
    rpt.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from .html import ReportError, report_with_problems

    if (Path(args.run_dir) / "results.jsonl").is_file():
        verified(args.run_dir, args)
    try:
        index, problems = report_with_problems(args.run_dir, verify=not args.no_verify)
    except ReportError as exc:
        raise UsageError(str(exc)) from None
    print(index)
    for problem in problems:  # the report is written; these pages say why they show no board
        print(f"standoff: warning: {problem}", file=sys.stderr)
    if problems:
        print(f"standoff: error: {len(problems)} records could not be shown (see above)", file=sys.stderr)
        return 1
    return 0


def _tournament(args: argparse.Namespace, *, ladder: bool) -> int:
    from .config import ConfigError, load_config
    from .report import format_report
    from .runner import RunError, run_tournament
    from ..server.auth import RegistryError

    registry = plugin_registry()
    try:
        config = load_config(args.config, registry=registry)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.unsandboxed:
        import dataclasses

        config = dataclasses.replace(config, unsandboxed=True)
    if ladder and config.format != "ladder" and args.rounds is None:
        print("standoff: note: running the entrants as a ladder until stopped (Ctrl-C)", file=sys.stderr)

    def announce(address: str) -> None:
        print(f"remote entrants connect to {address}", file=sys.stderr, flush=True)

    def on_round(index) -> None:
        # From the run's index: the ratings from its sums, the same whatever the history's length.
        from .run_index import ratings_from_index

        ratings = ratings_from_index(index, entrants=list(config.entrants))
        table = ", ".join(
            f"{p['name']} {p['rating']:+.0f}±{p['margin']:.0f}" for p in ratings["players"] if p["games"]
        )
        print(f"after {index.last_round() or 0} rounds ({index.count()} matches): {table}",
              file=sys.stderr, flush=True)

    beside = None
    if args.http:  # bound now: a bad address or a port in use is one line before anything is played
        from .web import run_beside

        beside = run_beside(args.http)
    try:
        summary = run_tournament(
            config, registry=registry, fresh=args.fresh, ladder=ladder, rounds=getattr(args, "rounds", None),
            progress=sys.stderr, tokens=token_registry(args), announce=announce,
            on_round=on_round if ladder else None, verify=not args.no_verify, beside=beside,
        )
    except (RunError, RegistryError) as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        # The referee a remote entrant needs cannot listen on `address` (port taken...). Not
        # imported up front: a tournament of local bots never loads grpc.
        rpc = sys.modules.get("standoff.server.rpc")
        if rpc is not None and isinstance(exc, rpc.ServeError):
            raise UsageError(str(exc)) from None
        raise
    print(format_report(summary.ratings))
    print(f"\noutputs: {summary.run_dir} (results.jsonl, elo.jsonl, ratings.json, records/)")
    if not summary.complete:
        print("stopped before the end: run the same command again to continue", file=sys.stderr)
        return 130
    if summary.failed:
        ids = ", ".join(r.match_id for r in summary.failed[:10]) + (" ..." if len(summary.failed) > 10 else "")
        print(f"standoff: error: {len(summary.failed)} matches ended by an engine or referee error and have no "
              f"result: {ids} (their records in {summary.run_dir / 'records'} say why; --fresh plays them again)",
              file=sys.stderr)
        return 1
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    return _tournament(args, ladder=False)


def cmd_ladder(args: argparse.Namespace) -> int:
    return _tournament(args, ladder=True)


def cmd_ratings(args: argparse.Namespace) -> int:
    """The ratings from the run's index (caught up with the files first, checking what it did not
    hold yet, as a resume does: :mod:`.run_index`), not from a walk over every result."""
    from ..server.storage import StorageError
    from ..server.verify import VerifyError
    from .errors import RunError
    from .report import format_report
    from .run_index import RunIndex, ratings_from_index

    folder = Path(args.run_dir)
    path = folder / "results.jsonl"
    if not path.is_file():
        if folder.is_dir():
            verified(args.run_dir, args)  # says what the folder is not
        raise UsageError(f"cannot read {path}: No such file or directory")
    entrants = None
    config_path = folder / "config.json"
    if config_path.exists():
        entrants = json.loads(config_path.read_text()).get("entrants")
    try:
        with RunIndex.open(folder, verify=not args.no_verify) as index:
            ratings = ratings_from_index(index, entrants=entrants)
    except VerifyError as exc:
        raise UsageError(f"{exc} (--no-verify to read it anyway)") from None
    except (RunError, StorageError) as exc:
        raise UsageError(str(exc)) from None
    print(format_report(ratings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
