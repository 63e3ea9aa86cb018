"""Shared helpers for the engine property tests and the record tests."""
