"""The outbox worker's retries are bounded in shape: whatever a row's attempt count (a row that
has failed a million times) and whatever goes wrong (a timeout, a 5xx, a connection error, a
rate limit, a refusal, a bug, the retry itself not written), no row is taken again before its
backoff; a row at attempt 1,024 or more, where `2.0 ** attempts` overflows, is not taken again
at once (the hot loop of issue 36); a row failing transiently for a day is given up as a
refused destination's rows are, its game's players told, and the rows behind it go on.

The worker runs on its real service and store (SQLite) and a ManualClock; Discord's part is
a delivery answering from a script what discord.py would raise (the end-to-end 429 test in
test_e2e_rate_limits.py goes through the fake Discord)."""
import asyncio
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.svckit import open_store, started
from ttr_bot.discord.posting.outbox_worker import OutboxWorker
from ttr_bot.discord.posting.refusals import FIRST_RETRY, refused_backoff
from ttr_bot.discord.posting.retries import (
    TRANSIENT_GIVE_UP,
    TRANSIENT_TRIES,
    refused_row_backoff,
    transient_backoff,
)
from ttr_bot.service import GameService
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.messages import DirectMessage, Lane, Notice, parse
from ttr_bot.service.owed import owed_row


def response(status):
    return SimpleNamespace(status=status, reason="Some Reason", headers={})


def rate_limited(retry_after):
    exc = discord.HTTPException(response(429), {"message": "You are being rate limited.",
                                                "code": 0})
    exc.response.headers = {"Retry-After": str(retry_after)}
    return exc


# what Discord (through discord.py) may answer a send with, and the least time before the row
# may be taken again: f(the row's attempts when taken, whether its lane is a channel); None
# when the answer gives the row up (it is never taken again)
def _transient(a, channel, wait=0.0):
    return None if a + 1 >= TRANSIENT_TRIES else max(wait, transient_backoff(a))


def _refused_row(a, channel):
    return None if a + 1 >= MAX_ATTEMPTS else refused_row_backoff(a)


FAILURES = {
    "timeout": (TimeoutError, _transient),
    "5xx": (lambda: discord.DiscordServerError(response(503), "busy"), _transient),
    "connection": (lambda: aiohttp.ClientConnectionError("reset"), _transient),
    "oserror": (lambda: OSError(104, "reset"), _transient),
    "ratelimited": (lambda: discord.RateLimited(40.0), lambda a, c: _transient(a, c, 40.0)),
    "429": (lambda: rate_limited(90), lambda a, c: _transient(a, c, 90.0)),
    "400": (lambda: discord.HTTPException(response(400), {"code": 50035, "message": "bad"}),
            _refused_row),
    "dm closed": (lambda: discord.Forbidden(response(403), {"code": 50007, "message": "no"}),
                  _refused_row),
    "refused": (lambda: discord.Forbidden(response(403), {"code": 50013, "message": "perm"}),
                lambda a, c: FIRST_RETRY if c else _refused_row(a, c)),
    "bug": (lambda: ValueError("a bug"), _refused_row),
    # the send timed out and then the database could not write its retry
    "write fails": (TimeoutError, _transient),
}
MAX_ATTEMPTS = 5


class Script:
    """The delivery: each take of a row answers the row's next scripted failure (or, when the
    script is out, takes it). Records every take: (row id, clock time, attempts then, what
    it answered: None when it took it)."""

    def __init__(self, clock):
        self.clock = clock
        self.answers = {}
        self.takes = []
        self.lost_writes = set()    # rows whose next retry the database fails to write

    async def handle(self, row, parts=(), merged=()):
        left = self.answers.get(row.id)
        answer = left.pop(0) if left else None
        self.takes.append((row.id, self.clock(), row.attempts, answer))
        if answer is None:
            return 1
        if answer == "write fails":
            self.lost_writes.add(row.id)
        raise FAILURES[answer][0]()


class Bot:
    def __init__(self, service):
        self.service = service

    def is_ready(self):
        return True

    def get_guild(self, guild_id):
        return object()

    def get_channel(self, channel_id):
        return None


