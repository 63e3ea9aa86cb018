"""Moving a bot's data from one database to another: `python bot.py migrate-db`.

    report = await migrate_database("sqlite:///ttr.sqlite3", "postgresql://bot@db/ttr",
                                    check_game=...)

copies every row of every table (games, seats, the action logs, snapshots, timers, user
settings, results, ratings and their log, message references) from the source to an empty target of the same schema
version, keeping every id (buttons and timers name games by id) and each id sequence's high-water
mark (ids are never reused), then verifies the copy:
- every table has as many rows as the source, and the same rows, compared column by column in
  a form both drivers share (the JSON texts byte for byte);
- every game that started loads from the target through the `Store` interface (its log and
  snapshot pass the loads' checks), and `check_game`, which the caller supplies (the bot
  replays the log with GameService.rebuild and compares the state with the snapshot: the store
  package does not import the service), finds nothing wrong.

The copy is one transaction on the target: a failure leaves it empty, ready for another try.
The source is read in one transaction too (one consistent snapshot), and never written, except
that opening it brings it up to this bot's schema as the bot itself would at start-up. Stop the
bot first: the copy is of the moment it starts. A target that already holds anything is
refused. Both drivers' internals are used here (their connections), so nothing of this is part
of the `Store` interface the service sees.
"""
import asyncio
import hashlib
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from .base import Store
from .dburl import parse_db_url, redact
from .errors import CorruptData, StoreError
from .factory import open_store
from .models import Snapshot


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    kinds: tuple[str, ...]     # per column: int, float, text, json, bool
    key: tuple[str, ...]
    identity: str | None = None   # the id column fed by a sequence
    label: str = ""


def _table(name: str, spec: str, key: str, identity: str | None = None, label: str = "") -> Table:
    pairs = [item.split(":") for item in spec.split()]
    return Table(name, tuple(c for c, _ in pairs), tuple(k for _, k in pairs),
                 tuple(key.split(",")), identity, label or name)


# Parents before children (foreign keys are checked as rows arrive).
TABLES = (
    _table("games", "id:int guild_id:int channel_id:int map:text variant:text options:json "
           "seed:int status:text host_id:int created_at:float updated_at:float "
           "finished_at:float seq:int end_reason:text", "id", identity="id"),
    _table("seats", "game_id:int seat:int user_id:int display_name:text bot_level:int "
           "notify:json former_user_id:int timeouts:int handover:text human_turns:int",
           "game_id,seat"),
    _table("actions", "game_id:int seq:int actor:int action:json created_at:float",
           "game_id,seq"),
    _table("snapshots", "game_id:int seq:int state:json updated_at:float", "game_id"),
    _table("timers", "id:int game_id:int kind:text due_at:float payload:json created_at:float "
           "attempts:int", "id", identity="id"),
    _table("users", "user_id:int locale:text dms_closed:bool updated_at:float notify:json "
           "palette:text",
           "user_id", label="user settings"),
    _table("away", "user_id:int guild_id:int since:float until:float", "user_id,guild_id",
           label="away periods"),
    _table("away_log", "user_id:int guild_id:int since:float until:float",
           "user_id,guild_id,since", label="away periods taken"),
    _table("results", "game_id:int seat:int user_id:int score:int rank:int won:bool "
           "tickets_completed:int map:text variant:text finished_at:float former_user_id:int "
           "guild_id:int name:text tickets_failed:int longest_bonus:bool turns_human:int "
           "turns_total:int handover:text rated:bool", "game_id,seat"),
    _table("ratings", "scope:int user_id:int mu:float sigma:float value:float games:int "
           "updated_at:float", "scope,user_id"),
    _table("rated_games", "seq:int game_id:int rated_at:float", "seq", identity="seq",
           label="rated games"),
    _table("rating_changes", "game_id:int scope:int user_id:int mu_before:float "
           "sigma_before:float mu_after:float sigma_after:float", "game_id,scope,user_id",
           label="rating changes"),
    _table("messages", "game_id:int kind:text channel_id:int message_id:int updated_at:float",
           "game_id,kind", label="message references"),
    _table("outbox", "id:int game_id:int kind:text lane:text payload:json key:text held:bool "
           "seq:int due_at:float created_at:float attempts:int sent_at:float error:text", "id",
           identity="id", label="owed messages"),
    _table("votes", "id:int game_id:int kind:text target_seat:int proposer:int voters:json "
           "ballots:json status:text created_at:float expires_at:float closed_at:float", "id",
           identity="id"),
    _table("guild_settings", "guild_id:int locale:text updated_at:float timezone:text cup_role:int",
           "guild_id", label="server settings"),
    _table("season_settings", "guild_id:int period:text channel_id:int role_id:int set_by:int "
           "updated_at:float", "guild_id", label="season settings"),
    _table("seasons_closed", "guild_id:int season:text champion_id:int closed_at:float "
           "started_at:float ended_at:float",
           "guild_id,season", label="seasons closed"),
    _table("boards", "guild_id:int channel_id:int message_id:int digest:text owed_at:float "
           "ticked_at:float refused_at:float set_by:int set_at:float", "guild_id",
           label="live boards"),
)
BY_NAME = {t.name: t for t in TABLES}
BATCH = 2000

