"""Finished games: their results, and the ratings and statistics read from them.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/results.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Sequence
from typing import Protocol

from ..models import (
    FinishedGame,
    LeaderboardRow,
    RatingChange,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    SeatResult,
)


class ResultStore(Protocol):
    @abstractmethod
    async def record_results(
        self, game_id: int, results: Sequence[SeatResult], now: float | None = None, *,
        ratings: RatingUpdate | None = None,
    ) -> None:
        """Store the final standings and mark the game finished, atomically. WrongStatus unless
        the game is active (so results are never recorded twice). The results copy the game's
        guild, map and variant. With `ratings` (and at least one user in it), the game is rated
        in the same transaction: the users' ratings in each scope are locked, `ratings.rate`
        is called with them, the new ratings stored (a rated game more for each), the change
        logged (`rating_changes`) and the game appended to the order of rated games
        (`rating_log`). A game is thus rated exactly once, when it finishes, and two games
        with a player in common that finish at the same time are rated one after the other."""

    @abstractmethod
    async def load_results(self, game_id: int) -> list[ResultRecord]: ...

    @abstractmethod
    async def results_in_guild(self, guild_id: int, user_id: int) -> list[ResultRecord]:
        """A user's finished games in one server, newest first: their seats' results and the
        seats they left to a computer player (user_id None, former_user_id the user)."""

    @abstractmethod
    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0,
    ) -> tuple[int, list[FinishedGame]]:
        """(how many, one page) of a server's finished games, newest first; with `user_id`,
        only the games that user played (or left)."""

    @abstractmethod
    async def get_ratings(self, scope: int, user_ids: Sequence[int]) -> dict[int, RatingRecord]:
        """The stored ratings of these users in the scope; users without one are missing."""

    @abstractmethod
    async def leaderboard(
        self, scope: int, *, min_games: int, limit: int = 10, offset: int = 0,
        map: str | None = None,
    ) -> tuple[int, list[LeaderboardRow]]:
        """(how many, one page) of the scope's players with at least `min_games` rated games,
        by value (highest first; ties by user id). With `map`, only those with a rated seat on
        that map (in that server, for a server's scope), with their count of such seats."""

    @abstractmethod
    async def rating_changes(self, game_id: int, scope: int) -> list[RatingChange]:
        """What rating the game changed in the scope, by user id."""

    @abstractmethod
    async def rating_log(self, scope: int) -> list[tuple[int, list[ResultRecord]]]:
        """Every game rated in the scope (in its server, for a server's scope), in the order it
        was rated, with its results: what recomputing the scope's ratings replays."""

    @abstractmethod
    async def results_for_user(
        self, user_id: int, limit: int | None = None, *, include_left: bool = False,
    ) -> list[ResultRecord]:
        """A user's finished games, newest first (for statistics). With `include_left`, also
        the games they left to a computer player (their record has user_id None and
        former_user_id the user: the computer's result is not theirs)."""
