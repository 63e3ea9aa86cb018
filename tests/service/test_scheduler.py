"""The scheduler: the waiting task, early wake-up, restarts, failures, cancel (durable timers on a
real store). On a ManualClock: time passes only when a test advances it, and "nothing more
fires" is the scheduler at rest (`run_timers`: not `busy`), never a sleep. Handlers that take
long (a computer player thinking) wait on a gate the test opens."""
import asyncio
import logging

import pytest
import pytest_asyncio

from tests.service.svckit import run_timers
from ttr_bot.service.clock import ManualClock
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


class Rest:
    """`run_timers` for a bare scheduler (it reads the service's `busy`)."""

    def __init__(self, scheduler):
        self.scheduler = scheduler

    @property
    def busy(self):
        return self.scheduler.busy


async def at_rest(service):
    """Until the scheduler has fired everything due by its clock and sleeps."""
    await run_timers(Rest(service))


@pytest.fixture
def clock():
    return ManualClock()


@pytest_asyncio.fixture
async def service_factory(store, clock):
    services = []

    def make(handler, **kw):
        service = Scheduler(store, handler, clock=clock, **kw)
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


async def test_fires_in_due_order(store, make_game, service_factory, clock):
    game_id = await make_game()
    handler = Recorder()
    service = service_factory(handler)
    now = clock()
    await service.start()
    for name, delay in (("c", 30), ("a", 10), ("b", 20)):
        await service.schedule("turn", now + delay, {"name": name}, game_id)
    await at_rest(service)
    assert handler.names == []
    clock.advance(29.9)
    await at_rest(service)
    assert handler.names == ["a", "b"]              # not early: c is due at 30
    clock.advance(0.1)
    await at_rest(service)
    assert handler.names == ["a", "b", "c"]
    assert await no_timers(store)                   # fired timers are deleted


async def test_each_kind_fires_the_handler_registered_for_it(store, make_game, service_factory,
                                                             clock, caplog):
    """A feature registers the kinds it owns (`on`); a kind nobody registered is logged and
    dropped, as a timer written by an older or newer version would be."""
    game_id = await make_game()
    turns, votes = Recorder(), Recorder()
    service = service_factory(None)
    service.on("turn", turns)
    service.on("vote", votes)
    now = clock()
    await service.schedule("turn", now + 1, {"name": "t"}, game_id)
    await service.schedule("vote", now + 2, {"name": "v"}, game_id)
    await service.schedule("retired", now + 3, {"name": "old"}, game_id)
    with caplog.at_level(logging.INFO, logger="ttr_bot.service.scheduler"):
        await service.start()
        clock.advance(5)
        await at_rest(service)
    assert turns.names == ["t"] and votes.names == ["v"]
    assert any("of kind retired" in r.getMessage() for r in caplog.records)
    assert await no_timers(store)                   # the unknown one too: not fired again


async def test_a_kind_has_one_owner(service_factory):
    service = service_factory(None)
    service.on("turn", Recorder())
    with pytest.raises(ValueError, match="turn"):
        service.on("turn", Recorder())


async def test_a_sooner_timer_wakes_the_sleeping_task(store, service_factory, clock):
    handler = Recorder()
    service = service_factory(handler, max_sleep=3600)
    await service.schedule("far", clock() + 3600, {"name": "far"})
    await service.start()
    await at_rest(service)                          # the task is now asleep for an hour
    await service.schedule("soon", clock() + 5, {"name": "soon"})
    clock.advance(5)
    await at_rest(service)
    assert handler.names == ["soon"]


async def test_overdue_timers_fire_once_on_restart_coalesced(store, make_game, service_factory,
                                                              clock):
    g1, g2 = await make_game(), await make_game()
    now = clock()
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
    await at_rest(service)                          # and nothing more comes
    # each fired once; one game's in due order (timers of different games run side by side)
    assert sorted(handler.names) == ["g1-reminder", "g1-turn-3", "g2-turn", "global-1",
                                     "global-2"]
    assert [n for n in handler.names if n.startswith("g1")] == ["g1-reminder", "g1-turn-3"]
    assert [t.id for t in await store.due_timers(now + 7200)] == [future]

    await service.stop()  # and a second restart fires nothing again
    again = Recorder()
    second = service_factory(again)
    await second.start()
    await at_rest(second)
    assert again.fired == []


async def test_failed_handler_is_retried_then_deleted(store, service_factory, clock):
    handler = Recorder(fail_first=2)
    service = service_factory(handler, retry_delay=5)
    await service.start()
    await service.schedule("turn", clock(), {"name": "x"})
    await at_rest(service)
    assert handler.calls == 1 and handler.fired == []
    for backoff in (5, 10):                         # doubled after each failure
        clock.advance(backoff - 0.1)
        await at_rest(service)
        assert handler.fired == []                  # not before its backoff
        clock.advance(0.1)
        await at_rest(service)
    assert handler.calls == 3 and handler.names == ["x"]
    assert handler.fired[0].attempts == 2  # the failures were counted in the database
    assert await no_timers(store)