async def outbox(tmp_path, clock):
    store = await open_store(tmp_path / "outbox.db")
    service = GameService(store, clock=clock)
    script = Script(clock)
    worker = OutboxWorker(Bot(service), script, clock, idle_poll=3600.0,
                          max_attempts=MAX_ATTEMPTS)
    retry_later = service.queue.retry_later

    async def flaky_retry_later(row_id, due_at):
        if row_id in script.lost_writes:
            script.lost_writes.discard(row_id)
            raise OSError("disk I/O error")
        return await retry_later(row_id, due_at)
    service.queue.retry_later = flaky_retry_later
    service.core.on_outbox = worker.wake
    return store, service, worker, script


async def owe(service, store, lane, attempts, game_id=None):
    message = DirectMessage("bot.dm.closed", {}) if not lane.is_channel else \
        Notice("bot.dm.closed", {})
    await service.queue.owe([owed_row(lane, message, game_id=game_id)], game_id)
    row_id = (await service.queue.owed_in_lane(lane))[-1].id
    await store._auto.execute("UPDATE outbox SET attempts = $1 WHERE id = $2", attempts, row_id)
    return row_id


async def at_rest(worker):
    """Until the worker has handled what is due by its clock (its `busy`, polled)."""
    for _ in range(20_000):
        await asyncio.sleep(0.0005)
        if not worker.busy:
            return
    raise AssertionError("the outbox worker never came to rest")


def too_soon(takes, channels):
    """Every take of a row that came before its backoff ran out (or after it was given up):
    [(row, taken at, taken again at, least gap)]."""
    wrong, last = [], {}
    for row_id, at, attempts, answer in takes:
        if row_id in last:
            before, least = last[row_id]
            if least is None or at - before < least:
                wrong.append((row_id, before, at, least))
        least = float("inf") if answer is None else \
            FAILURES[answer][1](attempts, row_id in channels)
        last[row_id] = (at, least)
    return wrong


@pytest.fixture
def clock():
    return ManualClock()


@pytest.mark.asyncio
async def test_a_row_past_attempt_1024_is_not_taken_again_at_once(tmp_path, clock):
    """`2.0 ** 1024` overflows: today's worker raised before writing the retry, and took the
    row again at once, for ever. Now every backoff is finite whatever the count, and a row
    that has failed that often (days of failures) is given up at its next failure, the error
    kept on it."""
    for attempts in (1023, 1024, 10 ** 6, 2 ** 64):
        for delay in (transient_backoff(attempts), refused_row_backoff(attempts),
                      refused_backoff(attempts)):
            assert 0 < delay <= 3600.0
    store, service, worker, script = await outbox(tmp_path, clock)
    try:
        lane = Lane.user(42)
        row = await owe(service, store, lane, 1024)
        script.answers[row] = ["timeout"] * 3
        worker.start()
        await at_rest(worker)
        for _ in range(20):     # the loop goes round; the clock does not move
            worker.wake()
            await at_rest(worker)
        assert [t[0] for t in script.takes] == [row], script.takes
        assert not await service.queue.owed_in_lane(lane)
        (given_up,) = [r for r in await every_row(store) if r.id == row]
        assert given_up.error.startswith("failing for a day: TimeoutError")
        clock.advance(3600)
        await at_rest(worker)
        assert len(script.takes) == 1
    finally:
        await worker.stop()
        await store.close()


@pytest.mark.asyncio
async def test_a_retry_the_database_cannot_write_still_waits(tmp_path, clock):
    store, service, worker, script = await outbox(tmp_path, clock)
    try:
        row = await owe(service, store, Lane.user(7), 3)
        script.answers[row] = ["write fails"]
        worker.start()
        for _ in range(5):
            worker.wake()
            await at_rest(worker)
        assert len(script.takes) == 1
        clock.advance(120)
        await at_rest(worker)
        assert len(script.takes) == 2 and not await service.queue.owed_in_lane(Lane.user(7))
    finally:
        await worker.stop()
        await store.close()


