"""One move, end to end, for a slash command or a click alike.

`begin` acknowledges the interaction at once (ephemeral: a move's answer is private) and only
then looks anything up. `act` hands the engine action to the service (which records the public
post and the DMs the move owes in the move's own transaction; the outbox worker sends them) and
answers the player privately: what they alone learned (the
card they drew, the tickets they kept) and, while their turn goes on, the panel for the next
step. Payments are chosen here when only one makes sense (payment_choices.py), otherwise
asked for with buttons. The turn panel's clicks are registered here too (`on_click`).
"""
import logging
from dataclasses import dataclass, replace

from ..engine.actions import (
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    TunnelDecline,
    TunnelPay,
)
from ..engine.cards import CARD_INDEX, N_CARD_KINDS
from ..i18n import t
from ..service import ServiceError
from . import components
from . import payment_choices as payments
from .autocomplete import small_number
from .card_text import private_alt
from .clicks import on_click
from .errors import UserFacing, answer
from .format import (
    card_list_text,
    event_lines,
    fit,
    hand_lines,
    offer_lines,
    private_lines,
    route_choice_label,
)

log = logging.getLogger(__name__)
ANY_SEAT = -1   # the service puts the acting user's seat into every action
NO_CARDS = (0,) * N_CARD_KINDS
PAY_REASONS = {"pay_exact", "pay_one_color", "pay_route_color", "no_locos_here", "ferry_locos",
               "pay_ferry_any", "pay_any_cards", "cards_not_in_hand", "bad_cards", "station_cost"}


async def begin(interaction, *, ephemeral=True):
    """Acknowledge within Discord's 3 seconds, before any store or render work; the locale."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await interaction.client.user_locale(interaction)


async def channel_game(interaction, *, started=True):
    """The game of the interaction's channel (ServiceError if none, or not started yet)."""
    hosted = await interaction.client.service.game_in_channel(interaction.channel_id)
    if hosted is None:
        raise ServiceError("service.no_game")
    if started and not hosted.started:
        raise ServiceError("bot.not_started")
    return hosted


async def _started(bot, game_id):
    hosted = await bot.service.load(game_id)
    if hosted is None or not hosted.started:
        raise ServiceError("service.no_game")
    return hosted


# ----- acting --------------------------------------------------------------------------------------
async def act(interaction, loc, game_id, action, expected_seq=None):
    bot = interaction.client
    try:
        eff = await bot.service.act(game_id, interaction.user.id, action, expected_seq)
    except ServiceError as exc:
        if exc.key == "service.stale":
            await stale(interaction, loc, game_id)
            return None
        raise
    await _after(interaction, loc, eff)
    return eff


async def _after(interaction, loc, eff):
    """The actor's private answer: what only they learned, and their next step if any."""
    hosted = await _started(interaction.client, eff.game_id)
    board = hosted.board
    seat = eff.actor
    lines = private_lines(eff.private.get(seat, []), board, loc)
    view = None
    if not eff.over and seat in eff.to_move:
        more, view = panel_for(hosted, seat, loc)
        lines += more
    elif not lines:   # nothing private: confirm with what everyone will read
        lines = event_lines([e for e in eff.public if e.get("seat") == seat], board,
                            hosted.names(), loc, trains=hosted.game.trains) or [t("bot.done", loc)]
    await answer(interaction, fit("\n".join(lines)), view=view)


async def stale(interaction, loc, game_id):
    """A stale or double click: say so, and give the current panel if it is their move."""
    lines, view = [t("service.stale", loc)], None
    hosted = await interaction.client.service.load(game_id)
    if hosted is not None and hosted.started:
        seat = hosted.seat_of(interaction.user.id)
        if seat is not None:
            more, view = panel_for(hosted, seat, loc)
            lines += more
    await answer(interaction, fit("\n".join(lines)), view=view)


def panel_for(hosted, seat, loc):
    """(lines, view) for what `seat` has to do now; ([], None) if it is not their move."""
    game = hosted.game
    if game.over or seat not in game.to_move():
        return [], None
    v = hosted.view(seat)
    gid, seq = hosted.id, hosted.seq
    if v.offer:
        minimum = v.keep_min()
        return (offer_lines(game.board, v.offer, minimum, loc),
                components.keep_view(gid, seq, game.board, v.offer, minimum, loc))
    if v.step == "tunnel" and v.tunnel:
        tunnel = v.tunnel
        options = payments.tunnel_options(v.hand, tunnel.extra, tunnel.color)
        lines = [t("bot.panel.tunnel", loc, route=game.board.route_label(tunnel.route),
                   extra=tunnel.extra, revealed=card_list_text(tunnel.revealed, loc))]
        if not options:
            lines.append(t("bot.tunnel.cannot_pay", loc))
        return lines, components.tunnel_view(gid, seq, options, loc)
    if v.step == "second_card":
        return ([t("bot.panel.second", loc)],
                components.turn_view(gid, seq, game, loc, step="second_card"))
    if game.can_pass(seat):
        return [t("bot.panel.no_move", loc)], None
    return [t("bot.panel.your_turn", loc)], components.turn_view(gid, seq, game, loc)


