"""One move, end to end, for a slash command or a click alike.

`begin` makes sure the interaction is acknowledged in time (a move's answer is private: an
ephemeral answer, in one request when it is ready within a second, else after a deferral,
ack.py). `act` hands the engine action to the service (which records the public post and the
DMs the move owes in the move's own transaction; the outbox worker sends them) and answers
the player privately: what they alone learned (the card they drew, the tickets they kept)
and, while their turn goes on, the panel for the next step. Payments are chosen here when
only one makes sense (payment_choices.py), otherwise asked for with buttons. The turn
panel's clicks are registered here too (`on_click`).
"""
import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ...engine.actions import (
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawFerryCard,
    DrawTickets,
    KeepTickets,
    TunnelDecline,
    TunnelPay,
)
from ...engine.cards import CARD_INDEX, N_CARD_KINDS
from ...engine.event_types import CLAIM_ROUTE, Event
from ...i18n import t
from ...service import HostedGame, ServiceError, StoreUnavailable
from .. import ack
from ..client_of import bot_of
from ..errors import UserFacing, answer
from ..palettes import game_palette, user_palette
from ..text import mechanic_events
from ..text.card_text import details_lines
from ..text.format import (
    card_list_text,
    cards_text,
    event_lines,
    fit,
    hand_lines,
    offer_lines,
    own_score_line,
    payment_text,
    private_lines,
    route_choice_label,
)
from ..text.leaderboard_text import post_url
from ..text.private_alt import private_board_alt
from . import components, menus
from . import payment_choices as payments
from .autocomplete import small_number
from .claim_choices import claim_of, ferry_spent, pick, share_choices
from .clicks import on_click

log = logging.getLogger(__name__)
ANY_SEAT = -1   # the service puts the acting user's seat into every action
NO_CARDS = (0,) * N_CARD_KINDS
PAY_REASONS = {"pay_exact", "pay_one_color", "pay_route_color", "no_locos_here", "ferry_locos",
               "pay_ferry_any", "pay_any_cards", "cards_not_in_hand", "bad_cards", "station_cost"}


async def begin(interaction):
    """Make sure the interaction is acknowledged within Discord's 3 seconds, whatever the work
    that follows: answered at once if the answer is quick, else deferred (ack.py). The locale."""
    ack.expect_answer(interaction)
    return await bot_of(interaction).user_locale(interaction)


async def channel_game(interaction, *, started=True):
    """The game of the interaction's channel (ServiceError if none, or not started yet)."""
    hosted = await bot_of(interaction).service.game_in_channel(interaction.channel_id)
    if hosted is None:
        raise ServiceError("service.no_game")
    if started and not hosted.started:
        raise ServiceError("bot.not_started")
    return hosted


async def ended_here(interaction):
    """When the user's latest game finished in this channel: the line pointing to its final
    post (or saying it is on its way), in their language; else None."""
    bot = bot_of(interaction)
    loc = await bot.user_locale(interaction)
    game_id = await bot.service.adapter_state.last_finished_game(interaction.user.id)
    if game_id is None:
        return None
    hosted = await bot.service.load(game_id)
    if hosted is None or hosted.channel_id != interaction.channel_id:
        return None
    post = await bot.service.adapter_state.final_post(game_id)
    if post is None:
        return t("bot.hand.game_over_soon", loc, game=game_id)
    return t("bot.hand.game_over", loc, game=game_id, link=post_url(hosted.guild_id, post))


async def _started(bot, game_id):
    hosted = await bot.service.load(game_id)
    if hosted is None or not hosted.started:
        raise ServiceError("service.no_game")
    return hosted


# ----- acting --------------------------------------------------------------------------------------
async def act(interaction, loc, game_id, action, expected_seq=None, *, answered=True):
    """Play `action` for the interaction's user and answer them (`answered` False: the caller
    answers); None after answering a stale click."""
    bot = bot_of(interaction)
    try:
        eff = await bot.service.moves.act(game_id, interaction.user.id, action, expected_seq)
    except ServiceError as exc:
        if exc.key == "service.stale":
            await stale(interaction, loc, game_id)
            return None
        raise
    if answered:
        await _after(interaction, loc, eff)
    return eff


