"""The scheduler: durable timers that survive restarts. Today one kind exists, "bot_move" (a
computer player moves after a short pause); the store keeps the timer rows.

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
several due timers of the same game and kind (say two bot moves queued before a crash) are
coalesced into the latest one. Timers without a game are not coalesced: nothing says two of
them are about the same thing.
"""
import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from typing import Any

from ..store import Store, Timer

log = logging.getLogger(__name__)

Handler = Callable[[Timer], Awaitable[None]]


class Scheduler:
    def __init__(
        self, store: Store, handler: Handler, clock: Callable[[], float] = time.time, *,
        max_attempts: int = 5, retry_delay: float = 30.0, max_sleep: float = 300.0,
        error_pause: float = 5.0,
    ):
        self.store = store
        self.handler = handler
        self.clock = clock
        self.max_attempts = max_attempts
        self.retry_delay = retry_delay  # doubled after each further failure
        self.max_sleep = max_sleep  # look again at least this often (wall-clock jumps, other writers)
        self.error_pause = error_pause
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

    async def schedule(
        self, kind: str, due_at: float, payload: Mapping[str, Any] | None = None,
        game_id: int | None = None,
    ) -> int:
        timer_id = await self.store.add_timer(kind, due_at, payload, game_id, now=self.clock())
        if self._waiting_for is None or due_at < self._waiting_for:
            self._wake.set()
        return timer_id

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
        """Fire the soonest timer if due, else sleep until it is due or something sooner comes."""
        self._wake.clear()  # before reading, so a timer added after the read still wakes us
        self._waiting_for = None
        timer = await self.store.next_due()
        now = self.clock()
        if timer is not None and timer.due_at <= now:
            await self._fire(timer)
            return
        self._waiting_for = math.inf if timer is None else timer.due_at
        delay = self.max_sleep if timer is None else min(timer.due_at - now, self.max_sleep)
        with suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), delay)

    async def _coalesce_overdue(self) -> None:
        """Keep only the latest overdue timer of each (game, kind); the loop fires the rest."""
        latest: dict[tuple[int, str], Timer] = {}
        superseded = []
        for timer in await self.store.due_timers(self.clock()):  # earliest first
            if timer.game_id is None:
                continue
            key = (timer.game_id, timer.kind)
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
        await self.store.delete_timer(timer.id)
