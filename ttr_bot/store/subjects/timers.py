"""Timers: what the service must do at a time (a deadline, a computer player's move...).

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/timers.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Protocol

from ..models import (
    Timer,
)
from ..shards import Shards


class TimerStore(Protocol):
    @abstractmethod
    async def add_timer(
        self, kind: str, due_at: float, payload: Mapping[str, Any] | None = None,
        game_id: int | None = None, now: float | None = None,
    ) -> int:
        """Persist a timer; return its id. The service's Scheduler.schedule also wakes its runner."""

    @abstractmethod
    async def delete_timer(self, timer_id: int) -> bool: ...

    @abstractmethod
    async def list_timers(self, game_id: int, kind: str | None = None) -> list[Timer]:
        """A game's timers (of one kind, or all), in due order."""

    @abstractmethod
    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        """Delete a game's timers (of one kind, or all); return how many."""

    @abstractmethod
    async def retry_timer(self, timer_id: int, due_at: float) -> int | None:
        """Count a failed attempt and move the timer to `due_at` (ending its lease); return the
        attempts so far, or None if the timer is gone."""

    @abstractmethod
    async def next_due(self) -> Timer | None:
        """The earliest timer (ties: oldest id), or None."""

    @abstractmethod
    async def due_timers(
        self, now: float, limit: int | None = None, *, shards: Shards | None = None,
    ) -> list[Timer]:
        """Timers with due_at <= now, earliest first (the first `limit`); with `shards`, only
        those of games of guilds on those shards (timers without a game: shard 0's)."""

    @abstractmethod
    async def claim_timers(
        self, now: float, owner: str, *, limit: int | None = None, lease: float = 60.0,
        shards: Shards | None = None,
    ) -> list[Timer]:
        """Due timers (as `due_timers`) that nobody holds a live lease on, leased to `owner`
        until now + lease in one transaction, earliest first: of several processes claiming at
        once, each timer goes to one (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: the write
        lock). Deleting or retrying a timer ends its lease; a dead owner's lease runs out."""

    @abstractmethod
    async def next_claim_at(self, now: float, *, shards: Shards | None = None) -> float | None:
        """When the soonest timer (of these shards) can be claimed: its due time, or the end of
        a live lease on it if later; None if there is none."""

    @abstractmethod
    async def release_timers(self, owner: str) -> int:
        """End every lease `owner` holds on timers (it stops); returns how many."""
