"""The scheduler: durable timers that survive restarts (a computer player's move, a turn's
deadline and reminders, housekeeping: the kinds are the service's, see turns.py); the store
keeps the timer rows, often written in the transaction of the change that needs them
(`notify` then wakes the task).

RoboDanny's pattern: timers live in the database, and one asyncio task sleeps until the
soonest one is due, fires it, and looks again. `schedule` wakes the task early through an
asyncio.Event when the new timer is sooner than the one it sleeps for.

Each feature registers the kinds it owns (`on(kind, handler)`, RoboDanny's dispatch), so a
kind's handler lives with its feature; a timer of a kind nobody registered is logged and
dropped. A `handler` given to the constructor takes every timer instead (tests, benchmarks).

Delivery is at least once: the row is deleted only after its handler returns, so a crash
or restart in between fires it again. Handlers must therefore be idempotent (e.g. a turn
move carries the game's seq in its payload and is ignored if the game has moved on). A
handler that raises is retried later with backoff (`retry_delay`, doubled after each failure,
at most `max_retry_delay`), counted in the database (so across restarts too). A timer is never
dropped: from its `max_attempts`-th try on, its handler is told it is the last try
(`timer.attempts >= max_attempts - 1`) and takes the simplest safe action (a turn played as
`easy` in this process, see absence.py); should even that fail, it is tried again every
`max_retry_delay`. Logged once each: the first failure (a warning with its traceback), and
the failure of a last try (an error); the tries in between are one info line each. A database
that cannot be read or written (`StoreUnavailable`) is one warning line naming the file and what
to do, at most once a minute while it lasts, no traceback (faultlog.py).

Timers fire side by side, up to `concurrency` at once, so a slow handler (a computer player
thinking in a worker process) holds up neither the other games' timers nor the loop; a game's
timers still fire one at a time, in due order (a timer of a game whose earlier timer is still
running waits for it). Timers without a game are not held back.

After downtime, the timers that fell due while the bot was away fire once each, in due order;
several due timers of the same game, kind and seat (say two bot moves queued before a crash, or
a turn's three reminders) are coalesced into the latest one: due work is done once, not once
per missed tick. Timers without a game are not coalesced: nothing says two of them are about
the same thing.

Several processes on one database: a due timer is first claimed (`store.claim_timers`: leased
to this process's `owner` for `lease` seconds, among the timers of its `shards` only), so each
fires in one process; deleting or retrying it ends the lease, a dead process's leases run out,
and `stop` hands back the leases of what it interrupted.

Time is the injected `clock` (service/clock.py): with a ManualClock the task sleeps until a
test advances it.
"""
import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from typing import Any

from ..bounded import KeyedLocks
from ..store import Shards, Store, StoreUnavailable, Timer
from .clock import cancel_and_wait, sleep
from .faultlog import FaultLog

log = logging.getLogger(__name__)

Handler = Callable[[Timer], Awaitable[None]]


