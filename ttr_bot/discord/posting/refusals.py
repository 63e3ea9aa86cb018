"""Destinations Discord refuses, and what the outbox worker does about them (mixed into
OutboxWorker). A destination is an outbox lane: a game's channel or thread, or a player's DMs.

The rules:
- Refused (403 50013 Missing Permissions, 50001 Missing Access; 400 50083 archived thread,
  160005 locked thread) -> the destination is blocked on its own (`outbox_lanes`): none of its rows is
  tried before its retry time, every other destination goes on. Retries back off: 1 minute,
  doubling, at most an hour apart (`refused_backoff`).
- The first refusal of a block tells the host and the player to move by DM (closed DMs are
  skipped) which permission is missing, or that the game's thread is locked.
- A block ends when Discord takes a post there, and only then: a row with nothing left to
  post (a reminder after the move, a game gone) is marked sent and the next one tried, but the
  refusal goes on from its first day (Delivery.handle counts the posts it made).
- A gateway event that can give a permission back (a channel's or a role's update, the bot's own
  member update, a thread's update, a server available again: the guilds intent brings them
  all) retries at once every blocked destination of that server the bot's cache now says it may
  post in; so does the worker's start (a permission given back while the bot was away).
- A thread Discord archived (a week without a message) takes the post: Discord unarchives a
  thread for a post of anyone who may send messages there ("unless the thread has been locked
  by a moderator"), so the bot simply posts. A locked one (400 50083 while archived, 160005
  while not) is reported to the host and waits for a moderator to unlock it: unlocking is a
  THREAD_UPDATE, which retries it at once.
- Refused for GIVE_UP_AFTER (3 days) -> given up: the game there is closed, not paused (end
  reason 'no_access'; its record, results and ratings kept), and the rows it owes are marked
  given up. A friends' game nobody can follow for three days is over (Board Game Arena,
  likewise, ends a table its players cannot reach), and no setting pauses a whole game. Its
  players (the host among them) are told privately, by DM, with how to play again: the
  permission given back, then /ttr new. A player whose DMs are closed is not told: outside the
  channel the bot cannot post in, a DM is its only way to reach them. Removal from the server
  closes its games the same way ('removed'; the DM says a server admin can add the bot back):
  on GUILD_DELETE, or, if that happened while the bot was away, on the first 50001 Missing
  Access from a server the bot's guild cache does not have. A game that ended there meanwhile
  (a vote, its last player leaving, its last move) and whose closing or final post is among the
  rows given up has its players told by DM that it ended where the bot could not say so; so
  has one whose channel was deleted first (service.absence.channel_gone).
- When a block ends after a channel missed more than CATCH_UP_AFTER (one) turn post of a game,
  the channel gets one catch-up post instead (the latest turn post, which shows the board as it is,
  with a line saying how many moves it missed); the missed turn posts, reminders and notices are
  marked given up ("caught up"). Posts with buttons that still matter (votes) and the closing
  posts go out as usual.
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from ...service import DestinationBlock, GameService, Lane
from ..errors import ServiceNotOpen
from .retries import backoff

if TYPE_CHECKING:
    from ..bot import TTRBot

log = logging.getLogger(__name__)
REFUSED = (50013, 50001, 50083, 160005)   # Missing Permissions / Access, archived / locked thread
ARCHIVED, LOCKED, MISSING_ACCESS = 50083, 160005, 50001
FIRST_RETRY, MAX_RETRY = 60.0, 3600.0
GIVE_UP_AFTER = 3 * 86400.0
CATCH_UP_AFTER = 1          # turn posts of one game missed: more, and they become one post
SKIPPED_ON_CATCH_UP = ("turn", "reminder", "notice", "handover", "start")
NEEDED = ("view_channel", "send_messages", "attach_files", "read_message_history")


def refused_backoff(attempts):
    """Seconds until the next try of a destination refused `attempts` times in a row."""
    return backoff(FIRST_RETRY, attempts - 1, MAX_RETRY)


def catch_up_plan(rows):
    """[(the turn row to post as the catch-up, its held parts, rows skipped, moves missed)] of
    one destination's owed rows, per game that missed more than CATCH_UP_AFTER turn posts."""
    plans = []
    for game_id in dict.fromkeys(r.game_id for r in rows):
        mine = [r for r in rows if r.game_id == game_id]
        ends = [r for r in mine if r.kind == "turn" and not r.held]
        if game_id is None or len(ends) <= CATCH_UP_AFTER:
            continue
        last = ends[-1]
        before = ends[-2].id if len(ends) > 1 else -1
        parts = [r for r in mine if r.held and before < r.id < last.id]
        skipped = [r for r in mine if r.id < last.id and r not in parts and
                   r.kind in SKIPPED_ON_CATCH_UP]
        moves = sum(1 for r in mine if r.kind == "turn" and r.id <= last.id)
        plans.append((last, parts, skipped, moves))
    return plans


