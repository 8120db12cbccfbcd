"""``standoff reindex FOLDER``: rebuild a folder's index (``index.sqlite``) from its files alone.

The index is derived (:mod:`standoff.server.storage`): a start or a resume catches it up from the
files by itself, so this command is for an index that cannot be opened (corrupt, foreign, of a
newer version) or that someone wants rebuilt from scratch. The old file, if any, is moved aside
as ``index.sqlite.bad`` (never deleted: it may be someone's), the durable files are read, never
written. Both kinds of folder are handled here, in the top layer: a tournament or ladder run
folder (``results.jsonl``, :mod:`.run_index`) and a server's data folder (``matches.jsonl``,
:mod:`standoff.server.match_index`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..server.cli_common import UsageError


def cmd_reindex(args: argparse.Namespace) -> int:
    from ..server.ledger import LedgerError
    from ..server.storage import StorageError
    from ..server.verify import VerifyError
    from .errors import RunError

    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder (a tournament run folder, or a server's --data-dir)")
    if (folder / "results.jsonl").is_file() or (folder / "config.json").is_file():
        from .run_index import rebuild

        kind, what = "run folder", "results"
    elif (folder / "matches.jsonl").is_file() or (folder / "records").is_dir():
        from ..server.match_index import rebuild

        kind, what = "data folder", "finished matches"
    else:
        raise UsageError(f"{folder}: neither a run folder (results.jsonl) nor a server's data folder "
                         "(matches.jsonl, records/): nothing to index")
    index, bad = folder / "index.sqlite", folder / "index.sqlite.bad"
    old = index.stat().st_ino if index.exists() else None
    try:
        count = rebuild(folder)
        if isinstance(count, tuple):  # the server's: (lines, where a bad file went)
            count = count[0]
    except (StorageError, RunError, VerifyError, LedgerError) as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{folder}: {exc.strerror or exc}") from None
    if old is not None and bad.exists() and bad.stat().st_ino == old:
        print(f"the old index could not be used: moved to {bad}")
    print(f"indexed {count} {what} of {kind} {folder} ({folder / 'index.sqlite'})")
    return 0
