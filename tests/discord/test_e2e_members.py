"""End to end through the fake Discord: a member gets what their own permissions allow, and
leaving the server means leaving the game. /ttr new opens a thread only for a member who could
open one; one member cannot fill a server with lobbies (MEMBER_LOBBIES each, SERVER_LOBBIES in
all; the refusal says the limit and links the lobbies to cancel); a player removed or banned
from the server is refused from their DMs and their seat goes to a computer player at once."""
import asyncio

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import P
from tests.discord.test_e2e import open_game
from ttr_bot.discord.membership import PING_FOR
from ttr_bot.i18n import t
from ttr_bot.service import MEMBER_LOBBIES, SERVER_LOBBIES

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


def threads_of(fake, channel):
    return [c for c in fake.state.channels.values() if c.parent_id == channel.id]


async def new(table, user, channel=None, **options):
    handle = await table.fake.slash(user, channel or table.channel, "ttr", "new",
                                    {"map": "usa", **options})
    return (await table.reply(handle)).content


async def test_a_thread_only_for_a_member_who_could_open_one(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    everyone = table.guild.roles[table.guild.id]      # the bot's own role keeps both
    everyone.permissions &= ~(P["create_public_threads"] | P["send_messages_in_threads"])
    threader = fake.add_role(table.guild, "threads",
                             P["create_public_threads"] | P["send_messages_in_threads"])
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    # a name cannot make the bot ping the server or a role (the thread's line names the host)
    bob = fake.add_user("bob", guild=table.guild, roles=[threader],
                        global_name=f"@everyone <@&{threader.id}>")
    # alice may not open threads here: the lobby is in the channel, with the sentence why
    for asked in ({}, {"thread": True}):
        answer = await new(table, alice, **asked)
        assert answer == t("bot.lobby.opened") + "\n" + t("bot.thread.member_cannot")
        assert threads_of(fake, table.channel) == []
        hosted = await table.bot.service.game_in_channel(table.channel.id)
        assert hosted.is_lobby and "thread" not in hosted.options
        await table.reply(await fake.slash(alice, table.channel, "ttr", "cancel"))
    # bob may: his lobby opens in a thread of its own
    answer = await new(table, bob)
    [thread] = threads_of(fake, table.channel)
    assert answer == t("bot.lobby.opened_thread", thread=f"<#{thread.id}>")
    assert (await table.bot.service.game_in_channel(thread.id)).host_id == bob.id
    line = fake.messages_in(table.channel)[-1]      # the line linking the thread
    assert "@everyone" in line.body()
    for m in [line, *fake.messages_in(thread)]:
        parse = m.allowed_mentions["parse"]
        assert "everyone" not in parse and "roles" not in parse, m.allowed_mentions
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_lobby_caps_per_member_and_per_server(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    # a burst of /ttr new from one member: MEMBER_LOBBIES lobbies and threads, the rest refused
    handles = await asyncio.gather(*(fake.slash(alice, table.channel, "ttr", "new",
                                                {"map": "usa"}) for _ in range(6)))
    answers = [(await table.reply(h)).content for h in handles]
    await table.settle()
    threads = threads_of(fake, table.channel)
    assert len(threads) == MEMBER_LOBBIES == 2
    links = ", ".join(f"<#{th.id}>" for th in threads)
    refusal = t("service.lobby_cap_member", limit=MEMBER_LOBBIES, lobbies=links)
    assert sorted(answers).count(refusal) == 6 - MEMBER_LOBBIES, answers
    assert "/ttr cancel" in refusal and links in refusal
    assert len(fake.messages_in(table.channel)) == MEMBER_LOBBIES     # one line per thread
    # cancelling one (in its channel, as the refusal says) makes room again
    await table.reply(await fake.slash(alice, threads[0], "ttr", "cancel"))
    answer = await new(table, alice)
    made = threads_of(fake, table.channel)[-1]
    assert made not in threads and answer == t("bot.lobby.opened_thread", thread=f"<#{made.id}>")

    # the server: SERVER_LOBBIES lobbies in all, whoever hosts them
    others = [fake.add_user(f"host{i}", guild=table.guild) for i in range(SERVER_LOBBIES)]
    handles = await asyncio.gather(*(fake.slash(u, table.channel, "ttr", "new", {"map": "usa"})
                                     for u in others))
    answers = [(await table.reply(h)).content for h in handles]
    await table.settle()
    full = t("service.lobby_cap_server", limit=SERVER_LOBBIES)
    assert answers.count(full) == MEMBER_LOBBIES, answers       # alice's two, then 23 of 25
    assert len(await table.bot.service.core.store.lobbies_in_guild(table.guild.id)) \
        == SERVER_LOBBIES
    assert len(threads_of(fake, table.channel)) == SERVER_LOBBIES + 1     # one was cancelled
    fake.assert_clean()
    await fake.stop_bot(table.bot)


@pytest.mark.parametrize("how", ["removed", "banned"])
async def test_a_player_who_left_the_server_is_refused_and_replaced(fake, tmp_path, how):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    [hand] = [m for m in fake.dms_to(bob) if find_cid(m, "ttr:keep:")]
    mark = max(m.id for m in table.public_messages())
    if how == "removed":        # a kick: the bot hears nothing until bob acts
        await fake.remove_member(table.guild, bob)
    else:                       # a ban: GUILD_BAN_ADD (the moderation intent) at once
        await fake.ban_member(table.guild, bob)
        await table.settle()
        assert (await table.game()).seats[1].is_bot
    cid = find_cid(hand, "ttr:keep:")
    offered = [o["value"] for o in hand.component(cid)["options"]]
    refused = await table.select(bob, hand, cid, offered[:2])
    assert refused.content == t("bot.member.gone")
    await table.settle()
    hosted = await table.game()
    assert hosted.seats[1].is_bot and hosted.seats[1].former_user_id == bob.id
    told = [m.text() for m in table.public_messages() if m.id > mark]
    assert sum("🚪" in x and "bob" in x for x in told) == 1, told     # the channel is told once
    # the game goes on with a computer in his seat, and nobody pings him any more
    player = Player(table, alice, seed=1)
    for _ in range(6):
        loaded = await table.wait_for_humans()
        if loaded.game.over:
            break
        await player.move()
    loaded = await table.game()
    assert loaded.id == game_id and loaded.game.turn >= 2
    assert not any(bob.id in m.pinged() for m in fake.messages_in(table.channel) if m.id > mark)
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_banned_member_leaves_the_lobby(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    await table.slash(alice, "new", map="usa")
    lobby = table.public_messages()[-1]
    game_id = int(find_cid(lobby, "ttr:lobby:").split(":")[2])
    await table.click(bob, lobby, f"ttr:lobby:{game_id}:join")
    await table.settle()
    assert "bob" in fake.state.messages[lobby.id].content
    await fake.ban_member(table.guild, bob)
    await table.settle()
    assert [s.name for s in (await table.game()).seats] == ["alice"]
    assert "bob" not in fake.state.messages[lobby.id].content      # the lobby message too
    fake.assert_clean()
    await fake.stop_bot(table.bot)


def member_lookups(fake):
    return [r for r in fake.requests if r.method == "GET" and "/members/" in r.path]


async def test_a_removed_player_who_never_clicks_is_not_pinged_on_their_turn(fake, tmp_path):
    """A kick sends the bot nothing (no Server Members intent): the turn post that would ping
    the removed player looks them up first, hands their seat to a computer player, tells the
    channel once and pings nobody; a membership Discord confirmed is believed for an hour,
    so the lookups stay one per player per hour."""
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    players = {u.id: Player(table, u, seed=3) for u in (alice, bob)}
    turns = 0
    while True:             # a few turns each, both still members
        loaded = await table.wait_for_humans()
        mover = loaded.seats[loaded.game.to_move()[0]].user_id
        if loaded.game.phase == "play" and mover == alice.id:
            turns += 1
            if turns == 3:
                break
        await players[mover].move()
    assert len(member_lookups(fake)) <= 2          # once per player, not once per turn
    mark = max(m.id for m in table.public_messages())
    await fake.remove_member(table.guild, bob)     # bob never clicks again
    table.clock.advance(PING_FOR + 1)              # past what his last lookup proved
    await table.settle()
    before = len(member_lookups(fake))
    while True:                                    # alice ends her turn (a draw is two moves)
        await players[alice.id].move()
        await table.settle()
        loaded = await table.game()
        if loaded.seats[1].is_bot or loaded.seats[loaded.game.to_move()[0]].user_id != alice.id:
            break
    hosted = await table.game()
    assert hosted.seats[1].is_bot and hosted.seats[1].former_user_id == bob.id
    after = [m for m in fake.messages_in(table.channel) if m.id > mark]
    assert not any(bob.id in m.pinged() for m in after)
    told = [m.text() for m in after]
    assert sum("🚪" in x and "bob" in x for x in told) == 1, told     # the channel is told once
    loaded = await table.wait_for_humans()
    assert loaded.id == game_id and loaded.seats[loaded.game.to_move()[0]].user_id == alice.id
    # bob's at his turn post (Unknown Member), alice's at her next one (an hour on)
    assert [r.status for r in member_lookups(fake)[before:]] == [404, 200]
    print("member lookups:", before, "before the kick,", len(member_lookups(fake)), "in all")
    fake.assert_clean()
    await fake.stop_bot(table.bot)
