"""A server's community posts (their renderer, registered with Delivery by message type): the
end of a season and the live board. Like every owed post they come from the outbox worker;
what they raise decides whether the row is retried, reported or given up.

The board is one message edited in place: an edit of a message that is gone (404 Unknown
Message) posts a new one and remembers it. A refusal of the board's channel is reported to the
member who set it up once (service.board.refused), then raised to the worker, which blocks the
destination and retries it with backoff as for any channel (refusals.py). A deleted channel
turns the board off.

A season's end: the standings as text (one line per player), the podium as a picture (drawn in
a worker process, with alt text), and the champion's role passed on where the server named one
and the bot may manage it (Manage Roles, and the role below the bot's highest); else one
sentence says why it could not.
"""
import io
import logging
from typing import Any

import discord

from ...i18n import LOCALES, normalize, t
from ...service import BoardPost, SeasonEndPost
from ..controls import components
from ..text.card_text import lines_alt
from ..text.community_text import board_text, join_label, lobby_items, season_line, season_title
from ..text.format import chunks
from .refusals import REFUSED

log = logging.getLogger(__name__)
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003
BOARD_NEEDS = ("view_channel", "send_messages", "read_message_history")


def board_missing(outbox, channel_id):
    """The permissions the board lacks in that channel (of those it needs: no files)."""
    missing = [m for m in outbox.missing_permissions(channel_id) if m in BOARD_NEEDS]
    return missing or ["send_messages"]


async def season_picture(workers, title, lines, loc):
    """PNG bytes of a season's podium and standings, drawn in one of `workers`; None if
    drawing failed (the text goes out alone)."""
    from ...render.season_card import render_season  # Pillow: not needed at start-up
    plain = [(x.rank, x.name, x.points, x.games, x.wins) for x in lines]
    try:
        return await workers.run(render_season, title, plain, loc, timeout=60, first=True)
    except Exception:
        log.exception("drawing the podium of a season failed")
        return None


class CommunityPosts:
    def __init__(self, delivery):
        self.delivery = delivery
        self.bot = delivery.bot
        delivery.on(SeasonEndPost, self.season_end)
        delivery.on(BoardPost, self.board)

    async def locale(self, guild_id):
        """A server's public language: its /ttr server language, else its Discord locale."""
        chosen = await self.bot.service.adapter_state.server_locale(guild_id)
        if chosen in LOCALES:
            return chosen
        guild = self.bot.get_guild(guild_id)
        return normalize(str(guild.preferred_locale)) if guild else "en"

    # ----- the live board -----------------------------------------------------------------------
    async def board(self, row, **_):
        post, service = row.message, self.bot.service
        channel_id = row.lane.channel_id
        board = await service.board.board(post.guild)
        if board is None or board.channel_id != channel_id:
            return                      # turned off or moved since: nothing to show here
        loc = await self.locale(post.guild)
        content = board_text(post.sections, loc)
        view = components.board_view([(g["game"], join_label(g["game"], loc))
                                      for g in lobby_items(post.sections)])
        try:
            message = await self._edit_or_post(row, board.message_id, channel_id, content, view)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL:
                raise
            log.info("the board's channel %s is gone: no board in server %s", channel_id,
                     post.guild)
            await service.board.stop(post.guild)
            return
        except discord.HTTPException as exc:
            if exc.code in REFUSED:
                missing = board_missing(self.bot.outbox, channel_id)
                await service.board.refused(post.guild, channel_id, missing)
            raise
        await service.board.posted(post.guild, channel_id, message.id)

    async def _edit_or_post(self, row, message_id, channel_id, content, view):
        kwargs = {"allowed_mentions": discord.AllowedMentions.none()}
        if message_id is not None:
            try:
                message = await self.delivery.channel(channel_id).get_partial_message(
                    message_id).edit(content=content, view=view, **kwargs)
                return self.delivery.counted(message)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE:
                    raise
                log.info("the board in channel %s was deleted: posting it again", channel_id)
        if view is not None:
            kwargs["view"] = view
        return await self.delivery.send(channel_id, content, row=row, **kwargs)

    # ----- a season's end -----------------------------------------------------------------------
    async def season_end(self, row, **_):
        post = row.message
        loc = await self.locale(post.guild)
        champion = post.lines[0] if post.lines else None
        title = season_title(post.season, loc)
        lines = [t("bot.season.ended", loc, season=title,
                   champion=f"<@{champion.user_id}>" if champion else "—")]
        lines += [season_line(line, loc) for line in post.lines]
        if post.role is not None and champion is not None:
            lines.append(await self.pass_role(post, champion.user_id, loc))
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(champion.user_id)]
            if champion else False)}
        png = await season_picture(self.bot.workers, title, post.lines, loc)
        if png is not None:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="season.png",
                                          description=lines_alt(lines[:6]))
        # a large server's season takes several messages: the picture with the first
        parts = chunks(lines)
        await self.delivery.send(row.lane.channel_id, parts[0], row=row, **kwargs)
        for i, part in enumerate(parts[1:], 1):
            await self.delivery.send(row.lane.channel_id, part, row=row, part=i,
                                     allowed_mentions=discord.AllowedMentions.none())

    async def pass_role(self, post, champion_id, loc):
        """Give the champion the server's role (taken from last season's champion first);
        the sentence saying so, or why the bot may not."""
        guild = self.bot.get_guild(post.guild)
        role = guild.get_role(post.role) if guild is not None else None
        me = guild.me if guild is not None else None
        if role is None or me is None:
            return t("bot.season.role_gone", loc)
        if not me.guild_permissions.manage_roles or role >= me.top_role or role.managed:
            return t("bot.season.role_cannot", loc, role=role.mention)
        reason = f"Ticket to Ride: champion of {post.season}"
        if post.previous is not None and post.previous != champion_id:
            try:
                await self.bot.http.remove_role(post.guild, post.previous, post.role,
                                                reason=reason)
            except discord.NotFound:    # last season's champion left the server
                pass
        try:
            await self.bot.http.add_role(post.guild, champion_id, post.role, reason=reason)
        except (discord.NotFound, discord.Forbidden):    # left meanwhile; refused after all
            return t("bot.season.role_cannot", loc, role=role.mention)
        return t("bot.season.role_given", loc, role=role.mention, champion=f"<@{champion_id}>")
