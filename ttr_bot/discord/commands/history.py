"""/ttr server history, replay and export: this server's finished games, newest first, each with
a link to its final post and its record one click away; any of them as a film (an animated GIF);
the record of one (it reveals every card dealt, so only once the game is over)."""
import io
import json
import logging

import discord
from discord import app_commands

from ...i18n import t
from ...service import ServiceError
from ..client_of import bot_of, guild_of, service_of
from ..controls import components
from ..controls.clicks import on_click
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..posting import finale
from ..text.card_text import film_alt
from ..text.format import map_title
from ..text.leaderboard_text import history_text
from ..translator import text
from .base import GroupedCog

log = logging.getLogger(__name__)
PER_PAGE = 5      # a page's lines (with their links) fit in one message, its records in one row
REPLAY_WITHIN = 600.0   # seconds a replay's film may wait and take: the interaction's token
                        # lasts 15 minutes, and the answer must come within them


async def history_page(interaction, loc, page, user_id):
    """(text, view) of a page of this server's history (of one user, or everyone's)."""
    guild = interaction.guild_id
    got = await bot_of(interaction).service.records.history(guild, page, user_id=user_id,
                                                            per_page=PER_PAGE)
    view = components.history_view(guild, got.page, got.pages, user_id,
                                   [e.game_id for e in got.entries], loc)
    return history_text(guild, got, loc), view


@on_click("hist")
async def _history_page(interaction, item):
    """Another page: the message is edited in place."""
    if not interaction.response.is_done():
        await interaction.response.defer()
    loc = await bot_of(interaction).user_locale(interaction)
    content, view = await history_page(interaction, loc, item.page, item.user_id or None)
    await interaction.edit_original_response(content=content, view=view)


@on_click("record")
async def _record_clicked(interaction, item):
    loc = await begin(interaction)
    await send_record(interaction, loc, item.game_id)


MAX_OPTION_INT = 2 ** 53 - 1     # the largest integer a Discord option carries


async def send_record(interaction, loc, game):
    """The record of a finished game of this server, privately (also the history's buttons)."""
    bot = bot_of(interaction)
    hosted = await bot.service.load(game)
    if hosted is None or hosted.guild_id != interaction.guild_id:
        raise ServiceError("service.no_such_game", game=game)
    if not hosted.is_finished:
        raise UserFacing("bot.export.not_finished")
    record = await bot.service.moves.export(game)
    data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
    file = discord.File(io.BytesIO(data), filename=f"ttr-game-{game}.json")
    await answer(interaction, t("bot.export.done", loc, game=game), file=file)


class History(GroupedCog):
    GROUP = "server"

    @app_commands.command(name="history", description=text("bot.cmd.history"))
    @app_commands.describe(user=text("bot.opt.history_user"))
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None):
        loc = await begin(interaction)
        content, view = await history_page(interaction, loc, 1, user.id if user else None)
        await answer(interaction, content, view=view)

    @app_commands.command(name="replay", description=text("bot.cmd.replay"))
    @app_commands.describe(game=text("bot.opt.replay_game"))
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None):
        """The film of a finished game of this server, built off the event loop."""
        bot = bot_of(interaction)
        service = service_of(interaction)
        loc = await begin(interaction)
        if game is None:
            game = await service.records.latest_finished_game(guild_of(interaction))
            if game is None:
                raise UserFacing("bot.history.none")
        film = await service.records.replay_data(game, interaction.guild_id)
        try:    # in time for the interaction's token, however long the pool's queue is
            data = await finale.build_film(bot.workers, film, loc, within=REPLAY_WITHIN,
                                           clock=bot.clock)
        except TimeoutError:
            log.warning("the film of game %s was not made within %.0f s", game, REPLAY_WITHIN)
            raise UserFacing("bot.replay.failed") from None
        except Exception:
            log.exception("the film of game %s could not be made", game)
            raise UserFacing("bot.replay.failed") from None
        await answer(interaction, t("bot.replay.done", loc, game=game,
                                    map=map_title(film.game.board, loc)),
                     file=finale.film_file(data, description=film_alt(
                         finale.played(film), film.names, loc)))

    @app_commands.command(name="export", description=text("bot.cmd.export"))
    @app_commands.describe(game=text("bot.opt.game"))
    async def export(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, MAX_OPTION_INT] | None = None):
        """The record of a finished game: it reveals every card dealt, so never mid-game."""
        service = service_of(interaction)
        loc = await begin(interaction)
        if game is None:
            game = await service.adapter_state.last_finished_game(interaction.user.id)
            if game is None:
                raise UserFacing("bot.export.none")
        await send_record(interaction, loc, game)
