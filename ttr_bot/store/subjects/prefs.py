"""What users and servers chose: language, palette, DMs closed, notifications.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/prefs.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Protocol

from ..models import (
    UserPrefs,
)


class PrefStore(Protocol):
    @abstractmethod
    async def get_user(self, user_id: int) -> UserPrefs | None: ...

    @abstractmethod
    async def get_locale(self, user_id: int) -> str | None: ...

    @abstractmethod
    async def set_locale(self, user_id: int, locale: str | None, now: float | None = None) -> None:
        """None clears the choice (back to the guild's or Discord's locale)."""

    @abstractmethod
    async def get_palette(self, user_id: int) -> str | None:
        """The user's colour palette for their own pictures (/ttr me colours), or None."""

    @abstractmethod
    async def set_palette(self, user_id: int, palette: str | None,
                          now: float | None = None) -> None:
        """None clears the choice (back to the standard colours)."""

    @abstractmethod
    async def get_guild_locale(self, guild_id: int) -> str | None:
        """The language a server's new games are played in (/ttr server language), or None."""

    @abstractmethod
    async def set_guild_locale(self, guild_id: int, locale: str | None,
                               now: float | None = None) -> None:
        """None clears the choice (back to the server's Discord locale)."""

    @abstractmethod
    async def get_dms_closed(self, user_id: int) -> bool:
        """Whether DMs to the user failed last time (False for unknown users)."""

    @abstractmethod
    async def set_dms_closed(self, user_id: int, closed: bool, now: float | None = None) -> None: ...

    @abstractmethod
    async def set_notify(
        self, user_id: int, notify: Mapping[str, Any], now: float | None = None,
    ) -> None:
        """The user's notification settings (/ttr me notify), replacing the previous ones."""
