"""The scheduler's retries are bounded in shape as the outbox's are (issue 36): a timer whose
handler has failed thousands of times is retried after the capped delay, never at once, and a
failure that cannot even be recorded (the store refuses the retry) leaves the timer leased
until its lease runs out, not taken again at once."""
import pytest

from tests.service.svckit import run_timers
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.scheduler import Scheduler

pytestmark = pytest.mark.asyncio


class Failing:
    def __init__(self):
        self.calls = []

    async def __call__(self, timer):
        self.calls.append((timer.id, timer.attempts))
        raise RuntimeError("handler crashed")


class Rest:
    """`run_timers` for a bare scheduler (it reads the service's `busy`)."""

    def __init__(self, scheduler):
        self.scheduler = scheduler

    @property
    def busy(self):
        return self.scheduler.busy


async def test_a_timer_failing_thousands_of_times_waits_its_capped_backoff(store):
    clock = ManualClock()
    handler = Failing()
    scheduler = Scheduler(store, handler, clock=clock, retry_delay=30.0, max_retry_delay=3600.0,
                          lease=30.0)
    try:
        timer_id = await scheduler.schedule("turn", clock(), {"name": "old"})
        await store._auto.execute("UPDATE timers SET attempts = $1 WHERE id = $2", 5000,
                                  timer_id)
        await scheduler.start()
        await run_timers(Rest(scheduler))
        clock.advance(3599)
        await run_timers(Rest(scheduler))
        assert handler.calls == [(timer_id, 5000)]
        clock.advance(1)
        await run_timers(Rest(scheduler))
        assert handler.calls == [(timer_id, 5000), (timer_id, 5001)]

        # the store cannot record the next failure: the timer stays leased, not retaken at once
        retry_timer = store.retry_timer

        async def broken(*args, **kwargs):
            raise OSError("disk I/O error")
        store.retry_timer = broken
        clock.advance(3600)
        await run_timers(Rest(scheduler))
        assert len(handler.calls) == 3
        clock.advance(29)
        await run_timers(Rest(scheduler))
        assert len(handler.calls) == 3
        store.retry_timer = retry_timer
        clock.advance(1)
        await run_timers(Rest(scheduler))
        assert len(handler.calls) == 4
    finally:
        await scheduler.stop()
