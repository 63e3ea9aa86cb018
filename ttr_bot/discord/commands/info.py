"""/ttr hand, board, status, rules, help, export, language: reading the game (answers are
ephemeral: only the asker sees them, and nothing private ever reaches the channel)."""

import discord
from discord import app_commands

from ...i18n import t
from ...ratings import rules_lines as rules_of_rating
from ...service import map_board, playable_maps
from ..client_of import bot_of, channel_of, service_of
from ..controls import components, moves
from ..controls.clicks import on_click
from ..errors import answer
from ..palettes import game_palette
from ..text.card_text import board_alt
from ..text.format import chunks, fit, own_score_line, status_lines, summary_lines
from ..text.rules_text import overview_lines, rules_lines
from ..translator import text
from .base import GroupedCog

MAX_OPTION_INT = 2 ** 53 - 1     # the largest integer a Discord option carries
MAPS = tuple(m for m, _ in playable_maps())


# what /ttr help lists, in this order; a command's description is bot.cmd.<its last word>
HELP_KEYS = ("new", "join", "addbot", "remove", "start", "draw", "claim", "tickets", "keep",
             "tunnel", "station", "pass", "hand", "status", "rules", "games", "vote",
             "return", "leave", "replace", "cancel", "me language", "me colours", "me notify",
             "me away", "me confirm", "server stats", "server leaderboard", "server history", "server replay",
             "server export", "server language", "server season", "server season_set",
             "server timezone", "server board")
DESCRIPTIONS = {"server language": "bot.cmd.server_language",   # two commands named "language"
                "server board": "bot.cmd.server_board"}         # ... and two named "board"


class Info(GroupedCog):
    @app_commands.command(name="hand", description=text("bot.cmd.hand"))
    async def hand(self, interaction: discord.Interaction):
        service = service_of(interaction)
        loc = await moves.begin(interaction)
        hosted = await service.game_in_channel(channel_of(interaction))
        if hosted is None:          # just after the last move: their game ended here
            over = await moves.ended_here(interaction)
            if over is not None:
                return await answer(interaction, over)
        hosted = await moves.channel_game(interaction)
        await moves.show_hand(interaction, loc, hosted.id)

    @app_commands.command(name="status", description=text("bot.cmd.status"))
    async def status(self, interaction: discord.Interaction):
        """Whose turn, the scores, your own score so far, and the board picture (the board has no
        command of its own: Discord allows 25 subcommands under /ttr)."""
        bot = bot_of(interaction)
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        game, names = hosted.game, hosted.names()
        lines = status_lines(game, names, loc)
        seat = hosted.seat_of(interaction.user.id)
        if seat is not None and game.phase != "setup":
            lines.append(own_score_line(game, seat, loc))
        palette = game_palette(hosted)
        png = await moves.picture(interaction, lines, loc, game, names, palette=palette)
        if png is None:
            lines += summary_lines(game, names, loc)
        await answer(interaction, fit("\n".join(lines)),
                     file=bot.delivery.as_file(png, description=board_alt(
                         game, names, loc, palette=palette)) if png else None)

    @app_commands.command(name="rules", description=text("bot.cmd.rules"))
    @app_commands.describe(map=text("bot.opt.rules_map"))
    @app_commands.choices(map=[app_commands.Choice(name=text(f"bot.map.{m}"), value=m)
                               for m in MAPS])
    async def rules(self, interaction: discord.Interaction, map: str | None = None):
        """How to play, then the map's differences: the map asked for, else this channel's
        game's (a lobby's too); where there is neither, every map in one line."""
        service = service_of(interaction)
        loc = await moves.begin(interaction)
        if map is not None:
            lines = rules_lines(map_board(map), loc)
        else:
            hosted = await service.game_in_channel(channel_of(interaction))
            lines = (rules_lines(hosted.board, loc) if hosted is not None else
                     overview_lines([(m, map_board(m), vs) for m, vs in playable_maps()], loc))
        for part in chunks(lines):
            await answer(interaction, part)

    @app_commands.command(name="help", description=text("bot.cmd.help"))
    async def help(self, interaction: discord.Interaction):
        """One phone screen: what to do on a turn, the buttons named; the full command list
        and the rating rules are one click further."""
        loc = await moves.begin(interaction)
        await answer(interaction, "\n".join(help_lines(loc)), view=components.help_view(loc))


def help_lines(loc):
    """/ttr help's text: a first game's steps with the buttons' own labels (≤ 20 lines)."""
    buttons = {k: t(f"bot.btn.{k}", loc) for k in
               ("join", "start", "hand", "deck", "deck2", "claim", "station", "tickets")}
    return [t("bot.help.title", loc), t("bot.help.start", loc, **buttons),
            t("bot.help.turn", loc)] + \
        [t(f"bot.help.{k}", loc, **buttons) for k in ("draw", "claim", "station", "tickets",
                                                        "hand")] + \
        [t("bot.help.goal", loc), t("bot.help.more", loc)]


def command_lines(loc):
    """Every command with what it does ("All commands")."""
    return [t("bot.help.footer", loc)] + \
        [f"`/ttr {k}` — {t(DESCRIPTIONS.get(k, 'bot.cmd.' + k.split()[-1]), loc)}"
         for k in HELP_KEYS]


@on_click("help")
async def _help_clicked(interaction, item):
    loc = await moves.begin(interaction)
    lines = command_lines(loc) if item.topic == "commands" else rules_of_rating(loc)
    parts = chunks(lines)
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        await answer(interaction, part, view=components.help_view(loc, (
            "ratings" if item.topic == "commands" else "commands",)) if last else None)
