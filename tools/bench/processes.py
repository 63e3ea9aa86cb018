"""Several bot processes on one PostgreSQL database: total actions per second, and the count
that every action was applied once and none lost.

    python -m tools.bench processes [--processes 2] [--games 16] [--seconds 10] [--overlap]
                                      [--db postgresql://...]

The games are spread over the processes' shards (each game's guild on one shard of
--processes); each process (a fresh Python process, its own GameService, shards
TTR_SHARD_IDS=i of TTR_SHARD_COUNT=N) plays random legal moves in all of its games at once,
starting a new game when one finishes, for --seconds. With --overlap every process serves
every shard (the misconfiguration): they play the same games, and a move the other made first
is refused as stale. Afterwards the log is counted against what the processes reported: every
reported (game, seq) is in the log, none reported twice, and the log holds nothing else.
A throwaway server (fsync=off, as the service bench) unless --db names one (needs CREATEDB).
"""
import argparse
import asyncio
import json
import random
import subprocess
import sys
import time

from ttr_bot.service import GameService, ServiceError, Shards
from ttr_bot.store import open_store

from .service import TABLES, PgTarget, pick_action

SHARD_GUILD = 1 << 22       # guild ids i * SHARD_GUILD + 1 are on shard i % count


async def _open(svc, channel, guild_id):
    map_id, variant, n = TABLES[channel % len(TABLES)]
    users = [channel * 10 + i for i in range(n)]
    lobby = await svc.lobby.open_lobby(guild_id=guild_id, channel_id=channel, user_id=users[0],
                                       name="P0", map_id=map_id, variant=variant)
    for i, u in enumerate(users[1:], 1):
        await svc.lobby.join(channel, u, f"P{i}")
    await svc.lobby.start(channel, users[0])
    return lobby.id


async def set_up(url, games, count):
    store = open_store(url)
    await store.open()
    try:
        svc = GameService(store, clock=time.time, seeds=random.Random(1))
        for g in range(games):
            await _open(svc, 1000 + g, (g % count) * SHARD_GUILD + 1)
    finally:
        await store.close()


async def worker(url, index, count, start_at, seconds, overlap):
    """One process: play every game of its shards until the time is up; print the counts."""
    store = open_store(url)
    await store.open()
    shards = Shards(count, tuple(range(count)) if overlap else (index,))
    svc = GameService(store, clock=time.time, seeds=random.Random(index), shards=shards)
    rng = random.Random(index * 7919)
    reported, refused, latencies = [], 0, []
    games = await store.list_active_game_ids(shards=shards)
    next_channel = 100_000 * (index + 1)
    await asyncio.sleep(max(0.0, start_at - time.time()))
    end = time.time() + seconds

    async def play(game_id):
        nonlocal refused, next_channel
        while time.time() < end:
            try:
                loaded = await svc.load(game_id)
            except ServiceError:           # read while the other process kept writing it
                refused += 1
                continue
            if loaded.game.over:
                next_channel += 1          # a new game on one of this process's shards
                game_id = await _open(svc, next_channel, shards.ids[0] * SHARD_GUILD + 1)
                continue
            action = pick_action(loaded.game, rng)
            t = time.perf_counter()
            try:
                eff = await svc.moves.act(game_id, loaded.seats[action.seat].user_id, action,
                                          loaded.seq)
            except ServiceError:
                refused += 1               # the other process moved first
                svc.core.forget(game_id)
                continue
            latencies.append(time.perf_counter() - t)
            reported.append((game_id, eff.seq))
    t0 = time.time()
    await asyncio.gather(*(play(g) for g in games))
    wall = time.time() - t0
    await store.close()
    latencies.sort()
    print(json.dumps({"index": index, "games": len(games), "wall": wall, "refused": refused,
                      "reported": reported,
                      "p50": latencies[len(latencies) // 2] if latencies else None,
                      "p99": latencies[int(len(latencies) * 0.99)] if latencies else None}))


async def counted(url, before):
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT game_id, seq FROM actions")
        return {(r[0], r[1]) for r in rows} - before
    finally:
        await conn.close()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench processes",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--games", type=int, default=16, help="games in play at once, in all")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--overlap", action="store_true",
                    help="every process serves every shard (they play the same games)")
    ap.add_argument("--db", metavar="URL", help="a PostgreSQL server (default: a throwaway one)")
    ap.add_argument("--worker", nargs=4, metavar=("URL", "INDEX", "START", "SECONDS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        url, index, start_at, seconds = args.worker
        asyncio.run(worker(url, int(index), args.processes, float(start_at), float(seconds),
                           args.overlap))
        return 0
    pg = PgTarget(args.db)
    try:
        url = pg.url("procs")
        asyncio.run(set_up(url, args.games, args.processes))
        before = asyncio.run(counted(url, set()))
        start_at = time.time() + 3.0           # every process imported and connected
        procs = [subprocess.Popen(
            [sys.executable, "-m", "tools.bench", "processes", "--processes",
             str(args.processes), *(["--overlap"] if args.overlap else []),
             "--worker", url, str(i), str(start_at), str(args.seconds)],
            stdout=subprocess.PIPE, text=True) for i in range(args.processes)]
        results = [json.loads(p.communicate(timeout=args.seconds + 120)[0]) for p in procs]
        logged = asyncio.run(counted(url, before))
    finally:
        pg.close()
    reported = [tuple(r) for res in results for r in res["reported"]]
    doubled = len(reported) - len(set(reported))
    lost = len(set(reported) - logged)
    unreported = len(logged - set(reported))
    wall = max(res["wall"] for res in results)
    where = "a throwaway server (fsync=off)" if pg.server else "the server --db names"
    print(f"{args.processes} bot processes on one PostgreSQL {pg.version}, {where}; "
          f"{args.games} games in play at once"
          f"{', every process serving every shard (overlap)' if args.overlap else ''}:")
    for res in results:
        print(f"  process {res['index']}: {len(res['reported'])} actions in {res['games']} games, "
              f"{len(res['reported']) / res['wall']:.0f} actions/s, p50 {res['p50'] * 1e3:.1f} ms, "
              f"p99 {res['p99'] * 1e3:.1f} ms, {res['refused']} refused (the other moved first)")
    print(f"  total: {len(reported) / wall:.0f} actions/s ({len(reported)} actions in "
          f"{wall:.1f} s)")
    print(f"  counted in the log: {len(logged)} actions; applied twice: {doubled}; reported "
          f"but lost: {lost}; logged but never reported: {unreported}")
    return 0 if doubled == lost == unreported == 0 else 1
