"""Persistence: games, their action logs and snapshots, timers, user preferences, statistics.

The service depends on `Store` (base.py); `SqliteStore` (sqlite.py) is the driver in use.
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
    WrongStatus,
)
from .models import (
    ActionRecord,
    Game,
    MessageRef,
    ResultRecord,
    Seat,
    SeatResult,
    Snapshot,
    Timer,
    UserPrefs,
)
from .sqlite import SqliteStore
from .timers import TimerService

__all__ = [
    "UNSET", "Store", "SqliteStore", "TimerService",
    "StoreError", "ChannelBusy", "CorruptData", "CorruptLog", "CorruptSnapshot", "NotFound",
    "SeatIsBot", "SeatTaken", "StaleSequence", "WrongStatus",
    "ActionRecord", "Game", "MessageRef", "ResultRecord", "Seat", "SeatResult", "Snapshot",
    "Timer", "UserPrefs",
]
