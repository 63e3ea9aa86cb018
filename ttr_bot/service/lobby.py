"""The lobby: open one in a channel, take and leave seats, add computer players, start, cancel.

Mixed into GameService (uses its lock, loading and bot scheduling). Every operation re-reads
the game under its lock, so two players racing for the last seat cannot both get it.
"""
import json
from dataclasses import asdict, replace

from ..engine.dealer import Dealer
from ..engine.game import Game
from ..engine.snapshot import to_dict
from ..maps import MapError, variants
from ..store import ChannelBusy, NewTimer, Owed, SeatTaken
from .effects import Effects, ServiceError
from .hosted import CANCELLED, LOBBY
from .levels import BOT_LEVELS
from .owed import channel_row, dm_row
from .turns import (
    AWAY_MODES,
    DAY,
    DEADLINES,
    DEFAULT_DEADLINE,
    LOBBY_DAYS,
    LOBBY_EXPIRE,
    LOBBY_WARN,
    LOBBY_WARN_DAYS,
    REMINDS,
    GameOptions,
)


def game_options(options):
    """The /ttr new options with the time settings (deadline, remind, away) checked and their
    defaults filled in: ServiceError for a value that is not offered. Other settings pass
    through as given (each feature checks its own)."""
    options = dict(options or {})
    out = {**GameOptions(deadline=DEFAULT_DEADLINE).to_dict(), **options}
    bad = [k for k, allowed in (("deadline", DEADLINES), ("remind", REMINDS), ("away", AWAY_MODES))
           if out[k] not in allowed]
    if bad:
        raise ServiceError("service.bad_option", option=", ".join(bad))
    return out


class Lobby:
    async def open_lobby(self, *, guild_id, channel_id, user_id, name, map_id, variant="base",
                         options=None):
        """Open a lobby; `options` are the game's settings (deadline, remind, away; the
        defaults where missing), kept in the game's options."""
        try:
            if variant not in variants(map_id):
                raise ServiceError("service.unknown_variant", map=map_id, variant=variant)
        except (KeyError, MapError, FileNotFoundError):
            raise ServiceError("service.unknown_map", map=map_id) from None
        settings = game_options(options)
        seed = self.seeds.randrange(2 ** 62)
        now = self.clock()
        # a lobby nobody starts is warned, then closed: its timers go in with it
        owed = Owed(timers=(NewTimer(LOBBY_WARN, now + LOBBY_WARN_DAYS * DAY, {}),
                            NewTimer(LOBBY_EXPIRE, now + LOBBY_DAYS * DAY, {})))
        try:   # the game and its host's seat in one transaction: never a lobby without a host
            game_id = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, map=map_id, variant=variant,
                options=settings, seed=seed, host_id=user_id, now=now, host_name=name,
                owed=owed)
        except ChannelBusy:
            raise ServiceError("service.channel_busy") from None
        self._committed(owed)
        return await self._reload(game_id)

    async def join(self, channel_id, user_id, name):
        hosted = await self._lobby(channel_id)
        async with self.lock(hosted.id):
            hosted = await self._reload(hosted.id)
            if hosted.seat_of(user_id) is not None:
                raise ServiceError("service.already_seated")
            await self._add_seat(hosted, user_id=user_id, name=name)
            return await self._reload(hosted.id)

    async def add_bot(self, channel_id, user_id, level):
        if level not in BOT_LEVELS:
            raise ServiceError("service.unknown_level", level=level)
        hosted = await self._lobby(channel_id)
        async with self.lock(hosted.id):
            hosted = await self._reload(hosted.id)
            if hosted.seat_of(user_id) is None:
                raise ServiceError("service.not_seated")
            n_bots = sum(1 for s in hosted.seats if s.is_bot)
            await self._add_seat(hosted, user_id=None, name=f"Bot {n_bots + 1} ({level})",
                                 bot_level=BOT_LEVELS[level])
            return await self._reload(hosted.id)

    async def _add_seat(self, hosted, *, user_id, name, bot_level=None):
        if len(hosted.seats) >= hosted.board.rules.max_players:
            raise ServiceError("service.lobby_full", count=hosted.board.rules.max_players)
        try:
            number = max((s.number for s in hosted.seats), default=-1) + 1
            await self.store.add_seat(hosted.id, number, user_id=user_id,
                                      display_name=name, bot_level=bot_level)
        except SeatTaken:
            raise ServiceError("service.already_seated") from None

    async def leave(self, channel_id, user_id):
        """Leave a lobby. Stored seat numbers may then have gaps: the game's seats are the
        stored seats in order, so the seat order stays the join order."""
        hosted = await self._lobby(channel_id)
        async with self.lock(hosted.id):
            hosted = await self._reload(hosted.id)
            seat = hosted.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_seated")
            if user_id == hosted.host_id:
                raise ServiceError("service.host_cannot_leave")
            await self.store.remove_seat(hosted.id, hosted.seats[seat].number)
            return await self._reload(hosted.id)

    async def start(self, channel_id, user_id):
        hosted = await self._lobby(channel_id)
        async with self.lock(hosted.id):
            hosted = await self._reload(hosted.id)
            if user_id != hosted.host_id:
                raise ServiceError("service.host_only")
            rules = hosted.board.rules
            n = len(hosted.seats)
            if not rules.min_players <= n <= rules.max_players:
                raise ServiceError("service.player_count", min=rules.min_players,
                                   max=rules.max_players)
            game = Game(hosted.board, n, Dealer(hosted.seed))
            started = replace_game(hosted, game, self.clock())
            owed = await self._owed_for_start(started)
            await self.store.start_game(hosted.id, json.dumps(to_dict(game)), now=self.clock(),
                                        owed=Owed(owed.outbox, owed.timers,
                                                  (LOBBY_WARN, LOBBY_EXPIRE)))
            self._committed(owed)
            hosted = await self._reload(hosted.id)
            return Effects(hosted.id, hosted.channel_id, 0, started=True,
                           changed=set(range(n)), to_move=game.to_move(),
                           bot_turn=self._bot_to_move(hosted))

    async def cancel(self, channel_id, user_id, *, is_admin=False):
        hosted = await self._channel_game(channel_id)
        async with self.lock(hosted.id):
            if user_id != hosted.host_id and not is_admin:
                raise ServiceError("service.cancel_denied")
            return await self._cancel(hosted)

    async def _cancel(self, hosted, *, reason=None, handover=None, dm_key=None):
        """Under the game's lock. The channel is told (with `reason` and the last human's
        `handover`, if that is why); with `dm_key`, every human by DM too."""
        payload = {"reason": reason, "handover": None if handover is None else asdict(handover)}
        rows = [channel_row(hosted, "cancel", payload, key=f"cancel:{hosted.id}")]
        if dm_key is not None:
            rows += [dm_row(u, dm_key, game_id=hosted.id, key_id=f"closed:{hosted.id}:{u}",
                            channel=f"<#{hosted.channel_id}>")
                     for u in hosted.user_ids()]
        owed = Owed(tuple(rows))
        await self.store.set_status(hosted.id, CANCELLED, now=self.clock(), reason=reason,
                                    owed=owed)
        self.forget(hosted.id)
        self._committed(owed)
        return Effects(hosted.id, hosted.channel_id, hosted.seq, cancelled=True,
                       handover=handover)

    async def _lobby(self, channel_id):
        hosted = await self._channel_game(channel_id)
        if hosted.status != LOBBY:
            raise ServiceError("service.already_started")
        return hosted


def replace_game(hosted, game, now):
    """The lobby's HostedGame as the game it becomes when started."""
    return replace(hosted, game=game, status="active", seq=0, updated_at=now)
