"""Every store operation, written once for both drivers: `SqlStore` is `Store` in SQL.

The SQL is PostgreSQL's dialect with numbered parameters (`$1`); the SQLite driver rewrites
each text once (sqlite.py's `to_sqlite`: `$n` -> `?n`, casts dropped, `= ANY($n)` -> a
`json_each` list, `FOR UPDATE` dropped, `GREATEST` -> `MAX`, `IS NOT DISTINCT FROM` -> `IS`),
the approach of the aiosql library. A driver supplies:
- a small connection protocol (`Conn`): `_tx()` one transaction, `_auto` one statement in its
  own transaction; `execute` returns the rows it touched;
- its errors: `IntegrityError` (what a broken key or check raises) and `_violation(exc)`
  ('unique', 'foreign_key' or 'other'), so each refusal maps to the store's own error here;
- `NO_LIMIT` (what LIMIT takes for "all");
- what truly differs: `lock_game` (PostgreSQL's advisory lock), `claim_timers` (SKIP LOCKED),
  `_lock_ratings` (advisory locks on users' ratings), `APPEND_ALONE` (PostgreSQL's ordinary
  append as one data-modifying WITH), connecting and migrating.
Nothing here imports a database library (tests/test_architecture.py).
"""
import json
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, NoReturn, Protocol

