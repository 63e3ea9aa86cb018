"""The community subjects (subjects/community.py: seasons, the live board) in SQL, written once
for both drivers like the rest of `SqlStore` (PostgreSQL's dialect, `$n` parameters; the SQLite
driver rewrites each text), over sql/base.py's connection protocol (`_tx`, `_auto`) and
`_write_owed`."""

from ..models import Owed, ResultRecord
from ..rows import RESULT_COLUMNS, result_record
from ..subjects.community import BoardRow, ClosedSeason, SeasonSettings
from .base import SqlBase

_SEASON = "guild_id, period, channel_id, role_id, set_by, updated_at"
_BOARD = ("guild_id, channel_id, message_id, digest, owed_at, ticked_at, refused_at, set_by, "
          "set_at")
BOARD_KIND = "board"        # the outbox kind of a board edit (service/messages.py BoardPost)


class CommunitySql(SqlBase):

    # -- the server's time zone ----------------------------------------------------------------
    async def get_guild_timezone(self, guild_id: int) -> str | None:
        return await self._auto.fetchval(
            "SELECT timezone FROM guild_settings WHERE guild_id = $1", guild_id)

    async def set_guild_timezone(self, guild_id: int, zone: str | None, *, now: float,
                                 owed: Owed | None = None) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, timezone, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO UPDATE SET timezone = excluded.timezone, "
                "updated_at = excluded.updated_at", guild_id, zone, float(now))
            # the season timers' chain is named by the settings' time: a new one starts
            await db.execute("UPDATE season_settings SET updated_at = $2 WHERE guild_id = $1",
                             guild_id, float(now))
            await self._write_owed(db, None, owed, float(now))

    # -- seasons -------------------------------------------------------------------------------
    async def get_season_settings(self, guild_id: int) -> SeasonSettings | None:
        row = await self._auto.fetchrow(
            f"SELECT {_SEASON} FROM season_settings WHERE guild_id = $1", guild_id)
        return SeasonSettings(*row) if row else None

    async def set_season_settings(self, guild_id: int, period: str | None, *,
                                  channel_id: int, role_id: int | None, set_by: int,
                                  now: float, owed: Owed | None = None) -> None:
        async with self._tx() as db:
            if period is None:
                await db.execute("DELETE FROM season_settings WHERE guild_id = $1", guild_id)
            else:
                await db.execute(
                    f"INSERT INTO season_settings ({_SEASON}) VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (guild_id) DO UPDATE SET period = excluded.period, "
                    "channel_id = excluded.channel_id, role_id = excluded.role_id, "
                    "set_by = excluded.set_by, updated_at = excluded.updated_at",
                    guild_id, period, channel_id, role_id, set_by, float(now))
            await self._write_owed(db, None, owed, float(now))

    async def season_results(self, guild_id: int, since: float,
                             until: float) -> list[ResultRecord]:
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = $1 AND finished_at >= $2 "
            "AND finished_at < $3 AND rated ORDER BY finished_at, game_id, seat",
            guild_id, float(since), float(until))
        return [result_record(row) for row in rows]

    async def close_season(self, guild_id: int, season: str, champion_id: int | None, *,
                           now: float, owed: Owed | None = None,
                           span: tuple[float, float] | None = None) -> bool:
        started, ended = span if span is not None else (None, None)
        async with self._tx() as db:
            added = await db.execute(
                "INSERT INTO seasons_closed (guild_id, season, champion_id, closed_at, "
                "started_at, ended_at) VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (guild_id, season) DO NOTHING",
                guild_id, season, champion_id, float(now), started, ended)
            if added:
                await self._write_owed(db, None, owed, float(now))
            return bool(added)

    async def closed_seasons(self, guild_id: int, limit: int = 12) -> list[ClosedSeason]:
        rows = await self._auto.fetch(
            "SELECT guild_id, season, champion_id, closed_at, started_at, ended_at "
            "FROM seasons_closed "
            "WHERE guild_id = $1 ORDER BY closed_at DESC, season DESC LIMIT $2",
            guild_id, int(limit))
        return [ClosedSeason(*row) for row in rows]

    # -- the live board ------------------------------------------------------------------------
    async def get_board(self, guild_id: int) -> BoardRow | None:
        row = await self._auto.fetchrow(
            f"SELECT {_BOARD} FROM boards WHERE guild_id = $1", guild_id)
        return BoardRow(*row) if row else None

    async def set_board(self, guild_id: int, channel_id: int, *, set_by: int, now: float,
                        owed: Owed | None = None, told: bool = False) -> None:
        async with self._tx() as db:
            await db.execute(
                f"INSERT INTO boards ({_BOARD}) VALUES ($1, $2, NULL, NULL, NULL, NULL, $5, $3, $4) "
                "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "message_id = CASE WHEN boards.channel_id = excluded.channel_id "
                "THEN boards.message_id END, digest = NULL, owed_at = NULL, ticked_at = NULL, "
                "refused_at = excluded.refused_at, set_by = excluded.set_by, set_at = excluded.set_at",
                guild_id, channel_id, set_by, float(now), float(now) if told else None)
            await self._write_owed(db, None, owed, float(now))

    async def clear_board(self, guild_id: int) -> bool:
        return await self._auto.execute("DELETE FROM boards WHERE guild_id = $1", guild_id) > 0

    async def owe_board(self, guild_id: int, digest: str, *, channel_id: int, set_at: float,
                        now: float, owed: Owed) -> bool:
        async with self._tx() as db:
            changed = await db.execute(
                "UPDATE boards SET digest = $2, owed_at = $3 WHERE guild_id = $1 "
                "AND set_at = $4 AND channel_id = $6 AND NOT EXISTS (SELECT 1 FROM outbox o "
                "WHERE o.kind = $5 AND o.sent_at IS NULL AND o.lane = 'c' || CAST($6 AS TEXT))",
                guild_id, digest, float(now), float(set_at), BOARD_KIND, channel_id)
            if changed:
                await self._write_owed(db, None, owed, float(now))
            return bool(changed)

    async def tick_board(self, guild_id: int, *, set_at: float, now: float, min_gap: float,
                         owed: Owed) -> bool:
        async with self._tx() as db:
            changed = await db.execute(
                "UPDATE boards SET ticked_at = $3 WHERE guild_id = $1 AND set_at = $2 "
                "AND (ticked_at IS NULL OR ticked_at <= $4)",
                guild_id, float(set_at), float(now), float(now) - float(min_gap))
            if changed:
                await self._write_owed(db, None, owed, float(now))
            return bool(changed)

    async def set_board_message(self, guild_id: int, channel_id: int,
                                message_id: int | None) -> bool:
        return await self._auto.execute(
            "UPDATE boards SET message_id = $3 WHERE guild_id = $1 AND channel_id = $2",
            guild_id, channel_id, message_id) > 0

    async def board_refused(self, guild_id: int, now: float) -> bool:
        return await self._auto.execute(
            "UPDATE boards SET refused_at = $2 WHERE guild_id = $1 AND refused_at IS NULL",
            guild_id, float(now)) > 0

    async def board_works(self, guild_id: int) -> None:
        await self._auto.execute(
            "UPDATE boards SET refused_at = NULL WHERE guild_id = $1 AND refused_at IS NOT NULL",
            guild_id)
