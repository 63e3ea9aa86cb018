"""End to end over the fake Discord, on a ManualClock (days pass in seconds, no test waits for
time): a whole game over two simulated weeks where one player stops answering and the game
still finishes; a turn post the bot may not make reaches the host; a deleted channel or thread
closes its game; and the living hand message keeps a 3-player game to a few DMs per player."""
import random
from collections import Counter

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game, public_leaks
from tests.service.svckit import run_timers
from ttr_bot.i18n import t
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.turns import DAY, HOUR

pytestmark = pytest.mark.asyncio
MAX_ACTIONS = 3000


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def tick(table, seconds):
    """Let `seconds` of game time pass; whatever fell due is handled and delivered."""
    table.clock.advance(seconds)
    await run_timers(table.bot.service)
    await table.settle()


def dm_posts(fake, user):
    """New DMs the bot sent the user (each one a notification), and its edits of them."""
    dm = fake.state.dm_channel_for(user.id)
    posts = sum(1 for r in fake.requests if r.method == "POST"
                and r.path.endswith(f"/channels/{dm.id}/messages") and r.status == 200)
    edits = sum(1 for r in fake.requests if r.method == "PATCH"
                and f"/channels/{dm.id}/messages/" in r.path and r.status == 200)
    return posts, edits


async def test_a_game_over_two_weeks_with_a_player_who_stops_answering(fake, tmp_path):
    clock = ManualClock()
    start = clock()
    table = Table(fake, db_file(tmp_path), clock=clock, bot_delay=2.0)
    await table.start_bot(sync=True)
    alice, bob, carol = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob", "carol"))
    # one card a click (not "2 from the deck"): every move takes its hours, two weeks in all
    players = {u.id: Player(table, u, seed=i, twice=False) for i, u in enumerate((alice, bob, carol))}
    await table.slash(alice, "new", map="usa", deadline=24)
    lobby = table.public_messages()[-1]
    assert t("bot.settings.deadline", count=24) in lobby.content
    game_id = int(next(c for c in lobby.custom_ids() if c.startswith("ttr:lobby:")).split(":")[2])
    for user in (bob, carol):
        await table.click(user, lobby, f"ttr:lobby:{game_id}:join")
    await table.slash(alice, "start")
    await table.settle()
    rng = random.Random(4)
    vanished = False
    for _ in range(MAX_ACTIONS):
        loaded = await table.bot.service.load(game_id)
        game = loaded.game
        if game.over:
            break
        seat = game.to_move()[0]
        user = loaded.seats[seat].user_id
        if user is None:                    # a computer player: its short pause
            await tick(table, 2.5)
            continue
        if user == carol.id and game.phase == "play" and game.turn >= 6:
            vanished = True                 # carol stopped answering: her time runs out
            for hours in (12, 7.2, 4.8):    # reminded at half of it (once: a day apart at most)
                await tick(table, hours * HOUR + 1)
            continue
        await players[user].move()
        await tick(table, rng.uniform(1.0, 4.0) * HOUR)    # people take their time
    else:
        raise AssertionError("the game did not end")
    final = await table.bot.service.load(game_id)
    assert final.game.over and vanished and final.status == "finished"
    assert clock() - start >= 13 * DAY          # two weeks, simulated
    carol_seat = 2
    assert final.seats[carol_seat].former_user_id == carol.id
    assert final.seats[carol_seat].handover == "timeout"
    messages = table.public_messages()
    text = "\n".join(m.body() for m in messages)
    timed_out = t("bot.turn.timeout", name="carol", level=t("bot.level.medium"))
    assert text.count(timed_out) == 3
    assert t("bot.seat.timeout_return", mention=f"<@{carol.id}>") in text
    # one reminder a turn (at half of the 24 h; the next would be within a day), not two
    assert text.count(t("bot.remind.channel", mention=f"<@{carol.id}>")) == 3
    assert "⏳ " in text and "<t:" in text          # the turn posts show the deadline
    reveal = next(m for m in messages if "🏁" in m.content)
    assert public_leaks(messages, final.game.board, reveal.id) == []
    results = {r.seat: r for r in await table.bot.service.core.store.load_results(game_id)}
    assert results[carol_seat].user_id is None and results[carol_seat].former_user_id == carol.id
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_turn_post_refused_for_missing_permission_reaches_the_host(fake, tmp_path):
    clock = ManualClock()
    table = Table(fake, db_file(tmp_path), clock=clock)
    await table.start_bot(sync=True)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    await open_game(table, alice, [bob], map_id="usa", bots=0)
    for user in (alice, bob):
        await table.slash(user, "keep", tickets="1,2")
    await table.settle()
    before = len(table.public_messages())
    await fake.set_bot_can_send(table.channel, False)
    loaded = await table.bot.service.load((await table.game()).id)
    mover = alice if loaded.game.current == 0 else bob
    other = bob if mover is alice else alice
    await table.slash(mover, "tickets")             # the answer is private: it still works
    await table.slash(mover, "keep", tickets="1")   # the turn ends: its post is refused
    await table.settle()
    assert len(table.public_messages()) == before
    for user in {alice.id: alice, other.id: other}.values():    # the host, the player to move
        dms = [m.content for m in fake.dms_to(user)]
        assert any(t("bot.perm.send_messages") in d and "⚠️" in d for d in dms), dms
    await fake.set_bot_can_send(table.channel, True)
    await tick(table, 61)                           # the post was kept owed: retried
    posts = table.public_messages()[before:]
    assert len(posts) == 1 and f"<@{other.id}>" in posts[0].text()
    warnings = [m for m in fake.dms_to(alice) if "⚠️" in m.content]
    assert len(warnings) == 1                       # told once, not at every retry
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_deleted_channel_or_thread_closes_its_game(fake, tmp_path):
    clock = ManualClock()
    table = Table(fake, db_file(tmp_path), clock=clock)
    await table.start_bot(sync=True)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    channel = table.channel
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    await fake.delete_channel(channel)              # CHANNEL_DELETE reaches the bot
    for _ in range(200):
        if not (await table.bot.service.load(game_id)).is_open:
            break
        await tick(table, 0)
    hosted = await table.bot.service.load(game_id)
    assert hosted.status == "cancelled" and hosted.end_reason == "channel_gone"
    await table.settle()
    for user in (alice, bob):
        assert any("its channel was deleted" in m.content for m in fake.dms_to(user))
    # a thread gone without the bot seeing an event: the next post gets 10003
    other = fake.add_text_channel(table.guild, "more")
    table.channel = fake.add_thread(other, "game")
    second = await open_game(table, alice, [bob], map_id="usa", bots=0)
    fake.state.channels.pop(table.channel.id)
    fake.state.deleted_channels.add(table.channel.id)
    await table.bot.service.absence.channel_gone(-1)        # nothing there: nothing happens
    for user in (alice, bob):
        await table.bot.service.moves.act(second, user.id, await keep_all(table, second, user.id))
    await table.settle()
    hosted = await table.bot.service.load(second)
    assert hosted.status == "cancelled" and hosted.end_reason == "channel_gone"
    assert await table.bot.service.core.store.load_actions(second)      # the record is kept
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def keep_all(table, game_id, user_id):
    from ttr_bot.engine.actions import KeepTickets
    seat, v = await table.bot.service.moves.player_view(game_id, user_id)
    return KeepTickets(seat, tuple(v.offer))


