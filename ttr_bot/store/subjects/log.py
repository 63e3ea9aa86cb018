"""A game's action log and snapshot: appending a move is the one write of play.

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/log.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Protocol

from ..models import (
    ActionRecord,
    Owed,
    RatingUpdate,
    SeatResult,
    Snapshot,
)


class GameLog(Protocol):
    @abstractmethod
    async def append_action(
        self, game_id: int, expected_seq: int, actor: int | None, action_json: str,
        state_json: str, now: float | None = None, *, results: Sequence[SeatResult] | None = None,
        ratings: RatingUpdate | None = None,
        seat_timeouts: Mapping[int, int] | None = None, end_reason: str | None = None,
        owed: Owed | None = None,
    ) -> int:
        """Record one applied action, in one transaction: check the game is active and at
        `expected_seq` (else WrongStatus / StaleSequence and nothing is written), append the
        action as seq expected_seq + 1, replace the snapshot with `state_json`, bump the game's
        seq. With `results`, the game is also finished (with `end_reason`), its results recorded
        and its timers deleted, in the same transaction, and with `ratings` the game is rated
        there too (see `record_results`). `seat_timeouts` sets seats' counts of turns that ran
        out of time ({seat number: count}). Returns the new seq. `action_json` must be a JSON
        object with a "type"."""

    @abstractmethod
    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        """The whole log in order, validated: each row a JSON object with a "type", seqs 1..N
        without gaps, N equal to the game's seq. Anything else raises CorruptLog."""

    @abstractmethod
    async def last_acted_at(self, game_id: int, not_by: int) -> float | None:
        """When a seat other than `not_by` last acted itself (an action with an actor other than
        `not_by`; the bot's own, with none, do not count); None if none did."""

    @abstractmethod
    async def load_snapshot(self, game_id: int) -> Snapshot | None:
        """The latest state; None before the game started. CorruptSnapshot if it is unreadable
        or does not match the game's seq."""
