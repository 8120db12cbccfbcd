"""Late War events (late_b)."""

from __future__ import annotations
