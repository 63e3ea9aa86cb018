"""/ttr server language: the language this server's new games are played in (their public posts
and board), for members with Manage Server. A host can still choose another with
/ttr new language:; games already open keep theirs."""
import discord
from discord import app_commands

from ...i18n import LOCALES, t
from ..client_of import guild_of, service_of
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..translator import text
from .base import GroupedCog, is_admin
from .lobby import game_language


class Server(GroupedCog):
    GROUP = "server"

    @app_commands.command(name="language", description=text("bot.cmd.server_language"))
    @app_commands.describe(language=text("bot.opt.server_language"))
    @app_commands.choices(language=[
        app_commands.Choice(name=text(f"bot.lang.{code}"), value=code) for code in LOCALES
    ] + [app_commands.Choice(name=text("bot.lang.server_auto"), value="auto")])
    async def language(self, interaction: discord.Interaction, language: str | None = None):
        """Without a language: say which one new games get, and why."""
        service = service_of(interaction)
        loc = await begin(interaction)
        if language is not None:
            if not is_admin(interaction):
                raise UserFacing("bot.server.language_admin")
            await service.adapter_state.set_server_locale(guild_of(interaction),
                                                          None if language == "auto" else language)
        chosen = await service.adapter_state.server_locale(guild_of(interaction))
        now = await game_language(interaction)
        key = "bot.server.language_set" if chosen else "bot.server.language_auto"
        await answer(interaction, t(key, loc, language=t(f"bot.lang.{now}", loc)))
