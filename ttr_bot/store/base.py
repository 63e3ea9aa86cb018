"""The storage interface the service is written against.

`Store` is every subject of the store (subjects/: the games, their seats, the action log,
results and ratings, preferences, away periods, votes, the outbox, timers, the bot's messages;
and the optional subjects seasons, the live board and cups), each a small protocol a service
part can be given alone (it then sees only its own operations). The service only ever sees
these protocols, the records in `models.py` and the errors in `errors.py`; `sql/` implements
them once, one module per subject, on the drivers `sqlite.py` and `postgres.py`;
`open_store()` (factory.py) picks one.

Contract every driver keeps:
- a method that returns has made its change durable (committed, synced to disk): the service
  reports an action done only after `append_action` returns;
- each method is one transaction: all of its changes, or none. A caller cancelled while a write
  is under way cannot tell which (the commit may have happened): reload before retrying, which
  `append_action`'s expected_seq makes safe;
- `now` (epoch seconds) is passed in by the caller; it defaults to the wall clock only for
  convenience, so tests and the service decide what time it is;
- JSON columns go in as Python mappings (or, for the action log and snapshot, as JSON text the
  engine produced) and come back decoded; the log's and the snapshot's text is stored as
  written, so an action's keys come back in the engine's order;
- ids, seeds and Discord snowflakes are signed 64-bit integers; times (epoch seconds, floats)
  come back equal to what was passed;
- loads validate: unreadable rows raise `CorruptData` subclasses, never get skipped;
- `owed` (an `Owed`: outbox rows and timers) is written in the same transaction as the change
  that owes it, so what the bot owes players is never lost nor recorded for a change that did
  not happen; outbox rows whose key was written before are skipped.
"""
from abc import ABC, abstractmethod

from .subjects.away import AwayStore
from .subjects.games import GameStore
from .subjects.log import GameLog
from .subjects.messages import MessageStore
from .subjects.outbox import OutboxStore
from .subjects.prefs import PrefStore
from .subjects.results import ResultStore
from .subjects.seats import UNSET, SeatStore
from .subjects.timers import TimerStore
from .subjects.votes import VoteStore

__all__ = ["UNSET", "Store"]


class Store(GameStore, SeatStore, GameLog, ResultStore, PrefStore, AwayStore, VoteStore,
            OutboxStore, TimerStore, MessageStore, ABC):
    """Every subject, and the store's lifetime."""

    # whether several processes may use this database at once (PostgreSQL): the service then
    # leases owed messages before sending them; one SQLite file serves one process
    shared = False
    # the schema version `open` brought the database to (None before it is open)
    schema_version: int | None = None

    # -- lifetime ------------------------------------------------------------------------------
    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date. Raises StoreError if the database is newer."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending work and disconnect. Safe to call twice."""

    async def __aenter__(self) -> "Store":
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
