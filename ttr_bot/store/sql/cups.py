"""The cups subject (subjects/cups.py) in SQL, written once for both drivers like the rest of
`SqlStore` (PostgreSQL's dialect, `$n` parameters; the SQLite driver rewrites each text), over
sql/base.py's connection protocol (`_tx`, `_auto`) and `_write_owed`."""
import json
from collections.abc import Callable
from typing import Any

from ..models import Owed, Timer
from ..rows import TIMER_COLUMNS, timer_record
from ..subjects.cups import OPEN_CUP, CupRow
from .base import SqlBase

_CUP = ("id, guild_id, channel_id, message_id, created_by, name, status, version, state, "
        "created_at, updated_at")


def _dump(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def _row(r: Any) -> CupRow:
    return CupRow(int(r[0]), int(r[1]), int(r[2]), r[3], int(r[4]), str(r[5]), str(r[6]),
                  int(r[7]), json.loads(r[8]), float(r[9]), float(r[10]))


class CupSql(SqlBase):

    async def create_cup(self, *, guild_id: int, channel_id: int, created_by: int, name: str,
                         state: dict[str, Any], now: float,
                         owed_for: Callable[[int], Owed]) -> int:
        async with self._tx() as db:
            cup_id = await db.fetchval(
                "INSERT INTO cups (guild_id, channel_id, created_by, name, status, version, "
                "state, created_at, updated_at) VALUES ($1, $2, $3, $4, 'signup', 0, $5, $6, $6) "
                "RETURNING id", guild_id, channel_id, created_by, name, _dump(state), float(now))
            await self._write_owed(db, None, owed_for(int(cup_id)), float(now))
            return int(cup_id)

    async def get_cup(self, cup_id: int) -> CupRow | None:
        row = await self._auto.fetchrow(f"SELECT {_CUP} FROM cups WHERE id = $1", cup_id)
        return _row(row) if row else None

    async def save_cup(self, cup_id: int, version: int, *, status: str, state: dict[str, Any],
                       now: float, owed: Owed | None = None) -> bool:
        async with self._tx() as db:
            done = await db.execute(
                "UPDATE cups SET status = $3, state = $4, version = version + 1, "
                "updated_at = $5 WHERE id = $1 AND version = $2",
                cup_id, version, status, _dump(state), float(now))
            if not done:
                return False
            await self._write_owed(db, None, owed, float(now))
            return True

    async def cups_in_guild(self, guild_id: int, *, open_only: bool = True) -> list[CupRow]:
        rows = await self._auto.fetch(
            f"SELECT {_CUP} FROM cups WHERE guild_id = $1 AND (NOT $2::boolean OR status IN "
            f"('{OPEN_CUP[0]}', '{OPEN_CUP[1]}')) ORDER BY id DESC", guild_id, open_only)
        return [_row(r) for r in rows]

    async def open_cups(self) -> list[CupRow]:
        rows = await self._auto.fetch(
            f"SELECT {_CUP} FROM cups WHERE status IN ('{OPEN_CUP[0]}', '{OPEN_CUP[1]}') "
            "ORDER BY id")
        return [_row(r) for r in rows]

    async def set_cup_message(self, cup_id: int, message_id: int | None) -> None:
        await self._auto.execute("UPDATE cups SET message_id = $2 WHERE id = $1",
                                 cup_id, message_id)

    async def cup_timers(self) -> list[Timer]:
        rows = await self._auto.fetch(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id IS NULL AND kind LIKE 'cup%' "
            "ORDER BY due_at, id")
        return [timer_record(r) for r in rows]

    async def get_cup_role(self, guild_id: int) -> int | None:
        role = await self._auto.fetchval(
            "SELECT cup_role FROM guild_settings WHERE guild_id = $1", guild_id)
        return None if role is None else int(role)

    async def set_cup_role(self, guild_id: int, role_id: int | None, *, now: float) -> None:
        await self._auto.execute(
            "INSERT INTO guild_settings (guild_id, cup_role, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id) DO UPDATE SET cup_role = excluded.cup_role, "
            "updated_at = excluded.updated_at", guild_id, role_id, float(now))