# ----- paying: claims and stations ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Purchase:
    """What a payment is for: a route ("r") or a station ("s"), the pay buttons' code."""
    code: str
    target: int
    label: dict                   # catalog parameters naming it (route= / city=)
    action: object                # cards -> the engine action
    options: object               # (color, locomotives) -> sensible payments from the hand
    cannot_pay: UserFacing        # when the hand cannot pay at all
    no_such_payment: object = None   # UserFacing when only the stated colour/count cannot


async def _pay_and_act(interaction, loc, game_id, seat, v, what, color, locomotives,
                       expected_seq):
    """The one way of paying: use the only sensible payment, or say why none works, or ask."""
    options = what.options(color, locomotives)
    if len(options) == 1:
        return await act(interaction, loc, game_id, what.action(options[0]), expected_seq)
    if not options:
        why = v.explain(replace(what.action(NO_CARDS), seat=seat))
        if why is not None and why.key not in PAY_REASONS:
            raise ServiceError("service.illegal", illegal=why)
        if what.no_such_payment is not None and (color is not None or locomotives is not None) \
                and what.options(None, None):
            raise what.no_such_payment
        raise what.cannot_pay
    why = v.explain(replace(what.action(options[0]), seat=seat))
    if why is not None:         # taken, not their turn…: say so before asking how to pay
        raise ServiceError("service.illegal", illegal=why)
    seq = expected_seq if expected_seq is not None else (await _started(interaction.client,
                                                                        game_id)).seq
    key = "bot.claim.choose" if what.code == "r" else "bot.station.choose"
    await answer(interaction, t(key, loc, **what.label),
                 view=components.pay_view(game_id, seq, what.code, what.target, options, loc))


async def claim(interaction, loc, game_id, route_index, color=None, locomotives=None,
                expected_seq=None):
    seat, v = await interaction.client.service.player_view(game_id, interaction.user.id)
    board = v.board
    if not 0 <= route_index < len(board.routes):
        raise UserFacing("bot.claim.unknown_route")
    route = board.routes[route_index]
    label = route_choice_label(board, route, loc)
    what = _Purchase(
        "r", route_index, {"route": label},
        action=lambda cards: ClaimRoute(ANY_SEAT, route_index, cards),
        options=lambda c, n: payments.route_options(board.rules, route, v.hand, c, n),
        cannot_pay=UserFacing("bot.claim.cannot_pay", route=label),
        no_such_payment=UserFacing("bot.claim.no_such_payment", route=label))
    await _pay_and_act(interaction, loc, game_id, seat, v, what, color, locomotives,
                       expected_seq)


async def station(interaction, loc, game_id, city, color=None, locomotives=None,
                  expected_seq=None):
    seat, v = await interaction.client.service.player_view(game_id, interaction.user.id)
    name, cost = v.board.nodes[city].name, v.station_cost()
    what = _Purchase(
        "s", city, {"city": name},
        action=lambda cards: BuildStation(ANY_SEAT, city, cards),
        options=lambda c, n: payments.station_options(v.hand, cost, c, n),
        cannot_pay=UserFacing("bot.station.cannot_pay", city=name, count=cost))
    await _pay_and_act(interaction, loc, game_id, seat, v, what, color, locomotives,
                       expected_seq)


# ----- tunnels, tickets, the route menu, the hand ----------------------------------------------------
async def tunnel(interaction, loc, game_id, choice):
    if choice == "decline":
        return await act(interaction, loc, game_id, TunnelDecline(ANY_SEAT))
    seat, v = await interaction.client.service.player_view(game_id, interaction.user.id)
    if not v.tunnel:
        why = v.explain(TunnelPay(seat, NO_CARDS))
        raise ServiceError("service.illegal", illegal=why) if why else UserFacing("bot.tunnel.none")
    options = payments.tunnel_options(v.hand, v.tunnel.extra, v.tunnel.color)
    if len(options) == 1:
        return await act(interaction, loc, game_id, TunnelPay(ANY_SEAT, options[0]))
    if not options:
        raise UserFacing("bot.tunnel.cannot_pay")
    seq = (await _started(interaction.client, game_id)).seq
    await answer(interaction, t("bot.tunnel.choose", loc, extra=v.tunnel.extra),
                 view=components.tunnel_view(game_id, seq, options, loc))


async def keep(interaction, loc, game_id, action, expected_seq=None):
    """Keep tickets. The starting choice is simultaneous, so others' choices move the game on
    while a player decides: there the offer itself, not the sequence number, says whether the
    menu is current (the engine refuses tickets that are not on offer)."""
    hosted = await _started(interaction.client, game_id)
    if hosted.game.phase == "setup":
        expected_seq = None
    return await act(interaction, loc, game_id, action, expected_seq)


