"""A server's game life at scale: how fast the leaderboard, statistics and history answer with
10,000 finished games stored, and that the stored ratings are what the results recompute to.

    python -m tools.bench stats [--games N] [--players N] [--calls N] [--dir DIR]
                                  [--pg | --db postgresql://...]

The games are written the way the bot finishes a game: each through the store's finishing
transaction with the service's rating update (finish.rating_update), so the ratings, their log
and the indexes are the real ones. Tables of two to five seats, players of one server chosen
with a skew (a few play a lot, many a little), now and then a computer player or a player who
left. The figures are the service's answers (GameService.leaderboard, .stats, .history) plus,
for the leaderboard, the text the bot sends (leaderboard_text.leaderboard_text): what
/ttr server leaderboard waits for before it answers. Target: under 100 ms at the 95th percentile.

SQLite goes to a file under /dev/shm when there is one (or --dir): writing 10,000 games takes
~50,000 synchronous commits, which a disk makes slow and which are not what is measured here.
With --pg the same on a throwaway PostgreSQL server (fsync off), or --db on a server of yours.
"""
import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from ttr_bot.discord.text.leaderboard_text import leaderboard_text
from ttr_bot.ratings import MIN_GAMES, seat_status
from ttr_bot.service import GameService
from ttr_bot.service.finish import rated_seat, rating_update
from ttr_bot.store import GLOBAL_SCOPE, SeatResult, open_store

GUILD = 1
MAPS = ("usa", "usa", "europe", "europe", "switzerland", "nordic")
SIZES = (2, 2, 3, 3, 4, 5)
TARGET_P95 = 0.100


async def fill(store, games, players, seed=1):
    """`games` finished, rated games of one server; returns seconds per game written."""
    rng = random.Random(seed)
    people = list(range(1000, 1000 + players))
    weights = [1 / (k + 1) ** 0.7 for k in range(players)]
    now = 1_700_000_000.0
    started = time.perf_counter()
    for g in range(games):
        n = rng.choice(SIZES)
        if n > 2 and g % 7 == 0:
            n = 5 if MAPS[g % len(MAPS)] in ("usa", "europe") else 3
        map_id = MAPS[g % len(MAPS)]
        if map_id in ("switzerland", "nordic"):
            n = min(n, 3)
        seated = []
        while len(seated) < n:
            u = rng.choices(people, weights)[0]
            if u not in seated:
                seated.append(u)
        bots = {n - 1} if n > 2 and rng.random() < 0.15 else set()
        left = {1} if rng.random() < 0.05 else set()
        now += 90.0
        game_id = await store.create_game(guild_id=GUILD, channel_id=10_000 + g % 50, map=map_id,
                                          variant="base", options={}, seed=g, host_id=seated[0],
                                          now=now, host_name=f"P{seated[0]}")
        for seat in range(1, n):
            if seat in bots:
                await store.add_seat(game_id, seat, user_id=None, display_name="Bot", bot_level=1)
            else:
                await store.add_seat(game_id, seat, user_id=seated[seat],
                                     display_name=f"P{seated[seat]}")
        await store.start_game(game_id, "{}", now=now)
        scores = [rng.randint(40, 160) for _ in range(n)]
        rank = [1 + sum(1 for x in scores if x > s) for s in scores]
        turns = rng.randint(30, 60)
        results = []
        for seat in range(n):
            human = seat not in bots
            gone = seat in left
            results.append(SeatResult(
                seat=seat, user_id=seated[seat] if human and not gone else None,
                score=scores[seat], rank=rank[seat], won=rank[seat] == 1,
                tickets_completed=rng.randint(0, 5), former_user_id=seated[seat] if gone else None,
                name=f"P{seated[seat]}" if human else "Bot", tickets_failed=rng.randint(0, 2),
                longest_bonus=rank[seat] == 1 if map_id != "nordic" else None,
                turns_human=(3 if gone else turns) if human else 0, turns_total=turns,
                handover="left" if gone else None, rated=None))
        update = rating_update(GUILD, results)      # as the service's finish does
        results = [replace(r, rated=update is not None
                           and seat_status(rated_seat(r)) in ("rated", "left")) for r in results]
        await store.record_results(game_id, results, now=now, ratings=update)
    return (time.perf_counter() - started) / games


async def _analyze(url):
    """Refresh PostgreSQL's planner statistics after the bulk load, as its autovacuum would
    soon after on a live server (SQLite's planner keeps none unless asked)."""
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def timed(fn, calls):
    times = []
    for i in range(calls):
        t = time.perf_counter()
        await fn(i)
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2], times[max(0, int(len(times) * 0.95) - 1)], times[-1]


