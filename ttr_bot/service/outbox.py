"""The outbox as the adapter's delivery worker sees it: what is owed, and marking it sent,
retried or given up (mixed into GameService; the worker never touches the store)."""
from ..store import OutboxItem, Owed
from .owed import channel_lane, dm_row, notice_row

MESSAGE_LEASE = 20.0    # seconds a process may take to send a claimed row before another may
                        # (the worker gives a send up after SEND_TIMEOUT, 15 s)


class OutboxAccess:
    async def owed_messages(self, limit=500):
        """The owed rows of this process's guilds (every guild's without shards), oldest
        first, whatever their destination (tests, tools; the worker reads `deliverable`)."""
        return await self.store.pending_outbox(limit, shards=self.shards)

    async def deliverable(self, lanes=200, per_lane=20):
        """The first owed rows of each destination not refused until later (this process's
        guilds): a destination owing thousands never hides another's."""
        return await self.store.deliverable_outbox(self.clock(), lanes=lanes, per_lane=per_lane,
                                                   shards=self.shards)

    async def owed_in_lane(self, lane):
        return await self.store.owed_in_lane(lane)

    # ----- destinations Discord refuses (discord/outbox.py states the rules) -----------------
    async def destination_refused(self, lane, retry_in, *, code=None, guild_id=None):
        """Discord refused this destination: none of its rows is tried for `retry_in` seconds
        (the other destinations go on). The block as it is now (attempts 1: it just began)."""
        now = self.clock()
        return await self.store.refuse_lane(lane, now, now + retry_in, guild_id=guild_id,
                                            code=code)

    async def destination_blocks(self):
        return await self.store.lane_blocks(shards=self.shards)

    async def destination_works(self, lane):
        """A post went through: the block (if any) ends; it as it was, or None."""
        return await self.store.clear_lane_block(lane)

    async def retry_destinations(self, lanes):
        """A permission may be back (a gateway event said something changed): these refused
        destinations are tried again now, not at the end of their backoff."""
        count = await self.store.retry_lanes_at(list(lanes), self.clock())
        if count and self.on_outbox is not None:
            self.on_outbox()
        return count

    async def give_up_destination(self, lane, reason):
        """The destination was refused for too long (or the bot left its server): the open game
        posting there is closed (`reason` is its end reason; its host and players are told by
        DM, which goes through another destination), and every row it owes is given up."""
        closed = None
        if lane.startswith("c"):
            closed = await self._close_for(int(lane[1:]), reason)
        await self._fail_lane(lane, f"given up: {reason}", told=closed)
        return closed

    async def _fail_lane(self, lane, error, told=None):
        """Every row the destination owes is given up. A game whose end (its final post, its
        closing post) was among them, and whose players were not told otherwise (`told`: the
        game closed for this very reason, which said so by DM), has its players told by DM
        that it ended where the bot could not post: nobody learns a game's end from nowhere."""
        ended = {r.game_id for r in await self.store.owed_in_lane(lane)
                 if r.game_id is not None and r.game_id != told and
                 (r.kind == "cancel" or (r.kind == "turn" and r.payload.get("over")))}
        await self.store.fail_outbox_lane(lane, error, now=self.clock())
        for game_id in sorted(ended):
            hosted = await self.load(game_id)
            if hosted is None:
                continue
            await self.owe([dm_row(u, "bot.closed.unseen", game_id=game_id,
                                   key_id=f"unseen:{game_id}:{u}",
                                   channel=f"<#{hosted.channel_id}>")
                            for u in hosted.user_ids()], game_id)

    async def guild_gone(self, guild_id):
        """The bot was removed from the server (GUILD_DELETE without `unavailable`): its open
        games are closed as a destination given up is (end reason 'removed'), their players
        told by DM where Discord still lets the bot write to them. The game ids closed."""
        closed = []
        for game_id in await self.store.open_games_in_guild(guild_id):
            hosted = await self.load(game_id)
            if hosted is None:
                continue
            if await self.give_up_destination(channel_lane(hosted.channel_id), "removed"):
                closed.append(game_id)
        for block in await self.store.lane_blocks():
            if block.guild_id == guild_id:
                await self._fail_lane(block.lane, "given up: removed")
        return closed

    async def _close_for(self, channel_id, reason):
        hosted = await self.game_in_channel(channel_id)
        if hosted is None:
            return None
        async with self.lock(hosted.id):
            hosted = await self._reload(hosted.id)
            if hosted is None or not hosted.is_open or hosted.channel_id != channel_id:
                return None
            await self._cancel(hosted, reason=reason, dm_key=f"bot.closed.{reason}")
        self._channels.pop(channel_id, None)
        return hosted.id

    async def claim_messages(self, ids, lease=MESSAGE_LEASE):
        """Before sending these rows: lease them to this process, or False if another process
        is sending them (its lease has not run out). Only on a database several processes
        share; one process alone needs no lease (a restart resends under the same nonce)."""
        if not self.store.shared:
            return True
        return await self.store.claim_outbox(list(ids), self.owner, self.clock(), lease)

    async def release_messages(self):
        """This process stops: what it was sending may be claimed again at once."""
        if self.store.shared:
            await self.store.release_outbox(self.owner)

    async def delivered(self, ids, error=None):
        return await self.store.mark_outbox_sent(list(ids), now=self.clock(), error=error)

    async def retry_later(self, row_id, due_at):
        return await self.store.retry_outbox(row_id, due_at)

    async def forget_sent(self, older_than, votes_older_than=None):
        """Housekeeping: rows sent or given up more than `older_than` seconds ago are deleted
        (and the blocks of destinations owing nothing), closed votes after `votes_older_than`."""
        if votes_older_than is not None:
            await self.store.purge_votes(self.clock() - votes_older_than)
        return await self.store.purge_outbox(self.clock() - older_than)

    async def owe(self, items, game_id=None):
        """Record more owed messages (the worker's own: 'tell the host the channel is
        closed to me', 'your DMs are closed')."""
        owed = Owed(tuple(items))
        await self.store.write_owed(owed, game_id, self.clock())
        self._committed(owed)

    async def tell_cannot_post(self, game_id, since, missing, key="bot.perm.dm"):
        """The bot may not post in the game's channel: the host and the player to move are
        told privately, once per block (`since`: when it began), what permission is missing
        (`key`: or that the game's thread is locked)."""
        hosted = await self.load(game_id)
        if hosted is None:
            return
        users = [hosted.host_id]
        if hosted.game is not None and not hosted.game.over:
            users += [hosted.seats[s].user_id for s in hosted.game.to_move()]
        users = list(dict.fromkeys(u for u in users if u is not None))
        await self.owe([dm_row(u, key, game_id=game_id,
                               key_id=f"perm:{hosted.channel_id}:{int(since)}:{u}",
                               channel=f"<#{hosted.channel_id}>", missing=missing)
                        for u in users], game_id)

    async def tell_dms_closed(self, game_id, user_id):
        hosted = await self.load(game_id)
        if hosted is None:
            return
        await self.owe([notice_row(hosted, "bot.dm.closed", ping=(user_id,),
                                   key_id=f"dmclosed:{game_id}:{user_id}",
                                   mention=f"<@{user_id}>")], game_id)

    async def set_notify(self, user_id, notify):
        await self.store.set_notify(user_id, notify, now=self.clock())

    async def notify_settings(self, user_id):
        prefs = await self.store.get_user(user_id)
        return dict(prefs.notify) if prefs else {}


__all__ = ["OutboxAccess", "OutboxItem", "channel_lane"]