from .base import UNSET, Store
from .community_sql import CommunitySql
from .cup_sql import CupSql
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
from .models import (
    GAME_STATUSES,
    GLOBAL_SCOPE,
    OPEN_STATUSES,
    ActionRecord,
    Away,
    FinishedGame,
    Game,
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
    INT64,
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


class Conn(Protocol):
    """What the operations need of a driver's connection (PostgreSQL's dialect, `$n`)."""

    async def execute(self, sql: str, *args: Any) -> int: ...  # the rows touched
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
    async def fetch(self, sql: str, *args: Any) -> Sequence[Any]: ...
    async def fetchrow(self, sql: str, *args: Any) -> Any: ...
    async def fetchval(self, sql: str, *args: Any) -> Any: ...


_SEAT = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 AND seat = $2"
_MESSAGE_COLUMNS = "game_id, kind, channel_id, message_id, updated_at"


class SqlStore(CommunitySql, CupSql, Store):
    IntegrityError: ClassVar[type[Exception]] = Exception
    # what seating a new game's host may raise on bad data (PostgreSQL: any server error)
    HostSeatError: ClassVar[type[Exception] | tuple[type[Exception], ...]] = Exception
    NO_LIMIT: ClassVar[int | None] = None
    APPEND_ALONE: ClassVar[str | None] = None

    # -- the driver's part (sqlite.py, postgres.py) ------------------------------------------------
    @abstractmethod
    def _tx(self, *, readonly: bool = False) -> AbstractAsyncContextManager[Conn]:
        """One transaction: a write's (which takes the locks its checks need) or a read's of
        several statements that must agree."""

    @property
    @abstractmethod
    def _auto(self) -> Conn:
        """Statements each in a transaction of its own."""

    @abstractmethod
    def _violation(self, exc: Exception) -> str:
        """'unique', 'foreign_key' or 'other': which kind of IntegrityError this is."""

    async def _lock_ratings(self, db: Conn, users: Sequence[int]) -> None:
        """Inside the finishing transaction, before the users' ratings are read."""

    def _limit(self, limit: int | None) -> int | None:
        return self.NO_LIMIT if limit is None else limit

    # -- games ---------------------------------------------------------------------------------
    async def create_game(
        self, *, guild_id: int | None, channel_id: int, map: str, variant: str,
        options: Mapping[str, Any], seed: int, host_id: int, now: float | None = None,
        host_name: str | None = None, owed: Owed | None = None,
    ) -> int:
        if host_name is not None and not isinstance(host_name, str):
            raise ValueError("host_name must be a string")
        if seed not in INT64:
            raise ValueError(f"seed {seed} does not fit in a signed 64-bit integer")
        now = now_or_clock(now)
        async with self._tx() as db:
            # the partial unique index decides a race: the loser's insert waits for the
            # winner's commit (SQLite: for the write lock), then inserts nothing
            game_id = await db.fetchval(
                "INSERT INTO games (guild_id, channel_id, map, variant, options, seed, status, "
                "host_id, created_at, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, 'lobby', $7, $8, $8) "
                "ON CONFLICT (channel_id) WHERE status IN ('lobby', 'active') DO NOTHING "
                "RETURNING id",
                guild_id, channel_id, map, variant, dump(options), seed, host_id, now,
            )
            if game_id is None:
                raise ChannelBusy(channel_id, await db.fetchval(
                    "SELECT id FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
                    channel_id))
            if host_name is not None:
                try:
                    await db.execute(
                        "INSERT INTO seats (game_id, seat, user_id, display_name) "
                        "VALUES ($1, 0, $2, $3)", game_id, host_id, host_name,
                    )
                except self.HostSeatError as exc:
                    raise StoreError(f"could not seat the host of a new game: {exc}") from exc
            await self._write_owed(db, game_id, owed, now)
            return game_id

    async def get_game(self, game_id: int) -> Game | None:
        row = await self._auto.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        return game_record(row) if row else None

    async def find_open_game(self, channel_id: int) -> Game | None:
        row = await self._auto.fetchrow(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE channel_id = $1 AND status IN ('lobby', 'active')", channel_id,
        )
        return game_record(row) if row else None

    async def lobbies_in_guild(self, guild_id: int) -> list[Game]:
        rows = await self._auto.fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'lobby' AND guild_id = $1 "
            "ORDER BY id", guild_id,
        )
        return [game_record(row) for row in rows]

    async def list_active_game_ids(
        self, *, include_lobbies: bool = False, shards: Shards | None = None,
    ) -> list[int]:
        statuses = list(OPEN_STATUSES if include_lobbies else ("active",))
        rows = await self._auto.fetch(
            f"SELECT id FROM games WHERE status = ANY($1::text[]) AND {_on(shards, 'guild_id')} "
            "ORDER BY id", statuses
        )
        return [row[0] for row in rows]

    async def set_status(
        self, game_id: int, status: str, now: float | None = None, *, reason: str | None = None,
        owed: Owed | None = None,
    ) -> None:
        if status not in GAME_STATUSES:
            raise ValueError(f"unknown game status {status!r}")
        now = now_or_clock(now)
        async with self._tx() as db:
            await _require_status(db, game_id, TRANSITIONS.get(status, ()))
            await db.execute(
                "UPDATE games SET status = $1::text, updated_at = $2::float8, end_reason = $4, "
                "finished_at = CASE WHEN $1::text IN ('finished', 'cancelled') THEN $2::float8 "
                "END WHERE id = $3", status, now, game_id, reason,
            )
            if status in ("finished", "cancelled"):
                await db.execute("DELETE FROM timers WHERE game_id = $1", game_id)
            await self._write_owed(db, game_id, owed, now)

    async def start_game(
        self, game_id: int, state_json: str, now: float | None = None, *,
        owed: Owed | None = None,
    ) -> None:
        check_json_object(state_json, "state_json")
        now = now_or_clock(now)
        async with self._tx() as db:
            seq = await _require_status(db, game_id, ("lobby",))
            await db.execute(
                "UPDATE games SET status = 'active', updated_at = $1 WHERE id = $2", now, game_id
            )
            await _put_snapshot(db, game_id, seq, state_json, now)
            await self._write_owed(db, game_id, owed, now)

    async def set_host(self, game_id: int, host_id: int, now: float | None = None) -> None:
        if not await self._auto.execute(
                "UPDATE games SET host_id = $1, updated_at = $2 WHERE id = $3",
                host_id, now_or_clock(now), game_id):
            raise NotFound(f"no game {game_id}")

    async def games_of_user(self, user_id: int, guild_id: int | None) -> list[Game]:
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self._auto.fetch(
            f"SELECT {cols} FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = $1 AND g.guild_id IS NOT DISTINCT FROM $2 "
            "AND g.status IN ('lobby', 'active') ORDER BY g.id", user_id, guild_id,
        )
        return [game_record(row) for row in rows]

    # -- seats ---------------------------------------------------------------------------------
    async def add_seat(
        self, game_id: int, seat: int, *, user_id: int | None, display_name: str,
        bot_level: int | None = None, notify: Mapping[str, Any] | None = None,
    ) -> Seat:
        if (user_id is None) == (bot_level is None):
            raise ValueError("a seat needs a user_id (human) or a bot_level (bot), not both")
        async with self._tx() as db:
            await _require_status(db, game_id, ("lobby",))
            try:
                await db.execute(
                    f"INSERT INTO seats ({SEAT_COLUMNS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, NULL, 0, NULL, NULL)",
                    game_id, seat, user_id, display_name, bot_level, dump(notify),
                )
            except self.IntegrityError as exc:
                raise SeatTaken(f"game {game_id}: seat {seat} or user {user_id} taken") from exc
        return Seat(game_id, seat, user_id, display_name, bot_level, dict(notify or {}))

    async def remove_seat(self, game_id: int, seat: int) -> bool:
        async with self._tx() as db:
            await _require_status(db, game_id, ("lobby",))
            return await db.execute(
                "DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, seat) > 0

    async def list_seats(self, game_id: int) -> list[Seat]:
        rows = await self._auto.fetch(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat", game_id
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
        async with self._tx() as db:
            await db.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            if changes:
                assignments = ", ".join(f"{name} = ${i}" for i, name in enumerate(changes, 3))
                try:
                    await db.execute(
                        f"UPDATE seats SET {assignments} WHERE game_id = $1 AND seat = $2",
                        game_id, seat, *changes.values(),
                    )
                except self.IntegrityError as exc:
                    raise SeatTaken(f"game {game_id}, seat {seat}: {exc}") from exc
            row = await db.fetchrow(_SEAT, game_id, seat)
            if row is None:
                raise NotFound(f"game {game_id} has no seat {seat}")
            return seat_record(row)

    async def hand_seat_to_bot(
        self, game_id: int, seat: int, *, bot_level: int, display_name: str,
        host_id: int | None = None, now: float | None = None, reason: str | None = None,
        human_turns: int | None = None,
        owed: Owed | None = None,
    ) -> Seat:
        if bot_level is None:
            raise ValueError("a computer player needs a bot_level")
        now = now_or_clock(now)
        async with self._tx() as db:
            await _require_status(db, game_id, ("active",))
            row = await db.fetchrow(
                "SELECT user_id FROM seats WHERE game_id = $1 AND seat = $2 FOR UPDATE",
                game_id, seat,
            )
            if row is None:
                raise NotFound(f"game {game_id} has no seat {seat}")
            if row[0] is None:
                raise SeatIsBot(f"game {game_id}: seat {seat} is already a computer player")
            updated = await db.fetchrow(
                "UPDATE seats SET former_user_id = user_id, user_id = NULL, bot_level = $1, "
                "display_name = $2, handover = $5, human_turns = $6 WHERE game_id = $3 AND "
                f"seat = $4 RETURNING {SEAT_COLUMNS}",
                bot_level, display_name, game_id, seat, reason, human_turns,
            )
            await db.execute(
                "UPDATE games SET updated_at = $1, host_id = COALESCE($2, host_id) WHERE id = $3",
                now, host_id, game_id,
            )
            await self._write_owed(db, game_id, owed, now)
            return seat_record(updated)

    async def return_seat(
        self, game_id: int, seat: int, *, user_id: int, display_name: str,
        now: float | None = None, owed: Owed | None = None,
    ) -> Seat:
        now = now_or_clock(now)
        async with self._tx() as db:
            await _require_status(db, game_id, ("active",))
            row = await db.fetchrow(
                "UPDATE seats SET user_id = former_user_id, former_user_id = NULL, "
                "bot_level = NULL, handover = NULL, human_turns = NULL, timeouts = 0, "
                "display_name = $1 WHERE game_id = $2 AND seat = $3 AND former_user_id = $4 "
                f"AND user_id IS NULL AND handover = 'timeout' RETURNING {SEAT_COLUMNS}",
                display_name, game_id, seat, user_id,
            )
            if row is None:
                raise NotFound(f"game {game_id}: seat {seat} is not one {user_id} may take back")
            await db.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)
            await self._write_owed(db, game_id, owed, now)
            return seat_record(row)

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
        if self.APPEND_ALONE and results is None and not owed and not seat_timeouts:
            # the common case in one statement, so one round trip and its own transaction: the
            # UPDATE is the check and the lock (of concurrent appends at one seq the first
            # updates the row, the others wait for its commit, then match nothing and write
            # nothing), the inserts take the seq it returns
            try:
                row = await self._auto.fetchrow(self.APPEND_ALONE, game_id, expected_seq, now,
                                                actor, action_json, state_json)
            except self.IntegrityError as exc:
                if self._violation(exc) != "unique":
                    raise
                raise StoreError(f"game {game_id}: action {expected_seq + 1} already "
                                 "stored") from exc   # a row beyond games.seq: damage
            if row is not None:
                return row[0]
            _refuse_append(game_id, expected_seq, await self._auto.fetchrow(
                "SELECT status, seq FROM games WHERE id = $1", game_id))
        async with self._tx() as db:
            # the UPDATE is the seq check: of appends at one seq exactly one matches the row
            new_seq = await db.fetchval(
                "UPDATE games SET seq = seq + 1, updated_at = $3 "
                "WHERE id = $1 AND seq = $2 AND status = 'active' RETURNING seq",
                game_id, expected_seq, now,
            )
            if new_seq is None:
                _refuse_append(game_id, expected_seq, await db.fetchrow(
                    "SELECT status, seq FROM games WHERE id = $1", game_id))
            try:
                await db.execute(
                    "INSERT INTO actions (game_id, seq, actor, action, created_at) "
                    "VALUES ($1, $2, $3, $4, $5)", game_id, new_seq, actor, action_json, now,
                )
            except self.IntegrityError as exc:
                if self._violation(exc) != "unique":
                    raise
                raise StoreError(f"game {game_id}: action {new_seq} already stored") from exc
            await _put_snapshot(db, game_id, new_seq, state_json, now)
            if seat_timeouts:
                await db.executemany(
                    "UPDATE seats SET timeouts = $1 WHERE game_id = $2 AND seat = $3",
                    [(count, game_id, number) for number, count in seat_timeouts.items()])
            if results is not None:
                await self._finish(db, game_id, results, now, ratings=ratings,
                                   end_reason=end_reason)
            await self._write_owed(db, game_id, owed, now)
            return new_seq

    async def last_acted_at(self, game_id: int, not_by: int) -> float | None:
        value = await self._auto.fetchval(
            "SELECT created_at FROM actions WHERE game_id = $1 AND actor IS NOT NULL "
            "AND actor != $2 ORDER BY seq DESC LIMIT 1", game_id, not_by)
        return float(value) if value is not None else None

    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        # one statement, so one snapshot of the data: the log and the seq it must reach
        rows = await self._auto.fetch(
            "SELECT g.seq, a.seq, a.actor, a.action, a.created_at FROM games g "
            "LEFT JOIN actions a ON a.game_id = g.id WHERE g.id = $1 ORDER BY a.seq", game_id,
        )
        if not rows:
            raise NotFound(f"no game {game_id}")
        logged = [tuple(row)[1:] for row in rows if row[1] is not None]
        return check_actions(game_id, logged, rows[0][0])

    async def load_snapshot(self, game_id: int) -> Snapshot | None:
        row = await self._auto.fetchrow(
            "SELECT g.seq, s.game_id, s.seq, s.state, s.updated_at FROM games g "
            "LEFT JOIN snapshots s ON s.game_id = g.id WHERE g.id = $1", game_id,
        )
        if row is None:
            raise NotFound(f"no game {game_id}")
        game_seq, stored, seq, state, updated_at = row
        if stored is None:
            if game_seq == 0:
                return None
            raise CorruptSnapshot(game_id, game_seq, "missing")
        return check_snapshot(game_id, seq, state, updated_at, game_seq)

    # -- results -------------------------------------------------------------------------------
    async def record_results(
        self, game_id: int, results: Sequence[SeatResult], now: float | None = None, *,
        ratings: RatingUpdate | None = None,
    ) -> None:
        now = now_or_clock(now)
        async with self._tx() as db:
            await _require_status(db, game_id, ("active",))
            await self._finish(db, game_id, results, now, ratings=ratings)

    async def load_results(self, game_id: int) -> list[ResultRecord]:
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = $1 ORDER BY seat", game_id
        )
        return [result_record(row) for row in rows]

    async def results_for_user(
        self, user_id: int, limit: int | None = None, *, include_left: bool = False,
    ) -> list[ResultRecord]:
        where = "user_id = $1" if not include_left else "(user_id = $1 OR former_user_id = $1)"
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} "
            "ORDER BY finished_at DESC, game_id DESC LIMIT $2", user_id, self._limit(limit),
        )
        return [result_record(row) for row in rows]

    async def results_in_guild(self, guild_id: int, user_id: int) -> list[ResultRecord]:
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = $1 AND user_id = $2 "
            f"UNION ALL SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = $1 AND "
            "former_user_id = $2 ORDER BY finished_at DESC, game_id DESC", guild_id, user_id,
        )
        return [result_record(row) for row in rows]

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0,
    ) -> tuple[int, list[FinishedGame]]:
        where, params = "guild_id = $1 AND status = 'finished'", [guild_id]
        if user_id is not None:
            where += (" AND id IN (SELECT game_id FROM results WHERE guild_id = $1 AND "
                      "user_id = $2 UNION SELECT game_id FROM results WHERE guild_id = $1 AND "
                      "former_user_id = $2)")
            params.append(user_id)
        n = len(params)
        results, posts, rated = [], [], set()
        async with self._tx(readonly=True) as db:
            total = await db.fetchval(f"SELECT COUNT(*) FROM games WHERE {where}", *params)
            games = [game_record(r) for r in await db.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE {where} "
                f"ORDER BY finished_at DESC, id DESC LIMIT ${n + 1} OFFSET ${n + 2}",
                *params, limit, offset)]
            ids = [g.id for g in games]
            if ids:
                results = [result_record(r) for r in await db.fetch(
                    f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ANY($1::bigint[]) "
                    "ORDER BY game_id, seat", ids)]
                posts = [MessageRef(*r) for r in await db.fetch(
                    f"SELECT {_MESSAGE_COLUMNS} FROM messages "
                    "WHERE kind = 'final' AND game_id = ANY($1::bigint[])", ids)]
                rated = {r[0] for r in await db.fetch(
                    "SELECT game_id FROM rated_games WHERE game_id = ANY($1::bigint[])", ids)}
        return total, finished_records(games, results, posts, rated)

    # -- ratings -------------------------------------------------------------------------------
    async def get_ratings(self, scope: int, user_ids: Sequence[int]) -> dict[int, RatingRecord]:
        users = list(dict.fromkeys(user_ids))
        if not users:
            return {}
        rows = await self._auto.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = $1 AND "
            "user_id = ANY($2::bigint[])", scope, users,
        )
        return {r.user_id: r for r in map(rating_record, rows)}

    async def leaderboard(
        self, scope: int, *, min_games: int, limit: int = 10, offset: int = 0,
        map: str | None = None,
    ) -> tuple[int, list[LeaderboardRow]]:
        if map is None:
            source, extra = "ratings r", "NULL::integer"
        else:
            where = "" if scope == GLOBAL_SCOPE else "guild_id = $1 AND "
            # a rated seat is its player's whether they played it to the end or left it
            source = ("ratings r JOIN (SELECT COALESCE(user_id, former_user_id) AS u, "
                      f"COUNT(*)::integer AS n FROM results WHERE {where}map = $3 AND rated "
                      "GROUP BY 1) m ON m.u = r.user_id")
            extra = "m.n"
        cond = "r.scope = $1 AND r.games >= $2"
        if map is None:
            cond += " AND $3::text IS NULL"   # every statement takes the same parameters
        count = f"SELECT COUNT(*) FROM {source} WHERE {cond}"
        async with self._tx(readonly=True) as db:
            if map is None:   # the index gives the page at once; the count is another scan
                total = await db.fetchval(count, scope, min_games, map)
                over = ""
            else:             # one aggregation for the page and its count
                over = ", COUNT(*) OVER ()"
            rows = await db.fetch(
                f"SELECT r.user_id, r.mu, r.sigma, r.value, r.games, {extra}{over} FROM {source} "
                f"WHERE {cond} ORDER BY r.value DESC, r.user_id LIMIT $4 OFFSET $5",
                scope, min_games, map, limit, offset)
            if map is not None:
                total = rows[0][-1] if rows else await db.fetchval(count, scope, min_games, map)
                rows = [tuple(r)[:-1] for r in rows]
        return total, [leaderboard_row(r) for r in rows]

    async def rating_changes(self, game_id: int, scope: int) -> list[RatingChange]:
        rows = await self._auto.fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1 AND scope = $2 "
            "ORDER BY user_id", game_id, scope,
        )
        return [change_record(r) for r in rows]

    async def rating_log(self, scope: int) -> list[tuple[int, list[ResultRecord]]]:
        columns = ", ".join("r." + c for c in RESULT_COLUMNS.split(", "))
        where, args = ("", ()) if scope == GLOBAL_SCOPE else ("WHERE r.guild_id = $1", (scope,))
        rows = await self._auto.fetch(
            f"SELECT {columns} FROM rated_games g JOIN results r ON r.game_id = g.game_id "
            f"{where} ORDER BY g.seq, r.seat", *args,
        )
        return results_by_game(result_record(r) for r in rows)

    # -- users ---------------------------------------------------------------------------------
    async def get_user(self, user_id: int) -> UserPrefs | None:
        row = await self._auto.fetchrow(
            f"SELECT {USER_COLUMNS} FROM users WHERE user_id = $1", user_id)
        return user_record(row) if row else None

    async def get_locale(self, user_id: int) -> str | None:
        user = await self.get_user(user_id)
        return user.locale if user else None

    async def set_locale(self, user_id: int, locale: str | None, now: float | None = None) -> None:
        await self._auto.execute(
            "INSERT INTO users (user_id, locale, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
            "updated_at = excluded.updated_at", user_id, locale, now_or_clock(now),
        )

    async def get_palette(self, user_id: int) -> str | None:
        return await self._auto.fetchval("SELECT palette FROM users WHERE user_id = $1", user_id)

    async def set_palette(self, user_id: int, palette: str | None,
                          now: float | None = None) -> None:
        await self._auto.execute(
            "INSERT INTO users (user_id, palette, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET palette = excluded.palette, "
            "updated_at = excluded.updated_at", user_id, palette, now_or_clock(now),
        )

    async def get_guild_locale(self, guild_id: int) -> str | None:
        return await self._auto.fetchval(
            "SELECT locale FROM guild_settings WHERE guild_id = $1", guild_id)

    async def set_guild_locale(self, guild_id: int, locale: str | None,
                               now: float | None = None) -> None:
        await self._auto.execute(
            "INSERT INTO guild_settings (guild_id, locale, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, "
            "updated_at = excluded.updated_at", guild_id, locale, now_or_clock(now),
        )

    async def get_dms_closed(self, user_id: int) -> bool:
        user = await self.get_user(user_id)
        return user.dms_closed if user else False

    async def set_dms_closed(self, user_id: int, closed: bool, now: float | None = None) -> None:
        await self._auto.execute(
            "INSERT INTO users (user_id, dms_closed, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed, "
            "updated_at = excluded.updated_at", user_id, bool(closed), now_or_clock(now),
        )

    async def set_notify(
        self, user_id: int, notify: Mapping[str, Any], now: float | None = None,
    ) -> None:
        await self._auto.execute(
            "INSERT INTO users (user_id, notify, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
            "updated_at = excluded.updated_at", user_id, dump(notify), now_or_clock(now),
        )

    # -- away ----------------------------------------------------------------------------------
    async def set_away(
        self, user_id: int, guild_id: int, since: float, until: float, *,
        owed: Owed | None = None, forget_before: float | None = None,
    ) -> None:
        async with self._tx() as db:
            await self._log_away(db, user_id, guild_id, since)     # the one it replaces
            if forget_before is not None:
                await db.execute(
                    "DELETE FROM away_log WHERE user_id = $1 AND guild_id = $2 AND until < $3",
                    user_id, guild_id, float(forget_before))
            await db.execute(
                "INSERT INTO away (user_id, guild_id, since, until) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (user_id, guild_id) DO UPDATE SET since = excluded.since, "
                "until = excluded.until", user_id, guild_id, float(since), float(until),
            )
            await self._write_owed(db, None, owed, float(since))

    async def clear_away(
        self, user_id: int, guild_id: int, *, owed: Owed | None = None,
        now: float | None = None,
    ) -> Away | None:
        now = now_or_clock(now)
        async with self._tx() as db:
            await self._log_away(db, user_id, guild_id, now)
            row = await db.fetchrow(
                "DELETE FROM away WHERE user_id = $1 AND guild_id = $2 "
                "RETURNING user_id, guild_id, since, until", user_id, guild_id,
            )
            await self._write_owed(db, None, owed, now)
        return Away(*row) if row else None

    async def _log_away(self, db, user_id: int, guild_id: int, now: float) -> None:
        """The running away period, as far as it was taken by `now`, into the log."""
        await db.execute(
            "INSERT INTO away_log (user_id, guild_id, since, until) "
            "SELECT user_id, guild_id, since, CASE WHEN until < $3 THEN until ELSE "
            "CASE WHEN since > $3 THEN since ELSE $3 END END FROM away "
            "WHERE user_id = $1 AND guild_id = $2", user_id, guild_id, float(now))

    async def get_away(self, user_id: int, guild_id: int) -> Away | None:
        row = await self._auto.fetchrow(
            "SELECT user_id, guild_id, since, until FROM away WHERE user_id = $1 AND guild_id = $2",
            user_id, guild_id,
        )
        return Away(*row) if row else None

    async def away_taken(self, user_id: int, guild_id: int,
                         after: float) -> list[tuple[float, float]]:
        rows = await self._auto.fetch(
            "SELECT since, until FROM away_log WHERE user_id = $1 AND guild_id = $2 "
            "AND until > $3 ORDER BY since", user_id, guild_id, float(after))
        return [(float(a), float(b)) for a, b in rows]

    # -- votes ---------------------------------------------------------------------------------
    async def open_vote(
        self, game_id: int, *, kind: str, target_seat: int | None, proposer: int,
        voters: Sequence[int], ballots: Mapping[int, bool], expires_at: float,
        now: float | None = None, owed: Callable[[int], Owed] | None = None,
    ) -> Vote:
        now = now_or_clock(now)
        async with self._tx() as db:
            try:
                row = await db.fetchrow(
                    "INSERT INTO votes (game_id, kind, target_seat, proposer, voters, ballots, "
                    "created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                    f"RETURNING {VOTE_COLUMNS}",
                    game_id, kind, target_seat, proposer, dump_list(voters),
                    dump({str(k): v for k, v in ballots.items()}), now, float(expires_at),
                )
            except self.IntegrityError as exc:
                violation = self._violation(exc)
                if violation == "unique":
                    raise VoteOpen(f"game {game_id} has an open vote") from exc
                if violation == "foreign_key":
                    raise NotFound(f"no game {game_id}") from exc
                raise
            if owed is not None:
                await self._write_owed(db, game_id, owed(row[0]), now)
        return vote_record(row)

    async def get_vote(self, vote_id: int) -> Vote | None:
        row = await self._auto.fetchrow(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1", vote_id)
        return vote_record(row) if row else None

    async def open_vote_of(self, game_id: int) -> Vote | None:
        row = await self._auto.fetchrow(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE game_id = $1 AND status = 'open'", game_id)
        return vote_record(row) if row else None

    async def cast_ballot(self, vote_id: int, user_id: int, yes: bool) -> Vote | None:
        async with self._tx() as db:
            row = await db.fetchrow(
                "SELECT ballots FROM votes WHERE id = $1 AND status = 'open' FOR UPDATE", vote_id)
            if row is not None:
                ballots = json.loads(row[0])
                ballots[str(int(user_id))] = bool(yes)
                await db.execute("UPDATE votes SET ballots = $1 WHERE id = $2",
                                 dump(ballots), vote_id)
            row = await db.fetchrow(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1", vote_id)
        return vote_record(row) if row else None

    async def close_vote(
        self, vote_id: int, status: str, now: float | None = None, *, owed: Owed | None = None,
    ) -> bool:
        now = now_or_clock(now)
        async with self._tx() as db:
            game_id = await db.fetchval(
                "UPDATE votes SET status = $1, closed_at = $2 WHERE id = $3 AND status = 'open' "
                "RETURNING game_id", status, now, vote_id,
            )
            if game_id is None:
                return False
            await self._write_owed(db, game_id, owed, now)
            return True

    async def purge_votes(self, before: float) -> int:
        return await self._auto.execute(
            "DELETE FROM votes WHERE status != 'open' AND closed_at IS NOT NULL "
            "AND closed_at < $1", float(before))

    # -- the outbox ----------------------------------------------------------------------------
    async def write_owed(
        self, owed: Owed, game_id: int | None = None, now: float | None = None,
    ) -> None:
        async with self._tx() as db:
            await self._write_owed(db, game_id, owed, now_or_clock(now))

    async def pending_outbox(
        self, limit: int = 500, *, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        if shards is None or shards.every_guild:
            rows = await self._auto.fetch(
                f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE sent_at IS NULL ORDER BY id "
                "LIMIT $1", limit)
        else:
            rows = await self._auto.fetch(
                f"SELECT {qualified(OUTBOX_COLUMNS, 'o')} FROM outbox o "
                "LEFT JOIN games g ON g.id = o.game_id WHERE o.sent_at IS NULL "
                f"AND {_on(shards, 'g.guild_id')} ORDER BY o.id LIMIT $1", limit)
        return [outbox_record(row) for row in rows]

    async def deliverable_outbox(
        self, now: float, *, lanes: int = 200, per_lane: int = 20, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        rows = await self._auto.fetch(
            f"WITH owed AS (SELECT {qualified(OUTBOX_COLUMNS, 'o')}, ROW_NUMBER() OVER "
            "(PARTITION BY o.lane ORDER BY o.id) AS n FROM outbox o "
            "LEFT JOIN games g ON g.id = o.game_id WHERE o.sent_at IS NULL "
            f"AND {_on(shards, 'g.guild_id')} AND NOT EXISTS (SELECT 1 FROM outbox_lanes l "
            "WHERE l.lane = o.lane AND l.retry_at > $1)), "
            "heads AS (SELECT lane, due_at AS head_due, id AS head_id FROM owed WHERE n = 1 "
            "ORDER BY due_at, id LIMIT $2) "
            f"SELECT {qualified(OUTBOX_COLUMNS, 'w')} FROM owed w JOIN heads h ON h.lane = w.lane "
            "WHERE w.n <= $3 ORDER BY h.head_due, h.head_id, w.id",
            float(now), int(lanes), int(per_lane))
        return [outbox_record(row) for row in rows]

    async def owed_in_lane(self, lane: str) -> list[OutboxRow]:
        rows = await self._auto.fetch(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE lane = $1 AND sent_at IS NULL "
            "ORDER BY id", lane)
        return [outbox_record(row) for row in rows]

    async def last_owed_at(self, game_id: int, key_prefix: str) -> float | None:
        value = await self._auto.fetchval(
            "SELECT MAX(created_at) FROM outbox WHERE game_id = $1 "
            "AND substr(key, 1, length($2::text)) = $2::text", game_id, key_prefix)
        return float(value) if value is not None else None

    async def refuse_lane(
        self, lane: str, now: float, retry_at: float, *, guild_id: int | None = None,
        code: int | None = None,
    ) -> LaneBlock:
        row = await self._auto.fetchrow(
            "INSERT INTO outbox_lanes (lane, guild_id, refused_since, retry_at, attempts, code) "
            "VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (lane) DO UPDATE SET "
            "attempts = outbox_lanes.attempts + 1, retry_at = excluded.retry_at, "
            "code = excluded.code, guild_id = COALESCE(excluded.guild_id, outbox_lanes.guild_id) "
            f"RETURNING {LANE_COLUMNS}",
            lane, guild_id, float(now), float(retry_at), code)
        return lane_record(row)

    async def lane_blocks(self, *, shards: Shards | None = None) -> list[LaneBlock]:
        rows = await self._auto.fetch(
            f"SELECT {LANE_COLUMNS} FROM outbox_lanes WHERE {_on(shards, 'guild_id')} "
            "ORDER BY retry_at, lane")
        return [lane_record(row) for row in rows]

    async def clear_lane_block(self, lane: str) -> LaneBlock | None:
        row = await self._auto.fetchrow(
            f"DELETE FROM outbox_lanes WHERE lane = $1 RETURNING {LANE_COLUMNS}", lane)
        return lane_record(row) if row else None

    async def retry_lanes_at(self, lanes: Sequence[str], at: float) -> int:
        if not lanes:
            return 0
        return await self._auto.execute(
            "UPDATE outbox_lanes SET retry_at = $1 WHERE lane = ANY($2::text[]) AND retry_at > $1",
            float(at), list(lanes))

    async def open_games_in_guild(self, guild_id: int) -> list[int]:
        rows = await self._auto.fetch(
            "SELECT id FROM games WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id",
            guild_id, list(OPEN_STATUSES))
        return [row[0] for row in rows]

    async def claim_outbox(
        self, ids: Sequence[int], owner: str, now: float, lease: float = 60.0,
    ) -> bool:
        if not ids:
            return True
        async with self._tx() as db:
            rows = await db.fetch(     # the rows' locks (SQLite: the write lock): one claimer
                "SELECT lease_owner, lease_until FROM outbox WHERE id = ANY($1::bigint[]) "
                "AND sent_at IS NULL ORDER BY id FOR UPDATE", list(ids))
            if len(rows) < len(set(ids)) or any(   # one is sent already, or another's
                    o is not None and o != owner and u > now for o, u in rows):
                return False
            await db.execute(
                "UPDATE outbox SET lease_owner = $1, lease_until = $2 "
                "WHERE id = ANY($3::bigint[]) AND sent_at IS NULL",
                owner, float(now) + lease, list(ids))
            return True

    async def release_outbox(self, owner: str) -> int:
        return await self._auto.execute(
            "UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 "
            "AND sent_at IS NULL", owner)

    async def mark_outbox_sent(
        self, ids: Sequence[int], now: float | None = None, error: str | None = None,
    ) -> int:
        if not ids:
            return 0
        return await self._auto.execute(
            "UPDATE outbox SET sent_at = $1, error = $2 WHERE id = ANY($3::bigint[]) "
            "AND sent_at IS NULL", now_or_clock(now), error, list(ids),
        )

    async def retry_outbox(self, row_id: int, due_at: float) -> int | None:
        return await self._auto.fetchval(
            "UPDATE outbox SET attempts = attempts + 1, due_at = $1, lease_owner = NULL, "
            "lease_until = NULL WHERE id = $2 AND sent_at IS NULL RETURNING attempts",
            float(due_at), row_id,
        )

    async def fail_outbox_lane(self, lane: str, error: str, now: float | None = None) -> int:
        async with self._tx() as db:
            count = await db.execute(
                "UPDATE outbox SET sent_at = $1, error = $2 WHERE lane = $3 AND sent_at IS NULL",
                now_or_clock(now), error, lane,
            )
            await db.execute("DELETE FROM outbox_lanes WHERE lane = $1", lane)
            return count

    async def purge_outbox(self, before: float) -> int:
        async with self._tx() as db:
            count = await db.execute(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < $1", float(before))
            await db.execute(
                "DELETE FROM outbox_lanes WHERE NOT EXISTS (SELECT 1 FROM outbox o "
                "WHERE o.lane = outbox_lanes.lane AND o.sent_at IS NULL)")
            return count

    # -- timers --------------------------------------------------------------------------------
    async def add_timer(
        self, kind: str, due_at: float, payload: Mapping[str, Any] | None = None,
        game_id: int | None = None, now: float | None = None,
    ) -> int:
        try:
            return await self._auto.fetchval(
                "INSERT INTO timers (game_id, kind, due_at, payload, created_at) "
                "VALUES ($1, $2, $3, $4, $5) RETURNING id",
                game_id, kind, float(due_at), dump(payload), now_or_clock(now),
            )
        except self.IntegrityError as exc:
            if self._violation(exc) != "foreign_key":
                raise
            raise NotFound(f"no game {game_id} for a {kind} timer") from exc

    async def delete_timer(self, timer_id: int) -> bool:
        return await self._auto.execute("DELETE FROM timers WHERE id = $1", timer_id) > 0

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        return await self._auto.execute(
            "DELETE FROM timers WHERE game_id = $1 AND ($2::text IS NULL OR kind = $2::text)",
            game_id, kind,
        )

    async def retry_timer(self, timer_id: int, due_at: float) -> int | None:
        return await self._auto.fetchval(
            "UPDATE timers SET attempts = attempts + 1, due_at = $1, lease_owner = NULL, "
            "lease_until = NULL WHERE id = $2 RETURNING attempts", float(due_at), timer_id,
        )

    async def next_due(self) -> Timer | None:
        row = await self._auto.fetchrow(
            f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY due_at, id LIMIT 1")
        return timer_record(row) if row else None

    async def due_timers(
        self, now: float, limit: int | None = None, *, shards: Shards | None = None,
    ) -> list[Timer]:
        rows = await self._auto.fetch(
            f"SELECT {qualified(TIMER_COLUMNS, 't')} FROM timers t "
            "LEFT JOIN games g ON g.id = t.game_id WHERE t.due_at <= $1 "
            f"AND {_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT $2",
            float(now), self._limit(limit),
        )
        return [timer_record(row) for row in rows]

    async def next_claim_at(self, now: float, *, shards: Shards | None = None) -> float | None:
        # the soonest free timer (walking the due index) and the soonest lease to run out
        row = await self._auto.fetchrow(
            "SELECT (SELECT t.due_at FROM timers t LEFT JOIN games g ON g.id = t.game_id "
            "        WHERE (t.lease_until IS NULL OR t.lease_until <= $1) "
            f"       AND {_on(shards, 'g.guild_id')} ORDER BY t.due_at, t.id LIMIT 1), "
            "       (SELECT MIN(GREATEST(t.due_at, t.lease_until)) FROM timers t "
            "        LEFT JOIN games g ON g.id = t.game_id WHERE t.lease_until > $1 "
            f"       AND {_on(shards, 'g.guild_id')})", float(now))
        times = [t for t in row if t is not None]
        return min(times) if times else None

    async def release_timers(self, owner: str) -> int:
        return await self._auto.execute(
            "UPDATE timers SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1",
            owner)

    async def list_timers(self, game_id: int, kind: str | None = None) -> list[Timer]:
        rows = await self._auto.fetch(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = $1 "
            "AND ($2::text IS NULL OR kind = $2::text) ORDER BY due_at, id", game_id, kind,
        )
        return [timer_record(row) for row in rows]

    # -- the bot's messages ----------------------------------------------------------------------
    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int,
        now: float | None = None,
    ) -> None:
        try:
            await self._auto.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, kind) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "updated_at = excluded.updated_at",
                game_id, kind, channel_id, message_id, now_or_clock(now),
            )
        except self.IntegrityError as exc:
            if self._violation(exc) != "foreign_key":
                raise
            raise NotFound(f"no game {game_id}") from exc

    async def get_message(self, game_id: int, kind: str) -> MessageRef | None:
        row = await self._auto.fetchrow(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE game_id = $1 AND kind = $2",
            game_id, kind,
        )
        return MessageRef(*row) if row else None

    async def delete_message(self, game_id: int, kind: str) -> bool:
        return await self._auto.execute(
            "DELETE FROM messages WHERE game_id = $1 AND kind = $2", game_id, kind) > 0

    # -- helpers used inside transactions ------------------------------------------------------
    async def _write_owed(
        self, db: Conn, game_id: int | None, owed: Owed | None, now: float
    ) -> None:
        """The outbox rows and timers a change owes (see `Owed`)."""
        if not owed:
            return
        for kind in owed.drop_timers:
            await db.execute("DELETE FROM timers WHERE game_id = $1 AND kind = $2", game_id, kind)
        if owed.timers:
            await db.executemany(
                "INSERT INTO timers (game_id, kind, due_at, payload, created_at) "
                "VALUES ($1, $2, $3, $4, $5)",
                [(t.game_id if t.game_id is not None else game_id, t.kind, float(t.due_at),
                  dump(t.payload), now) for t in owed.timers],
            )
        if owed.outbox:
            await db.executemany(
                "INSERT INTO outbox (game_id, kind, lane, payload, key, held, seq, due_at, "
                "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (key) DO NOTHING",
                [(o.game_id if o.game_id is not None else game_id, o.kind, o.lane,
                  dump(o.payload), o.key, bool(o.held), o.seq,
                  float(now if o.due_at is None else o.due_at), now) for o in owed.outbox],
            )

    async def _finish(
        self, db: Conn, game_id: int, results: Sequence[SeatResult], now: float,
        *, ratings: RatingUpdate | None = None, end_reason: str | None = None,
    ) -> None:
        """Record the results (copying guild, map and variant from the game), mark the game
        finished and rate it."""
        n = len(RESULT_FIELDS)
        marks = ", ".join(f"${i}" for i in range(1, n + 1))
        try:
            await db.executemany(
                f"INSERT INTO results ({', '.join(RESULT_FIELDS)}, game_id, guild_id, map, "
                f"variant, finished_at) SELECT {marks}, id, guild_id, map, variant, ${n + 1} "
                f"FROM games WHERE id = ${n + 2}",
                [(*result_params(r, as_int=False), now, game_id) for r in results],
            )
        except self.IntegrityError as exc:
            raise StoreError(f"game {game_id}: bad results ({exc})") from exc
        await db.execute(
            "UPDATE games SET status = 'finished', finished_at = $1, updated_at = $1, "
            "end_reason = $3 WHERE id = $2", now, game_id, end_reason,
        )
        await db.execute("DELETE FROM timers WHERE game_id = $1", game_id)
        if ratings is not None and ratings.users:
            await self._rate(db, game_id, ratings, now)

    async def _rate(self, db: Conn, game_id: int, update: RatingUpdate, now: float) -> None:
        """Inside the finishing transaction, after `_lock_ratings`: no other writer can change
        these users' ratings between the read and the write (see the drivers)."""
        users = rated_users(update)
        await self._lock_ratings(db, users)
        for scope in dict.fromkeys(update.scopes):
            rows = await db.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = $1 AND "
                "user_id = ANY($2::bigint[])", scope, list(users))
            before = {r.user_id: r for r in map(rating_record, rows)}
            after = new_ratings(update, users, before)
            await db.executemany(
                f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 1, $6) "
                "ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, value = excluded.value, games = ratings.games + 1, "
                "updated_at = excluded.updated_at",
                [(scope, u, after[u].mu, after[u].sigma, after[u].value, now) for u in users])
            await db.executemany(
                f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [(game_id, scope, u, getattr(before.get(u), "mu", None),
                  getattr(before.get(u), "sigma", None), after[u].mu, after[u].sigma)
                 for u in users])
        try:
            await db.execute("INSERT INTO rated_games (game_id, rated_at) VALUES ($1, $2)",
                             game_id, now)
        except self.IntegrityError as exc:
            if self._violation(exc) != "unique":
                raise
            raise StoreError(f"game {game_id} was rated already") from exc


async def _require_status(db: Conn, game_id: int, allowed: Sequence[str]) -> int:
    """Lock the game's row until the transaction ends (SQLite: the transaction holds the write
    lock already); NotFound / WrongStatus unless the game is in `allowed`. Returns its seq."""
    row = await db.fetchrow("SELECT status, seq FROM games WHERE id = $1 FOR UPDATE", game_id)
    if row is None:
        raise NotFound(f"no game {game_id}")
    status, seq = row
    if status not in allowed:
        raise WrongStatus(game_id, status, " or ".join(allowed) or "(nothing: final status)")
    return seq


async def _put_snapshot(db: Conn, game_id: int, seq: int, state_json: str, now: float) -> None:
    await db.execute(
        "INSERT INTO snapshots (game_id, seq, state, updated_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, "
        "updated_at = excluded.updated_at", game_id, seq, state_json, now,
    )


def _refuse_append(game_id: int, expected_seq: int, found: Any) -> NoReturn:
    """Why an append wrote nothing: no such game, not active, or not at expected_seq."""
    if found is None:
        raise NotFound(f"no game {game_id}")
    status, seq = found
    if status != "active":
        raise WrongStatus(game_id, status, "active")
    raise StaleSequence(game_id, expected_seq, seq)

