"""tests/ai: the repository root and this folder on the import path (as tests/engine does)."""

