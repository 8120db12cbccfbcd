"""Private files and folders: what can reveal a match is readable by its owner only.

A record's header carries the match seed, and with it every deal and draw; a ledger or a run's
results name matches as they end, and a paired leg's result tells what its partner leg, still
being played, was dealt. So everything a server or a tournament run writes (records, ledgers,
results, Elo log, ratings, the run's config, its master seed, the token registry) is created
mode ``0600`` in folders of mode ``0700``, *whatever the umask*: ``open`` and ``mkdir`` only
ever take bits away from the mode they are given (the umask), never add or keep any, so each
file or folder is set with ``fchmod``/``chmod`` after it is created.

A file opened again (a ledger appended to, a record rewritten) is tightened at that moment, and a
folder opened by :func:`private_dir` as well: a run folder or data folder written by a version
that left them readable (``0644`` in ``0755``) becomes private the next time it is used.

The one exception is the HTML report (:mod:`standoff.tournaments.html`): it is written to be
shared (copied to a web server), so it keeps the usual modes; it lies inside the private run
folder, so nobody else reads it until its owner copies it out.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Any

#: The mode of a private file: read and write, by its owner only.
FILE_MODE = 0o600
#: The mode of a private folder: its owner lists, enters and writes it; nobody else does.
DIR_MODE = 0o700

_FLAGS = {
    "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
}


def private_dir(path: str | os.PathLike[str], *, tighten: bool = True) -> Path:
    """Create the folder ``path`` and any missing parent, each mode ``0700`` whatever the umask;
    return it as a :class:`~pathlib.Path`.

    With ``tighten`` (a folder the program owns: a data folder, a run folder, ``records/``),
    ``path`` itself is set to ``0700`` if it existed already; without (the folder of a file the
    user named, such as ``standoff play --record PATH``), an existing folder keeps its mode.
    Parents that existed are never changed. Raises ``OSError`` (e.g. ``PermissionError``: a
    folder owned by another user cannot be tightened).
    """
    path = Path(path)
    missing: list[Path] = []
    folder = path
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    if not folder.is_dir():  # a file in the way: mkdir says so (ENOTDIR, or EEXIST for path itself)
        os.mkdir(missing[-1] if missing else path)
    for folder in reversed(missing):
        try:
            os.mkdir(folder, DIR_MODE)
        except FileExistsError:
            if not folder.is_dir():
                raise
            if folder != path or not tighten:
                continue  # made by someone else meanwhile: not ours to change
        os.chmod(folder, DIR_MODE)  # mkdir's mode was cut by the umask, never raised by it
    if tighten and not missing:
        os.chmod(path, DIR_MODE)
    return path


def open_private(path: str | os.PathLike[str], mode: str = "w", *, encoding: str | None = "utf-8") -> IO[Any]:
    """Open ``path`` for writing as a private file (``0600``), creating it if it is missing.

    ``mode``: ``"w"`` (truncate), ``"a"`` (append), or either with ``"b"`` (bytes; ``encoding``
    is then ignored). An existing file is set to ``0600`` too, through the open file (no window
    in which a path swapped meanwhile is changed instead). The folder must exist.
    """
    binary = "b" in mode
    flags = _FLAGS[mode.replace("b", "")]
    fd = os.open(path, flags, FILE_MODE)  # not inherited by child processes (PEP 446)
    try:
        os.fchmod(fd, FILE_MODE)
        return os.fdopen(fd, mode, **({} if binary else {"encoding": encoding}))
    except BaseException:
        os.close(fd)
        raise


def replace_private(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` as a private file, atomically: a temporary file next to it
    (``.NAME.<random>.tmp``, its own for each writer), fsync'd, then renamed over ``path``
    (readers see the old file or the new one, never half of one). The folder must exist."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), FILE_MODE)  # mkstemp's 0600 is cut by the umask too
            file.write(data.encode("utf-8") if isinstance(data, str) else data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["DIR_MODE", "FILE_MODE", "open_private", "private_dir", "replace_private"]
