"""The outbox as the adapter's delivery worker sees it: what is owed, and marking it sent,
retried or given up (mixed into GameService; the worker never touches the store)."""
from ..store import OutboxItem, Owed
from .owed import channel_lane, dm_row, notice_row

MESSAGE_LEASE = 20.0    # seconds a process may take to send a claimed row before another may


class OutboxAccess:
    async def owed_messages(self, limit=500):
        """The owed rows of this process's guilds (every guild's without shards)."""
        return await self.store.pending_outbox(limit, shards=self.shards)

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

    async def forget_sent(self, older_than):
        return await self.store.purge_outbox(self.clock() - older_than)

    async def owe(self, items, game_id=None):
        """Record more owed messages (the worker's own: 'tell the host the channel is
        closed to me', 'your DMs are closed')."""
        owed = Owed(tuple(items))
        await self.store.write_owed(owed, game_id, self.clock())
        self._committed(owed)

    async def tell_cannot_post(self, game_id, row_id, missing):
        """The bot may not post in the game's channel: the host and the player to move are
        told privately, once per stuck message, what permission is missing."""
        hosted = await self.load(game_id)
        if hosted is None:
            return
        users = [hosted.host_id]
        if hosted.game is not None and not hosted.game.over:
            users += [hosted.seats[s].user_id for s in hosted.game.to_move()]
        users = list(dict.fromkeys(u for u in users if u is not None))
        await self.owe([dm_row(u, "bot.perm.dm", game_id=game_id, key_id=f"perm:{row_id}:{u}",
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
