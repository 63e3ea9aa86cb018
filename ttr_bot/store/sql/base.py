"""What every subject's SQL shares: the connection protocol (`Conn`), the driver's part
(`SqlBase`: one transaction, one statement alone, the kinds of integrity errors) and the helpers
used inside transactions (writing what a change owes; a game's status check)."""
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, NoReturn, Protocol

from ..errors import NotFound, StaleSequence, WrongStatus
from ..models import Owed
from ..rows import SEAT_COLUMNS, dump


class Conn(Protocol):
    """What the operations need of a driver's connection (PostgreSQL's dialect, `$n`)."""

    async def execute(self, sql: str, *args: Any) -> int: ...  # the rows touched
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
    async def fetch(self, sql: str, *args: Any) -> Sequence[Any]: ...
    async def fetchrow(self, sql: str, *args: Any) -> Any: ...
    async def fetchval(self, sql: str, *args: Any) -> Any: ...


_SEAT = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 AND seat = $2"
_MESSAGE_COLUMNS = "game_id, kind, channel_id, message_id, updated_at"


class SqlBase(ABC):
    IntegrityError: ClassVar[type[Exception]] = Exception
    # what seating a new game's host may raise on bad data (PostgreSQL: any server error)
    HostSeatError: ClassVar[type[Exception] | tuple[type[Exception], ...]] = Exception
    NO_LIMIT: ClassVar[int | None] = None
    APPEND_ALONE: ClassVar[str | None] = None

    # -- the driver's part (sqlite.py, postgres.py) ------------------------------------------------
    @abstractmethod
    def _tx(self, *, readonly: bool = False) -> AbstractAsyncContextManager[Conn]:
        """One transaction: a write's (which takes the locks its checks need) or a read's of
        several statements that must agree."""

    @property
    @abstractmethod
    def _auto(self) -> Conn:
        """Statements each in a transaction of its own."""

    @abstractmethod
    def _violation(self, exc: Exception) -> str:
        """'unique', 'foreign_key' or 'other': which kind of IntegrityError this is."""

    async def _lock_ratings(self, db: Conn, users: Sequence[int]) -> None:  # noqa: B027 (a hook)
        """Inside the finishing transaction, before the users' ratings are read."""

    def _limit(self, limit: int | None) -> int | None:
        return self.NO_LIMIT if limit is None else limit

    # -- helpers used inside transactions ------------------------------------------------------
    async def _write_owed(
        self, db: Conn, game_id: int | None, owed: Owed | None, now: float
    ) -> None:
        """The outbox rows and timers a change owes (see `Owed`)."""
        if not owed:
            return
        for kind in owed.drop_timers:
            await db.execute("DELETE FROM timers WHERE game_id = $1 AND kind = $2", game_id, kind)
        if owed.timers:
            await db.executemany(
                "INSERT INTO timers (game_id, kind, due_at, payload, created_at) "
                "VALUES ($1, $2, $3, $4, $5)",
                [(t.game_id if t.game_id is not None else game_id, t.kind, float(t.due_at),
                  dump(t.payload), now) for t in owed.timers],
            )
        if owed.outbox:
            await db.executemany(
                "INSERT INTO outbox (game_id, kind, lane, payload, key, held, seq, due_at, "
                "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (key) DO NOTHING",
                [(o.game_id if o.game_id is not None else game_id, o.kind, o.lane,
                  dump(o.payload), o.key, bool(o.held), o.seq,
                  float(now if o.due_at is None else o.due_at), now) for o in owed.outbox],
            )



async def _require_status(db: Conn, game_id: int, allowed: Sequence[str]) -> int:
    """Lock the game's row until the transaction ends (SQLite: the transaction holds the write
    lock already); NotFound / WrongStatus unless the game is in `allowed`. Returns its seq."""
    row = await db.fetchrow("SELECT status, seq FROM games WHERE id = $1 FOR UPDATE", game_id)
    if row is None:
        raise NotFound(f"no game {game_id}")
    status, seq = row
    if status not in allowed:
        raise WrongStatus(game_id, status, " or ".join(allowed) or "(nothing: final status)")
    return seq


async def _put_snapshot(db: Conn, game_id: int, seq: int, state_json: str, now: float) -> None:
    await db.execute(
        "INSERT INTO snapshots (game_id, seq, state, updated_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, "
        "updated_at = excluded.updated_at", game_id, seq, state_json, now,
    )


def _refuse_append(game_id: int, expected_seq: int, found: Any) -> NoReturn:
    """Why an append wrote nothing: no such game, not active, or not at expected_seq."""
    if found is None:
        raise NotFound(f"no game {game_id}")
    status, seq = found
    if status != "active":
        raise WrongStatus(game_id, status, "active")
    raise StaleSequence(game_id, expected_seq, seq)

