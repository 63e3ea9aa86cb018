"""The game host: lobby, actions, views and records over the store, returning Effects.

Callers (the Discord adapter, the benchmarks) see `GameService`, the read-only `HostedGame` and
`SeatInfo`, `Effects`, `ServiceError`, the lists they offer players (levels, maps), what the
outbox owes (messages.py: `OwedMessage` holding one typed message per kind, its `Lane`, a
refused destination's `DestinationBlock`), and the values of a server's game life (statistics are stats.PlayerStats; the leaderboard, history,
film input and rating changes are records.py's); never a store type, but for one error:
`StoreUnavailable`, the database cannot be read or written now (read-only, full, locked by
another program, damaged), raised by whatever met it with nothing of it written; the adapter
answers it with `bot.error.not_saved`. `open_service` builds the service on the database the configuration names.
"""
from ..maps import available_maps, load_board, variants
from ..store import Shards, StoreUnavailable, open_store
from .adapter_state import PostedMessage
from .delivery_queue import MESSAGE_LEASE
from .effects import Effects, Handover, ServiceError
from .hints import GAME_HINTS, Hint
from .host import GameService
from .hosted import ACTIVE, CANCELLED, FINISHED, LOBBY, HostedGame, SeatInfo
from .levels import LEAVE_LEVEL, LEVELS, configured_agents
from .listing import GameListing
from .lobby import (
    GAME_LANGUAGE,
    GAME_PALETTE,
    MEMBER_LOBBIES,
    PALETTES,
    REMATCH_OF,
    SERVER_LOBBIES,
    Rematch,
    check_table,
)
from .messages import (
    BoardPost,
    ClosingPost,
    DestinationBlock,
    DirectMessage,
    HandoverPost,
    HandUpdate,
    Lane,
    Notice,
    OwedMessage,
    Reminder,
    SeasonEndPost,
    StartPost,
    ThinkingEdit,
    TurnPost,
    Unreadable,
    VotePost,
    VoteResult,
)
from .notify import HOW, BadSetting
from .records import (
    FilmInput,
    GameRating,
    HistoryEntry,
    HistoryPage,
    HistoryPlayer,
    LeaderboardEntry,
    LeaderboardPage,
    RatingDelta,
)
from .since import SinceLastTurn
from .turns import AWAY_MODES, DEADLINES, DEFAULT_DEADLINE, MAX_AWAY_DAYS, REMINDS


def playable_maps():
    """[(map id, (variant, …)), …]: what /ttr new offers, straight from the map files."""
    return [(m, tuple(variants(m))) for m in available_maps()]


def map_board(map_id, variant="base"):
    """The Board of an offered map and variant (ServiceError if there is none): what
    /ttr rules teaches where no game is."""
    check_table(map_id, variant)
    return load_board(map_id, variant)


async def open_service(db, **options):
    """A started GameService on the database `db` (an SQLite path or `sqlite:///…`, or a
    `postgresql://…` URL), with its scheduler running; it owns the store
    (`await service.close()`)."""
    store = open_store(db)
    await store.open()
    service = GameService(store, **options)
    await service.resume()
    return service


__all__ = ["Shards", "ACTIVE", "AWAY_MODES", "CANCELLED", "DEADLINES", "DEFAULT_DEADLINE", "FINISHED",
           "HOW", "LOBBY", "LEAVE_LEVEL", "LEVELS", "MAX_AWAY_DAYS", "MESSAGE_LEASE", "REMINDS", "BadSetting",
           "Effects", "GameListing", "GameService", "Handover", "HostedGame", "PostedMessage",
           "SeatInfo", "ServiceError", "StoreUnavailable", "SinceLastTurn", "open_service", "playable_maps", "map_board", "REMATCH_OF",
           "GAME_LANGUAGE", "GAME_PALETTE", "PALETTES", "GAME_HINTS", "Hint", "configured_agents", "Rematch",
           "MEMBER_LOBBIES", "SERVER_LOBBIES",
           "check_table", "FilmInput", "GameRating", "HistoryEntry", "HistoryPage",
           "HistoryPlayer", "LeaderboardEntry", "LeaderboardPage", "RatingDelta", "ClosingPost",
           "DestinationBlock", "DirectMessage", "HandoverPost", "HandUpdate", "Lane", "Notice",
           "OwedMessage", "Reminder", "StartPost", "ThinkingEdit", "TurnPost", "Unreadable",
           "VotePost", "VoteResult", "BoardPost", "SeasonEndPost"]
