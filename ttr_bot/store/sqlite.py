"""`Store` on SQLite through aiosqlite: the driver the bot runs on. The operations are
`SqlStore`'s (sql/); this file connects, migrates, rewrites their SQL into SQLite's dialect
and runs it.

Durability: WAL journal with synchronous=FULL, so a commit is on disk when it returns (NORMAL
could lose the last transactions on power loss, and the service reports actions done right
after committing). Concurrency: one connection per store, shared by all coroutines; an
asyncio lock gives each operation the connection to itself (interleaved coroutines would
otherwise run statements inside each other's transactions). Writes start with BEGIN IMMEDIATE,
taking SQLite's write lock before reading what they check, so several connections (or
processes) on one file serialise on busy_timeout instead of failing with "database is locked"
or acting on a stale read: what PostgreSQL's row locks (`FOR UPDATE`, dropped here) give.

Faults of the file while the bot runs (it became read-only, the disk is full, another program
holds the lock past busy_timeout, the file is damaged, the disk fails) are raised as
`StoreUnavailable`, naming the file and what to do (`fault`): the operation's transaction is
rolled back, nothing of it was written, and the same call works once the fault is gone.
"""
import asyncio
import json
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import aiosqlite

from .dburl import PG_PREFIXES, SQLITE_PREFIX, parse_db_url
from .errors import StoreError, StoreUnavailable
from .models import GameVersion, Timer
from .rows import TIMER_COLUMNS, timer_record
from .schema import MIGRATIONS_DIR, migrate
from .shards import Shards, qualified
from .shards import on_shards as _on
from .sql import SqlStore

log = logging.getLogger(__name__)

# PostgreSQL's dialect (sql/) -> SQLite's, in order
_REWRITES = [
    (re.compile(r"= ANY\(\$(\d+)(?:::\w+\[\])?\)"), r"IN (SELECT value FROM json_each(?\1))"),
    (re.compile(r"::(?:double precision|\w+)(?:\[\])?"), ""),
    (re.compile(r" FOR UPDATE(?: OF \w+)?(?: SKIP LOCKED)?"), ""),
    (re.compile(r"\bIS NOT DISTINCT FROM\b"), "IS"),
    (re.compile(r"\bGREATEST\("), "MAX("),
    (re.compile(r"\$(\d+)"), r"?\1"),
]


@lru_cache(maxsize=1024)
def to_sqlite(sql: str) -> str:
    """A statement of sql/ in SQLite's dialect: `$n` -> `?n` (SQLite's numbered parameters),
    `= ANY($n)` -> `IN (SELECT value FROM json_each(?n))` (the list goes in as JSON), casts and
    row locks dropped (the transaction holds the file's write lock), GREATEST -> MAX."""
    for pattern, replacement in _REWRITES:
        sql = pattern.sub(replacement, sql)
    return sql


def _params(args: Sequence[Any]) -> Sequence[Any]:
    """Lists (the `= ANY($n)` arguments) go in as JSON text, for json_each."""
    if any(type(a) is list for a in args):
        return [json.dumps(a) if type(a) is list else a for a in args]
    return args


# SQLite's result codes (an extended code starts with its primary one's name) that mean the
# file, not the statement, is at fault -> StoreUnavailable.kind
_FAULTS = {"SQLITE_READONLY": "read_only", "SQLITE_FULL": "full", "SQLITE_BUSY": "locked",
           "SQLITE_LOCKED": "locked", "SQLITE_CORRUPT": "corrupt", "SQLITE_NOTADB": "corrupt",
           "SQLITE_IOERR": "io", "SQLITE_CANTOPEN": "io"}


def fault(exc: BaseException, where: Any) -> StoreUnavailable | None:
    """The store's error for a driver error that says the file is at fault, else None (a
    broken key, a bad statement: the caller's business)."""
    if not isinstance(exc, sqlite3.DatabaseError) or isinstance(exc, sqlite3.IntegrityError):
        return None
    name = getattr(exc, "sqlite_errorname", None) or ""
    kind = _FAULTS.get("_".join(name.split("_")[:2]))
    return None if kind is None else StoreUnavailable(str(where), kind, str(exc))


