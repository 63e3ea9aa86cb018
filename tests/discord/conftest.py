"""The Discord adapter's tests.

Unit tests use engine games directly; end-to-end tests run the real bot (TTRBot, unmodified
discord.py) against tests/fakediscord over real sockets on 127.0.0.1, with a real SQLite file.
Shared helpers live in adapter_kit.py, which also puts the repository and tests/ on sys.path.

No __init__.py here on purpose: a package named `discord` under tests/ could shadow discord.py.
pytest-asyncio runs in strict mode: async tests are marked.
"""
import adapter_kit  # noqa: F401
