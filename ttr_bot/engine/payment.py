"""What a route, a station or a tunnel's extra cost may be paid with (docs/rules.md §3.4, §6,
§8, §9, §11.5–6).

A payment is a 9-tuple of card counts. `route_payment` says whether one is valid and which
colour it used (that colour decides a tunnel's extra cost); `route_payments` lists the ways a
hand can pay, one per distinct mix, for `legal_actions` and the computer players.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TypeAlias

from .cards import GRAY, LOCO, N_CARD_KINDS, N_COLORS
from .errors import Illegal

if TYPE_CHECKING:
    from .board import Route, Rules

Payment: TypeAlias = tuple[int, ...]    # 9 card counts
Hand: TypeAlias = Sequence[int]         # 9 card counts


def locos_allowed(rules: Rules, route: Route) -> bool:
    only = rules.locomotives_only_on
    if not only:
        return True
    return ("tunnel" in only and route.tunnel) or ("ferry" in only and route.ferry > 0)


def usable_cards(hand: Hand, color: int, locos_ok: bool) -> int:
    """How many cards of `hand` could go into a route of `color` without substitutions: that
    colour (on gray, the colour held most), plus the locomotives if they may be used there."""
    return (max(hand[:N_COLORS]) if color == GRAY else hand[color]) + (hand[LOCO] if locos_ok else 0)


def could_pay(route: Route, hand: Hand, locos_ok: bool) -> bool:
    """The count test before listing payments: False when `hand` certainly cannot pay for
    `route` (`locos_ok`: `locos_allowed` for it). Nordic substitutions always pass: they need
    the full enumeration."""
    if route.any_cards:
        return True
    if (hand[LOCO] if locos_ok else 0) < route.ferry:
        return False
    return usable_cards(hand, route.color, locos_ok) >= route.length


def _colors_for(route: Route) -> Sequence[int]:
    return range(N_COLORS) if route.color == GRAY else (route.color,)


def route_payment(rules: Rules | None, route: Route, cards: Hand) -> int:
    """The colour a valid payment used (-1 for locomotives only), or raise Illegal."""
    total = sum(cards)
    length = route.length
    locos = cards[LOCO]
    used = [c for c in range(N_COLORS) if cards[c]]
    if route.any_cards and route.ferry:
        return _nordic_ferry(route, cards, total, locos, used)
    if route.any_cards:
        return _any_cards_route(route, cards, total, used)
    if total != length:
        raise Illegal("pay_exact", count=length)
    if len(used) > 1:
        raise Illegal("pay_one_color")
    if locos and rules is not None and not locos_allowed(rules, route):
        raise Illegal("no_locos_here")
    if locos < route.ferry:
        raise Illegal("ferry_locos", count=route.ferry)
    if not used:
        return -1
    color = used[0]
    if route.color != GRAY and color != route.color:
        raise Illegal("pay_route_color")
    return color


def _nordic_ferry(route: Route, cards: Hand, total: int, locos: int, used: list[int]) -> int:
    """Any 3 cards may replace one required locomotive (docs/rules.md §11.6)."""
    extra = total - route.length
    if extra < 0 or extra % 2 or extra // 2 > route.ferry:
        raise Illegal("pay_ferry_any", count=route.length, locos=route.ferry, any=route.any_cards)
    subs = extra // 2
    real_locos = route.ferry - subs
    if locos < real_locos:
        raise Illegal("ferry_locos", count=route.ferry)
    for color in _colors_for(route):
        others = total - cards[color] - locos
        if others <= 3 * subs:
            return color if cards[color] else -1
    raise Illegal("pay_one_color")


def _any_cards_route(route: Route, cards: Hand, total: int, used: list[int]) -> int:
    """Murmansk–Lieksa: any 4 cards replace one card of the chosen colour; no locomotive
    otherwise (docs/rules.md §11.6)."""
    n = route.any_cards
    extra = total - route.length
    if extra < 0 or extra % (n - 1):
        raise Illegal("pay_any_cards", count=route.length, any=n)
    subs = extra // (n - 1)
    if subs > route.length:
        raise Illegal("pay_any_cards", count=route.length, any=n)
    for color in _colors_for(route):
        if cards[color] >= route.length - subs:
            return color
    raise Illegal("pay_any_cards", count=route.length, any=n)


def route_payments(rules: Rules, route: Route, hand: Hand) -> list[Payment]:
    """Distinct valid payments from `hand` (9 counts). Nordic substitutions are listed once per
    number of substituted cards, paying them with the cards the player holds most of."""
    if route.any_cards:
        return _substitute_payments(route, hand)
    length = route.length
    ferry = route.ferry
    locos = hand[LOCO] if locos_allowed(rules, route) else 0
    # locomotives beside at least one card of the colour (all locomotives: listed last); no
    # min()/max() calls: this runs for every affordable route on every turn of every simulation
    most = locos if locos < length else length - 1
    out = []
    for color in _colors_for(route):
        fewest = length - hand[color]
        for n_loco in range(fewest if fewest > ferry else ferry, most + 1):
            p = [0] * N_CARD_KINDS
            p[color] = length - n_loco
            p[LOCO] = n_loco
            out.append(tuple(p))
    if locos >= length:
        p = [0] * N_CARD_KINDS
        p[LOCO] = length
        out.append(tuple(p))
    return out


def _substitute_payments(route: Route, hand: Hand) -> list[Payment]:
    if not _substitution_possible(route, hand):
        return []
    out: set[Payment] = set()
    colors = [c for c in _colors_for(route) if hand[c]]
    zero = next((c for c in _colors_for(route) if not hand[c]), None)
    if zero is not None:
        colors.append(zero)   # payments without that colour are the same for every such colour
    for color in colors:
        for p in _substitute_for_color(route, hand, color):
            try:
                route_payment(None, route, p)
            except Illegal:
                continue
            out.add(p)
    return sorted(out)


def _substitution_possible(route: Route, hand: Hand) -> bool:
    """Could `_substitute_for_color` offer any payment from `hand`? Counted, not enumerated
    (most routes fail, and the enumeration is dear): the fewest substitutions the best colour
    needs must leave enough cards to stand in for them."""
    best = max(hand[:N_COLORS]) if route.color == GRAY else hand[route.color]
    length, ferry = route.length, route.ferry
    if ferry:
        short = length - ferry - best                    # coloured cards paid with locomotives
        subs = ferry + (short if short > 0 else 0) - hand[LOCO]   # locomotives paid with triples
        subs = subs if subs > 0 else 0
        return subs <= ferry and sum(hand) >= length + 2 * subs
    subs = length - best if length > best else 0
    return sum(hand) >= length + (route.any_cards - 1) * subs


def _substitute_for_color(route: Route, hand: Hand, color: int) -> Iterator[Payment]:
    n = route.any_cards
    for subs in range(0, (route.ferry or route.length) + 1):
        p = [0] * N_CARD_KINDS
        rest = list(hand)
        if route.ferry:
            base = route.length - route.ferry
            real = route.ferry - subs
            if rest[LOCO] < real:
                continue
            p[LOCO] += real
            rest[LOCO] -= real
            take = min(rest[color], base)
            p[color] += take
            rest[color] -= take
            need_locos = base - take
            if rest[LOCO] < need_locos:
                continue
            p[LOCO] += need_locos
            rest[LOCO] -= need_locos
            spare = 3 * subs
        else:
            base = route.length - subs
            if rest[color] < base:
                continue
            p[color] += base
            rest[color] -= base
            spare = n * subs
        if sum(rest) < spare:
            continue
        # substitutes: spend what the player holds most of, locomotives last
        order = sorted(range(N_CARD_KINDS), key=lambda c: (c == LOCO, -rest[c]))
        for c in order:
            k = min(rest[c], spare)
            p[c] += k
            rest[c] -= k
            spare -= k
        yield tuple(p)


def tunnel_extra(revealed: Sequence[int], color_used: int) -> int:
    """Extra cards a tunnel costs after the reveal (docs/rules.md §6: only locomotives count when the
    player paid with locomotives only)."""
    return sum(1 for c in revealed if c == LOCO or (color_used >= 0 and c == color_used))


def tunnel_extra_payment(cards: Hand, extra: int, color_used: int) -> None:
    if sum(cards) != extra:
        raise Illegal("tunnel_pay_exact", count=extra)
    for c in range(N_COLORS):
        if cards[c] and c != color_used:
            raise Illegal("tunnel_pay_color")


def tunnel_extra_options(hand: Hand, extra: int, color_used: int) -> list[Payment]:
    out = []
    have = hand[color_used] if color_used >= 0 else 0
    for n_loco in range(max(0, extra - have), min(extra, hand[LOCO]) + 1):
        p = [0] * N_CARD_KINDS
        if color_used >= 0:
            p[color_used] = extra - n_loco
        p[LOCO] = n_loco
        out.append(tuple(p))
    return out


def station_payment(cards: Hand, count: int) -> None:
    if sum(cards) != count:
        raise Illegal("station_cost", count=count)
    if sum(1 for c in range(N_COLORS) if cards[c]) > 1:
        raise Illegal("pay_one_color")


def station_payments(hand: Hand, count: int) -> list[Payment]:
    out = []
    for color in range(N_COLORS):
        for n_loco in range(max(0, count - hand[color]), min(count, hand[LOCO]) + 1):
            if n_loco == count:
                continue
            p = [0] * N_CARD_KINDS
            p[color] = count - n_loco
            p[LOCO] = n_loco
            out.append(tuple(p))
    if hand[LOCO] >= count:
        p = [0] * N_CARD_KINDS
        p[LOCO] = count
        out.append(tuple(p))
    return out