@contextmanager
def _faults(where: Any) -> Iterator[None]:
    try:
        yield
    except sqlite3.DatabaseError as exc:
        error = fault(exc, where)
        if error is None:
            raise
        raise error from exc


class _Conn:
    """`sql.Conn` on the store's aiosqlite connection; with `lock`, each statement takes the
    store's lock for itself (SQLite's autocommit: a transaction of its own). `where` (the
    file) names it in a `StoreUnavailable`."""
    __slots__ = ("_db", "_lock", "_where")

    def __init__(self, db: aiosqlite.Connection, where: Any, lock: asyncio.Lock | None = None):
        self._db, self._lock, self._where = db, lock, where

    async def execute(self, sql: str, *args: Any) -> int:
        with _faults(self._where):
            if self._lock is None:
                return (await self._db.execute(to_sqlite(sql), _params(args))).rowcount
            async with self._lock:
                return (await self._db.execute(to_sqlite(sql), _params(args))).rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _faults(self._where):
            if self._lock is None:
                await self._db.executemany(to_sqlite(sql), rows)
                return
            async with self._lock:
                await self._db.executemany(to_sqlite(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        with _faults(self._where):
            if self._lock is None:
                return list(await self._db.execute_fetchall(to_sqlite(sql), _params(args)))
            async with self._lock:
                return list(await self._db.execute_fetchall(to_sqlite(sql), _params(args)))

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0][0] if rows else None


class SqliteStore(SqlStore):
    IntegrityError = sqlite3.IntegrityError
    HostSeatError = sqlite3.IntegrityError
    NO_LIMIT = -1

    def __init__(
        self, path: str | Path, *, migrations_dir: Path = MIGRATIONS_DIR,
        busy_timeout: float = 10.0,
    ):
        if isinstance(path, str) and path.startswith(SQLITE_PREFIX):
            path = parse_db_url(path)[1]      # sqlite:///file, as open_store() accepts it
        elif str(path).startswith(PG_PREFIXES):
            raise ValueError("SqliteStore was given a PostgreSQL URL: open_store(url) picks "
                             "the driver")
        self.path = path
        self.migrations_dir = migrations_dir
        self.busy_timeout = busy_timeout
        self.schema_version: int | None = None
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- lifetime ------------------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            return
        connecting = aiosqlite.connect(self.path, isolation_level=None)  # we issue BEGIN/COMMIT
        try:
            db = await connecting
        except sqlite3.Error as exc:
            # aiosqlite (0.22) asks its thread to stop without waiting for it: wait here, or it
            # answers a loop that may be closed by then (an error in the thread, on stderr)
            await asyncio.to_thread(connecting._thread.join, 5)
            raise StoreError(f"cannot open the SQLite database {self.path} ({exc}); check the "
                             "path and that the bot may write there") from exc
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            mode = await self._enable_wal(db)
            if str(mode).lower() != "wal" and str(self.path) != ":memory:":
                log.warning("SQLite database %s is in journal mode %s, not WAL", self.path, mode)
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            self.schema_version = await migrate(db, self.migrations_dir)
            if str(self.path) != ":memory:":   # a file it may read but not write: say so now
                await self._try_a_write(db)
        except StoreError as exc:              # e.g. written by a newer bot: name the file
            await db.close()
            raise StoreError(f"{self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:   # garbage, a torn file, not SQLite at all
            await db.close()
            error = fault(exc, self.path)
            if error is not None and error.kind != "corrupt":   # read-only, full, locked
                raise error from exc
            raise StoreError(f"{self.path} is not a usable SQLite database ({exc}); restore it "
                             "from a backup, or move it away to start with an empty one") from exc
        except BaseException:
            await db.close()
            raise
        self._db = db

    @staticmethod
    async def _try_a_write(db: aiosqlite.Connection) -> None:
        """Write the header's user_version as it is, and roll it back: SQLite opens a file it
        may not write read-only without a word, and would refuse only the first move."""
        version = list(await db.execute_fetchall("PRAGMA user_version"))[0][0]
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(f"PRAGMA user_version = {int(version)}")
        finally:
            if db.in_transaction:
                await db.execute("ROLLBACK")

    async def _enable_wal(self, db: aiosqlite.Connection) -> str:
        """Switch to WAL (persistent in the file). Needs a moment alone with the file, and SQLite
        may answer "locked" at once, without its busy handler, while another connection is
        opening it too: retry until busy_timeout has passed."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                return str(list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))[0][0])
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.01)

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            async with self._lock:
                await db.close()

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    @asynccontextmanager
    async def _transaction(self, mode: str = "IMMEDIATE") -> AsyncIterator[aiosqlite.Connection]:
        """Run the body as one transaction; IMMEDIATE for writes, DEFERRED for consistent reads."""
        db = self._conn()
        async with self._lock:
            try:
                # BEGIN inside the try: if the caller is cancelled while it is queued, it still
                # runs on aiosqlite's thread, and the rollback must close what it opened.
                with _faults(self.path):
                    if db.in_transaction:   # a rollback the file refused earlier: finish it
                        await db.rollback()
                    await db.execute(f"BEGIN {mode}")
                yield db
                with _faults(self.path):
                    await db.execute("COMMIT")
            except BaseException:
                try:
                    await db.rollback()  # a no-op if SQLite already rolled back
                except sqlite3.Error:    # the file's fault again: the first error says it
                    log.warning("could not roll back on %s", self.path, exc_info=True)
                raise

    @asynccontextmanager
    async def _tx(self, *, readonly: bool = False) -> AsyncIterator[_Conn]:
        async with self._transaction("DEFERRED" if readonly else "IMMEDIATE") as db:
            yield _Conn(db, self.path)

    @property
    def _auto(self) -> _Conn:
        return _Conn(self._conn(), self.path, self._lock)

    def _violation(self, exc: Exception) -> str:
        name = getattr(exc, "sqlite_errorname", "")
        if name in ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"):
            return "unique"
        return "foreign_key" if name == "SQLITE_CONSTRAINT_FOREIGNKEY" else "other"

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """A statement in SQLite's own dialect (tools and benches)."""
        db = self._conn()
        async with self._lock:
            with _faults(self.path):
                return list(await db.execute_fetchall(sql, params))

    # -- what differs from PostgreSQL ----------------------------------------------------------
    @asynccontextmanager
    async def lock_game(self, game_id: int) -> AsyncIterator[GameVersion | None]:
        # no lock across processes: the file's write lock serialises each write, and
        # append_action's seq check refuses an action computed from a stale copy
        row = await self._auto.fetchrow("SELECT seq, status FROM games WHERE id = $1", game_id)
        yield None if row is None else GameVersion(row[0], row[1])

    async def claim_timers(
        self, now: float, owner: str, *, limit: int | None = None, lease: float = 60.0,
        shards: Shards | None = None,
    ) -> list[Timer]:
        now = float(now)
        async with self._tx() as db:   # the write lock: one claimer at a time
            rows = await db.fetch(
                f"SELECT {qualified(TIMER_COLUMNS, 't')} FROM timers t "
                "LEFT JOIN games g ON g.id = t.game_id WHERE t.due_at <= $1 "
                "AND (t.lease_until IS NULL OR t.lease_until <= $1) AND "
                f"{_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT $2",
                now, self._limit(limit))
            if rows:
                await db.executemany(
                    "UPDATE timers SET lease_owner = $1, lease_until = $2 WHERE id = $3",
                    [(owner, now + lease, row[0]) for row in rows])
        return [timer_record(row) for row in rows]
