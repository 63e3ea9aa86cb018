"""The lobby: open one in a channel, take and leave seats, add and remove seats, start, cancel.

A collaborator of the service's core (its lock, loading, closing a game); registers the
lobby's timers, LOBBY_WARN and LOBBY_EXPIRE, with the scheduler. Every operation re-reads
the game under its lock and checks it is still in the lobby, so two players racing for the last
seat cannot both get it, and a join racing with the start is told the game has started. Only
the host (and a member with Manage Server, `is_admin`) adds computer players and removes seats:
a table is the host's to set, as on Board Game Arena.

One member cannot fill a server with lobbies: a member hosts at most MEMBER_LOBBIES lobbies
(games not started yet) per server and a server has at most SERVER_LOBBIES; the refusal names
the limit and how to cancel one (`/ttr cancel` in its channel, linked). The count and the new
lobby are one step under the server's lock, so a burst of `/ttr new` cannot slip past it (a
server's commands all reach the one process serving its shard).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..bounded import KeyedLocks
from ..engine.dealer import Dealer
from ..engine.game import Game
from ..engine.snapshot import to_dict
from ..i18n import LOCALES
from ..maps import MapError, variants
from ..store import ChannelBusy, GameStore, NewTimer, OutboxStore, Owed, SeatStore, SeatTaken, WrongStatus
from .core_contract import CoreContract
from .effects import Effects, ServiceError
from .hints import GAME_HINTS
from .hosted import LOBBY, HostedGame
from .levels import BOT_LEVELS
from .owed import dm_row, notice_row
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


# the option saying which language the game's public posts and board are in (a locale of
# i18n.LOCALES, fixed when the lobby opens; a rematch copies it with the other options)
class LobbyStore(GameStore, SeatStore, OutboxStore, Protocol):
    """The store's subjects this part uses: games, their seats, what a change owes."""


GAME_LANGUAGE = "language"
# the option saying which colours the game's public pictures are in (/ttr new colours:), one of
# PALETTES (render/palette.py SCHEMES); absent: the standard ones
GAME_PALETTE = "palette"
PALETTES = ("standard", "colourblind")
# GAME_HINTS (hosted.py): True when the host allowed /ttr hint; such a game is never rated


def game_options(options):
    """The /ttr new options with the time settings (deadline, remind, away) checked and their
    defaults filled in: ServiceError for a value that is not offered. Other settings pass
    through as given (each feature checks its own)."""
    options = dict(options or {})
    out = {**GameOptions(deadline=DEFAULT_DEADLINE).to_dict(), **options}
    bad = [k for k, allowed in (("deadline", DEADLINES), ("remind", REMINDS), ("away", AWAY_MODES))
           if out[k] not in allowed]
    if GAME_LANGUAGE in out and out[GAME_LANGUAGE] not in LOCALES:
        bad.append(GAME_LANGUAGE)
    if GAME_PALETTE in out and out[GAME_PALETTE] not in PALETTES:
        bad.append(GAME_PALETTE)
    if GAME_HINTS in out and not isinstance(out[GAME_HINTS], bool):
        bad.append(GAME_HINTS)
    if bad:
        raise ServiceError("service.bad_option", option=", ".join(bad))
    return out

REMATCH_OF = "rematch_of"     # the option a rematch's lobby carries: the game it replays

MEMBER_LOBBIES = 2     # lobbies one member may host at once in a server (rematches included)
SERVER_LOBBIES = 25    # lobbies a server may have open at once (a thread each, by default)


def check_table(map_id, variant="base"):
    """ServiceError unless the map and its variant exist (what /ttr new checks first)."""
    try:
        if variant not in variants(map_id):
            raise ServiceError("service.unknown_variant", map=map_id, variant=variant)
    except (KeyError, MapError, FileNotFoundError):
        raise ServiceError("service.unknown_map", map=map_id) from None


@dataclass(frozen=True)
class Rematch:
    lobby: HostedGame             # the new lobby, its host seated (and the computer players)
    invited: tuple                # the other players of the game, to be asked to join


