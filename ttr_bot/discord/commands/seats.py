"""/ttr leave during a game and /ttr replace: a computer player takes over a human's seat.

Leaving asks first, privately, with a persistent 'Leave the game' button: the seat cannot be
taken back. The channel is told who left and how strong the computer player is; the seat's
cards and tickets stay as secret as before. /ttr leave in a lobby is in lobby.py.
"""
import discord
from discord import app_commands

from ...i18n import t
from ...service import LEAVE_LEVEL, LEVELS, ServiceError
from ..client_of import bot_of, service_of
from ..controls import components
from ..controls.clicks import on_click
from ..controls.moves import begin, channel_game
from ..errors import answer
from ..translator import text
from .base import GroupedCog, is_admin


async def ask_leave(interaction, loc, hosted):
    """The private question before leaving a game in play."""
    seat = hosted.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError("service.not_a_player")
    ends = hosted.humans() == [seat]
    if ends:
        question = t("bot.leave.confirm_end", loc)
    else:
        question = t("bot.leave.confirm", loc, level=t(f"bot.level.{LEAVE_LEVEL}", loc))
    await answer(interaction, question,
                 view=components.quit_view(hosted.id, hosted.seq, "end" if ends else "bot", loc))


HOST_ONLY = {"service.host_only", "service.cancel_denied", "service.replace_denied"}


async def as_host(interaction, call):
    """`await call()`; when it is refused because only the host may, and the host is no longer
    in the server (Discord answers 10007 Unknown Member: the bot has no privileged members
    intent, so this lookup is how it learns), the next human becomes host and it is tried
    again (for the caller, if they are that human, it now goes through)."""
    try:
        return await call()
    except ServiceError as exc:
        if exc.key not in HOST_ONLY:
            raise
        bot = bot_of(interaction)
        hosted = await bot.service.game_in_channel(interaction.channel_id)
        if hosted is None or await bot.delivery.is_member(hosted.guild_id, hosted.host_id):
            raise
        await bot.service.absence.host_gone(hosted.id)
        return await call()


@on_click("quit")
async def _leave_confirmed(interaction, item):
    """The 'Leave the game' button; `mode` is what the player was told leaving would do."""
    bot = bot_of(interaction)
    loc = await begin(interaction)
    eff = await bot.service.handover.leave_game(item.game_id, interaction.user.id, ends=item.mode == "end")
    await answer(interaction, t("bot.leave.done_end" if eff.cancelled else "bot.leave.done", loc))


class Seats(GroupedCog):
    @app_commands.command(name="replace", description=text("bot.cmd.replace"))
    @app_commands.describe(player=text("bot.opt.player"), level=text("bot.opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=text(f"bot.level.{lv}"), value=lv) for lv in LEVELS])
    async def replace(self, interaction: discord.Interaction, player: discord.User,
                      level: str = LEAVE_LEVEL):
        service = service_of(interaction)
        loc = await begin(interaction)
        hosted = await channel_game(interaction)
        eff = await as_host(interaction, lambda: service.handover.replace_player(
            hosted.id, interaction.user.id, player.id, level, is_admin=is_admin(interaction)))
        await answer(interaction, t("bot.replace.done", loc, name=eff.handover.name,
                                    level=t(f"bot.level.{level}", loc)))
