"""The scheduler: the waiting task, early wake-up, restarts, failures, cancel (durable timers on a
real store)."""
import asyncio
import logging
import time

import pytest
import pytest_asyncio

from ttr_bot.service.scheduler import Scheduler

pytestmark = pytest.mark.asyncio


class Recorder:
    """A timer handler that remembers what fired, optionally failing the first n calls."""

    def __init__(self, fail_first=0):
        self.fired = []
        self.calls = 0
        self.fail_first = fail_first

    async def __call__(self, timer):
        self.calls += 1
        if self.calls <= self.fail_first:
            raise RuntimeError("handler crashed")
        self.fired.append(timer)

    @property
    def names(self):
        return [t.payload.get("name") for t in self.fired]


async def no_timers(store):
    return await store.next_due() is None


@pytest_asyncio.fixture
async def service_factory(store):
    services = []

    def make(handler, **kw):
        service = Scheduler(store, handler, **kw)
        services.append(service)
        return service

    yield make
    for service in services:
        await service.stop()


@pytest_asyncio.fixture
async def make_game(store):
    """A game for timers to belong to (timers reference their game)."""
    channels = iter(range(1000, 10**6))

    async def make():
        return await store.create_game(guild_id=1, channel_id=next(channels), map="usa",
                                       variant="base", options={}, seed=42, host_id=10, now=100.0)
    return make


async def test_fires_in_due_order(store, make_game, service_factory, eventually):
    game_id = await make_game()
    handler = Recorder()
    service = service_factory(handler)
    now = time.time()
    await service.start()
    for name, delay in (("c", 0.30), ("a", 0.10), ("b", 0.20)):
        await service.schedule("turn", now + delay, {"name": name}, game_id)
    await eventually(lambda: len(handler.fired) == 3)
    assert handler.names == ["a", "b", "c"]
    assert time.time() >= now + 0.30  # not early
    await eventually(lambda: no_timers(store))  # fired timers are deleted


async def test_a_sooner_timer_wakes_the_sleeping_task(store, service_factory, eventually):
    handler = Recorder()
    service = service_factory(handler, max_sleep=3600)
    await service.schedule("far", time.time() + 3600, {"name": "far"})
    await service.start()
    await asyncio.sleep(0.1)  # the task is now asleep for an hour
    start = time.monotonic()
    await service.schedule("soon", time.time() + 0.05, {"name": "soon"})
    await eventually(lambda: handler.names == ["soon"], timeout=2.0)
    assert time.monotonic() - start < 1.0


async def test_overdue_timers_fire_once_on_restart_coalesced(store, make_game, service_factory,
                                                              eventually):
    g1, g2 = await make_game(), await make_game()
    now = time.time()
    # Missed while the bot was down:
    for name, due, game, kind in [
        ("g1-turn-1", now - 30, g1, "turn"), ("g2-turn", now - 25, g2, "turn"),
        ("g1-turn-2", now - 20, g1, "turn"), ("g1-reminder", now - 15, g1, "reminder"),
        ("g1-turn-3", now - 10, g1, "turn"),
        ("global-1", now - 5, None, "cleanup"), ("global-2", now - 4, None, "cleanup"),
    ]:
        await store.add_timer(kind, due, {"name": name}, game, now=now - 60)
    future = await store.add_timer("turn", now + 3600, {"name": "future"}, g2)

    handler = Recorder()
    service = service_factory(handler)
    await service.start()
    await eventually(lambda: len(handler.fired) >= 5)
    await asyncio.sleep(0.2)  # nothing more comes
    # each fired once; one game's in due order (timers of different games run side by side)
    assert sorted(handler.names) == ["g1-reminder", "g1-turn-3", "g2-turn", "global-1",
                                     "global-2"]
    assert [n for n in handler.names if n.startswith("g1")] == ["g1-reminder", "g1-turn-3"]
    assert [t.id for t in await store.due_timers(now + 7200)] == [future]

    await service.stop()  # and a second restart fires nothing again
    again = Recorder()
    await service_factory(again).start()
    await asyncio.sleep(0.2)
    assert again.fired == []


