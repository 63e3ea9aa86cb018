"""/ttr me notify and /ttr me away: how a player is told it is their turn (and when not to be), and
their holidays. Answers are private."""
import discord
from discord import app_commands

from ...i18n import t
from ...service import HOW, MAX_AWAY_DAYS, BadSetting
from ...service.notify import how_of, parse_quiet, quiet_text, zone_name, zones
from ..client_of import service_of
from ..controls.moves import begin
from ..errors import UserFacing, answer
from ..text.format import clip, fold
from ..translator import text
from .base import GroupedCog


async def zone_autocomplete(interaction, current):
    """IANA zone names containing what was typed (25 at most)."""
    typed = fold(current).replace(" ", "_")
    names = sorted(n for n in zones() if typed in fold(n)) if typed else \
        ["UTC", "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles",
         "Asia/Bangkok", "Asia/Tehran", "Asia/Tokyo"]
    return [app_commands.Choice(name=clip(n), value=n) for n in names[:25]]


def settings_lines(notify, loc):
    how = how_of(notify)
    lines = [t("bot.notify.now", loc, how=t(f"bot.notify.how_{how}", loc))]
    if notify.get("quiet") and notify.get("tz"):
        lines.append(t("bot.notify.quiet_now", loc, quiet=quiet_text(notify["quiet"]),
                       zone=notify["tz"]))
    else:
        lines.append(t("bot.notify.no_quiet", loc))
    return lines


class Prefs(GroupedCog):
    GROUP = "me"
    @app_commands.command(name="notify", description=text("bot.cmd.notify"))
    @app_commands.describe(how=text("bot.opt.how"), quiet=text("bot.opt.quiet"),
                           timezone=text("bot.opt.timezone"))
    @app_commands.choices(
        how=[app_commands.Choice(name=text(f"bot.notify.how_{h}"), value=h) for h in HOW])
    @app_commands.autocomplete(timezone=zone_autocomplete)
    async def notify(self, interaction: discord.Interaction, how: str | None = None,
                     quiet: str | None = None, timezone: str | None = None):
        service = service_of(interaction)
        loc = await begin(interaction)
        notify = await service.queue.notify_settings(interaction.user.id)
        try:
            if how is not None:
                notify["how"] = how
            if timezone is not None:
                notify["tz"] = zone_name(timezone)
            if quiet is not None:
                window = parse_quiet(quiet)
                if window is None:
                    notify.pop("quiet", None)
                else:
                    if not notify.get("tz"):
                        raise UserFacing("bot.notify.need_zone")
                    notify["quiet"] = list(window)
        except BadSetting as exc:
            raise UserFacing(exc.key, **exc.params) from None
        if how is not None or quiet is not None or timezone is not None:
            await service.queue.set_notify(interaction.user.id, notify)
        await answer(interaction, "\n".join(settings_lines(notify, loc)))

    @app_commands.command(name="away", description=text("bot.cmd.away"))
    @app_commands.describe(days=text("bot.opt.days"))
    async def away(self, interaction: discord.Interaction,
                   days: app_commands.Range[int, 0, MAX_AWAY_DAYS]):
        service = service_of(interaction)
        loc = await begin(interaction)
        away = await service.away.set_away(interaction.user.id, interaction.guild_id, days)
        if away is None:
            await answer(interaction, t("bot.away.ended", loc))
        else:
            await answer(interaction, t("bot.away.done", loc, until=f"<t:{int(away.until)}:f>"))
