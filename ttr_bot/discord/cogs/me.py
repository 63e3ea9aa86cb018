"""/ttr me …: a player's own settings, wherever they play (their language)."""
import discord
from discord import app_commands

from ...i18n import LOCALES, t
from .. import moves
from ..errors import answer
from ..translator import text
from .base import GroupedCog


class Me(GroupedCog):
    GROUP = "me"

    @app_commands.command(name="language", description=text("bot.cmd.language"))
    @app_commands.describe(language=text("bot.opt.language"))
    @app_commands.choices(language=[
        app_commands.Choice(name=text(f"bot.lang.{code}"), value=code) for code in LOCALES
    ] + [app_commands.Choice(name=text("bot.lang.auto"), value="auto")])
    async def language(self, interaction: discord.Interaction, language: str):
        bot = interaction.client
        await moves.begin(interaction)
        await bot.set_user_locale(interaction.user.id, None if language == "auto" else language)
        loc = await bot.user_locale(interaction)
        await answer(interaction, t("bot.language.done", loc, language=t(f"bot.lang.{language}", loc)))
