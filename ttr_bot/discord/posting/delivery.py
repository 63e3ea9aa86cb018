"""Owed messages -> Discord: the plumbing every renderer shares, and the registry from a
message's type to its renderer. The outbox worker (outbox_worker.py) hands each owed row here
(the service's `OwedMessage`: its `Lane` and one typed message of service/messages.py, read by
attribute); `handle` calls the renderer registered for the message's class (`on`, as the
service's features register their timer kinds with the scheduler); whatever it raises decides
whether the row is retried, reported or given up (the worker's business).

The renderers, one module per kind of post (renderers.py lists them), build their text from
the rows' public events only (the service already moved hidden parts out) and send through
here: `send` and `send_card` post, `render` draws, `take_buttons_off` and `replace_panel`
keep only the latest turn card live, `update_lobby` edits the lobby message.

Channel posts carry a nonce made from the outbox row (`ttr<id>`, `ttr<id>.<part>`) with
discord.py's enforce_nonce, so a post retried after a crash between Discord taking it and the
row being marked sent returns the first copy instead of a second one. Discord keeps nonces for
a few minutes only: a row older than that is first looked for in the channel's recent history.
"""
from __future__ import annotations

import contextvars
import io
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timezone
from typing import Any, TypeVar

import discord

from ...bounded import KeyedLocks, LRUDict
from ...i18n import LOCALES, normalize
from ...service import CANCELLED, GAME_LANGUAGE, GameService, OwedMessage
from ..controls import components
from ..text.format import fit, lobby_lines
from ..text.settings_text import settings_line
from . import turn_card

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
NONCE_WINDOW = 120.0    # seconds we trust Discord to remember a nonce ("a few minutes")
HISTORY_LOOKBACK = 50   # messages read back when a late post may already be there
CARDS_REMEMBERED = 2000  # posted cards kept (text only) to take their buttons off without a read

M = TypeVar("M")

# what renders one owed row: (row, parts=held rows it completes, merged=rows folded into it)
Renderer = Callable[..., Awaitable[None]]

# the channel posts Discord took while one row was handled (None: outside `handle`)
_posted: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "ttr_posted", default=None)


def mention_only(*user_ids: int | None) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids if u])


def message_of(row: OwedMessage, kind: type[M]) -> M:
    """The row's message as the kind its renderer was registered for (`handle` picks the
    renderer by the message's class, so anything else is a bug)."""
    message = row.message
    if not isinstance(message, kind):
        raise TypeError(f"outbox row {row.id} holds {type(message).__name__}, "
                        f"not {kind.__name__}")
    return message


def game_of(row: OwedMessage) -> int:
    """The game a game's post is about (every kind but a server's or a user's own has one)."""
    if row.game_id is None:
        raise ValueError(f"outbox row {row.id} ({row.kind}) names no game")
    return row.game_id


def nonce(row: OwedMessage, part: int | str | None = None) -> str:
    return f"ttr{row.id}" if part is None else f"ttr{row.id}.{part}"


