"""A server's cups (Swiss tournaments) as a store subject: the protocol of the operations the
cups part of the service needs (`CupStore`), implemented once in SQL (sql/cups.py, mixed into
`SqlStore`), and its record (`CupRow`).

A cup is one row whose `state` is one JSON document (its settings, players, rounds, tables and
results: the service's, service/cups.py, reads and writes it whole). Every change is written
with what it owes (outbox rows, timers) in one transaction, and only if the cup is still at the
`version` the writer read (`save_cup`): two writers never both win, and nothing is said of a
change that was not stored.
"""
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..models import Owed, RatingRecord, ResultRecord, Timer

CUP_STATUSES = ("signup", "running", "finished", "cancelled")
OPEN_CUP = ("signup", "running")


@dataclass(frozen=True, slots=True)
class CupRow:
    id: int
    guild_id: int
    channel_id: int            # where the cup's post is
    message_id: int | None     # the post, once sent
    created_by: int
    name: str
    status: str                # one of CUP_STATUSES
    version: int               # + 1 with every change
    state: dict[str, Any]
    created_at: float
    updated_at: float


@runtime_checkable
class CupStore(Protocol):
    async def create_cup(self, *, guild_id: int, channel_id: int, created_by: int, name: str,
                         state: dict[str, Any], now: float,
                         owed_for: Callable[[int], Owed]) -> int:
        """A new cup in sign-up; returns its id. `owed_for(id)` is what its creation owes (the
        post, the sign-up's timer), written in the same transaction."""

    async def get_cup(self, cup_id: int) -> CupRow | None: ...

    async def save_cup(self, cup_id: int, version: int, *, status: str, state: dict[str, Any],
                       now: float, owed: Owed | None = None) -> bool:
        """Write the cup's new state (version + 1) and what the change owes, unless it is no
        longer at `version`: then False, nothing written."""

    async def cups_in_guild(self, guild_id: int, *, open_only: bool = True) -> list[CupRow]:
        """The server's cups (open ones: in sign-up or running), newest first."""

    async def open_cups(self) -> list[CupRow]:
        """Every cup in sign-up or running (what start-up checks the timers of)."""

    async def set_cup_message(self, cup_id: int, message_id: int | None) -> None: ...

    async def get_ratings(self, scope: int, user_ids: Sequence[int]
                          ) -> dict[int, RatingRecord]: ...

    async def load_results(self, game_id: int) -> list[ResultRecord]: ...

    async def write_owed(self, owed: Owed, game_id: int | None = None,
                         now: float | None = None) -> None: ...

    async def cup_timers(self) -> list[Timer]:
        """The pending timers of every cup (kinds starting with `cup_`)."""

    async def get_cup_role(self, guild_id: int) -> int | None:
        """The role the server names for cups (its members create and cancel them)."""

    async def set_cup_role(self, guild_id: int, role_id: int | None, *, now: float) -> None:
        """Name that role (None: Manage Server only)."""


def cup_store(store: object) -> CupStore:
    """The store as the cups' subject (every SqlStore is one)."""
    if not isinstance(store, CupStore):
        raise TypeError(f"{type(store).__name__} keeps no cups")
    return store
