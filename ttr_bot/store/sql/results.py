"""Finished games' results and the ratings they moved.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Sequence

from ..models import (
    GLOBAL_SCOPE,
    FinishedGame,
    LeaderboardRow,
    MessageRef,
    RatingChange,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    SeatResult,
)
from ..rows import (
    CHANGE_COLUMNS,
    GAME_COLUMNS,
    RATING_COLUMNS,
    RESULT_COLUMNS,
    change_record,
    finished_records,
    game_record,
    leaderboard_row,
    now_or_clock,
    rating_record,
    result_record,
    results_by_game,
)
from .base import _MESSAGE_COLUMNS, _require_status
from .finish import FinishSql


class ResultsSql(FinishSql):
    async def record_results(
        self, game_id: int, results: Sequence[SeatResult], now: float | None = None, *,
        ratings: RatingUpdate | None = None,
    ) -> None:
        now = now_or_clock(now)
        async with self._tx() as db:
            await _require_status(db, game_id, ("active",))
            await self._finish(db, game_id, results, now, ratings=ratings)

    async def load_results(self, game_id: int) -> list[ResultRecord]:
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = $1 ORDER BY seat", game_id
        )
        return [result_record(row) for row in rows]

    async def results_for_user(
        self, user_id: int, limit: int | None = None, *, include_left: bool = False,
    ) -> list[ResultRecord]:
        where = "user_id = $1" if not include_left else "(user_id = $1 OR former_user_id = $1)"
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} "
            "ORDER BY finished_at DESC, game_id DESC LIMIT $2", user_id, self._limit(limit),
        )
        return [result_record(row) for row in rows]

    async def results_in_guild(self, guild_id: int, user_id: int) -> list[ResultRecord]:
        rows = await self._auto.fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = $1 AND user_id = $2 "
            f"UNION ALL SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = $1 AND "
            "former_user_id = $2 ORDER BY finished_at DESC, game_id DESC", guild_id, user_id,
        )
        return [result_record(row) for row in rows]

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0,
    ) -> tuple[int, list[FinishedGame]]:
        where, params = "guild_id = $1 AND status = 'finished'", [guild_id]
        if user_id is not None:
            where += (" AND id IN (SELECT game_id FROM results WHERE guild_id = $1 AND "
                      "user_id = $2 UNION SELECT game_id FROM results WHERE guild_id = $1 AND "
                      "former_user_id = $2)")
            params.append(user_id)
        n = len(params)
        results, posts, rated = [], [], set()
        async with self._tx(readonly=True) as db:
            total = await db.fetchval(f"SELECT COUNT(*) FROM games WHERE {where}", *params)
            games = [game_record(r) for r in await db.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE {where} "
                f"ORDER BY finished_at DESC, id DESC LIMIT ${n + 1} OFFSET ${n + 2}",
                *params, limit, offset)]
            ids = [g.id for g in games]
            if ids:
                results = [result_record(r) for r in await db.fetch(
                    f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ANY($1::bigint[]) "
                    "ORDER BY game_id, seat", ids)]
                posts = [MessageRef(*r) for r in await db.fetch(
                    f"SELECT {_MESSAGE_COLUMNS} FROM messages "
                    "WHERE kind = 'final' AND game_id = ANY($1::bigint[])", ids)]
                rated = {r[0] for r in await db.fetch(
                    "SELECT game_id FROM rated_games WHERE game_id = ANY($1::bigint[])", ids)}
        return total, finished_records(games, results, posts, rated)

    # -- ratings -------------------------------------------------------------------------------
    async def get_ratings(self, scope: int, user_ids: Sequence[int]) -> dict[int, RatingRecord]:
        users = list(dict.fromkeys(user_ids))
        if not users:
            return {}
        rows = await self._auto.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = $1 AND "
            "user_id = ANY($2::bigint[])", scope, users,
        )
        return {r.user_id: r for r in map(rating_record, rows)}

    async def leaderboard(
        self, scope: int, *, min_games: int, limit: int = 10, offset: int = 0,
        map: str | None = None,
    ) -> tuple[int, list[LeaderboardRow]]:
        if map is None:
            source, extra = "ratings r", "NULL::integer"
        else:
            where = "" if scope == GLOBAL_SCOPE else "guild_id = $1 AND "
            # a rated seat is its player's whether they played it to the end or left it
            source = ("ratings r JOIN (SELECT COALESCE(user_id, former_user_id) AS u, "
                      f"COUNT(*)::integer AS n FROM results WHERE {where}map = $3 AND rated "
                      "GROUP BY 1) m ON m.u = r.user_id")
            extra = "m.n"
        cond = "r.scope = $1 AND r.games >= $2"
        if map is None:
            cond += " AND $3::text IS NULL"   # every statement takes the same parameters
        count = f"SELECT COUNT(*) FROM {source} WHERE {cond}"
        async with self._tx(readonly=True) as db:
            if map is None:   # the index gives the page at once; the count is another scan
                total = await db.fetchval(count, scope, min_games, map)
                over = ""
            else:             # one aggregation for the page and its count
                over = ", COUNT(*) OVER ()"
            rows = await db.fetch(
                f"SELECT r.user_id, r.mu, r.sigma, r.value, r.games, {extra}{over} FROM {source} "
                f"WHERE {cond} ORDER BY r.value DESC, r.user_id LIMIT $4 OFFSET $5",
                scope, min_games, map, limit, offset)
            if map is not None:
                total = rows[0][-1] if rows else await db.fetchval(count, scope, min_games, map)
                rows = [tuple(r)[:-1] for r in rows]
        return total, [leaderboard_row(r) for r in rows]

    async def rating_changes(self, game_id: int, scope: int) -> list[RatingChange]:
        rows = await self._auto.fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1 AND scope = $2 "
            "ORDER BY user_id", game_id, scope,
        )
        return [change_record(r) for r in rows]

    async def rating_log(self, scope: int) -> list[tuple[int, list[ResultRecord]]]:
        columns = ", ".join("r." + c for c in RESULT_COLUMNS.split(", "))
        where, args = ("", ()) if scope == GLOBAL_SCOPE else ("WHERE r.guild_id = $1", (scope,))
        rows = await self._auto.fetch(
            f"SELECT {columns} FROM rated_games g JOIN results r ON r.game_id = g.game_id "
            f"{where} ORDER BY g.seq, r.seat", *args,
        )
        return results_by_game(result_record(r) for r in rows)
