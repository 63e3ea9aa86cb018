"""A game's end on a busy worker pool (issue 36): a game played to its end through the service,
with every post but its final one marked sent, so that only the final post is left for the
outbox; the pool then kept busy by long tasks (testkit/pool_tasks.py), and the final post
waited for. Shared by tests/discord/test_e2e_final_post.py and the benchmark
`python -m tools.bench finale` (tools/bench/finale.py)."""
import asyncio

from testkit import pool_tasks as tasks
from ttr_bot.ai import make_agent
from ttr_bot.service.messages import TurnPost


async def finished_game(bot, channel, host):
    """A short game (the host against a computer, on USA) played to its end through the service
    while the outbox worker is stopped; every row it owes is marked sent but its final post.
    (game id, the final post's row)."""
    svc = bot.service
    await bot.outbox.stop()
    hosted = await svc.lobby.open_lobby(guild_id=channel.guild_id, channel_id=channel.id,
                                        user_id=host.id, name=host.username, map_id="usa")
    await svc.lobby.add_bot(channel.id, host.id, "easy")
    await svc.lobby.start(channel.id, host.id)
    agent = make_agent("easy", seed=3)
    for _ in range(3000):
        hosted = await svc.load(hosted.id)
        if hosted.game.over:
            break
        if 0 in hosted.game.to_move():
            await svc.moves.act(hosted.id, host.id, agent.act(hosted.view(0)))
        else:
            await svc.moves.play_bot(hosted.id)
        await asyncio.sleep(0)          # the gateway's heartbeats go on meanwhile
    assert hosted.game.over
    owed = await svc.queue.owed_messages(10_000)
    (end,) = [r for r in owed if isinstance(r.message, TurnPost) and r.message.over]
    await svc.queue.delivered([r.id for r in owed if r.id != end.id])
    return hosted.id, end


def hold(pool, release, count=1, first=False):
    """`count` tasks that keep a worker each until the file `release` exists."""
    return [asyncio.ensure_future(pool.run(tasks.hold, str(release), first=first, timeout=600))
            for _ in range(count)]


def decisions(pool, count, seconds):
    """`count` decisions of `seconds` each, queued (a burst of computer players' moves)."""
    return [asyncio.ensure_future(pool.run(tasks.sleep, seconds, timeout=600))
            for _ in range(count)]


async def final_post(fake, channel, game_id, after, timeout):
    """The final post of `game_id` posted after message id `after`, waited for (polled) at
    most `timeout` seconds: (the message, seconds it took), or (None, timeout)."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    mark = f"ttr:rematch:{game_id}"
    while loop.time() - began < timeout:
        for m in fake.messages_in(channel):
            if m.id > after and mark in m.custom_ids():
                return m, loop.time() - began
        await asyncio.sleep(0.02)
    return None, timeout
