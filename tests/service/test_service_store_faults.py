"""The SQLite file under fault while the bot runs: it becomes read-only, its disk fills, another
program holds its lock past the busy timeout, it is damaged. Each makes the store raise
`StoreUnavailable` naming the file and what to do; the move that met it is refused with
nothing of it written (no log row, no snapshot, no owed post); and once the fault is gone the
same move is accepted and the game goes on from where it was: no acknowledged move lost.

Each fault is the real SQLite error on the store's own connection or file, not a stand-in:
`PRAGMA query_only` (what SQLite answers for a file it cannot write: SQLITE_READONLY; chmod
cannot make a file read-only for root, who runs these tests), `PRAGMA max_page_count` (the
file cannot grow: SQLITE_FULL), a second connection's BEGIN EXCLUSIVE (SQLITE_BUSY), pages
overwritten with garbage (SQLITE_CORRUPT), restored from a copy to clear it.

On PostgreSQL: a server that is read-only (a standby after a failover) refuses the bot's start
with one line naming the database and what to do; and mid-run, a write the server refuses for
a full disk or a read-only transaction (raised by a trigger with the server's own SQLSTATE:
a server's disk cannot be filled from a test) is refused whole the same way."""
import asyncio
import json
import os
import random
import select
import shutil
import signal
import sqlite3
import tempfile
import time

import pytest

from tests.service.svckit import (
    end_turn,
    game_in_play,
    make_service,
    open_store,
    owed,
    pick_action,
    raw_counts,
    run_timers,
    started,
    state_of,
    timed_service,
    timers_of,
)
from ttr_bot.service.clock import ManualClock
from ttr_bot.store import StoreUnavailable

ON_THE_FILE = pytest.mark.sqlite_only("damages the SQLite file itself")
BUSY = 0.2      # the store's busy timeout here (the bot's is 10 s)


class ReadOnly:
    remedy = "write access"

    async def start(self, store, path):
        await store._fetchall("PRAGMA query_only = ON")

    async def clear(self, store, path):
        await store._fetchall("PRAGMA query_only = OFF")


class Full:
    remedy = "free space"

    async def start(self, store, path):
        # not one page more than the file has, and none of them free: the next write that
        # needs a page fails as on a full disk
        await store._fetchall("VACUUM")
        pages = (await store._fetchall("PRAGMA page_count"))[0][0]
        await store._fetchall(f"PRAGMA max_page_count = {pages}")

    async def clear(self, store, path):
        await store._fetchall("PRAGMA max_page_count = 1073741823")


class Locked:
    remedy = "end that program's transaction"

    async def start(self, store, path):
        self.other = sqlite3.connect(path, isolation_level=None)
        self.other.execute("BEGIN EXCLUSIVE")

    async def clear(self, store, path):
        self.other.execute("ROLLBACK")
        self.other.close()


