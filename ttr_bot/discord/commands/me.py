"""/ttr me …: a player's own settings, wherever they play (their language, the colours of their
own pictures)."""
from dataclasses import replace

import discord
from discord import app_commands

from ...i18n import LOCALES, t
from ...service import MAX_CLAIMS_FROM, PALETTES
from ..client_of import bot_of, service_of
from ..controls import moves
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
        bot = bot_of(interaction)
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
        bot = bot_of(interaction)
        service = service_of(interaction)
        loc = await moves.begin(interaction)
        if palette is None:
            now = await user_palette(bot, interaction.user.id)
            return await answer(interaction, t("bot.palette.now", loc,
                                               palette=t(f"bot.palette.{now}", loc)))
        await service.adapter_state.set_user_palette(interaction.user.id,
                                                     None if palette == "standard" else palette)
        await answer(interaction, t("bot.palette.done", loc,
                                    palette=t(f"bot.palette.{palette}", loc)))

    @app_commands.command(name="confirm", description=text("bot.cmd.confirm"))
    @app_commands.describe(tickets=text("bot.opt.confirm_tickets"),
                           claims=text("bot.opt.confirm_claims"))
    async def confirm(self, interaction: discord.Interaction, tickets: bool | None = None,
                      claims: app_commands.Range[int, 0, MAX_CLAIMS_FROM] | None = None):
        """Which taps ask first (service/confirm.py states the defaults and why); without an
        option, says what they are."""
        service = service_of(interaction)
        loc = await moves.begin(interaction)
        settings = await service.adapter_state.confirm_settings(interaction.user.id)
        if tickets is not None or claims is not None:
            if tickets is not None:
                settings = replace(settings, tickets=tickets)
            if claims is not None:
                settings = replace(settings, claims_from=claims)
            await service.adapter_state.set_confirm(interaction.user.id, settings)
        await answer(interaction, "\n".join(confirm_lines(settings, loc)))


def confirm_lines(settings, loc):
    return [t("bot.confirm.now_tickets_on" if settings.tickets else "bot.confirm.now_tickets_off",
              loc),
            t("bot.confirm.now_claims", loc, count=settings.claims_from)
            if settings.claims_from else t("bot.confirm.now_claims_off", loc)]
