"""Shared pytest configuration. Helper modules: conformance.py (every game), serverkit.py (a
real referee server). Long soak/fuzz runs honour STANDOFF_LONG=1; CI runs bounded versions."""
