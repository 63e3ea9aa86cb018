"""Changes to the fake's world after the bot is connected, with the gateway events Discord sends
for them (mixed into FakeDiscord): a channel or thread deleted, the bot's permission to post in
a channel taken away or given back, a member leaving a server.

- `delete_channel(channel)`: gone from the world (later requests get 404 10003 Unknown
  Channel); CHANNEL_DELETE (a text channel, its threads go too) or THREAD_DELETE (a thread) is
  sent to sessions with the GUILDS intent, which is not privileged.
- `set_bot_can_send(channel, allowed)`: the bot's member overwrite denies SEND_MESSAGES (posts
  get 403 50013 Missing Permissions); CHANNEL_UPDATE tells the bot.
- `remove_member(guild, user)`: the user leaves the server (GET member -> 404 10007 Unknown
  Member); GUILD_MEMBER_REMOVE goes only to sessions with the privileged GUILD_MEMBERS intent,
  as on Discord.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import payloads
from .gateway import INTENT_GUILD_MEMBERS
from .rest import INTENT_GUILDS
from .state import GUILD_TEXT, Channel, Guild, User

if TYPE_CHECKING:
    from .server import FakeDiscord


class WorldChangesMixin:
    async def delete_channel(self: "FakeDiscord", channel: Channel) -> None:
        st = self.state
        doomed = [channel]
        if channel.type == GUILD_TEXT:
            doomed += [c for c in st.channels.values() if c.parent_id == channel.id]
        for ch in doomed:
            data = payloads.channel(ch, st)
            st.channels.pop(ch.id, None)
            st.deleted_channels.add(ch.id)
            guild = st.guilds.get(ch.guild_id)
            if guild is not None and ch.id in guild.channel_ids:
                guild.channel_ids.remove(ch.id)
            if ch is channel:
                event = "CHANNEL_DELETE" if ch.type == GUILD_TEXT else "THREAD_DELETE"
                if event == "THREAD_DELETE":
                    data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
                await self.gateway.dispatch(event, data, intent=INTENT_GUILDS)

    async def set_bot_can_send(self: "FakeDiscord", channel: Channel, allowed: bool) -> None:
        channel.bot_can_send = allowed
        await self.gateway.dispatch("CHANNEL_UPDATE", payloads.channel(channel, self.state),
                                    intent=INTENT_GUILDS)

    async def remove_member(self: "FakeDiscord", guild: Guild, user: User) -> None:
        guild.members.pop(user.id, None)
        await self.gateway.dispatch("GUILD_MEMBER_REMOVE",
                                    {"guild_id": str(guild.id), "user": payloads.user(user)},
                                    intent=INTENT_GUILD_MEMBERS)
