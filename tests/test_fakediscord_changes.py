"""The fake Discord's nonce memory and world changes (testkit/fakediscord/changes.py), with a
plain discord.py client: what Discord does is what the bot's outbox relies on."""
import asyncio

import discord
import pytest
import pytest_asyncio

from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import BOT_PERMISSIONS, P

pytestmark = pytest.mark.asyncio


class Watcher(discord.Client):
    def __init__(self, **kw):
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, **kw)
        self.deleted = []
        self.events = []        # (event, id) of the permission and thread events seen

    async def on_guild_role_update(self, before, after):
        self.events.append(("role", after.id))

    async def on_member_update(self, before, after):
        self.events.append(("member", after.id))

    async def on_raw_thread_update(self, payload):
        self.events.append(("thread", payload.thread_id))

    async def on_guild_remove(self, guild):
        self.events.append(("removed", guild.id))

    async def on_guild_channel_delete(self, channel):
        self.deleted.append(channel.id)

    async def on_raw_thread_delete(self, payload):
        self.deleted.append(payload.thread_id)


@pytest_asyncio.fixture
async def world():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Rails")
        channel = fake.add_text_channel(guild, "general")
        bot = Watcher()
        await fake.start_bot(bot)
        yield fake, guild, channel, bot
        await fake.stop_bot(bot)


async def test_a_repeated_nonce_returns_the_first_message(world):
    fake, _, channel, bot = world
    target = bot.get_partial_messageable(channel.id)
    first = await target.send("turn 7", nonce="ttr42")
    again = await target.send("turn 7", nonce="ttr42")      # a retry after a crash
    other = await target.send("turn 8", nonce="ttr43")
    assert again.id == first.id and other.id != first.id
    assert [m.content for m in fake.messages_in(channel)] == ["turn 7", "turn 8"]
    assert fake.nonce_hits == [first.id]
    fake.clock.advance(fake.nonce_window + 1)                # Discord forgets after a while
    late = await target.send("turn 7", nonce="ttr42")
    assert late.id != first.id and len(fake.messages_in(channel)) == 3
    fake.assert_clean()


async def test_without_enforce_nonce_every_post_is_new(world):
    fake, _, channel, bot = world
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    for _ in range(2):
        await bot.http.request(route, json={"content": "hi", "nonce": "same"})
    assert len(fake.messages_in(channel)) == 2 and fake.nonce_hits == []


async def test_deleted_channels_and_threads_are_announced_and_gone(world):
    fake, guild, channel, bot = world
    thread = fake.add_thread(channel, "game")
    await fake.delete_channel(thread)
    await fake.delete_channel(channel)      # known to the bot since READY
    for _ in range(100):
        if len(bot.deleted) == 2:
            break
        await asyncio.sleep(0.01)
    assert bot.deleted == [thread.id, channel.id]
    for gone in (thread, channel):
        with pytest.raises(discord.NotFound) as err:
            await bot.get_partial_messageable(gone.id).send("hello")
        assert err.value.code == 10003


async def test_permission_taken_away_then_given_back(world):
    fake, guild, channel, bot = world
    target = bot.get_partial_messageable(channel.id)
    await fake.set_bot_can_send(channel, False)
    with pytest.raises(discord.Forbidden) as err:
        await target.send("hello")
    assert err.value.code == 50013
    for _ in range(100):
        cached = bot.get_channel(channel.id)
        if not cached.permissions_for(cached.guild.me).send_messages:
            break
        await asyncio.sleep(0.01)
    assert not cached.permissions_for(cached.guild.me).send_messages   # CHANNEL_UPDATE arrived
    await fake.set_bot_can_send(channel, True)
    await target.send("hello")


async def test_a_member_who_left_is_unknown(world):
    fake, guild, _, bot = world
    alice = fake.add_user("alice", guild=guild)
    g = bot.get_guild(guild.id)
    assert (await g.fetch_member(alice.id)).id == alice.id
    await fake.remove_member(guild, alice)
    with pytest.raises(discord.NotFound) as err:
        await g.fetch_member(alice.id)
    assert err.value.code == 10007


