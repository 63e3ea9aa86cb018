"""/ttr hand, board, status, rules, help, export, language: reading the game (answers are
ephemeral: only the asker sees them, and nothing private ever reaches the channel)."""
import io
import json

import discord
from discord import app_commands

from ...i18n import LOCALES, t
from ...service import ServiceError
from .. import moves
from ..errors import UserFacing, answer
from ..format import chunks, fit, own_score_line, rules_lines, status_lines, summary_lines
from ..translator import text
from .base import GroupedCog

HELP_KEYS = ("new", "join", "addbot", "start", "draw", "claim", "tickets", "keep", "tunnel",
             "station", "pass", "hand", "board", "status", "rules", "export", "language", "leave",
             "replace", "cancel")


class Info(GroupedCog):
    @app_commands.command(name="hand", description=text("bot.cmd.hand"))
    async def hand(self, interaction: discord.Interaction):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        await moves.show_hand(interaction, loc, hosted.id)

    @app_commands.command(name="board", description=text("bot.cmd.board"))
    async def board(self, interaction: discord.Interaction):
        bot = interaction.client
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        game, names = hosted.game, hosted.names()
        lines = status_lines(game, names, loc)
        png = await moves.picture(interaction, lines, loc, game, names)
        if png is None:
            lines += summary_lines(game, names, loc)
        await answer(interaction, fit("\n".join(lines)),
                     file=bot.delivery.as_file(png) if png else None)

    @app_commands.command(name="status", description=text("bot.cmd.status"))
    async def status(self, interaction: discord.Interaction):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        lines = status_lines(hosted.game, hosted.names(), loc)
        seat = hosted.seat_of(interaction.user.id)
        if seat is not None and hosted.game.phase != "setup":
            lines.append(own_score_line(hosted.game, seat, loc))
        await answer(interaction, fit("\n".join(lines)))

    @app_commands.command(name="rules", description=text("bot.cmd.rules"))
    async def rules(self, interaction: discord.Interaction):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction, started=False)
        for part in chunks(rules_lines(hosted.board, loc)):
            await answer(interaction, part)

    @app_commands.command(name="help", description=text("bot.cmd.help"))
    async def help(self, interaction: discord.Interaction):
        loc = await moves.begin(interaction)
        lines = [t("bot.help.title", loc)]
        lines += [f"`/ttr {k}` — {t(f'bot.cmd.{k}', loc)}" for k in HELP_KEYS]
        lines.append(t("bot.help.footer", loc))
        for part in chunks(lines):
            await answer(interaction, part)

    @app_commands.command(name="export", description=text("bot.cmd.export"))
    @app_commands.describe(game=text("bot.opt.game"))
    async def export(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None):
        """The record of a finished game: it reveals every card dealt, so never mid-game."""
        bot = interaction.client
        loc = await moves.begin(interaction)
        if game is None:
            game = await bot.service.last_finished_game(interaction.user.id)
            if game is None:
                raise UserFacing("bot.export.none")
        hosted = await bot.service.load(game)
        if hosted is None or hosted.guild_id != interaction.guild_id:
            raise ServiceError("service.no_game")
        if not hosted.is_finished:
            raise UserFacing("bot.export.not_finished")
        record = await bot.service.export(game)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
        file = discord.File(io.BytesIO(data), filename=f"ttr-game-{game}.json")
        await answer(interaction, t("bot.export.done", loc, game=game), file=file)

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
