"""Bearer tokens for bots: only hashes are stored; identity comes from the token alone.

The registry is a JSON file ``{"bots": {NAME: {"sha256": HEX, "admin": bool, "revoked": bool}}}``.
``standoff token add NAME`` creates a token, prints it once and stores its SHA-256. Checking a
token hashes it and compares with every entry using :func:`hmac.compare_digest`, so timing says
nothing about which entry (or how much of one) matched. The server may also mint *ephemeral*
tokens in memory (for the subprocess bot runners it starts); those are never written.
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


class RegistryError(ValueError):
    """A broken registry file or a bad bot name; the message says which."""


@dataclass(frozen=True)
class Identity:
    name: str
    admin: bool = False
    ephemeral: bool = False


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenRegistry:
    """Tokens by bot name. ``path=None`` keeps everything in memory (tests, ephemeral use)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, dict] = {}
        self._ephemeral: dict[str, tuple[str, Identity]] = {}
        if self.path is not None and self.path.exists():
            self._entries = self._read(self.path)

    @staticmethod
    def _read(path: Path) -> dict[str, dict]:
        try:
            data = json.loads(path.read_text(encoding="utf-8") or "{}")
        except json.JSONDecodeError as exc:
            raise RegistryError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        bots = data.get("bots", {}) if isinstance(data, dict) else None
        if not isinstance(bots, dict):
            raise RegistryError(f"{path}: expected an object with a 'bots' object")
        for name, entry in bots.items():
            if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
                raise RegistryError(f"{path}: entry {name!r} has no 'sha256' string")
        return bots

    def reload(self) -> None:
        """Re-read the file (tokens added or revoked by ``standoff token`` while serving)."""
        if self.path is not None and self.path.exists():
            self._entries = self._read(self.path)

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"bots": self._entries}, indent=2, sort_keys=True) + "\n"
        # Write-then-rename: a crash never leaves a half-written registry.
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tokens-")
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    def add(self, name: str, *, admin: bool = False) -> str:
        """Create (or replace) the token of ``name``; returns the token, shown only this once."""
        if not NAME_PATTERN.match(name):
            raise RegistryError(
                f"bad bot name {name!r}: use letters, digits, '_', '.', '-' (at most 64)"
            )
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        self._entries[name] = {"sha256": _digest(token), "admin": admin, "revoked": False}
        self._save()
        return token

    def revoke(self, name: str) -> None:
        if name not in self._entries:
            raise RegistryError(f"no bot named {name!r} in the registry")
        self._entries[name]["revoked"] = True
        self._save()

    def names(self) -> list[str]:
        return sorted(self._entries)

    def mint_ephemeral(self, name: str) -> str:
        """An in-memory token for ``name`` (a bot runner the server starts itself)."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        self._ephemeral[name] = (_digest(token), Identity(name, ephemeral=True))
        return token

    def forget_ephemeral(self, name: str) -> None:
        self._ephemeral.pop(name, None)

    def verify(self, token: str | None) -> Identity | None:
        """The identity ``token`` stands for, or ``None`` (unknown, revoked or missing)."""
        if not token:
            return None
        digest = _digest(token)
        found: Identity | None = None
        # Compare with every entry (no early exit) so timing does not tell entries apart.
        for name, entry in self._entries.items():
            if hmac.compare_digest(digest, entry["sha256"]) and not entry.get("revoked"):
                found = Identity(name, admin=bool(entry.get("admin")))
        for stored, identity in self._ephemeral.values():
            if hmac.compare_digest(digest, stored):
                found = identity
        return found