async def seen(bot, event, timeout=1.0):
    for _ in range(int(timeout / 0.01)):
        if event in bot.events:
            return True
        await asyncio.sleep(0.01)
    return False


async def test_view_channel_denied_is_missing_access(world):
    fake, guild, channel, bot = world
    target = bot.get_partial_messageable(channel.id)
    await fake.set_bot_can_view(channel, False)
    for call in (target.send("hello"), bot.fetch_channel(channel.id)):
        with pytest.raises(discord.Forbidden) as err:
            await call
        assert err.value.code == 50001
    await fake.set_bot_can_view(channel, True)
    await target.send("hello")
    fake.assert_clean()


async def test_the_bots_role_and_its_own_member_updates_reach_it_without_the_members_intent(world):
    fake, guild, channel, bot = world
    target = bot.get_partial_messageable(channel.id)
    role, everyone = fake.bot_role(guild), guild.roles[guild.id]
    await fake.set_role_permissions(guild, everyone, everyone.permissions & ~P["send_messages"])
    await fake.set_role_permissions(guild, role, BOT_PERMISSIONS & ~P["send_messages"])
    assert await seen(bot, ("role", role.id))
    cached = bot.get_channel(channel.id)
    assert not cached.permissions_for(cached.guild.me).send_messages     # the cache knows
    with pytest.raises(discord.Forbidden) as err:
        await target.send("hello")
    assert err.value.code == 50013
    await fake.set_role_permissions(guild, role, BOT_PERMISSIONS)
    await fake.set_bot_roles(guild, [])             # GUILD_MEMBER_UPDATE, own member
    assert await seen(bot, ("member", fake.bot_user.id))
    assert not cached.permissions_for(bot.get_guild(guild.id).me).send_messages
    bot.events.clear()
    await fake.set_bot_roles(guild, [role])
    assert await seen(bot, ("member", fake.bot_user.id))
    assert cached.permissions_for(bot.get_guild(guild.id).me).send_messages
    await target.send("hello")
    fake.assert_clean()


async def test_archived_threads_take_a_post_and_locked_ones_refuse_it(world):
    fake, guild, channel, bot = world
    await fake.set_role_permissions(guild, fake.bot_role(guild),
                                    BOT_PERMISSIONS & ~P["manage_threads"])
    thread = fake.add_thread(channel, "game")
    target = bot.get_partial_messageable(thread.id)
    await fake.archive_thread(thread)
    await target.send("still here")                 # Discord unarchives it for the post
    assert not thread.archived and await seen(bot, ("thread", thread.id))
    await fake.archive_thread(thread, locked=True)
    with pytest.raises(discord.HTTPException) as err:
        await target.send("locked out")
    assert (err.value.status, err.value.code) == (400, 50083)
    fetched = await bot.fetch_channel(thread.id)
    assert fetched.archived and fetched.locked
    with pytest.raises(discord.Forbidden) as err:   # unarchiving a locked one: moderators only
        await fetched.edit(archived=False)
    assert err.value.code == 50013
    await fake.unarchive_thread(thread)             # a moderator reopened it, still locked
    with pytest.raises(discord.HTTPException) as err:
        await target.send("locked out")
    assert err.value.code == 160005
    await fake.unlock_thread(thread)
    await fake.archive_thread(thread)
    await (await bot.fetch_channel(thread.id)).edit(archived=False)     # the bot may: PATCH
    assert not thread.archived
    assert [m.content for m in fake.messages_in(thread)] == ["still here"]
    fake.assert_clean()


async def test_removal_from_a_server_is_a_guild_delete(world):
    fake, guild, channel, bot = world
    await fake.remove_bot(guild)
    assert await seen(bot, ("removed", guild.id))
    assert bot.get_guild(guild.id) is None
    with pytest.raises(discord.Forbidden) as err:
        await bot.get_partial_messageable(channel.id).send("hello")
    assert err.value.code == 50001
    fake.assert_clean()

