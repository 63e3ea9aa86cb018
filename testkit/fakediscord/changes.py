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
- `ban_member(guild, user)`: the user is banned: GUILD_BAN_ADD to sessions with the
  GUILD_MODERATION intent (not privileged), then as `remove_member` (GUILD_MEMBER_REMOVE with
  the members intent; 404 10007 on GET member), as Discord removes a banned member.
- `set_bot_can_view(channel, allowed)`: the bot's member overwrite denies VIEW_CHANNEL (posts and
  reads get 403 50001 Missing Access); CHANNEL_UPDATE tells the bot.
- `set_role_permissions(guild, role, permissions)`: a role's permissions change (e.g. the bot's
  own role loses Send Messages: 403 50013 in every channel); GUILD_ROLE_UPDATE (guilds intent).
- `set_bot_roles(guild, roles)`: the bot's own roles change; GUILD_MEMBER_UPDATE for its own
  member, which Discord sends without the privileged members intent.
- `archive_thread(thread, locked=False)`, `unarchive_thread(thread)`, `unlock_thread(thread)`:
  THREAD_UPDATE. A post to an archived thread unarchives it (THREAD_UPDATE) when the bot may
  post there; a locked one refuses a bot without Manage Threads (400 50083 archived / 160005).
- `remove_bot(guild)`: the bot is kicked: GUILD_DELETE without `unavailable` (discord.py's
  on_guild_remove); afterwards its channels answer 403 50001 Missing Access.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import payloads
from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILD_MODERATION
from .rest import INTENT_GUILDS
from .state import GUILD_TEXT, Channel, Guild, Role, User

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

    async def ban_member(self: "FakeDiscord", guild: Guild, user: User) -> None:
        guild.bans.add(user.id)
        await self.gateway.dispatch("GUILD_BAN_ADD",
                                    {"guild_id": str(guild.id), "user": payloads.user(user)},
                                    intent=INTENT_GUILD_MODERATION)
        await self.remove_member(guild, user)

    async def set_bot_can_view(self: "FakeDiscord", channel: Channel, allowed: bool) -> None:
        channel.bot_can_view = allowed
        await self.gateway.dispatch("CHANNEL_UPDATE", payloads.channel(channel, self.state),
                                    intent=INTENT_GUILDS)

    async def set_role_permissions(self: "FakeDiscord", guild: Guild, role: Role,
                                   permissions: int) -> None:
        role.permissions = permissions
        await self.gateway.dispatch("GUILD_ROLE_UPDATE",
                                    {"guild_id": str(guild.id), "role": payloads.role(role)},
                                    intent=INTENT_GUILDS)

    def bot_role(self: "FakeDiscord", guild: Guild) -> Role:
        """The managed role `add_guild` gave the bot."""
        return next(r for r in guild.roles.values() if r.managed)

    async def set_bot_roles(self: "FakeDiscord", guild: Guild, roles) -> None:
        member = guild.members[self.state.bot.id]
        member.roles = [r.id for r in roles]
        data = {"guild_id": str(guild.id), **payloads.member(member)}
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", data)   # own member: no intent needed

    async def archive_thread(self: "FakeDiscord", thread: Channel, *, locked: bool = False) -> None:
        thread.archived, thread.locked = True, locked or thread.locked
        await self._thread_update(thread)

    async def unarchive_thread(self: "FakeDiscord", thread: Channel) -> None:
        thread.archived = False
        await self._thread_update(thread)

    async def unlock_thread(self: "FakeDiscord", thread: Channel) -> None:
        thread.locked = False
        await self._thread_update(thread)

    async def _thread_update(self: "FakeDiscord", thread: Channel) -> None:
        await self.gateway.dispatch("THREAD_UPDATE", payloads.channel(thread, self.state),
                                    intent=INTENT_GUILDS)

    async def remove_bot(self: "FakeDiscord", guild: Guild) -> None:
        guild.members.pop(self.state.bot.id, None)
        await self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)}, intent=INTENT_GUILDS)
