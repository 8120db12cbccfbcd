"""Shared fixtures. Long soak/fuzz runs are marked ``slow``: CI runs bounded versions by default;
``STANDOFF_LONG=1`` runs the full ones."""

from __future__ import annotations

import os

LONG = os.environ.get("STANDOFF_LONG") == "1"