async def draw_twice(interaction, loc, game_id, expected_seq=None):
    """"2 from the deck": a card from the deck and, when the engine lets the turn go on with
    another blind one, that one too, in one click and one answer (the most common turn).
    When it does not (the deck ran out), the answer offers the second card as after one."""
    bot = bot_of(interaction)
    first = await act(interaction, loc, game_id, DrawCard(ANY_SEAT, -1), expected_seq,
                      answered=False)
    if first is None:
        return None
    effects = [first]
    seat = first.actor
    if not first.over and seat in first.to_move:
        hosted = await _started(bot, game_id)
        v = hosted.view(seat)
        if v.step == "second_card" and v.explain(DrawCard(seat, -1)) is None:
            try:
                effects.append(await bot.service.moves.act(game_id, interaction.user.id,
                                                           DrawCard(ANY_SEAT, -1), hosted.seq))
            except ServiceError as exc:
                if exc.key != "service.stale":      # a timer moved the game on meanwhile
                    raise
            except StoreUnavailable as exc:
                # the first card is saved: it is answered, and the panel offers the second
                log.error("game %s: second card not drawn: %s", game_id, exc)
    await _after(interaction, loc, effects[-1], earlier=effects[:-1])
    return effects[-1]


async def draw_ferry_card(interaction, loc, game_id, expected_seq=None):
    """Italy: a ferry card is the turn's action (RULES.md §16.2); off Italy, said plainly."""
    hosted = await _started(bot_of(interaction), game_id)
    if "ferry_cards" not in hosted.board.rules.mechanics:
        raise UserFacing("bot.ferry_card.not_here")
    return await act(interaction, loc, game_id, DrawFerryCard(ANY_SEAT), expected_seq)


async def _after(interaction, loc, eff, earlier=()):
    """The actor's private answer: what only they learned (with `earlier`: the effects of the
    actions of the same click before `eff`), and their next step if any."""
    hosted = await _started(bot_of(interaction), eff.game_id)
    board = hosted.board
    seat = eff.actor
    parts = [p for e in (*earlier, eff) for p in e.private.get(seat, [])]
    lines = private_lines(parts, board, loc)
    if not eff.over and seat in eff.to_move and _tunnel_unpayable(hosted, seat):
        lines += await _decline_for(interaction, loc, hosted, seat)
        return await answer(interaction, fit("\n".join(lines)))
    view = None
    if not eff.over and seat in eff.to_move:
        more, view = panel_for(hosted, seat, loc)
        lines += more
    elif not lines or mechanic_events.only_map_parts(parts):
        # nothing private but what a map's rules add (the dummy's share): confirm with what
        # everyone will read, then that
        lines = (event_lines([e for e in eff.public if e.get("seat") == seat], board,
                             hosted.names(), loc, trains=hosted.game.trains)
                 or [t("bot.done", loc)]) + lines
    lines += completed_lines(hosted, seat, eff.public, loc)
    await answer(interaction, fit("\n".join(lines)), view=view,
                 file=await _offer_board(interaction, lines, loc, hosted, seat))


def completed_lines(hosted: HostedGame, seat: int, events: Iterable[Event], loc: str) -> list[str]:
    """'🎉 Ticket completed: Berlin – Moskva (+12)' for each ticket of `seat` that its claim
    among `events` completed (the engine's answer): for that player's eyes only."""
    game = hosted.game
    if game is None:
        return []
    return [t("bot.ticket.completed", loc, ticket=game.board.tickets[tid].label(), points=pts)
            for e in events if e["type"] == CLAIM_ROUTE and e["seat"] == seat
            for tid, pts in game.tickets_completed_by(seat, e["route"])]


async def _offer_board(interaction, lines, loc, hosted, seat):
    """The player's private board when they now have tickets to choose (the offer lettered on
    the map as in the menu, render/tickets.py), as a file; None otherwise."""
    game = hosted.game
    if game.over or not game.offers[seat]:
        return None
    bot = bot_of(interaction)
    png = await picture(interaction, lines, loc, game, hosted.names(), viewer=seat,
                        palette=await user_palette(bot, interaction.user.id))
    return bot.delivery.as_file(png, description=private_board_alt(game, seat, loc)) if png else None


def _tunnel_unpayable(hosted, seat):
    """A tunnel of `seat`'s waits for extra cards their hand cannot pay in any way."""
    v = hosted.view(seat)
    return (v.step == "tunnel" and v.tunnel is not None
            and not payments.tunnel_options(v.hand, v.tunnel.extra, v.tunnel.color))


