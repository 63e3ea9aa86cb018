"""The delivery worker: sends what the outbox says the bot owes, and marks it sent only after
Discord took it. Nothing owed is lost: a crash before the mark sends it again after the
restart (the row's nonce makes Discord return the first copy of a channel post), a failure is
retried with backoff, and what cannot be delivered is reported, never dropped in silence.

Rows go out in id order per lane (a channel's posts never overtake each other; a player's
DMs neither), lanes in parallel (`lanes` at once). A turn's held parts go out with the row that
ends the turn; consecutive hand updates of one player are folded into one edit.

One destination never delays another: the worker reads the first rows of each destination
(`deliverable`), not the oldest rows overall, so a channel owing thousands of posts hides no
other channel's. Errors: 403 on a channel or thread (Missing Permissions or Access, an archived
or locked thread) blocks that destination alone, retried with backoff, given up after three
days, caught up in one post when it works again (refusals.py states every rule); 404 10003
(the channel or thread is gone) closes the game as abandoned (its players are told by DM) and
gives up its channel's posts; 5xx, timeouts, connection errors and rate limits (a 429
discord.py did not wait out) are retried with backoff from a second to five minutes, never
before Discord's `retry_after` (a unit Discord has not answered in SEND_TIMEOUT is a timeout:
no send waits on a silent connection for aiohttp's five minutes, none outlives its lease), and
given up after a day of them, its game's players told (retries.py states the rules); other
refusals (a bug: Discord said 400) are retried `max_attempts` times, then given up with the
error logged and kept on the row. Nothing that fails while a retry is scheduled leaves a row
to be taken again at once: it is held back in memory (`_held`) until its retry time. While the
database cannot be read or written (`StoreUnavailable`) the loop logs one warning line naming
the file and what to do, at most once a minute (service/faultlog.py), no traceback. A row this version cannot read (service/messages.py's
`Unreadable`: an unknown kind, a payload lacking what its kind needs) is given up at once,
logged, and the rows behind it go on.

Housekeeping (hourly, busy or not): rows sent or given up more than KEEP_SENT (7 days) ago are
deleted, with closed votes after KEEP_VOTES (30 days): the tables stay as large as a week's
traffic, whatever runs for months.

Several processes: each sends the rows of its own shards' games (`deliverable`); on a shared
database (PostgreSQL) a unit is leased before it is sent (`claim_messages`), so even processes
with overlapping shards never send one row at once, and a dead one's leases run out.
"""
import asyncio
import logging
import math
from contextlib import suppress

import aiohttp
import discord

from ...service import MESSAGE_LEASE, Lane, OwedMessage, StoreUnavailable, Unreadable
from ...service.clock import cancel_and_wait, sleep
from ...service.faultlog import FaultLog
from .refusals import REFUSED, Refusals
from .retries import (
    TRANSIENT_TRIES,
    refused_row_backoff,
    retry_after,
    send_deadline,
    transient_backoff,
)

log = logging.getLogger(__name__)
KEEP_SENT = 7 * 86400.0     # sent rows are kept a week (what was posted, for diagnosis)
KEEP_VOTES = 30 * 86400.0   # closed votes a month
PURGE_EVERY = 3600.0        # housekeeping: how often they are looked at
LEASE_RETRY = 5.0           # look again this soon at rows another process is sending
SEND_TIMEOUT = 15.0         # a unit's work (its picture, its requests), below MESSAGE_LEASE
HOLD_ON_ERROR = 60.0        # a row whose handling failed unexpectedly rests this long (memory)


