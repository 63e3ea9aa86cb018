"""The game host between the Discord adapter and the engine: `GameService`, the composition
root the adapter (and bot.py, the tools, the tests) holds.

Every change goes the same way: take the game's lock, load it (from a bounded cache or the
store), let the engine validate and apply the action, write the log row and the new snapshot
in one transaction, and only then return `Effects` saying who must be told what. Callers get
read-only `HostedGame` values, never store rows; nothing here imports discord, and the store is
reached only through its interface.

The service is a small core (core.py: store, clock, cache, locks, loading, applying and
committing a change, closing a game, the scheduler, the computer players' decisions; and
what a change owes, owed.py's `Owing`, an object it holds and calls: the rows and timers a
change's transaction writes) shared by named parts, each holding the core as its public
contract (core_contract.py's `CoreContract`: the operations a part may use, and the
transaction of each that writes) and given, in its constructor, the other parts it calls.
The parts are the API: a caller names the part that does what it asks
(`service.moves.act(...)`, `service.lobby.join(...)`, `service.queue.delivered(...)`), and the
type checker follows each call to its code:
  lobby         Lobby(core)                  lobby.py: lobbies, rematches, the start; LOBBY_WARN,
                                             LOBBY_EXPIRE
  handover      SeatHandover(core)           handover.py: a computer takes a human's seat
  moves         Moves(core)                  moves.py: players' and computer players' moves,
                                             views, the record, a past state, the replayed log
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
Each registers the timer kinds it owns with the scheduler (`Scheduler.on`). The root itself
offers only what is no part's: reading a game (`load`, `game_in_channel`), its lifetime
(`resume`, `stop`, `close`, `busy`). The core (`service.core`) is no caller's API: the tests and
the benchmarks reach it by name (`service.core.store`, `service.core.scheduler`).
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
from .hosted import HostedGame
from .invariants import TimerInvariants
from .listing import Listing
from .lobby import Lobby
from .moves import Moves
from .records import GameRecords
from .seasons import Seasons
from .since import SinceLastMove
from .votes import Votes

log = logging.getLogger(__name__)


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

    # ----- reading a game ---------------------------------------------------------------------
    async def load(self, game_id: int) -> HostedGame | None:
        """The game, from the cache or the store (None if there is no such game)."""
        return await self.core.load(game_id)

    async def game_in_channel(self, channel_id: int) -> HostedGame | None:
        """The channel's open game (in the lobby or in play), or None."""
        return await self.core.game_in_channel(channel_id)

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
