"""The game host between the Discord adapter and the engine.

Every change goes the same way: take the game's lock, load it (from a bounded cache or the
store), let the engine validate and apply the action, write the log row and the new snapshot
in one transaction, and only then return `Effects` saying who must be told what. Callers get
read-only `HostedGame` values, never store rows; nothing here imports discord, and the store is
reached only through its interface.

The lobby and rematches (lobby.py), seats handed to computer players (handover.py), what the
adapter asks the service to remember for it (adapter_state.py), a server's statistics,
leaderboard, history and films (records.py), what each change owes players (owed.py: the
outbox rows and timers written in the change's transaction), the timers' handlers and absent
players (absence.py), away periods (away.py), votes (votes.py), hints (hints.py), the outbox
as the delivery worker sees it (outbox.py), what the others did since a player's last move
(since.py) and /ttr games (listing.py) are mixed into `GameService`; what a
finishing game records, ratings included, is finish.py's.
"""
import json
import logging
import os
import random
import secrets
import socket
import time
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import replace

from ..ai import decide
from ..bounded import KeyedLocks, LRUDict
from ..engine.dealer import Dealer
from ..engine.errors import DeckError, Illegal
from ..engine.game import Game
from ..engine.snapshot import from_dict, to_dict
from ..engine.view import view
from ..game_record import action_from_json, action_to_json, export_record
from ..maps import load_board
from ..store import CorruptLog, CorruptSnapshot, Shards, StaleSequence
from ..workers import WorkerPool
from .absence import Absence
from .adapter_state import AdapterState
from .away import AwayPeriods
from .effects import Effects, ServiceError, split_events
from .finish import finished_results, rating_update
from .handover import SeatHandover
from .hints import Hints
from .hosted import ACTIVE, CANCELLED, FINISHED, LOBBY, HostedGame, SeatInfo
from .invariants import TimerInvariants
from .levels import LEVEL_NAMES, default_agents
from .listing import Listing
from .lobby import Lobby
from .outbox import OutboxAccess
from .owed import Owing
from .records import GameRecords
from .scheduler import Scheduler
from .since import SinceLastMove
from .turns import BOT_MOVE
from .votes import Votes

log = logging.getLogger(__name__)
SEAT_NAMES = [str(i) for i in range(5)]   # how the action log names seats
GAME_IDS = range(1, 2 ** 63)              # what a game id can be (signed 64-bit, from 1)
CHANNELS_REMEMBERED = 10_000              # channel -> game lookups kept (the rest: one query)
SAFE_LEVEL = "easy"     # plays a move whose decision failed every try but the last (see decide)


