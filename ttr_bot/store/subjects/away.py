"""A player's away periods (/ttr me away).

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/away.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from typing import Protocol

from ..models import (
    Away,
    Owed,
)


class AwayStore(Protocol):
    @abstractmethod
    async def set_away(
        self, user_id: int, guild_id: int, since: float, until: float, *,
        owed: Owed | None = None, forget_before: float | None = None,
    ) -> None:
        """The user is away in that guild from `since` to `until`, replacing an earlier one
        (whose time taken so far goes into the log `away_taken` reads; log entries ended
        before `forget_before` are deleted)."""

    @abstractmethod
    async def clear_away(
        self, user_id: int, guild_id: int, *, owed: Owed | None = None,
        now: float | None = None,
    ) -> Away | None:
        """End the user's away period in that guild (its time taken, up to `now`, into the
        log); the one ended, or None. `owed` is written as of `now` (the service's clock)."""

    @abstractmethod
    async def get_away(self, user_id: int, guild_id: int) -> Away | None: ...

    @abstractmethod
    async def away_taken(self, user_id: int, guild_id: int,
                         after: float) -> list[tuple[float, float]]:
        """The (since, until) of the user's ended or replaced away periods in that guild
        that ended after `after`, as far as they were taken."""