async def _decline_for(interaction, loc, hosted, seat):
    """Decline a tunnel the player cannot pay (there is nothing to choose) and say so: the
    lines of the notice. The revealed cards are public; the hand is not mentioned."""
    tunnel = hosted.view(seat).tunnel
    label = hosted.board.route_label(tunnel.route)
    try:
        await bot_of(interaction).service.moves.act(hosted.id, interaction.user.id,
                                                    TunnelDecline(ANY_SEAT), hosted.seq)
    except ServiceError as exc:
        if exc.key != "service.stale":    # someone (a timer) moved the game on meanwhile
            raise
        return [t("service.stale", loc)]
    return [t("bot.tunnel.auto_declined", loc, route=label, count=tunnel.extra,
              revealed=card_list_text(tunnel.revealed, loc))]


async def stale(interaction, loc, game_id):
    """A stale or double click: say so, and give the current panel if it is their move."""
    lines, view = [t("service.stale", loc)], None
    hosted = await bot_of(interaction).service.load(game_id)
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
                   count=tunnel.extra, revealed=card_list_text(tunnel.revealed, loc))]
        if not options:
            lines.append(t("bot.tunnel.cannot_pay", loc))
        return lines, components.tunnel_view(gid, seq, options, loc)
    if v.step == "second_card":
        return ([t("bot.panel.second", loc)],
                components.turn_view(gid, seq, game, loc, step="second_card", viewer=v))
    if game.can_pass(seat):
        return [t("bot.panel.no_move", loc)], None
    return [t("bot.panel.your_turn", loc)], components.turn_view(gid, seq, game, loc, viewer=v)


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
    share: tuple = (None, None)   # Pennsylvania: the companies a command named (share, dummy's)


async def _pay_and_act(interaction, loc, game_id, seat, v, what, color, locomotives,
                       expected_seq, guard=False):
    """The one way of paying: use the only sensible payment, or say why none works, or ask.
    `guard` (a tap in the claim menu, not a slash command): a claim of as many cards as the
    player's /ttr me confirm names asks first, one tap to play it."""
    options = what.options(color, locomotives)
    service = bot_of(interaction).service
    if len(options) == 1 and what.code == "r":
        claims = v.claims(what.target, options[0])
        if len(claims) > 1 or what.share != (None, None):
            return await _claim_with_share(interaction, loc, game_id, seat, v, what.target,
                                           options[0], claims, expected_seq, *what.share)
    if len(options) == 1 and guard and what.code == "r" and \
            (await service.adapter_state.confirm_settings(interaction.user.id)).asks_claim(sum(options[0])):
        why = v.explain(replace(what.action(options[0]), seat=seat))
        if why is not None:
            raise ServiceError("service.illegal", illegal=why)
        seq = expected_seq if expected_seq is not None else \
            (await _started(bot_of(interaction), game_id)).seq
        ferry = ferry_spent(v, what.target, options[0])
        return await answer(interaction, t("bot.confirm.claim", loc, cards=payment_text(
            options[0], ferry, loc), **what.label), view=components.confirm_pay_view(
            game_id, seq, what.code, what.target, options[0], loc, ferry=ferry))
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
    seq = expected_seq if expected_seq is not None else (await _started(bot_of(interaction),
                                                                        game_id)).seq
    key = "bot.claim.choose" if what.code == "r" else "bot.station.choose"
    ferry = [ferry_spent(v, what.target, p) for p in options] if what.code == "r" else None
    await answer(interaction, t(key, loc, **what.label),
                 view=components.pay_view(game_id, seq, what.code, what.target, options, loc,
                                          ferry=ferry))


