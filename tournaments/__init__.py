"""Standoff."""
