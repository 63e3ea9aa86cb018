"""A game's row: creating it, finding it, its status, host and lock.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Mapping
from typing import Any

from ..errors import ChannelBusy, StoreError
from ..models import GAME_STATUSES, OPEN_STATUSES, Game, Owed
from ..rows import GAME_COLUMNS, INT64, TRANSITIONS, check_json_object, dump, game_record, now_or_clock
from ..shards import Shards
from ..shards import on_shards as _on
from .base import SqlBase, _put_snapshot, _require_status


class GamesSql(SqlBase):
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

    async def games_of_user(self, user_id: int, guild_id: int | None) -> list[Game]:
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self._auto.fetch(
            f"SELECT {cols} FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = $1 AND g.guild_id IS NOT DISTINCT FROM $2 "
            "AND g.status IN ('lobby', 'active') ORDER BY g.id", user_id, guild_id,
        )
        return [game_record(row) for row in rows]

    async def open_games_in_guild(self, guild_id: int) -> list[int]:
        rows = await self._auto.fetch(
            "SELECT id FROM games WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id",
            guild_id, list(OPEN_STATUSES))
        return [row[0] for row in rows]