async def measure(url, games, players, calls):
    store = open_store(url)
    await store.open()
    try:
        per_game = await fill(store, games, players)
        if url.startswith(("postgresql://", "postgres://")):
            await _analyze(url)
        svc = GameService(store)
        board = await svc.records.leaderboard(GUILD)
        pages = board.pages
        rng = random.Random(2)
        top = 1000                   # the most active player (the heaviest weight)
        rows = []

        async def lb_first(_):
            leaderboard_text(await svc.records.leaderboard(GUILD, 1), "en")

        async def lb_page(_):
            leaderboard_text(await svc.records.leaderboard(GUILD, rng.randint(1, pages)), "en")

        async def lb_map(_):
            leaderboard_text(await svc.records.leaderboard(GUILD, 1, map_id="europe"), "en")

        async def stats(_):
            await svc.records.stats(GUILD, top, name="P")

        async def history(_):
            await svc.records.history(GUILD, 1, per_page=5)

        async def history_deep(_):
            await svc.records.history(GUILD, games // 5 - 1, per_page=5)

        async def history_user(_):
            await svc.records.history(GUILD, 1, user_id=top, per_page=5)

        for name, fn in (("/ttr server leaderboard (page 1)", lb_first),
                         ("/ttr server leaderboard (a random page)", lb_page),
                         ("/ttr server leaderboard map:europe", lb_map),
                         ("/ttr server stats (the most active player)", stats),
                         ("/ttr server history (page 1)", history),
                         ("/ttr server history (the last page)", history_deep),
                         ("/ttr server history user: (page 1)", history_user)):
            rows.append((name, *await timed(fn, calls)))
        t = time.perf_counter()
        again = await svc.records.recompute_ratings(GUILD)
        recompute = time.perf_counter() - t
        stored = await svc.records.stored_ratings(GUILD, list(again))
        glob = await svc.records.recompute_ratings(GLOBAL_SCOPE)
        equal = stored == again and await svc.records.stored_ratings(GLOBAL_SCOPE, list(glob)) == glob
        return {"per_game": per_game, "rows": rows, "players": len(again),
                "listed": board.total, "recompute": recompute, "equal": equal}
    finally:
        await store.close()


def report(fig, games, where):
    print(f"{games} finished games on {where}: {fig['players']} rated players, {fig['listed']} "
          f"on the leaderboard (at least {MIN_GAMES} rated games); written and rated at "
          f"{fig['per_game'] * 1000:.1f} ms a game (finishing transaction with the rating)")
    print(f"{'answer':<40} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, p50, p95, top in fig["rows"]:
        print(f"{name:<40} {p50 * 1000:>8.2f} {p95 * 1000:>8.2f} {top * 1000:>8.2f}")
    print(f"recomputing the server's ratings from the results: {fig['recompute']:.2f} s; "
          f"equal to the stored ones (server and global): {'yes' if fig['equal'] else 'NO'}")
    p95 = fig["rows"][0][2]
    ok = p95 <= TARGET_P95 and fig["equal"]
    print(f"/ttr server leaderboard answers in {p95 * 1000:.1f} ms at the 95th percentile "
          f"(target {TARGET_P95 * 1000:.0f} ms){'' if ok else '  (MISSED)'}")
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench stats",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--calls", type=int, default=200, help="answers timed per row")
    ap.add_argument("--dir", help="where the SQLite file goes (default: /dev/shm or a temp dir)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--pg", action="store_true", help="on a throwaway PostgreSQL server")
    where.add_argument("--db", help="on this PostgreSQL server (postgresql://...; needs CREATEDB)")
    args = ap.parse_args(argv)
    if args.pg or args.db:
        from .service import PgTarget
        pg = PgTarget(args.db)
        try:
            url = pg.url("stats")
            fig = asyncio.run(measure(url, args.games, args.players, args.calls))
            return 0 if report(fig, args.games, f"PostgreSQL {pg.version}") else 1
        finally:
            pg.close()
    base = args.dir or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    with tempfile.TemporaryDirectory(dir=base) as tmp:
        path = Path(tmp) / "stats.sqlite3"
        fig = asyncio.run(measure(str(path), args.games, args.players, args.calls))
        size = path.stat().st_size / 2**20
        return 0 if report(fig, args.games, f"SQLite ({size:.0f} MiB, {tmp})") else 1


if __name__ == "__main__":
    sys.exit(main())
