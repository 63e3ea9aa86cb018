"""Game-service figures on a real SQLite file (WAL, synchronous=FULL: every action is on disk
before it is reported done):

- actions per second with persistence, one game at a time and many games at once;
- latency of one action (GameService.act: lock, engine check, log row + snapshot in one
  committed transaction), p50 / p99;
- database bytes per finished game;
- time from process start to ready with 10,000 stored games: a fresh Python process imports
  the bot's modules, opens the store (migrations), creates the GameService and lists the games
  to resume (without loading them). Target: at most 2 s.

    python -m tools.bench service [--games N] [--stored N] [--ready-runs N] [--dir DIR]
                                    [--pg | --db postgresql://...]

With --pg the same figures on PostgreSQL, on a throwaway server started for the run (as the
tests do: fsync=off, so commits are not synced to disk, which makes its figures optimistic
against a real server's); with --db postgresql://user@host/db on that server instead (the bench
creates and drops two databases of its own there, so the user needs CREATEDB). The stored games
for the ready time are written to SQLite and moved with migrate-db's copy.
"""
import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ttr_bot.engine.actions import type_name
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.snapshot import to_dict
from ttr_bot.game_record import action_to_json
from ttr_bot.maps import load_board
from ttr_bot.service import GameService
from ttr_bot.store import SqliteStore, open_store

REPO = Path(__file__).resolve().parents[2]
SEATS = [str(i) for i in range(5)]
TABLES = [("usa", "base", 2), ("usa", "base", 3), ("usa", "base", 4), ("usa", "base", 5),
          ("europe", "base", 3), ("europe", "base", 5), ("switzerland", "base", 3),
          ("nordic", "base", 2)]
READY_TARGET = 2.0

# What the fresh process runs: the bot's own start-up path up to "ready", timed inside too.
PROBE = r"""
import time
t0 = time.perf_counter()
import asyncio, json, sys
try:
    import ttr_bot.discord.bot   # the whole bot: discord.py, cogs, render, ai, service, store
    imported = "ttr_bot.discord.bot"
except Exception as e:           # the Discord layer missing or broken: the service alone
    imported = "ttr_bot.service + ttr_bot.store (ttr_bot.discord.bot: %s)" % type(e).__name__
from ttr_bot.service import GameService
from ttr_bot.store import open_store
t_import = time.perf_counter()

async def main():
    store = open_store(sys.argv[1])
    await store.open()
    t_open = time.perf_counter()
    service = GameService(store)
    ids = await store.list_active_game_ids(include_lobbies=True)
    t_ready = time.perf_counter()
    print(json.dumps({"games": len(ids), "cached": len(service.core._cache), "imported": imported,
                      "import": t_import - t0, "open": t_open - t_import,
                      "list": t_ready - t_open}), flush=True)
    await store.close()

asyncio.run(main())
"""


def pick_action(game, rng):
    """A random legal move: a random kind, then one of that kind."""
    seat = rng.choice(game.to_move())
    kinds = {}
    for a in game.legal_actions(seat):
        kinds.setdefault(type_name(a), []).append(a)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


