"""Computer players think in worker processes: a worker killed in the middle of a decision, or
a decision that hangs, loses no move. The durable bot-move timer fires again (with backoff), and
the move is made exactly once; a decision that keeps failing is played, on its last try, as
the easy level plays it, so the game never stalls."""
import os
import signal
import time

import pytest
import pytest_asyncio

from tests.service import slow_agents
from tests.service.svckit import users_for
from ttr_bot.service import GameService
from ttr_bot.workers import WorkerPool

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def pool():
    p = WorkerPool(1, preload=("ttr_bot.ai",))
    await p.start()
    await p.wait_ready()
    yield p
    await p.close()


async def game_with_a_computer_to_move(svc, channel_id=70):
    """A two-seat game: a human host and a computer player, which is to move first (start the
    scheduler before: resuming would give the move a second, harmless, timer)."""
    host = users_for(channel_id, 1)[0]
    lobby = await svc.lobby.open_lobby(guild_id=1, channel_id=channel_id, user_id=host, name="Ann",
                                       map_id="usa")
    await svc.lobby.add_bot(channel_id, host, "hard")
    await svc.lobby.start(channel_id, host)
    return lobby.id


def service(store, pool, agents, **kw):
    svc = GameService(store, clock=time.time, bot_delay=0.0, agents=agents, workers=pool,
                      **kw)
    svc.core.scheduler.retry_delay = 0.05
    return svc


async def bot_actions(store, game_id):
    return [a for a in await store.load_actions(game_id) if a.actor == 1]


async def test_a_worker_killed_mid_decision_loses_no_move(store, pool, eventually):
    svc = service(store, pool, slow_agents.slow)
    first_worker = pool.pids()[0]
    await svc.resume()
    try:
        game_id = await game_with_a_computer_to_move(svc)
        await eventually(lambda: pool.busy == 1, timeout=20)     # thinking
        os.kill(first_worker, signal.SIGKILL)
        await eventually(lambda: bot_actions(store, game_id), timeout=30)   # retried, done
        await svc.core.scheduler.idle()
        assert pool.stats["crashed"] == 1 and first_worker not in pool.pids()
        moves = await bot_actions(store, game_id)
        assert [m.seq for m in moves] == [1]                     # made once, at its seq
        assert await store.due_timers(time.time() + 3600) == []  # nothing left to retry
    finally:
        await svc.stop()


async def test_a_hung_decision_times_out_and_the_last_try_still_moves(store, pool, eventually):
    svc = service(store, pool, slow_agents.hanging_unless_easy, decision_timeout=0.3)
    await svc.resume()
    try:
        game_id = await game_with_a_computer_to_move(svc, channel_id=71)
        await eventually(lambda: bot_actions(store, game_id), timeout=60)
        await svc.core.scheduler.idle()
        assert pool.stats["timed_out"] == svc.core.scheduler.max_attempts - 1
        moves = await bot_actions(store, game_id)
        assert [m.seq for m in moves] == [1]
        hosted = await svc.load(game_id)
        assert hosted.seq == 1 and hosted.seats[1].level == "hard"   # still a hard player
    finally:
        await svc.stop()


async def test_decisions_of_different_games_run_side_by_side(store, eventually):
    """Two slow decisions (2 s each) in two games, with two workers: both moves are made in
    about the time of one."""
    p = WorkerPool(2, preload=("ttr_bot.ai",))
    await p.start()
    await p.wait_ready()
    svc = service(store, p, slow_agents.slow)
    await svc.resume()
    try:
        start = time.monotonic()
        games = [await game_with_a_computer_to_move(svc, channel_id=c) for c in (72, 73)]

        async def both_moved():
            return all([await bot_actions(store, g) for g in games])
        await eventually(both_moved, timeout=30)
        assert time.monotonic() - start < 3.5          # not 4 s one after the other
    finally:
        await svc.stop()
        await p.close()
