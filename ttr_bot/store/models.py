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
    end_reason: str | None = None  # why it ended other than by play or /ttr cancel


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: int
    seat: int
    user_id: int | None  # None for a computer player
    display_name: str
    bot_level: int | None  # None for a human
    notify: dict[str, Any] = field(default_factory=dict)
    former_user_id: int | None = None  # the human who held it before a computer took over
    timeouts: int = 0  # consecutive turns that ran out of time
    handover: str | None = None  # why a computer plays a seat a human held

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
    notify: dict[str, Any] = field(default_factory=dict)  # /ttr notify: how, tz, quiet


@dataclass(frozen=True, slots=True)
class MessageRef:
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    updated_at: float


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """A message the bot owes, written in the transaction of the change that owes it. A row
    with the `key` of one already written is not written again (idempotent handlers)."""
    kind: str
    lane: str              # delivered in id order per lane: "c<channel>", "u<user>", ...
    payload: dict[str, Any] = field(default_factory=dict)
    key: str | None = None
    held: bool = False     # part of a turn not over yet: goes out with the row that ends it
    seq: int | None = None
    due_at: float | None = None   # None: now
    game_id: int | None = None    # None: the game of the change (if any)


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    game_id: int | None
    kind: str
    lane: str
    payload: dict[str, Any]
    key: str | None
    held: bool
    seq: int | None
    due_at: float
    created_at: float
    attempts: int
    sent_at: float | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class NewTimer:
    """A timer to add in the transaction of a change."""
    kind: str
    due_at: float
    payload: dict[str, Any] = field(default_factory=dict)
    game_id: int | None = None    # None: the game of the change (if any)


@dataclass(frozen=True, slots=True)
class Owed:
    """What a change owes besides itself, written in its transaction: messages, and timers
    (the game's timers of the kinds in `drop_timers` are deleted first)."""
    outbox: tuple[OutboxItem, ...] = ()
    timers: tuple[NewTimer, ...] = ()
    drop_timers: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.outbox or self.timers or self.drop_timers)

    def __add__(self, other: "Owed") -> "Owed":
        return Owed(self.outbox + other.outbox, self.timers + other.timers,
                    tuple(dict.fromkeys(self.drop_timers + other.drop_timers)))


@dataclass(frozen=True, slots=True)
class Away:
    user_id: int
    guild_id: int
    since: float
    until: float


@dataclass(frozen=True, slots=True)
class Vote:
    id: int
    game_id: int
    kind: str               # "replace" or "cancel"
    target_seat: int | None
    proposer: int
    voters: list[int]
    ballots: dict[int, bool]
    status: str             # "open", "passed", "failed", "expired", "void"
    created_at: float
    expires_at: float
    closed_at: float | None = None
