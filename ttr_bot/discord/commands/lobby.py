"""/ttr new (in the channel, or in a thread of its own), join, leave, start, cancel, addbot — and
the lobby message's buttons, which call the same functions, and the final post's Rematch, which
opens a lobby for the same table. /ttr leave during a game goes on in seats.py.

The maps and variants offered are the ones the map files provide (`playable_maps`): adding a
map means adding its file and its name to the catalog, not editing this module."""
import logging
from typing import Any

import discord
from discord import app_commands

from ...bounded import KeyedLocks
from ...i18n import LOCALES, normalize, t
from ...service import (
    AWAY_MODES,
    DEADLINES,
    DEFAULT_DEADLINE,
    GAME_HINTS,
    GAME_LANGUAGE,
    GAME_PALETTE,
    LEVELS,
    PALETTES,
    REMATCH_OF,
    REMINDS,
    ServiceError,
    check_table,
    playable_maps,
)
from ...stats import map_name
from ..client_of import bot_of, channel_of, service_of
from ..controls import components
from ..controls.autocomplete import small_number
from ..controls.clicks import chosen, on_click
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..posting.delivery import mention_only
from ..text.format import clip, fit, fold, lobby_lines
from ..text.settings_text import settings_line
from ..translator import text
from .base import GroupedCog, is_admin
from .seats import as_host, ask_leave
from .threads import open_thread, thread_choice

log = logging.getLogger(__name__)

MAPS = tuple(m for m, _ in playable_maps())
VARIANTS = tuple(dict.fromkeys(v for _, vs in playable_maps() for v in vs))   # in file order
_opening = KeyedLocks()     # per server: one /ttr new at a time between its caps and its lobby


def player_name(user):
    name = " ".join(str(user.display_name).split()) or str(user.id)
    return name[:32]


async def _check_lobby(interaction, game_id):
    """A lobby button belongs to the lobby open in this channel, or it is out of date."""
    if game_id is None:
        return
    hosted = await bot_of(interaction).service.game_in_channel(interaction.channel_id)
    if hosted is None or hosted.id != game_id:
        raise UserFacing("bot.lobby.closed")
    if not hosted.is_lobby:
        raise ServiceError("service.already_started")


async def _lobby_changed(interaction, hosted):
    bot = bot_of(interaction)
    await bot.delivery.update_lobby(hosted.id, bot.delivery.public_locale(hosted))


async def game_language(interaction, chosen=None):
    """The language a new game's public posts and board are in: the host's choice, else the
    server's (/ttr server language), else the server's Discord locale if the bot speaks it,
    else English. An explicit server choice beats Discord's locale because ordinary servers
    cannot change theirs from en-US (and Discord has no Persian at all)."""
    if chosen in LOCALES:
        return chosen
    server = await bot_of(interaction).service.adapter_state.server_locale(interaction.guild_id) \
        if interaction.guild_id else None
    if server in LOCALES:
        return server
    guild = str(interaction.guild_locale or "") if interaction.guild_id else ""
    return normalize(guild)


async def open_lobby(interaction, map_id, variant, options=None, thread=None, language=None):
    """/ttr new: a lobby in this channel, or (`thread`; None: when the bot may) in a new public
    thread of it, with
    the game's settings (`options`: deadline, reminders, away) and its language."""
    bot = bot_of(interaction)
    loc = await begin(interaction)
    check_table(map_id, variant)          # before a thread is made for nothing
    channel_id, options = interaction.channel_id, dict(options or {})
    public = options[GAME_LANGUAGE] = await game_language(interaction, language)
    thread, note = thread_choice(interaction, thread)
    # the lobby caps are counted, the thread made and the lobby stored as one step per server,
    # so a burst of /ttr new makes no thread for a lobby the caps then refuse
    async with _opening[interaction.guild_id]:
        await bot.service.lobby.lobby_room(interaction.guild_id, interaction.user.id)
        if thread:
            made, note = await open_thread(interaction, t(
                "bot.thread.name", public, map=map_name(map_id, public),
                host=player_name(interaction.user)))
            if made is not None:
                channel_id, options["thread"] = made.id, True
                options["parent"] = interaction.channel_id
        hosted = await bot.service.lobby.open_lobby(
            guild_id=interaction.guild_id, channel_id=channel_id, user_id=interaction.user.id,
            name=player_name(interaction.user), map_id=map_id, variant=variant,
            options=options)
    await post_lobby(interaction, hosted)
    if options.get("parent"):       # the channel's one line about it: where it is
        await post_in_parent(bot, options["parent"], t(
            "bot.thread.started", public, map=map_name(map_id, public),
            host=player_name(interaction.user), thread=f"<#{channel_id}>"))
    lines = [t("bot.lobby.opened_thread", loc, thread=f"<#{channel_id}>")
             if options.get("thread") else t("bot.lobby.opened", loc)]
    if note:
        lines.append(t(note, loc))
    await answer(interaction, "\n".join(lines))


