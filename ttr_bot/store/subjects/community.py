"""A server's community around its games, as store subjects: seasons (how a server's seasons
run, which have been closed) and the live board (the one message per server edited in place).

Each subject is a small protocol of the operations its service part needs (`SeasonStore`,
`BoardStore`), implemented once in SQL (sql/community.py, mixed into `SqlStore`), with its own
records. A season's standings are not stored: they are read from `results` by finishing time
(`season_results`), so a game counts in exactly one season and nothing can drift.
"""
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..models import Owed, ResultRecord

PERIODS = ("monthly", "quarterly")


@dataclass(frozen=True, slots=True)
class SeasonSettings:
    """How a server's seasons run (no row: seasons are off)."""
    guild_id: int
    period: str             # "monthly" or "quarterly"
    channel_id: int         # where a season's end is posted
    role_id: int | None     # the champion's role, if the server named one
    set_by: int
    updated_at: float       # names the chain of season timers these settings started


@dataclass(frozen=True, slots=True)
class ClosedSeason:
    guild_id: int
    season: str             # "2026-12", "2026-Q4"
    champion_id: int | None
    closed_at: float
    started_at: float | None = None     # the finishing times it counted: [started_at,
    ended_at: float | None = None       # ended_at); None (closed before 0014): its calendar's


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A server's live board: where it is and what it last showed."""
    guild_id: int
    channel_id: int
    message_id: int | None  # None: post a new one
    digest: str | None      # the hash of the content last owed
    owed_at: float | None   # when that edit was owed
    ticked_at: float | None     # the chain's last tick
    refused_at: float | None    # a refusal reported to set_by at (None: none running)
    set_by: int
    set_at: float           # names the chain of board timers the latest setting started


@runtime_checkable
class SeasonStore(Protocol):
    async def get_guild_timezone(self, guild_id: int) -> str | None: ...

    async def set_guild_timezone(self, guild_id: int, zone: str | None, *, now: float,
                                 owed: Owed | None = None) -> None:
        """Set (None: clear) the server's time zone, with what the change owes."""

    async def get_season_settings(self, guild_id: int) -> SeasonSettings | None: ...

    async def set_season_settings(self, guild_id: int, period: str | None, *,
                                  channel_id: int, role_id: int | None, set_by: int,
                                  now: float, owed: Owed | None = None) -> None:
        """Seasons on (`period`) or off (None), with what the change owes (the first timer)."""

    async def season_results(self, guild_id: int, since: float,
                             until: float) -> list[ResultRecord]:
        """The rated seats of the server's games finished in [since, until), by game and seat."""

    async def close_season(self, guild_id: int, season: str, champion_id: int | None, *,
                           now: float, owed: Owed | None = None,
                           span: tuple[float, float] | None = None) -> bool:
        """Mark the season closed, with the span of finishing times it counted, and write what
        its end owes, once: False (and nothing written) if it was closed before."""

    async def closed_seasons(self, guild_id: int, limit: int = 12) -> list[ClosedSeason]:
        """The latest closed seasons first."""

    async def write_owed(self, owed: Owed, game_id: int | None = None,
                         now: float | None = None) -> None: ...


@runtime_checkable
class BoardStore(Protocol):
    async def get_board(self, guild_id: int) -> BoardRow | None: ...

    async def set_board(self, guild_id: int, channel_id: int, *, set_by: int, now: float,
                        owed: Owed | None = None, told: bool = False) -> None:
        """The board goes to this channel (a new message; the chain of timers `now` names).
        `told`: set_by already knows the bot cannot post there (a refusal running, no DM)."""

    async def clear_board(self, guild_id: int) -> bool: ...

    async def owe_board(self, guild_id: int, digest: str, *, channel_id: int, set_at: float,
                        now: float, owed: Owed) -> bool:
        """Write `owed` (the edit) and remember `digest`, unless the board was set again since
        `set_at`, is no longer in `channel_id`, or an edit of it is still owed (unsent): then
        False, nothing written."""

    async def tick_board(self, guild_id: int, *, set_at: float, now: float, min_gap: float,
                         owed: Owed) -> bool:
        """A tick of the board's timer chain `set_at`: write `owed` (the next tick) and True,
        unless the board was set again since, or this chain ticked less than `min_gap` ago (a
        timer fired twice): then False, nothing written, and the chain ends there."""

    async def set_board_message(self, guild_id: int, channel_id: int,
                                message_id: int | None) -> bool:
        """The board's message (None: none; the next edit posts one). False if the board has
        moved to another channel meanwhile."""

    async def board_refused(self, guild_id: int, now: float) -> bool:
        """A refusal: True if it is the first since the board last worked (report it)."""

    async def board_works(self, guild_id: int) -> None: ...

    async def open_games_in_guild(self, guild_id: int) -> list[int]: ...

    async def write_owed(self, owed: Owed, game_id: int | None = None,
                         now: float | None = None) -> None: ...

    async def list_timers(self, game_id: int, kind: str | None = None) -> Sequence[Any]: ...


def season_store(store: object) -> SeasonStore:
    """The store as the seasons' subject (every SqlStore is one)."""
    if not isinstance(store, SeasonStore):
        raise TypeError(f"{type(store).__name__} keeps no seasons")
    return store


def board_store(store: object) -> BoardStore:
    if not isinstance(store, BoardStore):
        raise TypeError(f"{type(store).__name__} keeps no boards")
    return store
