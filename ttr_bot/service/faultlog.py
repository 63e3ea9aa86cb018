"""How a background loop (the timers, the outbox) logs a failure it will retry.

While the database is down (read-only, full, locked, damaged: the store raises
`StoreUnavailable`) every retry meets the same fault; a traceback each time would bury the one
thing the operator needs, the file and what to do, which is the error's own message. So a
`StoreUnavailable` is logged as one warning line, at most once a `STORE_EVERY` seconds of the
loop's clock while it lasts, and one info line when the loop works again; any other error keeps
its full traceback every time (it is a bug to read).
"""
import logging
from collections.abc import Callable

from ..store import StoreUnavailable

STORE_EVERY = 60.0      # seconds between two lines about the same unavailable database


class FaultLog:
    def __init__(self, log: logging.Logger, clock: Callable[[], float], loop: str):
        self.log = log
        self.clock = clock
        self.loop = loop                # names the loop in its lines ("timer loop", "outbox")
        self._told_at: float | None = None  # when the database's fault was last logged
        self.quiet = 0                  # faults met since then, not logged

    def failed(self, exc: BaseException, what: str, *args: object) -> None:
        """Log `exc`, met while doing `what` (a %-format with `args`), as the rule above says."""
        if not isinstance(exc, StoreUnavailable):
            self.log.error(what, *args, exc_info=(type(exc), exc, exc.__traceback__))
            return
        now = self.clock()
        if self._told_at is not None and now - self._told_at < STORE_EVERY:
            self.quiet += 1
            return
        more = f" ({self.quiet} more since)" if self.quiet else ""
        self.log.warning("%s: %s; retrying%s", self.loop, exc, more)
        self._told_at, self.quiet = now, 0

    def worked(self) -> None:
        """The loop's database call succeeded: a fault logged before is over."""
        if self._told_at is not None:
            self.log.info("%s: the database answers again", self.loop)
            self._told_at, self.quiet = None, 0