async def test_failed_handler_is_retried_then_deleted(store, service_factory, eventually):
    handler = Recorder(fail_first=2)
    service = service_factory(handler, retry_delay=0.05)
    await service.start()
    await service.schedule("turn", time.time(), {"name": "x"})
    await eventually(lambda: handler.fired)
    assert handler.calls == 3 and handler.names == ["x"]
    assert handler.fired[0].attempts == 2  # the failures were counted in the database
    await eventually(lambda: no_timers(store))


async def test_a_timer_that_keeps_failing_is_kept_with_capped_backoff_and_logged_once(
        store, service_factory, eventually, caplog):
    handler = Recorder(fail_first=10**6)
    service = service_factory(handler, retry_delay=0.01, max_attempts=3, max_retry_delay=0.04)
    with caplog.at_level(logging.INFO, logger="ttr_bot.service.scheduler"):
        await service.start()
        await service.schedule("turn", time.time(), {"name": "doomed"})
        await eventually(lambda: handler.calls >= 8)
    (timer,) = await store.due_timers(time.time() + 3600)     # never dropped
    assert timer.attempts >= 7 and timer.due_at <= time.time() + 0.05    # the cap holds
    levels = [(r.levelno, r.getMessage()) for r in caplog.records if "doomed" in r.getMessage()]
    assert [m for lv, m in levels if lv == logging.WARNING][0].endswith("(attempt 1); retry in 0.01s")
    errors = [m for lv, m in levels if lv >= logging.ERROR]
    assert len(errors) == 1 and "attempt 3, its last try" in errors[0]


async def test_cancel(store, make_game, service_factory, eventually):
    game_id = await make_game()
    handler = Recorder()
    service = service_factory(handler)
    await service.start()
    now = time.time()
    await service.schedule("turn", now + 0.1, {"name": "turn"}, game_id)
    await service.schedule("reminder", now + 0.15, {"name": "reminder"}, game_id)
    await service.schedule("turn", now + 0.2, {"name": "other game"}, await make_game())
    assert await service.cancel(game_id, "turn") == 1
    await eventually(lambda: len(handler.fired) == 2)
    await asyncio.sleep(0.1)
    assert handler.names == ["reminder", "other game"]
    await service.schedule("turn", time.time() + 0.1, {"name": "late"}, game_id)
    assert await service.cancel(game_id) == 1  # all kinds
    await asyncio.sleep(0.3)
    assert handler.names == ["reminder", "other game"]


async def test_stopped_service_fires_nothing_and_timers_survive(store, service_factory):
    handler = Recorder()
    service = service_factory(handler)
    await service.start()
    await service.stop()
    assert not service.running
    timer_id = await service.schedule("turn", time.time() + 0.05, {"name": "x"})
    await asyncio.sleep(0.2)
    assert handler.fired == []
    assert (await store.next_due()).id == timer_id


class Slow:
    """A handler that takes `seconds` (awaiting, as a computer player's decision in a worker
    does) and records when each timer started and ended."""

    def __init__(self, seconds, fail_first=0):
        self.seconds, self.fail_first = seconds, fail_first
        self.calls = 0
        self.spans = {}         # name -> (start, end) of its successful run
        self.running = 0
        self.most = 0

    async def __call__(self, timer):
        self.calls += 1
        self.running += 1
        self.most = max(self.most, self.running)
        start = time.monotonic()
        try:
            await asyncio.sleep(self.seconds)
            if self.calls <= self.fail_first:
                raise RuntimeError("decision lost")
        finally:
            self.running -= 1
        self.spans[timer.payload["name"]] = (start, time.monotonic())


async def test_a_slow_handler_holds_up_no_other_games_timers(store, make_game, service_factory,
                                                             eventually):
    """Eight games' slow handlers (0.3 s each) are due at once: they run side by side, so all
    are done in well under the 2.4 s they would take one after another."""
    handler = Slow(0.3)
    service = service_factory(handler, concurrency=16)
    now = time.time()
    for i in range(8):
        await service.schedule("bot_move", now, {"name": f"g{i}"}, await make_game())
    started = time.monotonic()
    await service.start()
    await eventually(lambda: len(handler.spans) == 8, timeout=5)
    assert time.monotonic() - started < 1.2
    assert handler.most == 8
    await eventually(lambda: no_timers(store))


