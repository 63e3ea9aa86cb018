"""/ttr me …: a player's own settings, wherever they play (their language, the colours of their
own pictures)."""
import discord
from discord import app_commands

from ...i18n import LOCALES, t
from ...service import PALETTES
from .. import moves
from ..errors import answer
from ..palettes import user_palette
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

    @app_commands.command(name="colours", description=text("bot.cmd.colours"))
    @app_commands.describe(palette=text("bot.opt.palette"))
    @app_commands.choices(palette=[
        app_commands.Choice(name=text(f"bot.palette.{p}"), value=p) for p in PALETTES])
    async def colours(self, interaction: discord.Interaction, palette: str | None = None):
        """The colours of the player's own pictures (palettes.py); without a choice, says
        which they are."""
        bot = interaction.client
        loc = await moves.begin(interaction)
        if palette is None:
            now = await user_palette(bot, interaction.user.id)
            return await answer(interaction, t("bot.palette.now", loc,
                                               palette=t(f"bot.palette.{now}", loc)))
        await bot.service.adapter_state.set_user_palette(interaction.user.id,
                                                         None if palette == "standard" else palette)
        await answer(interaction, t("bot.palette.done", loc,
                                    palette=t(f"bot.palette.{palette}", loc)))
