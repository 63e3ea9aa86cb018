"""End to end over the fake Discord on a ManualClock: a destination Discord refuses never stops
another's games (issue 23, defect 1). Channels where the bot lost Send Messages, a permission
given back (the owed post within seconds, one catch-up post after a long block), a channel
refused for three days (the game closed, its players told), removal from a server, archived
and locked threads."""
import asyncio

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file
from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import BOT_PERMISSIONS, P
from tests.discord.test_e2e import lobby_game, open_game
from tests.service.svckit import run_timers
from ttr_bot.i18n import t
from ttr_bot.service import Lane
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.owed import notice_row
from ttr_bot.service.turns import DAY, HOUR

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def wait_until(check, timeout=10.0):
    """Real seconds (the game's clock does not move): the bot is given that long."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if await check():
            return True
        await asyncio.sleep(0.05)
    return False


def posts_to(fake, channel):
    return [r for r in fake.requests if r.method == "POST"
            and r.path.endswith(f"/channels/{channel.id}/messages")]


async def tick(table, seconds):
    table.clock.advance(seconds)
    await run_timers(table.bot.service)
    await table.settle()


async def blocked_table(fake, tmp_path):
    table = Table(fake, db_file(tmp_path), clock=ManualClock())
    await table.start_bot(sync=True)
    return table


async def test_channels_refused_with_hundreds_of_posts_owed_stop_no_other_game(fake, tmp_path):
    table = await blocked_table(fake, tmp_path)
    other = fake.add_guild("Elsewhere")
    alice, bob = (fake.add_user(n, guilds=[table.guild, other]) for n in ("alice", "bob"))
    service = table.bot.service
    blocked = []
    for i in range(4):
        table.channel = fake.add_text_channel(table.guild, f"game-{i}")
        game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
        blocked.append((table.channel, game_id))
    for channel, game_id in blocked:
        await fake.set_bot_can_send(channel, False)
        hosted = await service.load(game_id)
        await service.queue.owe([notice_row(hosted, "bot.return.done", name=f"n{i}")
                                 for i in range(165)], game_id)      # 660 posts owed there
    assert await wait_until(lambda: _all_tried(fake, blocked))
    before = {c.id: len(fake.messages_in(c)) for c, _ in blocked}
    # a new game in a healthy channel of another server
    table.channel = fake.add_text_channel(other, "ttr")
    await table.slash(alice, "new", map="usa")
    lobby = table.public_messages()[-1]
    new_game = lobby_game(lobby)
    await table.click(bob, lobby, f"ttr:lobby:{new_game}:join")
    await table.slash(alice, "start")

    async def healthy_game_delivered():
        posted = any("The game is on" in m.content and f"ttr:hand:{new_game}"
                     in m.custom_ids() for m in table.public_messages())
        return posted and all(fake.dms_to(u) for u in (alice, bob))
    assert await wait_until(healthy_game_delivered), "the healthy game got no posts or DMs"
    for channel, _ in blocked:
        assert len(fake.messages_in(channel)) == before[channel.id]
        owed = await service.queue.owed_in_lane(Lane.channel(channel.id))
        assert len(owed) >= 165                     # kept owed, not lost
        assert refused(fake, channel) == 1
    table.clock.advance(61)                         # backoff: one more try each, not a loop
    table.bot.outbox.wake()
    assert await wait_until(lambda: _all_tried(fake, blocked, times=2))
    await table.settle()                            # at rest until the next backoff
    for channel, _ in blocked:
        assert refused(fake, channel) == 2
    await fake.stop_bot(table.bot)


async def _all_tried(fake, blocked, times=1):
    return all(refused(fake, c) >= times for c, _ in blocked)


def refused(fake, channel):
    return sum(1 for r in posts_to(fake, channel) if r.status == 403)


async def game_refused_for_a_while(fake, tmp_path, moves=6):
    """A two-player game whose channel refuses the bot's posts while `moves` actions are played
    (by slash commands: the buttons of the posts it could not make are not there), and then
    the rest of the turn, if the last one drew a first card: the game's seed differs from run
    to run, and a turn half done is not yet a missed move (its post is held for the turn's end)."""
    table = await blocked_table(fake, tmp_path)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    players = {u.id: Player(table, u, seed=i, style="slash") for i, u in enumerate((alice, bob))}
    service = table.bot.service
    for _ in range(2):                              # the starting ticket choice
        hosted = await service.load(game_id)
        await players[hosted.seats[hosted.game.to_move()[0]].user_id].move()
    await table.settle()
    await fake.set_bot_can_send(table.channel, False)
    before = len(table.public_messages())
    played = 0
    while True:
        hosted = await service.load(game_id)
        if played >= moves and hosted.game.step == "idle":
            break
        await players[hosted.seats[hosted.game.to_move()[0]].user_id].move()
        played += 1
        await table.settle()
    assert len(table.public_messages()) == before
    return table, game_id, (alice, bob), before


async def test_a_permission_given_back_brings_one_catch_up_post_within_seconds(fake, tmp_path):
    table, game_id, (alice, bob), before = await game_refused_for_a_while(fake, tmp_path)
    warned = [m for m in fake.dms_to(alice) if "⚠️" in m.content]
    assert len(warned) == 1 and t("bot.perm.send_messages") in warned[0].content
    await tick(table, 2 * HOUR)                     # a long block: retried, still refused
    assert len(table.public_messages()) == before
    assert len([m for m in fake.dms_to(alice) if "⚠️" in m.content]) == 1     # told once
    await fake.set_bot_can_send(table.channel, True)    # CHANNEL_UPDATE: the bot retries now

    async def caught_up():
        return len(table.public_messages()) > before
    assert await wait_until(caught_up, timeout=5.0), "nothing posted after the permission came back"
    await table.settle()
    new = table.public_messages()[before:]
    hosted = await table.bot.service.load(game_id)
    assert len(new) == 1, [m.body() for m in new]  # one post, not every missed one
    card = new[0]
    moves = sum(1 for a in await table.bot.service.core.store.load_actions(game_id)) - 2
    assert t("bot.outbox.caught_up", count=moves) in card.body()
    assert card.v2 and any(c.startswith("ttr:draw:") for c in card.custom_ids())
    assert f":{hosted.seq}:" in next(c for c in card.custom_ids() if c.startswith("ttr:draw:"))
    assert await table.bot.service.queue.owed_in_lane(Lane.channel(table.channel.id)) == []
    assert await table.bot.service.queue.destination_blocks() == []
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def reminded_while_refused(fake, tmp_path):
    """A two-player game (48 h a turn) whose channel refuses the bot from the first move on:
    the reminder at half the deadline is owed there and waits, then the player to move plays
    their turn (their commands are answered privately). (table, game id, mover, lane)."""
    table = await blocked_table(fake, tmp_path)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    players = {u.id: Player(table, u, seed=i, style="slash") for i, u in enumerate((alice, bob))}
    service = table.bot.service
    for _ in range(2):                              # the starting ticket choice
        hosted = await service.load(game_id)
        await players[hosted.seats[hosted.game.to_move()[0]].user_id].move()
    await table.settle()
    await fake.set_bot_can_send(table.channel, False)
    hosted = await service.load(game_id)
    mover, turn = hosted.seats[hosted.game.current].user_id, hosted.game.turn
    await tick(table, 24 * HOUR + 1)                # reminded at half of the deadline
    lane = Lane.channel(table.channel.id)
    assert [r.kind for r in await service.queue.owed_in_lane(lane)] == ["reminder"]
    while (await service.load(game_id)).game.turn == turn:
        await players[mover].move()
    return table, game_id, mover, lane


async def test_a_reminder_owed_before_the_move_is_not_posted_after_it(fake, tmp_path):
    """The reminder was owed while the channel refused the bot, and the player moved since:
    when the permission comes back the turn's card goes out and the reminder does not. It is
    checked again as it is sent, not only when it was owed."""
    table, game_id, mover, lane = await reminded_while_refused(fake, tmp_path)
    service = table.bot.service
    before = len(table.public_messages())
    await fake.set_bot_can_send(table.channel, True)

    async def drained():
        return await service.queue.owed_in_lane(lane) == []
    assert await wait_until(drained, timeout=5.0)
    await table.settle()
    new = table.public_messages()[before:]
    assert len(new) == 1 and new[0].v2             # the turn's card, and nothing more
    reminder = t("bot.remind.channel", mention=f"<@{mover}>")
    assert not any(reminder in m.body() for m in table.public_messages())
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_row_left_with_nothing_to_post_does_not_end_a_refusal(fake, tmp_path):
    """The reminder at the head of the refused channel has nothing to say once the player
    moved; skipping it is no sign that the channel takes posts again. The refusal goes on from
    its first day (it used to start again, and with it the three days before giving up)."""
    table, game_id, mover, lane = await reminded_while_refused(fake, tmp_path)
    service = table.bot.service
    [block] = await service.queue.destination_blocks()
    await tick(table, 2 * HOUR)                     # tried again: the reminder, then the card
    assert [r.kind for r in await service.queue.owed_in_lane(lane) if not r.held] == ["turn"]
    assert [b.refused_since for b in await service.queue.destination_blocks()] == \
        [block.refused_since]
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def given_back(fake, table):
    """The channel's overwrite lifted (what it owed goes out): how many posts it shows then."""
    await fake.set_bot_can_send(table.channel, True)
    await table.settle()                            # the bot read the change and reacted
    return len(table.public_messages())


async def test_a_role_update_also_brings_the_post_back(fake, tmp_path):
    table, game_id, (alice, bob), _ = await game_refused_for_a_while(fake, tmp_path, moves=1)
    before = await given_back(fake, table)
    role = fake.bot_role(table.guild)           # now the bot's role loses Send Messages
    everyone = table.guild.roles[table.guild.id]
    await fake.set_role_permissions(table.guild, everyone, everyone.permissions & ~P["send_messages"])
    await fake.set_role_permissions(table.guild, role, BOT_PERMISSIONS & ~P["send_messages"])
    hosted = await table.bot.service.load(game_id)
    await table.bot.service.queue.owe([notice_row(hosted, "bot.return.done", name="x")], game_id)
    await table.settle()
    assert len(table.public_messages()) == before
    await fake.set_role_permissions(table.guild, role, BOT_PERMISSIONS)    # GUILD_ROLE_UPDATE

    async def posted():
        return any(t("bot.return.done", name="x") in m.content for m in table.public_messages())
    assert await wait_until(posted, timeout=5.0)
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_channel_refused_for_three_days_closes_its_game(fake, tmp_path):
    table, game_id, (alice, bob), before = await game_refused_for_a_while(fake, tmp_path, moves=1)
    service = table.bot.service
    hosted = await service.load(game_id)
    await service.queue.owe([notice_row(hosted, "bot.return.done", name="x")], game_id)
    await table.settle()
    [block] = await service.queue.destination_blocks()
    for _ in range(20):                             # six hours at a time
        await tick(table, 6 * HOUR)
        if not (await service.load(game_id)).is_open:
            break
    hosted = await service.load(game_id)
    assert hosted.status == "cancelled" and hosted.end_reason == "no_access"
    assert 3 * DAY <= table.clock() - block.refused_since <= 3 * DAY + 6 * HOUR
    for user in (alice, bob):       # told privately, with how to play again
        text = t("bot.closed.no_access", channel=f"<#{table.channel.id}>")
        assert any(m.content == text for m in fake.dms_to(user)), [m.content for m in fake.dms_to(user)]
        assert "/ttr new" in text and t("bot.perm.send_messages") in text
    lane = Lane.channel(table.channel.id)
    assert await service.queue.owed_in_lane(lane) == []   # given up, not left pending
    rows = [r for r in await service.core.store.pending_outbox(1000) if r.lane == str(lane)]
    assert rows == [] and await service.queue.destination_blocks() == []
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_game_that_ended_where_the_bot_could_not_post_is_told_by_dm(fake, tmp_path):
    """The players vote to cancel their game while its channel refuses the bot: the closing
    post waits there. When the channel is given up three days later, the players are told by
    DM that the game ended where the bot could not say so (they were told nothing before)."""
    table = await blocked_table(fake, tmp_path)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    await fake.set_bot_can_send(table.channel, False)
    service = table.bot.service
    vote = await service.votes.start_vote(game_id, alice.id, "cancel")
    await service.votes.cast_vote(vote.id, bob.id, True)
    await table.settle()
    assert (await service.load(game_id)).status == "cancelled"
    lane = Lane.channel(table.channel.id)
    for _ in range(20):                             # six hours at a time
        await tick(table, 6 * HOUR)
        if not await service.queue.owed_in_lane(lane):
            break
    assert await service.queue.owed_in_lane(lane) == [] and await service.queue.destination_blocks() == []
    text = t("bot.closed.unseen", channel=f"<#{table.channel.id}>")
    for user in (alice, bob):
        assert [m.content for m in fake.dms_to(user)].count(text) == 1
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_removal_from_a_server_closes_its_games(fake, tmp_path):
    table = await blocked_table(fake, tmp_path)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    await fake.remove_bot(table.guild)              # GUILD_DELETE

    async def closed():
        return (await table.bot.service.load(game_id)).status == "cancelled"
    assert await wait_until(closed, timeout=5.0)
    await table.settle()
    hosted = await table.bot.service.load(game_id)
    assert hosted.end_reason == "removed"
    for user in (alice, bob):
        text = t("bot.closed.removed", channel=f"<#{table.channel.id}>")
        assert any(m.content == text for m in fake.dms_to(user))
        assert "/ttr new" in text
    assert await table.bot.service.queue.owed_in_lane(Lane.channel(table.channel.id)) == []
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_archived_threads_take_the_post_and_a_locked_one_is_reported(fake, tmp_path):
    table = Table(fake, db_file(tmp_path), clock=ManualClock())
    table.guild = fake.add_guild("Threads", bot_permissions=BOT_PERMISSIONS & ~P["manage_threads"])
    parent = fake.add_text_channel(table.guild, "games")
    thread = fake.add_thread(parent, "usa")
    table.channel = thread
    await table.start_bot(sync=True)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    service = table.bot.service
    hosted = await service.load(game_id)
    await fake.archive_thread(thread)               # a week without a message
    await service.queue.owe([notice_row(hosted, "bot.return.done", name="a")], game_id)
    await table.settle()
    assert t("bot.return.done", name="a") in table.public_messages()[-1].content
    assert not thread.archived                      # Discord unarchived it for the post
    await fake.archive_thread(thread, locked=True)  # a moderator closed it
    await service.queue.owe([notice_row(hosted, "bot.return.done", name="b")], game_id)
    await table.settle()
    assert t("bot.return.done", name="a") in table.public_messages()[-1].content
    locked = t("bot.thread.locked_dm", channel=f"<#{thread.id}>")
    assert any(m.content == locked for m in fake.dms_to(alice))
    await fake.unlock_thread(thread)                # THREAD_UPDATE: posted at once

    async def posted():
        return t("bot.return.done", name="b") in table.public_messages()[-1].content
    assert await wait_until(posted, timeout=5.0)
    assert (await service.load(game_id)).status == "active"
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_the_bots_own_roles_given_back_bring_the_post_back(fake, tmp_path):
    table, game_id, _, _ = await game_refused_for_a_while(fake, tmp_path, moves=1)
    before = await given_back(fake, table)
    everyone = table.guild.roles[table.guild.id]
    await fake.set_role_permissions(table.guild, everyone, everyone.permissions & ~P["send_messages"])
    await fake.set_bot_roles(table.guild, [])       # its role taken away: nothing lets it post
    hosted = await table.bot.service.load(game_id)
    await table.bot.service.queue.owe([notice_row(hosted, "bot.return.done", name="y")], game_id)
    await table.settle()
    assert len(table.public_messages()) == before
    await fake.set_bot_roles(table.guild, [fake.bot_role(table.guild)])   # GUILD_MEMBER_UPDATE

    async def posted():
        return any(t("bot.return.done", name="y") in m.content for m in table.public_messages())
    assert await wait_until(posted, timeout=5.0)
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_removal_while_the_bot_was_away_closes_the_games_too(fake, tmp_path):
    table = await blocked_table(fake, tmp_path)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    await fake.stop_bot(table.bot)
    await fake.remove_bot(table.guild)              # nobody connected: no GUILD_DELETE seen
    await table.start_bot()
    hosted = await table.bot.service.load(game_id)
    await table.bot.service.queue.owe([notice_row(hosted, "bot.return.done", name="z")], game_id)

    async def closed():
        return (await table.bot.service.load(game_id)).status == "cancelled"
    assert await wait_until(closed, timeout=5.0)
    await table.settle()
    assert (await table.bot.service.load(game_id)).end_reason == "removed"
    text = t("bot.closed.removed", channel=f"<#{table.channel.id}>")
    assert any(m.content == text for m in fake.dms_to(alice))
    fake.assert_clean()
    await fake.stop_bot(table.bot)



async def test_a_channel_gone_quiet_stalls_no_other_and_gets_its_post_once(fake, tmp_path):
    """Discord (or the network) stops answering one channel mid-request: the bot gives that
    send up after its time bound, not after aiohttp's five minutes, and tries again later;
    another server's game goes on meanwhile; when the channel answers again, what it owed is
    there once (the request Discord took late and the retry are one post: its nonce)."""
    table = await blocked_table(fake, tmp_path)
    table.bot.outbox.send_timeout = 2.0
    other = fake.add_guild("Elsewhere")
    alice, bob = (fake.add_user(n, guilds=[table.guild, other]) for n in ("alice", "bob"))
    quiet = table.channel
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    service = table.bot.service
    hosted = await service.load(game_id)
    lane = Lane.channel(quiet.id)

    async def all_sent():
        return await service.queue.owed_in_lane(lane) == []
    assert await wait_until(all_sent), "the game's start was not posted"
    before, tried = len(fake.messages_in(quiet)), len(posts_to(fake, quiet))
    async with fake.silent(quiet):
        await service.queue.owe([notice_row(hosted, "bot.return.done", name="quiet")], game_id)

        async def given_up_once():
            owed = await service.queue.owed_in_lane(lane)
            return bool(owed) and owed[0].attempts >= 1
        assert await wait_until(given_up_once, timeout=5.0), "the silent send never timed out"
        table.channel = fake.add_text_channel(other, "ttr")
        await table.slash(alice, "new", map="usa")
        assert lobby_game(table.public_messages()[-1]), "the other server's lobby was not posted"
        table.clock.advance(5)                       # the retry, also unanswered
        table.bot.outbox.wake()
        await table.settle()
        assert len(fake.messages_in(quiet)) == before
    table.clock.advance(10)
    table.bot.outbox.wake()
    assert await wait_until(all_sent), ("the post was not delivered once the channel answered",
                                         [(r.id, r.kind, r.attempts, r.due_at - table.clock())
                                          for r in await service.queue.owed_in_lane(lane)],
                                         fake.busy(), table.bot.outbox._blocks,
                                         [(r.method, r.path, r.status) for r in fake.requests[-4:]])
    await table.settle()
    posted = [m for m in fake.messages_in(quiet)[before:]
              if t("bot.return.done", name="quiet") in m.content]
    assert len(posted) == 1, [m.content for m in fake.messages_in(quiet)[before:]]
    assert len(posts_to(fake, quiet)) >= tried + 2       # sent, given up, sent again
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_send_may_not_outlive_its_lease():
    """On a shared database another process may take a claimed row once its lease runs out: a
    send bound as long as the lease (or longer) could then post it twice, so it is refused."""
    from ttr_bot.discord.posting.outbox_worker import OutboxWorker
    with pytest.raises(ValueError, match="lease"):
        OutboxWorker(None, None, None, send_timeout=20.0, lease=20.0)
    worker = OutboxWorker(None, None, None, send_timeout=3.0, lease=4.0)
    assert (worker.send_timeout, worker.lease) == (3.0, 4.0)
