"""The delivery worker: sends what the outbox says the bot owes, and marks it sent only after
Discord took it. Nothing owed is lost: a crash before the mark sends it again after the
restart (the row's nonce makes Discord return the first copy of a channel post), a failure is
retried with backoff, and what cannot be delivered is reported, never dropped in silence.

Rows go out in id order per lane (a channel's posts never overtake each other; a player's
DMs neither), lanes in parallel (`lanes` at once). A turn's held parts go out with the row that
ends the turn; consecutive hand updates of one player are folded into one edit.

Errors: 403 50013/50001 on a channel post keeps the post owed (retried every few minutes, up to
an hour apart) and tells the host and the player to move, by DM, which permission is missing;
404 10003 (the channel or thread is gone) closes the game as abandoned (its players are told by
DM) and gives up its channel's posts; 5xx, timeouts and connection errors are retried with
backoff from a second to five minutes; other refusals (a bug: Discord said 400) are retried
`max_attempts` times, then given up with the error logged and kept on the row.

Several processes: each sends the rows of its own shards' games (`owed_messages`); on a shared
database (PostgreSQL) a unit is leased before it is sent (`claim_messages`), so even processes
with overlapping shards never send one row at once, and a dead one's leases run out.
"""
import asyncio
import logging
import math
from contextlib import suppress

import aiohttp
import discord

from ..service.clock import cancel_and_wait, sleep

log = logging.getLogger(__name__)
NEEDED = ("view_channel", "send_messages", "attach_files", "read_message_history")
KEEP_SENT = 7 * 86400.0     # sent rows are kept a week (what was posted, for diagnosis)
LEASE_RETRY = 5.0           # look again this soon at rows another process is sending


