"""/ttr new, join, leave, start, cancel, addbot — and the lobby message's buttons, which call
the same functions. /ttr leave during a game goes on in seats.py."""
import discord
from discord import app_commands

from ...i18n import t
from ...service import ServiceError
from .. import components as C
from ..errors import UserFacing, answer
from ..format import fit, lobby_lines
from ..moves import begin
from ..translator import text
from . import GroupedCog

MAPS = ("usa", "europe", "switzerland", "nordic")
VARIANTS = ("base", "1910", "mega", "big_cities")
LEVELS = ("easy", "medium", "hard")


def player_name(user):
    name = " ".join(str(user.display_name).split()) or str(user.id)
    return name[:32]


async def _check_lobby(interaction, game_id):
    """A lobby button belongs to the lobby open in this channel, or it is out of date."""
    if game_id is None:
        return
    loaded = await interaction.client.service.for_channel(interaction.channel_id)
    if loaded is None or loaded.id != game_id:
        raise UserFacing("bot.lobby.closed")
    if loaded.row.status != "lobby":
        raise ServiceError("service.already_started")


async def _lobby_changed(interaction, loaded):
    bot = interaction.client
    await bot.delivery.update_lobby(loaded, bot.delivery.public_locale(loaded))


async def open_lobby(interaction, map_id, variant):
    bot = interaction.client
    loc = await begin(interaction)
    loaded = await bot.service.open_lobby(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        user_id=interaction.user.id, name=player_name(interaction.user), map_id=map_id,
        variant=variant)
    bot.note_channel_game(loaded)
    public = bot.delivery.public_locale(loaded)
    lines = lobby_lines(bot.board_of(loaded), loaded.names(), player_name(interaction.user), public)
    try:
        msg = await bot.delivery.send(interaction.channel_id, fit("\n".join(lines)),
                                      view=C.lobby_view(loaded.id, public))
    except discord.HTTPException:
        # no lobby message, no lobby: a game nobody can see would block the channel
        await bot.service.cancel(interaction.channel_id, interaction.user.id, is_admin=True)
        raise
    await bot.store.set_message(loaded.id, "lobby", interaction.channel_id, msg.id)
    await answer(interaction, t("bot.lobby.opened", loc))


async def join(interaction, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    loaded = await bot.service.join(interaction.channel_id, interaction.user.id,
                                    player_name(interaction.user))
    await _lobby_changed(interaction, loaded)
    await answer(interaction, t("bot.lobby.joined", loc, count=len(loaded.seats)))


async def leave(interaction, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    if game_id is None:     # /ttr leave, not the lobby button: during a game, ask first
        loaded = await bot.channel_game(interaction.channel_id)
        if loaded is not None and loaded.row.status == "active":
            from .seats import ask_leave
            return await ask_leave(interaction, loc, loaded)
    await _check_lobby(interaction, game_id)
    loaded = await bot.service.leave(interaction.channel_id, interaction.user.id)
    await _lobby_changed(interaction, loaded)
    await answer(interaction, t("bot.lobby.left", loc))


async def start(interaction, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    eff = await bot.service.start(interaction.channel_id, interaction.user.id)
    await bot.delivery.deliver(eff)
    await answer(interaction, t("bot.lobby.started", loc))


async def add_bot(interaction, level, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    loaded = await bot.service.add_bot(interaction.channel_id, interaction.user.id, level)
    await _lobby_changed(interaction, loaded)
    await answer(interaction, t("bot.lobby.bot_added", loc, name=loaded.seats[-1].display_name))


async def lobby_button(interaction, game_id, op):
    await {"join": join, "leave": leave, "start": start}[op](interaction, game_id)


class Lobby(GroupedCog):
    @app_commands.command(name="new", description=text("bot.cmd.new"))
    @app_commands.describe(map=text("bot.opt.map"), variant=text("bot.opt.variant"))
    @app_commands.choices(
        map=[app_commands.Choice(name=text(f"bot.map.{m}"), value=m) for m in MAPS],
        variant=[app_commands.Choice(name=text(f"bot.variant.{v}"), value=v) for v in VARIANTS])
    async def new(self, interaction: discord.Interaction, map: str, variant: str = "base"):
        await open_lobby(interaction, map, variant)

    @app_commands.command(name="join", description=text("bot.cmd.join"))
    async def join_cmd(self, interaction: discord.Interaction):
        await join(interaction)

    @app_commands.command(name="leave", description=text("bot.cmd.leave"))
    async def leave_cmd(self, interaction: discord.Interaction):
        await leave(interaction)

    @app_commands.command(name="start", description=text("bot.cmd.start"))
    async def start_cmd(self, interaction: discord.Interaction):
        await start(interaction)

    @app_commands.command(name="cancel", description=text("bot.cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction):
        bot = interaction.client
        loc = await begin(interaction)
        perms = interaction.permissions
        eff = await bot.service.cancel(interaction.channel_id, interaction.user.id,
                                       is_admin=bool(perms and perms.manage_guild))
        await bot.delivery.deliver(eff)
        await answer(interaction, t("bot.cancel.done", loc))

    @app_commands.command(name="addbot", description=text("bot.cmd.addbot"))
    @app_commands.describe(level=text("bot.opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=text(f"bot.level.{lv}"), value=lv) for lv in LEVELS])
    async def addbot(self, interaction: discord.Interaction, level: str = "medium"):
        await add_bot(interaction, level)
