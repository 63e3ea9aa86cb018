"""The living hand message: one DM per player per game, edited in place as their hand changes
(cards, tickets, trains, their private board picture, and the buttons of whatever they have
to do now), so a change costs no notification. A new DM (which notifies) is sent only when the
player has something to do or to know: the start (their ticket choice), their turn if they
asked for DMs, a ticket offer, the end; the previous one is then deleted, so there is still
one. A tunnel reveal is an edit: the player is at the table deciding it. Votes, reminders and
closures are short DMs of their own (notices.py).

The renderer of `HandUpdate` rows. A player whose DMs are closed (403 50007) is told once in
the channel and served through "My hand" there; a new game tries their DMs again.
"""
import logging

import discord

from ...i18n import t
from ...service import HandUpdate
from ..controls.moves import panel_for  # the same panel the channel's buttons lead to
from ..palettes import seat_palette
from ..text.card_text import since_lines
from ..text.format import fit, hand_lines
from ..text.private_alt import private_board_alt

log = logging.getLogger(__name__)
WHY_ORDER = (None, "turn", "tunnel", "offer", "start", "end")   # the later, the stronger


def _notifying(why):
    """A tunnel reveal edits the hand in place: the player is deciding in the channel at that
    moment (or it was decided for them), so a new DM would only notify them of what they see."""
    return None if why == "tunnel" else why


def hand_kind(user_id):
    return f"hand:{user_id}"


class HandPosts:
    def __init__(self, delivery):
        self.d = delivery
        self.bot = delivery.bot
        delivery.on(HandUpdate, self.deliver)

    async def deliver(self, row, merged=(), **_):
        """`row` and the hand rows folded into it (same game and player): one edit, or one new
        DM if any of them has a reason for one."""
        rows = (*merged, row)
        why = max((_notifying(r.message.why) for r in rows), key=WHY_ORDER.index)
        user, seat = row.message.user, row.message.seat
        service = self.d.service
        hosted = await service.load(row.game_id)
        if hosted is None or not hosted.started or hosted.seats[seat].user_id != user:
            return      # gone, or the player left the seat meanwhile
        game = hosted.game
        if why == "turn" and row.lane.is_later and seat not in game.to_move():
            why = None  # held through their quiet hours, and no longer their turn
        fresh = why == "start"
        was_closed = await service.adapter_state.dms_closed(user)
        if was_closed and not fresh:
            return
        loc = await self.bot.locale_for_user(user)
        content, view, png = await self._hand_content(hosted, seat, why, loc)
        alt = private_board_alt(hosted.game, seat, loc)
        ref = await service.adapter_state.posted_message(hosted.id, hand_kind(user))
        try:
            if why is None and ref is not None:
                try:
                    message = self.d.channel(ref.channel_id).get_partial_message(ref.message_id)
                    await message.edit(
                        content=content, view=view,
                        attachments=[self.d.as_file(png, description=alt)] if png else [])
                    return
                except discord.NotFound:
                    pass        # deleted: a new one
            channel = await self.bot.create_dm(discord.Object(user))
            kwargs = {"file": self.d.as_file(png, description=alt)} if png else {}
            msg = await channel.send(content, view=view or discord.utils.MISSING,
                                     allowed_mentions=discord.AllowedMentions.none(),
                                     nonce=f"ttr{row.id}", silent=why is None, **kwargs)
        except discord.Forbidden as exc:    # 50007: DMs closed (or the user blocked us)
            log.info("DM to user %s refused (%s)", user, exc.code)
            await service.adapter_state.set_dms_closed(user, True)
            if fresh or not was_closed:
                await service.queue.tell_dms_closed(hosted.id, user)
            return
        await service.adapter_state.remember_message(hosted.id, hand_kind(user), channel.id, msg.id)
        if fresh and was_closed:
            await service.adapter_state.set_dms_closed(user, False)
        if ref is not None and ref.message_id != msg.id:
            try:
                await self.d.channel(ref.channel_id).get_partial_message(ref.message_id).delete()
            except discord.HTTPException as exc:
                log.info("could not delete the old hand message %s: %s", ref.message_id, exc)

    async def _hand_content(self, hosted, seat, why, loc):
        game = hosted.game
        v = hosted.view(seat)
        lines = []
        if why == "end":
            players, winners = game.scores()
            place = 1 + sum(1 for pl in players if pl["total"] > players[seat]["total"])
            lines.append(t("bot.hand.end", loc, channel=f"<#{hosted.channel_id}>", place=place,
                           count=players[seat]["total"]))
        elif why == "turn":
            lines.append(t("bot.hand.your_turn", loc, channel=f"<#{hosted.channel_id}>"))
            since = await self.d.service.since.since_last_turn(hosted.id, seat)
            if since is not None:       # what the others did meanwhile, as the card says it
                lines += since_lines(since, game.board, hosted.names(), loc, None,
                                     trains=game.trains)
        lines += hand_lines(v, loc, channel_id=hosted.channel_id)
        view = None
        if not game.over:
            _, view = panel_for(hosted, seat, loc)
        png = await self.d.render(game, hosted.names(), viewer=seat, locale=loc,
                                  palette=await seat_palette(self.bot, hosted, seat))
        return fit("\n".join(lines)), view, png
