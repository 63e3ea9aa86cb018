"""The one place a store is made from a database setting.

    open_store("ttr.sqlite3")                         SQLite, a file (the default)
    open_store("sqlite:///ttr.sqlite3")               the same, as a URL (sqlite:////abs/path)
    open_store("postgresql://user:pw@host:5432/ttr")  PostgreSQL (postgres:// too)

`open_store` returns the store NOT yet connected: `await store.open()` (connects and runs the
migrations) or `async with open_store(url) as store:`. It is a plain function so a caller can
hand the store to something that opens it at its own time (the bot's setup_hook). Options go
to the driver: `busy_timeout` for SQLite; `pool_size`, `pool_min_size`, `connect_timeout`,
`command_timeout` for PostgreSQL; `migrations_dir` for both. Which setting names which driver:
dburl.py.
"""
from pathlib import Path
from typing import Any

from .base import Store
from .dburl import PG_PREFIXES, SQLITE_PREFIX, parse_db_url, redact


def open_store(url_or_path: str | Path, **options: Any) -> Store:
    """The store for a database setting, not yet opened (see the module's docstring)."""
    driver, target = parse_db_url(url_or_path)
    if driver == "postgresql":
        from .postgres import PostgresStore  # asyncpg is imported only when it is used
        return PostgresStore(target, **options)
    from .sqlite import SqliteStore
    return SqliteStore(target, **options)


__all__ = ["open_store", "parse_db_url", "redact", "PG_PREFIXES", "SQLITE_PREFIX"]
