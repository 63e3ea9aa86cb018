"""One action, end to end, for a slash command or a component alike.

`begin` acknowledges the interaction at once (ephemeral: a move's answer is private) and only
then looks anything up. `act` hands the engine action to the service, has the effects
delivered (public post, DMs) and answers the player privately: what they alone learned (the
card they drew, the tickets they kept) and, while their turn goes on, the panel for the next
step. Payments are chosen here when only one makes sense (`pay.py`), otherwise asked for.
"""
import logging

from ..engine.actions import BuildStation, ClaimRoute, TunnelPay
from ..engine.view import determinize
from ..engine.view import view as player_view
from ..i18n import t
from ..service import ServiceError
from . import components as C
from . import payment_choices as payments
from .autocomplete import claimable_routes, station_cost
from .errors import UserFacing, answer
from .format import (
    card_list_text,
    event_lines,
    fit,
    hand_lines,
    keep_min,
    offer_lines,
    private_lines,
    route_choice_label,
)

log = logging.getLogger(__name__)
ANY_SEAT = -1   # the service puts the acting user's seat into every action
PAY_REASONS = {"pay_exact", "pay_one_color", "pay_route_color", "no_locos_here", "ferry_locos",
               "pay_ferry_any", "pay_any_cards", "cards_not_in_hand", "bad_cards", "station_cost"}


async def begin(interaction, *, ephemeral=True):
    """Acknowledge within Discord's 3 seconds, before any store or render work; the locale."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await interaction.client.user_locale(interaction)


async def channel_game(interaction, *, started=True):
    """The game of the interaction's channel (ServiceError if none, or not started yet)."""
    loaded = await interaction.client.channel_game(interaction.channel_id)
    if loaded is None:
        raise ServiceError("service.no_game")
    if started and loaded.game is None:
        raise ServiceError("bot.not_started")
    return loaded


async def _loaded(bot, game_id):
    loaded = await bot.service.load(game_id)
    if loaded is None or loaded.game is None:
        raise ServiceError("service.no_game")
    return loaded


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
    await bot.delivery.deliver(eff)
    await _after(interaction, loc, eff)
    return eff


async def _after(interaction, loc, eff):
    """The actor's private answer: what only they learned, and their next step if any."""
    bot = interaction.client
    loaded = await _loaded(bot, eff.game_id)
    board = loaded.game.board
    seat = eff.actor
    lines = private_lines(eff.private.get(seat, []), board, loc)
    view = None
    if not eff.over and seat in eff.to_move:
        more, view = panel_for(loaded, seat, loc)
        lines += more
    elif not lines:   # nothing private: confirm with what everyone will read
        names = loaded.names()
        lines = event_lines([e for e in eff.public if e.get("seat") == seat], board, names, loc,
                            trains=loaded.game.trains) or [t("bot.done", loc)]
    await answer(interaction, fit("\n".join(lines)), view=view)


async def stale(interaction, loc, game_id):
    """A stale or double click: say so, and give the current panel if it is their move."""
    bot = interaction.client
    lines, view = [t("service.stale", loc)], None
    loaded = await bot.service.load(game_id)
    if loaded is not None and loaded.game is not None:
        seat = loaded.seat_of(interaction.user.id)
        if seat is not None:
            more, view = panel_for(loaded, seat, loc)
            lines += more
    await answer(interaction, fit("\n".join(lines)), view=view)


def panel_for(loaded, seat, loc):
    """(lines, view) for what `seat` has to do now; ([], None) if it is not their move."""
    game = loaded.game
    if game.over or seat not in game.to_move():
        return [], None
    v = player_view(game, seat)
    gid, seq = loaded.id, loaded.row.seq
    if v.offer:
        minimum = keep_min(v)
        return (offer_lines(game.board, v.offer, minimum, loc),
                C.keep_view(gid, seq, game.board, v.offer, minimum, loc))
    if v.step == "tunnel" and v.tunnel:
        r, color, laid, revealed, extra = v.tunnel
        options = payments.tunnel_options(v.hand, extra, color)
        lines = [t("bot.panel.tunnel", loc, route=game.board.route_label(r), extra=extra,
                   revealed=card_list_text(revealed, loc))]
        if not options:
            lines.append(t("bot.tunnel.cannot_pay", loc))
        return lines, C.tunnel_view(gid, seq, options, loc)
    if v.step == "second_card":
        return [t("bot.panel.second", loc)], C.turn_view(gid, seq, game, loc, step="second_card")
    if game.can_pass(seat):
        return [t("bot.panel.no_move", loc)], None
    return [t("bot.panel.your_turn", loc)], C.turn_view(gid, seq, game, loc)


# ----- claims, stations, tunnels, tickets -------------------------------------------------------------
def _explain(v, action):
    """The engine's reason why `action` is not possible now (without applying anything)."""
    return determinize(v, None).check(action)


