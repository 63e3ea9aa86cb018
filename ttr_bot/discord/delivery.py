"""Effects -> Discord: the public turn message, DMs with their fallback, the final reveal.

`deliver(effects)` returns at once: it decides what to post from the effects and the game as
it is now, then queues the posting. Channel posts go out one at a time per channel, in order
(so turn messages never overtake each other while a board renders); DMs go out one at a time
per user in background tasks. Nothing here blocks the game: a failed post is logged, and a
DM refused with 50007 marks the user's DMs closed (remembered in the store), tells them once in
the channel (no private content) and leaves them the ephemeral 'My hand' path.

Public text is built from Effects.public only; a turn's events are gathered until the turn
ends, so one message tells the whole turn (a two-card draw, a tunnel reveal and its payment).
A computer player taking over a seat (Effects.handover) is announced at once, by name and
level only.
"""
import asyncio
import io
import logging
from collections import defaultdict

import discord

from ..i18n import normalize, t
from . import components
from .format import (
    chunks,
    event_lines,
    fit,
    hand_lines,
    lobby_lines,
    map_title,
    reveal_lines,
    row_line,
    summary_lines,
)

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()


def mention_only(*user_ids):
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids if u])


class Delivery:
    def __init__(self, bot, dm_delay=1.0):
        self.bot = bot
        self._pending = defaultdict(list)       # game id -> public events of the turn so far
        self._channel_locks = defaultdict(asyncio.Lock)
        self._user_locks = defaultdict(asyncio.Lock)
        self._tasks = set()
        self._told_closed = set()               # (game id, user id) told about closed DMs
        self._dm_queued = set()                 # (game id, user id) with a DM not yet sent
        self.dm_delay = dm_delay

    # ----- plumbing ------------------------------------------------------------------------------
    def _spawn(self, coro, what):
        async def guarded():
            try:
                await coro
            except Exception:
                log.exception("delivery failed: %s", what)
        task = asyncio.create_task(guarded(), name=f"ttr-delivery-{what}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self, timeout=30.0):
        """Wait for queued posts and DMs (tests, shutdown)."""
        while self._tasks:
            done, _ = await asyncio.wait(set(self._tasks), timeout=timeout)
            if not done:
                log.warning("%d deliveries still pending after %ss", len(self._tasks), timeout)
                return

    def channel(self, channel_id):
        return self.bot.get_partial_messageable(channel_id)

    def public_locale(self, hosted):
        guild = self.bot.get_guild(hosted.guild_id) if hosted.guild_id else None
        return normalize(str(guild.preferred_locale)) if guild else "en"

    # ----- rendering -------------------------------------------------------------------------------
    async def render(self, game, names, viewer=None, locale="en", final=False):
        """PNG bytes of the board, drawn off the event loop and reused while the state is the
        same (pictures.py); None if drawing failed (the post then goes out with a text summary
        instead: a picture never blocks a turn)."""
        return await self.bot.pictures.render(game, names, viewer=viewer, locale=locale,
                                              final=final)

    @staticmethod
    def as_file(png, name="board.png"):
        return discord.File(io.BytesIO(png), filename=name)

    # ----- effects ---------------------------------------------------------------------------------
    async def deliver(self, eff):
        hosted = await self.bot.service.load(eff.game_id)
        if hosted is None:
            return
        loc = self.public_locale(hosted)
        if eff.cancelled:
            self._pending.pop(eff.game_id, None)
            self._spawn(self._post_cancel(hosted, loc, eff.handover), f"cancel {eff.game_id}")
            return
        if eff.handover is not None:
            # the panel up now, if it is the leaver's (a later turn may replace it meanwhile)
            game = hosted.game
            panel = None
            if game.phase == "play" and not game.over and game.current == eff.handover.seat:
                panel = await self.bot.service.posted_message(hosted.id, "panel")
            self._spawn(self._post_handover(hosted, eff.handover, panel, loc),
                        f"handover {eff.game_id}/{eff.handover.seat}")
            return
        if eff.started:
            self._spawn(self._post_start(hosted, loc), f"start {eff.game_id}")
        else:
            pending = self._pending[eff.game_id]
            pending.extend(eff.public)
            if eff.over or any(e["type"] in ("turn", "game_over") for e in eff.public):
                events = self._pending.pop(eff.game_id)
                # the state to show is the one right now (a HostedGame never changes), not
                # the one when the post goes out
                self._spawn(self._post_turn(hosted, events, loc), f"turn {eff.game_id}/{eff.seq}")
        for seat in sorted(eff.changed):
            user_id = hosted.seats[seat].user_id
            if user_id is not None and (eff.game_id, user_id) not in self._dm_queued:
                # one DM per burst of changes (a two-card draw): it shows the state when sent
                self._dm_queued.add((eff.game_id, user_id))
                self._spawn(self._dm_hand(hosted, seat, user_id, fresh=eff.started),
                            f"dm {user_id}")

    # ----- public posts ------------------------------------------------------------------------------
    async def send(self, channel_id, content, **kwargs):
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        return await self.channel(channel_id).send(fit(content), **kwargs)

    async def _post_start(self, hosted, loc):
        game = hosted.game
        names = hosted.names()
        lines = [t("bot.start.title", loc, map=map_title(game.board, loc))]
        lines += [f"{i + 1}. {n}" for i, n in enumerate(names)]
        lines.append(t("bot.start.choose", loc))
        humans = [s.user_id for s in hosted.seats if s.user_id]
        lines.append(" ".join(f"<@{u}>" for u in humans))
        async with self._channel_locks[hosted.channel_id]:
            await self.update_lobby(hosted, loc, status="started")
            png = await self.render(game, names, locale=loc)
            kwargs = {"file": self.as_file(png)} if png else {}
            await self.send(hosted.channel_id, "\n".join(lines),
                            view=components.hand_view(hosted.id, loc),
                            allowed_mentions=mention_only(*humans), **kwargs)

    async def _post_turn(self, hosted, events, loc):
        game, names = hosted.game, hosted.names()
        lines = event_lines(events, game.board, names, loc, trains=game.trains)
        channel_id = hosted.channel_id
        async with self._channel_locks[channel_id]:
            if game.over:
                await self._post_end(hosted, lines, loc)
                return
            png = await self.render(game, names, locale=loc)
            if not png:
                lines += summary_lines(game, names, loc)
            lines.append(row_line(game, loc))
            current = hosted.seats[game.current]
            kwargs, view = {}, None
            if current.user_id is not None:
                lines.append(t("bot.turn.ping", loc, mention=f"<@{current.user_id}>"))
                view = components.turn_view(hosted.id, hosted.seq, game, loc)
                kwargs["allowed_mentions"] = mention_only(current.user_id)
            else:
                lines.append(t("bot.turn.computer", loc, name=current.name))
            if png:
                kwargs["file"] = self.as_file(png)
            if view is not None:
                kwargs["view"] = view
            msg = await self.send(channel_id, "\n".join(lines), **kwargs)
            await self._replace_panel(hosted.id, channel_id, msg.id if view is not None else None)

    async def _post_end(self, hosted, lines, loc):
        game, names, channel_id = hosted.game, hosted.names(), hosted.channel_id
        scores = game.scores()
        parts = chunks(lines + [""] + reveal_lines(scores, names, loc))
        png = await self.render(game, names, locale=loc, final=True)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            kwargs = {"file": self.as_file(png, "final.png")} if last and png else {}
            await self.send(channel_id, part, **kwargs)
        await self._replace_panel(hosted.id, channel_id, None)

    async def _replace_panel(self, game_id, channel_id, message_id):
        """Take the buttons off the previous turn panel (they are stale), remember the new one."""
        service = self.bot.service
        old = await service.posted_message(game_id, "panel")
        if message_id is not None:
            await service.remember_message(game_id, "panel", channel_id, message_id)
        else:
            await service.forget_message(game_id, "panel")
        if old is not None and old.message_id != message_id:
            try:
                await self.channel(old.channel_id).get_partial_message(old.message_id).edit(view=None)
            except discord.HTTPException as exc:
                log.info("could not clear the old panel %s: %s", old.message_id, exc)

    async def _post_handover(self, hosted, handover, panel, loc):
        """Who left (or was replaced), and how strong the computer player taking over is."""
        channel_id = hosted.channel_id
        lines = [t(f"bot.seat.{handover.reason}", loc, name=handover.name,
                   level=t(f"bot.level.{handover.level}", loc),
                   by=f"<@{handover.by}>" if handover.by else "")]
        if handover.host_id is not None:
            lines.append(t("bot.seat.host", loc, mention=f"<@{handover.host_id}>"))
        async with self._channel_locks[channel_id]:
            await self.send(channel_id, "\n".join(lines))   # mentions shown, nobody pinged
            if panel is None:
                return
            current = await self.bot.service.posted_message(hosted.id, "panel")
            if current is not None and current.message_id == panel.message_id:
                # the leaver's buttons would only answer "not a player": take them off
                await self._replace_panel(hosted.id, channel_id, None)

    async def _post_cancel(self, hosted, loc, handover=None):
        await self.update_lobby(hosted, loc, status="cancelled")
        text = t("bot.cancelled", loc)
        if handover is not None:     # the last human left
            text = t("bot.seat.left_cancelled", loc, name=handover.name)
        async with self._channel_locks[hosted.channel_id]:
            await self.send(hosted.channel_id, text)
            await self._replace_panel(hosted.id, hosted.channel_id, None)

    async def update_lobby(self, hosted, loc, status="lobby"):
        """Edit the lobby message to show the seats (and drop its buttons once it is over)."""
        service = self.bot.service
        ref = await service.posted_message(hosted.id, "lobby")
        if ref is None:
            return
        lines = lobby_lines(hosted.board, hosted.names(), hosted.host_name or "?", loc, status)
        view = components.lobby_view(hosted.id, loc) if status == "lobby" else None
        try:
            await self.channel(ref.channel_id).get_partial_message(ref.message_id).edit(
                content=fit("\n".join(lines)), view=view, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("could not update the lobby message of game %s: %s", hosted.id, exc)
        if status != "lobby":
            await service.forget_message(hosted.id, "lobby")

    # ----- private updates -----------------------------------------------------------------------------
    async def _dm_hand(self, hosted, seat, user_id, fresh=False):
        """DM a player their hand and tickets (and the ticket offer with its menu)."""
        await asyncio.sleep(self.dm_delay)
        async with self._user_locks[user_id]:
            self._dm_queued.discard((hosted.id, user_id))
            service = self.bot.service
            # a new game tries again even if DMs failed before (the player may have opened them)
            if not fresh and await service.dms_closed(user_id):
                return
            current = await service.load(hosted.id)
            if current is None or not current.started or current.seats[seat].user_id != user_id:
                return      # gone, or the player left the seat meanwhile
            loc = await self.bot.locale_for_user(user_id)
            v = current.view(seat)
            lines = hand_lines(v, loc, channel_id=current.channel_id)
            view = None
            if v.offer:
                view = components.keep_view(current.id, current.seq, v.board, v.offer,
                                            v.keep_min(), loc)
            try:
                channel = await self.bot.create_dm(discord.Object(user_id))
                await channel.send(fit("\n".join(lines)), view=view or discord.utils.MISSING,
                                   allowed_mentions=NO_MENTIONS)
            except discord.Forbidden as exc:   # 50007: DMs closed (or the user blocked us)
                log.info("DM to user %s refused (%s)", user_id, exc.code)
                await self._dms_closed(current, user_id, fresh)
                return
            if fresh and await service.dms_closed(user_id):
                await service.set_dms_closed(user_id, False)

    async def _dms_closed(self, hosted, user_id, fresh):
        service = self.bot.service
        was_closed = await service.dms_closed(user_id)
        await service.set_dms_closed(user_id, True)
        key = (hosted.id, user_id)
        if key in self._told_closed or (was_closed and not fresh):
            return
        self._told_closed.add(key)
        loc = self.public_locale(hosted)
        log.info("DMs to user %s are closed; serving them ephemerally", user_id)
        async with self._channel_locks[hosted.channel_id]:
            await self.send(hosted.channel_id, t("bot.dm.closed", loc, mention=f"<@{user_id}>"),
                            view=components.hand_view(hosted.id, loc),
                            allowed_mentions=mention_only(user_id))
