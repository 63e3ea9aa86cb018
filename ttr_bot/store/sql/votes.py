"""Votes in a game (/ttr vote) and their ballots.

Part of `SqlStore` (sql/__init__.py): PostgreSQL's dialect, `$n` parameters; the SQLite driver
rewrites each text."""
import json
from collections.abc import Callable, Mapping, Sequence

from ..errors import NotFound, VoteOpen
from ..models import Owed, Vote
from ..rows import VOTE_COLUMNS, dump, dump_list, now_or_clock, vote_record
from .base import SqlBase


class VotesSql(SqlBase):
    async def open_vote(
        self, game_id: int, *, kind: str, target_seat: int | None, proposer: int,
        voters: Sequence[int], ballots: Mapping[int, bool], expires_at: float,
        now: float | None = None, owed: Callable[[int], Owed] | None = None,
    ) -> Vote:
        now = now_or_clock(now)
        async with self._tx() as db:
            try:
                row = await db.fetchrow(
                    "INSERT INTO votes (game_id, kind, target_seat, proposer, voters, ballots, "
                    "created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                    f"RETURNING {VOTE_COLUMNS}",
                    game_id, kind, target_seat, proposer, dump_list(voters),
                    dump({str(k): v for k, v in ballots.items()}), now, float(expires_at),
                )
            except self.IntegrityError as exc:
                violation = self._violation(exc)
                if violation == "unique":
                    raise VoteOpen(f"game {game_id} has an open vote") from exc
                if violation == "foreign_key":
                    raise NotFound(f"no game {game_id}") from exc
                raise
            if owed is not None:
                await self._write_owed(db, game_id, owed(row[0]), now)
        return vote_record(row)

    async def get_vote(self, vote_id: int) -> Vote | None:
        row = await self._auto.fetchrow(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1", vote_id)
        return vote_record(row) if row else None

    async def open_vote_of(self, game_id: int) -> Vote | None:
        row = await self._auto.fetchrow(
            f"SELECT {VOTE_COLUMNS} FROM votes WHERE game_id = $1 AND status = 'open'", game_id)
        return vote_record(row) if row else None

    async def cast_ballot(self, vote_id: int, user_id: int, yes: bool) -> Vote | None:
        async with self._tx() as db:
            row = await db.fetchrow(
                "SELECT ballots FROM votes WHERE id = $1 AND status = 'open' FOR UPDATE", vote_id)
            if row is not None:
                ballots = json.loads(row[0])
                ballots[str(int(user_id))] = bool(yes)
                await db.execute("UPDATE votes SET ballots = $1 WHERE id = $2",
                                 dump(ballots), vote_id)
            row = await db.fetchrow(f"SELECT {VOTE_COLUMNS} FROM votes WHERE id = $1", vote_id)
        return vote_record(row) if row else None

    async def close_vote(
        self, vote_id: int, status: str, now: float | None = None, *, owed: Owed | None = None,
    ) -> bool:
        now = now_or_clock(now)
        async with self._tx() as db:
            game_id = await db.fetchval(
                "UPDATE votes SET status = $1, closed_at = $2 WHERE id = $3 AND status = 'open' "
                "RETURNING game_id", status, now, vote_id,
            )
            if game_id is None:
                return False
            await self._write_owed(db, game_id, owed, now)
            return True

    async def purge_votes(self, before: float) -> int:
        return await self._auto.execute(
            "DELETE FROM votes WHERE status != 'open' AND closed_at IS NOT NULL "
            "AND closed_at < $1", float(before))
