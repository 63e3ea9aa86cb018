"""Brings an SQLite database up to the newest schema in `migrations/`.

Schema changes are numbered SQL files (`0001_initial.sql`, `0002_...sql`). The database records
which ones it has in `schema_version`; at startup every newer file is applied in order, each in
its own IMMEDIATE transaction, so a failed upgrade leaves the database at the last good version
instead of half-changed. Two processes starting at once are safe: the version is re-read inside
the write lock. A database from a newer bot is refused rather than used with a schema this code
does not understand.
"""
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .errors import StoreError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_FILE_NAME = re.compile(r"^(\d+)_\w+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files in `directory`, checked to be numbered 1, 2, 3... without gaps."""
    found = []
    for path in sorted(Path(directory).glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise StoreError(f"migration file {path} is not named like 0001_description.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise StoreError(
                f"migrations in {directory} must be numbered 1, 2, 3... without gaps or "
                f"duplicates; expected version {expected}, found {migration.name}"
            )
    return found


def split_statements(sql: str) -> list[str]:
    """Split a script into single statements (sqlite3's execute() takes one at a time).

    Cuts at each `;` that sqlite3.complete_statement() agrees ends a statement, so semicolons
    inside strings, comments and CREATE TRIGGER bodies are handled by SQLite's own tokenizer.
    """
    statements, current = [], ""
    pieces = sql.split(";")
    for i, piece in enumerate(pieces):
        # The last piece gets a ';' too (on its own line, past any trailing comment): a missing
        # final semicolon is forgiven.
        current += piece + (";" if i < len(pieces) - 1 else "\n;")
        if sqlite3.complete_statement(current):
            statements.append(current.strip())  # may be empty or only comments: harmless
            current = ""
    if current.strip():
        raise StoreError(f"migration ends inside a statement: {current.strip()[:200]!r}")
    return statements


async def current_version(db: aiosqlite.Connection) -> int:
    rows = await db.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return rows[0][0]


async def migrate(
    db: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR, now: float | None = None
) -> int:
    """Apply every migration newer than the database's version; return the resulting version.

    `db` must be in autocommit mode (isolation_level=None): this function manages transactions.
    """
    migrations = discover(directory)
    newest = migrations[-1].version if migrations else 0
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    _refuse_newer(await current_version(db), newest)
    for migration in migrations:
        try:
            await db.execute("BEGIN IMMEDIATE")
            version = await current_version(db)  # again, under the write lock
            _refuse_newer(version, newest)
            if version >= migration.version:
                await db.execute("COMMIT")
                continue
            for statement in split_statements(migration.sql):
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time() if now is None else now),
            )
            broken = await db.execute_fetchall("PRAGMA foreign_key_check")
            if broken:
                raise StoreError(f"foreign key violations after migration: {list(broken)[:5]}")
            await db.execute("COMMIT")
        except BaseException as exc:
            await db.rollback()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"migration {migration.name} failed: {exc}") from exc
            raise
    return await current_version(db)


def _refuse_newer(version: int, newest: int) -> None:
    if version > newest:
        raise StoreError(
            f"database schema version {version} is newer than this bot "
            f"(knows up to {newest}); upgrade the bot"
        )
