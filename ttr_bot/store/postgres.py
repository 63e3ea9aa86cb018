"""`Store` on PostgreSQL through asyncpg: for bots that outgrow one process or one machine.
The operations are `SqlStore`'s (sql/, written in this dialect); this file connects,
migrates, runs them on its pool and holds what only PostgreSQL does (advisory locks, SKIP
LOCKED, the one-statement append).

Chosen by a database setting that starts with postgresql:// or postgres:// (see
`ttr_bot.store.open_store`). The schema is the same as SQLite's, created by the same numbered
migrations in their PostgreSQL dialect (`migrations/NNNN_*.pg.sql`).

How it keeps the `Store` contract (base.py) where PostgreSQL differs from SQLite:
- durability: every session runs with synchronous_commit=on, so a commit has reached the
  server's WAL on disk when it returns, whatever the server's default (the PRAGMA
  synchronous=FULL of the SQLite driver);
- one transaction per method, on a connection from asyncpg's pool (`pool_size` connections at
  most), so concurrent coroutines never share a transaction and no asyncio lock is needed;
- isolation: writes run at READ COMMITTED, and every write that checks a game's state first
  locks that game's row (SELECT ... FOR UPDATE, or an UPDATE whose WHERE is the check). Two
  writers on one game therefore serialise on the row lock, and the second sees the first's
  commit: this is what SQLite's BEGIN IMMEDIATE gives by locking the whole file. The action
  log's expected-seq check is the UPDATE of games.seq itself (`WHERE seq = expected`): of many
  appends at one seq exactly one updates a row, the rest see the new seq and get
  StaleSequence. An ordinary append is that UPDATE and the log row and snapshot it feeds in
  one statement (a data-modifying WITH), so one round trip and its own transaction; the pool
  skips its per-release RESET round trip (the store leaves no session state behind). Loads that must agree with the game's seq (the log, the snapshot) are one
  statement joining the game's row, so they read one snapshot of the data;
- one open game per channel: the same partial unique index; create_game inserts with
  ON CONFLICT DO NOTHING, so a race for a channel ends in ChannelBusy naming the winner;
- ids are BIGINT (Discord snowflakes, seeds: signed 64-bit), times DOUBLE PRECISION (the
  caller's float comes back equal), JSON columns `json` (the text exactly as written: jsonb
  would reorder an action's keys), the append-only log is enforced by plpgsql triggers;
- errors: unique, foreign-key and check violations become the store's own errors
  (ChannelBusy, SeatTaken, NotFound, StoreError) in sql/, from `IntegrityError` and
  `_violation` as for SQLite; the loads validate with the same code (validation.py). What
  says the server, not the statement, is at fault (a read-only server, a full disk, damaged
  data, a lock not granted in time: `_FAULTS`) is `StoreUnavailable`, as for SQLite's file,
  its transaction rolled back.

Later, several processes on one database: every write about a game already begins by locking
that game's row, the natural place for a per-game database lock held across a whole action
(`lock_game`, a transaction-scoped pg_advisory_xact_lock(namespace, game_id) or the row lock
itself), and timers have ids and due times that a lease column and
`FOR UPDATE SKIP LOCKED` can claim from.
"""
import logging
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import asyncpg

from .dburl import redact
from .errors import StoreError, StoreUnavailable
from .models import GameVersion, Timer
from .rows import TIMER_COLUMNS, timer_record
from .schema import MIGRATIONS_DIR, migrate_postgres
from .shards import Shards, qualified
from .shards import on_shards as _on
from .sql import SqlStore

log = logging.getLogger(__name__)
# the game's connections (not its migrations, nor the lock pool's wait for a game's lock) wait
# at most this many seconds for a row lock another session holds: a click is then answered
# "not saved" (StoreUnavailable "locked") instead of waiting for command_timeout
LOCK_TIMEOUT = 5.0
# the first key of the transaction-scoped advisory locks on a user's ratings ("TTR1"); the
# second is a hash of the user id (two users sharing a hash only wait for each other)
RATING_LOCK = 0x54545231

# an ordinary append (no results, nothing owed) in one statement: see SqlStore.append_action
_APPEND = (
    "WITH g AS (UPDATE games SET seq = seq + 1, updated_at = $3 "
    "           WHERE id = $1 AND seq = $2 AND status = 'active' RETURNING id, seq), "
    "a AS (INSERT INTO actions (game_id, seq, actor, action, created_at) "
    "      SELECT id, seq, $4, $5, $3 FROM g), "
    "s AS (INSERT INTO snapshots (game_id, seq, state, updated_at) SELECT id, seq, $6, $3 FROM g "
    "      ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, "
    "      updated_at = excluded.updated_at) "
    "SELECT seq FROM g"
)


