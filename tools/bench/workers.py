"""Worker-pool figures: what the pool costs, and what it buys the event loop and the computer
players. Each part runs the old way (threads of this process, `asyncio.to_thread`, and timers
fired one at a time, as before issue 13) and the new way (worker processes, timers side by side)
in the same run, on the same positions:

1. the pool: seconds until N workers are ready; each worker's memory (RSS) when ready, after a
   hard decision, and after drawing every map's public and private boards once;
2. the loop's lag: the overshoot of a 10 ms asyncio ticker while D `hard` decisions (Europe,
   five players, mid-game) are in flight; target with 6: p99 <= 15 ms, max <= 50 ms;
3. throughput: the same hard decisions with 1 worker and with 2; target >= 1.8x;
4. games: G games (USA, four players, mid-game) whose computer player is due to move at once,
   through the real GameService, its scheduler and a SQLite file: seconds until the last game's
   computer player has finished its turn; target for 8 games of ~0.6 s of decisions: <= 3 s.

    python -m tools.bench workers [--workers 2] [--decisions 6] [--games 8] [--seed 1]
                                    [--nice 10]

The workers run at the bot's lower CPU priority (nice 10), which is what keeps the loop's lag
low when they fill every core. On a machine shared with other work that priority also yields
to that work: `--nice 0` measures parts 3 and 4 at normal priority.
"""
import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from testkit.sample_games import _greedy, greedy_game, names_for
from ttr_bot.ai import decide
from ttr_bot.engine.view import view
from ttr_bot.maps import available_maps
from ttr_bot.render import render_board
from ttr_bot.service import GameService
from ttr_bot.store import open_store
from ttr_bot.workers import WorkerPool

PRELOAD = ("ttr_bot.ai", "ttr_bot.render", "ttr_bot.maps")
MB = 1024 * 1024
TARGETS = {"lag_p99": 0.015, "lag_max": 0.050, "speedup": 1.8, "games": 3.0}


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


def verdict(ok):
    return "met" if ok else "MISSED"


class Ticker:
    """How late a 10 ms asyncio ticker wakes up while it runs."""

    def __init__(self, period=0.010):
        self.period, self.lags, self._task = period, [], None

    async def _run(self):
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(self.period)
            self.lags.append(loop.time() - t0 - self.period)

    def __enter__(self):
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc):
        self._task.cancel()

    def line(self):
        ms = [x * 1000 for x in self.lags]
        return f"p50 {percentile(ms, 50):5.1f}  p99 {percentile(ms, 99):6.1f}  max {max(ms):6.1f} ms"


def positions(count, seed):
    """(seed, view) of hard decisions: Europe, five players, 40% of the trains laid."""
    out = []
    for i in range(count):
        g = greedy_game("europe", n=5, seed=seed + i, until=0.4)
        out.append((seed + i, view(g, g.current)))
    return out


async def run_decisions(pool, views):
    start = time.perf_counter()
    await asyncio.gather(*(pool.run(decide, "hard", s, v) for s, v in views))
    return time.perf_counter() - start


# ----- 1. the pool ------------------------------------------------------------------------------
async def pool_costs(n):
    pool = WorkerPool(n, preload=PRELOAD)
    start = time.perf_counter()
    await pool.start()
    boots = await pool.wait_ready()
    ready = time.perf_counter() - start
    at_ready = pool.memory()
    (s, v), = positions(1, 100)
    await asyncio.gather(*(pool.run(decide, "hard", s, v) for _ in range(n)))
    after_decision = pool.memory()
    for map_id in available_maps():
        g = greedy_game(map_id, until=0.5)
        for viewer in (None, 0):
            await asyncio.gather(*(pool.run(render_board, g, names_for(g), viewer, "en")
                                   for _ in range(n)))
    after_render = pool.memory()
    await pool.close()

    def mb(sample):
        return " ".join(f"{(x or 0) / MB:.0f}" for x in sample.values())
    print(f"1. pool of {n}: ready in {ready:.2f} s (each worker booted in "
          f"{' '.join(f'{b:.2f}' for b in boots)} s)")
    print(f"   RSS per worker, MiB: ready {mb(at_ready)}; after a hard decision "
          f"{mb(after_decision)}; after drawing every map's boards {mb(after_render)}")


# ----- 2. loop lag, 3. throughput -------------------------------------------------------------
async def loop_lag(n_workers, decisions, seed):
    views = positions(decisions, seed)
    with Ticker() as idle:
        await asyncio.sleep(2.0)
    print(f"2. event loop lag (10 ms ticker overshoot), idle: {idle.line()}")
    threads = WorkerPool(0)
    with Ticker() as before:
        wall_threads = await run_decisions(threads, views)
    pool = WorkerPool(n_workers, preload=PRELOAD)
    await pool.start()
    await pool.wait_ready()
    await run_decisions(pool, views[:n_workers])        # warm: first-use imports and caches
    with Ticker() as after:
        wall_pool = await run_decisions(pool, views)
    await pool.close()
    p99, worst = percentile(after.lags, 99), max(after.lags)
    print(f"   {decisions} hard decisions in threads (before):   {before.line()}  "
          f"({wall_threads:.2f} s)")
    print(f"   {decisions} hard decisions in {n_workers} workers (after): {after.line()}  "
          f"({wall_pool:.2f} s)")
    print(f"   target p99 <= {TARGETS['lag_p99'] * 1000:.0f} ms, max <= "
          f"{TARGETS['lag_max'] * 1000:.0f} ms: "
          f"{verdict(p99 <= TARGETS['lag_p99'] and worst <= TARGETS['lag_max'])}")