class Scheduler:
    def __init__(
        self, store: Store, handler: Handler | None = None, clock: Callable[[], float] = time.time, *,
        max_attempts: int = 5, retry_delay: float = 30.0, max_retry_delay: float = 3600.0,
        max_sleep: float = 300.0,
        error_pause: float = 5.0, batch: int = 64, concurrency: int = 16,
        owner: str = "scheduler", shards: Shards | None = None, lease: float = 30.0,
    ):
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.store = store
        self._kinds: dict[str, Handler] = {}   # timer kind -> its feature's handler
        self.handler: Handler = handler if handler is not None else self.dispatch
        self.clock = clock
        self.max_attempts = max_attempts
        self.retry_delay = retry_delay  # doubled after each further failure...
        self.max_retry_delay = max_retry_delay  # ...up to this
        self.max_sleep = max_sleep  # look again at least this often (wall-clock jumps, other writers)
        self.error_pause = error_pause
        self.batch = batch              # due timers read at once
        self.concurrency = concurrency  # handlers running or queued at once
        self.owner = owner              # this process's name on the timers it claims
        self.shards = shards            # whose timers it fires (None: every guild's)
        self.lease = lease              # how long a claimed timer is ours
        self.fired = 0                  # timers handled since start (benchmarks)
        self._wake = asyncio.Event()
        self._waiting_for: float | None = None  # due_at the task sleeps for; None while busy
        self._task: asyncio.Task | None = None
        self._firing: dict[int, asyncio.Task] = {}   # timer id -> the task running its handler
        self._games = KeyedLocks()      # game id -> the lock its timers fire under
        self._faults = FaultLog(log, clock, "timer loop")   # a database fault: a line a minute

    def on(self, kind: str, handler: Handler) -> None:
        """`handler` fires the timers of `kind` (a feature registers the kinds it owns). A kind
        has one owner: registering it twice is an error."""
        if kind in self._kinds:
            raise ValueError(f"timer kind {kind!r} already has a handler")
        self._kinds[kind] = handler

    async def dispatch(self, timer: Timer) -> None:
        """Fire `timer` by its kind's handler; a kind nobody registered is logged and ignored."""
        handler = self._kinds.get(timer.kind)
        if handler is None:
            log.info("ignoring timer %s of kind %s", timer.id, timer.kind)
            return
        await handler(timer)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def busy(self) -> bool:
        """Whether the scheduler has something in hand: a handler running, a wake it has not
        looked at, or a timer due by now (False while it sleeps for a later timer, or when
        stopped). Read at one moment: the test harness waits on it, and a health check could."""
        if not self.running:
            return False
        if self._firing or self._wake.is_set() or self._waiting_for is None:
            return True
        return self.clock() >= self._waiting_for

    async def start(self) -> None:
        """Start the task; it first coalesces what fell due while the bot was down."""
        if self.running:
            return
        self._task = asyncio.create_task(self._run(), name="ttr-timers")

    async def stop(self) -> None:
        """Stop the task and the handlers it started. A handler interrupted here has not deleted
        its timer: it fires again."""
        task, self._task = self._task, None
        if task is not None:
            await cancel_and_wait(task)
        for t in list(self._firing.values()):
            await cancel_and_wait(t)
        with suppress(Exception):   # what it interrupted may be claimed again at once
            await self.store.release_timers(self.owner)

    async def schedule(
        self, kind: str, due_at: float, payload: Mapping[str, Any] | None = None,
        game_id: int | None = None,
    ) -> int:
        timer_id = await self.store.add_timer(kind, due_at, payload, game_id, now=self.clock())
        self.notify(due_at)
        return timer_id

    def notify(self, due_at: float) -> None:
        """A timer due at `due_at` was written (e.g. in a change's transaction): wake the task if
        it sleeps for a later one."""
        if self._waiting_for is None or due_at < self._waiting_for:
            self._wake.set()

    async def cancel(self, game_id: int, kind: str | None = None) -> int:
        """Delete a game's timers of `kind` (all kinds if None); return how many."""
        return await self.store.delete_timers(game_id, kind)

    async def idle(self) -> None:
        """Until no handler is running (tests, benchmarks)."""
        while self._firing:
            await asyncio.gather(*self._firing.values(), return_exceptions=True)

    # -- the task ------------------------------------------------------------------------------
    async def _run(self) -> None:
        while True:  # coalescing is retried if the database fails at startup
            try:
                await self._coalesce_overdue()
                break
            except Exception as exc:
                self._faults.failed(exc, "could not coalesce overdue timers; retrying")
                await asyncio.sleep(self.error_pause)
        while True:
            try:
                await self._step()
            except Exception as exc:
                self._faults.failed(exc, "timer loop failed; retrying in %ss", self.error_pause)
                self._waiting_for = None
                await asyncio.sleep(self.error_pause)

    async def _step(self) -> None:
        """Start the handlers of due timers while there is room; then sleep until the next
        timer is due, a handler ends, or something sooner is scheduled."""
        self._wake.clear()  # before reading, so a timer added after the read still wakes us
        self._waiting_for = None
        now = self.clock()
        room = self.concurrency - len(self._firing)
        if room > 0:
            due = await self.store.claim_timers(now, self.owner, limit=min(room, self.batch),
                                                lease=self.lease, shards=self.shards)
            self._faults.worked()   # the database answered: said before any handler runs
            for timer in due:                   # earliest first
                if timer.id not in self._firing:    # ours already, its lease ran out meanwhile
                    self._start(timer)
            if len(due) == min(room, self.batch) and len(self._firing) < self.concurrency:
                return                          # there may be more due: claim again
        # a handler's end wakes us (done callback): it makes room
        if len(self._firing) >= self.concurrency:
            self._waiting_for = -math.inf   # nothing scheduled can start before room is made
            delay = self.max_sleep
        else:
            due_at = await self.store.next_claim_at(now, shards=self.shards)
            if due_at is not None and due_at <= self.clock():
                return  # fell due meanwhile (or a lease ran out): look again
            self._waiting_for = math.inf if due_at is None else due_at
            now = self.clock()      # read again: time may have moved while we read the store
            delay = self.max_sleep if due_at is None else min(due_at - now, self.max_sleep)
        self._faults.worked()       # the database answered this step's questions
        await sleep(self.clock, max(delay, 0.0), self._wake)

    def _start(self, timer: Timer) -> None:
        task = asyncio.create_task(self._fire_in_turn(timer), name=f"ttr-timer-{timer.id}")
        self._firing[timer.id] = task

        def done(_):
            self._firing.pop(timer.id, None)
            self._wake.set()
        task.add_done_callback(done)

    async def _fire_in_turn(self, timer: Timer) -> None:
        """One game's timers one at a time, in the order they were claimed (due order): an
        asyncio.Lock wakes its waiters first come, first served."""
        if timer.game_id is None:
            await self._fire(timer)
            return
        async with self._games[timer.game_id]:
            await self._fire(timer)

    async def _coalesce_overdue(self) -> None:
        """Keep only the latest overdue timer of each (game, kind, seat); the loop fires the
        rest."""
        latest: dict[tuple[int, str, Any], Timer] = {}
        superseded = []
        for timer in await self.store.due_timers(self.clock(), shards=self.shards):  # earliest first
            if timer.game_id is None:
                continue
            key = (timer.game_id, timer.kind, timer.payload.get("seat"))
            if key in latest:
                superseded.append(latest[key])
            latest[key] = timer
        for timer in superseded:
            log.info("timer %s (%s, game %s) superseded by a later one missed while down",
                     timer.id, timer.kind, timer.game_id)
            await self.store.delete_timer(timer.id)

    async def _fire(self, timer: Timer) -> None:
        try:
            await self.handler(timer)
        except Exception as exc:
            attempts = timer.attempts + 1
            delay = min(self.retry_delay * 2 ** min(attempts - 1, 32), self.max_retry_delay)
            what = (f"timer {timer.id} ({timer.kind}, game {timer.game_id}, payload "
                    f"{timer.payload!r}) failed (attempt {attempts}")
            if isinstance(exc, StoreUnavailable):   # one line, once a minute: the file, what to do
                self._faults.failed(exc, what)
            elif attempts == 1:
                log.warning("%s); retry in %ss", what, delay, exc_info=True)
            elif attempts == self.max_attempts:
                log.error("%s, its last try); it is kept and tried again every %ss", what,
                          delay, exc_info=True)
            else:
                log.info("%s); retry in %ss", what, delay)
            try:
                await self.store.retry_timer(timer.id, self.clock() + delay)
            except Exception as e:   # the timer stays as it was: it fires again
                self._faults.failed(e, "could not record the failure of timer %s", timer.id)
            return
        finally:
            self.fired += 1
        try:
            await self.store.delete_timer(timer.id)
        except Exception as exc:     # it fires again: handlers are idempotent
            self._faults.failed(exc, "could not delete fired timer %s", timer.id)

    def last_try(self, timer: Timer) -> bool:
        """Whether this firing should take the simplest safe action (its earlier tries
        failed)."""
        return timer.attempts >= self.max_attempts - 1