async def post_in_parent(bot, channel_id, line):
    try:
        await bot.delivery.send(channel_id, line)
    except discord.HTTPException as exc:    # the game is in its thread all the same
        log.info("could not post in channel %s: %s", channel_id, exc)


async def post_lobby(interaction, hosted, invited=()):
    """Post the lobby message (with the invitations of a rematch) and remember it; without a
    lobby message there is no lobby: a game nobody can see would block the channel."""
    bot = bot_of(interaction)
    public = bot.delivery.public_locale(hosted)
    lines = lobby_lines(hosted.board, hosted.names(), hosted.host_name, public)
    lines.insert(1, settings_line(hosted.settings, public, hosted))
    kwargs: dict[str, Any] = {}
    if invited:
        lines.append(t("bot.rematch.invite", public, game=hosted.options.get(REMATCH_OF, "?"),
                       mentions=" ".join(f"<@{u}>" for u in invited)))
        kwargs["allowed_mentions"] = mention_only(*invited)
    try:
        msg = await bot.delivery.send(hosted.channel_id, fit("\n".join(lines)),
                                      view=components.lobby_view(hosted, public), **kwargs)
    except discord.HTTPException:
        await bot.service.lobby.cancel(hosted.channel_id, interaction.user.id, is_admin=True)
        raise
    await bot.service.adapter_state.remember_message(hosted.id, "lobby", hosted.channel_id, msg.id)


async def join(interaction, game_id=None):
    bot = bot_of(interaction)
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    hosted = await bot.service.lobby.join(interaction.channel_id, interaction.user.id,
                                          player_name(interaction.user))
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.joined", loc, count=len(hosted.seats)))


async def leave(interaction, game_id=None):
    bot = bot_of(interaction)
    loc = await begin(interaction)
    if game_id is None:     # /ttr leave, not the lobby button: during a game, ask first
        hosted = await bot.service.game_in_channel(interaction.channel_id)
        if hosted is not None and hosted.is_active:
            return await ask_leave(interaction, loc, hosted)
    await _check_lobby(interaction, game_id)
    hosted = await bot.service.lobby.leave(interaction.channel_id, interaction.user.id)
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.left", loc))


async def start(interaction, game_id=None):
    bot = bot_of(interaction)
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    await as_host(interaction, lambda: bot.service.lobby.start(interaction.channel_id,
                                                               interaction.user.id))
    await answer(interaction, t("bot.lobby.started", loc))


async def add_bot(interaction, level, game_id=None):
    bot = bot_of(interaction)
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    hosted = await bot.service.lobby.add_bot(interaction.channel_id, interaction.user.id, level,
                                             is_admin=is_admin(interaction))
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.bot_added", loc, name=hosted.seats[-1].name))


async def remove_seat(interaction, number, game_id=None):
    """The host takes the seat with stored number `number` away (None: no such seat)."""
    bot = bot_of(interaction)
    loc = await begin(interaction)
    await _check_lobby(interaction, game_id)
    before = await bot.service.game_in_channel(interaction.channel_id)
    if number is None or before is None:
        raise ServiceError("service.no_such_seat", seat="?")
    name = next((s.name for s in before.seats if s.number == number), "?")
    hosted = await bot.service.lobby.remove_seat(interaction.channel_id, interaction.user.id, number,
                                                 is_admin=is_admin(interaction))
    await _lobby_changed(interaction, hosted)
    await answer(interaction, t("bot.lobby.removed", loc, name=name))