ATTEMPTS = st.sampled_from([0, 1, 4, 9, 30, TRANSIENT_TRIES - 2, 1023, 1024, 1025, 5000,
                            10 ** 6, 2 ** 40])
ANSWERS = st.lists(st.sampled_from(sorted(FAILURES)), max_size=6)
STEPS = st.lists(st.sampled_from([0.0, 0.5, 1.0, 7.0, 45.0, 100.0, 400.0, 3600.0]),
                 min_size=4, max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=st.lists(st.tuples(st.booleans(), ATTEMPTS, ANSWERS), min_size=1, max_size=4),
       steps=STEPS)
def test_no_row_is_taken_twice_within_its_backoff(tmp_path_factory, rows, steps):
    """Rows at any attempt count, in channels and DMs, failing in every way in any order, the
    clock moving by any steps (and standing still while the worker is woken): no row is taken
    again before its backoff has run out, nor after it was given up, nor more often than it
    failed."""
    asyncio.run(_no_row_twice(tmp_path_factory.mktemp("outbox"), rows, steps))


async def _no_row_twice(tmp_path, rows, steps):
    clock = ManualClock()
    store, service, worker, script = await outbox(tmp_path, clock)
    try:
        channels, failures = set(), {}
        for i, (in_channel, attempts, answers) in enumerate(rows):
            lane = Lane.channel(200 + i) if in_channel else Lane.user(100 + i)
            row = await owe(service, store, lane, attempts)
            script.answers[row] = list(answers)
            failures[row] = len(answers)
            if in_channel:
                channels.add(row)
        worker.start()
        await at_rest(worker)
        for step in steps:
            for _ in range(3):          # wakes while the clock stands still take nothing due
                worker.wake()
                await at_rest(worker)
            clock.advance(step)
            await at_rest(worker)
        assert too_soon(script.takes, channels) == []
        for row, failed in failures.items():
            assert sum(1 for t in script.takes if t[0] == row) <= failed + 1
    finally:
        await worker.stop()
        await store.close()


@pytest.mark.asyncio
async def test_a_day_of_transient_failures_is_given_up_and_the_players_told(tmp_path, clock):
    """A channel post failing transiently for a day (the backoff's schedule spans it) is given
    up: the row behind it goes out, and the players of its game are told by DM."""
    store, service, worker, script = await outbox(tmp_path, clock)
    try:
        game_id, users = await started(service, 300)
        await service.queue.delivered([r.id for r in await service.queue.owed_messages()])
        lane = Lane.channel(300)
        stuck = await owe(service, store, lane, 0, game_id=game_id)
        behind = await owe(service, store, lane, 0, game_id=game_id)
        script.answers[stuck] = ["5xx"] * (TRANSIENT_TRIES + 5)
        worker.start()
        await at_rest(worker)
        began = clock()
        while owed := [r for r in await service.queue.owed_in_lane(lane) if r.id == stuck]:
            assert clock() - began <= TRANSIENT_GIVE_UP + 600, "not given up after a day"
            assert owed[0].due_at > clock()         # it waits for its retry
            clock.set(owed[0].due_at)
            await at_rest(worker)
        assert clock() - began >= TRANSIENT_GIVE_UP - 600
        assert sum(1 for t in script.takes if t[0] == stuck) == TRANSIENT_TRIES
        await at_rest(worker)
        assert behind in [t[0] for t in script.takes]        # the row behind went out
        told = [(Lane.parse(r.lane), parse(r.kind, r.payload)) for r in await every_row(store)
                if r.kind == "dm"]
        assert sorted(lane.id for lane, m in told
                      if m.key == "bot.outbox.failing_dm") == sorted(users), told
        assert not await service.queue.owed_messages()             # the DMs went out too
    finally:
        await worker.stop()
        await store.close()


async def every_row(store):
    from ttr_bot.store.rows import OUTBOX_COLUMNS, outbox_record
    rows = await store._auto.fetch(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY id")
    return [outbox_record(r) for r in rows]