async def test_a_timer_that_keeps_failing_is_kept_with_capped_backoff_and_logged_once(
        store, service_factory, clock, caplog):
    handler = Recorder(fail_first=10**6)
    service = service_factory(handler, retry_delay=1, max_attempts=3, max_retry_delay=4)
    with caplog.at_level(logging.INFO, logger="ttr_bot.service.scheduler"):
        await service.start()
        await service.schedule("turn", clock(), {"name": "doomed"})
        await at_rest(service)
        while handler.calls < 8:        # backoffs 1, 2, 4, then capped at 4: one try each
            clock.advance(4)
            await at_rest(service)
    assert handler.calls == 8
    (timer,) = await store.due_timers(clock() + 3600)     # never dropped
    assert timer.attempts == 8 and timer.due_at == clock() + 4    # the cap holds
    levels = [(r.levelno, r.getMessage()) for r in caplog.records if "doomed" in r.getMessage()]
    assert [m for lv, m in levels if lv == logging.WARNING][0].endswith("(attempt 1); retry in 1s")
    errors = [m for lv, m in levels if lv >= logging.ERROR]
    assert len(errors) == 1 and "attempt 3, its last try" in errors[0]


async def test_cancel(store, make_game, service_factory, clock):
    game_id = await make_game()
    handler = Recorder()
    service = service_factory(handler)
    await service.start()
    now = clock()
    await service.schedule("turn", now + 10, {"name": "turn"}, game_id)
    await service.schedule("reminder", now + 15, {"name": "reminder"}, game_id)
    await service.schedule("turn", now + 20, {"name": "other game"}, await make_game())
    assert await service.cancel(game_id, "turn") == 1
    clock.advance(30)
    await at_rest(service)
    assert handler.names == ["reminder", "other game"]
    await service.schedule("turn", clock() + 10, {"name": "late"}, game_id)
    assert await service.cancel(game_id) == 1  # all kinds
    clock.advance(30)
    await at_rest(service)
    assert handler.names == ["reminder", "other game"]


async def test_stopped_service_fires_nothing_and_timers_survive(store, service_factory, clock):
    handler = Recorder()
    service = service_factory(handler)
    await service.start()
    await service.stop()
    assert not service.running and not service.busy
    timer_id = await service.schedule("turn", clock() + 5, {"name": "x"})
    clock.advance(60)
    await at_rest(service)
    assert handler.fired == []
    assert (await store.next_due()).id == timer_id


class Slow:
    """A handler that takes its time (awaiting, as a computer player's decision in a worker
    does): each call waits until the test lets one through (`release`), and the order in
    which timers started and ended is recorded."""

    def __init__(self, fail_first=0):
        self.fail_first = fail_first
        self.calls = 0
        self.started, self.ended = [], []
        self.running = 0
        self.most = 0
        self._gate = asyncio.Semaphore(0)

    def release(self, n=1):
        for _ in range(n):
            self._gate.release()

    async def __call__(self, timer):
        self.calls += 1
        call = self.calls
        self.running += 1
        self.most = max(self.most, self.running)
        self.started.append(timer.payload["name"])
        try:
            await self._gate.acquire()
            if call <= self.fail_first:
                raise RuntimeError("decision lost")
        finally:
            self.running -= 1
        self.ended.append(timer.payload["name"])


async def test_a_slow_handler_holds_up_no_other_games_timers(store, make_game, service_factory,
                                                             clock, eventually):
    """Eight games' slow handlers are due at once: all eight run side by side (none has
    ended when the eighth starts)."""
    handler = Slow()
    service = service_factory(handler, concurrency=16)
    for i in range(8):
        await service.schedule("bot_move", clock(), {"name": f"g{i}"}, await make_game())
    await service.start()
    await eventually(lambda: handler.running == 8)
    assert handler.ended == []
    handler.release(8)
    await at_rest(service)
    assert len(handler.ended) == 8 and handler.most == 8
    assert await no_timers(store)


async def test_concurrency_is_bounded(store, make_game, service_factory, clock, eventually):
    handler = Slow()
    service = service_factory(handler, concurrency=3)
    for i in range(9):
        await service.schedule("bot_move", clock(), {"name": f"g{i}"}, await make_game())
    await service.start()
    await eventually(lambda: handler.running == 3)
    for _ in range(50):             # the task's turns at claiming more: it must not
        await asyncio.sleep(0)
    assert handler.running == 3
    for n in range(1, 4):           # each handler's end makes room for one more
        handler.release(3)
        await eventually(lambda n=n: len(handler.ended) == 3 * n)
    await at_rest(service)
    assert handler.most == 3 and handler.calls == 9
    assert await no_timers(store)


async def test_one_games_timers_still_fire_one_at_a_time_in_order(store, make_game,
                                                                   service_factory, clock,
                                                                   eventually):
    game_id = await make_game()
    handler = Slow()
    service = service_factory(handler)
    now = clock()
    for name, delay in (("third", 3), ("first", 1), ("second", 2)):
        await service.schedule("turn", now + delay, {"name": name}, game_id)
    await service.start()
    await at_rest(service)          # (none is due at start: overdue ones would be coalesced)
    clock.advance(3)                # all three due at once
    for done, name in enumerate(("first", "second", "third")):
        await eventually(lambda name=name: handler.started[-1:] == [name])
        assert handler.running == 1 and len(handler.ended) == done   # never overlapping
        handler.release()
    await at_rest(service)
    assert handler.ended == ["first", "second", "third"] and handler.most == 1