async def _claim_with_share(interaction, loc, game_id, seat, v, r, cards, claims, expected_seq,
                            share=None, dummy=None):
    """Pennsylvania: a payment whose claim takes a share of one of several companies (and with
    2 players gives the dummy one): the one the command named, else a button per choice."""
    chosen = pick(claims, share, dummy)
    if len(chosen) == 1:
        return await act(interaction, loc, game_id, replace(chosen[0], seat=ANY_SEAT),
                         expected_seq)
    if not chosen:          # the named company is not on offer here: the engine says why
        why = v.explain(ClaimRoute(seat, r, tuple(cards), share=share or 0,
                                   dummy_share=dummy or 0))
        if why is not None:
            raise ServiceError("service.illegal", illegal=why)
        raise UserFacing("bot.share.not_offered")
    why = v.explain(replace(chosen[0], seat=seat))
    if why is not None:         # taken, not their turn…: say so before asking whose share
        raise ServiceError("service.illegal", illegal=why)
    seq = expected_seq if expected_seq is not None else (await _started(bot_of(interaction),
                                                                        game_id)).seq
    key = "bot.share.choose_dummy" if any(c.dummy_share for c in chosen) else "bot.share.choose"
    label = route_choice_label(v.board, v.board.routes[r], loc)
    await answer(interaction, t(key, loc, route=label, cards=cards_text(cards, loc)),
                 view=components.share_view(game_id, seq, r, cards,
                                            share_choices(v, chosen, loc), loc))


async def claim(interaction, loc, game_id, route_index, color=None, locomotives=None,
                expected_seq=None, guard=False, share=None, dummy=None):
    seat, v = await bot_of(interaction).service.moves.player_view(game_id, interaction.user.id)
    board = v.board
    if not 0 <= route_index < len(board.routes):
        raise UserFacing("bot.claim.unknown_route")
    route = board.routes[route_index]
    label = route_choice_label(board, route, loc)
    what = _Purchase(
        "r", route_index, {"route": label},
        action=lambda cards: claim_of(v, route_index, cards, ANY_SEAT),
        options=lambda c, n: payments.claim_options(v, route_index, c, n),
        cannot_pay=UserFacing("bot.claim.cannot_pay", route=label),
        no_such_payment=UserFacing("bot.claim.no_such_payment", route=label),
        share=(share, dummy))
    await _pay_and_act(interaction, loc, game_id, seat, v, what, color, locomotives,
                       expected_seq, guard)


async def station(interaction, loc, game_id, city, color=None, locomotives=None,
                  expected_seq=None):
    seat, v = await bot_of(interaction).service.moves.player_view(game_id, interaction.user.id)
    if not 0 <= city < len(v.board.nodes):          # a forged menu value
        raise UserFacing("bot.station.unknown_city")
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
    seat, v = await bot_of(interaction).service.moves.player_view(game_id, interaction.user.id)
    if not v.tunnel:
        why = v.explain(TunnelPay(seat, NO_CARDS))
        raise ServiceError("service.illegal", illegal=why) if why else UserFacing("bot.tunnel.none")
    options = payments.tunnel_options(v.hand, v.tunnel.extra, v.tunnel.color)
    if len(options) == 1:
        return await act(interaction, loc, game_id, TunnelPay(ANY_SEAT, options[0]))
    if not options:
        raise UserFacing("bot.tunnel.cannot_pay")
    seq = (await _started(bot_of(interaction), game_id)).seq
    await answer(interaction, t("bot.tunnel.choose", loc, count=v.tunnel.extra),
                 view=components.tunnel_view(game_id, seq, options, loc))


async def keep(interaction, loc, game_id, action, expected_seq=None):
    """Keep tickets. The starting choice is simultaneous, so others' choices move the game on
    while a player decides: there the offer itself, not the sequence number, says whether the
    menu is current (the engine refuses tickets that are not on offer)."""
    hosted = await _started(bot_of(interaction), game_id)
    if hosted.game.phase == "setup":
        expected_seq = None
    return await act(interaction, loc, game_id, action, expected_seq)


async def _my_turn_view(interaction, loc, game_id, seq):
    """The clicking player's view for a menu of their turn; None after answering a stale click."""
    hosted = await _started(bot_of(interaction), game_id)
    if hosted.seq != seq:
        await stale(interaction, loc, game_id)
        return None
    seat = hosted.seat_of(interaction.user.id)
    if seat is None:
        raise ServiceError("service.not_a_player")
    if seat not in hosted.game.to_move():
        raise UserFacing("bot.not_your_turn")
    return hosted.view(seat)


