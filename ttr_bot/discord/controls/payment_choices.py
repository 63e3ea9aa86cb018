"""Which cards pay for a route, a station or a tunnel's extra cost: pure.

A player should not have to spell out a payment when only one makes sense. The sensible
payments are, per colour used, the one with the fewest cards and then the fewest locomotives;
paying only locomotives is sensible only when no colour can pay. If one is left it is used
without asking; otherwise the player picks among them (buttons) or says so with the command's
`color` and `locomotives` options, which also reach every other legal payment.
"""
from ...engine import payment
from ...engine.cards import LOCO, N_COLORS
from ...engine.errors import Illegal


def _used_color(rules, route, cards):
    try:
        return payment.route_payment(rules, route, cards)
    except Illegal:
        return None


def _reduce(pays, used, color, locomotives):
    """Filter by the stated colour and locomotive count, then keep the sensible ones."""
    if color is not None:
        want = -1 if color == LOCO else color
        pays = [p for p in pays if used(p) == want]
    if locomotives is not None:
        pays = [p for p in pays if p[LOCO] == locomotives]
    if locomotives is not None and color is not None:
        return sorted(pays, key=lambda p: (sum(p), p))[:1] if pays else []
    best: dict[int | None, payment.Payment] = {}     # colour used -> its best payment
    for p in pays:
        key = used(p)
        if key not in best or (sum(p), p[LOCO]) < (sum(best[key]), best[key][LOCO]):
            best[key] = p
    if locomotives is None and len(best) > 1:
        best.pop(-1, None)   # all locomotives only when nothing else pays
    return sorted(best.values(), key=lambda p: (p[LOCO], p))


def route_options(rules, route, hand, color=None, locomotives=None):
    """Sensible payments for claiming `route` from `hand` (9 counts), filtered by the player's
    stated colour (card index; LOCO for all locomotives) and locomotive count."""
    pays = payment.route_payments(rules, route, hand)
    return _reduce(pays, lambda p: _used_color(rules, route, p), color, locomotives)


def claim_options(view, r, color=None, locomotives=None):
    """`route_options` for the seat of `view` and route index `r`, by the map's own payment
    rule where it has one (the engine's: Northern Lights pays a ferry's locomotive symbol with
    a pair of one colour too)."""
    if not view.board.rules.mechanics:
        return route_options(view.board.rules, view.board.routes[r], view.hand, color,
                             locomotives)
    return _reduce(view.route_payments(r), lambda p: view.payment_color(r, p), color,
                   locomotives)


def station_options(hand, count, color=None, locomotives=None):
    """Sensible payments for a station costing `count` cards."""
    pays = payment.station_payments(hand, count)

    def used(p):
        return next((c for c in range(N_COLORS) if p[c]), -1)
    return _reduce(pays, used, color, locomotives)


def tunnel_options(hand, extra, color_used):
    """Ways to pay a tunnel's extra cost, fewest locomotives first."""
    return sorted(payment.tunnel_extra_options(hand, extra, color_used), key=lambda p: p[LOCO])
