"""How long the outbox waits before trying a row or a destination again: every backoff is a
doubling with a cap, computed so that no attempt count can overflow or raise (the exponent is
capped before the power is taken: `2.0 ** 1024` raises OverflowError, and a row whose retry
raised would be taken again at once), and never shorter than what Discord asked (a 429's
`retry_after`).

The rules (outbox_worker.py applies them):
- transient (a timeout, a 5xx, a connection error, a 429 discord.py could not wait out): 1 s
  doubling, at most MAX_TRANSIENT (5 minutes) apart, and not before `retry_after`; after
  TRANSIENT_TRIES failures in a row (the schedule then spans TRANSIENT_GIVE_UP, a day) the row
  is given up as a refused destination's rows are: its game's players told by DM, the rows
  behind it go on;
- refused by Discord for the row's own sake (a 400): 5 s doubling, given up after
  `max_attempts` (5) tries;
- a refused destination (refusals.py): 1 minute doubling, at most an hour, given up after 3 days.
"""
import asyncio
import contextvars
import math

MAX_TRANSIENT = 300.0        # a row failing transiently is tried again at most 5 minutes apart
TRANSIENT_GIVE_UP = 86400.0  # ... and given up once its retries span a day
MAX_EXPONENT = 30            # 2 ** 30: far past every cap, far below a float's range
REQUEST_ROOM = 5.0           # of a send's bound, what its requests keep (at most a third)

# the event loop's time by which the unit being sent must be done (the outbox worker's bound,
# SEND_TIMEOUT), for the work inside it that can be left out (the final post's film)
send_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "ttr_send_deadline", default=None)


def time_left(room=REQUEST_ROOM):
    """Seconds the optional work of the unit being sent may still take: what is left of its
    bound, less `room` for its requests (at most a third of what is left); None outside a
    send (no bound)."""
    deadline = send_deadline.get()
    if deadline is None:
        return None
    left = deadline - asyncio.get_running_loop().time()
    return max(0.0, left - min(room, left / 3))


def backoff(first, attempts, most):
    """`first` doubling per attempt, at most `most`: the exponent is capped before the power is
    taken, so no attempt count (a row tried a million times) overflows or raises."""
    try:
        n = max(0, min(int(attempts), MAX_EXPONENT))
    except (TypeError, ValueError, OverflowError):
        n = MAX_EXPONENT
    return min(most, first * 2.0 ** n)


def transient_backoff(attempts):
    """Seconds until a row that failed transiently `attempts + 1` times is tried again: 1 s
    doubling, at most MAX_TRANSIENT (5 minutes)."""
    return backoff(1.0, attempts, MAX_TRANSIENT)


def refused_row_backoff(attempts):
    """... after a refusal that is not the destination's (a 400): 5 s doubling, at most 5
    minutes (given up after `max_attempts`)."""
    return backoff(5.0, attempts, MAX_TRANSIENT)


def retry_after(exc):
    """The seconds Discord asked us to wait (a 429's `retry_after`), else 0; at most a day."""
    value = getattr(exc, "retry_after", None)
    if value is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None) or {}
        value = headers.get("Retry-After") if hasattr(headers, "get") else None
    try:
        seconds = float(value) if value is not None else 0.0
    except (TypeError, ValueError):
        return 0.0
    return min(max(seconds, 0.0), 86400.0) if math.isfinite(seconds) else 0.0


def _tries_in_a_day():
    total, attempts = 0.0, 0
    while total < TRANSIENT_GIVE_UP:
        total += transient_backoff(attempts)
        attempts += 1
    return attempts


TRANSIENT_TRIES = _tries_in_a_day()    # 296: 1 + 2 + ... + 256 s, then 5-minute steps
