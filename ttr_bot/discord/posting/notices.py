"""Short posts and DMs: a notice in the game's channel (`Notice`: someone's DMs are closed, a
member left...), a reminder that it is someone's turn (`Reminder`: in the channel, or by DM),
and a short DM of its own (`DirectMessage`). A DM refused (403, 50007: DMs closed) is logged
and dropped: there is nothing more to do for it."""
from __future__ import annotations

import logging
from typing import Any

import discord

from ...i18n import t
from ...service import DirectMessage, Notice, OwedMessage, Reminder
from ..controls import components
from ..text.format import fit
from .delivery import NO_MENTIONS, Delivery, game_of, mention_only, message_of, nonce

log = logging.getLogger(__name__)


class Notices:
    def __init__(self, delivery: Delivery) -> None:
        self.d = delivery
        delivery.on(Notice, self.notice)
        delivery.on(Reminder, self.reminder)
        delivery.on(DirectMessage, self.dm)

    async def notice(self, row: OwedMessage, **_: object) -> None:
        d = self.d
        p = message_of(row, Notice)
        hosted = await d.service.load(game_of(row))
        if hosted is None:
            return
        loc = d.public_locale(hosted)
        kwargs: dict[str, Any] = {"allowed_mentions": mention_only(*p.ping)}
        if p.key == "bot.dm.closed":     # their hand comes through "My hand" instead
            kwargs["view"] = components.hand_view(hosted.id, loc)
        await d.send(hosted.channel_id, t(p.key, loc, **p.params), row=row, **kwargs)

    async def reminder(self, row: OwedMessage, **_: object) -> None:
        d = self.d
        p = message_of(row, Reminder)
        hosted = await d.service.load(game_of(row))
        if hosted is None or not hosted.is_active or \
                not d.service.absence.reminder_still_due(hosted, p):
            return      # they have moved since it was owed
        user = p.user
        guild = p.guild or hosted.guild_id
        if guild is not None and not await d.is_member(guild, user):
            await d.service.absence.member_left(guild, user)
            return
        if row.lane.is_channel:
            loc = d.public_locale(hosted)
            lines = [t("bot.remind.channel", loc, mention=f"<@{user}>")]
            if p.deadline:
                lines.append(t("bot.turn.deadline", loc, when=f"<t:{int(p.deadline)}:R>",
                               at=f"<t:{int(p.deadline)}:f>"))
            await d.send(hosted.channel_id, "\n".join(lines), row=row,
                         allowed_mentions=mention_only(user))
        else:
            await self.dm(row)

    async def dm(self, row: OwedMessage, **_: object) -> None:
        p = row.message       # a DirectMessage, or a Reminder by DM (with its key)
        if not isinstance(p, (DirectMessage, Reminder)):
            raise TypeError(f"outbox row {row.id} holds {type(p).__name__}, not a DM")
        user = row.lane.user_id
        bot = self.d.bot
        loc = await bot.locale_for_user(user)
        params = dict(p.params)
        if isinstance(params.get("missing"), list):     # permission names, in their language
            params["missing"] = ", ".join(t(f"bot.perm.{m}", loc) for m in params["missing"])
        try:
            channel = await bot.create_dm(discord.Object(user))
            await channel.send(fit(t(p.key, loc, **params)), nonce=nonce(row),
                               allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as exc:     # 50007: DMs closed; nothing more to do for it
            log.info("DM to user %s refused (%s)", user, exc.code)
