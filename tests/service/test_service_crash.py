"""Crash safety: a writer process is killed with SIGKILL at random moments while it plays many
games; after every kill the database must hold every action the writer reported done, and
every game's stored state must equal the replay of its log. The next round resumes the same
games. On SQLite (the file) and on PostgreSQL (a client killed mid-transaction: the server rolls
back what it had not committed).

The writer also runs the bot's outbox worker against a fake Discord that this test runs (in a
thread): after the last round a final writer delivers what is still owed, and then every
committed turn-ending action has its turn post in the fake's channel exactly once, never
twice, whatever moments the kills hit (between Discord taking a post and the row being marked
sent, the retry's nonce makes the fake return the first copy, as Discord does).

TTR_CRASH_ROUNDS and TTR_CRASH_SEED change the number of kill/restart rounds and the seed of
the kill moments (the seed is printed on failure, to replay a failing run).
"""
import asyncio
import functools
import hashlib
import json
import multiprocessing
import os
import random
import signal
import threading
import time

import pytest

from tests.service import crash_writer
from tests.service.crash_writer import DRAIN_SECONDS
from tests.service.svckit import make_service, open_store, state_of
from tests.store.dbkit import DRIVERS

ROUNDS = int(os.environ.get("TTR_CRASH_ROUNDS", "20"))   # more: TTR_CRASH_ROUNDS=50
SEED = int(os.environ.get("TTR_CRASH_SEED", str(random.SystemRandom().randrange(10 ** 6))))
GAMES = 6


