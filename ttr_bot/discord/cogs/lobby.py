"""/ttr new, join, leave, start, cancel, addbot — and the lobby message's buttons, which call
the same functions. /ttr leave during a game goes on in seats.py.

The maps and variants offered are the ones the map files provide (`playable_maps`): adding a
map means adding its file and its name to the catalog, not editing this module."""
import discord
from discord import app_commands

from ...i18n import t
from ...service import (
    AWAY_MODES,
    DEADLINES,
    DEFAULT_DEADLINE,
    LEVELS,
    REMINDS,
    ServiceError,
    playable_maps,
)
from .. import components
from ..clicks import on_click
from ..delivery import settings_line
from ..errors import UserFacing, answer
from ..format import fit, lobby_lines
from ..moves import begin
from ..translator import text
from .base import GroupedCog
from .seats import as_host, ask_leave

MAPS = tuple(m for m, _ in playable_maps())
VARIANTS = tuple(dict.fromkeys(v for _, vs in playable_maps() for v in vs))   # in file order


def player_name(user):
    name = " ".join(str(user.display_name).split()) or str(user.id)
    return name[:32]


async def _check_lobby(interaction, game_id):
    """A lobby button belongs to the lobby open in this channel, or it is out of date."""
    if game_id is None:
        return
    hosted = await interaction.client.service.game_in_channel(interaction.channel_id)
    if hosted is None or hosted.id != game_id:
        raise UserFacing("bot.lobby.closed")
    if not hosted.is_lobby:
        raise ServiceError("service.already_started")


async def _lobby_changed(interaction, hosted):
    bot = interaction.client
    await bot.delivery.update_lobby(hosted, bot.delivery.public_locale(hosted))


async def open_lobby(interaction, map_id, variant, options=None):
    bot = interaction.client
    loc = await begin(interaction)
    hosted = await bot.service.open_lobby(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        user_id=interaction.user.id, name=player_name(interaction.user), map_id=map_id,
        variant=variant, options=options)
    public = bot.delivery.public_locale(hosted)
    lines = lobby_lines(hosted.board, hosted.names(), hosted.host_name, public)
    lines.insert(1, settings_line(hosted.settings, public))
    try:
        msg = await bot.delivery.send(interaction.channel_id, fit("\n".join(lines)),
                                      view=components.lobby_view(hosted.id, public))
    except discord.HTTPException:
        # no lobby message, no lobby: a game nobody can see would block the channel
        await bot.service.cancel(interaction.channel_id, interaction.user.id, is_admin=True)
        raise
    await bot.service.remember_message(hosted.id, "lobby", interaction.channel_id, msg.id)
    await answer(interaction, t("bot.lobby.opened", loc))


async def join(interaction, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    hosted = await bot.service.join(interaction.channel_id, interaction.user.id,
                                    player_name(interaction.user))
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.joined", loc, count=len(hosted.seats)))


async def leave(interaction, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    if game_id is None:     # /ttr leave, not the lobby button: during a game, ask first
        hosted = await bot.service.game_in_channel(interaction.channel_id)
        if hosted is not None and hosted.is_active:
            return await ask_leave(interaction, loc, hosted)
    await _check_lobby(interaction, game_id)
    hosted = await bot.service.leave(interaction.channel_id, interaction.user.id)
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.left", loc))


async def start(interaction, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    await as_host(interaction, lambda: bot.service.start(interaction.channel_id,
                                                         interaction.user.id))
    await answer(interaction, t("bot.lobby.started", loc))


async def add_bot(interaction, level, game_id=None):
    bot = interaction.client
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    hosted = await bot.service.add_bot(interaction.channel_id, interaction.user.id, level)
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.bot_added", loc, name=hosted.seats[-1].name))


@on_click("lobby")
async def _lobby_clicked(interaction, item):
    await {"join": join, "leave": leave, "start": start}[item.op](interaction, item.game_id)


@on_click("addbot")
async def _level_picked(interaction, item):
    await add_bot(interaction, item.item.values[0], game_id=item.game_id)


class Lobby(GroupedCog):
    @app_commands.command(name="new", description=text("bot.cmd.new"))
    @app_commands.describe(map=text("bot.opt.map"), variant=text("bot.opt.variant"),
                           deadline=text("bot.opt.deadline"), reminder=text("bot.opt.reminder"),
                           away=text("bot.opt.away_mode"))
    @app_commands.choices(
        map=[app_commands.Choice(name=text(f"bot.map.{m}"), value=m) for m in MAPS],
        variant=[app_commands.Choice(name=text(f"bot.variant.{v}"), value=v) for v in VARIANTS],
        deadline=[app_commands.Choice(name=text(f"bot.deadline.{h}"), value=h) for h in DEADLINES],
        reminder=[app_commands.Choice(name=text(f"bot.reminder.{h}"), value=h) for h in REMINDS],
        away=[app_commands.Choice(name=text(f"bot.away_mode.{m}"), value=m) for m in AWAY_MODES])
    async def new(self, interaction: discord.Interaction, map: str, variant: str = "base",
                  deadline: int = DEFAULT_DEADLINE, reminder: int = 24, away: str = "pause"):
        await open_lobby(interaction, map, variant,
                         {"deadline": deadline, "remind": reminder, "away": away})

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
        await as_host(interaction, lambda: bot.service.cancel(
            interaction.channel_id, interaction.user.id,
            is_admin=bool(perms and perms.manage_guild)))
        await answer(interaction, t("bot.cancel.done", loc))

    @app_commands.command(name="addbot", description=text("bot.cmd.addbot"))
    @app_commands.describe(level=text("bot.opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=text(f"bot.level.{lv}"), value=lv) for lv in LEVELS])
    async def addbot(self, interaction: discord.Interaction, level: str = "medium"):
        await add_bot(interaction, level)
