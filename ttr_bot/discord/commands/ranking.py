"""/ttr server stats and /ttr server leaderboard: a player's statistics as a picture (with
the text when the picture cannot be drawn), and this server's players ranked by rating, a page at a time with
buttons that keep working after a restart. Answers are private, like the other reading
commands."""
import io
import logging

import discord
from discord import app_commands

from ...service import playable_maps
from ...stats import stats_lines
from ..client_of import bot_of
from ..controls import components
from ..controls.clicks import on_click
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..text.card_text import lines_alt
from ..text.leaderboard_text import leaderboard_text
from ..translator import text
from .base import GroupedCog
from .lobby import player_name

log = logging.getLogger(__name__)
MAPS = tuple(m for m, _ in playable_maps())
MAP_CHOICES = [app_commands.Choice(name=text(f"bot.map.{m}"), value=m) for m in MAPS]


async def stats_picture(workers, stats, loc):
    """PNG bytes of the stats picture, drawn in one of `workers`; None if drawing failed."""
    from ...render.stats_card import render_stats  # Pillow: not needed at start-up
    try:
        return await workers.run(render_stats, stats, loc, timeout=60, first=True)
    except Exception:
        log.exception("drawing the statistics of user %s failed", stats.user_id)
        return None


async def show_stats(interaction, user, map_id, everywhere):
    bot = bot_of(interaction)
    loc = await begin(interaction)
    who = user or interaction.user
    if who.bot:
        raise UserFacing("bot.stats.bot_user")
    stats = await bot.service.records.stats(interaction.guild_id, who.id, name=player_name(who),
                                            map_id=map_id, everywhere=everywhere)
    lines = stats_lines(stats, loc)
    png = await stats_picture(bot.workers, stats, loc)
    if png is None:
        await answer(interaction, "\n".join(lines))
    else:
        await answer(interaction, lines[0],
                     file=discord.File(io.BytesIO(png), filename="stats.png",
                                       description=lines_alt(lines)))


async def leaderboard_page(interaction, loc, page, map_id):
    """(text, view) of a page of this server's leaderboard."""
    board = await bot_of(interaction).service.records.leaderboard(interaction.guild_id, page,
                                                                  map_id=map_id)
    return (leaderboard_text(board, loc),
            components.leaderboard_view(interaction.guild_id, board.page, board.pages, map_id,
                                        loc))


@on_click("ranks")
async def _ranks_page(interaction, item):
    """Another page: the message is edited in place."""
    if not interaction.response.is_done():
        await interaction.response.defer()          # a component: the update comes later
    loc = await bot_of(interaction).user_locale(interaction)
    content, view = await leaderboard_page(interaction, loc, item.page,
                                           None if item.map_id == "-" else item.map_id)
    await interaction.edit_original_response(content=content, view=view)


class Ranking(GroupedCog):
    GROUP = "server"

    @app_commands.command(name="stats", description=text("bot.cmd.stats"))
    @app_commands.describe(user=text("bot.opt.user"), map=text("bot.opt.only_map"),
                           scope=text("bot.opt.scope"))
    @app_commands.choices(map=MAP_CHOICES, scope=[
        app_commands.Choice(name=text("bot.choice.server"), value="server"),
        app_commands.Choice(name=text("bot.choice.everywhere"), value="everywhere")])
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    map: str | None = None, scope: str = "server"):
        await show_stats(interaction, user, map, scope == "everywhere")

    @app_commands.command(name="leaderboard", description=text("bot.cmd.leaderboard"))
    @app_commands.describe(map=text("bot.opt.only_map"))
    @app_commands.choices(map=MAP_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, map: str | None = None):
        loc = await begin(interaction)
        content, view = await leaderboard_page(interaction, loc, 1, map)
        await answer(interaction, content, view=view)