class Refusals:
    """OutboxWorker's handling of refused destinations (self: the worker)."""

    # what it uses of the worker, which sets them (outbox_worker.py)
    bot: TTRBot
    clock: Callable[[], float]
    _blocks: dict[Lane, DestinationBlock]      # as the worker's step last read them
    wake: Callable[[], None]
    _attempt: Callable[..., Awaitable[bool]]   # (head, parts, merged): True if Discord took it

    @property
    def service(self) -> GameService:
        return self.bot.service

    def _service_if_open(self) -> GameService | None:
        """The bot's service; None before its setup_hook opened it (a sync_only bot never
        does): what the lifecycle checks read."""
        try:
            return self.bot.service
        except ServiceNotOpen:
            return None

    async def _refused_destination(self, head, exc):
        lane, service = head.lane, self.service
        channel_id = lane.channel_id
        hosted = await service.load(head.game_id) if head.game_id is not None else None
        guild_id = hosted.guild_id if hosted is not None else None
        if exc.code == MISSING_ACCESS and guild_id is not None and self.bot.is_ready() and \
                self.bot.get_guild(guild_id) is None:
            # not in the server at all: removed while the bot was away (no GUILD_DELETE came)
            log.info("not in server %s any more: closing its games", guild_id)
            await service.queue.guild_gone(guild_id)
            return
        previous = self._blocks.get(lane)
        block = await service.queue.destination_refused(
            lane, refused_backoff((previous.attempts if previous else 0) + 1), code=exc.code,
            guild_id=guild_id)
        self._blocks[lane] = block
        locked = exc.code in (ARCHIVED, LOCKED)
        missing = [] if locked else self.missing_permissions(channel_id)
        if block.attempts == 1:
            log.warning("cannot post in channel %s (%s): %s", channel_id, exc.code,
                        "the thread is locked" if locked else f"missing {missing}")
            if head.game_id is not None:
                await service.queue.tell_cannot_post(
                    head.game_id, block.refused_since, missing,
                    key="bot.thread.locked_dm" if locked else "bot.perm.dm")
        if self.clock() - block.refused_since >= GIVE_UP_AFTER:
            log.warning("channel %s refused since %.0f: giving up its game", channel_id,
                        block.refused_since)
            await service.queue.give_up_destination(lane, "no_access")
            self._blocks.pop(lane, None)

    async def _catch_up(self, lane):
        """The first post after a refusal, for a channel that missed many: one catch-up post
        per game instead of each missed one. False if there is nothing to catch up (the rows
        then go out one by one), None if another process holds them."""
        plans = catch_up_plan(await self.service.queue.owed_in_lane(lane))
        if not plans:
            return False
        if any(last.due_at > self.clock() for last, *_ in plans):
            return False                # its post failed a moment ago: the head goes first
        for last, parts, skipped, moves in plans:
            if not await self.service.queue.claim_messages([r.id for r in (*parts, *skipped, last)]):
                return None             # another process is at it
            card = replace(last, message=replace(last.message, caught_up=moves))
            if not await self._attempt(card, parts, ()):
                return True             # still refused (or failed): retried as the rules say
            await self.service.queue.delivered([r.id for r in skipped], error="caught up")
            log.info("%s caught up: one post for %d moves", lane, moves)
        return True

    async def _unblocked(self, lane):
        if self._blocks.pop(lane, None) is not None and \
                await self.service.queue.destination_works(lane) is not None:
            log.info("posting in %s works again", lane)

    def missing_permissions(self, channel_id):
        """The permissions the bot lacks in that channel, as Discord names them (from the
        guild cache the guilds intent keeps); Send Messages when the cache cannot tell."""
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        # a private channel (a DM) has no server, like an uncached one: the cache cannot tell
        if channel is None or isinstance(channel, discord.abc.PrivateChannel) or guild is None \
                or guild.me is None:
            return ["send_messages"]
        perms = channel.permissions_for(guild.me)
        needed = list(NEEDED)
        if isinstance(channel, discord.Thread):
            needed[1] = "send_messages_in_threads"
        missing = [name for name in needed if not getattr(perms, name)]
        return missing or ["send_messages"]

    def may_post(self, channel_id):
        """Whether the cache says the bot may post there now (True when it cannot tell)."""
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        # a private channel (a DM) has no server, like an uncached one: the cache cannot tell
        if channel is None or isinstance(channel, discord.abc.PrivateChannel) or guild is None \
                or guild.me is None:
            return True
        perms = channel.permissions_for(guild.me)
        if isinstance(channel, discord.Thread):
            if channel.locked and not perms.manage_threads:
                return False
            return perms.view_channel and perms.send_messages_in_threads
        return perms.view_channel and perms.send_messages

    async def permissions_changed(self, guild_id):
        """A gateway event may have given a permission back in that server (None: in any,
        as at start-up): its blocked destinations the bot may now post in are tried at once."""
        service = self._service_if_open()
        if service is None:
            return 0
        # the blocks as the worker last read them (each step): no query per gateway event
        blocks = (await service.queue.destination_blocks() if guild_id is None
                  else list(self._blocks.values()))
        lanes = [b.lane for b in blocks
                 if guild_id in (None, b.guild_id) and b.lane.is_channel
                 and b.retry_at > self.clock() and self.may_post(b.lane.channel_id)]
        if not lanes:
            return 0
        log.info("permissions changed in server %s: trying %s again now", guild_id, lanes)
        count = await service.queue.retry_destinations(lanes)
        self.wake()
        return count
