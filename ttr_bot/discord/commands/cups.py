"""/ttr server cup_*: a server's Swiss tournaments (service/cups.py, docs/cups.md). Members with Manage
Server, or with the role it names by cup_role, create and cancel cups; anyone joins or
withdraws (also by the buttons on the cup's post, `CupButton`); `status` shows the standings. The cup's post, its tables' threads and its
final post go through the outbox (cup_posts.py)."""
import discord
from discord import app_commands

from ...i18n import t
from ...service import LEVELS
from ...service.cup_state import FILLS
from ...service.turns import DEADLINES
from ..client_of import bot_of, channel_of, guild_of, service_of
from ..controls.clicks import on_click
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..posting.cup_posts import cup_text
from ..translator import text
from .base import GroupedCog, is_admin
from .lobby import VARIANTS, player_name
from .ranking import MAP_CHOICES


async def _cup_id(interaction, cup):
    """The cup named, or the server's newest open one."""
    if cup is not None:
        return cup
    open_cups = await bot_of(interaction).service.cups.cups_of(interaction.guild_id)
    if not open_cups:
        raise UserFacing("bot.cup.none_open")
    return open_cups[0].id


class Cups(GroupedCog):
    # /ttr has Discord's limit of 25 subcommands and groups already: the cup's commands live in
    # the server group (/ttr server cup_create ...) until a slot at the top is freed for a group
    GROUP = "server"

    @app_commands.command(name="cup_create", description=text("bot.cmd.cup_create"))
    @app_commands.describe(name=text("bot.opt.cup_name"), map=text("bot.opt.map"),
                           map2=text("bot.opt.cup_map2"), map3=text("bot.opt.cup_map3"),
                           seats=text("bot.opt.cup_seats"), rounds=text("bot.opt.cup_rounds"),
                           deadline=text("bot.opt.deadline"),
                           signup_hours=text("bot.opt.cup_signup"),
                           round_hours=text("bot.opt.cup_round_hours"),
                           fill=text("bot.opt.cup_fill"), variant=text("bot.opt.variant"),
                           level=text("bot.opt.level"))
    @app_commands.choices(map=MAP_CHOICES, map2=MAP_CHOICES, map3=MAP_CHOICES,
                          variant=[app_commands.Choice(name=text(f"bot.variant.{v}"), value=v)
                                   for v in VARIANTS],
                          level=[app_commands.Choice(name=text(f"bot.level.{lv}"), value=lv)
                                 for lv in LEVELS],
                          deadline=[app_commands.Choice(name=str(h), value=h)
                                    for h in DEADLINES if h],
                          fill=[app_commands.Choice(name=text(f"bot.cup.fill_{f}"), value=f)
                                for f in FILLS])
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60],
                     map: str, seats: app_commands.Range[int, 2, 5] = 3,
                     rounds: app_commands.Range[int, 1, 12] = 4, deadline: int = 24,
                     signup_hours: app_commands.Range[int, 1, 720] = 48,
                     round_hours: app_commands.Range[int, 12, 1440] = 168,
                     fill: str = "computer", map2: str | None = None,
                     map3: str | None = None, variant: str = "base",
                     level: str = "easy"):
        service = service_of(interaction)
        loc = await begin(interaction)
        if not await may_organise(interaction):
            role = await service.cups.organiser_role(guild_of(interaction))
            if role is None:
                raise UserFacing("bot.cup.admin_only")
            raise UserFacing("bot.cup.organiser_only", role=f"<@&{role}>")
        cup = await service.cups.create(
            guild_id=guild_of(interaction), channel_id=channel_of(interaction),
            user_id=interaction.user.id, name=name,
            maps=[m for m in (map, map2, map3) if m is not None], variant=variant,
            seats=seats, rounds=rounds, deadline=deadline, signup_hours=signup_hours,
            round_hours=round_hours, fill=fill, level=level)
        await answer(interaction, t("bot.cup.created", loc, name=cup.name, cup=cup.id))

    @app_commands.command(name="cup_join", description=text("bot.cmd.cup_join"))
    @app_commands.describe(cup=text("bot.opt.cup"))
    async def join(self, interaction: discord.Interaction, cup: int | None = None):
        await join(interaction, await _cup_id(interaction, cup))

    @app_commands.command(name="cup_withdraw", description=text("bot.cmd.cup_withdraw"))
    @app_commands.describe(cup=text("bot.opt.cup"))
    async def withdraw(self, interaction: discord.Interaction, cup: int | None = None):
        await withdraw(interaction, await _cup_id(interaction, cup))

    @app_commands.command(name="cup_status", description=text("bot.cmd.cup_status"))
    @app_commands.describe(cup=text("bot.opt.cup"))
    async def status(self, interaction: discord.Interaction, cup: int | None = None):
        service = service_of(interaction)
        loc = await begin(interaction)
        found = await service.cups.get(await _cup_id(interaction, cup))
        if found is None or found.guild_id != interaction.guild_id:
            raise UserFacing("bot.cup.none_open")
        await answer(interaction, cup_text(found, loc, lines=20))

    @app_commands.command(name="cup_cancel", description=text("bot.cmd.cup_cancel"))
    @app_commands.describe(cup=text("bot.opt.cup"))
    async def cancel(self, interaction: discord.Interaction, cup: int | None = None):
        service = service_of(interaction)
        loc = await begin(interaction)
        done = await service.cups.cancel(
            await _cup_id(interaction, cup), interaction.user.id,
            guild_id=interaction.guild_id, is_admin=await may_organise(interaction))
        await answer(interaction, t("bot.cup.cancelled_now", loc, name=done.name))

    @app_commands.command(name="cup_role", description=text("bot.cmd.cup_role"))
    @app_commands.describe(role=text("bot.opt.cup_role"), clear=text("bot.opt.cup_role_clear"))
    async def role(self, interaction: discord.Interaction, role: discord.Role | None = None,
                   clear: bool = False):
        """Without a role: say who organises cups here."""
        service = service_of(interaction)
        loc = await begin(interaction)
        cups = service.cups
        if role is not None or clear:
            if not is_admin(interaction):
                raise UserFacing("bot.cup.role_admin")
            await cups.set_organiser_role(guild_of(interaction),
                                          None if clear or role is None else role.id)
        named = await cups.organiser_role(guild_of(interaction))
        await answer(interaction, t("bot.cup.role_none", loc) if named is None else
                     t("bot.cup.role_is", loc, role=f"<@&{named}>"))


async def may_organise(interaction):
    """Manage Server, or the role the server names for cups (/ttr server cup_role)."""
    roles = [r.id for r in getattr(interaction.user, "roles", ())]
    return await bot_of(interaction).service.cups.may_organise(
        interaction.guild_id, roles, is_admin(interaction))


async def join(interaction, cup_id):
    loc = await begin(interaction)
    cup = await bot_of(interaction).service.cups.join(
        cup_id, interaction.user.id, player_name(interaction.user), guild_id=interaction.guild_id)
    await answer(interaction, t("bot.cup.joined", loc, name=cup.name))


async def withdraw(interaction, cup_id):
    loc = await begin(interaction)
    cup = await bot_of(interaction).service.cups.withdraw(cup_id, interaction.user.id,
                                                          guild_id=interaction.guild_id)
    await answer(interaction, t("bot.cup.left", loc, name=cup.name))


@on_click("cup")
async def _cup_clicked(interaction, item):
    await (join if item.op == "join" else withdraw)(interaction, item.cup_id)
