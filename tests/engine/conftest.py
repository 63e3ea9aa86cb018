"""The engine rule tests (one module per section of RULES.md). Helpers live in rulekit.py."""
from pathlib import Path

HERE = Path(__file__).resolve().parent