def digest(action):
    text = json.dumps(action, sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


class FakeInThread:
    """A fake Discord serving from its own event loop in a thread, for the writer processes."""

    def __init__(self):
        from testkit.fakediscord import FakeDiscord
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.fake = FakeDiscord(patch_discord=False, auto_world=True)
        self.call(self.fake.start())

    def call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)

    def posts(self):
        """nonce -> how many messages the fake holds with it (bot posts in guild channels)."""
        async def read():
            out = {}
            for m in list(self.fake.state.messages.values()):
                ch = self.fake.state.channels.get(m.channel_id)
                if m.nonce and ch is not None and ch.guild_id is not None and not m.deleted:
                    out[m.nonce] = out.get(m.nonce, 0) + 1
            return out, list(self.fake.nonce_hits)
        return self.call(read())

    def stuck(self):
        """Where the fake stands, for a failure's message: what it took and answered last, and
        what it has not answered."""
        async def read():
            open_ = [f"{r.method} {r.path}" for r in self.fake.requests if r.status is None]
            recent = [f"{r.method} {r.path.split('/api/v10')[-1]} {r.status}"
                      for r in self.fake.requests[-6:]]
            return (f"fake: {len(self.fake.requests)} requests taken, {self.fake.in_flight} in "
                    f"flight, unanswered: {open_[-8:]}; the last: {recent}")
        try:
            return asyncio.run_coroutine_threadsafe(read(), self.loop).result(5)
        except TimeoutError:
            return "the fake's loop does not answer"

    def close(self):
        self.call(self.fake.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@functools.cache
def _forks():
    """The fork server the writers start from: a process that imported the writer and its
    libraries (discord.py, aiohttp, the service) once, so that each round's writer, a process
    of its own all the same, is ready in a fraction of a second instead of an interpreter's
    start and a second of imports."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["tests.service.crash_writer", "discord", "ttr_bot.discord.posting.delivery",
                               "ttr_bot.discord.posting.outbox_worker"])
    return ctx


def _reading(conn):
    """A text file reading what the other end of the connection `conn` writes."""
    fd = os.dup(conn.fileno())
    conn.close()
    return open(fd, encoding="utf-8")


class Writer:
    """A writer process (crash_writer.py), its stdout collected line by line by a thread."""

    def __init__(self, db, round_no, url=None, mode="play"):
        extra = [url, mode] if url else []
        argv = [str(db), str(round_no), str(GAMES), *extra]   # the SQLite path or the URL
        ctx = _forks()
        out_r, out_w = ctx.Pipe(duplex=False)
        err_r, err_w = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=crash_writer.forked, args=(out_w, err_w, argv),
                                name=f"crash-writer-{round_no}")
        self.proc.start()
        out_w.close()
        err_w.close()
        self.stdout = _reading(out_r)
        self.stderr = _reading(err_r)
        self.lines = []
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.stdout:
            if not line.endswith("\n"):     # cut off by the kill: never reported
                break
            self.lines.append(line.split())
            if line.startswith(("ready", "drained")):
                self.ready.set()

    def alive(self):
        return self.proc.is_alive()

    @property
    def returncode(self):
        return self.proc.exitcode

    def wait(self, timeout):
        self.proc.join(timeout)
        assert self.proc.exitcode is not None, "the writer did not end"

    def kill(self):
        """SIGKILL; what it wrote to stderr."""
        self.proc.kill()
        self.wait(10)
        self.thread.join(timeout=10)
        self.stdout.close()
        return self.log()

    def log(self):
        with self.stderr:
            return self.stderr.read()


async def check(db, reported, checked):
    """Everything reported is in the log; every game's snapshot equals its replay.
    `checked` maps game id -> (seq, status) already verified, so unchanged finished games are
    not replayed again every round. Returns the number of games verified."""
    if db.driver == "sqlite":
        assert db.scalar("PRAGMA integrity_check") == "ok"
    store = await open_store(db)
    try:
        svc = make_service(store)
        for game_id, seqs in reported.items():
            log = await store.load_actions(game_id)           # validates: no gaps, no extra
            row = await store.get_game(game_id)
            assert row.seq == len(log) >= max(seqs), (game_id, row.seq, max(seqs))
            for seq, dig in seqs.items():
                assert digest(log[seq - 1].action) == dig, (game_id, seq)
        verified = 0
        for game_id in started_games(db):
            row = await store.get_game(game_id)
            previous = checked.get(game_id)
            if previous is not None:
                assert row.seq >= previous[0], (game_id, "seq went back", previous, row.seq)
                if previous == (row.seq, row.status) and row.status == "finished":
                    continue
            snap = await store.load_snapshot(game_id)
            rebuilt = await svc.moves.rebuild(game_id)
            assert snap.seq == row.seq
            assert snap.state == state_of(rebuilt), game_id
            results = await store.load_results(game_id)
            if row.status == "finished":
                assert rebuilt.over and len(results) == rebuilt.n
                assert any(r.won for r in results)
            else:
                assert not rebuilt.over and results == []
            checked[game_id] = (row.seq, row.status)
            verified += 1
        return verified
    finally:
        await store.close()


def started_games(db):
    return [r[0] for r in db.fetchall(
        "SELECT id FROM games WHERE status IN ('active', 'finished') ORDER BY id")]


def turn_ends(db):
    """game id -> the seqs of its actions that ended a turn (or the game), by replaying it."""
    from ttr_bot.engine.dealer import Dealer
    from ttr_bot.engine.game import Game
    from ttr_bot.game_record import action_from_json
    from ttr_bot.maps import load_board
    out = {}
    for game_id, map_id, variant, seed in db.fetchall(
            "SELECT id, map, variant, seed FROM games WHERE status IN ('active', 'finished')"):
        n = db.scalar("SELECT COUNT(*) FROM seats WHERE game_id = ?", game_id)
        game = Game(load_board(map_id, variant), n, Dealer(seed))
        ends = out.setdefault(game_id, [])
        for seq, text in db.fetchall(
                "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", game_id):
            events = game.apply(action_from_json(game, json.loads(text), [str(i) for i in range(5)]))
            if any(e["type"] in ("turn", "game_over") for e in events):
                ends.append(seq)
    return out


def owed(db):
    """What is still owed when a post was not delivered, for the failure's message: the first
    rows, their leases, and the blocked destinations."""
    rows = db.fetchall("SELECT id, game_id, seq, kind, held, attempts, due_at, lease_owner, "
                       "lease_until, lane FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 8")
    return "\n".join([f"now {time.time():.1f}; owed (id, game, seq, kind, held, attempts, due, "
                       "lease owner, lease until, lane):", *map(str, rows),
                       f"blocked: {db.fetchall('SELECT * FROM outbox_lanes')}", *waits(db)])


def waits(db):
    """PostgreSQL: every other session, what it waits on and whom it is blocked by."""
    if db.driver != "postgresql":
        return []
    return ["sessions (pid, state, wait, blocked by, query):", *map(str, db.fetchall(
        "SELECT pid, state, wait_event_type || ':' || wait_event, pg_blocking_pids(pid), "
        "left(query, 80) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid != pg_backend_pid()"))]


def check_posts(db, fake):
    """Every turn-ending action owes one turn post; each was posted exactly once."""
    posts, hits = fake.posts()
    rows = db.fetchall("SELECT id, game_id, seq, sent_at, error FROM outbox "
                       "WHERE kind = 'turn' AND NOT held")
    by_game = {}
    for row_id, game_id, seq, sent_at, error in rows:
        assert sent_at is not None and error is None, \
            f"row {row_id} not delivered ({error}); {owed(db)}"
        by_game.setdefault(game_id, []).append(seq)
        mine = {k: v for k, v in posts.items() if k == f"ttr{row_id}" or
                k.startswith(f"ttr{row_id}.")}
        assert mine and all(v == 1 for v in mine.values()), (row_id, mine)
    for game_id, ends in turn_ends(db).items():
        assert sorted(by_game.get(game_id, [])) == ends, (game_id, "turn posts", ends)
    assert all(v == 1 for v in posts.values()), "a post appears twice"
    return len(rows), len(hits)


@pytest.mark.drivers(*DRIVERS)
def test_sigkill_at_random_moments_loses_nothing_reported(db_path):
    db = db_path
    rng = random.Random(SEED)
    reported = {}           # game id -> {seq: digest} of every action reported done
    checked = {}
    done_total = mid_stream_kills = 0
    started = time.monotonic()
    fake = FakeInThread()
    url = fake.fake.base_url
    for round_no in range(1, ROUNDS + 1):
        writer = Writer(db, round_no, url)
        early = rng.random() < 0.15
        if early:                    # possibly during startup, migrations or game creation
            time.sleep(rng.uniform(0.0, 0.4))
        else:
            assert writer.ready.wait(15), f"seed {SEED}: writer not ready: {writer.kill()}"
            time.sleep(rng.uniform(0.02, 1.5))
        alive = writer.alive()
        stderr = writer.kill()
        assert alive and writer.returncode == -signal.SIGKILL, (
            f"seed {SEED}, round {round_no}: the writer died by itself:\n{stderr}")
        done = [ln for ln in writer.lines if ln[0] == "done"]
        assert all(ln[0] in ("ready", "done") for ln in writer.lines), writer.lines[-3:]
        for _, game_id, seq, dig in done:
            seqs = reported.setdefault(int(game_id), {})
            assert int(seq) not in seqs, (f"seed {SEED}: seq {seq} of game {game_id} "
                                          f"reported twice")
            seqs[int(seq)] = dig
        done_total += len(done)
        mid_stream_kills += bool(done) and not early
        try:
            asyncio.run(check(db, reported, checked))
        except AssertionError as e:
            raise AssertionError(f"seed {SEED}, round {round_no}: {e}") from e
    # the test did what it says: many actions (the writer also delivers its posts, so fewer
    # than the service alone would make), most kills in the middle of the stream
    assert done_total >= 8 * ROUNDS, (SEED, done_total)
    assert mid_stream_kills >= ROUNDS // 2, (SEED, mid_stream_kills)
    finished = sum(1 for seq, status in checked.values() if status == "finished")
    drain = Writer(db, ROUNDS + 1, url, "drain")       # delivers what is still owed, then exits
    # its own drain goes on while posts go out, and gives up when none has for STALL_SECONDS
    assert drain.ready.wait(DRAIN_SECONDS + 60), drain.kill()
    drain.wait(30)
    try:
        posts, retried = check_posts(db, fake)
    except AssertionError as e:
        log = drain.log()[-12000:]
        raise AssertionError(f"seed {SEED}: {e}\n{fake.stuck()}\nthe drain's log:\n{log}") from e
    finally:
        fake.close()
    print(f"crash test ({db.driver}): seed {SEED}, {ROUNDS} rounds, {done_total} actions reported, "
          f"{len(checked)} games ({finished} finished), {posts} turn posts each delivered once "
          f"({retried} retried posts answered with their first copy), "
          f"{time.monotonic() - started:.1f} s")


def test_the_checker_catches_a_lost_action(db_path):
    """The check above can fail: a reported action missing from the log is caught."""
    db = db_path
    writer = Writer(db, 1)
    assert writer.ready.wait(15)
    deadline = time.monotonic() + 10
    while sum(ln[0] == "done" for ln in writer.lines) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    writer.kill()
    done = [ln for ln in writer.lines if ln[0] == "done"]
    game_id, seq = int(done[-1][1]), int(done[-1][2])
    reported = {game_id: {seq: done[-1][3]}}
    asyncio.run(check(db, reported, {}))                       # intact: passes
    with pytest.raises(AssertionError):
        asyncio.run(check(db, {game_id: {seq + 1: "0" * 16}}, {}))   # never written
    with pytest.raises(AssertionError):
        asyncio.run(check(db, {game_id: {seq: "0" * 16}}, {}))       # another action
    db.execute("UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE game_id != ? "
               "LIMIT 1) WHERE game_id = ?", game_id, game_id)     # a stale snapshot
    with pytest.raises(AssertionError):
        asyncio.run(check(db, reported, {}))
