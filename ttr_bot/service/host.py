"""The game host between the Discord adapter and the engine: `GameService`, the façade the
adapter (and bot.py, the tools, the tests) call.

Every change goes the same way: take the game's lock, load it (from a bounded cache or the
store), let the engine validate and apply the action, write the log row and the new snapshot
in one transaction, and only then return `Effects` saying who must be told what. Callers get
read-only `HostedGame` values, never store rows; nothing here imports discord, and the store is
reached only through its interface.

The service is a small core (core.py: store, clock, cache, locks, loading, applying and
committing a change, closing a game, the scheduler, the computer players' decisions; and
what a change owes, owed.py's `Owing`, mixed into it: the rows and timers its transaction
writes) shared by named collaborators, each holding the core and given, in its constructor,
the other collaborators it calls:
  lobby         Lobby(core)                  lobby.py: lobbies, rematches, the start; LOBBY_WARN,
                                             LOBBY_EXPIRE
  handover      SeatHandover(core)           handover.py: a computer takes a human's seat
  moves         Moves(core)                  moves.py: players' and computer players' moves,
                                             views, the record, a past state
  queue         DeliveryQueue(core)          delivery_queue.py: the outbox as the delivery
                                             worker sees it (owed messages, refused
                                             destinations, giving one up)
  absence       Absence(core, moves, handover, queue)  absence.py: a turn's clock, absent
                                             players, players and channels gone; BOT_MOVE,
                                             DEADLINE, COVER, REMIND, EXPEL, IDLE
  away          AwayPeriods(core)            away.py: /ttr me away; AWAY_END
  votes         Votes(core, handover)        votes.py: /ttr vote; VOTE_EXPIRE
  records       GameRecords(core)            records.py: statistics, leaderboard, history, film,
                                             ratings (a finishing game's are finish.py's)
  listing       Listing(core)                listing.py: /ttr games
  invariants    TimerInvariants(core)        invariants.py: every open game's timers
  since         SinceLastMove(core)          since.py: what the others did since a player's move
  hints         Hints(core)                  hints.py: /ttr hint
  adapter_state AdapterState(core)           adapter_state.py: what the adapter asks it to keep
  seasons       Seasons(core)                seasons.py: a server's seasons and their standings;
                                             SeasonEnd (typed; its store subject SeasonStore)
  board         ServerBoard(core, seasons)   board.py: the live board; BoardTick (BoardStore)
  cups          Cups(core, lobby)            cups.py: Swiss tournaments; CupSignup, CupCheck,
                                             CupRoundEnd (typed; its store subject CupStore)
The last three are reached by name (`service.seasons.standings(...)`), not through the table.
Each registers the timer kinds it owns with the scheduler (`Scheduler.on`). The façade below
names, for each public operation, the part that does it (the `_Part` table); nothing else is
behind it.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from ..store import Store
from .absence import Absence
from .adapter_state import AdapterState
from .away import AwayPeriods
from .board import ServerBoard
from .core import Core
from .cups import Cups
from .delivery_queue import DeliveryQueue
from .handover import SeatHandover
from .hints import Hints
from .invariants import TimerInvariants
from .listing import Listing
from .lobby import Lobby
from .moves import Moves
from .records import GameRecords
from .seasons import Seasons
from .since import SinceLastMove
from .votes import Votes

log = logging.getLogger(__name__)


class _Part:
    """A façade name: `GameService.<name>` is the attribute of the same name of one part
    (reading it, and setting it: `service.seeds = ...`, a test's monkeypatch)."""

    def __init__(self, part: str, name: str) -> None:
        self.part, self.name = part, name

    def __get__(self, service: Any, owner: type | None = None) -> Any:
        if service is None:
            return self
        return getattr(getattr(service, self.part), self.name)

    def __set__(self, service: Any, value: Any) -> None:
        setattr(getattr(service, self.part), self.name, value)


class GameService:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time, **options: Any
                 ) -> None:
        """`options`: the core's (seeds, cache_size, bot_delay, agents, on_outbox,
        scheduler_options, workers, decision_timeout, shards, owner; core.py)."""
        self.core = core = Core(store, clock=clock, **options)
        self.lobby = Lobby(core)
        self.handover = SeatHandover(core)
        self.moves = Moves(core)
        self.queue = DeliveryQueue(core)
        self.absence = Absence(core, moves=self.moves, handover=self.handover, queue=self.queue)
        self.away = AwayPeriods(core)
        self.votes = Votes(core, handover=self.handover)
        self.records = GameRecords(core)
        self.listing = Listing(core)
        self.invariants = TimerInvariants(core)
        self.since = SinceLastMove(core)
        self.hints = Hints(core)
        self.adapter_state = AdapterState(core)
        self.seasons = Seasons(core)
        self.board = ServerBoard(core, seasons=self.seasons)
        self.cups = Cups(core, lobby=self.lobby)
        self.board.register("cups", self.cups.board_items)   # the board's running cups

    # ----- lifetime -------------------------------------------------------------------------
    async def resume(self) -> None:
        """Start the scheduler and resume every open game: whatever one waits on (a computer
        player's move, a deadline, a cover, a vote's end, a lobby's expiry, invariants.py) gets
        its timer again if it has none (one can be lost if the bot stopped between a move and
        its timer's write, or was dropped by an older version)."""
        await self.core.scheduler.start()
        problems = await self.invariants.check_timers(repair=True)
        if problems:
            log.warning("resume re-armed %d missing timer(s)", len(problems))
        if armed := await self.cups.resume():
            log.warning("resume re-armed %d missing cup timer(s)", armed)

    async def stop(self) -> None:
        await self.core.scheduler.stop()

    @property
    def busy(self) -> bool:
        """Whether a timer is firing or due by now (the scheduler's `busy`)."""
        return self.core.scheduler.busy

    async def close(self) -> None:
        """Stop, and close the store."""
        await self.stop()
        await self.core.store.close()


