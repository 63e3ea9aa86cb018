"""`Store` on SQLite through aiosqlite: the driver the bot runs on.

Durability: WAL journal with synchronous=FULL, so a commit is on disk when it returns (NORMAL
could lose the last transactions on power loss, and the service reports actions done right
after committing). Concurrency: one connection per store, shared by all coroutines; an
asyncio lock gives each operation the connection to itself (interleaved coroutines would
otherwise run statements inside each other's transactions). Writes start with BEGIN IMMEDIATE,
taking SQLite's write lock before reading what they check, so several connections (or
processes) on one file serialise on busy_timeout instead of failing with "database is locked"
or acting on a stale read.
"""
import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .base import UNSET, Store
from .dburl import PG_PREFIXES, SQLITE_PREFIX, parse_db_url
from .errors import (
    ChannelBusy,
    CorruptSnapshot,
    NotFound,
    SeatIsBot,
    SeatTaken,
    StaleSequence,
    StoreError,
    VoteOpen,
    WrongStatus,
)
from .migrate import MIGRATIONS_DIR, migrate
from .models import (
    GAME_STATUSES,
    GLOBAL_SCOPE,
    OPEN_STATUSES,
    ActionRecord,
    Away,
    FinishedGame,
    Game,
    GameVersion,
    LaneBlock,
    LeaderboardRow,
    MessageRef,
    OutboxRow,
    Owed,
    RatingChange,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    Seat,
    SeatResult,
    Snapshot,
    Timer,
    UserPrefs,
    Vote,
)
from .rows import (
    CHANGE_COLUMNS,
    GAME_COLUMNS,
    LANE_COLUMNS,
    OUTBOX_COLUMNS,
    RATING_COLUMNS,
    RESULT_COLUMNS,
    RESULT_FIELDS,
    SEAT_COLUMNS,
    TIMER_COLUMNS,
    TRANSITIONS,
    USER_COLUMNS,
    VOTE_COLUMNS,
    change_record,
    check_json_object,
    dump,
    dump_list,
    fill_vote,
    finished_records,
    game_record,
    lane_record,
    leaderboard_row,
    new_ratings,
    now_or_clock,
    outbox_record,
    rated_users,
    rating_record,
    result_params,
    result_record,
    results_by_game,
    seat_record,
    timer_record,
    user_record,
    vote_record,
)
from .shards import Shards, qualified
from .shards import on_shards as _on
from .validation import check_actions, check_snapshot, parse_action

log = logging.getLogger(__name__)


