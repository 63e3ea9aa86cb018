"""The SQLite file under fault while the bot runs: it becomes read-only, its disk fills, another
program holds its lock past the busy timeout, it is damaged. Each makes the store raise
`StoreUnavailable` naming the file and what to do; the move that met it is refused with
nothing of it written (no log row, no snapshot, no owed post); and once the fault is gone the
same move is accepted and the game goes on from where it was: no acknowledged move lost.

Each fault is the real SQLite error on the store's own connection or file, not a stand-in:
`PRAGMA query_only` (what SQLite answers for a file it cannot write: SQLITE_READONLY; chmod
cannot make a file read-only for root, who runs these tests), `PRAGMA max_page_count` (the
file cannot grow: SQLITE_FULL), a second connection's BEGIN EXCLUSIVE (SQLITE_BUSY), pages
overwritten with garbage (SQLITE_CORRUPT), restored from a copy to clear it."""
import json
import os
import random
import sqlite3

import pytest

from tests.service.svckit import (
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
from tests.service.test_service_turns import end_turn, game_in_play
from ttr_bot.service.clock import ManualClock
from ttr_bot.store import StoreUnavailable

pytestmark = [pytest.mark.asyncio, pytest.mark.sqlite_only("damages the SQLite file itself")]
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


@pytest.mark.parametrize("kind", list(FAULTS))
async def test_a_move_meeting_a_fault_is_refused_whole_and_accepted_once_it_clears(
        db_path, kind):
    store = await open_store(db_path, busy_timeout=BUSY)
    try:
        svc = make_service(store)
        rng = random.Random(5)
        game_id, _ = await started(svc, 1, players=3)
        for _ in range(6):
            await svc.act(game_id, *await next_move(svc, game_id, rng))
        before = raw_counts(str(db_path), game_id)
        posts = len(await owed(store))
        state = state_of((await svc.load(game_id)).game)
        move = await next_move(svc, game_id, rng)

        fault = FAULTS[kind]()
        await fault.start(store, str(db_path))
        with pytest.raises(StoreUnavailable) as caught:
            await svc.act(game_id, *move)
        err = caught.value
        assert err.kind == kind and str(db_path) in str(err) and fault.remedy in str(err)
        await fault.clear(store, str(db_path))

        # nothing of the refused move: not in the file, not in what the service holds
        assert raw_counts(str(db_path), game_id) == before
        assert len(await owed(store)) == posts
        assert state_of((await svc.load(game_id)).game) == state
        # the same click again, and the game goes on
        effects = await svc.act(game_id, *move)
        assert effects.seq == before[1] + 1
        for _ in range(4):
            await svc.act(game_id, *await next_move(svc, game_id, rng))
        assert raw_counts(str(db_path), game_id)[:2] == (before[0] + 5, before[1] + 5)
        assert len(await owed(store)) > posts
        loaded = await svc.load(game_id)
        assert state_of(await svc.rebuild(game_id)) == state_of(loaded.game)
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
        clock.advance(svc.bot_delay)
        await run_timers(svc)
        assert raw_counts(str(db_path), game_id) == before
        assert await timers_of(store, game_id, "bot_move")
        await fault.clear(store, str(db_path))
        clock.advance(svc.scheduler.retry_delay + svc.scheduler.lease)
        await run_timers(svc)
        assert (await svc.load(game_id)).seq > before[1]
        for _ in range(5):                  # the rest of the computer's turn, if it has more
            after = await svc.load(game_id)
            if any(after.seats[s].user_id for s in after.game.to_move()):
                break
            clock.advance(svc.bot_delay)
            await run_timers(svc)
        assert after.seats == human.seats and any(after.seats[s].user_id
                                                  for s in after.game.to_move())
    finally:
        await svc.close()
