"""A map's own rules (RULES.md §12–§17), one module per mechanic."""
IMPLEMENTED: frozenset[str] = frozenset()
