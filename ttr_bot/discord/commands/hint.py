"""/ttr hint: privately, what the `expert` computer player would do now and why, in one line, in
games whose host allowed hints (service/hints.py). The decision takes a second or more, so
the interaction is deferred within Discord's 3 seconds (moves.begin) and the answer sent
when the worker pool has it."""
import discord
from discord import app_commands

from ...engine.actions import (
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    TunnelDecline,
    TunnelPay,
)
from ...i18n import t
from ..client_of import service_of
from ..controls import moves
from ..errors import answer
from ..text.format import card_name, route_text, ticket_text
from ..translator import text
from .base import GroupedCog


def move_text(board, action, loc):
    if isinstance(action, ClaimRoute):
        return t("bot.hint.move.claim", loc, route=route_text(board, action.route))
    if isinstance(action, DrawCard):
        if action.card < 0:
            return t("bot.hint.move.draw_deck", loc)
        return t("bot.hint.move.draw_faceup", loc, card=card_name(action.card, loc))
    if isinstance(action, DrawTickets):
        return t("bot.hint.move.tickets", loc)
    if isinstance(action, KeepTickets):
        return t("bot.hint.move.keep", loc, tickets=", ".join(
            ticket_text(board.tickets[i]) for i in action.tickets))
    if isinstance(action, BuildStation):
        return t("bot.hint.move.station", loc, city=board.nodes[action.city].name)
    if isinstance(action, TunnelPay):
        return t("bot.hint.move.tunnel_pay", loc)
    if isinstance(action, TunnelDecline):
        return t("bot.hint.move.tunnel_decline", loc)
    return t("bot.hint.move.pass", loc)


def hint_line(board, hint, loc):
    """One line: the move, the ticket it serves, the route it fears losing (or that it blocks)."""
    why = []
    if hint.ticket is not None:
        why.append(t("bot.hint.serves", loc, ticket=ticket_text(board.tickets[hint.ticket])))
    if hint.block:
        why.append(t("bot.hint.block", loc))
    if hint.feared is not None:
        why.append(t("bot.hint.fears", loc, route=route_text(board, hint.feared)))
    return t("bot.hint.line", loc, move=move_text(board, hint.action, loc),
             why=" ".join(why) if why else t("bot.hint.no_reason", loc))


class Hint(GroupedCog):
    @app_commands.command(name="hint", description=text("bot.cmd.hint"))
    async def hint(self, interaction: discord.Interaction):
        service = service_of(interaction)
        loc = await moves.begin(interaction)       # deferred in time: the decision takes seconds
        hosted = await moves.channel_game(interaction)
        found = await service.hints.hint(hosted.id, interaction.user.id)
        await answer(interaction, hint_line(hosted.board, found, loc))
