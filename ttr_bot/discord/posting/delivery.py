"""Owed messages -> Discord: the turn post, the start and the final reveal, handovers, notices,
reminders, votes, DMs. The outbox worker (outbox_worker.py) hands each owed message here (the
service's `OwedMessage`: its `Lane` and one typed message of service/messages.py, read by
attribute); whatever this raises decides whether it is retried, reported or given up (the
worker's business).

Every picture goes through one method, `render`; the final post is built in one, `_post_end`.
Public text is built from the rows' public events only (the service already moved hidden parts
out); a turn's events arrive as the row that ended the turn plus its held parts, so one post
tells the whole turn (a two-card draw, a tunnel reveal and its payment). A post describes the
game as it was at its row's seq (`service.moves.state_at`), even when it goes out late; only the
latest post carries the turn panel.

Channel posts carry a nonce made from the outbox row (`ttr<id>`, `ttr<id>.<part>`) with
discord.py's enforce_nonce, so a post retried after a crash between Discord taking it and the
row being marked sent returns the first copy instead of a second one. Discord keeps nonces for
a few minutes only: a row older than that is first looked for in the channel's recent history.
"""
import asyncio
import contextvars
import io
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone

import discord

from ...bounded import KeyedLocks, LRUDict
from ...engine.event_types import BUILD_STATION, CLAIM_ROUTE, FINAL_ROUND, Event
from ...engine.game import Game
from ...i18n import LOCALES, normalize, t
from ...render import closeup_contents
from ...service import (
    CANCELLED,
    GAME_HINTS,
    GAME_LANGUAGE,
    ClosingPost,
    DirectMessage,
    GameService,
    HandoverPost,
    HandUpdate,
    Notice,
    Reminder,
    SinceLastTurn,
    StartPost,
    ThinkingEdit,
    TurnPost,
    VotePost,
    VoteResult,
)
from ...workers import WorkerLost
from ..controls import components
from . import finale, turn_card
from ..text.card_text import (
    board_alt,
    board_changed,
    closeup_alt,
    final_alt,
    mark,
    since_line,
    standings_lines,
)
from .community_posts import CommunityPosts
from .cup_posts import CupPosts
from ..text.format import (
    chunks,
    event_lines,
    fit,
    lobby_lines,
    map_title,
    reveal_lines,
    sep,
    summary_lines,
)
from .hands import HandMessages
from ..text.map_state_text import map_state_line
from ..membership import PING_FOR
from ..palettes import game_palette
from .retries import time_left

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
NONCE_WINDOW = 120.0    # seconds we trust Discord to remember a nonce ("a few minutes")
HISTORY_LOOKBACK = 50   # messages read back when a late post may already be there
CARDS_REMEMBERED = 2000  # posted cards kept (text only) to take their buttons off without a read


# the channel posts Discord took while one row was handled (None: outside `handle`)
_posted = contextvars.ContextVar("ttr_posted", default=None)


def mention_only(*user_ids):
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids if u])


def nonce(row, part=None):
    return f"ttr{row.id}" if part is None else f"ttr{row.id}.{part}"


