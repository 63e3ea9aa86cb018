"""The plain values the store hands back and takes in.

Frozen dataclasses rather than database rows so the service never sees a driver's row type
and a PostgreSQL driver can return the very same objects. JSON columns arrive decoded.
"""
from dataclasses import dataclass, field
from typing import Any

GAME_STATUSES = ("lobby", "active", "finished", "cancelled")
OPEN_STATUSES = ("lobby", "active")


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    guild_id: int | None
    channel_id: int
    map: str
    variant: str
    options: dict[str, Any]
    seed: int
    status: str
    host_id: int
    created_at: float
    updated_at: float
    finished_at: float | None
    seq: int  # number of actions applied so far


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: int
    seat: int
    user_id: int | None  # None for a computer player
    display_name: str
    bot_level: int | None  # None for a human
    notify: dict[str, Any] = field(default_factory=dict)
    former_user_id: int | None = None  # the human who held it before a computer took over

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    game_id: int
    seq: int
    actor: int | None  # seat index; None for actions the bot takes itself (timeouts)
    action: dict[str, Any]  # always has a "type"
    created_at: float


@dataclass(frozen=True, slots=True)
class Snapshot:
    game_id: int
    seq: int  # the action count this state reflects
    state: dict[str, Any]
    updated_at: float


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line in a finished game, as the service reports it."""
    seat: int
    user_id: int | None
    score: int
    rank: int
    won: bool
    tickets_completed: int
    former_user_id: int | None = None  # a seat a computer took over: the human who left it


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultRecord(SeatResult):
    """One seat's line in a finished game, as stored for statistics: the service's SeatResult
    plus what the store copies from the game. A seat a computer took over has no user_id (the
    result is not the player's) and the player in former_user_id. Built with keywords."""
    game_id: int
    map: str
    variant: str
    finished_at: float


@dataclass(frozen=True, slots=True)
class Timer:
    id: int
    game_id: int | None
    kind: str
    due_at: float
    payload: dict[str, Any]
    created_at: float
    attempts: int = 0  # handler failures so far


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    locale: str | None
    dms_closed: bool
    updated_at: float


@dataclass(frozen=True, slots=True)
class MessageRef:
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    updated_at: float