class Delivery:
    def __init__(self, bot: Any, clock: Callable[[], float] | None = None,
                 renderers: Iterable[Callable[[Delivery], object]] = ()) -> None:
        self.bot = bot
        self.clock = clock or bot.clock
        self._lobby_locks = KeyedLocks()         # game id: one lobby message edit at a time
        self._cards = LRUDict(CARDS_REMEMBERED)  # message id -> its Card (no picture bytes)
        self._renderers: dict[type, Renderer] = {}
        for make in renderers:      # each registers the message types it renders (`on`)
            make(self)

    # ----- the registry ------------------------------------------------------------------------
    def on(self, kind: type, renderer: Renderer) -> None:
        """`renderer` delivers the owed messages of class `kind`. A kind has one renderer:
        registering it twice is an error."""
        if kind in self._renderers:
            raise ValueError(f"{kind.__name__} already has a renderer")
        self._renderers[kind] = renderer

    @property
    def kinds(self) -> frozenset[type]:
        """The message types a renderer is registered for."""
        return frozenset(self._renderers)

    async def handle(self, row: OwedMessage, parts: Iterable[OwedMessage] = (),
                     merged: Iterable[OwedMessage] = ()) -> int:
        """Deliver one owed row (`parts`: held rows it completes; `merged`: rows of the same
        kind folded into it). Returns how many channel posts Discord took for it: none when
        what it was about is no longer so (a reminder after the move, a game gone), which says
        nothing about whether the channel takes posts again."""
        renderer = self._renderers.get(type(row.message))
        if renderer is None:     # messages.Unreadable (the worker gives those up before)
            raise ValueError(f"outbox row {row.id} cannot be read: {row.message!r}")
        token = _posted.set([])
        try:
            await renderer(row, parts=parts, merged=merged)
            return len(_posted.get() or ())
        finally:
            _posted.reset(token)

    # ----- plumbing ------------------------------------------------------------------------------
    @staticmethod
    def counted(message: discord.Message) -> discord.Message:
        """A message Discord took (an edit too) while a row was handled: it counts as a post."""
        return _took(message)

    @property
    def service(self) -> GameService:
        return self.bot.service

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    def public_locale(self, hosted: Any) -> str:
        """The language of the game's public posts and board: the one chosen when it was opened
        (`language`, lobby.game_language); a game opened before that option existed follows
        the server's Discord locale as it always did."""
        chosen = (getattr(hosted, "options", None) or {}).get(GAME_LANGUAGE)
        if chosen in LOCALES:
            return chosen
        guild = self.bot.get_guild(hosted.guild_id) if hosted.guild_id else None
        return normalize(str(guild.preferred_locale)) if guild else "en"

    async def render(self, game: Any, names: Any, viewer: int | None = None,
                     locale: str = "en", final: bool = False,
                     palette: str = "standard") -> bytes | None:
        """PNG bytes of the board, drawn off the event loop and reused while the state is the
        same (pictures.py); None if drawing failed (the post then goes out with a text summary
        instead: a picture never blocks a turn)."""
        return await self.bot.pictures.render(game, names, viewer=viewer, locale=locale,
                                              final=final, palette=palette)

    @staticmethod
    def as_file(png: bytes, name: str = "board.png",
                description: str | None = None) -> discord.File:
        """A picture as an attachment; `description`: its alt text (1,024 characters at most)."""
        if description:
            return discord.File(io.BytesIO(png), filename=name, description=description[:1024])
        return discord.File(io.BytesIO(png), filename=name)

    async def is_member(self, guild_id: int | None, user_id: int) -> bool:
        """False only when Discord says the user is not in the server (10007 Unknown Member;
        a game of no server, `guild_id` None, asks nothing: True);
        without the privileged members intent this lookup is how the bot learns it
        (membership.py; a confirmed membership is believed for a minute)."""
        return await self.bot.membership.is_member(guild_id, user_id)

    # ----- sending ----------------------------------------------------------------------------------
    async def send(self, channel_id: int, content: str, *, row: OwedMessage | None = None,
                   part: int | str | None = None, **kwargs: Any) -> discord.Message:
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

    async def send_card(self, channel_id: int, card: turn_card.Card, panel: Any = None, *,
                        row: OwedMessage | None = None, **kwargs: Any) -> discord.Message:
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

    async def take_buttons_off(self, channel_id: int, message_id: int,
                               note: str | None = None) -> None:
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

    async def _already_posted(self, channel: discord.PartialMessageable, content: str,
                              since: float) -> discord.Message | None:
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

    # ----- what several kinds of post keep up to date -------------------------------------------------
    async def replace_panel(self, game_id: int, channel_id: int,
                            message_id: int | None) -> None:
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

    async def tell_parent(self, hosted: Any, row: OwedMessage | None, text: str) -> None:
        """The channel's one line about the end of a game in a thread of its own (the result,
        or that it was cancelled), under the row's nonce."""
        parent = hosted.options.get("parent")
        if not (parent and hosted.options.get("thread")):
            return
        try:
            await self.send(parent, text, row=row, part="parent")
        except discord.HTTPException as exc:
            log.info("could not tell channel %s about the thread's game: %s", parent, exc)

    async def update_lobby(self, game_id: int, loc: str) -> None:
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


def _took(message: discord.Message) -> discord.Message:
    """A channel post Discord took (or had taken): counted for the row being handled."""
    posted = _posted.get()
    if posted is not None:
        posted.append(message.id)
    return message


def message_text(message: discord.Message) -> str:
    """The text of a Components V2 message (its TextDisplays, in order)."""
    out: list[str] = []

    def walk(items: Iterable[Any]) -> None:
        for c in items:
            if isinstance(c, discord.TextDisplay):
                out.append(c.content)
            walk(getattr(c, "children", ()) or ())

    walk(message.components)
    return "\n".join(out)
