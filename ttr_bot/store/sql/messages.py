"""The bot's own messages in a game (a turn card, the board) by kind.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""

from ..errors import NotFound
from ..models import MessageRef
from ..rows import now_or_clock
from .base import _MESSAGE_COLUMNS, SqlBase


class MessagesSql(SqlBase):
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