async def route_menu(interaction, loc, game_id, seq):
    """'Claim…': the routes this player can claim now, as a menu (25 at most)."""
    hosted = await _started(interaction.client, game_id)
    if hosted.seq != seq:
        return await stale(interaction, loc, game_id)
    seat = hosted.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError("service.not_a_player")
    if seat not in hosted.game.to_move():
        raise UserFacing("bot.not_your_turn")
    v = hosted.view(seat)
    routes = sorted((r for r, _ in v.claimable_routes()), key=lambda r: (-r.length, r.index))
    if not routes:
        raise UserFacing("bot.claim.none")
    text = t("bot.claim.menu", loc, count=len(routes))
    if len(routes) > 25:
        text += "\n" + t("bot.claim.more", loc, count=len(routes) - 25)
    await answer(interaction, text,
                 view=components.route_view(game_id, seq, v.board, routes, loc))


async def show_hand(interaction, loc, game_id):
    """'My hand' and /ttr hand: cards, tickets, trains, the private board, and the next step."""
    bot = interaction.client
    hosted = await _started(bot, game_id)
    seat = hosted.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError("service.not_a_player")
    v = hosted.view(seat)
    lines = hand_lines(v, loc)
    more, view = panel_for(hosted, seat, loc)
    if v.offer:
        more = more[len(offer_lines(v.board, v.offer, v.keep_min(), loc)):]   # already listed
    lines += more
    png = await picture(interaction, lines, loc, hosted.game, hosted.names(), viewer=seat)
    file = bot.delivery.as_file(png, description=private_alt(hosted.game, hosted.names(), seat,
                                                            loc)) if png else None
    await answer(interaction, fit("\n".join(lines)), view=view, file=file)


async def picture(interaction, lines, loc, game, names, viewer=None):
    """The board picture for this answer (from the cache when the state is unchanged), or None:
    past the member's allowance of pictures (cooldown.py) a line saying when the next one comes
    is added to `lines` instead."""
    bot = interaction.client
    wait = bot.picture_cooldown.take(interaction.user.id)
    if wait is not None:
        lines.append(t("bot.picture.cooldown", loc, seconds=wait))
        return None
    if viewer is None:      # the public picture: the phone map, as the turn card shows it
        return await bot.pictures.map(game, names, loc)
    return await bot.pictures.render(game, names, viewer=viewer, locale=loc)


# ----- the turn panel's clicks ----------------------------------------------------------------------------
def _values(item, limit):
    """A menu's chosen values as numbers; a value that is not one (a forged or garbled click)
    is refused like an out-of-date control."""
    numbers = [small_number(v, limit) for v in item.item.values]
    if not numbers or None in numbers:
        raise UserFacing("bot.error.old_control")
    return numbers


@on_click("draw")
async def _draw_clicked(interaction, item):
    loc = await begin(interaction)
    if item.src != "deck" and item.src not in CARD_INDEX:
        raise UserFacing("bot.error.old_control")
    card = -1 if item.src == "deck" else CARD_INDEX[item.src]
    await act(interaction, loc, item.game_id, DrawCard(ANY_SEAT, card), item.seq)


@on_click("claim")
async def _claim_clicked(interaction, item):
    loc = await begin(interaction)
    await route_menu(interaction, loc, item.game_id, item.seq)


@on_click("route")
async def _route_picked(interaction, item):
    loc = await begin(interaction)
    await claim(interaction, loc, item.game_id, _values(item, 10**4)[0], expected_seq=item.seq)


@on_click("pay")
async def _pay_clicked(interaction, item):
    """A payment button: the player picked one of the sensible payments."""
    loc = await begin(interaction)
    action = (ClaimRoute(ANY_SEAT, item.target, item.cards) if item.what == "r"
              else BuildStation(ANY_SEAT, item.target, item.cards))
    await act(interaction, loc, item.game_id, action, item.seq)


@on_click("tickets")
async def _tickets_clicked(interaction, item):
    loc = await begin(interaction)
    await act(interaction, loc, item.game_id, DrawTickets(ANY_SEAT), item.seq)


@on_click("keep")
async def _keep_picked(interaction, item):
    loc = await begin(interaction)
    kept = tuple(_values(item, 10**4))
    await keep(interaction, loc, item.game_id, KeepTickets(ANY_SEAT, kept), item.seq)


@on_click("tunnel")
async def _tunnel_clicked(interaction, item):
    loc = await begin(interaction)
    action = TunnelDecline(ANY_SEAT) if item.op == "decline" else TunnelPay(ANY_SEAT, item.cards)
    await act(interaction, loc, item.game_id, action, item.seq)


@on_click("hand")
async def _hand_clicked(interaction, item):
    loc = await begin(interaction)
    await show_hand(interaction, loc, item.game_id)
