"""/ttr vote (and its buttons) and /ttr return: what the others can do about an absent player,
and how a player whose time ran out takes their seat back."""
import discord
from discord import app_commands

from ...i18n import t
from ..client_of import bot_of, service_of
from ..controls.clicks import on_click
from ..controls.moves import begin, channel_game
from ..errors import answer
from ..text.vote_text import vote_what
from ..translator import text
from .base import GroupedCog
from .lobby import player_name


@on_click("vote")
async def _ballot(interaction, item):
    bot = bot_of(interaction)
    loc = await begin(interaction)
    vote = await bot.service.votes.cast_vote(item.vote_id, interaction.user.id, item.op == "yes")
    await answer(interaction, await _vote_answer(bot, vote, loc, "bot.vote.counted"))


async def _vote_answer(bot, vote, loc, open_key):
    if vote.status == "open":
        return t(open_key, loc)
    hosted = await bot.service.load(vote.game_id)
    return t(f"bot.vote.{vote.status}", loc, what=vote_what(vote, hosted, loc))


class Absence(GroupedCog):
    @app_commands.command(name="vote", description=text("bot.cmd.vote"))
    @app_commands.describe(kind=text("bot.opt.vote_kind"), player=text("bot.opt.vote_player"))
    @app_commands.choices(kind=[
        app_commands.Choice(name=text("bot.vote.kind_replace"), value="replace"),
        app_commands.Choice(name=text("bot.vote.kind_cancel"), value="cancel")])
    async def vote(self, interaction: discord.Interaction, kind: str,
                   player: discord.User | None = None):
        bot = bot_of(interaction)
        service = service_of(interaction)
        loc = await begin(interaction)
        hosted = await channel_game(interaction)
        if kind == "replace" and player is None:
            await answer(interaction, t("bot.vote.need_player", loc))
            return
        vote = await service.votes.start_vote(hosted.id, interaction.user.id, kind,
                                              player.id if player is not None else None)
        await answer(interaction, await _vote_answer(bot, vote, loc, "bot.vote.started"))

    @app_commands.command(name="return", description=text("bot.cmd.return"))
    async def return_(self, interaction: discord.Interaction):
        service = service_of(interaction)
        loc = await begin(interaction)
        hosted = await channel_game(interaction)
        await service.absence.return_seat(hosted.id, interaction.user.id,
                                          player_name(interaction.user))
        await answer(interaction, t("bot.return.answer", loc))
