"""Late War events (late_a)."""

from __future__ import annotations
