"""/ttr draw, claim, tickets, keep, tunnel, station: every move by slash command alone (the turn
panel's buttons are shortcuts to the same `moves` functions)."""
import discord
from discord import app_commands

from ...engine.actions import DrawCard, DrawTickets, KeepTickets, Pass
from ...engine.cards import CARD_INDEX, CARD_NAMES
from ..client_of import service_of
from ..controls import moves
from ..controls.autocomplete import (
    Unreadable,
    city_autocomplete,
    keep_autocomplete,
    parse_keep,
    resolve_city,
    resolve_route,
    route_autocomplete,
)
from ..controls.components import DECK_TWICE, FERRY
from ..errors import UserFacing
from ..translator import text
from .base import GroupedCog

SOURCES = ("deck", DECK_TWICE) + CARD_NAMES + (FERRY,)
# Pennsylvania's companies, by their number of shares (RULES.md §14.1)
COMPANIES = (2, 3, 4, 5, 6, 7, 8, 10, 15)
PAY_COLORS = CARD_NAMES     # 8 colours and "locomotive" (only locomotives)


def _card_choices(names):
    keys = {"deck": "bot.btn.deck", DECK_TWICE: "bot.btn.deck2", FERRY: "bot.btn.ferry_card"}
    return [app_commands.Choice(name=text(keys.get(n, f"bot.card.{n}")), value=n) for n in names]


def _company_choices():
    return [app_commands.Choice(name=text("bot.choice.company", company=c), value=c)
            for c in COMPANIES]


def _route_from(board, value, color):
    found = resolve_route(board, value)
    if color is not None and color != "locomotive" and len(found) > 1:
        same = [r for r in found if board.routes[r].color in (CARD_INDEX[color], -1)]
        found = same or found
    if not found:
        raise UserFacing("bot.claim.unknown_route")
    if len(found) > 1:
        raise UserFacing("bot.claim.ambiguous")
    return found[0]


class Play(GroupedCog):
    @app_commands.command(name="draw", description=text("bot.cmd.draw"))
    @app_commands.describe(source=text("bot.opt.source"))
    @app_commands.choices(source=_card_choices(SOURCES))
    async def draw(self, interaction: discord.Interaction, source: str):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        if source == DECK_TWICE:
            await moves.draw_twice(interaction, loc, hosted.id)
            return
        if source == FERRY:
            await moves.draw_ferry_card(interaction, loc, hosted.id)
            return
        card = -1 if source == "deck" else CARD_INDEX[source]
        await moves.act(interaction, loc, hosted.id, DrawCard(moves.ANY_SEAT, card))

    @app_commands.command(name="claim", description=text("bot.cmd.claim"))
    @app_commands.describe(route=text("bot.opt.route"), color=text("bot.opt.color"),
                           locomotives=text("bot.opt.locomotives"), share=text("bot.opt.share"),
                           dummy_share=text("bot.opt.dummy_share"))
    @app_commands.choices(color=_card_choices(PAY_COLORS), share=_company_choices(),
                          dummy_share=_company_choices())
    @app_commands.autocomplete(route=route_autocomplete)
    async def claim(self, interaction: discord.Interaction, route: str, color: str | None = None,
                    locomotives: app_commands.Range[int, 0, 30] | None = None,
                    share: int | None = None, dummy_share: int | None = None):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        index = _route_from(hosted.board, route, color)
        await moves.claim(interaction, loc, hosted.id, index,
                         None if color is None else CARD_INDEX[color], locomotives,
                         share=share, dummy=dummy_share)

    @app_commands.command(name="tickets", description=text("bot.cmd.tickets"))
    async def tickets(self, interaction: discord.Interaction):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        await moves.act(interaction, loc, hosted.id, DrawTickets(moves.ANY_SEAT))

    @app_commands.command(name="keep", description=text("bot.cmd.keep"))
    @app_commands.describe(tickets=text("bot.opt.tickets"))
    @app_commands.autocomplete(tickets=keep_autocomplete)
    async def keep(self, interaction: discord.Interaction, tickets: str):
        service = service_of(interaction)
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        seat, v = await service.moves.player_view(hosted.id, interaction.user.id)
        if not v.offer:
            raise UserFacing("bot.keep.no_offer")
        try:
            kept = parse_keep(tickets, v.offer, v.board)
        except Unreadable as exc:
            raise UserFacing(exc.key) from None
        await moves.keep(interaction, loc, hosted.id, KeepTickets(moves.ANY_SEAT, kept))

    @app_commands.command(name="tunnel", description=text("bot.cmd.tunnel"))
    @app_commands.describe(choice=text("bot.opt.choice"))
    @app_commands.choices(choice=[app_commands.Choice(name=text("bot.choice.pay"), value="pay"),
                                  app_commands.Choice(name=text("bot.choice.decline"), value="decline")])
    async def tunnel(self, interaction: discord.Interaction, choice: str):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        await moves.tunnel(interaction, loc, hosted.id, choice)

    @app_commands.command(name="station", description=text("bot.cmd.station"))
    @app_commands.describe(city=text("bot.opt.city"), color=text("bot.opt.station_color"))
    @app_commands.choices(color=_card_choices(PAY_COLORS))
    @app_commands.autocomplete(city=city_autocomplete)
    async def station(self, interaction: discord.Interaction, city: str, color: str | None = None):
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        node = resolve_city(hosted.board, city)
        if node is None:
            raise UserFacing("bot.station.unknown_city")
        await moves.station(interaction, loc, hosted.id, node,
                           None if color is None else CARD_INDEX[color])

    @app_commands.command(name="pass", description=text("bot.cmd.pass"))
    async def pass_(self, interaction: discord.Interaction):
        """Only legal when nothing else is (RULES §3.6): the engine says why otherwise."""
        loc = await moves.begin(interaction)
        hosted = await moves.channel_game(interaction)
        await moves.act(interaction, loc, hosted.id, Pass(moves.ANY_SEAT))
