"""Brings a database up to the newest schema in `migrations/`, on SQLite or PostgreSQL.

Schema changes are numbered, and every number exists once per dialect, with the same name:
`0001_initial.sqlite.sql` and `0001_initial.pg.sql`, `0002_seat_handover.sqlite.sql` and
`0002_seat_handover.pg.sql`, ... (`discover` refuses a number that lacks one of them, so a
change cannot land for one driver only). Both files of a number make the same change, each in
its database's dialect (AUTOINCREMENT / identity columns, SQLite triggers / plpgsql, REAL /
double precision, json_valid() / json), so a database at version N has the same tables,
columns, keys and checks whichever driver holds it, and `migrate-db` can copy it across.

The database records which versions it has in `schema_version` under the name without the
dialect (`0001_initial.sql`): what databases created before PostgreSQL existed already hold
(their files were `0001_initial.sql` and `0002_seat_handover.sql`, the SQLite text unchanged).
At startup every newer version is applied in order, each in its own transaction, so a failed
upgrade leaves the database at the last good version instead of half-changed (PostgreSQL's
DDL is transactional too). Two processes starting at once are safe: the version is re-read
inside SQLite's write lock, or under a PostgreSQL advisory lock. A database from a newer bot is
refused rather than used with a schema this code does not understand.
"""
import re
import sqlite3
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import StoreError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
# driver -> the dialect part of its migration files' names
DIALECTS = {"sqlite": "sqlite", "postgresql": "pg"}
_FILE_NAME = re.compile(r"^(\d+)_(\w+)\.(sqlite|pg)\.sql$")
# pg_advisory_xact_lock key serialising migrations (ASCII "ttr_mig"); a later per-game lock
# uses the two-key form pg_advisory_xact_lock(namespace, game_id), which never collides with it
PG_MIGRATION_LOCK = 0x7474725F6D6967
_SCHEMA_VERSION = ("CREATE TABLE IF NOT EXISTS schema_version ("
                   " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at {real} NOT NULL)")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str   # as recorded in schema_version, without the dialect: 0001_initial.sql
    sql: str
    path: Path


def discover(directory: Path = MIGRATIONS_DIR, dialect: str = "sqlite") -> list[Migration]:
    """`dialect`'s migrations in `directory` ("sqlite" or "postgresql"), checked: every file
    named NNNN_description.sqlite.sql or NNNN_description.pg.sql, every number with one name
    and both dialects' files, numbered 1, 2, 3... without gaps."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    by_version: dict[int, dict[str, Path]] = defaultdict(dict)
    names: dict[int, set[str]] = defaultdict(set)
    for path in sorted(Path(directory).glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise StoreError(
                f"migration file {path} is not named like 0001_description.sqlite.sql or "
                "0001_description.pg.sql"
            )
        version = int(match.group(1))
        names[version].add(f"{match.group(1)}_{match.group(2)}.sql")
        by_version[version][match.group(3)] = path
    found = []
    for expected, version in enumerate(sorted(by_version), start=1):
        files = by_version[version]
        if version != expected:
            raise StoreError(
                f"migrations in {directory} must be numbered 1, 2, 3... without gaps or "
                f"duplicates; expected version {expected}, found {sorted(names[version])[0]}"
            )
        if len(names[version]) > 1:
            raise StoreError(f"migration {version} has different names per dialect: "
                             f"{', '.join(sorted(names[version]))}")
        missing = [d for d in DIALECTS.values() if d not in files]
        if missing:
            raise StoreError(f"migration {next(iter(names[version]))} has no "
                             f"{' or '.join(f'.{d}.sql' for d in missing)} file: each "
                             "migration exists for both SQLite and PostgreSQL")
        path = files[DIALECTS[dialect]]
        found.append(Migration(version, next(iter(names[version])),
                               path.read_text(encoding="utf-8"), path))
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
    rows = list(await db.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
    return int(rows[0][0])


async def migrate(
    db: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR, now: float | None = None
) -> int:
    """SQLite: apply every migration newer than the database's version; return the resulting
    version. `db` must be in autocommit mode (isolation_level=None): this function manages
    transactions."""
    migrations = discover(directory, "sqlite")
    newest = migrations[-1].version if migrations else 0
    await db.execute(_SCHEMA_VERSION.format(real="REAL"))
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


async def migrate_postgres(conn: Any, directory: Path = MIGRATIONS_DIR,
                           now: float | None = None) -> int:
    """PostgreSQL: the same on an asyncpg connection (not in a transaction). Each migration
    runs as one script in one transaction, holding an advisory lock that every migrating
    process takes first (so two first starts do not both create the tables)."""
    import asyncpg

    migrations = discover(directory, "postgresql")
    newest = migrations[-1].version if migrations else 0
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", PG_MIGRATION_LOCK)
            await conn.execute(_SCHEMA_VERSION.format(real="DOUBLE PRECISION"))
            _refuse_newer(await _pg_version(conn), newest)
    except asyncpg.PostgresError as exc:
        raise StoreError(f"could not read the schema version: {exc}") from exc
    for migration in migrations:
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", PG_MIGRATION_LOCK)
                version = await _pg_version(conn)
                _refuse_newer(version, newest)
                if version >= migration.version:
                    continue
                await conn.execute(migration.sql)   # no arguments: the whole script at once
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version, migration.name, time.time() if now is None else now,
                )
        except asyncpg.PostgresError as exc:
            raise StoreError(f"migration {migration.name} failed: {exc}") from exc
    return await _pg_version(conn)


async def _pg_version(conn: Any) -> int:
    return await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")


def _refuse_newer(version: int, newest: int) -> None:
    if version > newest:
        raise StoreError(
            f"database schema version {version} is newer than this bot "
            f"(knows up to {newest}); upgrade the bot"
        )