class Delivery(HandMessages):
    def __init__(self, bot, clock=None):
        self.bot = bot
        self.clock = clock or bot.clock
        self._lobby_locks = KeyedLocks()         # game id: one lobby message edit at a time
        self._cards = LRUDict(CARDS_REMEMBERED)  # message id -> its Card (no picture bytes)
        self._warming = set()                    # tasks building a new game's picture layers
        self.handlers = {
            StartPost: self._post_start, TurnPost: self._post_turn,
            ThinkingEdit: self._post_thinking, HandoverPost: self._post_handover,
            ClosingPost: self._post_cancel, Notice: self._post_notice,
            Reminder: self._post_reminder, VotePost: self._post_vote,
            VoteResult: self._post_vote_result, HandUpdate: self.deliver_hand,
            DirectMessage: self._dm,
        }
        self.handlers.update(CupPosts(self).handlers())
        self.handlers.update(CommunityPosts(self).handlers())

    # ----- plumbing ------------------------------------------------------------------------------
    @staticmethod
    def counted(message):
        """A message Discord took (an edit too) while a row was handled: it counts as a post."""
        return _took(message)

    @property
    def service(self) -> GameService:
        return self.bot.service

    def channel(self, channel_id):
        return self.bot.get_partial_messageable(channel_id)

    def public_locale(self, hosted):
        """The language of the game's public posts and board: the one chosen when it was opened
        (`language`, lobby.game_language); a game opened before that option existed follows
        the server's Discord locale as it always did."""
        chosen = (getattr(hosted, "options", None) or {}).get(GAME_LANGUAGE)
        if chosen in LOCALES:
            return chosen
        guild = self.bot.get_guild(hosted.guild_id) if hosted.guild_id else None
        return normalize(str(guild.preferred_locale)) if guild else "en"

    async def handle(self, row, parts=(), merged=()):
        """Deliver one owed row (`parts`: held rows it completes; `merged`: rows of the same
        kind folded into it). Returns how many channel posts Discord took for it: none when
        what it was about is no longer so (a reminder after the move, a game gone), which says
        nothing about whether the channel takes posts again."""
        handler = self.handlers.get(type(row.message))
        if handler is None:     # messages.Unreadable (the worker gives those up before)
            raise ValueError(f"outbox row {row.id} cannot be read: {row.message!r}")
        token = _posted.set([])
        try:
            await handler(row, parts=parts, merged=merged)
            return len(_posted.get())
        finally:
            _posted.reset(token)

    # ----- rendering -------------------------------------------------------------------------------
    async def render(self, game, names, viewer=None, locale="en", final=False,
                     palette="standard"):
        """PNG bytes of the board, drawn off the event loop and reused while the state is the
        same (pictures.py); None if drawing failed (the post then goes out with a text summary
        instead: a picture never blocks a turn)."""
        return await self.bot.pictures.render(game, names, viewer=viewer, locale=locale,
                                              final=final, palette=palette)

    async def card_pictures(self, game: Game, names: Sequence[str], loc: str,
                            events: Sequence[Event], moves: Sequence[str],
                            since: SinceLastTurn | None = None,
                            palette: str = "standard") -> tuple[turn_card.Picture, ...]:
        """The pictures of a card whose board changed: the close-up of what was claimed or
        built (first; left out when the routes are too far apart for it to show more than the
        map), then the phone map with every route claimed since the player to move last
        moved highlighted. Each with its alt text."""
        claimed = {e["route"] for e in events if e["type"] == CLAIM_ROUTE}
        built = {e["city"] for e in events if e["type"] == BUILD_STATION}
        highlight = claimed | set(since.routes if since is not None else ())
        shows = closeup_contents(game, claimed, built) if claimed or built else {}
        pictures = self.bot.pictures
        # both drawn at once (two workers): the card waits for the slower, not for the sum
        closeup, board = await asyncio.gather(
            pictures.closeup(game, names, claimed, loc, cities=built, palette=palette)
            if (shows.get("scale") or 0) > 1.0 else _none(),
            pictures.map(game, names, loc, highlight=highlight, cities=built, palette=palette))
        out = []
        if closeup:
            out.append(turn_card.Picture(closeup, "closeup.png", closeup_alt(shows, names, loc)))
        if board:
            out.append(turn_card.Picture(board, "map.png",
                                         board_alt(game, names, loc, moves, palette)))
        return tuple(out)

    @staticmethod
    def as_file(png, name="board.png", description=None):
        """A picture as an attachment; `description`: its alt text (1,024 characters at most)."""
        if description:
            return discord.File(io.BytesIO(png), filename=name, description=description[:1024])
        return discord.File(io.BytesIO(png), filename=name)

    # ----- sending ----------------------------------------------------------------------------------
    async def send(self, channel_id, content, *, row=None, part=None, **kwargs):
        """Post `content`; with `row`, under the row's nonce, and, for a row older than Discord's
        nonce memory, not again if the channel already shows it."""
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        content = fit(content)
        channel = self.channel(channel_id)
        if row is not None:
            kwargs["nonce"] = nonce(row, part)
            if self.clock() - row.created_at > NONCE_WINDOW:
                found = await self._already_posted(channel, content, row.created_at)
                if found is not None:
                    return _took(found)
        return _took(await channel.send(content, **kwargs))

    async def send_card(self, channel_id, card, panel=None, *, row=None, **kwargs):
        """Post a turn card (turn_card.Card) with the rows of `panel`, as `send` does a text:
        under the row's nonce, and not again if a late row's card is already there."""
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        channel = self.channel(channel_id)
        if row is not None:
            kwargs["nonce"] = nonce(row)
            if self.clock() - row.created_at > NONCE_WINDOW:
                found = await self._already_posted(channel, card.text(), row.created_at)
                if found is not None:
                    return _took(found)
        if card.pictures:
            kwargs["files"] = card.files()
        msg = _took(await channel.send(view=turn_card.layout(card, panel), **kwargs))
        self._cards[msg.id] = card.without_pictures()
        return msg

    async def take_buttons_off(self, channel_id, message_id, note=None):
        """Edit a posted turn card (or a pre-card turn post) to be the same without its buttons;
        `note`: a line said in their place (the computers are thinking)."""
        message = self.channel(channel_id).get_partial_message(message_id)
        card = self._cards.get(message_id)
        if card is None:        # posted before a restart, or before turn cards: read it back
            full = await message.fetch()
            view = turn_card.stripped_message(full)
            if view is None:
                await message.edit(view=None)
                return
            if note:
                view.add_item(discord.ui.TextDisplay(note))
        else:
            if note:
                card = turn_card.with_note(card, note)
                self._cards[message_id] = card
            view = turn_card.stripped(card)
        await message.edit(view=view, allowed_mentions=NO_MENTIONS)

    async def _already_posted(self, channel, content, since):
        me = self.bot.user.id if self.bot.user else None
        after = discord.Object(discord.utils.time_snowflake(
            datetime.fromtimestamp(max(0.0, since - 5), timezone.utc)))
        try:
            async for message in channel.history(limit=HISTORY_LOOKBACK, after=after):
                if message.author.id == me and (message.content or message_text(message)) == content:
                    log.info("message %s was posted before a restart: not again", message.id)
                    return message
        except discord.HTTPException:   # no read access: post (rarely twice) rather than never
            return None
        return None

    # ----- the start, turns, the end ------------------------------------------------------------------
    async def _post_start(self, row, **_):
        hosted = await self.service.moves.state_at(row.game_id, 0)
        if hosted is None:
            return
        loc = self.public_locale(hosted)
        game, names = hosted.game, hosted.names()
        lines = [t("bot.start.title", loc, map=map_title(game.board, loc))]
        lines += [f"{i + 1}. {n}" for i, n in enumerate(names)]
        deadline = hosted.settings.deadline
        if deadline:
            lines.append(t("bot.start.deadline", loc, count=deadline))
        lines.append(t("bot.start.choose", loc))
        humans = hosted.user_ids()
        lines.append(" ".join(f"<@{u}>" for u in humans))
        await self.update_lobby(hosted.id, loc)
        palette = game_palette(hosted)
        png = await self.bot.pictures.map(game, names, loc, palette=palette)
        kwargs = {"file": self.as_file(png, "map.png", board_alt(game, names, loc,
                                                                 palette=palette))} if png else {}
        await self.send(hosted.channel_id, "\n".join(lines), row=row,
                        view=components.hand_view(hosted.id, loc),
                        allowed_mentions=mention_only(*humans), **kwargs)
        self._warm(hosted.id, game.board, loc, humans)

    def _warm(self, game_id, board, loc, humans):
        """Have the workers build what a new game's pictures are drawn on (Pictures.warm), in
        the background: nothing of it may hold up or fail the post that starts it."""
        async def warm():
            try:
                private = [await self.bot.locale_for_user(u) for u in humans]
                await self.bot.pictures.warm(board, loc, private)
            except WorkerLost as exc:   # the pool's trouble: the pictures are built when drawn
                log.info("could not prepare the pictures of game %s: %r", game_id, exc)
            except Exception:
                log.exception("could not prepare the pictures of game %s", game_id)
        task = asyncio.get_running_loop().create_task(warm(), name=f"ttr-warm-{game_id}")
        self._warming.add(task)
        task.add_done_callback(self._warming.discard)

    async def _post_turn(self, row, parts=(), **_):
        """The turn card: what happened since the last card (the row that ended the turn and
        its held parts, which fold in the computer players' turns before it), the standings,
        the ping and the deadline of the player to move, their panel; a picture only when the
        board changed."""
        now = await self.service.load(row.game_id)
        at = await self.service.moves.state_at(row.game_id, row.seq)
        if now is None or at is None:
            return
        game, names, loc = at.game, at.names(), self.public_locale(at)
        events, moves, told = [], [], None
        p = row.message
        if p.caught_up:     # the one post after a long refusal (refusals.py)
            moves.append(t("bot.outbox.caught_up", loc, count=p.caught_up))
        pending = []        # events told together: a turn's two draws make one line
        for r in (*parts, row):
            part = r.message
            if part.by and told != (part.seat, part.by):
                moves += event_lines(pending, game.board, names, loc, trains=game.trains)
                pending = []
                told = (part.seat, part.by)     # once per turn, not per action of it
                moves.append(t(f"bot.turn.{part.by}", loc, name=names[part.seat],
                               level=t("bot.level.medium", loc)))
            events += part.events
            pending += part.events
        moves += event_lines(pending, game.board, names, loc, trains=game.trains)
        if p.over:
            if p.computers:
                moves.append(t("bot.end.computers", loc))
            await self._post_end(at, moves, loc, row=row)
            return
        current = at.seats[game.current]
        palette = game_palette(at)
        tail, kwargs, panel, since = [], {}, None, None
        if p.ping and not await self._still_member(at, p.ping):
            current = None      # gone: a computer has their seat now, nobody is pinged
        if current is None:
            tail.append(t("bot.turn.computer", loc, name=at.seats[game.current].name))
        elif current.user_id is not None:
            since = await self.service.since.since_last_turn(at.id, game.current, at.seq)
            mention = f"<@{current.user_id}>"
            if since is not None:
                tail += since_line(since, game.board, names, loc, mention, told=events)
            if p.deadline:      # the ping and the deadline in one line; the date is the alt's
                tail.append(t("bot.turn.ping_deadline", loc, mention=mention,
                              when=f"<t:{int(p.deadline)}:R>"))
            else:
                tail.append(t("bot.turn.ping", loc, mention=mention))
            if p.away_until:
                tail.append(t("bot.turn.away_until", loc, name=current.name,
                              until=f"<t:{int(p.away_until)}:f>"))
            if now.seq == row.seq:      # only the latest card has live buttons
                panel = components.turn_view(at.id, at.seq, game, loc)
            kwargs["allowed_mentions"] = mention_only(p.ping) if p.ping else NO_MENTIONS
            kwargs["silent"] = p.silent
        else:
            tail.append(t("bot.turn.computer", loc, name=current.name))
        pictures = ()
        if board_changed(events):
            pictures = await self.card_pictures(game, names, loc, events, moves, since,
                                                palette=palette)
            if not pictures:
                moves += summary_lines(game, names, loc)
        # the face-up row is the buttons; the piles' sizes are /ttr status's and the alt's
        standings = standings_lines(game, names, loc, palette, final_told=_final_told(events))
        extra = map_state_line(game, loc, palette)    # a map's own public state, one line
        if extra is not None:
            standings.append(extra)
        card = turn_card.Card(tuple(moves), tuple(standings),
                              tuple(tail), pictures, turn_card.accent_of(game.current, palette),
                              game_id=at.id, loc=loc)
        msg = await self.send_card(at.channel_id, card, panel, row=row, **kwargs)
        if panel is not None:
            await self._replace_panel(at.id, at.channel_id, msg.id)

    async def _still_member(self, hosted, user_id):
        """Whether the player a turn post pings is still in the game's server; if Discord says
        they left (a kick sends the bot nothing), their seats go to computer players first
        (membership.py). A membership confirmed within the hour is believed."""
        membership = getattr(self.bot, "membership", None)  # a bare client (tools): no checks
        if not hosted.guild_id or membership is None:
            return True
        if await membership.is_member(hosted.guild_id, user_id, fresh_for=PING_FOR):
            return True
        await membership.left(hosted.guild_id, user_id)
        return False

    async def _post_thinking(self, row, **_):
        """A human's move handed the turn to computer players: their card comes when the next
        human is to move (the moves fold into it); meanwhile the last card loses its buttons
        and says, in one line, that the computers are thinking."""
        hosted = await self.service.load(row.game_id)
        if hosted is None:
            return
        ref = await self.service.adapter_state.posted_message(hosted.id, "panel")
        if ref is None:
            return
        loc = self.public_locale(hosted)
        await self.service.adapter_state.forget_message(hosted.id, "panel")
        try:
            await self.take_buttons_off(ref.channel_id, ref.message_id,
                                        note=t("bot.turn.thinking", loc))
        except discord.HTTPException as exc:
            log.info("could not mark the card %s as waiting: %s", ref.message_id, exc)

    async def _post_end(self, hosted, lines, loc, row=None):
        """The final reveal: the last turn's lines, every player's tickets and score, the
        score picture; what the game did to the ratings, its film and the Rematch button."""
        game, names, channel_id = hosted.game, hosted.names(), hosted.channel_id
        scores = game.scores()
        # the score picture and the film drawn at once (two workers): the post waits for the
        # slower, not for the sum, and for neither past what is left of the send's bound (the
        # worker pool's queue may be long): the scores go out whatever the pool is doing, and
        # a post tried FILM_TRIES times goes without its film
        within = time_left()
        film = row is None or row.attempts < finale.FILM_TRIES
        png, end = await asyncio.gather(
            finale.bounded(self.render(game, names, locale=loc, final=True,
                                       palette=game_palette(hosted)), within),
            finale.final_post(self.bot, hosted, loc, film=film, within=within))
        if png is not None and end.film is not None and \
                len(png) > finale.PICTURE_ROOM:   # never seen: a film left too little room
            end = await finale.final_post(self.bot, hosted, loc, png, within=time_left())
        marks = [mark(seat, game_palette(hosted)) for seat in range(len(names))]
        parts = chunks(lines + [""] + reveal_lines(scores, names, loc, marks) + end.lines)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            kwargs = {"file": self.as_file(png, "final.png", final_alt(game, names, loc))} \
                if last and png else {}
            msg = await self.send(channel_id, part, row=row, part=i,
                                  **(end.attach(kwargs) if last else kwargs))
        await end.posted(msg)
        await self._replace_panel(hosted.id, channel_id, None)
        await self._tell_parent(hosted, row, t(
            "bot.thread.result", loc, map=map_title(game.board, loc), thread=f"<#{channel_id}>",
            names=sep(loc).join(names[w] for w in scores[1])))

    async def _replace_panel(self, game_id, channel_id, message_id):
        """Take the buttons off the previous turn panel (they are stale), remember the new one."""
        service = self.service
        old = await service.adapter_state.posted_message(game_id, "panel")
        if message_id is not None:
            await service.adapter_state.remember_message(game_id, "panel", channel_id, message_id)
        else:
            await service.adapter_state.forget_message(game_id, "panel")
        if old is not None and old.message_id != message_id:
            try:
                await self.take_buttons_off(old.channel_id, old.message_id)
            except discord.HTTPException as exc:
                log.info("could not clear the old panel %s: %s", old.message_id, exc)

    # ----- seats, cancelling, notices --------------------------------------------------------------------
    async def _post_handover(self, row, **_):
        """Who left (or was replaced), and how strong the computer player taking over is."""
        hosted = await self.service.load(row.game_id)
        if hosted is None:
            return
        h = row.message.handover
        loc = self.public_locale(hosted)
        lines = [t(f"bot.seat.{h.reason}", loc, name=h.name,
                   level=t(f"bot.level.{h.level}", loc),
                   by=f"<@{h.by}>" if h.by else "")]
        if h.reason == "timeout":
            lines.append(t("bot.seat.timeout_return", loc, mention=f"<@{h.user_id}>"))
        if h.host_id is not None:
            lines.append(t("bot.seat.host", loc, mention=f"<@{h.host_id}>"))
        await self.send(hosted.channel_id, "\n".join(lines), row=row)   # nobody pinged
        game = hosted.game
        if game is not None and not game.over and game.phase == "play" and \
                game.current == h.seat and hosted.seats[h.seat].is_bot:
            # the leaver's buttons would only answer "not a player": take them off
            await self._replace_panel(hosted.id, hosted.channel_id, None)

    async def _post_cancel(self, row, **_):
        hosted = await self.service.load(row.game_id)
        if hosted is None:
            return
        loc = self.public_locale(hosted)
        await self.update_lobby(hosted.id, loc)
        reason, handover = row.message.reason, row.message.handover
        if handover is not None:     # the last human left
            text = t("bot.seat.left_cancelled", loc, name=handover.name)
        elif reason in ("abandoned", "lobby_expired", "vote", "host_left"):
            text = t(f"bot.cancelled.{reason}", loc)
        else:
            text = t("bot.cancelled", loc)
        await self.send(hosted.channel_id, text, row=row)
        await self._replace_panel(hosted.id, hosted.channel_id, None)
        await self._tell_parent(hosted, row, t("bot.thread.cancelled", loc,
                                               map=map_title(hosted.board, loc),
                                               thread=f"<#{hosted.channel_id}>"))

    async def _tell_parent(self, hosted, row, text):
        """The channel's one line about the end of a game in a thread of its own (the result,
        or that it was cancelled), under the row's nonce."""
        parent = hosted.options.get("parent")
        if not (parent and hosted.options.get("thread")):
            return
        try:
            await self.send(parent, text, row=row, part="parent")
        except discord.HTTPException as exc:
            log.info("could not tell channel %s about the thread's game: %s", parent, exc)

    async def _post_notice(self, row, **_):
        hosted = await self.service.load(row.game_id)
        if hosted is None:
            return
        p = row.message
        loc = self.public_locale(hosted)
        kwargs = {"allowed_mentions": mention_only(*p.ping)}
        if p.key == "bot.dm.closed":     # their hand comes through "My hand" instead
            kwargs["view"] = components.hand_view(hosted.id, loc)
        await self.send(hosted.channel_id, t(p.key, loc, **p.params), row=row, **kwargs)

    async def update_lobby(self, game_id, loc):
        """Edit the lobby message to show the seats and settings as they are now (and drop its
        controls once the game started or was cancelled). One edit at a time per game, each
        showing the state when it is made: a join's edit that comes after the start's can never
        put the Join and Start buttons back on a started game."""
        service = self.service
        async with self._lobby_locks[game_id]:
            hosted = await service.load(game_id)
            ref = await service.adapter_state.posted_message(game_id, "lobby")
            if hosted is None or ref is None:
                return
            status = ("lobby" if hosted.is_lobby else
                      "cancelled" if hosted.status == CANCELLED else "started")
            lines = lobby_lines(hosted.board, hosted.names(), hosted.host_name or "?", loc, status)
            if status == "lobby":
                lines.insert(1, settings_line(hosted.settings, loc, hosted))
            view = components.lobby_view(hosted, loc) if status == "lobby" else None
            try:
                await self.channel(ref.channel_id).get_partial_message(ref.message_id).edit(
                    content=fit("\n".join(lines)), view=view, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                log.info("could not update the lobby message of game %s: %s", game_id, exc)
            if status != "lobby":
                await service.adapter_state.forget_message(game_id, "lobby")

    # ----- reminders and votes ---------------------------------------------------------------------------
    async def is_member(self, guild_id, user_id):
        """False only when Discord says the user is not in the server (10007 Unknown Member);
        without the privileged members intent this lookup is how the bot learns it
        (membership.py; a confirmed membership is believed for a minute)."""
        return await self.bot.membership.is_member(guild_id, user_id)

    async def _post_reminder(self, row, **_):
        hosted = await self.service.load(row.game_id)
        if hosted is None or not hosted.is_active or \
                not self.service.absence.reminder_still_due(hosted, row.message):
            return      # they have moved since it was owed
        p = row.message
        user = p.user
        if not await self.is_member(p.guild or hosted.guild_id, user):
            await self.service.absence.member_left(hosted.guild_id, user)
            return
        if row.lane.is_channel:
            loc = self.public_locale(hosted)
            lines = [t("bot.remind.channel", loc, mention=f"<@{user}>")]
            if p.deadline:
                lines.append(t("bot.turn.deadline", loc, when=f"<t:{int(p.deadline)}:R>",
                               at=f"<t:{int(p.deadline)}:f>"))
            await self.send(hosted.channel_id, "\n".join(lines), row=row,
                            allowed_mentions=mention_only(user))
        else:
            await self._dm(row)

    async def _post_vote(self, row, **_):
        vote = await self.service.votes.vote(row.message.vote)
        hosted = await self.service.load(row.game_id)
        if vote is None or hosted is None:
            return
        loc = self.public_locale(hosted)
        msg = await self.send(hosted.channel_id, vote_text(vote, hosted, loc), row=row,
                              view=components.vote_view(hosted.id, vote.id, loc)
                              if vote.status == "open" else None,
                              allowed_mentions=mention_only(*vote.voters))
        await self.service.adapter_state.remember_message(hosted.id, f"vote:{vote.id}", hosted.channel_id,
                                            msg.id)

    async def _post_vote_result(self, row, **_):
        vote = await self.service.votes.vote(row.message.vote)
        hosted = await self.service.load(row.game_id)
        if vote is None or hosted is None:
            return
        loc = self.public_locale(hosted)
        ref = await self.service.adapter_state.posted_message(hosted.id, f"vote:{vote.id}")
        if ref is not None:
            try:
                await self.channel(ref.channel_id).get_partial_message(ref.message_id).edit(
                    content=fit(vote_text(vote, hosted, loc)), view=None,
                    allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                log.info("could not close the vote message %s: %s", ref.message_id, exc)
        await self.send(hosted.channel_id, t(f"bot.vote.{row.message.status}", loc,
                                             what=vote_what(vote, hosted, loc)), row=row)

    # ----- short DMs -------------------------------------------------------------------------------------
    async def _dm(self, row, **_):
        p = row.message       # a DirectMessage, or a Reminder by DM (with its key)
        user = row.lane.user_id
        loc = await self.bot.locale_for_user(user)
        params = dict(p.params)
        if isinstance(params.get("missing"), list):     # permission names, in their language
            params["missing"] = ", ".join(t(f"bot.perm.{m}", loc) for m in params["missing"])
        try:
            channel = await self.bot.create_dm(discord.Object(user))
            await channel.send(fit(t(p.key, loc, **params)), nonce=nonce(row),
                               allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as exc:     # 50007: DMs closed; nothing more to do for it
            log.info("DM to user %s refused (%s)", user, exc.code)


def _final_told(events: Iterable[Event]) -> bool:
    """The card's lines say the final round began (its own line: who brought it)."""
    return any(e["type"] == FINAL_ROUND for e in events)


async def _none():
    return None


def _took(message):
    """A channel post Discord took (or had taken): counted for the row being handled."""
    posted = _posted.get()
    if posted is not None:
        posted.append(message.id)
    return message


def message_text(message):
    """The text of a Components V2 message (its TextDisplays, in order)."""
    out = []

    def walk(items):
        for c in items:
            if isinstance(c, discord.TextDisplay):
                out.append(c.content)
            walk(getattr(c, "children", ()) or ())

    walk(message.components)
    return "\n".join(out)


def settings_line(settings, loc, hosted=None):
    """The lobby's line about the game's settings: the deadline per turn, what happens while
    away, the colour-blind palette when the game's public pictures use it, the language
    of its posts when the game has one of its own, and whether /ttr hint is allowed (then the
    game is not rated)."""
    deadline = (t("bot.settings.deadline", loc, count=settings.deadline) if settings.deadline
                else t("bot.settings.no_deadline", loc, count=settings.remind))
    line = deadline + " " + t(f"bot.settings.away_{settings.away}", loc)
    if hosted is not None and game_palette(hosted) != "standard":
        line += " " + t(f"bot.settings.palette_{game_palette(hosted)}", loc)
    language = hosted.options.get(GAME_LANGUAGE) if hosted is not None else None
    if language in LOCALES:
        line += " " + t("bot.settings.language", loc, language=t(f"bot.lang.{language}", loc))
    if hosted is not None and hosted.options.get(GAME_HINTS):
        line += " " + t("bot.settings.hints", loc)
    return line


def vote_what(vote, hosted, loc):
    if vote.kind == "replace":
        return t("bot.vote.what_replace", loc, name=hosted.seats[vote.target_seat].name
                 if vote.target_seat is not None else "?")
    return t("bot.vote.what_cancel", loc)


def vote_text(vote, hosted, loc):
    yes = sum(1 for u in vote.voters if vote.ballots.get(u) is True)
    no = sum(1 for u in vote.voters if vote.ballots.get(u) is False)
    need = len(vote.voters) // 2 + 1
    lines = [t("bot.vote.title", loc, proposer=f"<@{vote.proposer}>",
               what=vote_what(vote, hosted, loc)),
             t("bot.vote.count", loc, yes=yes, no=no, need=need, voters=len(vote.voters),
               names=" ".join(f"<@{u}>" for u in vote.voters))]
    if vote.status == "open":
        lines.append(t("bot.vote.ends", loc, when=f"<t:{int(vote.expires_at)}:R>"))
    else:
        lines.append(t(f"bot.vote.{vote.status}", loc, what=vote_what(vote, hosted, loc)))
    return "\n".join(lines)
