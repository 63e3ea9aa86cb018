"""The service's core: what every feature of the game host shares.

It owns the store, the clock, the seeds, the computer players (agents, the worker pool and
its timeout), the bounded cache of games and the channel -> game lookup, the per-game locks,
the scheduler (each feature registers its own timer kinds with it) and `on_outbox`. Its
operations are the ones every feature goes through: `lock` a game, `load` it (cache, else
store), `apply` an action (the engine checks and applies it; the log row, the snapshot, the
owed rows and timers are written in one transaction; `committed` then wakes the scheduler
and the outbox worker), `cancel` (close) a game, `write_game` (any other change of a game's
rows, one transaction), and `decide` a computer player's move. What a change owes is an
object the core holds and calls (`self.owing`, owed.py's `Owing`: the outbox rows and timers
an action, a start or a seat change writes in its own transaction).

The features are collaborators holding this core (see host.py), typed against its public
contract (core_contract.py's `CoreContract`: what they may use of it, and the transaction of
each operation that writes); the names with an underscore are the core's own.
"""
from __future__ import annotations

import json
import logging
import os
import random
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

from ..ai import decide
from ..bounded import KeyedLocks, LRUDict
from ..engine.dealer import Dealer
from ..engine.errors import DeckError, Illegal
from ..engine.game import Game
from ..engine.snapshot import from_dict, to_dict
from ..game_record import action_from_json, action_to_json
from ..maps import load_board
from ..store import Away, CorruptLog, CorruptSnapshot, Owed, Shards, StaleSequence, Store
from ..workers import WorkerPool
from .effects import Effects, Handover, ServiceError, split_events
from .finish import finished_results, rating_update
from .hosted import ACTIVE, CANCELLED, FINISHED, LOBBY, HostedGame, SeatInfo
from .levels import LEVEL_NAMES, default_agents
from .messages import ClosingPost
from .owed import Owing, channel_row, dm_row
from .scheduler import Scheduler

log = logging.getLogger(__name__)
SEAT_NAMES = [str(i) for i in range(5)]   # how the action log names seats
GAME_IDS = range(1, 2 ** 63)              # what a game id can be (signed 64-bit, from 1)
CHANNELS_REMEMBERED = 10_000              # channel -> game lookups kept (the rest: one query)
SAFE_LEVEL = "easy"     # plays a move whose decision failed every try but the last (see decide)
T = TypeVar("T")