# check_game(target store, game id, its snapshot) -> None if the game is right, else why not
GameCheck = Callable[[Store, int, Snapshot], Awaitable[str | None]]


class CopyError(StoreError):
    """The copy was refused or failed, or the copy does not verify; the message says why."""


# -- values both drivers agree on ---------------------------------------------------------------------
def _normal(table: Table, row: Any) -> tuple:
    """A row as plain values of its columns' kinds: what the target is given and what the
    verification compares. Refuses a value of the wrong kind (SQLite's columns can hold any)."""
    out = []
    for column, kind, value in zip(table.columns, table.kinds, tuple(row)):
        if value is None:
            out.append(None)
        elif kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            out.append(value)
        elif kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(float(value))
        elif kind == "bool" and isinstance(value, (bool, int)) and value in (0, 1):
            out.append(bool(value))
        elif kind in ("text", "json") and isinstance(value, str):
            out.append(value)
        else:
            key = {c: v for c, v in zip(table.columns, tuple(row)) if c in table.key}
            raise CopyError(f"{table.name} row {key}: column {column} holds {value!r}, "
                            f"which is not {kind}; repair the source first")
    return tuple(out)


def _key(table: Table, row: tuple) -> dict[str, Any]:
    return {c: v for c, v in zip(table.columns, row) if c in table.key}


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
                yield [_normal(table, row) for row in batch]
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
            batch.append(_normal(table, row))
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


def _side(store: Store) -> Any:
    from .sqlite import SqliteStore
    if isinstance(store, SqliteStore):
        return _SqliteSide(store)
    from .postgres import PostgresStore
    if isinstance(store, PostgresStore):
        return _PgSide(store)
    raise CopyError(f"cannot copy from or to a {type(store).__name__}")


# -- copying and verifying ---------------------------------------------------------------------------
@dataclass
class CopyReport:
    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)       # table -> rows
    statuses: dict[str, int] = field(default_factory=dict)   # game status -> games
    games_checked: int = 0
    copied: bool = True
    seconds: float = 0.0

    def summary(self) -> str:
        """One line: what was copied (or checked) and that it verified."""
        by = self.statuses
        games = (f"{self.rows.get('games', 0)} games ({by.get('active', 0)} in play, "
                 f"{by.get('lobby', 0)} in the lobby, {by.get('finished', 0)} finished, "
                 f"{by.get('cancelled', 0)} cancelled)")
        rest = ", ".join(f"{self.rows.get(t.name, 0)} {t.label}" for t in TABLES
                         if t.name != "games")
        verb = "Copied" if self.copied else "Checked the copy of"
        return (f"{verb} {self.source} to {self.target}: {games}, {rest}; verified: every table "
                f"matches row for row and {self.games_checked} started games rebuild from "
                f"their logs to their snapshots ({self.seconds:.1f} s).")


async def copy_rows(source: Store, target: Store) -> dict[str, int]:
    """Copy every table's rows into the empty `target`, in one transaction; rows per table."""
    if source.schema_version != target.schema_version:
        raise CopyError(f"the source is at schema version {source.schema_version} and the "
                        f"target at {target.schema_version}")
    counts = {}
    async with _side(source).reading() as reader, _side(target).writing() as writer:
        held = {t.label: n for t in TABLES if (n := await writer.count(t))}
        if held:
            raise CopyError("the target already holds data (" + ", ".join(
                f"{n} {label}" for label, n in held.items()) + "): migrate-db copies only into "
                "an empty database")
        for table in TABLES:
            counts[table.name] = 0
            async for rows in reader.rows(table):
                await writer.insert(table, rows)
                counts[table.name] += len(rows)
            if table.identity:
                await writer.set_high_water(table, await reader.high_water(table))
    return counts


