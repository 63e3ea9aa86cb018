"""The outbox: owed messages, their lanes, leases, retries and refusals.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Sequence

from ..models import LaneBlock, OutboxRow, Owed
from ..rows import LANE_COLUMNS, OUTBOX_COLUMNS, lane_record, now_or_clock, outbox_record
from ..shards import Shards, qualified
from ..shards import on_shards as _on
from .base import SqlBase


class OutboxSql(SqlBase):
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
