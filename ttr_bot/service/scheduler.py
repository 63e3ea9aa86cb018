"""The scheduler: durable timers that survive restarts (a computer player's move, a turn's
deadline and reminders, housekeeping: the kinds are the service's, see turns.py); the store
keeps the timer rows, often written in the transaction of the change that needs them
(`notify` then wakes the task).

RoboDanny's pattern: timers live in the database, and one asyncio task sleeps until the
soonest one is due, fires it, and looks again. `schedule` wakes the task early through an
asyncio.Event when the new timer is sooner than the one it sleeps for.

Delivery is at least once: the row is deleted only after `handler(timer)` returns, so a crash
or restart in between fires it again. Handlers must therefore be idempotent (e.g. a turn
move carries the game's seq in its payload and is ignored if the game has moved on). A
handler that raises is logged and retried later with backoff, at most `max_attempts` times in
all (counted in the database, so across restarts too); then the timer is dropped with an
error in the log, never silently.

After downtime, the timers that fell due while the bot was away fire once each, in due order;
several due timers of the same game, kind and seat (say two bot moves queued before a crash, or
a turn's three reminders) are coalesced into the latest one: due work is done once, not once
per missed tick. Timers without a game are not coalesced: nothing says two of them are about
the same thing. Due timers are fired in batches, several games at once (`concurrency`), each
game's in due order.

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

from ..store import Shards, Store, Timer
from .clock import sleep

log = logging.getLogger(__name__)

Handler = Callable[[Timer], Awaitable[None]]


class Scheduler:
    def __init__(
        self, store: Store, handler: Handler, clock: Callable[[], float] = time.time, *,
        max_attempts: int = 5, retry_delay: float = 30.0, max_sleep: float = 300.0,
        error_pause: float = 5.0, batch: int = 64, concurrency: int = 8,
        owner: str = "scheduler", shards: Shards | None = None, lease: float = 30.0,
    ):
        self.store = store
        self.handler = handler
        self.clock = clock
        self.max_attempts = max_attempts
        self.retry_delay = retry_delay  # doubled after each further failure
        self.max_sleep = max_sleep  # look again at least this often (wall-clock jumps, other writers)
        self.error_pause = error_pause
        self.batch = batch              # due timers read at once
        self.concurrency = concurrency  # games whose timers fire at once
        self.owner = owner              # this process's name on the timers it claims
        self.shards = shards            # whose timers it fires (None: every guild's)
        self.lease = lease              # how long a claimed timer is ours
        self.fired = 0                  # timers handled since start (benchmarks)
        self._wake = asyncio.Event()
        self._waiting_for: float | None = None  # due_at the task sleeps for; None while busy
        self._task: asyncio.Task | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        """Start the task; it first coalesces what fell due while the bot was down."""
        if self.running:
            return
        self._task = asyncio.create_task(self._run(), name="ttr-timers")

    async def stop(self) -> None:
        """Stop the task. A handler interrupted here has not deleted its timer: it fires again."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
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

    # -- the task ------------------------------------------------------------------------------
    async def _run(self) -> None:
        while True:  # coalescing is retried if the database fails at startup
            try:
                await self._coalesce_overdue()
                break
            except Exception:
                log.exception("could not coalesce overdue timers; retrying")
                await asyncio.sleep(self.error_pause)
        while True:
            try:
                await self._step()
            except Exception:
                log.exception("timer loop failed; retrying in %ss", self.error_pause)
                self._waiting_for = None
                await asyncio.sleep(self.error_pause)

    async def _step(self) -> None:
        """Fire the due timers if any, else sleep until the soonest is due or something sooner
        comes."""
        self._wake.clear()  # before reading, so a timer added after the read still wakes us
        self._waiting_for = None
        now = self.clock()
        due = await self.store.claim_timers(now, self.owner, limit=self.batch, lease=self.lease,
                                            shards=self.shards)
        if due:
            await self._fire_batch(due)
            return
        due_at = await self.store.next_claim_at(now, shards=self.shards)
        if due_at is not None and due_at <= self.clock():
            return  # fell due meanwhile: look again
        self._waiting_for = math.inf if due_at is None else due_at
        now = self.clock()
        delay = self.max_sleep if due_at is None else min(due_at - now, self.max_sleep)
        await sleep(self.clock, delay, self._wake)

    async def _fire_batch(self, due: list[Timer]) -> None:
        """Fire due timers, `concurrency` games at once; one game's timers one after another,
        in due order (the service's per-game lock would serialise them anyway)."""
        by_game: dict[Any, list[Timer]] = {}
        for timer in due:
            key = timer.game_id if timer.game_id is not None else ("timer", timer.id)
            by_game.setdefault(key, []).append(timer)
        gate = asyncio.Semaphore(self.concurrency)

        async def run(timers: list[Timer]) -> None:
            async with gate:
                for timer in timers:
                    await self._fire(timer)
        await asyncio.gather(*(run(ts) for ts in by_game.values()))

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
        except Exception:
            attempts = timer.attempts + 1
            if attempts >= self.max_attempts:
                log.exception("timer %s (%s, game %s, payload %r) failed %d times; dropping it",
                              timer.id, timer.kind, timer.game_id, timer.payload, attempts)
                await self.store.delete_timer(timer.id)
            else:
                delay = self.retry_delay * 2 ** (attempts - 1)
                log.exception("timer %s (%s, game %s) failed (attempt %d of %d); retry in %ss",
                              timer.id, timer.kind, timer.game_id, attempts, self.max_attempts,
                              delay)
                await self.store.retry_timer(timer.id, self.clock() + delay)
            return
        finally:
            self.fired += 1
        await self.store.delete_timer(timer.id)
