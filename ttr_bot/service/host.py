"""The game host between the Discord adapter and the engine.

Every change goes the same way: take the game's lock, load it (from a bounded cache or the
store), let the engine validate and apply the action, write the log row and the new snapshot
in one transaction, and only then return `Effects` saying who must be told what. Callers get
read-only `HostedGame` values, never store rows; nothing here imports discord, and the store is
reached only through its interface.

The lobby (lobby.py), seats handed to computer players (handover.py) and what the adapter asks
the service to remember for it (adapter_state.py) are mixed into `GameService`.
"""
import asyncio
import json
import logging
import random
import time
import weakref
from collections import OrderedDict
from dataclasses import replace

from ..ai import decide
from ..engine.dealer import Dealer
from ..engine.errors import DeckError, Illegal
from ..engine.game import Game
from ..engine.snapshot import from_dict, to_dict
from ..engine.view import view
from ..maps import load_board
from ..record_format import action_from_json, action_to_json, export_record
from ..store import CorruptLog, CorruptSnapshot, SeatResult, StaleSequence
from ..workers import WorkerPool
from .adapter_state import AdapterState
from .effects import Effects, ServiceError, changed_seats, split_events
from .handover import SeatHandover
from .hosted import ACTIVE, CANCELLED, FINISHED, LOBBY, HostedGame, SeatInfo
from .levels import LEVEL_NAMES, default_agents
from .lobby import Lobby
from .scheduler import Scheduler

log = logging.getLogger(__name__)
SEAT_NAMES = [str(i) for i in range(5)]   # how the action log names seats
BOT_MOVE = "bot_move"                     # the timer kind: a computer player's move is due
SAFE_LEVEL = "easy"     # plays a move whose decision failed every try but the last (see decide)


