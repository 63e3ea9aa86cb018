"""The outbox as the adapter's delivery worker sees it: what is owed, and marking it sent,
retried or given up (a collaborator of the service's core; the worker never touches the
store). The worker gets the service's values (messages.py: `OwedMessage`, `DestinationBlock`,
`Lane`), never the store's rows. Destinations Discord refuses, and the rules for giving one
up, are the adapter's (discord/outbox_worker.py, discord/refusals.py); closing the game there
is the core's."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..store import GameStore, LaneBlock, OutboxItem, OutboxRow, OutboxStore, Owed, PrefStore, VoteStore
from .core_contract import CoreContract
from .messages import ClosingPost, DestinationBlock, Lane, OwedMessage, TurnPost, parse
from .owed import channel_lane, dm_row, notice_row


class QueueStore(OutboxStore, PrefStore, GameStore, VoteStore, Protocol):
    """The store's subjects this part uses: the outbox, users' preferences (DMs closed), a server's
    open games, old votes purged."""


MESSAGE_LEASE = 20.0    # seconds a process may take to send a claimed row before another may
                        # (the worker gives a send up after SEND_TIMEOUT, 15 s)


class DeliveryQueue:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: QueueStore = core.store

    async def owed_messages(self, limit: int = 500) -> list[OwedMessage]:
        """The owed rows of this process's guilds (every guild's without shards), oldest
        first, whatever their destination (tests, tools; the worker reads `deliverable`)."""
        return _owed(await self.store.pending_outbox(limit, shards=self.core.shards))

    async def deliverable(self, lanes: int = 200, per_lane: int = 20) -> list[OwedMessage]:
        """The first owed rows of each destination not refused until later (this process's
        guilds): a destination owing thousands never hides another's."""
        return _owed(await self.store.deliverable_outbox(
            self.core.clock(), lanes=lanes, per_lane=per_lane, shards=self.core.shards))

    async def owed_in_lane(self, lane: Lane) -> list[OwedMessage]:
        """What the destination `lane` (a Lane) owes, oldest first."""
        return _owed(await self.store.owed_in_lane(str(lane)))

    # ----- destinations Discord refuses (discord/refusals.py states the rules) -----------------
    async def destination_refused(self, lane: Lane, retry_in: float, *, code: int | None = None,
                                  guild_id: int | None = None) -> DestinationBlock:
        """Discord refused this destination: none of its rows is tried for `retry_in` seconds
        (the other destinations go on). The block as it is now (attempts 1: it just began)."""
        now = self.core.clock()
        return _block(await self.store.refuse_lane(str(lane), now, now + retry_in,
                                                   guild_id=guild_id, code=code))

    async def destination_blocks(self) -> list[DestinationBlock]:
        return [_block(b) for b in await self.store.lane_blocks(shards=self.core.shards)]

    async def destination_works(self, lane: Lane) -> DestinationBlock | None:
        """A post went through: the block (if any) ends; it as it was, or None."""
        block = await self.store.clear_lane_block(str(lane))
        return None if block is None else _block(block)

    async def retry_destinations(self, lanes: Iterable[Lane]) -> int:
        """A permission may be back (a gateway event said something changed): these refused
        destinations are tried again now, not at the end of their backoff."""
        count = await self.store.retry_lanes_at([str(lane) for lane in lanes], self.core.clock())
        if count and self.core.on_outbox is not None:
            self.core.on_outbox()
        return count

    async def give_up_destination(self, lane: Lane, reason: str) -> int | None:
        """The destination was refused for too long (or the bot left its server): the open game
        posting there is closed (`reason` is its end reason; its host and players are told by
        DM, which goes through another destination), and every row it owes is given up."""
        closed = None
        if lane.is_channel:
            closed = await self._close_for(lane.channel_id, reason)
        await self.fail_lane(lane, f"given up: {reason}", told=closed)
        return closed

    async def fail_lane(self, lane: Lane, error: str, told: int | None = None) -> None:
        """Every row the destination owes is given up. A game whose end (its final post, its
        closing post) was among them, and whose players were not told otherwise (`told`: the
        game closed for this very reason, which said so by DM), has its players told by DM
        that it ended where the bot could not post: nobody learns a game's end from nowhere."""
        ended = {r.game_id for r in await self.owed_in_lane(lane)
                 if r.game_id is not None and r.game_id != told and
                 (isinstance(r.message, ClosingPost) or
                  (isinstance(r.message, TurnPost) and r.message.over))}
        await self.store.fail_outbox_lane(str(lane), error, now=self.core.clock())
        for game_id in sorted(ended):
            hosted = await self.core.load(game_id)
            if hosted is None:
                continue
            await self.owe([dm_row(u, "bot.closed.unseen", game_id=game_id,
                                   key_id=f"unseen:{game_id}:{u}",
                                   channel=f"<#{hosted.channel_id}>")
                            for u in hosted.user_ids()], game_id)

    async def give_up_failing(self, head: OwedMessage, ids: Iterable[int], error: str) -> None:
        """The unit headed by `head` kept failing transiently for a day (a Discord outage, a
        destination that keeps timing out): it is given up, as a refused destination's rows
        are, so the destination's later posts stop waiting behind it; the players of its game
        are told by DM where the post was to go (in a channel: a DM cannot tell a DM's failure),
        once a day, or, when it was the game's end, that it ended where the bot could not say."""
        now = self.core.clock()
        await self.store.mark_outbox_sent(list(ids), now=now, error=error)
        if not head.lane.is_channel or head.game_id is None:
            return
        hosted = await self.core.load(head.game_id)
        if hosted is None:
            return
        ended = isinstance(head.message, ClosingPost) or \
            (isinstance(head.message, TurnPost) and head.message.over)
        channel = f"<#{hosted.channel_id}>"
        if ended:
            rows = [dm_row(u, "bot.closed.unseen", game_id=hosted.id,
                           key_id=f"unseen:{hosted.id}:{u}", channel=channel)
                    for u in hosted.user_ids()]
        else:
            day = int(now // 86400)
            rows = [dm_row(u, "bot.outbox.failing_dm", game_id=hosted.id,
                           key_id=f"failing:{hosted.channel_id}:{day}:{u}", channel=channel)
                    for u in hosted.user_ids()]
        await self.owe(rows, hosted.id)

    async def guild_gone(self, guild_id: int) -> list[int]:
        """The bot was removed from the server (GUILD_DELETE without `unavailable`): its open
        games are closed as a destination given up is (end reason 'removed'), their players
        told by DM where Discord still lets the bot write to them. The game ids closed."""
        closed = []
        for game_id in await self.store.open_games_in_guild(guild_id):
            hosted = await self.core.load(game_id)
            if hosted is None:
                continue
            if await self.give_up_destination(channel_lane(hosted.channel_id), "removed"):
                closed.append(game_id)
        for block in map(_block, await self.store.lane_blocks()):
            if block.guild_id == guild_id:
                await self.fail_lane(block.lane, "given up: removed")
        return closed

    async def _close_for(self, channel_id: int, reason: str) -> int | None:
        hosted = await self.core.game_in_channel(channel_id)
        if hosted is None:
            return None
        async with self.core.lock(hosted.id):
            hosted = await self.core.reload(hosted.id)
            if hosted is None or not hosted.is_open or hosted.channel_id != channel_id:
                return None
            await self.core.cancel(hosted, reason=reason, dm_key=f"bot.closed.{reason}")
        self.core.forget_channel(channel_id)
        return hosted.id

    async def claim_messages(self, ids: Iterable[int], lease: float = MESSAGE_LEASE) -> bool:
        """Before sending these rows: lease them to this process, or False if another process
        is sending them (its lease has not run out). Only on a database several processes
        share; one process alone needs no lease (a restart resends under the same nonce)."""
        if not self.store.shared:
            return True
        return await self.store.claim_outbox(list(ids), self.core.owner, self.core.clock(), lease)

    async def release_messages(self) -> None:
        """This process stops: what it was sending may be claimed again at once."""
        if self.store.shared:
            await self.store.release_outbox(self.core.owner)

    async def delivered(self, ids: Iterable[int], error: str | None = None) -> int:
        return await self.store.mark_outbox_sent(list(ids), now=self.core.clock(), error=error)

    async def retry_later(self, row_id: int, due_at: float) -> int | None:
        return await self.store.retry_outbox(row_id, due_at)

    async def forget_sent(self, older_than: float, votes_older_than: float | None = None) -> int:
        """Housekeeping: rows sent or given up more than `older_than` seconds ago are deleted
        (and the blocks of destinations owing nothing), closed votes after `votes_older_than`."""
        if votes_older_than is not None:
            await self.store.purge_votes(self.core.clock() - votes_older_than)
        return await self.store.purge_outbox(self.core.clock() - older_than)

    async def owe(self, items: Iterable[OutboxItem], game_id: int | None = None) -> None:
        """Record more owed messages (the worker's own: 'tell the host the channel is
        closed to me', 'your DMs are closed')."""
        owed = Owed(tuple(items))
        await self.store.write_owed(owed, game_id, self.core.clock())
        self.core.committed(owed)

    async def tell_cannot_post(self, game_id: int, since: float, missing: list[str],
                               key: str = "bot.perm.dm") -> None:
        """The bot may not post in the game's channel: the host and the player to move are
        told privately, once per block (`since`: when it began), what permissions are missing
        (`key`: or that the game's thread is locked)."""
        hosted = await self.core.load(game_id)
        if hosted is None:
            return
        told: list[int | None] = [hosted.host_id]
        if hosted.game is not None and not hosted.game.over:
            told += [hosted.seats[s].user_id for s in hosted.game.to_move()]
        users = list(dict.fromkeys(u for u in told if u is not None))
        await self.owe([dm_row(u, key, game_id=game_id,
                               key_id=f"perm:{hosted.channel_id}:{int(since)}:{u}",
                               channel=f"<#{hosted.channel_id}>", missing=missing)
                        for u in users], game_id)

    async def tell_dms_closed(self, game_id: int, user_id: int) -> None:
        hosted = await self.core.load(game_id)
        if hosted is None:
            return
        await self.owe([notice_row(hosted, "bot.dm.closed", ping=(user_id,),
                                   key_id=f"dmclosed:{game_id}:{user_id}",
                                   mention=f"<@{user_id}>")], game_id)

    async def set_notify(self, user_id: int, notify: dict) -> None:
        await self.store.set_notify(user_id, notify, now=self.core.clock())

    async def notify_settings(self, user_id: int) -> dict:
        prefs = await self.store.get_user(user_id)
        return dict(prefs.notify) if prefs else {}


def _owed(rows: list[OutboxRow]) -> list[OwedMessage]:
    return [OwedMessage(r.id, Lane.parse(r.lane), parse(r.kind, r.payload), r.game_id, r.seq,
                        r.held, r.due_at, r.created_at, r.attempts) for r in rows]


def _block(b: LaneBlock) -> DestinationBlock:
    return DestinationBlock(Lane.parse(b.lane), b.guild_id, b.refused_since, b.retry_at,
                            b.attempts, b.code)


__all__ = ["DeliveryQueue", "MESSAGE_LEASE"]
