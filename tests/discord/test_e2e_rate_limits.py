"""Discord's rate limits (issue 36): bursts of 429 Too Many Requests, per route (a game's channel,
a player's DMs) and global, with `retry_after`, while two games start. discord.py waits out a
429 itself (sleeping `retry_after`, at most five tries of one request); past that the outbox
retries the row after its backoff, never before `retry_after`. Nothing is lost, nothing is
posted twice, the other game is not held up by the first one's limit, and the requests are
counted: one per 429 Discord answered, plus one per post, no tight retry loop.

Run with `-s` to see the figures (requests sent during the burst)."""
import pytest

from testkit.e2e_driver import Player, Table, db_file
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import lobby_game
from tests.discord.test_e2e_timer_fuzz import SharedClock
from ttr_bot.discord.posting.retries import transient_backoff
from ttr_bot.service.clock import ManualClock

pytestmark = pytest.mark.asyncio
WAIT = 0.05     # seconds each 429 asks for (discord.py sleeps them: real time, kept short)
LONG = 45.0     # ... one that asks for more than discord.py may sleep (RATE_LIMIT_WAIT)


def posts_to(fake, channel, since):
    path = f"/api/v10/channels/{channel.id}/messages"
    return [r for r in fake.requests[since:] if r.method == "POST" and r.path == path]


async def lobby_in(table, channel, host, guest):
    handle = await table.fake.slash(host, channel, "ttr", "new", {"map": "usa", "thread": False})
    await handle.answer(0, timeout=20)
    await table.settle()
    lobby = table.fake.messages_in(channel)[-1]
    game = lobby_game(lobby)
    click = await table.fake.click(guest, lobby, f"ttr:lobby:{game}:join")
    await click.answer(0, timeout=20)
    await table.settle()
    return game