class OutboxWorker:
    def __init__(self, bot, delivery, clock, *, batch=500, lanes=8, max_attempts=5,
                 idle_poll=300.0):
        self.bot = bot
        self.delivery = delivery
        self.clock = clock
        self.batch = batch
        self.lanes = lanes
        self.max_attempts = max_attempts
        self.idle_poll = idle_poll     # look again at least this often (another process wrote)
        self.sent = 0
        self._wake = asyncio.Event()
        self._busy = {}                # lane -> task
        self._task = None
        self._idle = asyncio.Event()
        self._resting_until = None     # clock time the loop sleeps until with nothing to send
        self._last_purge = None

    @property
    def service(self):
        return self.bot.service

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
        if self.service is not None:
            with suppress(Exception):   # what it interrupted may be claimed again at once
                await self.service.release_messages()

    async def drain(self, timeout=30.0):
        """Until nothing owed is due (tests, shutdown): True if so within `timeout` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            self._idle.clear()
            self.wake()
            try:
                await asyncio.wait_for(self._idle.wait(), max(0.01, end - loop.time()))
            except TimeoutError:
                break
            if not self._busy and not await self._due_rows():
                return True
        log.warning("outbox not drained after %ss", timeout)
        return False

    async def _due_rows(self):
        now = self.clock()
        return [r for r in await self.service.owed_messages(self.batch)
                if not r.held and r.due_at <= now]

    # ----- the loop ---------------------------------------------------------------------------
    async def _run(self):
        while True:
            try:
                await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox loop failed; looking again in 5 s")
                await asyncio.sleep(5)

    async def _step(self):
        self._wake.clear()
        rows = await self.service.owed_messages(self.batch)
        now = self.clock()
        by_lane = {}
        for row in rows:
            by_lane.setdefault(row.lane, []).append(row)
        soonest = math.inf
        for lane, lane_rows in by_lane.items():
            if lane in self._busy or len(self._busy) >= self.lanes:
                continue
            unit = _next_unit(lane_rows)
            if unit is None:
                continue
            head = unit[0]
            if head.due_at > now:
                soonest = min(soonest, head.due_at)
                continue
            if not await self.service.claim_messages(_unit_ids(*unit)):
                soonest = min(soonest, now + LEASE_RETRY)   # another process sends them
                continue
            self._busy[lane] = asyncio.create_task(self._deliver(lane, *unit),
                                                   name=f"ttr-outbox-{lane}")
        if not self._busy:
            self._idle.set()
            await self._purge(now)
        delay = min(soonest - now, self.idle_poll) if soonest < math.inf else self.idle_poll
        if not self._busy:
            self._resting_until = now + max(0.0, delay)
        try:
            await sleep(self.clock, max(0.0, delay), self._wake)
        finally:
            self._resting_until = None

    async def _purge(self, now):
        if self._last_purge is None or now - self._last_purge > 3600:
            self._last_purge = now
            await self.service.forget_sent(KEEP_SENT)

    async def _deliver(self, lane, head, parts, merged):
        try:
            await self._attempt(head, parts, merged)
        except Exception:
            log.exception("outbox row %s (%s) could not be handled", head.id, head.kind)
        finally:
            self._busy.pop(lane, None)
            self.wake()

    async def _attempt(self, head, parts, merged):
        service = self.service
        ids = _unit_ids(head, parts, merged)
        try:
            await self.delivery.handle(head, parts, merged)
        except discord.Forbidden as exc:
            if head.lane.startswith("c") and exc.code in (50013, 50001):
                missing = self.missing_permissions(int(head.lane[1:]))
                log.warning("cannot post in channel %s (%s): missing %s", head.lane[1:],
                            exc.code, missing)
                if head.game_id is not None:
                    await service.tell_cannot_post(head.game_id, head.id, missing)
                await self._retry(head, min(3600.0, 60.0 * 2 ** head.attempts))
                return
            await self._refused(head, ids, exc)
            return
        except discord.NotFound as exc:
            if head.lane.startswith("c") and exc.code == 10003:
                log.info("channel %s is gone: closing its game", head.lane[1:])
                await service.delivered(ids, error="channel gone")
                await service.channel_gone(int(head.lane[1:]))
                return
            await self._refused(head, ids, exc)
            return
        except (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError,
                asyncio.TimeoutError, OSError) as exc:
            log.info("outbox row %s: %r; retrying", head.id, exc)
            await self._retry(head, min(300.0, 2.0 ** head.attempts))
            return
        except discord.HTTPException as exc:
            await self._refused(head, ids, exc)
            return
        except Exception:
            log.exception("delivering outbox row %s (%s) failed", head.id, head.kind)
            await self._refused(head, ids, None)
            return
        await service.delivered(ids)
        if head.kind == "cancel":       # a turn that will never end: its parts are not owed
            await service.delivered([r.id for r in await service.owed_messages(self.batch)
                                     if r.held and r.game_id == head.game_id], error="cancelled")
        self.sent += len(ids)

    async def _retry(self, head, delay):
        await self.service.retry_later(head.id, self.clock() + delay)

    async def _refused(self, head, ids, exc):
        if head.attempts + 1 >= self.max_attempts:
            log.error("giving up outbox row %s (%s, game %s) after %d attempts: %r", head.id,
                      head.kind, head.game_id, head.attempts + 1, exc)
            await self.service.delivered(ids, error=repr(exc)[:500])
        else:
            log.warning("outbox row %s (%s) refused: %r; retrying", head.id, head.kind, exc)
            await self._retry(head, min(300.0, 5.0 * 2 ** head.attempts))

    def missing_permissions(self, channel_id):
        """The permissions the bot lacks in that channel, as Discord names them (from the
        guild cache the guilds intent keeps); Send Messages when the cache cannot tell."""
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or guild.me is None:
            return ["send_messages"]
        perms = channel.permissions_for(guild.me)
        needed = list(NEEDED)
        if isinstance(channel, discord.Thread):
            needed[1] = "send_messages_in_threads"
        missing = [name for name in needed if not getattr(perms, name)]
        return missing or ["send_messages"]


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
                    r.payload.get("user") != head.payload.get("user") or r.due_at > head.due_at:
                break
            merged.append(r)
        if merged:              # the newest row speaks for the state; the others fold in
            head, merged = merged[-1], [head] + merged[:-1]
    return head, parts, merged
