"""The Discord adapter's tests.

Unit tests use engine games directly; end-to-end tests run the real bot (TTRBot, unmodified
discord.py) against testkit/fakediscord over real sockets on 127.0.0.1, with a real SQLite file,
driven by testkit/e2e_driver.py. The adapter tests' own helpers live in adapter_kit.py. This
folder is the package `tests.discord`: it never shadows discord.py, because only the repository
root is on the import path.
pytest-asyncio runs in strict mode: async tests are marked.
"""