class Lobby:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: LobbyStore = core.store
        self._guild_locks = KeyedLocks()       # one lobby count at a time per server
        self.member_lobbies, self.server_lobbies = MEMBER_LOBBIES, SERVER_LOBBIES
        core.scheduler.on(LOBBY_WARN, self._on_lobby_warn)
        core.scheduler.on(LOBBY_EXPIRE, self._on_lobby_expire)

    async def open_lobby(self, *, guild_id: int | None, channel_id: int, user_id: int,
                         name: str, map_id: str, variant: str = "base",
                         options: dict | None = None) -> HostedGame:
        """A new lobby in the channel, its host in seat 0. `options` are the game's settings
        (deadline, remind, away: the defaults where missing; and other features' as given:
        `thread`, the rematch's `rematch_of`, ...), kept with the game."""
        check_table(map_id, variant)
        settings = game_options(options)
        if guild_id is None:
            return await self._create(guild_id, channel_id, user_id, name, map_id, variant,
                                      settings)
        async with self._guild_locks[guild_id]:
            await self.lobby_room(guild_id, user_id)
            return await self._create(guild_id, channel_id, user_id, name, map_id, variant,
                                      settings)

    async def lobby_room(self, guild_id: int | None, user_id: int) -> None:
        """ServiceError unless the member may open one more lobby in the server: they host
        fewer than MEMBER_LOBBIES (the refusal links theirs) and the server has fewer than
        SERVER_LOBBIES. The adapter asks before it opens a thread for the lobby."""
        if guild_id is None:
            return
        lobbies = await self.store.lobbies_in_guild(guild_id)
        mine = [g for g in lobbies if g.host_id == user_id]
        if len(mine) >= self.member_lobbies:
            raise ServiceError("service.lobby_cap_member", limit=self.member_lobbies,
                               lobbies=", ".join(f"<#{g.channel_id}>" for g in mine))
        if len(lobbies) >= self.server_lobbies:
            raise ServiceError("service.lobby_cap_server", limit=self.server_lobbies)

    async def _create(self, guild_id: int | None, channel_id: int, user_id: int, name: str,
                      map_id: str, variant: str, settings: dict) -> HostedGame:
        seed = self.core.seeds.randrange(2 ** 62)
        now = self.core.clock()
        # a lobby nobody starts is warned, then closed: its timers go in with it
        owed = Owed(timers=(NewTimer(LOBBY_WARN, now + LOBBY_WARN_DAYS * DAY, {}),
                            NewTimer(LOBBY_EXPIRE, now + LOBBY_DAYS * DAY, {})))
        try:   # the game and its host's seat in one transaction: never a lobby without a host
            game_id = await self.core.write_game(None, self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, map=map_id, variant=variant,
                options=settings, seed=seed, host_id=user_id, now=now, host_name=name,
                owed=owed), owed)
        except ChannelBusy:
            raise ServiceError("service.channel_busy") from None
        return await self.core.reload(game_id)

    async def rematch(self, game_id: int, user_id: int, name: str) -> Rematch:
        """A lobby for the same table as the finished game: its channel, map, variant and
        settings, the clicking player as host, its computer players seated again; the other
        players are `invited` (each joins to confirm). Only a player of that game may ask; if
        the channel already has the rematch's lobby, `service.rematch_open` says so."""
        old: Any = await self.core.load(game_id)
        if old is None or not old.is_finished:
            raise ServiceError("service.not_finished")
        players = old.players()
        if user_id not in players:
            raise ServiceError("service.rematch_not_player")
        options = {**old.options, REMATCH_OF: old.id}
        try:
            hosted = await self.open_lobby(
                guild_id=old.guild_id, channel_id=old.channel_id, user_id=user_id, name=name,
                map_id=old.map_id, variant=old.variant, options=options)
        except ServiceError as exc:
            busy = await self.core.game_in_channel(old.channel_id)
            if busy is not None and busy.options.get(REMATCH_OF) == old.id:
                raise ServiceError("service.rematch_open") from None
            raise exc from None
        async with self.core.lock(hosted.id):
            for seat in old.seats:
                if seat.is_bot and seat.former_user_id is None:   # a computer from the start
                    await self._add_seat(await self.core.reload(hosted.id), user_id=None,
                                         name=seat.name, bot_level=BOT_LEVELS[seat.level])
            hosted = await self.core.reload(hosted.id)
        return Rematch(hosted, tuple(u for u in dict.fromkeys(players) if u != user_id))

    async def join(self, channel_id: int, user_id: int, name: str) -> HostedGame:
        hosted = await self._lobby(channel_id)
        async with self.core.lock(hosted.id):
            hosted = await self._still_lobby(hosted.id)
            if hosted.seat_of(user_id) is not None:
                raise ServiceError("service.already_seated")
            await self._add_seat(hosted, user_id=user_id, name=name)
            return await self.core.reload(hosted.id)

    async def add_bot(self, channel_id: int, user_id: int, level: str, *,
                      is_admin: bool = False) -> HostedGame:
        if level not in BOT_LEVELS:
            raise ServiceError("service.unknown_level", level=level)
        hosted = await self._lobby(channel_id)
        async with self.core.lock(hosted.id):
            hosted = await self._still_lobby(hosted.id)
            if user_id != hosted.host_id and not is_admin:
                raise ServiceError("service.addbot_host_only")
            n_bots = sum(1 for s in hosted.seats if s.is_bot)
            await self._add_seat(hosted, user_id=None, name=f"Bot {n_bots + 1} ({level})",
                                 bot_level=BOT_LEVELS[level])
            return await self.core.reload(hosted.id)

    async def _add_seat(self, hosted, *, user_id, name, bot_level=None):
        if len(hosted.seats) >= hosted.board.rules.max_players:
            raise ServiceError("service.lobby_full", count=hosted.board.rules.max_players)
        try:
            number = max((s.number for s in hosted.seats), default=-1) + 1
            await self.core.write_game(hosted.id, self.store.add_seat(
                hosted.id, number, user_id=user_id, display_name=name, bot_level=bot_level))
        except SeatTaken:
            raise ServiceError("service.already_seated") from None
        except WrongStatus:     # started by another process meanwhile
            raise ServiceError("service.already_started") from None

    async def leave(self, channel_id: int, user_id: int) -> HostedGame:
        """Leave a lobby. Stored seat numbers may then have gaps: the game's seats are the
        stored seats in order, so the seat order stays the join order."""
        hosted = await self._lobby(channel_id)
        async with self.core.lock(hosted.id):
            hosted = await self._still_lobby(hosted.id)
            seat = hosted.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_seated")
            if user_id == hosted.host_id:
                raise ServiceError("service.host_cannot_leave")
            return await self._remove_seat(hosted, hosted.seats[seat].number)

    async def remove_seat(self, channel_id: int, user_id: int, number: int, *,
                          is_admin: bool = False) -> HostedGame:
        """The host (or an admin) takes a seat away before the start: a player who went quiet,
        or a computer player somebody added. `number` is the seat's stored number."""
        hosted = await self._lobby(channel_id)
        async with self.core.lock(hosted.id):
            hosted = await self._still_lobby(hosted.id)
            if user_id != hosted.host_id and not is_admin:
                raise ServiceError("service.remove_host_only")
            seat = next((s for s in hosted.seats if s.number == number), None)
            if seat is None:
                raise ServiceError("service.no_such_seat", seat=number + 1)
            if seat.user_id == hosted.host_id:
                raise ServiceError("service.host_cannot_leave")
            return await self._remove_seat(hosted, number)

    async def _remove_seat(self, hosted, number):
        try:
            await self.core.write_game(hosted.id, self.store.remove_seat(hosted.id, number))
        except WrongStatus:
            raise ServiceError("service.already_started") from None
        return await self.core.reload(hosted.id)

    async def start(self, channel_id: int, user_id: int) -> Effects:
        hosted = await self._lobby(channel_id)
        async with self.core.lock(hosted.id):
            hosted = await self._still_lobby(hosted.id)
            if user_id != hosted.host_id:
                raise ServiceError("service.host_only")
            return await self._begin(hosted)

    async def _begin(self, hosted: HostedGame) -> Effects:
        """Start the lobby's game (under its lock)."""
        rules = hosted.board.rules
        n = len(hosted.seats)
        if not rules.min_players <= n <= rules.max_players:
            raise ServiceError("service.player_count", min=rules.min_players,
                               max=rules.max_players)
        game = Game(hosted.board, n, Dealer(hosted.seed))
        started = replace_game(hosted, game, self.core.clock())
        owed = await self.core.owing.for_start(started)
        try:
            await self.core.write_game(hosted.id, self.store.start_game(
                hosted.id, json.dumps(to_dict(game)), now=self.core.clock(),
                owed=Owed(owed.outbox, owed.timers, (LOBBY_WARN, LOBBY_EXPIRE))), owed)
        except WrongStatus:
            raise ServiceError("service.already_started") from None
        hosted = await self.core.reload(hosted.id)
        return Effects(hosted.id, 0, to_move=game.to_move())

    async def open_table(self, *, guild_id: int | None, channel_id: int, host_id: int,
                         seats: list[tuple[int | None, str, str | None]], map_id: str,
                         variant: str, options: dict) -> HostedGame:
        """A game started at once with its table set (a cup's round): `seats` in order, each
        (user id, name, None) for a player or (None, name, level) for a computer player; the
        host (`host_id`) need not be seated. ServiceError("service.channel_busy") if the
        channel has an open game; no lobby caps (the table is not a lobby anyone opened)."""
        check_table(map_id, variant)
        settings = game_options(options)
        try:
            game_id = await self.core.write_game(None, self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, map=map_id, variant=variant,
                options=settings, seed=self.core.seeds.randrange(2 ** 62), host_id=host_id,
                now=self.core.clock()))
        except ChannelBusy:
            raise ServiceError("service.channel_busy") from None
        async with self.core.lock(game_id):
            for user_id, name, level in seats:
                hosted = await self.core.reload(game_id)
                await self._add_seat(hosted, user_id=user_id, name=name,
                                     bot_level=None if level is None else BOT_LEVELS[level])
            await self._begin(await self.core.reload(game_id))
            return await self.core.reload(game_id)

    async def cancel(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> Effects:
        hosted = await self.core.channel_game(channel_id)
        async with self.core.lock(hosted.id):
            if user_id != hosted.host_id and not is_admin:
                raise ServiceError("service.cancel_denied")
            return await self.core.cancel(hosted)

    async def _lobby(self, channel_id):
        hosted = await self.core.channel_game(channel_id)
        if hosted.status != LOBBY:
            raise ServiceError("service.already_started")
        return hosted

    async def _still_lobby(self, game_id):
        """Under the game's lock: the game as stored now, refused unless still in the lobby."""
        hosted = await self.core.reload(game_id)
        if hosted is None or hosted.status != LOBBY:
            raise ServiceError("service.already_started" if hosted is not None and hosted.started
                               else "service.no_game")
        return hosted

    async def _on_lobby_warn(self, timer):
        async with self.core.lock(timer.game_id):
            self.core.forget(timer.game_id)
            hosted = await self.core.load(timer.game_id)
            if hosted is None or not hosted.is_lobby:
                return
            owed = Owed((
                notice_row(hosted, "bot.lobby.closing", ping=(hosted.host_id,),
                           key_id=f"lobbywarn:{hosted.id}", mention=f"<@{hosted.host_id}>"),
                dm_row(hosted.host_id, "bot.lobby.closing_dm", game_id=hosted.id,
                       key_id=f"lobbywarn:{hosted.id}:dm", channel=f"<#{hosted.channel_id}>")))
            await self.store.write_owed(owed, hosted.id, self.core.clock())
            self.core.committed(owed)

    async def _on_lobby_expire(self, timer):
        async with self.core.lock(timer.game_id):
            self.core.forget(timer.game_id)
            hosted = await self.core.load(timer.game_id)
            if hosted is None or not hosted.is_lobby:
                return
            await self.core.cancel(hosted, reason="lobby_expired")


def replace_game(hosted, game, now):
    """The lobby's HostedGame as the game it becomes when started."""
    return replace(hosted, game=game, status="active", seq=0, updated_at=now)
