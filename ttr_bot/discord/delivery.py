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

from ..engine.view import view as player_view
from ..i18n import normalize, t
from . import components as C
from .format import (
    chunks,
    event_lines,
    fit,
    hand_lines,
    keep_min,
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

    def public_locale(self, loaded):
        guild = self.bot.get_guild(loaded.row.guild_id) if loaded.row.guild_id else None
        return normalize(str(guild.preferred_locale)) if guild else "en"

    # ----- rendering -------------------------------------------------------------------------------
    async def render(self, game, names, viewer=None, locale="en", final=False):
        """PNG bytes of the board, drawn in a worker thread; None if no picture can be drawn."""
        try:
            from .. import render as r
            fn = r.render_final if final else r.render_board
        except Exception:
            log.debug("no board renderer available", exc_info=True)
            return None
        try:
            # the worker thread gets its own copy: the live game may move on meanwhile
            snapshot, names = game.copy(), list(names)
            if final:
                return await asyncio.to_thread(fn, snapshot, names, locale=locale)
            return await asyncio.to_thread(fn, snapshot, names, viewer=viewer, locale=locale)
        except Exception:
            log.exception("rendering the board of a %s game failed", game.board.map_id)
            return None

    @staticmethod
    def as_file(png, name="board.png"):
        return discord.File(io.BytesIO(png), filename=name)

    # ----- effects ---------------------------------------------------------------------------------
    async def deliver(self, eff):
        loaded = await self.bot.service.load(eff.game_id)
        if loaded is None:
            return
        loc = self.public_locale(loaded)
        if eff.cancelled:
            self._pending.pop(eff.game_id, None)
            self._spawn(self._post_cancel(loaded, loc, eff.handover), f"cancel {eff.game_id}")
            return
        if eff.handover is not None:
            # the panel up now, if it is the leaver's (a later turn may replace it meanwhile)
            game = loaded.game
            panel = None
            if game.phase == "play" and not game.over and game.current == eff.handover.seat:
                panel = await self.bot.store.get_message(loaded.id, "panel")
            self._spawn(self._post_handover(loaded, eff.handover, panel, loc),
                        f"handover {eff.game_id}/{eff.handover.seat}")
            return
        if eff.started:
            self._spawn(self._post_start(loaded, loc), f"start {eff.game_id}")
        else:
            pending = self._pending[eff.game_id]
            pending.extend(eff.public)
            if eff.over or any(e["type"] in ("turn", "game_over") for e in eff.public):
                events = self._pending.pop(eff.game_id)
                # the state to show is the one right now, not when the post goes out
                snapshot = (loaded.game, loaded.row.seq, list(loaded.seats))
                self._spawn(self._post_turn(loaded, snapshot, events, eff, loc),
                            f"turn {eff.game_id}/{eff.seq}")
        for seat in sorted(eff.changed):
            user_id = loaded.seats[seat].user_id
            if user_id is not None and (eff.game_id, user_id) not in self._dm_queued:
                # one DM per burst of changes (a two-card draw): it shows the state when sent
                self._dm_queued.add((eff.game_id, user_id))
                self._spawn(self._dm_hand(loaded, seat, user_id, fresh=eff.started),
                            f"dm {user_id}")

    # ----- public posts ------------------------------------------------------------------------------
    async def send(self, channel_id, content, **kwargs):
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        return await self.channel(channel_id).send(fit(content), **kwargs)

    async def _post_start(self, loaded, loc):
        game = loaded.game
        names = loaded.names()
        lines = [t("bot.start.title", loc, map=map_title(game.board, loc))]
        lines += [f"{i + 1}. {n}" for i, n in enumerate(names)]
        lines.append(t("bot.start.choose", loc))
        humans = [s.user_id for s in loaded.seats if s.user_id]
        lines.append(" ".join(f"<@{u}>" for u in humans))
        async with self._channel_locks[loaded.row.channel_id]:
            await self.update_lobby(loaded, loc, status="started")
            png = await self.render(game, names, locale=loc)
            kwargs = {"file": self.as_file(png)} if png else {}
            await self.send(loaded.row.channel_id, "\n".join(lines),
                            view=C.hand_view(loaded.id, loc),
                            allowed_mentions=mention_only(*humans), **kwargs)

    async def _post_turn(self, loaded, snapshot, events, eff, loc):
        game, seq, seats = snapshot
        names = [s.display_name for s in seats]
        board = game.board
        lines = event_lines(events, board, names, loc, trains=game.trains)
        channel_id = loaded.row.channel_id
        async with self._channel_locks[channel_id]:
            if game.over:
                await self._post_end(loaded, game, names, lines, loc)
                return
            png = await self.render(game, names, locale=loc)
            if not png:
                lines += summary_lines(game, names, loc)
            lines.append(row_line(game, loc))
            current = seats[game.current]
            kwargs, view = {}, None
            if current.user_id is not None:
                lines.append(t("bot.turn.ping", loc, mention=f"<@{current.user_id}>"))
                view = C.turn_view(loaded.id, seq, game, loc)
                kwargs["allowed_mentions"] = mention_only(current.user_id)
            else:
                lines.append(t("bot.turn.computer", loc, name=current.display_name))
            if png:
                kwargs["file"] = self.as_file(png)
            if view is not None:
                kwargs["view"] = view
            msg = await self.send(channel_id, "\n".join(lines), **kwargs)
            await self._replace_panel(loaded.id, channel_id, msg.id if view is not None else None)

    async def _post_end(self, loaded, game, names, lines, loc):
        channel_id = loaded.row.channel_id
        scores = game.scores()
        parts = chunks(lines + [""] + reveal_lines(scores, names, loc))
        png = await self.render(game, names, locale=loc, final=True)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            kwargs = {"file": self.as_file(png, "final.png")} if last and png else {}
            await self.send(channel_id, part, **kwargs)
        await self._replace_panel(loaded.id, channel_id, None)

    async def _replace_panel(self, game_id, channel_id, message_id):
        """Take the buttons off the previous turn panel (they are stale), remember the new one."""
        store = self.bot.store
        old = await store.get_message(game_id, "panel")
        if message_id is not None:
            await store.set_message(game_id, "panel", channel_id, message_id)
        else:
            await store.delete_message(game_id, "panel")
        if old is not None and old.message_id != message_id:
            try:
                await self.channel(old.channel_id).get_partial_message(old.message_id).edit(view=None)
            except discord.HTTPException as exc:
                log.info("could not clear the old panel %s: %s", old.message_id, exc)

    async def _post_handover(self, loaded, handover, panel, loc):
        """Who left (or was replaced), and how strong the computer player taking over is."""
        channel_id = loaded.row.channel_id
        lines = [t(f"bot.seat.{handover.reason}", loc, name=handover.name,
                   level=t(f"bot.level.{handover.level}", loc),
                   by=f"<@{handover.by}>" if handover.by else "")]
        if handover.host_id is not None:
            lines.append(t("bot.seat.host", loc, mention=f"<@{handover.host_id}>"))
        async with self._channel_locks[channel_id]:
            await self.send(channel_id, "\n".join(lines))   # mentions shown, nobody pinged
            if panel is None:
                return
            current = await self.bot.store.get_message(loaded.id, "panel")
            if current is not None and current.message_id == panel.message_id:
                # the leaver's buttons would only answer "not a player": take them off
                await self._replace_panel(loaded.id, channel_id, None)

    async def _post_cancel(self, loaded, loc, handover=None):
        await self.update_lobby(loaded, loc, status="cancelled")
        text = t("bot.cancelled", loc)
        if handover is not None:     # the last human left
            text = t("bot.seat.left_cancelled", loc, name=handover.name)
        async with self._channel_locks[loaded.row.channel_id]:
            await self.send(loaded.row.channel_id, text)
            await self._replace_panel(loaded.id, loaded.row.channel_id, None)

    async def update_lobby(self, loaded, loc, status="lobby"):
        """Edit the lobby message to show the seats (and drop its buttons once it is over)."""
        ref = await self.bot.store.get_message(loaded.id, "lobby")
        if ref is None:
            return
        board = self.bot.board_of(loaded)
        lines = lobby_lines(board, loaded.names(), self.host_name(loaded), loc, status)
        view = C.lobby_view(loaded.id, loc) if status == "lobby" else None
        try:
            await self.channel(ref.channel_id).get_partial_message(ref.message_id).edit(
                content=fit("\n".join(lines)), view=view, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("could not update the lobby message of game %s: %s", loaded.id, exc)
        if status != "lobby":
            await self.bot.store.delete_message(loaded.id, "lobby")

    @staticmethod
    def host_name(loaded):
        for s in loaded.seats:
            if s.user_id == loaded.row.host_id:
                return s.display_name
        return "?"

    # ----- private updates -----------------------------------------------------------------------------
    async def _dm_hand(self, loaded, seat, user_id, fresh=False):
        """DM a player their hand and tickets (and the ticket offer with its menu)."""
        await asyncio.sleep(self.dm_delay)
        async with self._user_locks[user_id]:
            self._dm_queued.discard((loaded.id, user_id))
            store = self.bot.store
            # a new game tries again even if DMs failed before (the player may have opened them)
            if not fresh and await store.get_dms_closed(user_id):
                return
            current = await self.bot.service.load(loaded.id)
            if current is None or current.game is None or current.seats[seat].user_id != user_id:
                return      # gone, or the player left the seat meanwhile
            loc = await self.bot.locale_for_user(user_id)
            v = player_view(current.game, seat)
            lines = hand_lines(v, loc, channel_id=current.row.channel_id)
            view = None
            if v.offer:
                view = C.keep_view(current.id, current.row.seq, v.board, v.offer, keep_min(v), loc)
            try:
                channel = await self.bot.create_dm(discord.Object(user_id))
                await channel.send(fit("\n".join(lines)), view=view or discord.utils.MISSING,
                                   allowed_mentions=NO_MENTIONS)
            except discord.Forbidden as exc:   # 50007: DMs closed (or the user blocked us)
                log.info("DM to user %s refused (%s)", user_id, exc.code)
                await self._dms_closed(current, user_id, fresh)
                return
            if fresh and await store.get_dms_closed(user_id):
                await store.set_dms_closed(user_id, False)

    async def _dms_closed(self, loaded, user_id, fresh):
        store = self.bot.store
        was_closed = await store.get_dms_closed(user_id)
        await store.set_dms_closed(user_id, True)
        key = (loaded.id, user_id)
        if key in self._told_closed or (was_closed and not fresh):
            return
        self._told_closed.add(key)
        loc = self.public_locale(loaded)
        log.info("DMs to user %s are closed; serving them ephemerally", user_id)
        async with self._channel_locks[loaded.row.channel_id]:
            await self.send(loaded.row.channel_id, t("bot.dm.closed", loc, mention=f"<@{user_id}>"),
                            view=C.hand_view(loaded.id, loc), allowed_mentions=mention_only(user_id))
