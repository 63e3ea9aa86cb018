"""/ttr server board (Manage Server): the live board of this server's games in a channel, one
message edited in place (service/board.py decides when, discord/community_posts.py posts it);
and the board's Join buttons, which seat the member in that lobby wherever the board is."""
import discord
from discord import app_commands

from ...i18n import t
from ..client_of import bot_of, guild_of, service_of
from ..controls.clicks import on_click
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..posting.community_posts import board_missing
from ..translator import text
from .base import GroupedCog, is_admin
from .lobby import player_name


class LiveBoard(GroupedCog):
    GROUP = "server"

    @app_commands.command(name="board", description=text("bot.cmd.server_board"))
    @app_commands.describe(channel=text("bot.opt.board_channel"), stop=text("bot.opt.board_stop"))
    async def board(self, interaction: discord.Interaction,
                    channel: discord.TextChannel | None = None, stop: bool = False):
        """Without options: where the board is."""
        service = service_of(interaction)
        service = service
        loc = await begin(interaction)
        if channel is None and not stop:
            board = await service.board.board(guild_of(interaction))
            key = "bot.live.nowhere" if board is None else "bot.live.where"
            return await answer(interaction, t(key, loc, channel=f"<#{board.channel_id}>"
                                               if board else ""))
        if not is_admin(interaction):
            raise UserFacing("bot.live.admin")
        if stop:
            await service.board.stop(guild_of(interaction))
            return await answer(interaction, t("bot.live.stopped", loc))
        assert channel is not None          # no channel and no stop was answered above
        outbox = bot_of(interaction).outbox
        refused = not outbox.may_post(channel.id)
        await service.board.set_board(guild_of(interaction), channel.id, interaction.user.id,
                                      told=refused)
        lines = [t("bot.live.set", loc, channel=channel.mention)]
        if refused:
            missing = board_missing(outbox, channel.id)
            lines.append(t("bot.live.cannot_post", loc, channel=channel.mention,
                           missing=", ".join(t(f"bot.perm.{m}", loc) for m in missing)))
        await answer(interaction, "\n".join(lines))


@on_click("bjoin")
async def _board_join(interaction, item):
    """Join from the board: the lobby must still be open, in this server, in a channel the
    member can see (the board may be in a more public one)."""
    bot = bot_of(interaction)
    loc = await begin(interaction)
    hosted = await bot.service.load(item.game_id)
    if hosted is None or hosted.guild_id != interaction.guild_id or not hosted.is_lobby:
        raise UserFacing("bot.live.lobby_gone")
    guild = interaction.guild
    where = guild.get_channel_or_thread(hosted.channel_id) if guild is not None else None
    if where is not None and isinstance(interaction.user, discord.Member) and \
            not where.permissions_for(interaction.user).view_channel:
        raise UserFacing("bot.live.lobby_hidden")
    hosted = await bot.service.lobby.join(hosted.channel_id, interaction.user.id,
                                          player_name(interaction.user))
    await bot.delivery.update_lobby(hosted.id, bot.delivery.public_locale(hosted))
    await answer(interaction, t("bot.live.joined", loc, channel=f"<#{hosted.channel_id}>"))
