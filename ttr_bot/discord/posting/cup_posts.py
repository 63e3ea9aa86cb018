"""A cup's posts (service/cup_messages.py), sent by the outbox worker through `Delivery`: the
cup's one post, edited in place (sign-up with Join / Withdraw, then the standings); a round's
table opened in a thread of its own under the cup's channel, its players pinged there; the final
post with the standings as text and a picture, the winner pinged."""
import logging

import discord

from ...i18n import normalize, t
from ...render.cup_card import cup_alt, render_cup
from ...service.cup_messages import CupFinal, CupPost, CupTableOpen
from ..controls.components import cup_view
from ..text.format import fit

log = logging.getLogger(__name__)
TOP_LINES = 10      # players the post lists (the final post: all, up to the picture's rows)


def cup_text(cup, loc, *, lines=TOP_LINES):
    s = cup.settings
    head = [t("bot.cup.title", loc, name=cup.name),
            t("bot.cup.settings", loc, maps=", ".join(t(f"bot.map.{m}", loc) for m in s.maps)
              + ("" if s.variant == "base" else f" ({t(f'bot.variant.{s.variant}', loc)})"),
              seats=s.seats, rounds=s.rounds, deadline=s.deadline)]
    if cup.status == "signup":
        head.append(t("bot.cup.signup", loc, when=f"<t:{int(s.signup_close)}:R>",
                      count=len(cup.players)))
        head += [f"• {p['name']}" for p in cup.players[:lines]]
        return "\n".join(head)
    key = {"running": "bot.cup.running", "finished": "bot.cup.finished",
           "cancelled": "bot.cup.cancelled"}[cup.status]
    head.append(t(key, loc, round=cup.round, rounds=s.rounds,
                  when=f"<t:{int(cup.rounds[-1]['ends_at'])}:R>" if cup.rounds else ""))
    for rnd in cup.rounds[-1:]:
        for tb in rnd["tables"]:
            if tb.get("channel"):
                head.append(t("bot.cup.table", loc, table=tb["no"], channel=f"<#{tb['channel']}>"))
    head += [standing_line(x, loc) for x in cup.standings[:lines]]
    return "\n".join(head)


def standing_line(x, loc):
    line = t("bot.cup.line", loc, place=x.rank, name=x.name, points=x.points,
             opponents=x.opponents, score=x.score)
    return line + (" " + t("bot.cup.withdrawn", loc) if x.withdrawn else "")


class CupPosts:
    def __init__(self, delivery):
        self.d = delivery
        delivery.on(CupPost, self.post)
        delivery.on(CupTableOpen, self.open_table)
        delivery.on(CupFinal, self.final)

    @property
    def cups(self):
        return self.d.service.cups

    async def locale(self, cup):
        chosen = await self.d.service.adapter_state.server_locale(cup.guild_id)
        if chosen:
            return chosen
        guild = self.d.bot.get_guild(cup.guild_id)
        return normalize(str(guild.preferred_locale)) if guild else "en"

    async def post(self, row, **_):
        cup = await self.cups.get(row.message.cup)
        if cup is None:
            return
        loc = await self.locale(cup)
        content = fit(cup_text(cup, loc))
        view = cup_view(cup.id, loc) if cup.status == "signup" else None
        if cup.message_id is not None:
            message = self.d.channel(cup.channel_id).get_partial_message(cup.message_id)
            try:
                await message.edit(content=content, view=view)
                return
            except discord.NotFound:
                await self.cups.posted(cup.id, None)
        kwargs = {"view": view} if view is not None else {}
        sent = await self.d.send(cup.channel_id, content, row=row, **kwargs)
        await self.cups.posted(cup.id, sent.id)

    async def open_table(self, row, **_):
        m = row.message
        cup = await self.cups.get(m.cup)
        if cup is None or cup.status != "running" or cup.round != m.round:
            return
        table = cup.rounds[-1]["tables"][m.table - 1]
        loc = await self.locale(cup)
        thread_id = table.get("channel")
        if thread_id is None:
            thread_id = await self.table_thread(cup, m, loc)
        hosted = await self.cups.open_table(m.cup, m.round, m.table, thread_id)
        if hosted is None:
            return
        pings = " ".join(f"<@{u}>" for u in m.players)
        await self.d.send(hosted.channel_id, t("bot.cup.table_open", loc, name=cup.name,
                                               round=m.round, players=pings or "—"),
                          row=row, allowed_mentions=discord.AllowedMentions(
                              users=[discord.Object(u) for u in m.players]))

    async def table_thread(self, cup, m, loc):
        """The table's thread, made once: kept with the table as soon as Discord made it, so a
        retry of this row opens the game there; one made by a try that failed before it was
        kept (its answer lost) is found by its name among the channel's threads."""
        channel = self.d.bot.get_channel(cup.channel_id) or \
            await self.d.bot.fetch_channel(cup.channel_id)
        name = t("bot.cup.thread", loc, name=cup.name, round=m.round, table=m.table)[:100]
        me = self.d.bot.user.id if self.d.bot.user else None
        thread = next((th for th in getattr(channel, "threads", ())
                       if th.name == name and th.owner_id == me), None)
        if thread is None:
            thread = await channel.create_thread(name=name,
                                                 type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        await self.cups.table_thread(m.cup, m.round, m.table, thread.id)
        return thread.id

    async def final(self, row, **_):
        cup = await self.cups.get(row.message.cup)
        if cup is None:
            return
        loc = await self.locale(cup)
        png = await self.d.bot.pictures.workers.run(render_cup, cup.name, cup.standings, loc,
                                                    timeout=60)
        winners = [x.id for x in cup.standings if x.rank == 1 and x.id > 0]
        lines = [t("bot.cup.final", loc, name=cup.name,
                   winner=" ".join(f"<@{u}>" for u in winners) or
                   ", ".join(x.name for x in cup.standings if x.rank == 1))]
        lines += [standing_line(x, loc) for x in cup.standings[:30]]
        file = self.d.as_file(png, "cup.png", cup_alt(cup.name, cup.standings, loc))
        await self.d.send(cup.channel_id, "\n".join(lines), row=row, file=file,
                          allowed_mentions=discord.AllowedMentions(
                              users=[discord.Object(u) for u in winners]))
