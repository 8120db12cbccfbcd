"""Standoff.

Importing this package first installs the import guard (:mod:`.import_guard`): every way into
the engine goes through here, so a compiled engine module older than its source is refused
wherever it would be imported, before any of it runs."""

from .import_guard import install as _install_import_guard

_install_import_guard()