async def claim(interaction, loc, game_id, route_index, color=None, locomotives=None,
                expected_seq=None):
    bot = interaction.client
    seat, v = await bot.service.player_view(game_id, interaction.user.id)
    board = v.board
    if not 0 <= route_index < len(board.routes):
        raise UserFacing("bot.claim.unknown_route")
    route = board.routes[route_index]
    options = payments.route_options(board.rules, route, v.hand, color, locomotives)
    if len(options) == 1:
        return await act(interaction, loc, game_id, ClaimRoute(ANY_SEAT, route_index, options[0]),
                         expected_seq)
    label = route_choice_label(board, route, loc)
    if not options:
        why = _explain(v, ClaimRoute(seat, route_index, (0,) * 9))
        if why is not None and why.key not in PAY_REASONS:
            raise ServiceError("service.illegal", illegal=why)
        if (color is not None or locomotives is not None) and payments.route_options(
                board.rules, route, v.hand):
            raise UserFacing("bot.claim.no_such_payment", route=label)
        raise UserFacing("bot.claim.cannot_pay", route=label)
    why = _explain(v, ClaimRoute(seat, route_index, options[0]))
    if why is not None:         # taken, not their turn…: say so before asking how to pay
        raise ServiceError("service.illegal", illegal=why)
    seq = expected_seq if expected_seq is not None else (await _loaded(bot, game_id)).row.seq
    await answer(interaction, t("bot.claim.choose", loc, route=label),
                 view=C.pay_view(game_id, seq, "r", route_index, options, loc))


async def station(interaction, loc, game_id, city, color=None, locomotives=None,
                  expected_seq=None):
    bot = interaction.client
    seat, v = await bot.service.player_view(game_id, interaction.user.id)
    board = v.board
    name = board.nodes[city].name
    if not v.stations_left[seat]:
        why = _explain(v, BuildStation(seat, city, (0,) * 9))
        raise ServiceError("service.illegal", illegal=why) if why else UserFacing("bot.station.none")
    options = payments.station_options(v.hand, station_cost(v), color, locomotives)
    if len(options) == 1:
        return await act(interaction, loc, game_id, BuildStation(ANY_SEAT, city, options[0]),
                         expected_seq)
    if not options:
        why = _explain(v, BuildStation(seat, city, (0,) * 9))
        if why is not None and why.key not in PAY_REASONS:
            raise ServiceError("service.illegal", illegal=why)
        raise UserFacing("bot.station.cannot_pay", city=name, count=station_cost(v))
    why = _explain(v, BuildStation(seat, city, options[0]))
    if why is not None:
        raise ServiceError("service.illegal", illegal=why)
    seq = expected_seq if expected_seq is not None else (await _loaded(bot, game_id)).row.seq
    await answer(interaction, t("bot.station.choose", loc, city=name),
                 view=C.pay_view(game_id, seq, "s", city, options, loc))


async def pay(interaction, loc, game_id, seq, what, target, cards):
    """A payment button: the player picked one of the sensible payments."""
    action = (ClaimRoute(ANY_SEAT, target, cards) if what == "r"
              else BuildStation(ANY_SEAT, target, cards))
    await act(interaction, loc, game_id, action, seq)


async def tunnel(interaction, loc, game_id, choice):
    from ..engine.actions import TunnelDecline
    bot = interaction.client
    if choice == "decline":
        return await act(interaction, loc, game_id, TunnelDecline(ANY_SEAT))
    seat, v = await bot.service.player_view(game_id, interaction.user.id)
    if not v.tunnel:
        why = _explain(v, TunnelPay(seat, (0,) * 9))
        raise ServiceError("service.illegal", illegal=why) if why else UserFacing("bot.tunnel.none")
    r, color, laid, revealed, extra = v.tunnel
    options = payments.tunnel_options(v.hand, extra, color)
    if len(options) == 1:
        return await act(interaction, loc, game_id, TunnelPay(ANY_SEAT, options[0]))
    if not options:
        raise UserFacing("bot.tunnel.cannot_pay")
    seq = (await _loaded(bot, game_id)).row.seq
    await answer(interaction, t("bot.tunnel.choose", loc, extra=extra),
                 view=C.tunnel_view(game_id, seq, options, loc))


async def keep(interaction, loc, game_id, action, expected_seq=None):
    """Keep tickets. The starting choice is simultaneous, so others' choices move the game on
    while a player decides: there the offer itself, not the sequence number, says whether the
    menu is current (the engine refuses tickets that are not on offer)."""
    bot = interaction.client
    loaded = await _loaded(bot, game_id)
    if loaded.game.phase == "setup":
        expected_seq = None
    return await act(interaction, loc, game_id, action, expected_seq)


async def route_menu(interaction, loc, game_id, seq):
    """'Claim…': the routes this player can claim now, as a menu (25 at most)."""
    bot = interaction.client
    loaded = await _loaded(bot, game_id)
    if loaded.row.seq != seq:
        return await stale(interaction, loc, game_id)
    seat = loaded.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError("service.not_a_player")
    v = player_view(loaded.game, seat)
    if seat not in loaded.game.to_move():
        raise UserFacing("bot.not_your_turn")
    routes = sorted((r for r, _ in claimable_routes(v)), key=lambda r: (-r.length, r.index))
    if not routes:
        raise UserFacing("bot.claim.none")
    text = t("bot.claim.menu", loc, count=len(routes))
    if len(routes) > 25:
        text += "\n" + t("bot.claim.more", loc, count=len(routes) - 25)
    await answer(interaction, text, view=C.route_view(game_id, seq, v.board, routes, loc))


async def show_hand(interaction, loc, game_id):
    """'My hand' and /ttr hand: cards, tickets, trains, the private board, and the next step."""
    bot = interaction.client
    loaded = await _loaded(bot, game_id)
    seat = loaded.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError("service.not_a_player")
    v = player_view(loaded.game, seat)
    lines = hand_lines(v, loc)
    more, view = panel_for(loaded, seat, loc)
    if v.offer:
        more = more[len(offer_lines(v.board, v.offer, keep_min(v), loc)):]   # already listed
    lines += more
    png = await bot.delivery.render(loaded.game, loaded.names(), viewer=seat, locale=loc)
    file = bot.delivery.as_file(png) if png else None
    await answer(interaction, fit("\n".join(lines)), view=view, file=file)