class Core:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seeds: Any = None, cache_size: int = 256, bot_delay: float = 2.0,
                 agents: Any = None, on_outbox: Callable[[], None] | None = None,
                 scheduler_options: dict | None = None, workers: Any = None,
                 decision_timeout: float = 30.0, shards: Any = None,
                 owner: str | None = None) -> None:
        self.store = store
        # the guilds this process serves (None: every guild) and its name on the leases it
        # takes on timers and owed messages (unique per process: two processes never share one)
        self.shards = shards if shards is None or isinstance(shards, Shards) else Shards(*shards)
        self.owner = owner or process_owner()
        self.clock = clock
        self.seeds = seeds or random.SystemRandom()
        self.cache_size = cache_size
        self.bot_delay = bot_delay
        self.agents = agents or default_agents()   # level name -> agent factory
        self.on_outbox = on_outbox      # called (no arguments) when owed messages were written
        # where computer players think: the bot's worker processes (its owner starts and closes
        # them), else threads of this process
        self.workers = workers if workers is not None else WorkerPool(0)
        self.decision_timeout = decision_timeout
        # the features register their timer kinds with it (Scheduler.on)
        self.scheduler = Scheduler(store, clock=clock, owner=self.owner, shards=self.shards,
                                   **(scheduler_options or {}))
        self._cache: OrderedDict[int, HostedGame] = OrderedDict()   # game id -> HostedGame
        self._channels = LRUDict(CHANNELS_REMEMBERED)   # channel id -> its open game last found
        self._locks = KeyedLocks()      # a game's lock lives while someone holds or awaits it
        # what a change owes: the core calls it (apply), and so do the parts (a start, a seat
        # that changed hands)
        self.owing = Owing(store, clock=clock, bot_delay=bot_delay)

    def committed(self, owed: Owed | None) -> None:
        """Owed rows and timers were written: wake whoever sends and fires them."""
        if not owed:
            return
        if owed.timers:
            self.scheduler.notify(min(t.due_at for t in owed.timers))
        if owed.outbox and self.on_outbox is not None:
            self.on_outbox()

    async def write_game(self, game_id: int | None, write: Awaitable[T],
                         owed: Owed | None = None) -> T:
        """A change of a game's stored rows (its game row, its seats) other than an action
        (`apply`) or its closing (`cancel`): `write` is one store method, hence one transaction
        (store/base.py), carrying `owed` when the change owes something. Once it returns,
        `committed(owed)` wakes whoever sends and fires that, and the game's cached copy is
        dropped (the next `load` reads the store). `game_id`: None for a game the write
        creates. Under the game's lock where the part holds one; what `write` returns."""
        done = await write
        self.committed(owed)
        if game_id is not None:
            self.forget(game_id)
        return done

    async def away_of(self, hosted: HostedGame, user_id: int, now: float) -> Away | None:
        """The player's away period in the game's server, if it lasts past `now` (owing's)."""
        return await self.owing.away_of(hosted, user_id, now)

    # ----- loading ------------------------------------------------------------------------
    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game for a change: this process's lock (its other tasks wait here), then
        the store's lock (another process on the same PostgreSQL database waits there), and
        the cached copy checked against the stored seq and status: a copy another process has
        moved on from is read again, never acted on."""
        async with self._locks[game_id]:
            async with self.store.lock_game(game_id) as version:
                hit = self._cache.get(game_id)
                if hit is not None and (version is None or (hit.seq, hit.status) !=
                                        (version.seq, version.status)):
                    log.info("game %s: cached copy at seq %s is stale (stored: %s); reading it "
                             "again", game_id, hit.seq, version)
                    self.forget(game_id)
                yield

    async def load(self, game_id: int) -> HostedGame | None:
        """The game, from the cache or the store (None if there is no such game)."""
        if not isinstance(game_id, int) or game_id not in GAME_IDS:
            return None         # e.g. a forged /ttr server export game: 2^70 (no store holds it)
        hit = self._cache.get(game_id)
        if hit is not None:
            self._cache.move_to_end(game_id)
            return hit
        for _ in range(5):
            row = await self.store.get_game(game_id)
            if row is None:
                return None
            seats = await self.store.list_seats(game_id)
            game = None
            if row.status != LOBBY:
                try:
                    snap = await self.store.load_snapshot(game_id)
                    corrupt = False
                except CorruptSnapshot:
                    log.error("game %s: snapshot unreadable, rebuilding from the action log",
                              game_id)
                    snap, corrupt = None, True
                if snap is not None and snap.seq != row.seq:
                    continue  # an action was committed between the two reads: read both again
                if snap is not None:
                    game = _from_snapshot(game_id, row, snap.state)
                    corrupt = game is None
                # a game cancelled in the lobby never had a game to rebuild
                if game is None and (corrupt or row.status != CANCELLED):
                    game = await self.rebuild(game_id)
            hosted = _hosted(row, seats, game)
            break
        else:
            raise ServiceError("service.stale")  # the game keeps moving under us
        self._remember(hosted)
        return hosted

    def _remember(self, hosted: HostedGame) -> None:
        self._cache[hosted.id] = hosted
        self._cache.move_to_end(hosted.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        if hosted.is_open:
            self._channels[hosted.channel_id] = hosted.id

    def forget(self, game_id: int) -> None:
        """Drop the cached copy: the next `load` reads the store."""
        self._cache.pop(game_id, None)

    def forget_channel(self, channel_id: int) -> None:
        """Drop what the core remembers of a channel's open game (the game was closed)."""
        self._channels.pop(channel_id, None)

    async def reload(self, game_id: int) -> Any:
        self.forget(game_id)
        return await self.load(game_id)

    async def rebuild(self, game_id: int) -> Game:
        """The game replayed from its seed and its whole action log (the snapshot's check)."""
        return (await self.replayed(game_id))[2]

    async def replayed(self, game_id: int) -> tuple[Game, list, Game]:
        """(the game as dealt, its log as engine actions, the game after them): the game
        replayed from its seed and its whole action log."""
        row: Any = await self.store.get_game(game_id)
        seats = await self.store.list_seats(game_id)
        board = load_board(row.map, row.variant)
        game = Game(board, len(seats), Dealer(row.seed))
        start = game.copy()
        actions = []
        for rec in await self.store.load_actions(game_id):
            try:
                action = action_from_json(game, rec.action, SEAT_NAMES)
                game.apply(action)
            except (Illegal, DeckError) as e:  # readable, but not a move of this game
                raise CorruptLog(game_id, rec.seq, f"cannot be replayed: {e!r}") from None
            actions.append(action)
        return start, actions, game

    async def game_in_channel(self, channel_id: int) -> HostedGame | None:
        """The channel's open game (in the lobby or in play), or None. While the cached copy of
        the game last found there is still open in that channel it is the answer (a channel has
        one open game at most, and every change of status goes through this service), so most
        lookups need no query: on the store's one connection a query waits behind every other
        game's writes, too long for autocomplete, which cannot defer."""
        game_id = self._channels.get(channel_id)
        if game_id is not None:
            hosted = await self.load(game_id)
            if hosted is not None and hosted.channel_id == channel_id and hosted.is_open:
                return hosted
            self._channels.pop(channel_id, None)
        row = await self.store.find_open_game(channel_id)
        return None if row is None else await self.load(row.id)

    async def channel_game(self, channel_id: int) -> HostedGame:
        hosted = await self.game_in_channel(channel_id)
        if hosted is None:
            raise ServiceError("service.no_game")
        return hosted

    async def active(self, game_id: int) -> HostedGame:
        hosted = await self.load(game_id)
        if hosted is None:
            raise ServiceError("service.no_game")
        if not hosted.is_active:
            raise ServiceError("service.not_active")
        return hosted

    async def started(self, game_id: int) -> HostedGame:
        hosted = await self.load(game_id)
        if hosted is None or hosted.game is None:
            raise ServiceError("service.no_game")
        return hosted

    # ----- computer players ----------------------------------------------------------------
    async def decide(self, level: str, seed: int, view: Any) -> Any:
        """The action a computer player of `level` (seeded with `seed`) takes in the position
        `view` describes, worked out in a worker process while the event loop goes on; decisions
        of different games run side by side. Raises WorkerLost if its worker crashed or ran
        over `decision_timeout` (the worker is replaced; asking again is safe)."""
        return await self.workers.run(decide, level, seed, view, self.factory(),
                                      timeout=self.decision_timeout)

    def decide_safely(self, seed: int, view: Any) -> Any:
        """The last try of a decision that kept failing: the simplest level's action, worked out
        here, not in a worker (it takes well under a millisecond), so that a pool that cannot
        start a worker never stalls a game."""
        return decide(SAFE_LEVEL, seed, view, self.factory())

    def factory(self) -> Any:
        return None if self.agents is default_agents() else self.agents

    @staticmethod
    def agent_seed(hosted: HostedGame, seat: int) -> int:
        return hosted.seed ^ (hosted.seq * 7919 + seat)

    @staticmethod
    def _bot_to_move(hosted: HostedGame) -> bool:
        return hosted.game is not None and any(hosted.seats[s].is_bot
                                               for s in hosted.game.to_move())

    # ----- changing a game (under its lock) --------------------------------------------------
    async def apply(self, hosted: HostedGame, action: Any, actor: int, *,
                    by: str | None = None) -> Effects:
        """Apply, commit with what it owes, report. `by`: None when the seat's player acted;
        "timeout" or "away" when a computer played the turn of an absent player (logged with
        no actor, as the schema says of actions the bot takes itself)."""
        if hosted.game is None:         # a lobby: nothing to apply an action to
            raise ServiceError("service.not_active")
        game = hosted.game.copy(dealer=None)
        names = SEAT_NAMES[:game.n]
        illegal = game.check(action)  # before action_to_json, which trusts the indices
        if illegal is not None:
            raise ServiceError("service.illegal", illegal=illegal)
        action_json = action_to_json(game, action, names)
        # Apply what the log row says, so that replaying the log reaches this very state: the
        # record names things as players see them, and e.g. Switzerland's two identical copies
        # of a country ticket are told apart only by their order in the offer.
        action = action_from_json(game, action_json, names)
        events = game.apply(action)
        results = rated = ratings = None
        if game.over:   # the results and the ratings go with the last action, atomically
            results, rated, _ = finished_results(hosted, game)
            ratings = rating_update(hosted.guild_id, results) if rated else None
        public, private = split_events(events)
        now = self.clock()
        after = replace(hosted, game=game, seq=hosted.seq + 1, updated_at=now,
                        status=FINISHED if game.over else ACTIVE)
        owed, timeouts, end_reason = await self.owing.for_action(hosted, after, public,
                                                                 action.seat, by)
        try:
            seq = await self.store.append_action(
                hosted.id, hosted.seq, None if by else actor,
                json.dumps(action_json, ensure_ascii=False), json.dumps(to_dict(game)), now=now,
                results=results, ratings=ratings, seat_timeouts=timeouts, end_reason=end_reason,
                owed=owed)
        except StaleSequence:
            self.forget(hosted.id)
            raise ServiceError("service.stale") from None
        seats = tuple(replace(s, timeouts=timeouts.get(s.number, s.timeouts))
                      for s in after.seats)
        hosted = replace(after, seq=seq, seats=seats, end_reason=end_reason)
        self._remember(hosted)
        self.committed(owed)
        return Effects(hosted.id, seq, actor=actor, public=public, private=private,
                       to_move=game.to_move(), over=game.over)

    async def cancel(self, hosted: HostedGame, *, reason: str | None = None,
                     handover: Handover | None = None, dm_key: str | None = None) -> Effects:
        """Close the game (a cancel, an abandoned game, a channel gone...). Under the game's
        lock. The channel is told (with `reason` and the last human's `handover`, if that is
        why); with `dm_key`, every human by DM too."""
        rows = [channel_row(hosted, ClosingPost(reason, handover), key=f"cancel:{hosted.id}")]
        if dm_key is not None:
            rows += [dm_row(u, dm_key, game_id=hosted.id, key_id=f"closed:{hosted.id}:{u}",
                            channel=f"<#{hosted.channel_id}>")
                     for u in hosted.user_ids()]
        owed = Owed(tuple(rows))
        await self.store.set_status(hosted.id, CANCELLED, now=self.clock(), reason=reason,
                                    owed=owed)
        self.forget(hosted.id)
        self.committed(owed)
        return Effects(hosted.id, hosted.seq, cancelled=True, handover=handover)


