"""The plain values the store hands back and takes in.

Frozen dataclasses rather than database rows so the service never sees a driver's row type
and a PostgreSQL driver can return the very same objects. JSON columns arrive decoded.
"""
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

GAME_STATUSES = ("lobby", "active", "finished", "cancelled")
OPEN_STATUSES = ("lobby", "active")
GLOBAL_SCOPE = 0    # the scope of the ratings over every server; a server's own: its guild id


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
    handover: str | None = None        # why a computer plays a seat a human held: "left", ...
    human_turns: int | None = None     # turns the former player had finished by then

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
    """One seat's line in a finished game, as the service reports it. The fields after
    former_user_id are what statistics, ratings and history need; results stored before they
    existed have them as None."""
    seat: int                          # the seat's index in the game (0 = first to move)
    user_id: int | None
    score: int
    rank: int
    won: bool
    tickets_completed: int
    former_user_id: int | None = None  # a seat a computer took over: the human who left it
    name: str | None = None            # the seat's display name at the end
    tickets_failed: int | None = None
    longest_bonus: bool | None = None  # won the longest-path bonus; None: the map has none
    turns_human: int | None = None     # turns the seat's human player finished
    turns_total: int | None = None     # all the seat's turns, the computer's included
    handover: str | None = None        # why a computer took the seat over ("left", "replaced")
    rated: bool | None = None          # whether the seat's player entered the ratings


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultRecord(SeatResult):
    """One seat's line in a finished game, as stored for statistics: the service's SeatResult
    plus what the store copies from the game. A seat a computer took over has no user_id (the
    result is not the player's) and the player in former_user_id. Built with keywords."""
    game_id: int
    map: str
    variant: str
    finished_at: float
    guild_id: int | None = None


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
class GameVersion:
    """What a cached copy of a game is checked against (`Store.lock_game`)."""
    seq: int
    status: str


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    locale: str | None
    dms_closed: bool
    updated_at: float
    notify: dict[str, Any] = field(default_factory=dict)  # /ttr me notify: how, tz, quiet


@dataclass(frozen=True, slots=True)
class MessageRef:
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    updated_at: float


# -- ratings ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A player's stored rating in one scope (GLOBAL_SCOPE, or a guild id)."""
    scope: int
    user_id: int
    mu: float
    sigma: float
    value: float          # what the leaderboard sorts by, as the service computed it
    games: int            # rated games in this scope
    updated_at: float


@dataclass(frozen=True, slots=True)
class RatingValue:
    """A new rating, as the service's rating function returns it."""
    mu: float
    sigma: float
    value: float


@dataclass(frozen=True)
class RatingUpdate:
    """What a finishing game does to the ratings, applied in the transaction that finishes it
    (so exactly once, and never lost to another game finishing at the same time): for each
    scope, the store locks the `users`' ratings, reads them, calls `rate` with them (the users
    without a rating in that scope are missing from the mapping) and stores what it returns,
    which must be a RatingValue for every user. `rate` must be pure and quick: it runs while
    the ratings are locked, and may run again if the transaction is retried."""
    scopes: tuple[int, ...]
    users: tuple[int, ...]
    rate: Callable[[Mapping[int, RatingRecord]], Mapping[int, RatingValue]]


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after one rated game, in one scope (no rating before:
    the first rated game there)."""
    game_id: int
    scope: int
    user_id: int
    mu_before: float | None
    sigma_before: float | None
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    user_id: int
    mu: float
    sigma: float
    value: float
    games: int                   # rated games in the scope
    map_games: int | None = None  # rated games on the map asked for


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the history shows it: the game, its results in seat order (with the
    seats' names in `ResultRecord.name`), the bot's final post if it was remembered, and
    whether the game was rated."""
    game: Game
    results: tuple[ResultRecord, ...]
    final_post: MessageRef | None
    rated: bool


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
class LaneBlock:
    """A destination (outbox lane) Discord refuses: its rows wait until `retry_at`; the block
    began at `refused_since` and has been tried `attempts` times (Discord's error `code`)."""
    lane: str
    guild_id: int | None
    refused_since: float
    retry_at: float
    attempts: int
    code: int | None


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