class Timed:
    """Mixed into the store (either driver): times append_action, the one transaction that
    makes an action durable (log row, snapshot, seq; committed and synced)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.append_times = []

    async def append_action(self, *a, **kw):
        t = time.perf_counter()
        try:
            return await super().append_action(*a, **kw)
        finally:
            self.append_times.append(time.perf_counter() - t)

    async def synchronous(self):
        if not isinstance(self, SqliteStore):
            async with self._pool.acquire() as conn:
                return await conn.fetchval("SHOW synchronous_commit")
        rows = await self._conn().execute_fetchall("PRAGMA synchronous")
        return {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(rows[0][0], rows[0][0])


def timed_store(url):
    base = type(open_store(url))
    return type(f"Timed{base.__name__}", (Timed, base), {})(url)


class PgTarget:
    """--pg / --db: the PostgreSQL server the figures are taken on, and its bench databases."""

    def __init__(self, admin_url=None):
        from ttr_bot.store.pgserver import TempPostgres
        self.server = None
        if admin_url is None:
            self.server = TempPostgres().start()
            admin_url = self.server.url()
        self.admin_url = admin_url
        self.names = []
        self.version = asyncio.run(self._admin("SHOW server_version"))

    async def _admin(self, sql, url=None):
        import asyncpg
        conn = await asyncpg.connect(url or self.admin_url)
        try:
            return await conn.fetchval(sql)
        finally:
            await conn.close()

    def url(self, name):
        from urllib.parse import urlsplit
        name = f"ttr_bench_{name}_{os.getpid()}"
        asyncio.run(self._admin(f'CREATE DATABASE "{name}"'))
        self.names.append(name)
        return urlsplit(self.admin_url)._replace(path=f"/{name}").geturl()

    def size(self, url):
        return asyncio.run(self._admin("SELECT pg_database_size(current_database())", url))

    def vacuum(self, url):
        asyncio.run(self._admin("VACUUM FULL", url))

    def payload(self, url):
        async def run():
            import asyncpg
            conn = await asyncpg.connect(url)
            try:
                n = await conn.fetchval("SELECT COUNT(*) FROM games") or 1
                actions, log = await conn.fetchrow(
                    "SELECT COUNT(*), SUM(octet_length(action::text)) FROM actions")
                snaps = await conn.fetchval("SELECT SUM(octet_length(state::text)) FROM snapshots")
                return {"actions_per_game": actions / n, "log_bytes": (log or 0) / n,
                        "snapshot_bytes": (snaps or 0) / n}
            finally:
                await conn.close()
        return asyncio.run(run())

    def close(self):
        for name in self.names:
            asyncio.run(self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        if self.server is not None:
            self.server.stop()


class Clock:
    def __init__(self):
        self.t = 1_700_000_000.0

    def __call__(self):
        self.t += 0.01
        return self.t


async def _open_game(svc, channel, table):
    map_id, variant, n = table
    users = [channel * 10 + i for i in range(n)]
    lobby = await svc.lobby.open_lobby(guild_id=1, channel_id=channel, user_id=users[0], name="P0",
                                       map_id=map_id, variant=variant)
    for i, u in enumerate(users[1:], 1):
        await svc.lobby.join(channel, u, f"P{i}")
    await svc.lobby.start(channel, users[0])
    return lobby.id, users


async def _move(svc, game_id, users, rng, latencies):
    loaded = await svc.load(game_id)
    action = pick_action(loaded.game, rng)
    t = time.perf_counter()
    eff = await svc.moves.act(game_id, users[action.seat], action, loaded.seq)
    latencies.append(time.perf_counter() - t)
    return eff


async def throughput(path, games, seed=1, pg=None):
    """Play `games` complete games one after another, then the same number all at once.
    Returns figures and the finished-game count. `pg`: the PgTarget `path` is a database of."""
    rng = random.Random(seed)
    store = timed_store(str(path))
    await store.open()
    svc = GameService(store, clock=Clock(), seeds=random.Random(seed))
    out = {}
    try:
        await store.close()
        if pg:
            await asyncio.to_thread(pg.vacuum, path)    # as compact as it will be at the end
        empty = await asyncio.to_thread(pg.size, path) if pg else _file_bytes(path)
        await store.open()
        out["synchronous"] = await store.synchronous()

        latencies, t_all = [], time.perf_counter()
        for g in range(games):
            game_id, users = await _open_game(svc, 10_000 + g, TABLES[g % len(TABLES)])
            while not (await _move(svc, game_id, users, rng, latencies)).over:
                pass
        wall = time.perf_counter() - t_all
        out["sequential"] = {"actions": len(latencies), "busy_s": sum(latencies),
                             "wall_s": wall, "latencies": latencies,
                             "append": list(store.append_times)}

        # many games at once: every game makes a move, all moves submitted together
        many = [await _open_game(svc, 20_000 + g, TABLES[g % len(TABLES)]) for g in range(games)]
        conc, t_all = [], time.perf_counter()
        live = list(many)
        while live:
            effs = await asyncio.gather(*(_move(svc, g, u, rng, conc) for g, u in live))
            live = [gu for gu, eff in zip(live, effs) if not eff.over]
        wall = time.perf_counter() - t_all
        out["concurrent"] = {"actions": len(conc), "wall_s": wall, "latencies": conc}

        finished = await _count(store, "finished")
        await store.close()
        if pg:
            written = await asyncio.to_thread(pg.size, path)
            await asyncio.to_thread(pg.vacuum, path)
            vacuumed = await asyncio.to_thread(pg.size, path)
            payload = await asyncio.to_thread(pg.payload, path)
        else:
            _checkpoint(path)
            written = _file_bytes(path)
            _vacuum(path)
            vacuumed = _file_bytes(path)
            payload = _payload(path)
        out["bytes"] = {"empty": empty, "written": written, "vacuumed": vacuumed,
                        "finished": finished, **payload}
    finally:
        await store.close()
    return out


async def _count(store, status):
    ids = await store.list_active_game_ids(include_lobbies=True)
    assert not ids, ids
    if not isinstance(store, SqliteStore):
        async with store._pool.acquire() as conn:
            return await conn.fetchval("SELECT COUNT(*) FROM games WHERE status = $1", status)
    conn = sqlite3.connect(store.path)
    try:
        return conn.execute("SELECT COUNT(*) FROM games WHERE status = ?", (status,)).fetchone()[0]
    finally:
        conn.close()


def _file_bytes(path):
    return sum(os.path.getsize(p) for p in (str(path), f"{path}-wal") if os.path.exists(p))


def _checkpoint(path):
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _vacuum(path):
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _payload(path):
    conn = sqlite3.connect(path)
    try:
        n = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] or 1
        actions, log = conn.execute("SELECT COUNT(*), SUM(LENGTH(action)) FROM actions").fetchone()
        snaps = conn.execute("SELECT SUM(LENGTH(state)) FROM snapshots").fetchone()[0]
        return {"actions_per_game": actions / n, "log_bytes": (log or 0) / n,
                "snapshot_bytes": (snaps or 0) / n}
    finally:
        conn.close()


# ----- a database with many stored games -------------------------------------------------------
def _templates(count, seed):
    """Games in progress made by the engine: (table, seed, [(actor, action_json)], state_json)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        map_id, variant, n = TABLES[i % len(TABLES)]
        game_seed = rng.randrange(2 ** 62)
        game = Game(load_board(map_id, variant), n, Dealer(game_seed))
        log = []
        for _ in range(rng.randrange(0, 160)):
            action = pick_action(game, rng)
            after = game.copy()
            after.apply(action)
            if after.over:          # keep every stored game resumable: the worst case
                break
            log.append((action.seat, json.dumps(action_to_json(game, action, SEATS[:n]),
                                                ensure_ascii=False)))
            game = after
        out.append(((map_id, variant, n), game_seed, log, json.dumps(to_dict(game))))
    return out


