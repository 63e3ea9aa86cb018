"""End to end through the fake Discord: a server's game life. A game played to the end posts its
final scores with the ratings, the film and a Rematch button that opens the same table; the
history links to that post and hands out the record; stats, leaderboard (paged by buttons),
history and replay answer, and answer bad input clearly; /ttr new thread: opens the game in a
thread of its own (one channel, several games), or, without the permission, in the channel
with the reason."""
import io
import json

import pytest
import pytest_asyncio
from PIL import Image, ImageSequence

from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import PUBLIC_THREAD, P
from tests.discord.test_e2e import lobby_game, open_game, play_to_end
from ttr_bot.game_record import replay
from ttr_bot.i18n import t
from ttr_bot.ratings import MIN_GAMES
from ttr_bot.render.film import film_plan
from ttr_bot.service.finish import rating_update
from ttr_bot.store import SeatResult

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def ask(table, who, sub, **options):
    """/ttr sub with options (one of them may be called `user`, which Table.slash cannot take)."""
    return await table.reply(await table.fake.slash(who, table.channel, "ttr", sub, options))


def gif_frames(data):
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    return [f.copy() for f in ImageSequence.Iterator(im)]


async def test_a_finished_game_posts_ratings_film_and_rematch(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    final = await play_to_end(table, [Player(table, alice, seed=1), Player(table, bob, seed=2)])
    await table.settle()
    assert final.game.over

    # the final post: scores, ratings, the final picture, the film and the Rematch button
    post = table.public_messages()[-1]
    assert set(post.files) == {"final.png", "film.gif"}
    assert find_cid(post, "ttr:rematch:") == f"ttr:rematch:{game_id}"
    assert t("bot.end.rated", z=3) in post.content
    assert all(f"{name}: **" in post.content for name in ("alice", "bob"))   # first rated game
    film = await table.bot.service.records.replay_data(game_id, table.guild.id)
    plan = film_plan(film.game, film.names, film.actions)
    assert len(gif_frames(post.files["film.gif"])) == plan.frames
    assert await table.bot.service.adapter_state.final_post(game_id) == (table.channel.id, post.id)
    assert "ttr:help:0:ratings" in post.custom_ids()            # "How ratings work"
    assert "μ" not in post.content and "σ" not in post.content

    # /ttr hand right after the end points to the final post
    hand = await table.slash(bob, "hand")
    link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/{post.id}"
    assert hand.content == t("bot.hand.game_over", game=game_id, link=link)

    # the history links to it and hands out the record
    msg = await table.slash(alice, "server history")
    assert f"**Game {game_id}**" in msg.content
    assert f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/{post.id}" in msg.content
    record = await table.click(alice, msg, f"ttr:record:{game_id}")
    doc = json.loads(record.files[f"ttr-game-{game_id}.json"])
    replayed, _, error = replay(doc)
    assert error is None and replayed.scores() == final.game.scores()

    # statistics as a picture, the leaderboard still empty, the film again
    stats = await ask(table, bob, "server stats", user=alice)
    assert stats.content == t("bot.stats.title", name="alice", where=t("bot.stats.where.server"))
    assert Image.open(io.BytesIO(stats.files["stats.png"])).size == (800, 400)
    board = await table.slash(alice, "server leaderboard")
    assert t("bot.board.empty", count=MIN_GAMES) in board.content
    film_msg = await table.slash(bob, "server replay")
    assert film_msg.files["film.gif"] == post.files["film.gif"]

    # Rematch: bob's click opens the same table, alice is invited; a second click is told
    before = table.public_messages()[-1].id
    done = await table.click(bob, post, f"ttr:rematch:{game_id}")
    assert done.content == t("bot.rematch.opened")
    lobby = next(m for m in table.public_messages() if m.id > before)
    assert f"<@{alice.id}>" in lobby.content and alice.id in lobby.mentions
    new_game = await table.bot.service.load(lobby_game(lobby))
    assert (new_game.map_id, new_game.host_id, new_game.names()) == ("usa", bob.id, ["bob"])
    assert new_game.options["rematch_of"] == game_id
    again = await table.click(alice, post, f"ttr:rematch:{game_id}")
    assert again.content == t("service.rematch_open")
    joined = await table.click(alice, lobby, f"ttr:lobby:{new_game.id}:join")
    assert joined.content == t("bot.lobby.joined", count=2)
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def record_games(service, guild_id, players, rounds):
    """Rated two-player games written straight to the bot's store (with the service's rating
    update): a server with a leaderboard, without playing every game."""
    store = service.core.store
    now = 1_700_000_000.0
    for rnd in range(rounds):
        for i in range(0, len(players), 2):
            a, b = players[(i + rnd) % len(players)], players[(i + rnd + 1) % len(players)]
            now += 60
            game_id = await store.create_game(guild_id=guild_id, channel_id=int(now),
                                              map="europe", variant="base", options={}, seed=1,
                                              host_id=a, now=now)
            for seat, u in enumerate((a, b)):
                await store.add_seat(game_id, seat, user_id=u, display_name=f"u{seat}")
            await store.start_game(game_id, "{}", now=now)
            results = [SeatResult(seat=s, user_id=u, score=100 - s, rank=s + 1, won=s == 0,
                                  tickets_completed=1, name=f"u{s}", turns_human=20,
                                  turns_total=20, rated=True) for s, u in enumerate((a, b))]
            await store.record_results(game_id, results, now=now,
                                       ratings=rating_update(guild_id, results))


async def test_leaderboard_and_history_pages_and_bad_input(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    users = [fake.add_user(f"p{i}", guild=table.guild) for i in range(12)]
    alice = users[0]
    await record_games(table.bot.service, table.guild.id, [u.id for u in users], MIN_GAMES)

    board = await table.slash(alice, "server leaderboard")
    lines = [ln for ln in board.content.splitlines() if ln.startswith("**")]
    assert len(lines) == 10 and lines[0].startswith("**1.** <@")
    assert t("bot.board.footer", page=1, pages=2, total=12, z=3, count=MIN_GAMES) in board.content
    assert board.custom_ids() == [f"ttr:ranks:{table.guild.id}:1:-", f"ttr:ranks:{table.guild.id}:2:-"]
    click = await fake.click(alice, board, f"ttr:ranks:{table.guild.id}:2:-")
    await table.settle()
    page2 = fake.state.messages[board.id]
    assert (await click.response()).type == 6          # the page is edited in place
    assert [ln for ln in page2.content.splitlines() if ln.startswith("**")][0].startswith("**11.**")
    assert t("bot.board.footer", page=2, pages=2, total=12, z=3, count=MIN_GAMES) in page2.content
    assert [c["disabled"] for c in page2.buttons()] == [False, True]
    # one map: everyone played Europe; nobody played Nordic
    europe = await table.slash(alice, "server leaderboard", map="europe")
    assert "**1.** <@" in europe.content
    nordic = await table.slash(alice, "server leaderboard", map="nordic")
    assert t("bot.board.empty_map", map=t("bot.map.nordic"), count=MIN_GAMES) in nordic.content

    # the history: five games a page, newest first, a record button each, older pages
    history = await ask(table, alice, "server history", user=alice)
    total = MIN_GAMES
    assert t("bot.history.footer", page=1, pages=1, total=total) in history.content
    assert sum(1 for c in history.custom_ids() if c.startswith("ttr:record:")) == total
    everyone = await table.slash(alice, "server history")
    assert f"ttr:hist:{table.guild.id}:2:0" in everyone.custom_ids()
    await fake.click(alice, everyone, f"ttr:hist:{table.guild.id}:2:0")
    await table.settle()
    assert t("bot.history.footer", page=2, pages=6, total=30) in fake.state.messages[everyone.id].content

    # bad input: a user with no games, a bot, no game of that number, no games yet
    nobody = fake.add_user("nobody", guild=table.guild)
    msg = await ask(table, alice, "server history", user=nobody)
    assert t("bot.history.none_user", who=f"<@{nobody.id}>") in msg.content
    msg = await ask(table, alice, "server stats", user=nobody)
    assert msg.content == t("bot.stats.title", name="nobody", where=t("bot.stats.where.server"))
    assert "stats.png" in msg.files
    msg = await ask(table, alice, "server stats", user=fake.bot_user)
    assert msg.content == t("bot.stats.bot_user")
    msg = await table.slash(alice, "server replay", game=99999)
    assert msg.content == t("service.no_such_game", game=99999)
    msg = await table.slash(alice, "server export", game=99999)
    assert msg.content == t("service.no_such_game", game=99999)
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_no_games_yet(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    for sub, options, key in (("server replay", {}, "bot.history.none"),
                              ("server history", {}, "bot.history.none"),
                              ("server leaderboard", {}, "bot.board.empty")):
        msg = await table.slash(alice, sub, **options)
        assert t(key, count=MIN_GAMES) in msg.content, sub
    msg = await table.slash(alice, "server stats")
    assert "stats.png" in msg.files
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_game_in_a_thread_of_its_own_and_another_in_the_channel(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    msg = await table.slash(alice, "new", map="europe", thread=True)
    [thread] = [c for c in fake.state.channels.values() if c.parent_id == table.channel.id]
    assert thread.type == PUBLIC_THREAD and thread.name == f"{t('bot.map.europe')} — alice"
    assert msg.content.startswith(t("bot.lobby.opened_thread", thread=f"<#{thread.id}>"))
    hosted = await table.bot.service.game_in_channel(thread.id)
    assert hosted.options["thread"] is True and hosted.is_lobby
    lobby = fake.messages_in(thread)[-1]
    assert find_cid(lobby, "ttr:lobby:")    # in the thread; the channel has one line about it
    assert [m.body() for m in table.public_messages()] == [t(
        "bot.thread.started", map=t("bot.map.europe"), host="alice", thread=f"<#{thread.id}>")]
    joined = await table.click(bob, lobby, f"ttr:lobby:{hosted.id}:join")
    assert joined.content == t("bot.lobby.joined", count=2)
    started = await table.reply(await fake.slash(alice, thread, "ttr", "start"))
    assert started.content == t("bot.lobby.started")
    await table.settle()
    assert any(m.files for m in fake.messages_in(thread))       # the board goes to the thread
    # the channel itself can host another game at the same time
    await table.slash(bob, "new", map="usa")
    assert (await table.bot.service.game_in_channel(table.channel.id)).map_id == "usa"
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_without_the_thread_permission_the_game_opens_in_the_channel(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    for role in table.guild.roles.values():      # neither @everyone nor the bot's role has it
        role.permissions &= ~P["create_public_threads"]
    # alice herself could open one: the bot lacks the permission, not her
    threader = fake.add_role(table.guild, "threads", P["create_public_threads"])
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild, roles=[threader])
    msg = await table.slash(alice, "new", map="usa", thread=True)
    assert msg.content == t("bot.lobby.opened") + "\n" + t("bot.thread.no_permission")
    assert [c for c in fake.state.channels.values() if c.parent_id == table.channel.id] == []
    hosted = await table.bot.service.game_in_channel(table.channel.id)
    assert hosted.is_lobby and "thread" not in hosted.options
    assert find_cid(table.public_messages()[-1], "ttr:lobby:")
    assert any(r.path.endswith("/threads") and r.status == 403 for r in fake.requests)
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_cancelled_game_in_a_thread_gets_its_closing_line_in_the_channel(fake, tmp_path):
    """The channel has one line at the start of a game in a thread and one at its end: the
    result, or, when it was cancelled (a lobby, or a game in play), that it was."""
    table = Table(fake, db_file(tmp_path), threads=True)
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    lines = []
    for started in (False, True):
        table.channel = table.parent or table.channel
        await table.slash(alice, "new", map="usa")          # in a thread, by default
        thread = table.channel
        assert thread.id != table.parent.id
        hosted = await table.bot.service.game_in_channel(thread.id)
        if started:
            lobby = next(m for m in table.public_messages() if find_cid(m, "ttr:lobby:"))
            await table.click(bob, lobby, f"ttr:lobby:{hosted.id}:join")
            await table.slash(alice, "start")
            await table.settle()
        await table.slash(alice, "cancel")
        await table.settle()
        lines += [t("bot.thread.started", map=t("bot.map.usa"), host="alice",
                    thread=f"<#{thread.id}>"),
                  t("bot.thread.cancelled", map="USA", thread=f"<#{thread.id}>")]
        assert [m.body() for m in fake.messages_in(table.parent)] == lines
    fake.assert_clean()
    await fake.stop_bot(table.bot)
