"""The engine rule tests (one module per section of docs/rules.md; test_public_api.py for the
questions the engine answers for players' interfaces). Helpers live in rulekit.py."""
from pathlib import Path

HERE = Path(__file__).resolve().parent
