"""A player's away periods.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""

from ..models import Away, Owed
from ..rows import now_or_clock
from .base import Conn, SqlBase


class AwaySql(SqlBase):
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

    async def _log_away(self, db: Conn, user_id: int, guild_id: int, now: float) -> None:
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
