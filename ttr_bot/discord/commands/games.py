"""/ttr games: the caller's open games in this server, their own turns first (private)."""
import discord
from discord import app_commands

from ...i18n import t
from ..client_of import service_of
from ..controls.moves import begin
from ..errors import answer
from ..text.format import chunks, map_title, sep
from ..translator import text
from .base import GroupedCog


def listing_lines(games, loc):
    if not games:
        return [t("bot.games.none", loc)]
    lines = [t("bot.games.title", loc, count=len(games))]
    for g in games:
        where = f"<#{g.channel_id}> · {map_title(g.board, loc)}"
        if g.status == "lobby":
            lines.append(t("bot.games.lobby", loc, where=where))
            continue
        key = "bot.games.yours" if g.your_turn else "bot.games.theirs"
        line = t(key, loc, where=where, names=sep(loc).join(g.to_move),
                 since=f"<t:{int(g.since)}:R>")
        if g.deadline:
            line += " " + t("bot.games.deadline", loc, when=f"<t:{int(g.deadline)}:R>")
        for name, until in g.away_until.items():
            line += " " + t("bot.turn.away_until", loc, name=name, until=f"<t:{int(until)}:f>")
        lines.append(line)
    return lines


class Games(GroupedCog):
    @app_commands.command(name="games", description=text("bot.cmd.games"))
    async def games(self, interaction: discord.Interaction):
        service = service_of(interaction)
        loc = await begin(interaction)
        listing = await service.listing.games_of(interaction.user.id, interaction.guild_id)
        for part in chunks(listing_lines(listing, loc)):
            await answer(interaction, part)
