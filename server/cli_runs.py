"""The ``standoff`` commands about run folders and submitted bots: ``tournament``, ``ladder``,
``ratings``, ``report``, ``verify`` and ``submit``, ``submissions``, ``retire`` (their options:
:func:`.cli.build_parser`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .cli_common import UsageError, plugin_registry, submissions_folder, token_registry


def cmd_report(args: argparse.Namespace) -> int:
    from ..tournaments.html import ReportError, report_with_problems

    if (Path(args.run_dir) / "results.jsonl").is_file():
        _verified(args.run_dir, args)
    try:
        index, problems = report_with_problems(args.run_dir)
    except ReportError as exc:
        raise UsageError(str(exc)) from None
    print(index)
    for problem in problems:  # the report is written; these pages say why they show no board
        print(f"standoff: warning: {problem}", file=sys.stderr)
    if problems:
        print(f"standoff: error: {len(problems)} records could not be shown (see above)", file=sys.stderr)
        return 1
    return 0


def cmd_submit(args: argparse.Namespace) -> int:
    from .submissions import SubmissionError, submit

    folder = submissions_folder(args)
    try:
        found = submit(args.path, args.name, folder, registry=plugin_registry(), bot=args.bot, find_links=args.find_links,
                       no_index=args.no_index, binary_only=args.binary_only, unsandboxed=args.unsandboxed)
    except SubmissionError as exc:
        raise UsageError(str(exc)) from None
    print(f"registered {found.entrant}: bot {found.bot!r} ({', '.join(found.games)}) from {found.source}; "
          f"log: {found.log_path}")
    return 0


def cmd_submissions(args: argparse.Namespace) -> int:
    from .submissions import SubmissionError, format_list, load

    try:
        items = load(submissions_folder(args))
    except SubmissionError as exc:
        raise UsageError(str(exc)) from None
    print(format_list([s for s in items if args.all or s.active]))
    return 0


def cmd_retire(args: argparse.Namespace) -> int:
    from .submissions import SubmissionError, retire

    try:
        retired = retire(submissions_folder(args), args.entrant)
    except SubmissionError as exc:
        raise UsageError(str(exc)) from None
    print(f"retired {retired.entrant}: no longer scheduled (its results stay)")
    return 0


def _tournament(args: argparse.Namespace, *, ladder: bool) -> int:
    from ..tournaments.config import ConfigError, load_config
    from ..tournaments.report import format_report
    from ..tournaments.runner import RunError, run_tournament
    from .auth import RegistryError

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

    def on_round(results) -> None:
        from ..tournaments.report import compute_ratings

        ratings = compute_ratings(results, entrants=list(config.entrants))
        table = ", ".join(
            f"{p['name']} {p['rating']:+.0f}±{p['margin']:.0f}" for p in ratings["players"] if p["games"]
        )
        print(f"after {results[-1].round if results else 0} rounds ({len(results)} matches): {table}",
              file=sys.stderr, flush=True)

    try:
        summary = run_tournament(
            config, registry=registry, fresh=args.fresh, ladder=ladder, rounds=getattr(args, "rounds", None),
            progress=sys.stderr, tokens=token_registry(args), announce=announce,
            on_round=on_round if ladder else None, verify=not args.no_verify,
        )
    except (RunError, RegistryError) as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        # The referee a remote entrant needs cannot listen on `address` (port taken...). Not
        # imported up front: a tournament of local bots never loads grpc.
        rpc = sys.modules.get(f"{__package__}.rpc")
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


def _verified(folder: str, args: argparse.Namespace) -> None:
    """Refuse a run folder whose results or records were changed (unless ``--no-verify``)."""
    if args.no_verify:
        return
    from .verify import VerifyError, verify_folder

    try:
        # The chain and every record's digest and outcome: any edit shows. Replaying every record
        # by the rules as well is `standoff verify`'s job (a Twilight Struggle game takes ~0.1 s).
        verify_folder(folder, replay_records=False)
    except VerifyError as exc:
        raise UsageError(f"{exc} (--no-verify to read it anyway)") from None


def cmd_verify(args: argparse.Namespace) -> int:
    from .verify import VerifyError, verify_folder

    if not Path(args.folder).is_dir():
        raise UsageError(f"{args.folder}: no such folder (a tournament run folder, or a server's --data-dir)")
    try:
        report = verify_folder(args.folder, registry=plugin_registry(), replay_records=not args.no_replay)
    except VerifyError as exc:
        print(f"standoff: verify failed: {exc}", file=sys.stderr)
        return 1
    print(f"verified {report.summary()}")
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    from ..tournaments.report import compute_ratings, format_report, read_results

    if Path(args.run_dir).is_dir():
        _verified(args.run_dir, args)
    path = Path(args.run_dir) / "results.jsonl"
    try:
        results = read_results(path)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    entrants = None
    config_path = Path(args.run_dir) / "config.json"
    if config_path.exists():
        entrants = json.loads(config_path.read_text()).get("entrants")
    print(format_report(compute_ratings(results, entrants=entrants)))
    return 0