async def test_a_burst_of_429s_loses_nothing_doubles_nothing_and_holds_no_other_game(tmp_path):
    clock = ManualClock()
    async with FakeDiscord(clock=SharedClock(clock)) as fake:
        table = Table(fake, db_file(tmp_path), clock=clock)
        await table.start_bot(sync=True)
        try:
            other = fake.add_text_channel(table.guild, "other-table")
            alice, bob, carol, dave = (fake.add_user(n, guild=table.guild)
                                       for n in ("alice", "bob", "carol", "dave"))
            await lobby_in(table, table.channel, alice, bob)
            await lobby_in(table, other, carol, dave)
            before = {ch.id: len(fake.messages_in(ch)) for ch in (table.channel, other)}
            dms_before = {u.id: len(fake.dms_to(u)) for u in (alice, bob, carol, dave)}
            mark = len(fake.requests)

            # a global limit on posting (two requests), game A's channel over its route's limit
            # for seven tries (more than discord.py's five), alice's DMs for three
            rush = fake.rate_limit(2, path="/channels/", retry_after=WAIT, is_global=True)
            route = fake.rate_limit(7, channel=table.channel, retry_after=WAIT)
            dm = fake.rate_limit(3, channel=fake.dm_channel(alice), method=None,
                                 retry_after=WAIT)
            # bob's DMs limited for longer than discord.py may sleep (max_ratelimit_timeout):
            # it raises RateLimited at once, and the outbox waits the retry_after itself
            long = fake.rate_limit(1, channel=fake.dm_channel(bob), method=None,
                                   retry_after=LONG)
            for host, channel in ((alice, table.channel), (carol, other)):
                handle = await fake.slash(host, channel, "ttr", "start", {})
                await handle.answer(0, timeout=20)
            await table.settle()

            # game B's start went out while A's post waits for its retry; both players' hands
            # reached them, alice's after discord.py waited out her DMs' limit
            assert len(fake.messages_in(other)) > before[other.id], (
                [(r.id, r.kind, str(r.lane), r.attempts, r.due_at - clock())
                 for r in await table.bot.service.queue.owed_messages()],
                [(r.method, r.path, r.status) for r in fake.requests[mark:]])
            assert all(len(fake.dms_to(u)) > dms_before[u.id] for u in (alice, carol, dave))
            assert len(fake.dms_to(bob)) == dms_before[bob.id] and long.answered == 1
            assert len(fake.messages_in(table.channel)) == before[table.channel.id]
            # discord.py's five tries of A's post (a global 429 among them), then the outbox's
            assert [r.status for r in posts_to(fake, table.channel, mark)] == [429] * 5
            (waiting,) = [r for r in await table.bot.service.queue.owed_messages()
                          if r.lane.id == table.channel.id]
            assert waiting.due_at - clock() >= max(WAIT, transient_backoff(0))
            bobs = [r for r in await table.bot.service.queue.owed_messages() if r.lane.id == bob.id]
            assert bobs and min(r.due_at for r in bobs) - clock() >= LONG
            sent_while_waiting = len(fake.requests)
            for _ in range(5):      # the loop goes round; the clock stands still: no request
                table.bot.outbox.wake()
                await table.settle()
            assert len(fake.requests) == sent_while_waiting

            clock.advance(transient_backoff(0))
            await table.settle()
            posted = fake.messages_in(table.channel)[before[table.channel.id]:]
            assert posted, "game A's start was lost"
            assert len(fake.dms_to(bob)) == dms_before[bob.id]     # its retry_after runs on
            clock.advance(LONG)
            await table.settle()
            assert len(fake.dms_to(bob)) > dms_before[bob.id]
            assert not await table.bot.service.queue.owed_messages()
            # nothing twice: each post once, whatever the retries (the nonce kept them one)
            for channel in (table.channel, other):
                texts = [m.content for m in fake.messages_in(channel)[before[channel.id]:]]
                assert len(texts) == len(set(texts)), texts
            for u in (alice, bob, carol, dave):
                texts = [m.content for m in fake.dms_to(u)[dms_before[u.id]:]]
                assert len(texts) == len(set(texts)), (u.username, texts)
            # every 429 Discord answered cost one request, every post one more: no loop
            limited = [r for r in fake.requests[mark:] if r.status == 429]
            assert (rush.answered, route.answered, dm.answered, long.answered) == (2, 7, 3, 1)
            assert len(limited) == 13
            a_posts = posts_to(fake, table.channel, mark)
            assert len(a_posts) == len(posted) + sum(1 for r in a_posts if r.status == 429)
            print(f"\n429 burst: {len(fake.requests) - mark} requests in all, {len(limited)} "
                  f"answered 429 (2 global, 7 on game A's channel, 3 on alice's DMs, 1 on bob's); "
                  f"game A's start: {len(a_posts)} POSTs for {len(posted)} post(s)")
            # the first turn post of game A: both keep their tickets, the card meets a
            # route limit past discord.py's tries and both players' DMs a limit it waits out
            mark2, cards = len(fake.requests), len(fake.messages_in(table.channel))
            fake.rate_limit(6, channel=table.channel, retry_after=WAIT)
            for u in (alice, bob):
                fake.rate_limit(2, channel=fake.dm_channel(u), method=None, retry_after=WAIT)
            for i, u in enumerate((alice, bob)):
                await Player(table, u, seed=i).move()
            await table.settle()
            assert len(fake.messages_in(table.channel)) == cards     # waits for its retry
            clock.advance(transient_backoff(0))
            await table.settle()
            turn = fake.messages_in(table.channel)[cards:]
            assert len(turn) == 1 and not await table.bot.service.queue.owed_messages()
            assert [r.status for r in posts_to(fake, table.channel, mark2)] == [429] * 6 + [200]
            print(f"\nturn post: {len(fake.requests) - mark2} requests, "
                  f"{sum(r.status == 429 for r in fake.requests[mark2:])} answered 429")
            fake.assert_clean()
        finally:
            await fake.stop_bot(table.bot)