class SqliteStore(Store):
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
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)  # we issue BEGIN/COMMIT
        except sqlite3.Error as exc:
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
        except StoreError as exc:              # e.g. written by a newer bot: name the file
            await db.close()
            raise StoreError(f"{self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:   # garbage, a torn file, not SQLite at all
            await db.close()
            raise StoreError(f"{self.path} is not a usable SQLite database ({exc}); restore it "
                             "from a backup, or move it away to start with an empty one") from exc
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def _enable_wal(self, db: aiosqlite.Connection) -> str:
        """Switch to WAL (persistent in the file). Needs a moment alone with the file, and SQLite
        may answer "locked" at once, without its busy handler, while another connection is
        opening it too: retry until busy_timeout has passed."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                return (await db.execute_fetchall("PRAGMA journal_mode = WAL"))[0][0]
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
                await db.execute(f"BEGIN {mode}")
                yield db
                await db.execute("COMMIT")
            except BaseException:
                await db.rollback()  # a no-op if SQLite already rolled back
                raise

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        db = self._conn()
        async with self._lock:
            return list(await db.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        """One statement in its own transaction (SQLite's autocommit)."""
        db = self._conn()
        async with self._lock:
            return await db.execute(sql, params)

    # -- games ---------------------------------------------------------------------------------
    async def create_game(
        self, *, guild_id: int | None, channel_id: int, map: str, variant: str,
        options: Mapping[str, Any], seed: int, host_id: int, now: float | None = None,
        host_name: str | None = None, owed: Owed | None = None,
    ) -> int:
        if host_name is not None and not isinstance(host_name, str):
            raise ValueError("host_name must be a string")
        if not -2**63 <= seed < 2**63:
            raise ValueError(f"seed {seed} does not fit in a signed 64-bit integer")
        now = now_or_clock(now)
        async with self._transaction() as db:
            busy = await db.execute_fetchall(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            if busy:
                raise ChannelBusy(channel_id, busy[0][0])
            try:
                cursor = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, map, variant, options, seed, "
                    "status, host_id, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                    (guild_id, channel_id, map, variant, dump(options), seed, host_id, now, now),
                )
            except sqlite3.IntegrityError as exc:  # the partial unique index, should the check miss
                raise ChannelBusy(channel_id) from exc
            if host_name is not None:
                try:
                    await db.execute(
                        "INSERT INTO seats (game_id, seat, user_id, display_name) "
                        "VALUES (?, 0, ?, ?)", (cursor.lastrowid, host_id, host_name),
                    )
                except sqlite3.IntegrityError as exc:
                    raise StoreError(f"could not seat the host of a new game: {exc}") from exc
            await _write_owed(db, cursor.lastrowid, owed, now)
            return cursor.lastrowid

    async def get_game(self, game_id: int) -> Game | None:
        row = await self._fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_record(row) if row else None

    async def find_open_game(self, channel_id: int) -> Game | None:
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,),
        )
        return game_record(row) if row else None

    async def list_active_game_ids(
        self, *, include_lobbies: bool = False, shards: Shards | None = None,
    ) -> list[int]:
        statuses = OPEN_STATUSES if include_lobbies else ("active",)
        marks = ", ".join("?" * len(statuses))
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE status IN ({marks}) AND {_on(shards, 'guild_id')} "
            "ORDER BY id", statuses)
        return [row[0] for row in rows]

    @asynccontextmanager
    async def lock_game(self, game_id: int) -> AsyncIterator[GameVersion | None]:
        # no lock across processes: the file's write lock serialises each write, and
        # append_action's seq check refuses an action computed from a stale copy
        row = await self._fetchone("SELECT seq, status FROM games WHERE id = ?", (game_id,))
        yield None if row is None else GameVersion(row[0], row[1])

    async def set_status(
        self, game_id: int, status: str, now: float | None = None, *, reason: str | None = None,
        owed: Owed | None = None,
    ) -> None:
        if status not in GAME_STATUSES:
            raise ValueError(f"unknown game status {status!r}")
        now = now_or_clock(now)
        async with self._transaction() as db:
            await self._require_status(db, game_id, TRANSITIONS.get(status, ()))
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ?, end_reason = ?, "
                "finished_at = CASE WHEN ? IN ('finished', 'cancelled') THEN ? END WHERE id = ?",
                (status, now, reason, status, now, game_id),
            )
            if status in ("finished", "cancelled"):
                await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            await _write_owed(db, game_id, owed, now)

    async def start_game(
        self, game_id: int, state_json: str, now: float | None = None, *,
        owed: Owed | None = None,
    ) -> None:
        check_json_object(state_json, "state_json")
        now = now_or_clock(now)
        async with self._transaction() as db:
            seq = await self._require_status(db, game_id, ("lobby",))
            await db.execute(
                "UPDATE games SET status = 'active', updated_at = ? WHERE id = ?", (now, game_id)
            )
            await _put_snapshot(db, game_id, seq, state_json, now)
            await _write_owed(db, game_id, owed, now)

    async def set_host(self, game_id: int, host_id: int, now: float | None = None) -> None:
        cursor = await self._write("UPDATE games SET host_id = ?, updated_at = ? WHERE id = ?",
                                   (host_id, now_or_clock(now), game_id))
        if cursor.rowcount == 0:
            raise NotFound(f"no game {game_id}")

    async def games_of_user(self, user_id: int, guild_id: int | None) -> list[Game]:
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self._fetchall(
            f"SELECT {cols} FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.guild_id IS ? AND g.status IN ('lobby', 'active') "
            "ORDER BY g.id", (user_id, guild_id),
        )
        return [game_record(row) for row in rows]

    async def _require_status(
        self, db: aiosqlite.Connection, game_id: int, allowed: Sequence[str]
    ) -> int:
        """Inside a transaction: NotFound / WrongStatus unless the game is in `allowed`.
        Returns the game's seq."""
        rows = await db.execute_fetchall("SELECT status, seq FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise NotFound(f"no game {game_id}")
        status, seq = rows[0]
        if status not in allowed:
            raise WrongStatus(game_id, status, " or ".join(allowed) or "(nothing: final status)")
        return seq

    # -- seats ---------------------------------------------------------------------------------
    async def add_seat(
        self, game_id: int, seat: int, *, user_id: int | None, display_name: str,
        bot_level: int | None = None, notify: Mapping[str, Any] | None = None,
    ) -> Seat:
        if (user_id is None) == (bot_level is None):
            raise ValueError("a seat needs a user_id (human) or a bot_level (bot), not both")
        async with self._transaction() as db:
            await self._require_status(db, game_id, ("lobby",))
            try:
                await db.execute(
                    f"INSERT INTO seats ({SEAT_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, NULL, 0, NULL, NULL)",
                    (game_id, seat, user_id, display_name, bot_level, dump(notify)),
                )
            except sqlite3.IntegrityError as exc:
                raise SeatTaken(f"game {game_id}: seat {seat} or user {user_id} taken") from exc
        return Seat(game_id, seat, user_id, display_name, bot_level, dict(notify or {}))

    async def remove_seat(self, game_id: int, seat: int) -> bool:
        async with self._transaction() as db:
            await self._require_status(db, game_id, ("lobby",))
            cursor = await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            return cursor.rowcount > 0

    async def list_seats(self, game_id: int) -> list[Seat]:
        rows = await self._fetchall(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [seat_record(row) for row in rows]

    async def update_seat(
        self, game_id: int, seat: int, *, user_id: int | None = UNSET,
        display_name: str = UNSET, bot_level: int | None = UNSET,
        notify: Mapping[str, Any] = UNSET,
    ) -> Seat:
        changes = {"user_id": user_id, "display_name": display_name, "bot_level": bot_level,
                   "notify": notify if notify is UNSET else dump(notify)}
        changes = {name: value for name, value in changes.items() if value is not UNSET}
        async with self._transaction() as db:
            if changes:
                assignments = ", ".join(f"{name} = ?" for name in changes)
                try:
                    await db.execute(
                        f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
                        (*changes.values(), game_id, seat),
                    )
                except sqlite3.IntegrityError as exc:
                    raise SeatTaken(f"game {game_id}, seat {seat}: {exc}") from exc
            rows = await db.execute_fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
            if not rows:
                raise NotFound(f"game {game_id} has no seat {seat}")
            return seat_record(rows[0])

    async def hand_seat_to_bot(
        self, game_id: int, seat: int, *, bot_level: int, display_name: str,
        host_id: int | None = None, now: float | None = None, reason: str | None = None,
        human_turns: int | None = None,
        owed: Owed | None = None,
    ) -> Seat:
        if bot_level is None:
            raise ValueError("a computer player needs a bot_level")
        now = now_or_clock(now)
        async with self._transaction() as db:
            await self._require_status(db, game_id, ("active",))
            rows = await db.execute_fetchall(
                "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            if not rows:
                raise NotFound(f"game {game_id} has no seat {seat}")
            if rows[0][0] is None:
                raise SeatIsBot(f"game {game_id}: seat {seat} is already a computer player")
            await db.execute(
                "UPDATE seats SET former_user_id = user_id, user_id = NULL, bot_level = ?, "
                "display_name = ?, handover = ?, human_turns = ? WHERE game_id = ? AND seat = ?",
                (bot_level, display_name, reason, human_turns, game_id, seat),
            )
            await db.execute(
                "UPDATE games SET updated_at = ?, host_id = COALESCE(?, host_id) WHERE id = ?",
                (now, host_id, game_id),
            )
            await _write_owed(db, game_id, owed, now)
            rows = await db.execute_fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
            return seat_record(rows[0])

    async def return_seat(
        self, game_id: int, seat: int, *, user_id: int, display_name: str,
        now: float | None = None, owed: Owed | None = None,
    ) -> Seat:
        now = now_or_clock(now)
        async with self._transaction() as db:
            await self._require_status(db, game_id, ("active",))
            cursor = await db.execute(
                "UPDATE seats SET user_id = former_user_id, former_user_id = NULL, "
                "bot_level = NULL, handover = NULL, human_turns = NULL, timeouts = 0, display_name = ? "
                "WHERE game_id = ? AND seat = ? AND former_user_id = ? AND user_id IS NULL "
                "AND handover = 'timeout'", (display_name, game_id, seat, user_id),
            )
            if cursor.rowcount == 0:
                raise NotFound(f"game {game_id}: seat {seat} is not one {user_id} may take back")
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            await _write_owed(db, game_id, owed, now)
            rows = await db.execute_fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
            return seat_record(rows[0])

    # -- the action log and snapshot -------------------------------------------------------------
    async def append_action(
        self, game_id: int, expected_seq: int, actor: int | None, action_json: str,
        state_json: str, now: float | None = None, *, results: Sequence[SeatResult] | None = None,
        ratings: RatingUpdate | None = None,
        seat_timeouts: Mapping[int, int] | None = None, end_reason: str | None = None,
        owed: Owed | None = None,
    ) -> int:
        try:
            parse_action(action_json)
        except ValueError as exc:
            raise ValueError(f"action_json: {exc}") from None
        check_json_object(state_json, "state_json")
        now = now_or_clock(now)
        async with self._transaction() as db:
            seq = await self._require_status(db, game_id, ("active",))
            if seq != expected_seq:
                raise StaleSequence(game_id, expected_seq, seq)
            new_seq = seq + 1
            try:
                await db.execute(
                    "INSERT INTO actions (game_id, seq, actor, action, created_at) "
                    "VALUES (?, ?, ?, ?, ?)", (game_id, new_seq, actor, action_json, now),
                )
            except sqlite3.IntegrityError as exc:  # a row beyond games.seq: the log is damaged
                raise StoreError(f"game {game_id}: action {new_seq} already stored") from exc
            await _put_snapshot(db, game_id, new_seq, state_json, now)
            await db.execute(
                "UPDATE games SET seq = ?, updated_at = ? WHERE id = ?", (new_seq, now, game_id)
            )
            for number, count in (seat_timeouts or {}).items():
                await db.execute("UPDATE seats SET timeouts = ? WHERE game_id = ? AND seat = ?",
                                 (count, game_id, number))
            if results is not None:
                await _finish(db, game_id, results, now, ratings=ratings, end_reason=end_reason)
            await _write_owed(db, game_id, owed, now)
            return new_seq

    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        async with self._transaction("DEFERRED") as db:
            game = await db.execute_fetchall("SELECT seq FROM games WHERE id = ?", (game_id,))
            if not game:
                raise NotFound(f"no game {game_id}")
            rows = await db.execute_fetchall(
                "SELECT seq, actor, action, created_at FROM actions WHERE game_id = ? "
                "ORDER BY seq", (game_id,),
            )
        return check_actions(game_id, rows, game[0][0])

    async def load_snapshot(self, game_id: int) -> Snapshot | None:
        async with self._transaction("DEFERRED") as db:
            game = await db.execute_fetchall("SELECT seq FROM games WHERE id = ?", (game_id,))
            if not game:
                raise NotFound(f"no game {game_id}")
            rows = await db.execute_fetchall(
                "SELECT seq, state, updated_at FROM snapshots WHERE game_id = ?", (game_id,)
            )
        game_seq = game[0][0]
        if not rows:
            if game_seq == 0:
                return None
            raise CorruptSnapshot(game_id, game_seq, "missing")
        seq, state, updated_at = rows[0]
        return check_snapshot(game_id, seq, state, updated_at, game_seq)

    # -- results -------------------------------------------------------------------------------
    async def record_results(
        self, game_id: int, results: Sequence[SeatResult], now: float | None = None, *,
        ratings: RatingUpdate | None = None,
    ) -> None:
        now = now_or_clock(now)
        async with self._transaction() as db:
            await self._require_status(db, game_id, ("active",))
            await _finish(db, game_id, results, now, ratings=ratings)

    async def load_results(self, game_id: int) -> list[ResultRecord]:
        rows = await self._fetchall(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [result_record(row) for row in rows]

    async def results_for_user(
        self, user_id: int, limit: int | None = None, *, include_left: bool = False,
    ) -> list[ResultRecord]:
        where = "user_id = ?" if not include_left else "(user_id = ? OR former_user_id = ?)"
        params = (user_id,) if not include_left else (user_id, user_id)
        rows = await self._fetchall(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} "
            "ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (*params, -1 if limit is None else limit),
        )
        return [result_record(row) for row in rows]

    async def results_in_guild(self, guild_id: int, user_id: int) -> list[ResultRecord]:
        rows = await self._fetchall(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = ? AND user_id = ? UNION ALL "
            f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = ? AND former_user_id = ? "
            "ORDER BY finished_at DESC, game_id DESC", (guild_id, user_id, guild_id, user_id),
        )
        return [result_record(row) for row in rows]

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0,
    ) -> tuple[int, list[FinishedGame]]:
        where, params = "guild_id = ? AND status = 'finished'", [guild_id]
        if user_id is not None:
            where += (" AND id IN (SELECT game_id FROM results WHERE guild_id = ? AND user_id = ?"
                      " UNION SELECT game_id FROM results WHERE guild_id = ? AND "
                      "former_user_id = ?)")
            params += [guild_id, user_id, guild_id, user_id]
        async with self._transaction("DEFERRED") as db:
            total = (await db.execute_fetchall(
                f"SELECT COUNT(*) FROM games WHERE {where}", params))[0][0]
            games = [game_record(r) for r in await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE {where} "
                "ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?", (*params, limit, offset))]
            ids = [g.id for g in games]
            marks = ", ".join("?" * len(ids))
            results = [result_record(r) for r in await db.execute_fetchall(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id IN ({marks}) "
                "ORDER BY game_id, seat", ids)] if ids else []
            posts = [MessageRef(*r) for r in await db.execute_fetchall(
                "SELECT game_id, kind, channel_id, message_id, updated_at FROM messages "
                f"WHERE kind = 'final' AND game_id IN ({marks})", ids)] if ids else []
            rated = {r[0] for r in await db.execute_fetchall(
                f"SELECT game_id FROM rated_games WHERE game_id IN ({marks})", ids)} if ids else set()
        return total, finished_records(games, results, posts, rated)

    # -- ratings -------------------------------------------------------------------------------
    async def get_ratings(self, scope: int, user_ids: Sequence[int]) -> dict[int, RatingRecord]:
        users = list(dict.fromkeys(user_ids))
        if not users:
            return {}
        rows = await self._fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = ? AND user_id IN "
            f"({', '.join('?' * len(users))})", (scope, *users),
        )
        return {r.user_id: r for r in map(rating_record, rows)}

    async def leaderboard(
        self, scope: int, *, min_games: int, limit: int = 10, offset: int = 0,
        map: str | None = None,
    ) -> tuple[int, list[LeaderboardRow]]:
        if map is None:
            source, params = "ratings r", []
            extra = "NULL"
        else:
            where = "" if scope == GLOBAL_SCOPE else "guild_id = ? AND "
            # a rated seat is its player's whether they played it to the end or left it
            source = ("ratings r JOIN (SELECT COALESCE(user_id, former_user_id) AS u, "
                      f"COUNT(*) AS n FROM results WHERE {where}map = ? AND rated = 1 "
                      "GROUP BY 1) m ON m.u = r.user_id")
            params = ([] if scope == GLOBAL_SCOPE else [scope]) + [map]
            extra = "m.n"
        cond = "r.scope = ? AND r.games >= ?"
        count = f"SELECT COUNT(*) FROM {source} WHERE {cond}"
        async with self._transaction("DEFERRED") as db:
            if map is None:   # the index gives the page at once; the count is another scan
                total = (await db.execute_fetchall(count, (*params, scope, min_games)))[0][0]
                over = ""
            else:             # one aggregation for the page and its count
                over = ", COUNT(*) OVER ()"
            rows = await db.execute_fetchall(
                f"SELECT r.user_id, r.mu, r.sigma, r.value, r.games, {extra}{over} FROM {source} "
                f"WHERE {cond} ORDER BY r.value DESC, r.user_id LIMIT ? OFFSET ?",
                (*params, scope, min_games, limit, offset))
            if map is not None:
                total = rows[0][-1] if rows else (await db.execute_fetchall(
                    count, (*params, scope, min_games)))[0][0]
                rows = [r[:-1] for r in rows]
        return total, [leaderboard_row(r) for r in rows]

    async def rating_changes(self, game_id: int, scope: int) -> list[RatingChange]:
        rows = await self._fetchall(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? AND scope = ? "
            "ORDER BY user_id", (game_id, scope),
        )
        return [change_record(r) for r in rows]

    async def rating_log(self, scope: int) -> list[tuple[int, list[ResultRecord]]]:
        where = "" if scope == GLOBAL_SCOPE else "WHERE r.guild_id = ?"
        rows = await self._fetchall(
            f"SELECT {', '.join('r.' + c for c in RESULT_COLUMNS.split(', '))} FROM rated_games g "
            f"JOIN results r ON r.game_id = g.game_id {where} ORDER BY g.seq, r.seat",
            () if scope == GLOBAL_SCOPE else (scope,),
        )
        return results_by_game(result_record(r) for r in rows)

    # -- users ---------------------------------------------------------------------------------
    async def get_user(self, user_id: int) -> UserPrefs | None:
        row = await self._fetchone(
            f"SELECT {USER_COLUMNS} FROM users WHERE user_id = ?", (user_id,),
        )
        return user_record(row) if row else None

    async def get_locale(self, user_id: int) -> str | None:
        user = await self.get_user(user_id)
        return user.locale if user else None

    async def set_locale(self, user_id: int, locale: str | None, now: float | None = None) -> None:
        await self._write(
            "INSERT INTO users (user_id, locale, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
            "updated_at = excluded.updated_at", (user_id, locale, now_or_clock(now)),
        )

    async def get_palette(self, user_id: int) -> str | None:
        row = await self._fetchone("SELECT palette FROM users WHERE user_id = ?", (user_id,))
        return row[0] if row else None

    async def set_palette(self, user_id: int, palette: str | None,
                          now: float | None = None) -> None:
        await self._write(
            "INSERT INTO users (user_id, palette, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET palette = excluded.palette, "
            "updated_at = excluded.updated_at", (user_id, palette, now_or_clock(now)),
        )

    async def get_guild_locale(self, guild_id: int) -> str | None:
        row = await self._fetchone(
            "SELECT locale FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None

    async def set_guild_locale(self, guild_id: int, locale: str | None,
                               now: float | None = None) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, locale, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, "
            "updated_at = excluded.updated_at", (guild_id, locale, now_or_clock(now)),
        )

    async def get_dms_closed(self, user_id: int) -> bool:
        user = await self.get_user(user_id)
        return user.dms_closed if user else False

    async def set_dms_closed(self, user_id: int, closed: bool, now: float | None = None) -> None:
        await self._write(
            "INSERT INTO users (user_id, dms_closed, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed, "
            "updated_at = excluded.updated_at", (user_id, int(bool(closed)), now_or_clock(now)),
        )

    async def set_notify(
        self, user_id: int, notify: Mapping[str, Any], now: float | None = None,
    ) -> None:
        await self._write(
            "INSERT INTO users (user_id, notify, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
            "updated_at = excluded.updated_at", (user_id, dump(notify), now_or_clock(now)),
        )

    # -- away ----------------------------------------------------------------------------------
    async def set_away(
        self, user_id: int, guild_id: int, since: float, until: float, *,
        owed: Owed | None = None,
    ) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO away (user_id, guild_id, since, until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, guild_id) DO UPDATE SET since = excluded.since, "
                "until = excluded.until", (user_id, guild_id, float(since), float(until)),
            )
            await _write_owed(db, None, owed, float(since))

    async def clear_away(
        self, user_id: int, guild_id: int, *, owed: Owed | None = None,
        now: float | None = None,
    ) -> Away | None:
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "DELETE FROM away WHERE user_id = ? AND guild_id = ? "
                "RETURNING user_id, guild_id, since, until", (user_id, guild_id),
            )
            await _write_owed(db, None, owed, now_or_clock(now))
        return Away(*rows[0]) if rows else None

    async def get_away(self, user_id: int, guild_id: int) -> Away | None:
        row = await self._fetchone(
            "SELECT user_id, guild_id, since, until FROM away WHERE user_id = ? AND guild_id = ?",
            (user_id, guild_id),
        )
        return Away(*row) if row else None

    # -- votes ---------------------------------------------------------------------------------
    async def open_vote(
        self, game_id: int, *, kind: str, target_seat: int | None, proposer: int,
        voters: Sequence[int], ballots: Mapping[int, bool], expires_at: float,
        now: float | None = None, owed: Owed | None = None,
    ) -> Vote:
        now = now_or_clock(now)
        async with self._transaction() as db:
            try:
                cursor = await db.execute(
                    "INSERT INTO votes (game_id, kind, target_seat, proposer, voters, ballots, "
                    "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, kind, target_seat, proposer, dump_list(voters),
                     dump({str(k): v for k, v in ballots.items()}), now, float(expires_at)),
                )
            except sqlite3.IntegrityError as exc:
                if "votes.game_id" in str(exc) or "UNIQUE" in str(exc):
                    raise VoteOpen(f"game {game_id} has an open vote") from exc
                raise NotFound(f"no game {game_id}") from exc
            vote_id = cursor.lastrowid
            await _write_owed(db, game_id, fill_vote(owed, vote_id), now)
            rows = await db.execute_fetchall(
                f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,))
        return vote_record(rows[0])

    async def get_vote(self, vote_id: int) -> Vote | None:
        row = await self._fetchone(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,))
        return vote_record(row) if row else None

    async def open_vote_of(self, game_id: int) -> Vote | None:
        row = await self._fetchone(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE game_id = ? AND status = 'open'", (game_id,))
        return vote_record(row) if row else None

    async def cast_ballot(self, vote_id: int, user_id: int, yes: bool) -> Vote | None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE votes SET ballots = json_set(ballots, ?, json(?)) "
                "WHERE id = ? AND status = 'open'",
                (f'$."{int(user_id)}"', "true" if yes else "false", vote_id),
            )
            rows = await db.execute_fetchall(
                f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = ?", (vote_id,))
        return vote_record(rows[0]) if rows else None

    async def close_vote(
        self, vote_id: int, status: str, now: float | None = None, *, owed: Owed | None = None,
    ) -> bool:
        now = now_or_clock(now)
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE votes SET status = ?, closed_at = ? WHERE id = ? AND status = 'open' "
                "RETURNING game_id", (status, now, vote_id),
            )
            if not rows:
                return False
            await _write_owed(db, rows[0][0], owed, now)
            return True

    # -- the outbox ----------------------------------------------------------------------------
    async def write_owed(
        self, owed: Owed, game_id: int | None = None, now: float | None = None,
    ) -> None:
        async with self._transaction() as db:
            await _write_owed(db, game_id, owed, now_or_clock(now))

    async def pending_outbox(
        self, limit: int = 500, *, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        rows = await self._fetchall(
            f"SELECT {qualified(OUTBOX_COLUMNS, 'o')} FROM outbox o "
            f"LEFT JOIN games g ON g.id = o.game_id WHERE o.sent_at IS NULL "
            f"AND {_on(shards, 'g.guild_id')} ORDER BY o.id LIMIT ?", (limit,),
        )
        return [outbox_record(row) for row in rows]

    async def deliverable_outbox(
        self, now: float, *, lanes: int = 200, per_lane: int = 20, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        rows = await self._fetchall(
            f"WITH owed AS (SELECT {qualified(OUTBOX_COLUMNS, 'o')}, ROW_NUMBER() OVER "
            "(PARTITION BY o.lane ORDER BY o.id) AS n FROM outbox o "
            "LEFT JOIN games g ON g.id = o.game_id WHERE o.sent_at IS NULL "
            f"AND {_on(shards, 'g.guild_id')} AND NOT EXISTS (SELECT 1 FROM outbox_lanes l "
            "WHERE l.lane = o.lane AND l.retry_at > ?)), "
            "heads AS (SELECT lane, due_at AS head_due, id AS head_id FROM owed WHERE n = 1 "
            "ORDER BY due_at, id LIMIT ?) "
            f"SELECT {qualified(OUTBOX_COLUMNS, 'w')} FROM owed w JOIN heads h ON h.lane = w.lane "
            "WHERE w.n <= ? ORDER BY h.head_due, h.head_id, w.id",
            (float(now), int(lanes), int(per_lane)))
        return [outbox_record(row) for row in rows]

    async def owed_in_lane(self, lane: str) -> list[OutboxRow]:
        rows = await self._fetchall(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE lane = ? AND sent_at IS NULL ORDER BY id",
            (lane,))
        return [outbox_record(row) for row in rows]

    async def refuse_lane(
        self, lane: str, now: float, retry_at: float, *, guild_id: int | None = None,
        code: int | None = None,
    ) -> LaneBlock:
        row = await self._fetchone(
            "INSERT INTO outbox_lanes (lane, guild_id, refused_since, retry_at, attempts, code) "
            "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (lane) DO UPDATE SET "
            "attempts = outbox_lanes.attempts + 1, retry_at = excluded.retry_at, "
            "code = excluded.code, guild_id = COALESCE(excluded.guild_id, outbox_lanes.guild_id) "
            f"RETURNING {LANE_COLUMNS}",
            (lane, guild_id, float(now), float(retry_at), code))
        return lane_record(row)

    async def lane_blocks(self, *, shards: Shards | None = None) -> list[LaneBlock]:
        rows = await self._fetchall(
            f"SELECT {LANE_COLUMNS} FROM outbox_lanes WHERE {_on(shards, 'guild_id')} "
            "ORDER BY retry_at, lane")
        return [lane_record(row) for row in rows]

    async def clear_lane_block(self, lane: str) -> LaneBlock | None:
        row = await self._fetchone(
            f"DELETE FROM outbox_lanes WHERE lane = ? RETURNING {LANE_COLUMNS}", (lane,))
        return lane_record(row) if row else None

    async def retry_lanes_at(self, lanes: Sequence[str], at: float) -> int:
        if not lanes:
            return 0
        marks = ", ".join("?" * len(lanes))
        cursor = await self._write(
            f"UPDATE outbox_lanes SET retry_at = ? WHERE lane IN ({marks}) AND retry_at > ?",
            (float(at), *lanes, float(at)))
        return cursor.rowcount

    async def open_games_in_guild(self, guild_id: int) -> list[int]:
        marks = ", ".join("?" * len(OPEN_STATUSES))
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
            (guild_id, *OPEN_STATUSES))
        return [row[0] for row in rows]

    async def purge_votes(self, before: float) -> int:
        cursor = await self._write(
            "DELETE FROM votes WHERE status != 'open' AND closed_at IS NOT NULL "
            "AND closed_at < ?", (float(before),))
        return cursor.rowcount

    async def claim_outbox(
        self, ids: Sequence[int], owner: str, now: float, lease: float = 60.0,
    ) -> bool:
        if not ids:
            return True
        marks = ", ".join("?" * len(ids))
        async with self._transaction() as db:   # the write lock: one claimer at a time
            held = await db.execute_fetchall(
                f"SELECT 1 FROM outbox WHERE id IN ({marks}) AND sent_at IS NULL AND "
                "lease_owner IS NOT NULL AND lease_owner != ? AND lease_until > ? LIMIT 1",
                (*ids, owner, float(now)))
            if held:
                return False
            await db.execute(
                f"UPDATE outbox SET lease_owner = ?, lease_until = ? WHERE id IN ({marks}) "
                "AND sent_at IS NULL", (owner, float(now) + lease, *ids))
            return True

    async def release_outbox(self, owner: str) -> int:
        cursor = await self._write(
            "UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? "
            "AND sent_at IS NULL", (owner,))
        return cursor.rowcount

    async def mark_outbox_sent(
        self, ids: Sequence[int], now: float | None = None, error: str | None = None,
    ) -> int:
        if not ids:
            return 0
        marks = ", ".join("?" * len(ids))
        cursor = await self._write(
            f"UPDATE outbox SET sent_at = ?, error = ? WHERE id IN ({marks}) AND sent_at IS NULL",
            (now_or_clock(now), error, *ids),
        )
        return cursor.rowcount

    async def retry_outbox(self, row_id: int, due_at: float) -> int | None:
        row = await self._fetchone(
            "UPDATE outbox SET attempts = attempts + 1, due_at = ?, lease_owner = NULL, "
            "lease_until = NULL WHERE id = ? AND sent_at IS NULL RETURNING attempts",
            (float(due_at), row_id),
        )
        return row[0] if row else None

    async def fail_outbox_lane(self, lane: str, error: str, now: float | None = None) -> int:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE outbox SET sent_at = ?, error = ? WHERE lane = ? AND sent_at IS NULL",
                (now_or_clock(now), error, lane),
            )
            await db.execute("DELETE FROM outbox_lanes WHERE lane = ?", (lane,))
            return cursor.rowcount

    async def purge_outbox(self, before: float) -> int:
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ?", (float(before),))
            await db.execute(
                "DELETE FROM outbox_lanes WHERE NOT EXISTS (SELECT 1 FROM outbox o "
                "WHERE o.lane = outbox_lanes.lane AND o.sent_at IS NULL)")
            return cursor.rowcount

    # -- timers --------------------------------------------------------------------------------
    async def add_timer(
        self, kind: str, due_at: float, payload: Mapping[str, Any] | None = None,
        game_id: int | None = None, now: float | None = None,
    ) -> int:
        try:
            cursor = await self._write(
                "INSERT INTO timers (game_id, kind, due_at, payload, created_at) "
                "VALUES (?, ?, ?, ?, ?)", (game_id, kind, float(due_at), dump(payload), now_or_clock(now)),
            )
        except sqlite3.IntegrityError as exc:
            raise NotFound(f"no game {game_id} for a {kind} timer") from exc
        return cursor.lastrowid

    async def delete_timer(self, timer_id: int) -> bool:
        cursor = await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))
        return cursor.rowcount > 0

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        cursor = await self._write(
            "DELETE FROM timers WHERE game_id = ? AND (? IS NULL OR kind = ?)",
            (game_id, kind, kind),
        )
        return cursor.rowcount

    async def retry_timer(self, timer_id: int, due_at: float) -> int | None:
        row = await self._fetchone(  # one UPDATE ... RETURNING statement: autocommitted
            "UPDATE timers SET attempts = attempts + 1, due_at = ?, lease_owner = NULL, "
            "lease_until = NULL WHERE id = ? RETURNING attempts", (float(due_at), timer_id),
        )
        return row[0] if row else None

    async def next_due(self) -> Timer | None:
        row = await self._fetchone(
            f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY due_at, id LIMIT 1"
        )
        return timer_record(row) if row else None

    async def due_timers(
        self, now: float, limit: int | None = None, *, shards: Shards | None = None,
    ) -> list[Timer]:
        rows = await self._fetchall(
            f"SELECT {qualified(TIMER_COLUMNS, 't')} FROM timers t "
            f"LEFT JOIN games g ON g.id = t.game_id WHERE t.due_at <= ? "
            f"AND {_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT ?",
            (now, -1 if limit is None else limit),
        )
        return [timer_record(row) for row in rows]

    async def claim_timers(
        self, now: float, owner: str, *, limit: int | None = None, lease: float = 60.0,
        shards: Shards | None = None,
    ) -> list[Timer]:
        now = float(now)
        async with self._transaction() as db:   # the write lock: one claimer at a time
            rows = await db.execute_fetchall(
                f"SELECT {qualified(TIMER_COLUMNS, 't')} FROM timers t "
                "LEFT JOIN games g ON g.id = t.game_id WHERE t.due_at <= ? "
                f"AND (t.lease_until IS NULL OR t.lease_until <= ?) AND "
                f"{_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT ?",
                (now, now, -1 if limit is None else limit))
            if rows:
                await db.executemany(
                    "UPDATE timers SET lease_owner = ?, lease_until = ? WHERE id = ?",
                    [(owner, now + lease, row[0]) for row in rows])
        return [timer_record(row) for row in rows]

    async def next_claim_at(self, now: float, *, shards: Shards | None = None) -> float | None:
        # the soonest free timer (walking the due index) and the soonest lease to run out
        row = await self._fetchone(
            "SELECT (SELECT t.due_at FROM timers t LEFT JOIN games g ON g.id = t.game_id "
            "        WHERE (t.lease_until IS NULL OR t.lease_until <= ?1) "
            f"       AND {_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT 1), "
            "       (SELECT MIN(MAX(t.due_at, t.lease_until)) FROM timers t "
            "        LEFT JOIN games g ON g.id = t.game_id WHERE t.lease_until > ?1 "
            f"       AND {_on(shards, 'g.guild_id')})", (float(now),))
        times = [t for t in row if t is not None]
        return min(times) if times else None

    async def release_timers(self, owner: str) -> int:
        cursor = await self._write(
            "UPDATE timers SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?",
            (owner,))
        return cursor.rowcount

    async def list_timers(self, game_id: int, kind: str | None = None) -> list[Timer]:
        rows = await self._fetchall(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND (? IS NULL OR kind = ?) "
            "ORDER BY due_at, id", (game_id, kind, kind),
        )
        return [timer_record(row) for row in rows]

    # -- the bot's messages ----------------------------------------------------------------------
    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int,
        now: float | None = None,
    ) -> None:
        try:
            await self._write(
                "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "updated_at = excluded.updated_at",
                (game_id, kind, channel_id, message_id, now_or_clock(now)),
            )
        except sqlite3.IntegrityError as exc:
            raise NotFound(f"no game {game_id}") from exc

    async def get_message(self, game_id: int, kind: str) -> MessageRef | None:
        row = await self._fetchone(
            "SELECT game_id, kind, channel_id, message_id, updated_at FROM messages "
            "WHERE game_id = ? AND kind = ?", (game_id, kind),
        )
        return MessageRef(*row) if row else None

    async def delete_message(self, game_id: int, kind: str) -> bool:
        cursor = await self._write(
            "DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return cursor.rowcount > 0


# -- helpers used inside transactions --------------------------------------------------------------
async def _put_snapshot(
    db: aiosqlite.Connection, game_id: int, seq: int, state_json: str, now: float
) -> None:
    await db.execute(
        "INSERT INTO snapshots (game_id, seq, state, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, "
        "updated_at = excluded.updated_at", (game_id, seq, state_json, now),
    )


async def _write_owed(
    db: aiosqlite.Connection, game_id: int | None, owed: Owed | None, now: float
) -> None:
    """Inside a transaction: the outbox rows and timers a change owes (see `Owed`)."""
    if not owed:
        return
    for kind in owed.drop_timers:
        await db.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))
    for t in owed.timers:
        await db.execute(
            "INSERT INTO timers (game_id, kind, due_at, payload, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (t.game_id if t.game_id is not None else game_id, t.kind, float(t.due_at),
             dump(t.payload), now),
        )
    for o in owed.outbox:
        await db.execute(
            "INSERT INTO outbox (game_id, kind, lane, payload, key, held, seq, due_at, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
            (o.game_id if o.game_id is not None else game_id, o.kind, o.lane, dump(o.payload),
             o.key, int(o.held), o.seq, float(now if o.due_at is None else o.due_at), now),
        )


