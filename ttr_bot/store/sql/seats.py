"""A game's seats: joining, leaving, a seat handed to a computer player and back.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Mapping
from typing import Any

from ..base import UNSET
from ..errors import NotFound, SeatIsBot, SeatTaken
from ..models import Owed, Seat
from ..rows import SEAT_COLUMNS, dump, now_or_clock, seat_record
from .base import _SEAT, Conn, SqlBase, _require_status


class SeatsSql(SqlBase):
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
            return await _free_lobby_seat(db, game_id, seat)

    async def leave_lobby(
        self, game_id: int, seat: int, *, host_id: int | None = None,
        owed: Owed | None = None, now: float | None = None,
    ) -> bool:
        now = now_or_clock(now)
        async with self._tx() as db:
            freed = await _free_lobby_seat(db, game_id, seat)
            if host_id is not None:
                await db.execute("UPDATE games SET host_id = $1, updated_at = $2 WHERE id = $3",
                                 host_id, now, game_id)
            await self._write_owed(db, game_id, owed, now)
        return freed

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


async def _free_lobby_seat(db: Conn, game_id: int, seat: int) -> bool:
    """Free a seat of a game still in its lobby (WrongStatus otherwise); False if it was empty."""
    await _require_status(db, game_id, ("lobby",))
    return await db.execute(
        "DELETE FROM seats WHERE game_id = $1 AND seat = $2", game_id, seat) > 0
