"""The live board: one message per server, in the channel /ttr server board chose, edited in
place with the server's games in progress, its open lobbies (with Join buttons), its running
cups and the season's top five. A collaborator of the service's core (and of `Seasons`) with
its own store subject (`BoardStore`); registers BoardTick with the scheduler.

Edits are coalesced: a durable timer looks at the board every BOARD_INTERVAL (60 s; every
BOARD_IDLE, 5 minutes, while the server has no game, lobby or cup open), builds its sections
as plain data, and owes an edit (a `BoardPost` row in the outbox, like every other post) only when their hash
differs from the one last owed and no earlier edit of it is still unsent. So a board is edited
at most once a minute however busy the server is, and not at all while nothing changes;
times are Discord timestamps, which each reader's client shows counting, so the passing of
time changes nothing. The adapter posts a new message when the old one is gone.

Sections are registered by name, in order (`register`): games, lobbies, cups (empty until
cups exist: that feature registers its producer in its place), season. Each is a coroutine
function of the guild id returning its items (plain JSON values); the adapter draws a section
by its name.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..store import BoardRow, BoardStore, NewTimer, OutboxItem, Owed, Timer, board_store
from .community_messages import BoardPost, BoardSection
from .core_contract import CoreContract
from .effects import ServiceError
from .messages import Lane
from .owed import dm_row
from .seasons import Seasons
from .turns import DEADLINE

BOARD_INTERVAL = 60.0       # at most one edit per this many seconds
BOARD_IDLE = 300.0          # how often a board of a server with nothing open is looked at
TOP = 5                     # the season's players shown
Items = tuple[dict[str, Any], ...]
Section = Callable[[int], Awaitable[Items]]


@dataclass(frozen=True, slots=True)
class BoardTick:
    """The board's timer: the server, and the chain (the setting's time) it belongs to."""
    KIND: ClassVar[str] = "board_tick"
    guild: int
    chain: float

    def to_payload(self) -> dict[str, Any]:
        return {"guild": self.guild, "chain": self.chain}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> BoardTick:
        return cls(int(payload["guild"]), float(payload["chain"]))


def digest(sections: tuple[BoardSection, ...]) -> str:
    """The hash of what the board shows (its sections, as their canonical JSON)."""
    text = json.dumps([[s.name, list(s.items)] for s in sections], sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


async def _nothing(guild_id: int) -> Items:
    return ()


class ServerBoard:
    def __init__(self, core: CoreContract, seasons: Seasons, store: BoardStore | None = None) -> None:
        self.core = core
        self.seasons = seasons
        self.store: BoardStore = store if store is not None else board_store(core.store)
        self.sections: dict[str, Section] = {}
        self.register("games", self._games)
        self.register("lobbies", self._lobbies)
        self.register("cups", _nothing)     # cups register their producer here
        self.register("season", self._season)
        core.scheduler.on(BoardTick.KIND, self._on_tick)

    def register(self, name: str, producer: Section) -> None:
        """A section of the board (a name already registered keeps its place, with the new
        producer)."""
        self.sections[name] = producer

    # ----- settings ---------------------------------------------------------------------------
    async def board(self, guild_id: int) -> BoardRow | None:
        return await self.store.get_board(guild_id)

    async def set_board(self, guild_id: int, channel_id: int, user_id: int, *,
                        told: bool = False) -> BoardRow:
        """The board goes to this channel (moved from another, or set up): looked at now.
        `told`: the member was just told the bot cannot post there, so its refusal is not
        sent to them again by DM (until a post goes through)."""
        before = await self.board(guild_id)
        # the setting's time names its chain of ticks: never the same as the last one's
        chain = max(self.core.clock(), before.set_at + 1e-3 if before is not None else 0.0)
        owed = Owed(timers=(NewTimer(BoardTick.KIND, self.core.clock(),
                                     BoardTick(guild_id, chain).to_payload()),))
        await self.store.set_board(guild_id, channel_id, set_by=user_id, now=chain, owed=owed,
                                   told=told)
        self.core.committed(owed)
        board = await self.board(guild_id)
        assert board is not None
        return board

    async def stop(self, guild_id: int) -> BoardRow:
        """No board any more (its message stays as it is). ServiceError if there was none."""
        board = await self.board(guild_id)
        if board is None or not await self.store.clear_board(guild_id):
            raise ServiceError("service.board.none")
        return board

    # ----- what the adapter reports ---------------------------------------------------------------
    async def posted(self, guild_id: int, channel_id: int, message_id: int | None) -> bool:
        """The board's message is now `message_id` (None: gone, post a new one); a post went
        through, so a refusal is over. False if the board moved meanwhile."""
        await self.store.board_works(guild_id)
        return await self.store.set_board_message(guild_id, channel_id, message_id)

    async def refused(self, guild_id: int, channel_id: int, missing: list[str]) -> bool:
        """Discord refused the board's channel: the member who set the board up is told by DM
        which permission is missing, once per refusal (until a post goes through). True if
        told now."""
        board = await self.board(guild_id)
        if board is None or board.channel_id != channel_id:
            return False
        now = self.core.clock()
        if not await self.store.board_refused(guild_id, now):
            return False
        owed = Owed((dm_row(board.set_by, "bot.live.refused_dm", channel=f"<#{channel_id}>",
                            missing=list(missing), key_id=f"board:{guild_id}:{int(now)}"),))
        await self.store.write_owed(owed, None, now)
        self.core.committed(owed)
        return True

    # ----- the board --------------------------------------------------------------------------
    async def content(self, guild_id: int) -> tuple[BoardSection, ...]:
        return tuple([BoardSection(name, tuple(await producer(guild_id)))
                      for name, producer in self.sections.items()])

    async def _on_tick(self, timer: Timer) -> None:
        tick = BoardTick.from_payload(timer.payload)
        board = await self.board(tick.guild)
        if board is None or abs(board.set_at - tick.chain) > 1e-6:
            return                      # no board, or set again: another chain runs
        sections = await self.content(tick.guild)
        busy = any(s.items for s in sections if s.name in ("games", "lobbies", "cups"))
        now = self.core.clock()
        following = Owed(timers=(NewTimer(BoardTick.KIND,
                                          now + (BOARD_INTERVAL if busy else BOARD_IDLE),
                                          tick.to_payload()),))
        if not await self.store.tick_board(tick.guild, set_at=tick.chain, now=now,
                                           min_gap=BOARD_INTERVAL / 2, owed=following):
            return                      # this tick fired twice: one chain goes on
        self.core.committed(following)
        hashed = digest(sections)
        if hashed == board.digest:
            return
        post = BoardPost(tick.guild, hashed, sections)
        edit = Owed((OutboxItem(post.KIND, str(Lane.channel(board.channel_id)),
                                post.to_payload()),))
        if await self.store.owe_board(tick.guild, hashed, channel_id=board.channel_id,
                                      set_at=tick.chain, now=now, owed=edit):
            self.core.committed(edit)

    async def _open_games(self, guild_id: int) -> list[Any]:
        out = []
        for game_id in await self.store.open_games_in_guild(guild_id):
            hosted = await self.core.load(game_id)
            if hosted is not None and hosted.is_open:
                out.append(hosted)
        return out

    async def _games(self, guild_id: int) -> Items:
        items = []
        for hosted in await self._open_games(guild_id):
            if not hosted.is_active or hosted.game is None:
                continue
            timers = await self.store.list_timers(hosted.id, DEADLINE)
            items.append({
                "game": hosted.id, "channel": hosted.channel_id, "map": hosted.map_id,
                "turn": [hosted.seats[s].name for s in hosted.game.to_move()],
                "since": round(hosted.updated_at),
                "deadline": round(min(t.due_at for t in timers)) if timers else None})
        return tuple(items)

    async def _lobbies(self, guild_id: int) -> Items:
        return tuple({"game": h.id, "channel": h.channel_id, "map": h.map_id,
                      "host": h.host_name or "", "seats": len(h.seats),
                      "max": h.board.rules.max_players}
                     for h in await self._open_games(guild_id) if h.is_lobby)

    async def _season(self, guild_id: int) -> Items:
        if await self.seasons.settings(guild_id) is None:
            return ()
        table = await self.seasons.standings(guild_id)
        return tuple({"rank": line.rank, "name": line.name, "points": line.points,
                      "games": line.games, "season": table.season.name}
                     for line in table.lines[:TOP])