@on_click("rematch")
async def _rematch_clicked(interaction, item):
    """The final post's Rematch: a lobby for the same table, the others invited to join."""
    bot = bot_of(interaction)
    loc = await begin(interaction)
    again = await bot.service.lobby.rematch(item.game_id, interaction.user.id,
                                            player_name(interaction.user))
    await post_lobby(interaction, again.lobby, invited=again.invited)
    await answer(interaction, t("bot.rematch.opened", loc))


@on_click("lobby")
async def _lobby_clicked(interaction, item):
    await {"join": join, "leave": leave, "start": start}[item.op](interaction, item.game_id)


@on_click("addbot")
async def _level_picked(interaction, item):
    await add_bot(interaction, chosen(item), game_id=item.game_id)


@on_click("unseat")
async def _seat_picked(interaction, item):
    await remove_seat(interaction, small_number(chosen(item), 10**6), game_id=item.game_id)


async def _seat_autocomplete(interaction, current):
    """The lobby's seats but the host's, as "2. Bob" (values: their place in the list)."""
    hosted = await bot_of(interaction).service.game_in_channel(interaction.channel_id)
    if hosted is None or not hosted.is_lobby:
        return []
    return [app_commands.Choice(name=clip(f"{i}. {s.name}"), value=i)
            for i, s in enumerate(hosted.seats, 1) if s.user_id != hosted.host_id
            and (not current or fold(str(current)) in fold(f"{i}. {s.name}"))][:25]


class Lobby(GroupedCog):
    @app_commands.command(name="new", description=text("bot.cmd.new"))
    @app_commands.describe(map=text("bot.opt.map"), variant=text("bot.opt.variant"),
                           thread=text("bot.opt.thread"), deadline=text("bot.opt.deadline"),
                           reminder=text("bot.opt.reminder"), away=text("bot.opt.away_mode"),
                           language=text("bot.opt.game_language"),
                           colours=text("bot.opt.game_palette"),
                           hints=text("bot.opt.hints"))
    @app_commands.choices(
        map=[app_commands.Choice(name=text(f"bot.map.{m}"), value=m) for m in MAPS],
        variant=[app_commands.Choice(name=text(f"bot.variant.{v}"), value=v) for v in VARIANTS],
        deadline=[app_commands.Choice(name=text(f"bot.deadline.{h}"), value=h) for h in DEADLINES],
        reminder=[app_commands.Choice(name=text(f"bot.reminder.{h}"), value=h) for h in REMINDS],
        away=[app_commands.Choice(name=text(f"bot.away_mode.{m}"), value=m) for m in AWAY_MODES],
        language=[app_commands.Choice(name=text(f"bot.lang.{code}"), value=code)
                  for code in LOCALES],
        colours=[app_commands.Choice(name=text(f"bot.palette.{p}"), value=p) for p in PALETTES])
    async def new(self, interaction: discord.Interaction, map: str, variant: str = "base",
                  thread: bool | None = None, deadline: int = DEFAULT_DEADLINE, reminder: int = 24,
                  away: str = "pause", language: str | None = None,
                  colours: str = "standard", hints: bool = False):
        options = {"deadline": deadline, "remind": reminder, "away": away}
        if colours != "standard":       # the public pictures' palette (palettes.py)
            options[GAME_PALETTE] = colours
        if hints:                       # /ttr hint allowed; the game will not be rated
            options[GAME_HINTS] = True
        await open_lobby(interaction, map, variant, options, thread, language)

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
        service = service_of(interaction)
        loc = await begin(interaction)
        await as_host(interaction, lambda: service.lobby.cancel(
            channel_of(interaction), interaction.user.id, is_admin=is_admin(interaction)))
        await answer(interaction, t("bot.cancel.done", loc))

    @app_commands.command(name="addbot", description=text("bot.cmd.addbot"))
    @app_commands.describe(level=text("bot.opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=text(f"bot.level.{lv}"), value=lv) for lv in LEVELS])
    async def addbot(self, interaction: discord.Interaction, level: str = "medium"):
        await add_bot(interaction, level)

    @app_commands.command(name="remove", description=text("bot.cmd.remove"))
    @app_commands.describe(seat=text("bot.opt.seat"))
    @app_commands.autocomplete(seat=_seat_autocomplete)
    async def remove(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 5]):
        service = service_of(interaction)
        hosted = await service.game_in_channel(channel_of(interaction))
        seats = hosted.seats if hosted is not None else ()
        number = seats[seat - 1].number if seat <= len(seats) else None
        await remove_seat(interaction, number)