async def test_concurrency_is_bounded(store, make_game, service_factory, eventually):
    handler = Slow(0.1)
    service = service_factory(handler, concurrency=3)
    now = time.time()
    for i in range(9):
        await service.schedule("bot_move", now, {"name": f"g{i}"}, await make_game())
    await service.start()
    await eventually(lambda: len(handler.spans) == 9, timeout=5)
    assert handler.most == 3
    await eventually(lambda: no_timers(store))


async def test_one_games_timers_still_fire_one_at_a_time_in_order(store, make_game,
                                                                   service_factory, eventually):
    game_id = await make_game()
    handler = Slow(0.1)
    service = service_factory(handler)
    now = time.time()
    for name, delay in (("third", 0.02), ("first", 0.0), ("second", 0.01)):
        await service.schedule("turn", now + delay, {"name": name}, game_id)
    await service.start()
    await eventually(lambda: len(handler.spans) == 3, timeout=5)
    order = sorted(handler.spans, key=lambda n: handler.spans[n][0])
    assert order == ["first", "second", "third"]
    spans = [handler.spans[n] for n in order]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))    # never overlapping
    assert handler.most == 1


async def test_a_timer_due_while_others_run_is_not_late(store, make_game, service_factory,
                                                        eventually):
    """While the soonest timer's handler runs, a later one of another game still fires on
    time (the task does not sleep until the running one ends)."""
    handler = Slow(1.0)
    service = service_factory(handler)
    now = time.time()
    await service.schedule("turn", now, {"name": "long"}, await make_game())
    await service.start()
    await eventually(lambda: handler.running == 1)
    due = time.time() + 0.2
    await service.schedule("turn", due, {"name": "soon"}, await make_game())
    await eventually(lambda: "soon" in handler.spans, timeout=5)
    assert handler.spans["soon"][0] < handler.spans.get("long", (0, 1e18))[1]
    await eventually(lambda: no_timers(store), timeout=5)


async def test_failures_are_retried_with_backoff_while_others_run(store, make_game,
                                                                  service_factory, eventually):
    handler = Slow(0.05, fail_first=1)
    service = service_factory(handler, retry_delay=0.2)
    now = time.time()
    await service.schedule("turn", now, {"name": "unlucky"}, await make_game())
    await service.start()
    await eventually(lambda: handler.calls == 1 and handler.running == 0)
    (timer,) = await store.due_timers(now + 3600)
    assert timer.attempts == 1 and timer.due_at >= now + 0.2      # moved on by the backoff
    await service.schedule("turn", time.time(), {"name": "other"}, await make_game())
    await eventually(lambda: "other" in handler.spans)
    assert "unlucky" not in handler.spans                          # still waiting its turn
    await eventually(lambda: "unlucky" in handler.spans, timeout=5)
    await eventually(lambda: no_timers(store))


async def test_stop_interrupts_running_handlers_and_their_timers_stay(store, make_game,
                                                                     service_factory, eventually):
    handler = Slow(10.0)
    service = service_factory(handler)
    game_id = await make_game()
    timer_id = await service.schedule("turn", time.time(), {"name": "long"}, game_id)
    await service.start()
    await eventually(lambda: handler.running == 1)
    await service.stop()
    assert handler.running == 0 and handler.spans == {}
    assert [t.id for t in await store.due_timers(time.time())] == [timer_id]   # fires again


async def test_stopping_ends_a_loop_whose_wake_came_with_the_cancellation():
    """Python 3.11's wait_for swallows a cancellation that arrives as the awaited event is set
    (a handler's end sets the scheduler's wake): stop() must still end the loop, not hang."""
    from ttr_bot.service.clock import cancel_and_wait, sleep
    wake = asyncio.Event()
    async def loop():
        while True:
            wake.clear()
            await sleep(time.time, 3600, wake)

    task = asyncio.create_task(loop())
    await asyncio.sleep(0.05)
    wake.set()
    task.cancel()                      # in the same tick as the wake: may be swallowed
    await asyncio.sleep(0.05)
    swallowed = not task.done()
    await asyncio.wait_for(cancel_and_wait(task), 5)
    assert swallowed, "Python no longer swallows it: the case this guards against is gone"
    assert task.done()
