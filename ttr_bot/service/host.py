"""The game host between the Discord adapter and the engine.

Every change goes the same way: take the game's lock, load it (from a bounded cache or the
store), let the engine validate and apply the action, write the log row and the new snapshot
in one transaction, and only then return `Effects` saying who must be told what. Nothing here
imports discord; the store is reached only through its interface.
"""
import asyncio
import json
import logging
import random
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, replace

from ..engine.dealer import Dealer
from ..engine.errors import DeckError, Illegal
from ..engine.game import Game
from ..engine.snapshot import from_dict, to_dict
from ..engine.view import view
from ..maps import MapError, load_board, variants
from ..record_format import action_from_json, action_to_json, export_record
from ..store import ChannelBusy, CorruptLog, CorruptSnapshot, SeatResult, SeatTaken, StaleSequence
from .effects import Effects, ServiceError, changed_seats, split_events
from .handover import SeatHandover
from .levels import BOT_LEVELS, LEVEL_NAMES

log = logging.getLogger(__name__)
SEAT_NAMES = [str(i) for i in range(5)]   # how the action log names seats


@dataclass
class Loaded:
    """One game as the host holds it. `game` is None while in the lobby. Callers outside the
    service treat it as read-only."""
    row: object          # store.Game
    seats: list          # store.Seat, in seat order
    game: object = None  # engine Game

    @property
    def id(self):
        return self.row.id

    def seat_of(self, user_id):
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    def names(self):
        return [s.display_name for s in self.seats]

    def humans(self):
        """The seats humans play, in seat order."""
        return [i for i, s in enumerate(self.seats) if s.user_id is not None]