def process_owner() -> str:
    """This process's name on its leases: host, pid and a random part (a restarted process, or
    one in another container with the same pid, is another owner)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _from_snapshot(game_id, row, state):
    """The game a snapshot holds, or None when it is readable JSON of the wrong shape (`{}`, or
    one a newer version wrote before a downgrade): the action log can rebuild it, so it is
    treated like an unreadable snapshot, not as an error in every command of that game."""
    try:
        return from_dict(load_board(row.map, row.variant), state)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        log.error("game %s: snapshot of the wrong shape (%r), rebuilding from the action log",
                  game_id, exc)
        return None


def _hosted(row, seats, game):
    """A HostedGame from the store's rows (the only place that reads them)."""
    board = game.board if game is not None else load_board(row.map, row.variant)
    return HostedGame(
        id=row.id, seq=row.seq, status=row.status, guild_id=row.guild_id,
        channel_id=row.channel_id, host_id=row.host_id, map_id=row.map, variant=row.variant,
        board=board, game=game, seed=row.seed, options=dict(row.options),
        updated_at=row.updated_at, end_reason=row.end_reason,
        seats=tuple(SeatInfo(number=s.seat, user_id=s.user_id, name=s.display_name,
                             level=LEVEL_NAMES.get(s.bot_level, "medium") if s.is_bot else None,
                             former_user_id=s.former_user_id, timeouts=s.timeouts,
                             handover=s.handover, human_turns=s.human_turns) for s in seats))