async def test_a_timer_due_while_others_run_is_not_late(store, make_game, service_factory,
                                                        clock, eventually):
    """While the soonest timer's handler runs, a later one of another game still fires on
    time (the task does not sleep until the running one ends)."""
    handler = Slow()
    service = service_factory(handler)
    await service.schedule("turn", clock(), {"name": "long"}, await make_game())
    await service.start()
    await eventually(lambda: handler.running == 1)
    await service.schedule("turn", clock() + 20, {"name": "soon"}, await make_game())
    clock.advance(20)
    await eventually(lambda: handler.started == ["long", "soon"])
    assert handler.ended == []                      # the long one still runs
    handler.release(2)
    await at_rest(service)
    assert sorted(handler.ended) == ["long", "soon"]
    assert await no_timers(store)


async def test_failures_are_retried_with_backoff_while_others_run(store, make_game,
                                                                  service_factory, clock,
                                                                  eventually):
    handler = Slow(fail_first=1)
    service = service_factory(handler, retry_delay=20)
    now = clock()
    await service.schedule("turn", now, {"name": "unlucky"}, await make_game())
    await service.start()
    await eventually(lambda: handler.running == 1)
    handler.release()                               # its first try fails
    await at_rest(service)
    (timer,) = await store.due_timers(now + 3600)
    assert timer.attempts == 1 and timer.due_at >= now + 20      # moved on by the backoff
    await service.schedule("turn", clock(), {"name": "other"}, await make_game())
    await eventually(lambda: handler.running == 1)
    handler.release()
    await at_rest(service)
    assert handler.ended == ["other"]               # unlucky still waits out its backoff
    clock.advance(20)
    await eventually(lambda: handler.running == 1)
    handler.release()
    await at_rest(service)
    assert handler.ended == ["other", "unlucky"]
    assert await no_timers(store)


async def test_stop_interrupts_running_handlers_and_their_timers_stay(store, make_game,
                                                                     service_factory, clock,
                                                                     eventually):
    handler = Slow()
    service = service_factory(handler)
    game_id = await make_game()
    timer_id = await service.schedule("turn", clock(), {"name": "long"}, game_id)
    await service.start()
    await eventually(lambda: handler.running == 1)
    await service.stop()
    assert handler.running == 0 and handler.ended == []
    assert [t.id for t in await store.due_timers(clock())] == [timer_id]   # fires again


async def test_stopping_ends_a_loop_that_swallows_a_cancellation():
    """A loop task may swallow a cancellation (Python 3.11's wait_for does when it arrives as
    the awaited event is set; a timer handler's end sets the scheduler's wake). Stopping must
    still end it, not hang: here a loop that swallows the first cancellation by design, so the
    case is shown on every Python version."""
    from ttr_bot.service.clock import cancel_and_wait
    swallowed = 0

    async def loop():
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed += 1          # as wait_for did: the loop runs on

    task = asyncio.create_task(loop())
    await asyncio.sleep(0)
    await asyncio.wait_for(cancel_and_wait(task), 5)
    assert swallowed == 1 and task.cancelled()


async def test_stopping_ends_a_loop_whose_wake_came_with_the_cancellation():
    """The real race: the wake is set and the task cancelled in one tick (swallowed on Python
    3.11, not on later versions); either way stop() ends the loop."""
    import time

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
    await asyncio.wait_for(cancel_and_wait(task), 5)
    assert task.done()


async def test_every_kind_the_service_writes_is_fired_by_the_feature_that_owns_it(store, clock):
    """The timer kinds of turns.py (and the typed ones of seasons.py and board.py), each
    registered by its feature when the service is built: a kind left out would be dropped
    unfired."""
    from ttr_bot.service import GameService
    from ttr_bot.service import turns as t
    from ttr_bot.service.board import BoardTick
    from ttr_bot.service.cup_rules import CupCheck, CupRoundEnd, CupSignup
    from ttr_bot.service.seasons import SeasonEnd
    svc = GameService(store, clock=clock)
    owners = {kind: handler.__self__ for kind, handler in svc.core.scheduler._kinds.items()}
    assert owners == {t.BOT_MOVE: svc.absence, t.DEADLINE: svc.absence, t.COVER: svc.absence,
                      t.REMIND: svc.absence, t.EXPEL: svc.absence, t.IDLE: svc.absence,
                      t.LOBBY_WARN: svc.lobby, t.LOBBY_EXPIRE: svc.lobby,
                      t.VOTE_EXPIRE: svc.votes, t.AWAY_END: svc.away,
                      SeasonEnd.KIND: svc.seasons, BoardTick.KIND: svc.board,
                      CupSignup.KIND: svc.cups, CupCheck.KIND: svc.cups,
                      CupRoundEnd.KIND: svc.cups}
