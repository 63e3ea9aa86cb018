"""A game's row: created in the lobby, found by channel or server, its status, host and lock.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/games.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from ..models import (
    Game,
    GameVersion,
    Owed,
)
from ..shards import Shards


class GameStore(Protocol):
    @abstractmethod
    async def create_game(
        self, *, guild_id: int | None, channel_id: int, map: str, variant: str,
        options: Mapping[str, Any], seed: int, host_id: int, now: float | None = None,
        host_name: str | None = None, owed: Owed | None = None,
    ) -> int:
        """Create a game in the lobby; return its id. ChannelBusy if the channel has an open game.
        `seed` must fit in a signed 64-bit integer. With `host_name`, the host also takes seat 0
        in the same transaction (a lobby is never left without its host)."""

    @abstractmethod
    async def get_game(self, game_id: int) -> Game | None: ...

    @abstractmethod
    async def find_open_game(self, channel_id: int) -> Game | None:
        """The channel's game in the lobby or in play, if any."""

    @abstractmethod
    async def lobbies_in_guild(self, guild_id: int) -> list[Game]:
        """The server's games still in the lobby (not started yet), oldest first: what the
        lobby caps count (a member's, the server's)."""

    @abstractmethod
    async def list_active_game_ids(
        self, *, include_lobbies: bool = False, shards: Shards | None = None,
    ) -> list[int]:
        """Ids of games in play (and lobbies if asked), oldest first: what to resume at startup.
        With `shards`, only games of guilds on those shards."""

    @abstractmethod
    def lock_game(self, game_id: int) -> AbstractAsyncContextManager[GameVersion | None]:
        """`async with store.lock_game(id) as version:` hold the game's database lock for the
        body, where one exists (PostgreSQL: an advisory lock held by a connection of its own,
        released at the end or when the process dies), so that two processes never change one
        game at once; SQLite has no such lock (its writes serialise on the file, and the seq
        check of `append_action` refuses a stale action). `version` is the game's stored
        (seq, status), read after the lock was taken, or None if there is no such game: what
        a process's cached copy is checked against."""

    @abstractmethod
    async def set_status(
        self, game_id: int, status: str, now: float | None = None, *, reason: str | None = None,
        owed: Owed | None = None,
    ) -> None:
        """Move a game along lobby -> active -> finished, or to cancelled from lobby/active.
        Any other move raises WrongStatus; NotFound if there is no such game. Prefer
        `start_game` (writes the first snapshot too) and `record_results` (writes the results).
        `reason` is kept as the game's end_reason. Closing a game deletes its timers."""

    @abstractmethod
    async def start_game(
        self, game_id: int, state_json: str, now: float | None = None, *,
        owed: Owed | None = None,
    ) -> None:
        """lobby -> active, and store the initial state as the snapshot at seq 0, atomically."""

    @abstractmethod
    async def games_of_user(self, user_id: int, guild_id: int | None) -> list[Game]:
        """The open games (lobby or active) of the guild where the user holds a seat, oldest
        first."""

    @abstractmethod
    async def open_games_in_guild(self, guild_id: int) -> list[int]:
        """Ids of the server's games in the lobby or in play, oldest first."""