# What the façade offers, by the part that does it: GameService.<name> is <part>.<name>.
FACADE = {
    "core": ("store", "clock", "scheduler", "shards", "owner", "workers", "seeds", "agents",
             "on_outbox", "bot_delay", "decision_timeout", "cache_size",
             "lock", "load", "forget", "rebuild", "replayed", "game_in_channel", "decide",
             "decide_safely"),
    # the outbox as the delivery worker sees it
    "queue": ("owed_messages", "deliverable", "owed_in_lane", "claim_messages",
              "release_messages", "delivered", "retry_later", "give_up_failing", "forget_sent",
              "owe",
              "destination_refused", "destination_blocks", "destination_works",
              "retry_destinations", "give_up_destination", "guild_gone", "tell_cannot_post",
              "tell_dms_closed", "set_notify", "notify_settings"),
    "lobby": ("open_lobby", "lobby_room", "rematch", "join", "add_bot", "leave", "remove_seat",
              "start", "cancel"),
    "handover": ("hand_to_bot", "leave_game", "replace_player"),
    "moves": ("act", "play_bot", "player_view", "export", "state_at"),
    "absence": ("return_seat", "member_left", "host_gone", "channel_gone",
                "reminder_still_due"),
    "away": ("set_away", "end_away", "away_of", "away_days_left"),
    "votes": ("start_vote", "cast_vote", "open_vote", "vote"),
    "records": ("stats", "leaderboard", "history", "finished_game", "latest_finished_game",
                "replay_data", "game_rating", "recompute_ratings", "stored_ratings"),
    "listing": ("games_of",),
    "invariants": ("check_timers", "check_game_timers"),
    "since": ("since_last_turn",),
    "hints": ("hint",),
    "adapter_state": ("posted_message", "remember_message", "remember_final_post",
                      "final_post", "forget_message", "dms_closed", "set_dms_closed",
                      "user_locale", "set_user_locale", "user_palette", "set_user_palette",
                      "server_locale", "set_server_locale", "last_finished_game",
                      "confirm_settings", "set_confirm"),
}
for _part, _names in FACADE.items():
    for _name in _names:
        assert not hasattr(GameService, _name), _name
        setattr(GameService, _name, _Part(_part, _name))
