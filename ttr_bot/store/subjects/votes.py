"""Votes in a game (/ttr vote) and their ballots.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/votes.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from ..models import (
    Owed,
    Vote,
)


class VoteStore(Protocol):
    @abstractmethod
    async def open_vote(
        self, game_id: int, *, kind: str, target_seat: int | None, proposer: int,
        voters: Sequence[int], ballots: Mapping[int, bool], expires_at: float,
        now: float | None = None, owed: Callable[[int], Owed] | None = None,
    ) -> Vote:
        """Open a vote; VoteOpen if the game has one open already. `owed(vote_id)`: what
        opening it owes, written in its transaction (the caller's function of the new vote's
        id, which its messages and timers name)."""

    @abstractmethod
    async def get_vote(self, vote_id: int) -> Vote | None: ...

    @abstractmethod
    async def open_vote_of(self, game_id: int) -> Vote | None:
        """The game's open vote, if any."""

    @abstractmethod
    async def cast_ballot(self, vote_id: int, user_id: int, yes: bool) -> Vote | None:
        """Record (or change) a ballot of an open vote; the vote as it is now (unchanged if it
        is closed), None if there is no such vote."""

    @abstractmethod
    async def close_vote(
        self, vote_id: int, status: str, now: float | None = None, *, owed: Owed | None = None,
    ) -> bool:
        """Close an open vote with `status`; False (and nothing written) if it was not open."""

    @abstractmethod
    async def purge_votes(self, before: float) -> int:
        """Delete votes closed before `before`; returns how many."""
