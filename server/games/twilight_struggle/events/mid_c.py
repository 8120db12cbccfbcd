"""Mid War events (mid_c): see the module list in events/__init__.py."""

from __future__ import annotations
