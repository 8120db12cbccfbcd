"""Bearer tokens for bots: only hashes are stored; identity comes from the token alone.

The registry is a JSON file ``{"bots": {NAME: {"sha256": HEX, "admin": bool, "revoked": bool}}}``.
``standoff token add NAME`` creates a token, prints it once and stores its SHA-256. Checking a
token hashes it and compares with every entry using :func:`hmac.compare_digest`, so timing says
nothing about which entry (or how much of one) matched. The server may also mint *ephemeral*
tokens in memory (for the subprocess bot runners it starts); those are never written.

A serving registry calls :meth:`TokenRegistry.refresh` before every check: one ``stat`` of the
file, and a re-read only when its inode, size or modification time changed. So a token added,
revoked, replaced or removed by ``standoff token`` (or by hand) counts at once, with no restart.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .private_files import private_dir

TOKEN_PREFIX = "sto_"

# What one token may use on a server (enforced by the gRPC service, ``server/rpc.py``).
#: Play streams one token may hold open at once (``serve --max-sessions-per-bot``; 0 = no limit).
DEFAULT_MAX_SESSIONS_PER_BOT = 4
#: Messages per second per token, sustained (``serve --rate-limit``; 0 = no limit), and the burst
#: allowed above it (``serve --rate-burst``). A bot answering as fast as loopback allows in
#: self-play sends about 1,200 messages/s; these leave it a wide margin (floods are caught sooner
#: by the inbox limit).
DEFAULT_RATE_LIMIT = 5000.0
DEFAULT_RATE_BURST = 10000

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DIGEST_PATTERN = re.compile(r"^[0-9a-f]{64}$")


class RegistryError(ValueError):
    """A broken registry file or a bad bot name; the message says which."""


@dataclass(frozen=True)
class Identity:
    name: str
    admin: bool = False
    ephemeral: bool = False


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _signature(path: Path) -> tuple[int, int, int] | None:
    """What tells one version of the file from another: ``(inode, size, mtime_ns)``, or ``None``
    when there is no file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class TokenRegistry:
    """Tokens by bot name. ``path=None`` keeps everything in memory (tests, ephemeral use).

    ``generation`` counts changes of the file entries (loaded, added, revoked, replaced, removed):
    whoever holds sessions compares it to know when to check them again.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        # Replaced as a whole, never changed in place: readers iterate it without a lock.
        self._entries: dict[str, dict] = {}
        self._ephemeral: dict[str, tuple[str, Identity]] = {}
        self._signature: tuple[int, int, int] | None = None
        self.generation = 0
        if self.path is not None:
            self._signature = _signature(self.path)
            if self._signature is not None:
                self._entries = self._read(self.path)

    @staticmethod
    def _read(path: Path) -> dict[str, dict]:
        try:
            data = json.loads(path.read_text(encoding="utf-8") or "{}")
        except json.JSONDecodeError as exc:
            raise RegistryError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise RegistryError(f"{path}: not UTF-8 text") from None
        except OSError as exc:
            raise RegistryError(f"{path}: cannot read ({exc.strerror or exc})") from None
        bots = data.get("bots", {}) if isinstance(data, dict) else None
        if not isinstance(bots, dict):
            raise RegistryError(f"{path}: expected an object with a 'bots' object")
        for name, entry in bots.items():
            digest = entry.get("sha256") if isinstance(entry, dict) else None
            if not isinstance(digest, str) or not DIGEST_PATTERN.match(digest):
                raise RegistryError(f"{path}: entry {name!r} has no 'sha256' string (64 hex digits)")
        return bots

    def _set_entries(self, entries: dict[str, dict]) -> None:
        if entries != self._entries:
            self.generation += 1
        self._entries = entries

    def refresh(self) -> bool:
        """Re-read the file if it changed since it was last read (one ``stat`` otherwise).

        Returns whether the file entries changed. A deleted file means no file tokens. A file that
        cannot be read or parsed leaves the last good entries in place and raises
        :class:`RegistryError` once for that version of the file (not again until it changes).
        An empty file, when there were entries, is taken for one being written: nothing changes
        until it has text (delete the file to remove every file token).
        """
        if self.path is None:
            return False
        signature = _signature(self.path)
        if signature == self._signature:
            return False
        if signature is not None and signature[1] == 0 and self._entries:
            # An empty file is one being written: editors, shell redirections and
            # ``Path.write_text`` truncate before they write. Read as "no tokens" it would end
            # every session for a moment (and, were the new text then broken, for good); so the
            # last entries stay, silently, and the file is looked at again at the next check.
            return False
        self._signature = signature  # stat before read: a change during the read is seen next time
        before = self.generation
        if signature is None:
            self._set_entries({})
        else:
            self._set_entries(self._read(self.path))
        return self.generation != before

    def reload(self) -> None:
        """Re-read the file now, whether or not it looks changed (:class:`RegistryError` if broken)."""
        if self.path is None:
            return
        self._signature = _signature(self.path)
        self._set_entries(self._read(self.path) if self._signature is not None else {})

    def _save(self, entries: dict[str, dict]) -> None:
        if self.path is not None:
            private_dir(self.path.parent, tighten=False)  # --tokens may name a folder of the user's
            text = json.dumps({"bots": entries}, indent=2, sort_keys=True) + "\n"
            # Write-then-rename: a crash never leaves a half-written registry.
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tokens-")
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
            self._signature = _signature(self.path)
        self._set_entries(entries)

    def add(self, name: str, *, admin: bool = False, replace: bool = False) -> str:
        """Create the token of ``name``; returns the token, shown only this once.

        A name that already has a token (not revoked) is refused unless ``replace``: then the new
        token takes the place of the old one, which stops working.
        """
        if not NAME_PATTERN.match(name):
            raise RegistryError(
                f"bad bot name {name!r}: use letters, digits, '_', '.', '-' (at most 64)"
            )
        self.reload()  # start from the file as it is now, not as this process last saw it
        old = self._entries.get(name)
        if old is not None and not old.get("revoked") and not replace:
            raise RegistryError(
                f"bot {name!r} already has a token; revoke it, or pass --replace to issue a new one "
                "(the old one stops working)"
            )
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        entries = dict(self._entries)
        entries[name] = {"sha256": _digest(token), "admin": admin, "revoked": False}
        self._save(entries)
        return token

    def revoke(self, name: str) -> None:
        self.reload()
        if name not in self._entries:
            raise RegistryError(f"no bot named {name!r} in the registry")
        entries = dict(self._entries)
        entries[name] = {**entries[name], "revoked": True}
        self._save(entries)

    def names(self) -> list[str]:
        return sorted(self._entries)

    def flags(self, name: str) -> tuple[str, ...]:
        """``("admin",)``, ``("revoked",)``, both, or neither: what ``standoff token list`` shows."""
        entry = self._entries.get(name, {})
        return tuple(flag for flag in ("admin", "revoked") if entry.get(flag))

    def mint_ephemeral(self, name: str) -> str:
        """An in-memory token for ``name`` (a bot runner the server starts itself)."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        self._ephemeral[name] = (_digest(token), Identity(name, ephemeral=True))
        return token

    def forget_ephemeral(self, name: str) -> None:
        self._ephemeral.pop(name, None)

    @staticmethod
    def digest(token: str) -> str:
        """What the registry stores of ``token``: a server keeps it to check a session again."""
        return _digest(token)

    def verify(self, token: str | None) -> Identity | None:
        """The identity ``token`` stands for, or ``None`` (unknown, revoked or missing)."""
        if not token:
            return None
        return self.verify_digest(_digest(token))

    def verify_digest(self, digest: str) -> Identity | None:
        """Like :meth:`verify`, from the token's :meth:`digest`."""
        found: Identity | None = None
        # Compare with every entry (no early exit) so timing does not tell entries apart.
        for name, entry in self._entries.items():
            if hmac.compare_digest(digest, entry["sha256"]) and not entry.get("revoked"):
                found = Identity(name, admin=bool(entry.get("admin")))
        for stored, identity in self._ephemeral.values():
            if hmac.compare_digest(digest, stored):
                found = identity
        return found
