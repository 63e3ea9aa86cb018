"""Timer figures: how long a bot with many stored games takes, after a restart, to handle every
timer that fell due while it was down; and how late timers fire in the steady state when a
thousand games' timers fall due within the same minute.

    python -m tools.bench timers [--games 10000] [--burst 1000] [--db DIR]

1. Restart: GAMES two-player USA games with a 24 h deadline, all in the starting ticket choice,
   each with its timers (per player: the deadline and the reminders at 50% and 80%), written
   straight into a fresh SQLite file (copies of one game the service made), then the bot is
   "down for three days": every timer is overdue. Measured: wall time from the service's start
   (migrations done, scheduler started, the overdue reminders coalesced) until no timer is due;
   every deadline plays that player's ticket choice with a medium computer player, once.
2. Steady state: BURST games whose reminders fall due at random within one minute, fired by the
   running scheduler on the wall clock; lateness = when the handler ran minus when it was due.

Both on the real store (SQLite, synchronous commits) on this machine's disk (--db: where).
"""
import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path


def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


async def template(path, clock, options):
    """One game made by the service (lobby, two players, started): its rows to copy."""
    from ttr_bot.service import GameService
    from ttr_bot.store import open_store
    store = open_store(str(path))
    await store.open()
    svc = GameService(store, clock=clock, seeds=random.Random(1))
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=1, user_id=11, name="Ann", map_id="usa",
                                        options=options)
    await svc.lobby.join(1, 12, "Bob")
    await svc.lobby.start(1, 11)
    await store.close()
    return loaded.id


def clone(path, game_id, copies, kinds):
    """`copies` more games like `game_id` (new ids and channels), with their timers of `kinds`,
    in one transaction (the bench's set-up, not what is measured)."""
    db = sqlite3.connect(path)
    cols = lambda t: [r[1] for r in db.execute(f"PRAGMA table_info({t})")]    # noqa: E731
    g = dict(zip(cols("games"), db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()))
    seats = [dict(zip(cols("seats"), r)) for r in
             db.execute("SELECT * FROM seats WHERE game_id = ?", (game_id,))]
    snap = dict(zip(cols("snapshots"), db.execute("SELECT * FROM snapshots WHERE game_id = ?",
                                                  (game_id,)).fetchone()))
    marks = ", ".join("?" * len(kinds))
    timers = [dict(zip(cols("timers"), r)) for r in db.execute(
        f"SELECT * FROM timers WHERE game_id = ? AND kind IN ({marks})", (game_id, *kinds))]
    with db:
        for n in range(copies):
            gid = game_id + n + 1
            row = {**g, "id": gid, "channel_id": 10_000 + gid}
            db.execute(f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                       tuple(row.values()))
            for s in seats:
                s = {**s, "game_id": gid, "user_id": s["user_id"] + gid * 10}
                db.execute(f"INSERT INTO seats ({', '.join(s)}) VALUES ({', '.join('?' * len(s))})",
                           tuple(s.values()))
            s = {**snap, "game_id": gid}
            db.execute(f"INSERT INTO snapshots ({', '.join(s)}) VALUES ({', '.join('?' * len(s))})",
                       tuple(s.values()))
            for t in timers:
                t = {k: v for k, v in t.items() if k != "id"} | {"game_id": gid}
                db.execute(f"INSERT INTO timers ({', '.join(t)}) VALUES ({', '.join('?' * len(t))})",
                           tuple(t.values()))
        db.execute("DELETE FROM outbox")
    db.close()


async def restart(args, tmp):
    from ttr_bot.service import GameService
    from ttr_bot.service.clock import ManualClock
    from ttr_bot.service.turns import DAY
    from ttr_bot.store import open_store
    path = Path(tmp) / "restart.sqlite3"
    clock = ManualClock()
    game_id = await template(path, clock, {"deadline": 24})
    clone(path, game_id, args.games - 1, ("deadline", "remind"))
    clock.advance(3 * DAY)                  # down for three days: everything is overdue
    db = sqlite3.connect(path)
    timers = db.execute("SELECT COUNT(*) FROM timers").fetchone()[0]
    db.close()
    t0 = time.perf_counter()
    store = open_store(str(path))
    await store.open()
    svc = GameService(store, clock=clock, seeds=random.Random(2))
    await svc.resume()
    while True:
        await asyncio.sleep(0.05)
        nxt = await store.next_due()
        if svc.core.scheduler._waiting_for is not None and (nxt is None or nxt.due_at > clock()):
            break
    wall = time.perf_counter() - t0
    db = sqlite3.connect(path)
    timeouts = db.execute("SELECT COUNT(*) FROM actions WHERE actor IS NULL").fetchone()[0]
    games_moved = db.execute("SELECT COUNT(DISTINCT game_id) FROM actions").fetchone()[0]
    db.close()
    fired = svc.core.scheduler.fired
    await svc.close()
    print(f"restart: {args.games} stored games, {timers} timers, all overdue after 3 days down")
    print(f"  start to all overdue timers handled: {wall:.1f} s ({fired} handled after "
          f"coalescing; {timeouts} timed-out ticket choices played in {games_moved} games, "
          f"{fired / wall:.0f} timers/s)")
    return wall


async def steady(args, tmp):
    from ttr_bot.service import GameService
    from ttr_bot.store import open_store
    path = Path(tmp) / "steady.sqlite3"
    game_id = await template(path, time.time, {"deadline": 0, "remind": 24})
    clone(path, game_id, args.burst - 1, ())
    store = open_store(str(path))
    await store.open()
    svc = GameService(store, clock=time.time, seeds=random.Random(3))
    await svc.resume()
    late = []
    all_fired = asyncio.Event()
    handle = svc.core.scheduler.dispatch

    async def timed(timer):
        late.append(time.time() - timer.due_at)
        await handle(timer)
        if len(late) >= args.burst:
            all_fired.set()
    svc.core.scheduler.handler = timed
    rng = random.Random(4)
    start = time.time() + 3
    from ttr_bot.store import NewTimer, Owed
    for gid in range(game_id, game_id + args.burst):
        due = start + rng.uniform(0, 60)
        await store.write_owed(Owed(timers=(NewTimer(
            "remind", due, {"phase": "setup", "turn": 0, "seat": 0, "n": 1, "deadline": None}),)),
            gid)
        svc.core.scheduler.notify(due)
    await all_fired.wait()
    await svc.close()
    ms = [x * 1000 for x in late]
    print(f"steady state: {args.burst} games' reminders due within one minute (wall clock)")
    print(f"  lateness p50 {percentile(ms, 50):.0f} ms, p99 {percentile(ms, 99):.0f} ms, "
          f"max {max(ms):.0f} ms, mean {statistics.mean(ms):.0f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bench timers",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--burst", type=int, default=1_000)
    parser.add_argument("--db", help="directory for the databases (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ttr-bench-timers-", dir=args.db) as tmp:
        asyncio.run(restart(args, tmp))
        asyncio.run(steady(args, tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