class GameService(SeatHandover):
    def __init__(self, store, *, clock=time.time, seeds=None, cache_size=256, bot_delay=2.0,
                 timers=None, agents=None):
        self.store = store
        self.clock = clock
        self.seeds = seeds or random.SystemRandom()
        self.cache_size = cache_size
        self.bot_delay = bot_delay
        self.timers = timers            # a store.TimerService, set by the adapter
        self.agents = agents            # level name -> agent factory (ttr_bot.ai.make_agent)
        self._cache = OrderedDict()
        self._locks = weakref.WeakValueDictionary()   # a lock lives while someone holds or awaits it

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
            loaded = Loaded(row, seats)
            if row.status == "lobby":
                break
            corrupt = False
            try:
                snap = await self.store.load_snapshot(game_id)
            except CorruptSnapshot:
                log.error("game %s: snapshot unreadable, rebuilding from the action log", game_id)
                snap, corrupt = None, True
            if snap is None and not corrupt and row.status == "cancelled":
                break  # cancelled in the lobby: it never had a game to rebuild
            if snap is not None and snap.seq != row.seq:
                continue  # an action was committed between the two reads: read both again
            board = load_board(row.map, row.variant)
            loaded.game = from_dict(board, snap.state) if snap else await self.rebuild(game_id)
            break
        else:
            raise ServiceError("service.stale")  # the game keeps moving under us
        self._remember(loaded)
        return loaded

    def _remember(self, loaded):
        self._cache[loaded.id] = loaded
        self._cache.move_to_end(loaded.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id):
        self._cache.pop(game_id, None)

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

    async def for_channel(self, channel_id):
        row = await self.store.find_open_game(channel_id)
        return None if row is None else await self.load(row.id)

    async def _channel_game(self, channel_id):
        loaded = await self.for_channel(channel_id)
        if loaded is None:
            raise ServiceError("service.no_game")
        return loaded

    # ----- lobby --------------------------------------------------------------------------
    async def open_lobby(self, *, guild_id, channel_id, user_id, name, map_id, variant="base"):
        try:
            if variant not in variants(map_id):
                raise ServiceError("service.unknown_variant", map=map_id, variant=variant)
        except (KeyError, MapError, FileNotFoundError):
            raise ServiceError("service.unknown_map", map=map_id) from None
        seed = self.seeds.randrange(2 ** 62)
        try:   # the game and its host's seat in one transaction: never a lobby without a host
            game_id = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, map=map_id, variant=variant,
                options={}, seed=seed, host_id=user_id, now=self.clock(), host_name=name)
        except ChannelBusy:
            raise ServiceError("service.channel_busy") from None
        self.forget(game_id)
        return await self.load(game_id)

    async def join(self, channel_id, user_id, name):
        loaded = await self._lobby(channel_id)
        async with self.lock(loaded.id):
            loaded = await self._reload(loaded.id)
            if loaded.seat_of(user_id) is not None:
                raise ServiceError("service.already_seated")
            await self._add_seat(loaded, user_id=user_id, name=name)
            return await self._reload(loaded.id)

    async def add_bot(self, channel_id, user_id, level):
        if level not in BOT_LEVELS:
            raise ServiceError("service.unknown_level", level=level)
        loaded = await self._lobby(channel_id)
        async with self.lock(loaded.id):
            loaded = await self._reload(loaded.id)
            if loaded.seat_of(user_id) is None:
                raise ServiceError("service.not_seated")
            n_bots = sum(1 for s in loaded.seats if s.user_id is None)
            await self._add_seat(loaded, user_id=None, name=f"Bot {n_bots + 1} ({level})",
                                 bot_level=BOT_LEVELS[level])
            return await self._reload(loaded.id)

    async def _add_seat(self, loaded, *, user_id, name, bot_level=None):
        board = load_board(loaded.row.map, loaded.row.variant)
        if len(loaded.seats) >= board.rules.max_players:
            raise ServiceError("service.lobby_full", count=board.rules.max_players)
        try:
            number = max((s.seat for s in loaded.seats), default=-1) + 1
            await self.store.add_seat(loaded.id, number, user_id=user_id,
                                      display_name=name, bot_level=bot_level)
        except SeatTaken:
            raise ServiceError("service.already_seated") from None

    async def leave(self, channel_id, user_id):
        """Leave a lobby. Stored seat numbers may then have gaps: the game's seats are the
        stored seats in order, so the seat order stays the join order."""
        loaded = await self._lobby(channel_id)
        async with self.lock(loaded.id):
            loaded = await self._reload(loaded.id)
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_seated")
            if user_id == loaded.row.host_id:
                raise ServiceError("service.host_cannot_leave")
            await self.store.remove_seat(loaded.id, loaded.seats[seat].seat)
            return await self._reload(loaded.id)

    async def start(self, channel_id, user_id):
        loaded = await self._lobby(channel_id)
        async with self.lock(loaded.id):
            loaded = await self._reload(loaded.id)
            if user_id != loaded.row.host_id:
                raise ServiceError("service.host_only")
            board = load_board(loaded.row.map, loaded.row.variant)
            n = len(loaded.seats)
            if not board.rules.min_players <= n <= board.rules.max_players:
                raise ServiceError("service.player_count", min=board.rules.min_players,
                                   max=board.rules.max_players)
            game = Game(board, n, Dealer(loaded.row.seed))
            await self.store.start_game(loaded.id, json.dumps(to_dict(game)), now=self.clock())
            loaded = await self._reload(loaded.id)
            eff = Effects(loaded.id, loaded.row.channel_id, 0, started=True,
                          changed=set(range(n)), to_move=game.to_move())
            await self._schedule_bot(loaded, eff)
            return eff

    async def cancel(self, channel_id, user_id, *, is_admin=False):
        loaded = await self._channel_game(channel_id)
        async with self.lock(loaded.id):
            if user_id != loaded.row.host_id and not is_admin:
                raise ServiceError("service.cancel_denied")
            return await self._cancel(loaded)

    async def _cancel(self, loaded):
        """Under the game's lock."""
        await self.store.set_status(loaded.id, "cancelled", now=self.clock())
        if self.timers:
            await self.timers.cancel(loaded.id)
        self.forget(loaded.id)
        return Effects(loaded.id, loaded.row.channel_id, loaded.row.seq, cancelled=True)

    async def _lobby(self, channel_id):
        loaded = await self._channel_game(channel_id)
        if loaded.row.status != "lobby":
            raise ServiceError("service.already_started")
        return loaded

    async def _reload(self, game_id):
        self.forget(game_id)
        return await self.load(game_id)

    # ----- playing --------------------------------------------------------------------------
    async def act(self, game_id, user_id, action, expected_seq=None):
        """Apply a player's action. `expected_seq` is the seq the player's button or view
        showed: a double click or a stale button is refused instead of applied twice."""
        async with self.lock(game_id):
            loaded = await self._active(game_id)
            if expected_seq is not None and expected_seq > loaded.row.seq:
                # the caller saw a newer seq than the cache holds: the cached copy fell behind
                # (another process wrote, or a concurrent load), so ask the store again
                self.forget(game_id)
                loaded = await self._active(game_id)
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_a_player")
            if expected_seq is not None and expected_seq != loaded.row.seq:
                raise ServiceError("service.stale")
            return await self._apply(loaded, replace(action, seat=seat), actor=seat)

    async def play_bot(self, game_id, expected_seq=None):
        """Let a computer player to move take its action; None if none is to move."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            if loaded is None or loaded.row.status != "active":
                return None
            if expected_seq is not None and expected_seq != loaded.row.seq:
                return None
            game = loaded.game
            for seat in game.to_move():
                level = loaded.seats[seat].bot_level
                if level is None:
                    continue
                agent = self.agents(LEVEL_NAMES.get(level, "medium"),
                                    seed=loaded.row.seed ^ (loaded.row.seq * 7919 + seat))
                action = await asyncio.to_thread(agent.act, view(game, seat))
                return await self._apply(loaded, action, actor=seat)
            return None

    async def _active(self, game_id):
        loaded = await self.load(game_id)
        if loaded is None:
            raise ServiceError("service.no_game")
        if loaded.row.status != "active":
            raise ServiceError("service.not_active")
        return loaded

    async def _apply(self, loaded, action, actor):
        game = loaded.game.copy(dealer=None)
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
        results = None
        if game.over:
            results = _seat_results(loaded, game)
        try:
            seq = await self.store.append_action(
                loaded.id, loaded.row.seq, actor, json.dumps(action_json, ensure_ascii=False),
                json.dumps(to_dict(game)), now=self.clock(), results=results)
        except StaleSequence:
            self.forget(loaded.id)
            raise ServiceError("service.stale") from None
        loaded.game = game
        loaded.row = replace(loaded.row, seq=seq, status="finished" if game.over else "active")
        public, private = split_events(events)
        eff = Effects(loaded.id, loaded.row.channel_id, seq, actor=actor, public=public,
                      private=private, changed=changed_seats(public), to_move=game.to_move(),
                      over=game.over)
        if game.over:
            eff.scores = game.scores()
            if self.timers:
                await self.timers.cancel(loaded.id)
        else:
            await self._schedule_bot(loaded, eff)
        return eff

    async def _schedule_bot(self, loaded, eff):
        if any(loaded.seats[s].bot_level is not None for s in eff.to_move):
            eff.bot_turn = True
            if self.timers:
                await self.timers.schedule("bot_move", self.clock() + self.bot_delay,
                                           {"seq": eff.seq}, loaded.id)

    # ----- reading --------------------------------------------------------------------------
    async def player_view(self, game_id, user_id):
        """(seat, PlayerView) of a seated user."""
        loaded = await self._active_or_finished(game_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError("service.not_a_player")
        return seat, view(loaded.game, seat)

    async def _active_or_finished(self, game_id):
        loaded = await self.load(game_id)
        if loaded is None or loaded.game is None:
            raise ServiceError("service.no_game")
        return loaded

    async def export(self, game_id):
        """The game as a ttr-record/1 document, players named by their display names."""
        loaded = await self._active_or_finished(game_id)
        names = _unique(loaded.names())
        actions = []
        for rec in await self.store.load_actions(game_id):
            a = dict(rec.action)
            a["player"] = names[int(a["player"])]
            actions.append(a)
        return export_record(loaded.game, names, actions)


def _unique(names):
    out = []
    for n in names:
        k, i = n, 2
        while k in out:
            k, i = f"{n} ({i})", i + 1
        out.append(k)
    return out


def _seat_results(loaded, game):
    players, winners = game.scores()
    # competition ranking: a higher total is ahead; on equal totals the tie-break winners are
    # ahead; players still equal share a rank
    key = [(pl["total"], p in winners) for p, pl in enumerate(players)]
    rank = {p: 1 + sum(1 for k in key if k > key[p]) for p in range(game.n)}
    return [SeatResult(seat=p, user_id=loaded.seats[p].user_id, score=players[p]["total"],
                       rank=rank[p], won=p in winners,
                       tickets_completed=players[p]["tickets_completed"],
                       former_user_id=loaded.seats[p].former_user_id) for p in range(game.n)]