async def route_menu(interaction, loc, game_id, seq):
    """'Claim…': the routes this player can claim now, those serving their tickets first; past
    25 of them, the first 25 still in one menu and the cities in menus below it (a city, then
    a menu of its routes)."""
    v = await _my_turn_view(interaction, loc, game_id, seq)
    if v is None:
        return
    ordered = menus.ordered_routes(v)
    if not ordered:
        raise UserFacing("bot.claim.none")
    text = t("bot.claim.menu", loc, count=len(ordered))
    if any(serves for _, serves in ordered):
        text += "\n" + t("bot.claim.tickets_first", loc, mark=menus.TICKET_MARK)
    if len(ordered) <= menus.PER_MENU:
        return await answer(interaction, text, view=components.route_view(
            game_id, seq, menus.route_choices(v.board, ordered, loc), loc))
    text += "\n" + t("bot.claim.city_first", loc)
    await answer(interaction, text, view=components.city_menus_view(
        "rcity", game_id, seq, menus.route_city_menus(v, ordered, loc),
        routes=menus.route_choices(v.board, ordered, loc), loc=loc))


async def city_routes(interaction, loc, game_id, seq, city):
    """The second step: the payable routes of one city, as a menu."""
    v = await _my_turn_view(interaction, loc, game_id, seq)
    if v is None:
        return
    if not 0 <= city < len(v.board.nodes):
        raise UserFacing("bot.error.old_control")
    ordered = menus.routes_at(menus.ordered_routes(v), city)
    if not ordered:
        raise UserFacing("bot.claim.none")
    await answer(interaction, t("bot.claim.city_menu", loc, city=v.board.nodes[city].name,
                                count=len(ordered)),
                 view=components.route_view(game_id, seq,
                                            menus.route_choices(v.board, ordered, loc), loc))


async def station_menu(interaction, loc, game_id, seq):
    """'Station…': the cities a station can go to, those on the player's tickets first; only
    when they can pay for one (otherwise why not)."""
    v = await _my_turn_view(interaction, loc, game_id, seq)
    if v is None:
        return
    cost = v.station_cost()
    if not v.stations_left[v.seat]:
        raise UserFacing("bot.station.none")
    if not v.station_sites():
        raise UserFacing("bot.station.no_city")
    if not payments.station_options(v.hand, cost):
        raise UserFacing("bot.station.cannot_pay_any", count=cost)
    await answer(interaction, t("bot.station.menu", loc, count=cost),
                 view=components.city_menus_view("stcity", game_id, seq,
                                                 menus.station_menus(v, loc)))


async def show_hand(interaction, loc, game_id):
    """'My hand' and /ttr hand: cards, tickets, trains, the private board, and the next step."""
    bot = bot_of(interaction)
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
    png = await picture(interaction, lines, loc, hosted.game, hosted.names(), viewer=seat,
                        palette=await user_palette(bot, interaction.user.id))
    file = bot.delivery.as_file(png, description=private_board_alt(hosted.game, seat, loc)) \
        if png else None
    await answer(interaction, fit("\n".join(lines)), view=view, file=file)


async def picture(interaction, lines, loc, game, names, viewer=None, palette="standard"):
    """The board picture for this answer (from the cache when the state is unchanged), or None:
    past the member's allowance of pictures (cooldown.py) a line saying when the next one comes
    is added to `lines` instead."""
    bot = bot_of(interaction)
    wait = bot.picture_cooldown.take(interaction.user.id)
    if wait is not None:
        lines.append(t("bot.picture.cooldown", loc, seconds=wait))
        return None
    if viewer is None:      # the public picture: the phone map, as the turn card shows it
        return await bot.pictures.map(game, names, loc, palette=palette)
    return await bot.pictures.render(game, names, viewer=viewer, locale=loc, palette=palette)


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
    if item.src == components.DECK_TWICE:
        await draw_twice(interaction, loc, item.game_id, item.seq)
        return
    if item.src == components.FERRY:
        await draw_ferry_card(interaction, loc, item.game_id, item.seq)
        return
    if item.src != "deck" and item.src not in CARD_INDEX:
        raise UserFacing("bot.error.old_control")
    card = -1 if item.src == "deck" else CARD_INDEX[item.src]
    await act(interaction, loc, item.game_id, DrawCard(ANY_SEAT, card), item.seq)


@on_click("claim")
async def _claim_clicked(interaction, item):
    loc = await begin(interaction)
    await route_menu(interaction, loc, item.game_id, item.seq)


@on_click("rcity")
async def _route_city_picked(interaction, item):
    loc = await begin(interaction)
    await city_routes(interaction, loc, item.game_id, item.seq, _values(item, 10**4)[0])