class GameService(Lobby, SeatHandover, AdapterState, GameRecords, Owing, Absence, AwayPeriods,
                  Votes, OutboxAccess, Listing, TimerInvariants, SinceLastMove, Hints):
    def __init__(self, store, *, clock=time.time, seeds=None, cache_size=256, bot_delay=2.0,
                 agents=None, on_outbox=None, scheduler_options=None, workers=None,
                 decision_timeout=30.0, shards=None, owner=None):
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
        self.scheduler = Scheduler(store, self._on_timer, clock=clock, owner=self.owner,
                                   shards=self.shards, **(scheduler_options or {}))
        self._cache = OrderedDict()     # game id -> HostedGame
        self._channels = LRUDict(CHANNELS_REMEMBERED)   # channel id -> its open game last found
        self._locks = KeyedLocks()      # a game's lock lives while someone holds or awaits it

    # ----- lifetime -------------------------------------------------------------------------
    async def resume(self):
        """Start the scheduler and resume every open game: whatever one waits on (a computer
        player's move, a deadline, a cover, a vote's end, a lobby's expiry, invariants.py) gets
        its timer again if it has none (one can be lost if the bot stopped between a move and
        its timer's write, or was dropped by an older version)."""
        await self.scheduler.start()
        problems = await self.check_timers(repair=True)
        if problems:
            log.warning("resume re-armed %d missing timer(s)", len(problems))

    async def stop(self):
        await self.scheduler.stop()

    @property
    def busy(self):
        """Whether a timer is firing or due by now (the scheduler's `busy`)."""
        return self.scheduler.busy

    async def close(self):
        """Stop, and close the store."""
        await self.stop()
        await self.store.close()

    def _committed(self, owed):
        """Owed rows and timers were written: wake whoever sends and fires them."""
        if not owed:
            return
        if owed.timers:
            self.scheduler.notify(min(t.due_at for t in owed.timers))
        if owed.outbox and self.on_outbox is not None:
            self.on_outbox()

    # ----- loading ------------------------------------------------------------------------
    @asynccontextmanager
    async def lock(self, game_id):
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

    async def load(self, game_id):
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

    def _remember(self, hosted):
        self._cache[hosted.id] = hosted
        self._cache.move_to_end(hosted.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        if hosted.is_open:
            self._channels[hosted.channel_id] = hosted.id

    def forget(self, game_id):
        self._cache.pop(game_id, None)

    async def _reload(self, game_id):
        self.forget(game_id)
        return await self.load(game_id)

    async def rebuild(self, game_id):
        """The game replayed from its seed and its whole action log (the snapshot's check)."""
        return (await self.replayed(game_id))[2]

    async def replayed(self, game_id):
        """(the game as dealt, its log as engine actions, the game after them): the game
        replayed from its seed and its whole action log."""
        row = await self.store.get_game(game_id)
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

    async def game_in_channel(self, channel_id):
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

    async def _channel_game(self, channel_id):
        hosted = await self.game_in_channel(channel_id)
        if hosted is None:
            raise ServiceError("service.no_game")
        return hosted

    # ----- playing --------------------------------------------------------------------------
    async def act(self, game_id, user_id, action, expected_seq=None):
        """Apply a player's action. `expected_seq` is the seq the player's button or view
        showed: a double click or a stale button is refused instead of applied twice."""
        async with self.lock(game_id):
            hosted = await self._active(game_id)
            if expected_seq is not None and expected_seq > hosted.seq:
                # the caller saw a newer seq than the cache holds: the cached copy fell behind
                # (another process wrote, or a concurrent load), so ask the store again
                self.forget(game_id)
                hosted = await self._active(game_id)
            seat = hosted.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_a_player")
            if expected_seq is not None and expected_seq != hosted.seq:
                raise ServiceError("service.stale")
            return await self._apply(hosted, replace(action, seat=seat), actor=seat)

    async def decide(self, level, seed, view):
        """The action a computer player of `level` (seeded with `seed`) takes in the position
        `view` describes, worked out in a worker process while the event loop goes on; decisions
        of different games run side by side. Raises WorkerLost if its worker crashed or ran
        over `decision_timeout` (the worker is replaced; asking again is safe)."""
        return await self.workers.run(decide, level, seed, view, self._factory(),
                                      timeout=self.decision_timeout)

    def decide_safely(self, seed, view):
        """The last try of a decision that kept failing: the simplest level's action, worked out
        here, not in a worker (it takes well under a millisecond), so that a pool that cannot
        start a worker never stalls a game."""
        return decide(SAFE_LEVEL, seed, view, self._factory())

    def _factory(self):
        return None if self.agents is default_agents() else self.agents

    async def play_bot(self, game_id, expected_seq=None, *, safe=False):
        """Let a computer player to move take its action; None if none is to move. `safe`:
        the last try of a move whose decision kept failing: it is played as the simplest level
        plays it, so that a game never stalls on one computer player."""
        async with self.lock(game_id):
            hosted = await self.load(game_id)
            if hosted is None or not hosted.is_active:
                return None
            if expected_seq is not None and expected_seq > hosted.seq:
                hosted = await self._reload(game_id)   # the copy fell behind: ask the store
                if hosted is None or not hosted.is_active:
                    return None
            if expected_seq is not None and expected_seq != hosted.seq:
                return None
            game = hosted.game
            for seat in game.to_move():
                level = hosted.seats[seat].level
                if level is None:
                    continue
                if safe:
                    log.warning("game %s: seat %s plays this move as %s does, in this process "
                                "(its %s decision failed every try)", hosted.id, seat,
                                SAFE_LEVEL, level)
                    action = self.decide_safely(self._agent_seed(hosted, seat),
                                                view(game, seat))
                else:
                    action = await self.decide(level, self._agent_seed(hosted, seat),
                                               view(game, seat))
                return await self._apply(hosted, action, actor=seat)
            return None

    @staticmethod
    def _agent_seed(hosted, seat):
        return hosted.seed ^ (hosted.seq * 7919 + seat)

    async def _active(self, game_id):
        hosted = await self.load(game_id)
        if hosted is None:
            raise ServiceError("service.no_game")
        if not hosted.is_active:
            raise ServiceError("service.not_active")
        return hosted

    async def _apply(self, hosted, action, actor, *, by=None):
        """Apply, commit with what it owes, report. `by`: None when the seat's player acted;
        "timeout" or "away" when a computer played the turn of an absent player (logged with
        no actor, as the schema says of actions the bot takes itself)."""
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
        owed, timeouts, end_reason = await self._owed_for_action(hosted, after, public,
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
        self._committed(owed)
        return Effects(hosted.id, seq, actor=actor, public=public, private=private,
                       to_move=game.to_move(), over=game.over)

    @staticmethod
    def _bot_to_move(hosted):
        return any(hosted.seats[s].is_bot for s in hosted.game.to_move())

    async def _schedule_bot_move(self, hosted):
        await self.scheduler.schedule(BOT_MOVE, self.clock() + self.bot_delay,
                                      {"seq": hosted.seq}, hosted.id)

    # ----- reading --------------------------------------------------------------------------
    async def player_view(self, game_id, user_id):
        """(seat, PlayerView) of a seated user."""
        hosted = await self._started(game_id)
        seat = hosted.seat_of(user_id)
        if seat is None:
            raise ServiceError("service.not_a_player")
        return seat, hosted.view(seat)

    async def _started(self, game_id):
        hosted = await self.load(game_id)
        if hosted is None or hosted.game is None:
            raise ServiceError("service.no_game")
        return hosted

    async def export(self, game_id):
        """The game as a ttr-record/1 document, players named by their display names."""
        hosted = await self._started(game_id)
        names = _unique(hosted.names())
        actions = []
        for rec in await self.store.load_actions(game_id):
            a = dict(rec.action)
            a["player"] = names[int(a["player"])]
            actions.append(a)
        return export_record(hosted.game, names, actions)

    async def state_at(self, game_id, seq):
        """The game as it was at `seq` (its seats as they are now): what a post about that
        moment shows, even when it goes out after later moves (a delivery retried after a
        restart). None if there is no such game or it is not that far yet."""
        hosted = await self.load(game_id)
        if hosted is None or hosted.game is None or seq > hosted.seq:
            return None
        if seq == hosted.seq:
            return hosted
        row = await self.store.get_game(game_id)
        board = hosted.board
        game = Game(board, len(hosted.seats), Dealer(row.seed))
        for rec in (await self.store.load_actions(game_id))[:seq]:
            game.apply(action_from_json(game, rec.action, SEAT_NAMES))
        return replace(hosted, game=game, seq=seq, status=ACTIVE if not game.over else FINISHED)


def process_owner():
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


def _unique(names):
    out = []
    for n in names:
        k, i = n, 2
        while k in out:
            k, i = f"{n} ({i})", i + 1
        out.append(k)
    return out

