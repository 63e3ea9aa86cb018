"""The end of a game always arrives (issue 36): the final post's pictures are drawn in the worker
pool, which computer players' decisions may keep busy. With the bot's reserved picture worker
the film and the score picture are made while every other worker is taken; with every worker
taken, the final scores still go out within the send's bound, without the film and saying how
to get it. `/ttr server replay`'s film is bounded the same way by the interaction's token."""
import asyncio
import contextlib

import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file
from testkit.endkit import decisions, final_post, finished_game, hold
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e_timer_fuzz import SharedClock
from ttr_bot.discord.bot import PRELOAD
from ttr_bot.discord.commands.history import REPLAY_WITHIN
from ttr_bot.i18n import t
from ttr_bot.service.clock import ManualClock
from ttr_bot.workers import WorkerPool

pytestmark = pytest.mark.asyncio
SEND_TIMEOUT = 5.0      # the outbox's bound on one send, shortened: the test waits for it


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def table_on(fake, tmp_path, pool, clock=None):
    table = Table(fake, db_file(tmp_path), clock=clock)
    table.bot_options["workers"] = pool
    await table.start_bot(sync=True)
    return table


@contextlib.asynccontextmanager
async def saturated(fake, tmp_path, **pool_options):
    """A bot whose game just ended, its final post not yet sent (the outbox not started), and a
    pool whose ordinary worker is held with four decisions queued behind it: (table, game id,
    the held and queued tasks). Everything is released and closed on the way out."""
    pool = WorkerPool(1, preload=PRELOAD, **pool_options)
    await pool.start()
    await pool.wait_ready()
    release = tmp_path / "release"
    table, busy = None, []
    try:
        table = await table_on(fake, tmp_path, pool)
        alice = fake.add_user("alice", guild=table.guild)
        game_id, _ = await finished_game(table.bot, table.channel, alice)
        busy = hold(pool, release) + decisions(pool, 4, 0.01)
        await asyncio.sleep(0)
        yield table, game_id, busy
    finally:
        release.touch()
        for task in busy:
            await asyncio.gather(task, return_exceptions=True)
        if table is not None and table.bot is not None:
            await fake.stop_bot(table.bot)
        await pool.close()


async def test_the_final_post_goes_out_within_its_bound_on_a_saturated_pool(fake, tmp_path):
    """The pool's one worker held by a long decision, four more queued: the final scores go
    out within the send's bound, without the film, saying how to see it (before: the post
    waited for the whole queue, and each retry queued the film again at its back)."""
    async with saturated(fake, tmp_path) as (table, game_id, busy):
        bot = table.bot
        bot.outbox.send_timeout = SEND_TIMEOUT
        before = max((m.id for m in fake.messages_in(table.channel)), default=0)
        bot.outbox.start()
        post, took = await final_post(fake, table.channel, game_id, before, 4 * SEND_TIMEOUT)
        assert post is not None, "the final post waited for the pool"
        assert took <= SEND_TIMEOUT + 2.0, took
        assert "film.gif" not in post.files
        assert t("bot.end.film_later", game=game_id) in post.content
        assert "alice" in post.content and f"ttr:rematch:{game_id}" in post.custom_ids()
        assert not any(task.done() for task in busy)


async def test_the_picture_lane_makes_the_film_while_decisions_hold_the_pool(fake, tmp_path):
    """The bot's shape: one worker reserved for pictures and films. With the ordinary worker
    held and decisions queued, the final post has its score picture and its film, made before
    any of the decisions ran."""
    async with saturated(fake, tmp_path, reserve=1) as (table, game_id, busy):
        bot = table.bot
        # what is checked is the lane, not the send's bound: a loaded machine drawing the film
        # slowly must not leave it out here (the bound has its own test above)
        bot.outbox.lease, bot.outbox.send_timeout = 120.0, 90.0
        before = max((m.id for m in fake.messages_in(table.channel)), default=0)
        bot.outbox.start()
        post, _ = await final_post(fake, table.channel, game_id, before, 100.0)
        assert post is not None, "no final post while decisions held the pool"
        assert set(post.files) == {"final.png", "film.gif"}
        assert not any(task.done() for task in busy)


async def test_the_replay_film_answers_before_the_token_runs_out(tmp_path):
    """Every worker busy: `/ttr server replay` answers, within the 15 minutes of its token,
    that the film could not be made, instead of waiting on the queue for ever."""
    clock = ManualClock()
    pool = WorkerPool(1, preload=PRELOAD)
    await pool.start()
    await pool.wait_ready()
    release = tmp_path / "release"
    held = []
    async with FakeDiscord(clock=SharedClock(clock)) as fake:   # one clock: the token's too
        table = await table_on(fake, tmp_path, pool, clock=clock)
        try:
            alice = fake.add_user("alice", guild=table.guild)
            game_id, _ = await finished_game(table.bot, table.channel, alice)
            held = hold(pool, release)
            await asyncio.sleep(0)
            handle = await fake.slash(alice, table.channel, "ttr", "server replay",
                                      {"game": game_id})
            for _ in range(2000):       # until the film waits in the pool's queue
                if pool._first or pool._waiters:
                    break
                await asyncio.sleep(0.005)
            assert pool._first or pool._waiters, "the film never asked for a worker"
            clock.advance(1.0)          # the command is acknowledged (deferred) meanwhile
            await asyncio.wait_for(handle.response(), 10)
            clock.advance(REPLAY_WITHIN - 1.0)
            answer = await asyncio.wait_for(handle.answer(0), 10)
            assert answer.content == t("bot.replay.failed")
            assert REPLAY_WITHIN < 15 * 60
            fake.assert_clean()
        finally:
            release.touch()
            for task in held:
                await asyncio.gather(task, return_exceptions=True)
            await fake.stop_bot(table.bot)
            await pool.close()
