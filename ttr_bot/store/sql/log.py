"""The action log and the snapshot: appending a move (and, when it ends the game, its results) in
one transaction.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
from collections.abc import Mapping, Sequence

from ..errors import CorruptSnapshot, NotFound, StoreError
from ..models import ActionRecord, Owed, RatingUpdate, SeatResult, Snapshot
from ..rows import check_json_object, now_or_clock
from ..validation import check_actions, check_snapshot, parse_action
from .base import _put_snapshot, _refuse_append
from .finish import FinishSql


class LogSql(FinishSql):
    async def append_action(
        self, game_id: int, expected_seq: int, actor: int | None, action_json: str,
        state_json: str, now: float | None = None, *, results: Sequence[SeatResult] | None = None,
        ratings: RatingUpdate | None = None,
        seat_timeouts: Mapping[int, int] | None = None, end_reason: str | None = None,
        owed: Owed | None = None,
    ) -> int:
        try:
            parse_action(action_json)
        except ValueError as exc:
            raise ValueError(f"action_json: {exc}") from None
        check_json_object(state_json, "state_json")
        now = now_or_clock(now)
        if self.APPEND_ALONE and results is None and not owed and not seat_timeouts:
            # the common case in one statement, so one round trip and its own transaction: the
            # UPDATE is the check and the lock (of concurrent appends at one seq the first
            # updates the row, the others wait for its commit, then match nothing and write
            # nothing), the inserts take the seq it returns
            try:
                row = await self._auto.fetchrow(self.APPEND_ALONE, game_id, expected_seq, now,
                                                actor, action_json, state_json)
            except self.IntegrityError as exc:
                if self._violation(exc) != "unique":
                    raise
                raise StoreError(f"game {game_id}: action {expected_seq + 1} already "
                                 "stored") from exc   # a row beyond games.seq: damage
            if row is not None:
                return row[0]
            _refuse_append(game_id, expected_seq, await self._auto.fetchrow(
                "SELECT status, seq FROM games WHERE id = $1", game_id))
        async with self._tx() as db:
            # the UPDATE is the seq check: of appends at one seq exactly one matches the row
            new_seq = await db.fetchval(
                "UPDATE games SET seq = seq + 1, updated_at = $3 "
                "WHERE id = $1 AND seq = $2 AND status = 'active' RETURNING seq",
                game_id, expected_seq, now,
            )
            if new_seq is None:
                _refuse_append(game_id, expected_seq, await db.fetchrow(
                    "SELECT status, seq FROM games WHERE id = $1", game_id))
            try:
                await db.execute(
                    "INSERT INTO actions (game_id, seq, actor, action, created_at) "
                    "VALUES ($1, $2, $3, $4, $5)", game_id, new_seq, actor, action_json, now,
                )
            except self.IntegrityError as exc:
                if self._violation(exc) != "unique":
                    raise
                raise StoreError(f"game {game_id}: action {new_seq} already stored") from exc
            await _put_snapshot(db, game_id, new_seq, state_json, now)
            if seat_timeouts:
                await db.executemany(
                    "UPDATE seats SET timeouts = $1 WHERE game_id = $2 AND seat = $3",
                    [(count, game_id, number) for number, count in seat_timeouts.items()])
            if results is not None:
                await self._finish(db, game_id, results, now, ratings=ratings,
                                   end_reason=end_reason)
            await self._write_owed(db, game_id, owed, now)
            return new_seq

    async def last_acted_at(self, game_id: int, not_by: int) -> float | None:
        value = await self._auto.fetchval(
            "SELECT created_at FROM actions WHERE game_id = $1 AND actor IS NOT NULL "
            "AND actor != $2 ORDER BY seq DESC LIMIT 1", game_id, not_by)
        return float(value) if value is not None else None

    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        # one statement, so one snapshot of the data: the log and the seq it must reach
        rows = await self._auto.fetch(
            "SELECT g.seq, a.seq, a.actor, a.action, a.created_at FROM games g "
            "LEFT JOIN actions a ON a.game_id = g.id WHERE g.id = $1 ORDER BY a.seq", game_id,
        )
        if not rows:
            raise NotFound(f"no game {game_id}")
        logged = [tuple(row)[1:] for row in rows if row[1] is not None]
        return check_actions(game_id, logged, rows[0][0])

    async def load_snapshot(self, game_id: int) -> Snapshot | None:
        row = await self._auto.fetchrow(
            "SELECT g.seq, s.game_id, s.seq, s.state, s.updated_at FROM games g "
            "LEFT JOIN snapshots s ON s.game_id = g.id WHERE g.id = $1", game_id,
        )
        if row is None:
            raise NotFound(f"no game {game_id}")
        game_seq, stored, seq, state, updated_at = row
        if stored is None:
            if game_seq == 0:
                return None
            raise CorruptSnapshot(game_id, game_seq, "missing")
        return check_snapshot(game_id, seq, state, updated_at, game_seq)
