"""The outbox: what the bot owes players, by lane, leased, retried, sent or given up.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/outbox.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Sequence
from typing import Protocol

from ..models import (
    LaneBlock,
    OutboxRow,
    Owed,
)
from ..shards import Shards


class OutboxStore(Protocol):
    # several processes share this outbox (PostgreSQL): a sender leases rows before sending
    shared: bool

    @abstractmethod
    async def write_owed(
        self, owed: Owed, game_id: int | None = None, now: float | None = None,
    ) -> None:
        """Write outbox rows and timers on their own (what a timer's firing owes)."""

    @abstractmethod
    async def pending_outbox(
        self, limit: int = 500, *, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        """Rows not sent yet, oldest first; with `shards`, only those of games of guilds on
        those shards (rows without a game: shard 0's)."""

    @abstractmethod
    async def deliverable_outbox(
        self, now: float, *, lanes: int = 200, per_lane: int = 20, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        """What the delivery worker may look at now: the first `per_lane` owed rows of each
        destination (lane) that is not refused until later (`refuse_lane`), at most `lanes`
        destinations, the one whose first row is due soonest first, each lane's rows together
        and in id order. However many rows one destination owes, the others' come too."""

    @abstractmethod
    async def owed_in_lane(self, lane: str) -> list[OutboxRow]:
        """Every owed row of one destination, in id order (a catch-up after a long block)."""

    @abstractmethod
    async def last_owed_at(self, game_id: int, key_prefix: str) -> float | None:
        """When the game's newest row whose key starts with `key_prefix` was written (owed),
        sent or not; None if there is none (kept as long as sent rows are)."""

    @abstractmethod
    async def refuse_lane(
        self, lane: str, now: float, retry_at: float, *, guild_id: int | None = None,
        code: int | None = None,
    ) -> LaneBlock:
        """Discord refused this destination: its rows wait until `retry_at`. The first refusal
        starts the block (refused_since = now, attempts 1); later ones count an attempt."""

    @abstractmethod
    async def lane_blocks(self, *, shards: Shards | None = None) -> list[LaneBlock]:
        """The refused destinations (of these shards' guilds; none: shard 0's)."""

    @abstractmethod
    async def clear_lane_block(self, lane: str) -> LaneBlock | None:
        """A post went through (or the destination was given up): the block ends; it as it
        was, or None if there was none."""

    @abstractmethod
    async def retry_lanes_at(self, lanes: Sequence[str], at: float) -> int:
        """Refused destinations to try again at `at` (a permission may be back); how many."""

    @abstractmethod
    async def claim_outbox(
        self, ids: Sequence[int], owner: str, now: float, lease: float = 60.0,
    ) -> bool:
        """Lease these owed rows to `owner` until now + lease, all or none: False (and nothing
        changed) if another owner holds a lease on one of them that has not run out, or one
        of them is no longer owed (sent or given up meanwhile, by another process: the caller
        read it before that and must read again, not send it twice). Sending, retrying or
        giving up a row ends its lease."""

    @abstractmethod
    async def release_outbox(self, owner: str) -> int:
        """End every lease `owner` holds on owed rows (it stops); returns how many."""

    @abstractmethod
    async def mark_outbox_sent(
        self, ids: Sequence[int], now: float | None = None, error: str | None = None,
    ) -> int:
        """Mark rows delivered (or, with `error`, given up); returns how many were owed."""

    @abstractmethod
    async def retry_outbox(self, row_id: int, due_at: float) -> int | None:
        """Count a failed attempt and try again at `due_at`; the attempts so far, or None."""

    @abstractmethod
    async def fail_outbox_lane(self, lane: str, error: str, now: float | None = None) -> int:
        """Give up every owed row of a lane (its channel is gone, or refused for too long), and
        end its block; returns how many rows."""

    @abstractmethod
    async def purge_outbox(self, before: float) -> int:
        """Delete rows sent (or given up) before `before`, and the blocks of destinations that
        owe nothing any more; returns how many rows."""
