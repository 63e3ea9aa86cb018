"""/ttr server season (this season's standings, as text and a picture), /ttr server season_set
(Manage Server: monthly, quarterly or off; where a season's end is posted; the champion's
role) and /ttr server timezone (the server's time zone, which its seasons follow). Reading
answers are private, like the other reading commands; docs/seasons.md says how a season
counts."""
import io

import discord
from discord import app_commands

from ...i18n import t
from ...service.season_calendar import PERIODS
from ..client_of import bot_of, channel_of, guild_of, service_of
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..posting.community_posts import season_picture
from ..text.card_text import lines_alt
from ..text.community_text import season_line, season_title, when
from ..translator import text
from .base import GroupedCog, is_admin
from .prefs import zone_autocomplete

SHOWN = 20          # players listed in the answer (the picture has the podium and six more)


class ServerSeason(GroupedCog):
    GROUP = "server"

    @app_commands.command(name="season", description=text("bot.cmd.season"))
    @app_commands.describe(previous=text("bot.opt.season_previous"))
    async def season(self, interaction: discord.Interaction, previous: bool = False):
        bot = bot_of(interaction)
        service = service_of(interaction)
        loc = await begin(interaction)
        table = await service.seasons.standings(guild_of(interaction), previous=previous)
        title = season_title(table.season.name, loc)
        lines = [t("bot.season.header", loc, season=title, start=when(table.season.start, "D"),
                   end=when(table.season.end - 1, "D"), zone=table.zone)]
        lines += [season_line(line, loc) for line in table.lines[:SHOWN]] or \
            [t("bot.season.empty", loc)]
        png = await season_picture(bot.workers, title, table.lines, loc)
        if png is None:
            return await answer(interaction, "\n".join(lines))
        await answer(interaction, "\n".join(lines),
                     file=discord.File(io.BytesIO(png), filename="season.png",
                                       description=lines_alt(lines[:6])))

    @app_commands.command(name="season_set", description=text("bot.cmd.season_set"))
    @app_commands.describe(period=text("bot.opt.season_period"),
                           channel=text("bot.opt.season_channel"),
                           role=text("bot.opt.season_role"))
    @app_commands.choices(period=[
        app_commands.Choice(name=text(f"bot.season.period.{p}"), value=p)
        for p in (*PERIODS, "off")])
    async def season_set(self, interaction: discord.Interaction, period: str,
                         channel: discord.TextChannel | None = None,
                         role: discord.Role | None = None):
        service = service_of(interaction)
        loc = await begin(interaction)
        if not is_admin(interaction):
            raise UserFacing("bot.season.admin")
        seasons = service.seasons
        channel_id = channel.id if channel is not None else channel_of(interaction)
        settings = await seasons.set_period(
            guild_of(interaction), None if period == "off" else period, channel_id=channel_id,
            role_id=role.id if role is not None else None, user_id=interaction.user.id)
        if settings is None:
            return await answer(interaction, t("bot.season.off_now", loc))
        table = await seasons.standings(guild_of(interaction))
        lines = [t("bot.season.set", loc, period=t(f"bot.season.period.{settings.period}", loc),
                   zone=table.zone, season=season_title(table.season.name, loc),
                   end=when(table.season.end, "F"), channel=f"<#{channel_id}>")]
        if role is not None and not may_give(interaction.guild, role):
            lines.append(t("bot.season.role_cannot", loc, role=role.mention))
        await answer(interaction, "\n".join(lines))

    @app_commands.command(name="timezone", description=text("bot.cmd.timezone"))
    @app_commands.describe(zone=text("bot.opt.server_zone"))
    @app_commands.autocomplete(zone=zone_autocomplete)
    async def timezone(self, interaction: discord.Interaction, zone: str | None = None):
        """Without a zone: say which one the server's seasons follow."""
        service = service_of(interaction)
        seasons = service.seasons
        loc = await begin(interaction)
        if zone is not None:
            if not is_admin(interaction):
                raise UserFacing("bot.season.admin")
            now = await seasons.set_timezone(guild_of(interaction), zone)
        else:
            now = await seasons.timezone(guild_of(interaction))
        await answer(interaction, t("bot.server.timezone_now", loc, zone=now))


def may_give(guild, role):
    """Whether the bot may hand this role out: Manage Roles, and the role below its highest
    (Discord's rule), and not a role an integration manages."""
    me = guild.me if guild is not None else None
    return bool(me is not None and me.guild_permissions.manage_roles and role < me.top_role
                and not role.managed)
