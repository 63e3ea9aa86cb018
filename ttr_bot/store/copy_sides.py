"""Each driver's bulk access for `bot.py migrate-db` (transfer.py): reading a table in batches in
one transaction, writing rows into an empty target in one transaction, and the id sequences' high-water marks."""
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from .base import Store
from .copy_tables import BATCH, CopyError, Table, normal_row


# -- each driver's bulk access ---------------------------------------------------------------------
class _SqliteSide:
    def __init__(self, store: Any):
        self.store = store
        self.db: Any = None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator["_SqliteSide"]:
        async with self.store._transaction("DEFERRED") as db:
            self.db = db
            yield self

    @asynccontextmanager
    async def writing(self) -> AsyncIterator["_SqliteSide"]:
        async with self.store._transaction("IMMEDIATE") as db:
            self.db = db
            yield self

    async def count(self, table: Table) -> int:
        return (await self.db.execute_fetchall(f"SELECT COUNT(*) FROM {table.name}"))[0][0]

    async def rows(self, table: Table) -> AsyncIterator[list[tuple]]:
        cursor = await self.db.execute(f"SELECT {', '.join(table.columns)} FROM {table.name} "
                                       f"ORDER BY {', '.join(table.key)}")
        try:
            while batch := await cursor.fetchmany(BATCH):
                yield [normal_row(table, row) for row in batch]
        finally:
            await cursor.close()

    async def high_water(self, table: Table) -> int:
        rows = await self.db.execute_fetchall(
            "SELECT seq FROM sqlite_sequence WHERE name = ?", (table.name,))
        top = await self.db.execute_fetchall(f"SELECT MAX({table.identity}) FROM {table.name}")
        return max(rows[0][0] if rows else 0, top[0][0] or 0)

    async def insert(self, table: Table, rows: list[tuple]) -> None:
        marks = ", ".join("?" * len(table.columns))
        await self.db.executemany(
            f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})", rows)

    async def set_high_water(self, table: Table, value: int) -> None:
        if value <= 0:
            return
        cursor = await self.db.execute(
            "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", (value, table.name))
        if cursor.rowcount == 0:
            await self.db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)",
                                  (table.name, value))


class _PgSide:
    def __init__(self, store: Any):
        self.store = store
        self.conn: Any = None

    @asynccontextmanager
    async def _session(self, **transaction: Any) -> AsyncIterator["_PgSide"]:
        async with self.store._pool_or_fail().acquire() as conn:
            async with conn.transaction(**transaction):
                self.conn = conn
                yield self

    def reading(self) -> Any:
        return self._session(isolation="repeatable_read", readonly=True)

    def writing(self) -> Any:
        return self._session()

    async def count(self, table: Table) -> int:
        return await self.conn.fetchval(f"SELECT COUNT(*) FROM {table.name}")

    async def rows(self, table: Table) -> AsyncIterator[list[tuple]]:
        batch = []
        async for row in self.conn.cursor(
                f"SELECT {', '.join(table.columns)} FROM {table.name} "
                f"ORDER BY {', '.join(table.key)}", prefetch=BATCH):
            batch.append(normal_row(table, row))
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    async def _sequence(self, table: Table) -> str:
        return await self.conn.fetchval("SELECT pg_get_serial_sequence($1, $2)",
                                        table.name, table.identity)

    async def high_water(self, table: Table) -> int:
        last, called = await self.conn.fetchrow(
            f"SELECT last_value, is_called FROM {await self._sequence(table)}")
        top = await self.conn.fetchval(f"SELECT MAX({table.identity}) FROM {table.name}")
        return max(last if called else 0, top or 0)

    async def insert(self, table: Table, rows: list[tuple]) -> None:
        await self.conn.copy_records_to_table(table.name, records=rows, columns=table.columns)

    async def set_high_water(self, table: Table, value: int) -> None:
        if value > 0:
            await self.conn.execute("SELECT setval($1, $2, true)", await self._sequence(table),
                                    value)


def side_of(store: Store) -> Any:
    from .sqlite import SqliteStore
    if isinstance(store, SqliteStore):
        return _SqliteSide(store)
    from .postgres import PostgresStore
    if isinstance(store, PostgresStore):
        return _PgSide(store)
    raise CopyError(f"cannot copy from or to a {type(store).__name__}")