class GameService(Lobby, SeatHandover, AdapterState):
    def __init__(self, store, *, clock=time.time, seeds=None, cache_size=256, bot_delay=2.0,
                 agents=None, on_effects=None, workers=None, decision_timeout=30.0,
                 timer_concurrency=16):
        self.store = store
        self.clock = clock
        self.seeds = seeds or random.SystemRandom()
        self.cache_size = cache_size
        self.bot_delay = bot_delay
        self.agents = agents or default_agents()   # level name -> agent factory
        self.on_effects = on_effects    # async callback for effects nobody asked for (bot moves)
        # where computer players think: the bot's worker processes (its owner starts and closes
        # them), else threads of this process
        self.workers = workers if workers is not None else WorkerPool(0)
        self.decision_timeout = decision_timeout
        self.scheduler = Scheduler(store, self._on_timer, clock=clock,
                                   concurrency=timer_concurrency)
        self._cache = OrderedDict()     # game id -> HostedGame
        self._channels = {}             # channel id -> id of the open game last found there
        self._locks = weakref.WeakValueDictionary()   # a lock lives while someone holds or awaits it

    # ----- lifetime -------------------------------------------------------------------------
    async def resume(self):
        """Start the scheduler and resume every game: where a computer player is to move, its
        move is scheduled again."""
        await self.scheduler.start()
        await self._resume_computer_players()

    async def stop(self):
        await self.scheduler.stop()

    async def close(self):
        """Stop, and close the store."""
        await self.stop()
        await self.store.close()

    async def _resume_computer_players(self):
        """A computer player's move can be lost if the bot stopped between the move and its
        timer's removal; give every game where one is to move a fresh timer (a duplicate is
        harmless: a timer for an older sequence number does nothing)."""
        for game_id in await self.store.list_active_game_ids():
            try:
                hosted = await self.load(game_id)
                if hosted is not None and hosted.game is not None and self._bot_to_move(hosted):
                    await self._schedule_bot_move(hosted)
            except Exception:
                log.exception("could not resume game %s", game_id)

    async def _on_timer(self, timer):
        if timer.kind != BOT_MOVE:
            log.info("ignoring timer %s of kind %s", timer.id, timer.kind)
            return
        last_try = timer.attempts >= self.scheduler.max_attempts - 1
        eff = await self.play_bot(timer.game_id, timer.payload.get("seq"), safe=last_try)
        if eff is not None and self.on_effects is not None:
            await self.on_effects(eff)

    # ----- loading ------------------------------------------------------------------------
    def lock(self, game_id):
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def load(self, game_id):
        """The game, from the cache or the store (None if there is no such game)."""
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
                # a game cancelled in the lobby never had a game to rebuild
                if snap is not None:
                    game = from_dict(load_board(row.map, row.variant), snap.state)
                elif corrupt or row.status != CANCELLED:
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
        row = await self.store.get_game(game_id)
        seats = await self.store.list_seats(game_id)
        board = load_board(row.map, row.variant)
        game = Game(board, len(seats), Dealer(row.seed))
        for rec in await self.store.load_actions(game_id):
            try:
                game.apply(action_from_json(game, rec.action, SEAT_NAMES))
            except (Illegal, DeckError) as e:  # readable, but not a move of this game
                raise CorruptLog(game_id, rec.seq, f"cannot be replayed: {e!r}") from None
        return game

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
        factory = None if self.agents is default_agents() else self.agents
        return await self.workers.run(decide, level, seed, view, factory,
                                      timeout=self.decision_timeout)

    async def play_bot(self, game_id, expected_seq=None, *, safe=False):
        """Let a computer player to move take its action; None if none is to move. `safe`:
        the last try of a move whose decision kept failing: it is played as the simplest level
        plays it, so that a game never stalls on one computer player."""
        async with self.lock(game_id):
            hosted = await self.load(game_id)
            if hosted is None or not hosted.is_active:
                return None
            if expected_seq is not None and expected_seq != hosted.seq:
                return None
            game = hosted.game
            for seat in game.to_move():
                level = hosted.seats[seat].level
                if level is None:
                    continue
                if safe and level != SAFE_LEVEL:
                    log.warning("game %s: seat %s plays this move as %s does (its %s decision "
                                "failed every try)", hosted.id, seat, SAFE_LEVEL, level)
                    level = SAFE_LEVEL
                action = await self.decide(level, hosted.seed ^ (hosted.seq * 7919 + seat),
                                           view(game, seat))
                return await self._apply(hosted, action, actor=seat)
            return None

    async def _active(self, game_id):
        hosted = await self.load(game_id)
        if hosted is None:
            raise ServiceError("service.no_game")
        if not hosted.is_active:
            raise ServiceError("service.not_active")
        return hosted

    async def _apply(self, hosted, action, actor):
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
        results = _seat_results(hosted, game) if game.over else None
        try:
            seq = await self.store.append_action(
                hosted.id, hosted.seq, actor, json.dumps(action_json, ensure_ascii=False),
                json.dumps(to_dict(game)), now=self.clock(), results=results)
        except StaleSequence:
            self.forget(hosted.id)
            raise ServiceError("service.stale") from None
        hosted = replace(hosted, game=game, seq=seq, status=FINISHED if game.over else ACTIVE)
        self._remember(hosted)
        public, private = split_events(events)
        eff = Effects(hosted.id, hosted.channel_id, seq, actor=actor, public=public,
                      private=private, changed=changed_seats(public), to_move=game.to_move(),
                      over=game.over)
        if game.over:
            eff.scores = game.scores()
            await self.scheduler.cancel(hosted.id)
        else:
            await self._schedule_bot(hosted, eff)
        return eff

    @staticmethod
    def _bot_to_move(hosted):
        return any(hosted.seats[s].is_bot for s in hosted.game.to_move())

    async def _schedule_bot(self, hosted, eff):
        """If a computer player is to move, say so in `eff` and schedule its move."""
        if self._bot_to_move(hosted):
            eff.bot_turn = True
            await self._schedule_bot_move(hosted)

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


def _hosted(row, seats, game):
    """A HostedGame from the store's rows (the only place that reads them)."""
    board = game.board if game is not None else load_board(row.map, row.variant)
    return HostedGame(
        id=row.id, seq=row.seq, status=row.status, guild_id=row.guild_id,
        channel_id=row.channel_id, host_id=row.host_id, map_id=row.map, variant=row.variant,
        board=board, game=game, seed=row.seed,
        seats=tuple(SeatInfo(number=s.seat, user_id=s.user_id, name=s.display_name,
                             level=LEVEL_NAMES.get(s.bot_level, "medium") if s.is_bot else None,
                             former_user_id=s.former_user_id) for s in seats))


def _unique(names):
    out = []
    for n in names:
        k, i = n, 2
        while k in out:
            k, i = f"{n} ({i})", i + 1
        out.append(k)
    return out


def _seat_results(hosted, game):
    players, winners = game.scores()
    # competition ranking: a higher total is ahead; on equal totals the tie-break winners are
    # ahead; players still equal share a rank
    key = [(pl["total"], p in winners) for p, pl in enumerate(players)]
    rank = {p: 1 + sum(1 for k in key if k > key[p]) for p in range(game.n)}
    return [SeatResult(seat=p, user_id=hosted.seats[p].user_id, score=players[p]["total"],
                       rank=rank[p], won=p in winners,
                       tickets_completed=players[p]["tickets_completed"],
                       former_user_id=hosted.seats[p].former_user_id) for p in range(game.n)]
