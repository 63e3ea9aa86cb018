"""Finishing a game inside a transaction: its results recorded, its status and timers settled, its
players rated (the log's last append and `record_results` both end a game this way)."""
from collections.abc import Sequence

from ..errors import StoreError
from ..models import RatingUpdate, SeatResult
from ..rows import (
    CHANGE_COLUMNS,
    RATING_COLUMNS,
    RESULT_FIELDS,
    new_ratings,
    rated_users,
    rating_record,
    result_params,
)
from .base import Conn, SqlBase


class FinishSql(SqlBase):
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

