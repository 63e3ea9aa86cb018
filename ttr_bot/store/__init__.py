"""Persistence: games, their action logs and snapshots, timers, user preferences, results and
ratings.

The service depends on `Store` (base.py), every subject of the store (subjects/: one small
protocol per subject, which a service part is given alone). Two drivers keep its contract: `SqliteStore`
(sqlite.py, the default: one file, nothing to run) and `PostgresStore` (postgres.py, on asyncpg,
for several processes or machines). `open_store(setting)` (factory.py) picks one from the
database setting: a path or sqlite:///path is SQLite, postgresql://... is PostgreSQL.
`copy.py` moves a database from one to the other (`python bot.py migrate-db`).
"""
from .base import UNSET, Store
from .errors import (
    ChannelBusy,
    CorruptData,
    CorruptLog,
    CorruptSnapshot,
    NotFound,
    SeatIsBot,
    SeatTaken,
    StaleSequence,
    StoreError,
    StoreUnavailable,
    VoteOpen,
    WrongStatus,
)
from .factory import open_store, parse_db_url, redact
from .models import (
    GLOBAL_SCOPE,
    ActionRecord,
    Away,
    FinishedGame,
    Game,
    GameVersion,
    LaneBlock,
    LeaderboardRow,
    MessageRef,
    NewTimer,
    OutboxItem,
    OutboxRow,
    Owed,
    RatingChange,
    RatingRecord,
    RatingUpdate,
    RatingValue,
    ResultRecord,
    Seat,
    SeatResult,
    Snapshot,
    Timer,
    UserPrefs,
    Vote,
)
from .shards import EVERY_GUILD, Shards
from .sqlite import SqliteStore
from .subjects.away import AwayStore
from .subjects.community import (
    BoardRow,
    BoardStore,
    ClosedSeason,
    SeasonSettings,
    SeasonStore,
    board_store,
    season_store,
)
from .subjects.cups import CupRow, CupStore, cup_store
from .subjects.games import GameStore
from .subjects.log import GameLog
from .subjects.messages import MessageStore
from .subjects.outbox import OutboxStore
from .subjects.prefs import PrefStore
from .subjects.results import ResultStore
from .subjects.seats import SeatStore
from .subjects.timers import TimerStore
from .subjects.votes import VoteStore

__all__ = [
    "UNSET", "Store", "SqliteStore", "PostgresStore", "open_store", "parse_db_url", "redact",
    "StoreError", "StoreUnavailable", "ChannelBusy", "CorruptData", "CorruptLog", "CorruptSnapshot", "NotFound",
    "SeatIsBot", "SeatTaken", "StaleSequence", "VoteOpen", "WrongStatus",
    "ActionRecord", "Away", "Game", "MessageRef", "NewTimer", "OutboxItem", "OutboxRow", "Owed",
    "ResultRecord", "Seat", "SeatResult", "Snapshot", "Timer", "UserPrefs", "Vote",
    "GLOBAL_SCOPE", "FinishedGame", "LeaderboardRow", "RatingChange", "RatingRecord",
    "RatingUpdate", "RatingValue", "GameVersion", "Shards", "EVERY_GUILD", "LaneBlock",
    "CupRow", "CupStore", "cup_store",
    "BoardRow", "BoardStore", "ClosedSeason", "SeasonSettings", "SeasonStore", "board_store",
    "season_store",
    "AwayStore", "GameLog", "GameStore", "MessageStore", "OutboxStore", "PrefStore", "ResultStore",
    "SeatStore", "TimerStore", "VoteStore",
]


def __getattr__(name: str):
    """`PostgresStore` on first use, so SQLite users never import asyncpg."""
    if name == "PostgresStore":
        from .postgres import PostgresStore
        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