# SQLSTATEs that say the server, not the statement, is at fault -> StoreUnavailable.kind; and
# where the sentence of errors.py fits SQLite's file only, what to do here
_FAULTS = {"53100": "full", "25006": "read_only", "XX001": "corrupt", "XX002": "corrupt",
           "55P03": "locked", "58030": "io"}
_REMEDIES = {"read_only": "is read-only (a standby server, or default_transaction_read_only): "
                          "point the bot at the primary server, or make it writable",
             "locked": "has a lock another session holds past lock_timeout: end that "
                       "session's transaction (pg_stat_activity names it)"}


def fault(exc: BaseException, where: str) -> StoreUnavailable | None:
    """The store's error for a server error that says the database is at fault, else None."""
    kind = _FAULTS.get(getattr(exc, "sqlstate", None) or "") \
        if isinstance(exc, asyncpg.PostgresError) else None
    return None if kind is None else StoreUnavailable(where, kind, str(exc), _REMEDIES.get(kind))


def _count(status: str) -> int:
    """Rows touched, from a command status such as 'DELETE 3'."""
    return int(status.split()[-1])


class _Conn:
    """`sql.Conn` on an asyncpg connection, or on the pool (each statement then on a pooled
    connection, in a transaction of its own); `where` (the redacted URL) names the database
    in a `StoreUnavailable`."""
    __slots__ = ("_c", "_where")

    def __init__(self, c: "asyncpg.Connection | asyncpg.Pool", where: str):
        self._c, self._where = c, where

    async def execute(self, sql: str, *args: Any) -> int:
        with _faults(self._where):
            return _count(await self._c.execute(sql, *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _faults(self._where):
            await self._c.executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        with _faults(self._where):
            return await self._c.fetch(sql, *args)

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        with _faults(self._where):
            return await self._c.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with _faults(self._where):
            return await self._c.fetchval(sql, *args)


@contextmanager
def _faults(where: str) -> Iterator[None]:
    try:
        yield
    except asyncpg.PostgresError as exc:
        error = fault(exc, where)
        if error is None:
            raise
        raise error from exc


class PostgresStore(SqlStore):
    shared = True
    IntegrityError = asyncpg.IntegrityConstraintViolationError
    HostSeatError = asyncpg.PostgresError
    NO_LIMIT = None           # LIMIT NULL: all
    APPEND_ALONE = _APPEND

    def __init__(
        self, dsn: str, *, pool_size: int = 10, pool_min_size: int = 1,
        migrations_dir: Path = MIGRATIONS_DIR, connect_timeout: float = 10.0,
        command_timeout: float | None = 60.0, lock_timeout: float = LOCK_TIMEOUT,
    ):
        if pool_size < 1 or not 0 <= pool_min_size <= pool_size:
            raise ValueError("pool_size must be at least 1 and pool_min_size at most pool_size")
        self.dsn = dsn
        self._where = redact(dsn)       # how errors name it (without its password)
        self.pool_size = pool_size
        self.pool_min_size = pool_min_size
        self.migrations_dir = migrations_dir
        self.connect_timeout = connect_timeout
        self.command_timeout = command_timeout
        self.lock_timeout = lock_timeout
        self.schema_version: int | None = None
        self._pool: asyncpg.Pool | None = None
        self._lock_pool: asyncpg.Pool | None = None   # connections that hold games' locks

    def __repr__(self) -> str:
        return f"PostgresStore({redact(self.dsn)!r})"

    # -- lifetime ------------------------------------------------------------------------------
    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.dsn, min_size=self.pool_min_size, max_size=self.pool_size,
                timeout=self.connect_timeout, command_timeout=self.command_timeout,
                server_settings={"synchronous_commit": "on", "application_name": "ttr-bot",
                                 "lock_timeout": f"{round(self.lock_timeout * 1000)}ms"},
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {redact(self.dsn)}: "
                             f"{exc or type(exc).__name__}") from exc
        try:
            async with pool.acquire() as conn:     # a migration waits for another's lock
                await conn.execute("SET lock_timeout = 0")
                self.schema_version = await migrate_postgres(conn, self.migrations_dir)
                await conn.execute("RESET lock_timeout")   # to the pool's setting
        except StoreError as exc:          # e.g. written by a newer bot: name the database
            await pool.close()
            error = fault(exc.__cause__, self._where) if exc.__cause__ else None
            if error is not None:          # a read-only server, a full disk: what to do
                raise error from exc
            raise StoreError(f"{self._where}: {exc}") from exc
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        # apart from the pool the work is done on: a holder of a game's lock then never waits
        # for a connection that only another holder could give back
        self._lock_pool = await asyncpg.create_pool(
            self.dsn, min_size=0, max_size=self.pool_size, timeout=self.connect_timeout,
            command_timeout=self.command_timeout,
            server_settings={"application_name": "ttr-bot-locks"}, reset=_keep_session)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        locks, self._lock_pool = self._lock_pool, None
        for p in (locks, pool):
            if p is not None:
                await p.close()

    def _pool_or_fail(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is not open")
        return self._pool

    @asynccontextmanager
    async def _transaction(self, *, readonly: bool = False) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on a pooled connection: READ COMMITTED for writes (which lock the
        rows they check), REPEATABLE READ READ ONLY for reads of several statements."""
        async with self._pool_or_fail().acquire() as conn:
            isolation = "repeatable_read" if readonly else "read_committed"
            with _faults(self._where):     # the COMMIT's own error too
                async with conn.transaction(isolation=isolation, readonly=readonly):
                    yield conn

    @asynccontextmanager
    async def _tx(self, *, readonly: bool = False) -> AsyncIterator[_Conn]:
        async with self._transaction(readonly=readonly) as conn:
            yield _Conn(conn, self._where)

    @property
    def _auto(self) -> _Conn:
        return _Conn(self._pool_or_fail(), self._where)

    def _violation(self, exc: Exception) -> str:
        if isinstance(exc, asyncpg.UniqueViolationError):
            return "unique"
        return "foreign_key" if isinstance(exc, asyncpg.ForeignKeyViolationError) else "other"

    # -- what differs from SQLite ------------------------------------------------------------
    @asynccontextmanager
    async def lock_game(self, game_id: int) -> AsyncIterator[GameVersion | None]:
        """An advisory lock on the game id (the single-bigint key space: the ratings' two-int
        locks never meet it), taken by ttr_lock_game() (migration 0005) on a connection of
        the lock pool together with the game's version, read after the lock was granted;
        released at the end (one more round trip). A connection whose lock state is in
        doubt (cancelled while waiting, unlock failed) is closed: the server then releases
        its locks, as it does when the process dies."""
        if self._lock_pool is None:
            raise StoreError("the store is not open")
        async with self._lock_pool.acquire() as conn:
            try:
                row = await conn.fetchrow("SELECT seq, status FROM ttr_lock_game($1)", game_id)
            except BaseException:
                conn.terminate()
                raise
            try:
                yield None if row["status"] is None else GameVersion(row["seq"], row["status"])
            finally:
                try:
                    await conn.execute("SELECT pg_advisory_unlock($1)", game_id)
                except BaseException:
                    conn.terminate()
                    raise

    async def claim_timers(
        self, now: float, owner: str, *, limit: int | None = None, lease: float = 60.0,
        shards: Shards | None = None,
    ) -> list[Timer]:
        # rows another claimer has locked are skipped, not waited for; once it commits,
        # their live lease keeps them out of the next claims
        rows = await self._auto.fetch(
            "WITH c AS (SELECT t.id FROM timers t LEFT JOIN games g ON g.id = t.game_id "
            "           WHERE t.due_at <= $1 AND (t.lease_until IS NULL OR t.lease_until <= $1) "
            f"          AND {_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT $3 "
            "           FOR UPDATE OF t SKIP LOCKED) "
            "UPDATE timers SET lease_owner = $2, lease_until = $1 + $4::double precision "
            f"FROM c WHERE timers.id = c.id RETURNING {qualified(TIMER_COLUMNS, 'timers')}",
            float(now), owner, limit, float(lease))
        return sorted(map(timer_record, rows), key=lambda t: (t.due_at, t.id))

    async def _lock_ratings(self, db: Any, users: Sequence[int]) -> None:
        """In the finishing transaction (READ COMMITTED), each user's ratings are locked first,
        in user order, with a transaction-scoped advisory lock: a row lock could not cover a
        player's first rating, which has no row yet. Another game rating one of these players
        waits here until this transaction commits, and then reads (each statement reads what
        was committed before it began) and updates the ratings this one wrote: no update is
        lost. The rated_games row is inserted after the locks, so its seq follows the order in
        which games with a player in common were rated."""
        for u in users:
            await db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2::text))",
                             RATING_LOCK, str(u))


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset on release: nothing. asyncpg still rolls back a transaction left open;
    the store leaves no other session state (no SET, LISTEN, cursors or session-level
    advisory locks), so the default RESET ALL / UNLISTEN round trip per release is skipped."""
