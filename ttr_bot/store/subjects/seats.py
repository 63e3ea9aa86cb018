"""A game's seats: joined, left, renamed, handed to a computer player and back.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/seats.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Protocol

from ..models import (
    Owed,
    Seat,
)


class _Unset:
    """Marks an `update_seat` argument the caller did not pass (None is a real value there)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class SeatStore(Protocol):
    @abstractmethod
    async def add_seat(
        self, game_id: int, seat: int, *, user_id: int | None, display_name: str,
        bot_level: int | None = None, notify: Mapping[str, Any] | None = None,
    ) -> Seat:
        """A human (user_id, no bot_level) or a bot (bot_level, no user_id) takes a seat.
        SeatTaken if the seat or the user is already in the game; NotFound if no such game."""

    @abstractmethod
    async def remove_seat(self, game_id: int, seat: int) -> bool:
        """Free a seat; False if it was empty. Seat numbers are not compacted."""

    @abstractmethod
    async def leave_lobby(
        self, game_id: int, seat: int, *, host_id: int | None = None,
        owed: Owed | None = None, now: float | None = None,
    ) -> bool:
        """A player leaves a game still in its lobby (they left the server): the seat is freed,
        `host_id` made the host when given (the host left), and `owed` written, in one
        transaction. False if the seat was empty; WrongStatus if the game left its lobby."""

    @abstractmethod
    async def list_seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""

    @abstractmethod
    async def update_seat(
        self, game_id: int, seat: int, *, user_id: int | None = UNSET,
        display_name: str = UNSET, bot_level: int | None = UNSET,
        notify: Mapping[str, Any] = UNSET,
    ) -> Seat:
        """Change only the fields passed (names, preferences; a computer taking over a seat in
        play goes through `hand_seat_to_bot`, which also remembers the former player).
        Returns the updated seat; NotFound if the seat is empty; SeatTaken on a duplicate user."""

    @abstractmethod
    async def hand_seat_to_bot(
        self, game_id: int, seat: int, *, bot_level: int, display_name: str,
        host_id: int | None = None, now: float | None = None, reason: str | None = None,
        human_turns: int | None = None, owed: Owed | None = None,
    ) -> Seat:
        """A computer player takes over a human's seat in a game in play, in one transaction:
        bot_level and display_name are set, user_id cleared and kept as former_user_id, with
        `reason` ("left", "replaced", "timeout", ...) kept as the seat's handover and the turns
        the player had finished (`human_turns`) beside it for the results; with `host_id`, that
        user also becomes the game's host. WrongStatus unless the game is active; NotFound if
        the seat is empty; SeatIsBot if a computer already plays it."""

    @abstractmethod
    async def return_seat(
        self, game_id: int, seat: int, *, user_id: int, display_name: str,
        now: float | None = None, owed: Owed | None = None,
    ) -> Seat:
        """The player a computer replaced after their time ran out takes their seat back:
        user_id set again, bot_level, former_user_id and handover cleared, timeouts 0.
        WrongStatus unless the game is active; NotFound unless the seat is a computer's that
        `user_id` held and lost to timeouts."""