async def test_dms_per_player_in_a_three_player_game(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    users = [fake.add_user(n, guild=table.guild) for n in ("alice", "bob", "carol")]
    players = {u.id: Player(table, u, seed=i) for i, u in enumerate(users)}
    game_id = await open_game(table, users[0], users[1:], map_id="usa", bots=0)
    for _ in range(MAX_ACTIONS):
        loaded = await table.wait_for_humans()
        if loaded.game.over:
            break
        await players[loaded.seats[loaded.game.to_move()[0]].user_id].move()
    counts = {u.username: dm_posts(fake, u) for u in users}
    print(f"DMs per player in a 3-player game (new DMs, edits): {counts}")
    for user in users:
        posts, edits = counts[user.username]
        assert posts <= 12 and edits >= 10, counts        # ~44 new DMs each before
        live = fake.dms_to(user)
        assert len(live) == 1                           # one living hand message per game
        assert t("bot.hand.end", channel=f"<#{table.channel.id}>", place=1,
                 count=0).split("{")[0][:10] in live[0].content
    kinds = Counter(r.kind for r in await table.bot.service.core.store.pending_outbox())
    assert not kinds, kinds                             # everything owed was delivered
    assert (await table.bot.service.load(game_id)).game.over
    fake.assert_clean()
    await fake.stop_bot(table.bot)