class OutboxWorker(Refusals):
    def __init__(self, bot, delivery, clock, *, batch=200, per_lane=20, lanes=8,
                 max_attempts=5, idle_poll=300.0, send_timeout=SEND_TIMEOUT,
                 lease=MESSAGE_LEASE):
        if not 0 < send_timeout < lease:
            raise ValueError("a unit's send must end before its lease runs out")
        self.bot = bot
        self.delivery = delivery
        self.clock = clock
        self.batch = batch          # destinations read at once
        self.per_lane = per_lane    # rows read of each
        self.lanes = lanes
        self.max_attempts = max_attempts
        self.idle_poll = idle_poll     # look again at least this often (another process wrote)
        self.send_timeout = send_timeout   # real seconds a unit's requests may take, all told
        self.lease = lease          # seconds other processes keep off a unit this one claimed
        self.sent = 0
        self._wake = asyncio.Event()
        self._busy = {}                # lane -> task
        self._task = None
        self._idle = asyncio.Event()
        self._resting_until = None     # clock time the loop sleeps until with nothing to send
        self._last_purge = None
        self._blocks = {}              # Lane -> DestinationBlock, as last read
        self._held = {}                # row id -> clock time it may be taken again (memory)
        self._faults = FaultLog(log, clock, "outbox")  # a database fault: a line a minute
        self.error_pause = 5.0         # real seconds the loop rests after its step failed

    def wake(self):
        self._wake.set()

    @property
    def running(self):
        return self._task is not None and not self._task.done()

    @property
    def busy(self):
        """Whether the worker has something in hand: a lane sending, a wake it has not looked
        at, or a row due by now (False while it sleeps with nothing due, or when stopped).
        Read at one moment: the test harness waits on it, and a health check could."""
        if not self.running:
            return False
        if self._busy or self._wake.is_set() or self._resting_until is None:
            return True
        return self.clock() >= self._resting_until

    def start(self):
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="ttr-outbox")

    async def stop(self):
        task, self._task = self._task, None
        if task is not None:
            await cancel_and_wait(task)
        for lane_task in list(self._busy.values()):
            await cancel_and_wait(lane_task)
        self._busy.clear()
        service = self._service_if_open()
        if service is not None:
            with suppress(Exception):   # what it interrupted may be claimed again at once
                await service.queue.release_messages()

    async def drain(self, timeout=30.0, stall=None):
        """Until nothing owed is due (tests, shutdown): True if so within `timeout` seconds.
        With `stall`, it also gives up when nothing was sent for that long (a backlog that is
        going out may take its time; one that does not move is a fault)."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        end = began + timeout
        sent, moved = self.sent, began
        while loop.time() < end:
            self._idle.clear()
            self.wake()
            limit = end if stall is None else min(end, moved + stall)
            try:
                await asyncio.wait_for(self._idle.wait(), max(0.01, limit - loop.time()))
            except TimeoutError:
                if self.sent == sent:
                    break
            if not self._busy and not await self._due_rows():
                return True
            if self.sent != sent:
                sent, moved = self.sent, loop.time()
        log.warning("outbox not drained after %.0fs (%d sent)", loop.time() - began, self.sent)
        return False

    async def _due_rows(self):
        """The rows the worker would send now: each destination's next one, if it is due (a
        row due behind one waiting for its retry waits too)."""
        now = self.clock()
        by_lane: dict[Lane, list[OwedMessage]] = {}
        for row in await self.service.queue.deliverable(self.batch, self.per_lane):
            by_lane.setdefault(row.lane, []).append(row)
        units = (_next_unit(rows) for rows in by_lane.values())
        return [unit[0] for unit in units
                if unit is not None and self._due_at(unit[0]) <= now]

    def _due_at(self, row):
        """When `row` may be taken: its due time, or later if this process holds it back (its
        retry could not be written, or its handling failed: it never goes round at once)."""
        return max(row.due_at, self._held.get(row.id, row.due_at))

    def _hold(self, row, seconds):
        self._held[row.id] = max(self._held.get(row.id, 0.0), self.clock() + seconds)

    # ----- the loop ---------------------------------------------------------------------------
    async def _run(self):
        with suppress(Exception):   # a permission given back while the bot was away
            await self.permissions_changed(None)
        while True:
            try:
                await self._step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._faults.failed(exc, "the outbox loop failed; looking again in %s s",
                                    self.error_pause)
                await asyncio.sleep(self.error_pause)

    async def _step(self):
        self._wake.clear()
        self._blocks = {b.lane: b for b in await self.service.queue.destination_blocks()}
        rows = await self.service.queue.deliverable(self.batch, self.per_lane)
        now = self.clock()
        by_lane: dict[Lane, list[OwedMessage]] = {}
        for row in rows:
            by_lane.setdefault(row.lane, []).append(row)
        # a refused destination's rows are not read before its retry time: wake for that
        soonest = min((b.retry_at for b in self._blocks.values() if b.retry_at > now),
                      default=math.inf)
        for lane, lane_rows in by_lane.items():
            if lane in self._busy or len(self._busy) >= self.lanes:
                continue
            unit = _next_unit(lane_rows)
            if unit is None:
                continue
            head = unit[0]
            if self._due_at(head) > now:
                soonest = min(soonest, self._due_at(head))
                continue
            if lane in self._blocks:    # refused before, due again: maybe one catch-up post
                self._busy[lane] = asyncio.create_task(self._deliver_refused(lane, unit),
                                                       name=f"ttr-outbox-{lane}")
                continue
            if not await self.service.queue.claim_messages(_unit_ids(*unit), self.lease):
                soonest = min(soonest, now + LEASE_RETRY)   # another process sends them
                continue
            self._busy[lane] = asyncio.create_task(self._deliver(lane, *unit),
                                                   name=f"ttr-outbox-{lane}")
        if not self._busy:
            self._idle.set()
        self._held = {k: v for k, v in self._held.items() if v > now}
        await self._purge(now)      # on its hourly schedule, however busy the lanes are
        delay = min(soonest - now, self.idle_poll) if soonest < math.inf else self.idle_poll
        if not self._busy:
            self._resting_until = now + max(0.0, delay)
        self._faults.worked()       # the database answered this step's questions
        try:
            await sleep(self.clock, max(0.0, delay), self._wake)
        finally:
            self._resting_until = None

    async def _deliver_refused(self, lane, unit):
        tried = True
        try:
            caught = await self._catch_up(lane) if lane.is_channel else False
            if caught is not False:
                tried = caught is not None
                return
            tried = await self.service.queue.claim_messages(_unit_ids(*unit), self.lease)
            if tried:
                await self._attempt(*unit)
        except Exception as exc:
            self._faults.failed(exc, "outbox destination %s could not be handled", lane)
            self._hold(unit[0], HOLD_ON_ERROR)
        finally:
            self._busy.pop(lane, None)
            if tried:   # else another process is sending it: looked at again in a while
                self.wake()

    async def _purge(self, now):
        """Housekeeping, hourly: rows sent or given up more than KEEP_SENT ago, closed votes
        after KEEP_VOTES. A failure is tried again an hour later; it never stops delivery."""
        if self._last_purge is None or now - self._last_purge >= PURGE_EVERY:
            self._last_purge = now
            try:
                await self.service.queue.forget_sent(KEEP_SENT, KEEP_VOTES)
            except Exception as exc:
                self._faults.failed(exc, "outbox housekeeping failed; trying again in an hour")

    async def _deliver(self, lane, head, parts, merged):
        try:
            await self._attempt(head, parts, merged)
        except Exception as exc:    # not even its retry could be written: it rests a while
            self._faults.failed(exc, "outbox row %s (%s) could not be handled", head.id,
                                head.kind)
            self._hold(head, HOLD_ON_ERROR)
        finally:
            self._busy.pop(lane, None)
            self.wake()

    async def _attempt(self, head, parts, merged):
        """Send one unit; True if Discord took it (and it is marked sent)."""
        service = self.service
        ids = _unit_ids(head, parts, merged)
        if isinstance(head.message, Unreadable):    # trying again cannot help
            log.error("giving up outbox row %s (%s, game %s): this version cannot read it (%s)",
                      head.id, head.kind, head.game_id, head.message.error)
            await service.queue.delivered(ids, error=f"unreadable: {head.message.error}"[:500])
            return False
        bound = send_deadline.set(asyncio.get_running_loop().time() + self.send_timeout)
        try:
            posted = await asyncio.wait_for(self.delivery.handle(head, parts, merged),
                                            self.send_timeout)
        except discord.Forbidden as exc:
            if head.lane.is_channel and exc.code in REFUSED:
                await self._refused_destination(head, exc)
                return False
            await self._refused(head, ids, exc)
            return False
        except discord.NotFound as exc:
            if head.lane.is_channel and exc.code == 10003:
                log.info("channel %s is gone: closing its game", head.lane.channel_id)
                await service.absence.channel_gone(head.lane.channel_id)  # gives up what it owes
                await service.queue.delivered(ids, error="channel gone")
                return False
            await self._refused(head, ids, exc)
            return False
        except (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError,
                asyncio.TimeoutError, OSError) as exc:
            await self._transient(head, ids, exc)
            return False
        except discord.HTTPException as exc:
            if exc.status == 429:   # discord.py's own five tries were all rate limited
                await self._transient(head, ids, exc)
                return False
            if head.lane.is_channel and exc.code in REFUSED:   # archived, locked: 400
                await self._refused_destination(head, exc)
                return False
            await self._refused(head, ids, exc)
            return False
        except StoreUnavailable:    # the database's fault, not the row's: it rests a while
            raise
        except Exception:
            log.exception("delivering outbox row %s (%s) failed", head.id, head.kind)
            await self._refused(head, ids, None)
            return False
        finally:
            send_deadline.reset(bound)
        await service.queue.delivered(ids)
        if head.lane in self._blocks and posted:    # a row with nothing to post proves nothing
            await self._unblocked(head.lane)
        if head.kind == "cancel":       # a turn that will never end: its parts are not owed
            await service.queue.delivered([r.id for r in await service.queue.owed_in_lane(head.lane)
                                           if r.held and r.game_id == head.game_id], error="cancelled")
        self.sent += len(ids)
        return True

    async def _retry(self, head, delay):
        """The row is tried again in `delay` seconds. Should even that fail to be written (the
        database), the row is held back in memory for as long: it is never taken again at once."""
        due = self.clock() + delay
        self._held[head.id] = due
        await self.service.queue.retry_later(head.id, due)

    async def _transient(self, head, ids, exc):
        """A timeout, a 5xx, a connection error, a rate limit: tried again after a backoff
        (and never before Discord's `retry_after`), given up after TRANSIENT_TRIES in a row."""
        if head.attempts + 1 >= TRANSIENT_TRIES:
            log.error("giving up outbox row %s (%s, game %s): failing for a day (%d tries): %r",
                      head.id, head.kind, head.game_id, head.attempts + 1, exc)
            await self.service.queue.give_up_failing(head, ids, f"failing for a day: {exc!r}"[:500])
            return
        delay = max(transient_backoff(head.attempts), retry_after(exc))
        log.info("outbox row %s: %r; retrying in %.0f s", head.id, exc, delay)
        await self._retry(head, delay)

    async def _refused(self, head, ids, exc):
        if head.attempts + 1 >= self.max_attempts:
            log.error("giving up outbox row %s (%s, game %s) after %d attempts: %r", head.id,
                      head.kind, head.game_id, head.attempts + 1, exc)
            await self.service.queue.delivered(ids, error=repr(exc)[:500])
        else:
            log.warning("outbox row %s (%s) refused: %r; retrying", head.id, head.kind, exc)
            await self._retry(head, refused_row_backoff(head.attempts))


def _unit_ids(head, parts, merged):
    return [r.id for r in (*parts, *merged, head)]


def _next_unit(rows):
    """(head, held parts, merged rows) of the first deliverable row of a lane, or None."""
    live = [r for r in rows if not r.held]
    if not live:
        return None
    head = live[0]
    parts = [r for r in rows if r.held and r.game_id == head.game_id and r.id < head.id] \
        if head.kind == "turn" else []
    merged = []
    if head.kind == "hand":
        for r in live[1:]:
            if r.kind != "hand" or r.game_id != head.game_id or \
                    r.message.user != head.message.user or r.due_at > head.due_at:
                break
            merged.append(r)
        if merged:              # the newest row speaks for the state; the others fold in
            head, merged = merged[-1], [head] + merged[:-1]
    return head, parts, merged