async def _finish(
    db: aiosqlite.Connection, game_id: int, results: Sequence[SeatResult], now: float,
    *, ratings: RatingUpdate | None = None, end_reason: str | None = None,
) -> None:
    """Record the results (copying guild, map and variant from the game), mark the game
    finished and rate it."""
    marks = ", ".join("?" * len(RESULT_FIELDS))
    try:
        await db.executemany(
            f"INSERT INTO results ({', '.join(RESULT_FIELDS)}, game_id, guild_id, map, variant, "
            f"finished_at) SELECT {marks}, id, guild_id, map, variant, ? FROM games WHERE id = ?",
            [(*result_params(r, as_int=True), now, game_id) for r in results],
        )
    except sqlite3.IntegrityError as exc:
        raise StoreError(f"game {game_id}: bad results ({exc})") from exc
    await db.execute(
        "UPDATE games SET status = 'finished', finished_at = ?, updated_at = ?, end_reason = ? "
        "WHERE id = ?", (now, now, end_reason, game_id),
    )
    await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
    if ratings is not None and ratings.users:
        await _rate(db, game_id, ratings, now)


async def _rate(db: aiosqlite.Connection, game_id: int, update: RatingUpdate, now: float) -> None:
    """Inside the finishing transaction, which holds SQLite's write lock (BEGIN IMMEDIATE): no
    other writer can change a rating between the read and the write."""
    users = rated_users(update)
    marks = ", ".join("?" * len(users))
    for scope in dict.fromkeys(update.scopes):
        rows = await db.execute_fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = ? AND user_id IN ({marks})",
            (scope, *users))
        before = {r.user_id: r for r in map(rating_record, rows)}
        after = new_ratings(update, users, before)
        await db.executemany(
            f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, 1, ?) "
            "ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, value = excluded.value, games = ratings.games + 1, "
            "updated_at = excluded.updated_at",
            [(scope, u, after[u].mu, after[u].sigma, after[u].value, now) for u in users])
        await db.executemany(
            f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, scope, u, getattr(before.get(u), "mu", None),
              getattr(before.get(u), "sigma", None), after[u].mu, after[u].sigma)
             for u in users])
    try:
        await db.execute("INSERT INTO rated_games (game_id, rated_at) VALUES (?, ?)",
                         (game_id, now))
    except sqlite3.IntegrityError as exc:
        raise StoreError(f"game {game_id} was rated already") from exc

