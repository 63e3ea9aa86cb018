"""The fake Discord's nonce memory and world changes (tests/fakediscord/changes.py), with a
plain discord.py client: what Discord does is what the bot's outbox relies on."""
import asyncio

import discord
import pytest
import pytest_asyncio

from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.asyncio


class Watcher(discord.Client):
    def __init__(self, **kw):
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, **kw)
        self.deleted = []

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
