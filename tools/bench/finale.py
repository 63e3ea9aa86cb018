"""The final post on a saturated worker pool (issue 36): seconds from the moment the outbox may
send a game's final post until it is in the channel, while computer players' decisions keep the
pool busy.

The real bot (TTRBot, unmodified discord.py, a SQLite file, the wall clock) runs against the
fake Discord of the tests (testkit/fakediscord; the game and the busy pool: testkit/endkit.py,
which tests/discord/test_e2e_final_post.py plays too). A short game (host against an `easy`
computer, USA) is played to its end through the service with the outbox stopped; every post but
the final one is marked sent.
Then the pool is saturated: DECISIONS tasks of SECONDS each are queued (the issue's case: four
6-second decisions on a pool of one worker), and the outbox is started. Printed per pool shape:
the final post's delay, whether it has its film and score picture, and how many tries it took.

Pool shapes: `1 worker` (every task in one queue; the picture lane only orders it) and
`1 worker + 1 reserved` (the bot's shape: a worker that takes only pictures and films), the
latter where the pool has reserved workers.

    python -m tools.bench finale [--decisions 4] [--seconds 6] [--limit 120]
"""
import argparse
import asyncio
import inspect
import logging
import tempfile
from pathlib import Path

from testkit.e2e_driver import Table
from testkit.endkit import decisions, final_post, finished_game
from testkit.fakediscord import FakeDiscord
from ttr_bot.discord.bot import PRELOAD
from ttr_bot.workers import WorkerPool


async def one(shape, reserve, args, folder):
    kwargs = {"reserve": reserve} if reserve else {}
    pool = WorkerPool(1, preload=PRELOAD, **kwargs)
    await pool.start()
    await pool.wait_ready()
    queued = []
    try:
        async with FakeDiscord() as fake:
            table = Table(fake, str(Path(folder) / f"{shape}.db"), real_time=True)
            table.bot_options["workers"] = pool
            await table.start_bot(sync=True)
            host = fake.add_user("alice", guild=table.guild)
            game_id, end = await finished_game(table.bot, table.channel, host)
            queued = decisions(pool, args.decisions, args.seconds)
            await asyncio.sleep(0)
            before = max((m.id for m in fake.messages_in(table.channel)), default=0)
            table.bot.outbox.start()
            post, took = await final_post(fake, table.channel, game_id, before, args.limit)
            attempts = await table.bot.service.core.store._auto.fetchval(
                "SELECT attempts FROM outbox WHERE id = $1", end.id)
            tries = None if post is None else attempts + 1
            await fake.stop_bot(table.bot)
    finally:
        for task in queued:
            task.cancel()
        await asyncio.gather(*queued, return_exceptions=True)
        await pool.close()
    if post is None:
        print(f"{shape:24} no final post within {args.limit:.0f} s")
        return
    files = sorted(post.files)
    print(f"{shape:24} final post after {took:6.1f} s   film: {'film.gif' in files!s:5}   "
          f"score picture: {'final.png' in files!s:5}   tries: {tries}")


async def run(args):
    print(f"pool saturated by {args.decisions} decisions of {args.seconds:g} s each")
    with tempfile.TemporaryDirectory() as folder:
        await one("1 worker", 0, args, folder)
        if "reserve" in inspect.signature(WorkerPool).parameters:
            await one("1 worker + 1 reserved", 1, args, folder)
        else:
            print(f"{'1 worker + 1 reserved':24} (this version's pool reserves no worker)")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bench finale")
    parser.add_argument("--decisions", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--limit", type=float, default=120.0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args))
    return 0