@on_click("station")
async def _station_clicked(interaction, item):
    loc = await begin(interaction)
    await station_menu(interaction, loc, item.game_id, item.seq)


@on_click("stcity")
async def _station_city_picked(interaction, item):
    loc = await begin(interaction)
    await station(interaction, loc, item.game_id, _values(item, 10**4)[0],
                  expected_seq=item.seq)


@on_click("route")
async def _route_picked(interaction, item):
    loc = await begin(interaction)
    await claim(interaction, loc, item.game_id, _values(item, 10**4)[0], expected_seq=item.seq,
                guard=True)


@on_click("pay")
async def _pay_clicked(interaction, item):
    """A payment button: the player picked one of the sensible payments."""
    loc = await begin(interaction)
    if item.what != "r":
        return await act(interaction, loc, item.game_id,
                         BuildStation(ANY_SEAT, item.target, item.cards), item.seq)
    seat, v = await bot_of(interaction).service.moves.player_view(item.game_id,
                                                                  interaction.user.id)
    claims = v.claims(item.target, item.cards)
    if len(claims) > 1:         # Pennsylvania: whose share, asked after how to pay
        return await _claim_with_share(interaction, loc, item.game_id, seat, v, item.target,
                                       item.cards, claims, item.seq)
    await act(interaction, loc, item.game_id, claim_of(v, item.target, item.cards, ANY_SEAT),
              item.seq)


@on_click("share")
async def _share_clicked(interaction, item):
    """A share's button: claim as paid, taking the share (and the dummy's) it names."""
    loc = await begin(interaction)
    await _claim_share(interaction, loc, item, item.share, item.dummy)


@on_click("sharesel")
async def _share_picked(interaction, item):
    loc = await begin(interaction)
    share, dummy = divmod(_values(item, 10**4)[0], 100)
    await _claim_share(interaction, loc, item, share, dummy)


async def _claim_share(interaction, loc, item, share, dummy):
    seat, v = await bot_of(interaction).service.moves.player_view(item.game_id,
                                                                  interaction.user.id)
    chosen = pick(v.claims(item.target, item.cards), share, dummy)
    action = replace(chosen[0], seat=ANY_SEAT) if chosen else ClaimRoute(
        ANY_SEAT, item.target, item.cards, share=share, dummy_share=dummy)
    await act(interaction, loc, item.game_id, action, item.seq)


@on_click("tickets")
async def _tickets_clicked(interaction, item):
    """'Destination tickets': drawn at once, or (/ttr me confirm, on by default) first asked
    about in a private message whose 'Draw tickets' carries the game and its seq, so it works
    as long as the turn has not moved on, after a restart too, with its own fresh token."""
    loc = await begin(interaction)
    bot = bot_of(interaction)
    if item.op != "go" and (await bot.service.adapter_state.confirm_settings(interaction.user.id)).tickets:
        seat, v = await bot.service.moves.player_view(item.game_id, interaction.user.id)
        why = v.explain(DrawTickets(seat))
        if why is not None:
            raise ServiceError("service.illegal", illegal=why)
        hosted = await _started(bot, item.game_id)
        if hosted.seq != item.seq:
            return await stale(interaction, loc, item.game_id)
        return await answer(interaction, t("bot.confirm.tickets", loc),
                            view=components.confirm_tickets_view(item.game_id, item.seq, loc))
    await act(interaction, loc, item.game_id, DrawTickets(ANY_SEAT), item.seq)


@on_click("cancel")
async def _cancel_clicked(interaction, item):
    loc = await begin(interaction)
    await ack.update(interaction, t("bot.confirm.cancelled", loc))


@on_click("details")
async def _details_clicked(interaction, item):
    """The card's 'Details', privately: every standing in words (what the short lines and
    the picture say), for players and spectators alike."""
    loc = await begin(interaction)
    hosted = await bot_of(interaction).service.load(item.game_id)
    if hosted is None or hosted.game is None:
        raise UserFacing("bot.error.old_control")
    lines = details_lines(hosted.game, hosted.names(), loc, game_palette(hosted))
    seat = hosted.seat_of(interaction.user.id)
    if seat is not None and hosted.game.phase != "setup":
        lines.append(own_score_line(hosted.game, seat, loc))
    await answer(interaction, fit("\n".join(lines)))


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
