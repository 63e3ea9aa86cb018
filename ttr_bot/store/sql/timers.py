"""Timers: adding, claiming, retrying and releasing them.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Mapping
from typing import Any

from ..errors import NotFound
from ..models import Timer
from ..rows import TIMER_COLUMNS, dump, now_or_clock, timer_record
from ..shards import Shards, qualified
from ..shards import on_shards as _on
from .base import SqlBase


class TimersSql(SqlBase):
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