async def verify_copy(source: Store, target: Store, *, check_game: GameCheck | None = None,
                      report: CopyReport | None = None) -> CopyReport:
    """Compare every table row by row, load every started game from the target and run
    `check_game` on it; CopyError listing what differs (the first few) if anything does."""
    report = report or CopyReport("source", "target", copied=False)
    problems: list[str] = []
    started: list[int] = []
    if source.schema_version != target.schema_version:
        problems.append(f"schema versions differ ({source.schema_version} and "
                        f"{target.schema_version})")
    async with _side(source).reading() as a, _side(target).reading() as b:
        for table in TABLES:
            n_a, n_b = await a.count(table), await b.count(table)
            report.rows[table.name] = n_b
            if n_a != n_b:
                problems.append(f"{table.label}: {n_a} in the source, {n_b} in the copy")
                continue
            differ, first, digest_a, digest_b = 0, None, hashlib.sha256(), hashlib.sha256()
            async for row_a, row_b in _pairs(a.rows(table), b.rows(table)):
                digest_a.update(repr(row_a).encode())
                digest_b.update(repr(row_b).encode())
                if row_a != row_b:
                    differ += 1
                    first = first or _key(table, row_a)
                if table.name == "games":
                    report.statuses[row_b[7]] = report.statuses.get(row_b[7], 0) + 1
                    if row_b[7] != "lobby":
                        started.append(row_b[0])
            if differ or digest_a.digest() != digest_b.digest():
                problems.append(f"{table.label}: {differ} rows differ from the source "
                                f"(the first: {first})")
    for game_id in started:
        try:
            await target.load_actions(game_id)
            snapshot = await target.load_snapshot(game_id)
        except CorruptData as exc:
            problems.append(str(exc))
            continue
        if snapshot is None:            # cancelled in the lobby: nothing to rebuild
            continue
        report.games_checked += 1
        if check_game is not None:
            try:
                why = await check_game(target, game_id, snapshot)
            except CorruptData as exc:
                why = str(exc)
            if why:
                problems.append(f"game {game_id}: {why}")
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise CopyError("the copy does not verify: " + "; ".join(problems[:5]) + more)
    return report


async def _pairs(left: AsyncIterator[list[tuple]],
                 right: AsyncIterator[list[tuple]]) -> AsyncIterator[tuple[tuple, tuple]]:
    """Rows of two equally long streams of batches, side by side."""
    buffer_a: list[tuple] = []
    buffer_b: list[tuple] = []
    done_a = done_b = False
    while True:
        if not buffer_a and not done_a:
            buffer_a = await anext(left, None) or []
            done_a = not buffer_a
        if not buffer_b and not done_b:
            buffer_b = await anext(right, None) or []
            done_b = not buffer_b
        if not buffer_a or not buffer_b:
            return
        n = min(len(buffer_a), len(buffer_b))
        for pair in zip(buffer_a[:n], buffer_b[:n]):
            yield pair
        buffer_a, buffer_b = buffer_a[n:], buffer_b[n:]


async def migrate_database(source_url: str, target_url: str, *, check_game: GameCheck | None,
                           verify_only: bool = False, **options: Any) -> CopyReport:
    """What `bot.py migrate-db` does: open both, copy (unless verify_only), verify."""
    started = time.monotonic()
    src_driver, src_target = parse_db_url(source_url)
    dst_driver, dst_target = parse_db_url(target_url)
    if (src_driver, _same(src_driver, src_target)) == (dst_driver, _same(dst_driver, dst_target)):
        raise CopyError("--from and --to name the same database")
    if src_driver == "sqlite" and not await asyncio.to_thread(os.path.exists, src_target):
        raise CopyError(f"there is no SQLite database at {src_target}")
    report = CopyReport(redact(source_url), redact(target_url), copied=not verify_only)
    source = open_store(source_url, **options)
    target = open_store(target_url, **options)
    try:
        await source.open()
        await target.open()
        if not verify_only:
            await copy_rows(source, target)
        await verify_copy(source, target, check_game=check_game, report=report)
    finally:
        await source.close()
        await target.close()
    report.seconds = time.monotonic() - started
    return report


def _same(driver: str, target: str) -> str:
    return os.path.realpath(target) if driver == "sqlite" else target


__all__ = ["TABLES", "CopyError", "CopyReport", "GameCheck", "copy_rows", "verify_copy",
           "migrate_database"]