async def fill(path, stored, seed=2, templates=64):
    """`stored` games in play (each a copy of one of `templates` real engine games with its
    log and snapshot), written in one transaction. Returns (seconds, actions written)."""
    t0 = time.perf_counter()
    store = SqliteStore(path)
    await store.open()       # creates the schema through the migrations
    await store.close()
    pool = _templates(templates, seed)
    conn = sqlite3.connect(path, isolation_level=None)
    rows = 0
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        base = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        now = 1_700_000_000.0
        for k in range(stored):
            (map_id, variant, n), game_seed, log, state = pool[k % len(pool)]
            game_id = base + k + 1
            channel = 5_000_000 + k
            conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, map, variant, options, seed, status, "
                "host_id, created_at, updated_at, seq) "
                "VALUES (?, 1, ?, ?, ?, '{}', ?, 'active', ?, ?, ?, ?)",
                (game_id, channel, map_id, variant, game_seed, channel * 10, now, now, len(log)))
            conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name, notify) "
                "VALUES (?, ?, ?, ?, '{}')",
                [(game_id, s, channel * 10 + s, f"P{s}") for s in range(n)])
            conn.executemany(
                "INSERT INTO actions (game_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, i + 1, actor, text, now) for i, (actor, text) in enumerate(log)])
            rows += len(log)
            conn.execute("INSERT INTO snapshots (game_id, seq, state, updated_at) VALUES (?, ?, ?, ?)",
                         (game_id, len(log), state, now))
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return time.perf_counter() - t0, rows


async def fill_pg(url, sqlite_path, stored):
    """The stored games for PostgreSQL: written to SQLite by `fill`, then moved with
    migrate-db's copy. Returns (seconds, actions written)."""
    from ttr_bot.store.transfer import copy_rows
    fill_s, rows = await fill(sqlite_path, stored)
    t0 = time.perf_counter()
    async with SqliteStore(sqlite_path) as source, open_store(url) as target:
        await copy_rows(source, target)
    os.remove(sqlite_path)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{sqlite_path}{suffix}")
    return fill_s + time.perf_counter() - t0, rows


async def _spot_check(path, ids):
    """A few of the stored games load and equal the replay of their logs (the data is real)."""
    store = open_store(str(path))
    await store.open()
    try:
        svc = GameService(store)
        for game_id in ids:
            loaded = await svc.load(game_id)
            rebuilt = await svc.moves.rebuild(game_id)
            if to_dict(loaded.game) != to_dict(rebuilt):
                raise AssertionError(f"stored game {game_id} does not replay to its snapshot")
    finally:
        await store.close()


def ready_time(path):
    """Seconds from starting a fresh interpreter to its 'ready' line, and what it reported."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True,
                          text=True, env=env, cwd=str(REPO), timeout=120)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"ready probe failed:\n{proc.stderr}")
    return elapsed, json.loads(proc.stdout.splitlines()[-1])


def _ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench service",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=16, help="complete games played (default 16)")
    ap.add_argument("--stored", type=int, default=10_000,
                    help="games in the database for the ready time (default 10000)")
    ap.add_argument("--ready-runs", type=int, default=5, help="fresh processes timed (default 5)")
    ap.add_argument("--dir", help="where to put the databases (default: a temporary directory)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--pg", action="store_true",
                       help="on PostgreSQL: a throwaway server started for the run")
    where.add_argument("--db", metavar="URL",
                       help="on this PostgreSQL server (postgresql://...; needs CREATEDB)")
    args = ap.parse_args(argv)
    if args.db and not args.db.startswith(("postgresql://", "postgres://")):
        ap.error("--db takes a postgresql:// URL (SQLite is the default)")
    pg = PgTarget(args.db) if (args.pg or args.db) else None
    try:
        return _run(args, pg)
    finally:
        if pg is not None:
            pg.close()


def _run(args, pg):
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp = Path(tmp)
        play = pg.url("play") if pg else tmp / "play.sqlite3"
        fig = asyncio.run(throughput(play, args.games, pg=pg))
        if pg:
            where = ("a throwaway server (fsync=off: commits not synced to disk)" if pg.server
                     else "the server --db names")
            print(f"Game service on PostgreSQL {pg.version} (synchronous_commit="
                  f"{fig['synchronous']}, asyncpg pool), {where}")
        else:
            print(f"Game service on SQLite (WAL, synchronous={fig['synchronous']}), files in {tmp}")
        seq, conc, size = fig["sequential"], fig["concurrent"], fig["bytes"]
        lat = seq["latencies"]
        print(f"Actions with persistence ({args.games} complete games, random legal moves, "
              f"{seq['actions']} actions):")
        print(f"  one game at a time:  {seq['actions'] / seq['busy_s']:8.0f} actions/s "
              f"(in act(); {seq['actions'] / seq['wall_s']:.0f}/s counting move choice)")
        print(f"  {args.games} games at once:   {conc['actions'] / conc['wall_s']:8.0f} actions/s "
              f"({conc['actions']} actions, wall clock)")
        print(f"Latency of one action (act(), one game at a time): p50 {_ms(_pct(lat, 0.5))}, "
              f"p99 {_ms(_pct(lat, 0.99))}, max {_ms(max(lat))}")
        app = seq["append"]
        print(f"  of which the store's transaction (log row + snapshot, commit, sync): "
              f"p50 {_ms(_pct(app, 0.5))}, p99 {_ms(_pct(app, 0.99))}")
        clat = conc["latencies"]
        print(f"  with {args.games} games at once (queued behind each other): "
              f"p50 {_ms(_pct(clat, 0.5))}, p99 {_ms(_pct(clat, 0.99))}")
        games = size["finished"]
        print(f"Database bytes per finished game ({games} games, "
              f"{size['actions_per_game']:.0f} actions each on average):")
        print(f"  file growth as written:  {(size['written'] - size['empty']) / games:9.0f} bytes")
        print(f"  after VACUUM:            {(size['vacuumed'] - size['empty']) / games:9.0f} bytes "
              f"(log {size['log_bytes']:.0f} + final snapshot {size['snapshot_bytes']:.0f} "
              f"bytes of JSON, plus seats, results and indexes)")

        if pg:
            stored = pg.url("stored")
            fill_s, rows = asyncio.run(fill_pg(stored, tmp / "stored.sqlite3", args.stored))
            megabytes = pg.size(stored) / 1e6
        else:
            stored = tmp / "stored.sqlite3"
            fill_s, rows = asyncio.run(fill(stored, args.stored))
            megabytes = os.path.getsize(stored) / 1e6
        asyncio.run(_spot_check(stored, [1, 2, args.stored // 2, args.stored]))
        print(f"Ready with {args.stored} stored games in play ({rows} logged actions, "
              f"{megabytes:.0f} MB; filled in {fill_s:.1f} s):")
        runs = [ready_time(stored) for _ in range(args.ready_runs)]
        times = sorted(t for t, _ in runs)
        info = runs[-1][1]
        if info["games"] != args.stored or info["cached"] != 0:
            raise AssertionError(f"the probe saw {info}")
        verdict = "meets" if statistics.median(times) <= READY_TARGET else "MISSES"
        print(f"  process start to ready: median {statistics.median(times):.3f} s, "
              f"worst {times[-1]:.3f} s over {len(times)} fresh processes "
              f"({verdict} the {READY_TARGET:.0f} s target)")
        print(f"  inside the process: imports {info['import']:.3f} s, open + migrations "
              f"{info['open']:.3f} s, list {info['games']} games {info['list']:.3f} s; "
              f"games loaded: {info['cached']}")
        print(f"  imported: {info['imported']}")
    return 0
