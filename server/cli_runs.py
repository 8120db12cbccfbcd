"""The ``standoff`` commands about a server's folders and submitted bots: ``verify``, ``submit``,
``submissions``, ``retire`` (their options: :func:`.cli.build_parser`). The commands about
tournament run folders are the tournaments' own (:mod:`standoff.tournaments.cli`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cli_common import UsageError, plugin_registry, submissions_folder


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


def verified(folder: str, args: argparse.Namespace) -> None:
    """Refuse a run folder whose results or records were changed (unless ``--no-verify``)."""
    if args.no_verify:
        return
    from .verify import VerifyError, verify_folder

    try:
        # The chain and every record's digest and outcome: any edit shows. Replaying every record
        # by the rules as well is `standoff verify`'s job (a long game takes a tenth of a second).
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