class Corrupt:
    remedy = "restore it from a backup"

    async def start(self, store, path):
        await store._fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        self.backup = read(path)
        page = (await store._fetchall("PRAGMA page_size"))[0][0]
        # every page but the first (the schema) is garbage
        overwrite(path, page, bytes(range(256)) * ((len(self.backup) - page) // 256))
        await store._fetchall("PRAGMA shrink_memory")   # what the connection cached is gone

    async def clear(self, store, path):
        overwrite(path, 0, self.backup)     # the operator restores the backup
        await store._fetchall("PRAGMA shrink_memory")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def overwrite(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


FAULTS = {"read_only": ReadOnly, "full": Full, "locked": Locked, "corrupt": Corrupt}


async def next_move(svc, game_id, rng):
    loaded = await svc.load(game_id)
    action = pick_action(loaded.game, rng)
    return loaded.seats[action.seat].user_id, action, loaded.seq


@pytest.mark.asyncio
@ON_THE_FILE
@pytest.mark.parametrize("kind", list(FAULTS))
async def test_a_move_meeting_a_fault_is_refused_whole_and_accepted_once_it_clears(
        db_path, kind):
    store = await open_store(db_path, busy_timeout=BUSY)
    try:
        svc = make_service(store)
        rng = random.Random(5)
        game_id, _ = await started(svc, 1, players=3)
        for _ in range(6):
            await svc.moves.act(game_id, *await next_move(svc, game_id, rng))
        before = raw_counts(str(db_path), game_id)
        posts = len(await owed(store))
        state = state_of((await svc.load(game_id)).game)
        move = await next_move(svc, game_id, rng)

        fault = FAULTS[kind]()
        await fault.start(store, str(db_path))
        with pytest.raises(StoreUnavailable) as caught:
            await svc.moves.act(game_id, *move)
        err = caught.value
        assert err.kind == kind and str(db_path) in str(err) and fault.remedy in str(err)
        await fault.clear(store, str(db_path))

        # nothing of the refused move: not in the file, not in what the service holds
        assert raw_counts(str(db_path), game_id) == before
        assert len(await owed(store)) == posts
        assert state_of((await svc.load(game_id)).game) == state
        # the same click again, and the game goes on
        effects = await svc.moves.act(game_id, *move)
        assert effects.seq == before[1] + 1
        for _ in range(4):
            await svc.moves.act(game_id, *await next_move(svc, game_id, rng))
        assert raw_counts(str(db_path), game_id)[:2] == (before[0] + 5, before[1] + 5)
        assert len(await owed(store)) > posts
        loaded = await svc.load(game_id)
        assert state_of(await svc.moves.rebuild(game_id)) == state_of(loaded.game)
    finally:
        await store.close()
    # and after a restart, every acknowledged move is there
    store = await open_store(db_path)
    try:
        again = await make_service(store).load(game_id)
        assert again.seq == before[1] + 5
        assert json.dumps(state_of(again.game)) == json.dumps(state_of(loaded.game))
    finally:
        await store.close()


@pytest.mark.asyncio
@ON_THE_FILE
async def test_a_computer_players_move_meeting_a_full_disk_is_played_once_it_clears(db_path):
    """The same for a move a timer makes: refused whole while the disk is full, its timer
    kept, and played when the timer comes round again after the disk has room."""
    clock = ManualClock(1_700_000_000.0)
    store = await open_store(db_path, busy_timeout=BUSY)
    svc = timed_service(store, clock)
    try:
        await svc.resume()
        game_id, _ = await game_in_play(svc, 1, players=1, bots=1)
        await run_timers(svc)
        human = await svc.load(game_id)
        await end_turn(svc, game_id, random.Random(2))      # now the computer is to move
        before = raw_counts(str(db_path), game_id)
        fault = Full()
        await fault.start(store, str(db_path))
        clock.advance(svc.core.bot_delay)
        await run_timers(svc)
        assert raw_counts(str(db_path), game_id) == before
        assert await timers_of(store, game_id, "bot_move")
        await fault.clear(store, str(db_path))
        clock.advance(svc.core.scheduler.retry_delay + svc.core.scheduler.lease)
        await run_timers(svc)
        assert (await svc.load(game_id)).seq > before[1]
        for _ in range(5):                  # the rest of the computer's turn, if it has more
            after = await svc.load(game_id)
            if any(after.seats[s].user_id for s in after.game.to_move()):
                break
            clock.advance(svc.core.bot_delay)
            await run_timers(svc)
        assert after.seats == human.seats and any(after.seats[s].user_id
                                                  for s in after.game.to_move())
    finally:
        await svc.close()


PG_FAULTS = {"full": "disk_full", "read_only": "read_only_sql_transaction"}


@pytest.mark.asyncio
@pytest.mark.drivers("postgresql")
@pytest.mark.parametrize("kind", list(PG_FAULTS))
async def test_on_postgresql_a_move_the_server_refuses_is_refused_whole(db_path, kind):
    store = await open_store(db_path)
    try:
        svc = make_service(store)
        rng = random.Random(6)
        game_id, _ = await started(svc, 2, players=2)
        await svc.moves.act(game_id, *await next_move(svc, game_id, rng))
        before = raw_counts(db_path, game_id)
        move = await next_move(svc, game_id, rng)
        db_path.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                        f"RAISE EXCEPTION 'the server refuses' USING ERRCODE = '{PG_FAULTS[kind]}'; "
                        "END $$")
        db_path.execute("CREATE TRIGGER refuse BEFORE INSERT ON actions FOR EACH ROW "
                        "EXECUTE FUNCTION refuse()")
        with pytest.raises(StoreUnavailable) as caught:
            await svc.moves.act(game_id, *move)
        err = caught.value
        assert err.kind == kind and str(db_path).rsplit("/", 1)[1] in str(err)
        assert raw_counts(db_path, game_id) == before
        db_path.drop_trigger("refuse", "actions")
        assert (await svc.moves.act(game_id, *move)).seq == before[1] + 1
    finally:
        await store.close()


@pytest.mark.asyncio
@pytest.mark.drivers("postgresql")
async def test_on_postgresql_a_read_only_server_refuses_the_start_in_one_line(db_path):
    name = str(db_path).rsplit("/", 1)[1]
    db_path.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    try:
        with pytest.raises(StoreUnavailable) as caught:
            await open_store(db_path)
        assert caught.value.kind == "read_only" and "primary server" in str(caught.value)
        assert "\n" not in str(caught.value)
    finally:
        db_path.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = off")


@ON_THE_FILE
def test_a_file_the_bot_may_only_read_refuses_the_start_in_one_line():
    """SQLite opens a file it may not write read-only without a word; the store tries a write
    at start, so the bot refuses to start, instead of refusing every move. Root may write any
    file: run as root (as here), the store is opened by a child process that is `nobody`."""
    folder = tempfile.mkdtemp(prefix="ttr-ro-")
    path = os.path.join(folder, "ttr.sqlite3")
    try:
        asyncio.run(_make(path))
        os.chmod(path, 0o444)
        os.chmod(folder, 0o555)
        said = _open_as_a_user(path)
        assert said.startswith("StoreUnavailable read_only: ") and "\n" not in said, said
        assert path in said and "write access" in said
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


async def _make(path):
    store = await open_store(path)
    await store.close()


def _open_as_a_user(path):
    """'<error class> <kind>: <message>' of opening the store at `path`, as a user who is not
    root (a forked child that becomes `nobody`, when this is root)."""
    async def attempt():
        try:
            await open_store(path)
        except StoreUnavailable as exc:
            return f"StoreUnavailable {exc.kind}: {exc}"
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return "opened"
    if os.geteuid() != 0:
        return asyncio.run(attempt())
    read, write = os.pipe()
    child = os.fork()
    if child == 0:      # pragma: no cover (the child)
        try:
            os.close(read)
            os.setgid(65534)
            os.setuid(65534)
            os.write(write, asyncio.run(attempt()).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        if not select.select([f], [], [], 60)[0]:     # a safety net, never reached
            os.kill(child, signal.SIGKILL)
        said = f.read().decode()
    os.waitpid(child, 0)
    return said


@pytest.mark.asyncio
@pytest.mark.drivers("postgresql")
async def test_on_postgresql_a_row_another_session_locks_refuses_the_move_not_waits(db_path):
    """Another session (a hand-run UPDATE, a stuck tool) holds the game's row lock: the move is
    refused as "locked" after the store's lock_timeout (5 s by default, not command_timeout's
    60 s), nothing of it written, and accepted once that session ends. Migrations still wait."""
    import asyncpg
    store = await open_store(db_path, lock_timeout=0.2)
    other = await asyncpg.connect(str(db_path))
    try:
        svc = make_service(store)
        rng = random.Random(6)
        game_id, _ = await started(svc, 2, players=2)
        before = raw_counts(db_path, game_id)
        move = await next_move(svc, game_id, rng)
        held = other.transaction()
        await held.start()
        await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game_id)
        began = time.monotonic()
        with pytest.raises(StoreUnavailable) as caught:
            await svc.moves.act(game_id, *move)
        assert time.monotonic() - began < 5.0       # not command_timeout's minute
        assert caught.value.kind == "locked" and "pg_stat_activity" in str(caught.value)
        assert raw_counts(db_path, game_id) == before
        await held.rollback()
        assert (await svc.moves.act(game_id, *move)).seq == before[1] + 1
        async with store._pool_or_fail().acquire() as conn:
            assert await conn.fetchval("SHOW lock_timeout") == "200ms"
    finally:
        await other.close()
        await store.close()
    default = await open_store(db_path)
    try:
        async with default._pool_or_fail().acquire() as conn:
            assert await conn.fetchval("SHOW lock_timeout") == "5s"
    finally:
        await default.close()