async def throughput(decisions, seed, nice):
    views = positions(decisions, seed + 50)
    walls = {}
    for n in (1, 2):
        pool = WorkerPool(n, preload=PRELOAD, nice=nice)
        await pool.start()
        await pool.wait_ready()
        await run_decisions(pool, views[:n])
        walls[n] = await run_decisions(pool, views)
        await pool.close()
    speedup = walls[1] / walls[2]
    print(f"3. throughput (nice {nice}), {decisions} hard decisions: 1 worker {walls[1]:.2f} s "
          f"({decisions / walls[1]:.2f}/s), 2 workers {walls[2]:.2f} s "
          f"({decisions / walls[2]:.2f}/s): {speedup:.2f}x; target >= {TARGETS['speedup']}x: "
          f"{verdict(speedup >= TARGETS['speedup'])}")


# ----- 4. games -----------------------------------------------------------------------------------
async def prepare_games(svc, count):
    """`count` four-player USA games played greedily to 40% of their trains, seat 3 to move;
    then seat 3 is handed to a hard computer player (its move falls due at once)."""
    ids = []
    for i in range(count):
        channel = 1000 + i
        users = [channel * 10 + k for k in range(4)]
        lobby = await svc.lobby.open_lobby(guild_id=1, channel_id=channel, user_id=users[0],
                                           name="p0", map_id="usa")
        for k, user in enumerate(users[1:], start=1):
            await svc.lobby.join(channel, user, f"p{k}")
        await svc.lobby.start(channel, users[0])
        rng, total = random.Random(i), 45 * 4
        while True:
            hosted = await svc.load(lobby.id)
            g = hosted.game
            if (g.phase == "play" and g.step == "idle" and g.current == 3
                    and total - sum(g.trains) >= 0.4 * total):
                break
            seat = g.to_move()[0]
            await svc.moves.act(lobby.id, users[seat], _greedy(g, seat, g.legal_actions(seat), rng),
                                hosted.seq)
        ids.append(lobby.id)
    for game_id in ids:
        await svc.handover.hand_to_bot(game_id, 3, "hard")
    return ids


def serial_cost(hosted):
    """Seconds of hard decisions the computer player's turn takes, one after the other here
    (the same seeds as the service uses, so the same decisions)."""
    game, seq, spent = hosted.game.copy(), hosted.seq, 0.0
    while 3 in game.to_move():
        start = time.perf_counter()
        action = decide("hard", hosted.seed ^ (seq * 7919 + 3), view(game, 3))
        spent += time.perf_counter() - start
        game.apply(action)
        seq += 1
    return spent


async def games_through_the_service(count, workers, concurrency, tmp, label):
    store = open_store(str(Path(tmp) / f"{label}.sqlite3"))
    await store.open()
    svc = GameService(store, seeds=random.Random(1), bot_delay=0.0, workers=workers,
                      scheduler_options={"concurrency": concurrency})
    ids = await prepare_games(svc, count)
    costs = [serial_cost(await svc.load(g)) for g in ids] if label == "before" else None
    done = {}
    with Ticker() as lag:
        start = time.perf_counter()
        await svc.core.scheduler.start()
        while len(done) < len(ids):
            for game_id in ids:
                if game_id not in done and 3 not in (await svc.load(game_id)).game.to_move():
                    done[game_id] = time.perf_counter() - start
            await asyncio.sleep(0.005)
    await svc.close()
    return costs, sorted(done.values()), lag


async def games(count, n_workers, nice):
    with tempfile.TemporaryDirectory(prefix="ttr-bench-workers-") as tmp:
        costs, before, lag_before = await games_through_the_service(
            count, WorkerPool(0), 1, tmp, "before")
        pool = WorkerPool(n_workers, preload=PRELOAD, nice=nice)
        await pool.start()
        await pool.wait_ready()
        _, after, lag_after = await games_through_the_service(count, pool, 16, tmp, "after")
        await pool.close()
    print(f"4. {count} games whose computer player is due at once; its turn's decisions, one "
          f"after the other: {' '.join(f'{c:.2f}' for c in costs)} s (mean "
          f"{sum(costs) / len(costs):.2f}, total {sum(costs):.2f})")
    print(f"   before (threads, timers one at a time): last game done after {before[-1]:.2f} s; "
          f"loop lag {lag_before.line()}")
    print(f"   after ({n_workers} workers at nice {nice}, timers side by side): last game done after "
          f"{after[-1]:.2f} s; loop lag {lag_after.line()}")
    print(f"   (all the decisions spread evenly over {n_workers} workers would take "
          f"{sum(costs) / n_workers:.2f} s)")
    print(f"   target <= {TARGETS['games']:g} s: {verdict(after[-1] <= TARGETS['games'])}")


async def run(args):
    await pool_costs(args.workers)
    await loop_lag(args.workers, args.decisions, args.seed)
    await throughput(max(4, args.decisions), args.seed, args.nice)
    await games(args.games, args.workers, args.nice)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bench workers",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--decisions", type=int, default=6,
                        help="hard decisions in flight for the loop's lag (6)")
    parser.add_argument("--games", type=int, default=8, help="games for part 4 (8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nice", type=int, default=10,
                        help="the workers' lower CPU priority in parts 3 and 4 (10, as the bot)")
    args = parser.parse_args(argv)
    asyncio.run(run(args))
    return 0
