"""/ttr hand, board, status, rules, help, export, language: reading the game (answers are
ephemeral: only the asker sees them, and nothing private ever reaches the channel)."""

import discord
from discord import app_commands

from ...i18n import t
from ...ratings import rules_lines as rules_of_rating
from .. import moves
from ..card_text import board_alt
from ..errors import answer
from ..format import chunks, fit, own_score_line, rules_lines, status_lines, summary_lines
from ..translator import text
from .base import GroupedCog

MAX_OPTION_INT = 2 ** 53 - 1     # the largest integer a Discord option carries


# what /ttr help lists, in this order; a command's description is bot.cmd.<its last word>
HELP_KEYS = ("new", "join", "addbot", "remove", "start", "draw", "claim", "tickets", "keep",
             "tunnel", "station", "pass", "hand", "status", "rules", "games", "vote",
             "return", "leave", "replace", "cancel", "me language", "me notify", "me away",
             "server stats", "server leaderboard", "server history", "server replay",
             "server export")


class Info(GroupedCog):
    @app_commands.command(name="hand", description=text("bot.cmd.hand"))
    async def hand(self, interaction: discord.Interaction):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        await moves.show_hand(interaction, loc, hosted.id)

    @app_commands.command(name="status", description=text("bot.cmd.status"))
    async def status(self, interaction: discord.Interaction):
        """Whose turn, the scores, your own score so far, and the board picture (the board has no
        command of its own: Discord allows 25 subcommands under /ttr)."""
        bot = interaction.client
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        game, names = hosted.game, hosted.names()
        lines = status_lines(game, names, loc)
        seat = hosted.seat_of(interaction.user.id)
        if seat is not None and game.phase != "setup":
            lines.append(own_score_line(game, seat, loc))
        png = await moves.picture(interaction, lines, loc, game, names)
        if png is None:
            lines += summary_lines(game, names, loc)
        await answer(interaction, fit("\n".join(lines)),
                     file=bot.delivery.as_file(png, description=board_alt(game, names, loc))
                     if png else None)

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
        lines += [f"`/ttr {k}` — {t('bot.cmd.' + k.split()[-1], loc)}" for k in HELP_KEYS]
        lines.append(t("bot.help.footer", loc))
        lines.append("")
        lines += rules_of_rating(loc)      # how games are rated (ratings.py)
        for part in chunks(lines):
            await answer(interaction, part)
