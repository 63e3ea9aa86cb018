"""What time it is, and waiting for a time: injected everywhere the service, its scheduler and the
adapter's delivery worker look at the clock, so tests move time instead of sleeping.

A clock is any callable returning epoch seconds. One that also has `sleep(seconds, wake)` decides
how waiting works (ManualClock: until a test advances it); plain callables such as `time.time`
wait on the event loop.
"""
import asyncio
from contextlib import suppress


async def sleep(clock, seconds, wake=None):
    """Wait `seconds` of `clock`'s time, or until `wake` (an asyncio.Event) is set."""
    own = getattr(clock, "sleep", None)
    if own is not None:
        await own(seconds, wake)
        return
    if wake is None:
        await asyncio.sleep(max(0.0, seconds))
        return
    with suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), max(0.0, seconds))


class ManualClock:
    """A clock that moves only when told (`advance`); sleepers on it wake when it passes their
    time. For tests and benchmarks that simulate days in seconds."""

    def __init__(self, start=1_700_000_000.0):
        self.t = float(start)
        self._moved = asyncio.Event()

    def __call__(self):
        return self.t

    def advance(self, seconds):
        self.set(self.t + seconds)

    def set(self, t):
        self.t = max(self.t, float(t))
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def sleep(self, seconds, wake=None):
        target = self.t + seconds
        while self.t < target:
            if wake is not None and wake.is_set():
                return
            waits = [asyncio.ensure_future(self._moved.wait())]
            if wake is not None:
                waits.append(asyncio.ensure_future(wake.wait()))
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()


async def cancel_and_wait(task):
    """Cancel `task` and wait until it has ended. Asked again while it runs on: on Python 3.11
    `asyncio.wait_for` swallows a cancellation that comes as the awaited event is set (the
    sleep above), and a loop task that swallowed it would run on and be awaited forever."""
    while not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=1.0)
    with suppress(asyncio.CancelledError, Exception):
        task.result()
