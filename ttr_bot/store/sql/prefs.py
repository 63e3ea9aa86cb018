"""A user's and a server's preferences: language, palette, DMs, notifications.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Mapping
from typing import Any

from ..models import UserPrefs
from ..rows import USER_COLUMNS, dump, now_or_clock, user_record
from .base import SqlBase


class PrefsSql(SqlBase):
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
