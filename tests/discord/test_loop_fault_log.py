"""While the database cannot be read or written, the timer loop and the outbox worker retry every
few seconds: the log gets one warning line naming the file and what to do, at most once a
minute of the loop's clock while it lasts (no traceback), and a line when it answers again; an
unexpected error keeps its traceback. The faults are SQLite's own (`PRAGMA query_only`:
SQLITE_READONLY; pages overwritten: SQLITE_CORRUPT; test_service_store_faults.py's), on a
ManualClock."""
import asyncio
import logging

import pytest

from tests.discord.test_outbox_retries import Bot, Script
from tests.service.svckit import open_store
from tests.service.test_service_store_faults import Corrupt
from ttr_bot.discord.posting.outbox_worker import OutboxWorker
from ttr_bot.service import GameService
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.messages import DirectMessage, Lane
from ttr_bot.service.owed import owed_row
from ttr_bot.service.scheduler import Scheduler

pytestmark = pytest.mark.asyncio
LOGGER = "ttr_bot.service.scheduler"


class Counted:
    """Counts the loop's claims (each one a retry of the loop while the database is down)."""
    claims = 0

    async def claim_timers(self, *args, **kw):
        Counted.claims += 1
        return await super().claim_timers(*args, **kw)


async def claims_reach(n):
    for _ in range(5000):           # the loop pauses a millisecond between tries
        if Counted.claims >= n:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"the loop claimed {Counted.claims} times, not {n}")


def lines(caplog, level=None):
    return [r for r in caplog.records if r.name == LOGGER
            and (level is None or r.levelno == level)]


async def test_a_database_that_cannot_be_written_is_one_line_a_minute(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    Counted.claims = 0
    path = tmp_path / "bot.db"
    store = await open_store(path, Counted)
    clock = ManualClock()
    fired = []

    async def handler(timer):
        fired.append(timer.id)

    scheduler = Scheduler(store, handler, clock, error_pause=0.001)
    await scheduler.schedule("ping", clock())       # due now: claiming it is a write
    await store._fetchall("PRAGMA query_only = ON")
    try:
        await scheduler.start()
        await claims_reach(30)                      # thirty retries within the same minute
        warned = lines(caplog, logging.WARNING)
        assert len(warned) == 1, [r.getMessage() for r in warned]
        text = warned[0].getMessage()
        assert str(path) in text and "write access" in text
        assert all(r.exc_info is None for r in lines(caplog))      # no traceback at all
        assert lines(caplog, logging.ERROR) == []

        clock.advance(61)                           # a minute on: one more line, with the count
        await claims_reach(Counted.claims + 30)
        warned = lines(caplog, logging.WARNING)
        assert len(warned) == 2
        assert "more since" in warned[1].getMessage()
        assert fired == []

        await store._fetchall("PRAGMA query_only = OFF")
        for _ in range(5000):
            if fired:
                break
            await asyncio.sleep(0.001)
        assert len(fired) == 1                      # the timer fires once it clears
        assert any("answers again" in r.getMessage() for r in lines(caplog, logging.INFO))
        assert len(lines(caplog, logging.WARNING)) == 2
    finally:
        await scheduler.stop()
        await store.close()


class Broken:
    """A claim that fails for a reason nobody foresaw (a bug): its traceback must be kept."""

    async def claim_timers(self, *args, **kw):
        raise KeyError("a bug")


async def test_an_unexpected_loop_error_keeps_its_traceback(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    store = await open_store(tmp_path / "bot.db", Broken)
    scheduler = Scheduler(store, None, ManualClock(), error_pause=0.001)
    try:
        await scheduler.start()
        for _ in range(5000):
            if len(lines(caplog, logging.ERROR)) >= 3:
                break
            await asyncio.sleep(0.001)
        errors = lines(caplog, logging.ERROR)
        assert len(errors) >= 3                     # every time, not once a minute
        assert all(r.exc_info and r.exc_info[0] is KeyError for r in errors)
    finally:
        await scheduler.stop()
        await store.close()


class Reads(Counted):
    """Counts the outbox loop's steps (each reads the refused destinations first)."""

    async def lane_blocks(self, *args, **kw):
        Counted.claims += 1
        return await super().lane_blocks(*args, **kw)


async def test_the_outbox_logs_a_damaged_database_once_a_minute(tmp_path, caplog):
    logger = "ttr_bot.discord.posting.outbox_worker"
    caplog.set_level(logging.INFO, logger=logger)
    Counted.claims = 0
    path = tmp_path / "bot.db"
    store = await open_store(path, Reads)
    clock = ManualClock()
    service = GameService(store, clock=clock)
    script = Script(clock)
    worker = OutboxWorker(Bot(service), script, clock, idle_poll=3600.0)
    worker.error_pause = 0.001
    await service.queue.owe([owed_row(Lane.user(42), DirectMessage("bot.dm.closed", {}))], None)
    fault = Corrupt()
    await fault.start(store, path)

    def outbox():
        return [r for r in caplog.records if r.name == logger]
    try:
        worker.start()
        await claims_reach(30)
        warned = [r for r in outbox() if r.levelno == logging.WARNING]
        assert len(warned) == 1, [r.getMessage() for r in outbox()]
        assert str(path) in warned[0].getMessage()
        assert "backup" in warned[0].getMessage()
        assert all(r.exc_info is None and r.levelno < logging.ERROR for r in outbox())
        clock.advance(61)
        await claims_reach(Counted.claims + 30)
        assert len([r for r in outbox() if r.levelno == logging.WARNING]) == 2
        assert script.takes == []

        await fault.clear(store, path)              # the operator restores the backup
        for _ in range(5000):
            if script.takes and any("answers again" in r.getMessage() for r in outbox()):
                break
            await asyncio.sleep(0.001)
        assert len(script.takes) == 1               # what was owed goes out
        assert any("answers again" in r.getMessage() for r in outbox())
    finally:
        await worker.stop()
        await store.close()
