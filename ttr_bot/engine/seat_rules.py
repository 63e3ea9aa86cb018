"""What one seat may do, written once: which routes it may claim and can pay for, what its next
station costs and where one may go, how many offered tickets it must keep (docs/rules.md §2,
§3.4, §3.5, §6, §11.11).

The functions take plain state (owner list, trains, hand…) so that `Game` and `PlayerView`
answer with the same code: the engine's legality checks, the Discord adapter's choice lists and
the computer players cannot drift apart.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

from . import payment
from .cards import LOCO
from .mechanics import Mechanic, mechanics_of
from .state import IDLE, PLAY, SETUP

if TYPE_CHECKING:
    from .actions import ClaimRoute
    from .board import Board, Route, Rules
    from .game import Game
    from .payment import Hand, Payment

# why a route cannot be claimed, whatever the cards (message keys, like Illegal's)
ROUTE_TAKEN = "route_taken"
DOUBLE_OWN = "double_own"           # the seat owns the other lane
DOUBLE_CLOSED = "double_closed"     # the other lane is taken and this game is too small for both
NOT_ENOUGH_TRAINS = "not_enough_trains"
# why a station cannot be built on a node, whatever the cards
NO_STATIONS_LEFT = "no_stations_left"
UNKNOWN_CITY = "unknown_city"       # not a node, or a country (Switzerland)
STATION_TAKEN = "station_taken"


class _Table:
    """Per-board facts the queries below run over (computed once per board: `legal_actions`
    asks them on every turn of every simulated game)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.shortest = min((r.length for r in board.routes), default=0)
        # The routes a hand can pay for without substitutions are, per (colour, locomotives
        # usable), the shortest ones: groups sorted by length, so that a bisection finds them.
        rules = board.rules
        mechanics = mechanics_of(board)
        # trains a claim takes: the length, and what a map's rules add (mountains)
        self.need = tuple(r.length + sum(m.trains_needed(r) for m in mechanics)
                          for r in board.routes)
        # the mechanics whose claims take trains the state decides (bullet routes)
        self.dynamic: tuple[Mechanic, ...] = tuple(
            m for m in mechanics if type(m).claim_trains is not Mechanic.claim_trains)
        # the mechanics that turn one payment into claims of their own (ferry cards, shares)
        self.expanders: tuple[Mechanic, ...] = tuple(
            m for m in mechanics if type(m).claim_variants is not Mechanic.claim_variants)
        # the mechanics that pay some routes their own way (ferry pairs, ferry cards)
        self.payers: tuple[Mechanic, ...] = tuple(
            m for m in mechanics if any(m.pays(r) for r in board.routes))
        paid_apart = {r.index for r in board.routes if any(m.pays(r) for m in self.payers)}
        groups: dict[tuple[int, bool], list[Route]] = {}
        for r in sorted(board.routes, key=lambda r: (r.length, r.index)):
            if not r.any_cards and r.index not in paid_apart:
                groups.setdefault((r.color, payment.locos_allowed(rules, r)), []).append(r)
        self.groups = tuple((color, locos_ok, tuple(r.length for r in rs),
                             tuple((r.index, r.ferry) for r in rs))
                            for (color, locos_ok), rs in groups.items())
        # Nordic substitutions and the mechanics' own payments: the full enumeration
        self.substituted = tuple(r for r in board.routes if r.any_cards or r.index in paid_apart)


_TABLES: dict[int, _Table] = {}


def _table(board: Board) -> _Table:
    table = _TABLES.get(id(board))
    if table is None or table.board is not board:
        table = _TABLES[id(board)] = _Table(board)
    return table


def route_blocked(board: Board, n: int, owner: Sequence[int], seat: int, trains: int | None,
                  r: int, game: Game | None = None) -> str | None:
    """Why `seat` may not claim route r whatever cards it holds (a reason key above), or None.
    `trains=None` leaves the seat's trains out of it."""
    if owner[r] >= 0:
        return ROUTE_TAKEN
    route = board.routes[r]
    if route.twin >= 0:
        lanes = route.lanes
        if len(lanes) == 1:
            other = owner[route.twin]
            if other == seat:
                return DOUBLE_OWN
            if other >= 0 and not board.rules.both_lanes_open(n):
                return DOUBLE_CLOSED
        else:   # a triple (RULES.md, the preamble before §12; §17.1)
            taken = 0
            for lane in lanes:
                if owner[lane] == seat:
                    return DOUBLE_OWN
                taken += owner[lane] >= 0
            if taken and taken >= board.rules.lanes_open(n, len(lanes) + 1):
                return DOUBLE_CLOSED
    if trains is not None:
        need = trains_needed(board, r, game) if board.rules.mechanics else route.length
        if need > trains:
            return NOT_ENOUGH_TRAINS
    return None


def claim_expanders(board: Board) -> tuple[Mechanic, ...]:
    """The board's mechanics that make several claims of one payment (`claim_variants`)."""
    return _table(board).expanders if board.rules.mechanics else ()


def trains_needed(board: Board, r: int, game: Game | None = None) -> int:
    """Trains claiming route r takes from the seat's supply (its length; a map's rules may add,
    or decide from the game's state)."""
    if not board.rules.mechanics:
        return board.routes[r].length
    table = _table(board)
    if game is not None:
        for m in table.dynamic:
            taken = m.claim_trains(game, board.routes[r])
            if taken is not None:
                return taken
    return table.need[r]


def pay(board: Board, route: Route, cards: Hand, game: Game | None = None,
        action: ClaimRoute | None = None) -> int:
    """The colour a payment for `route` used (-1: locomotives only), or raise Illegal: the
    map's own payment rule for the routes it pays (a mechanic's), else payment.py's."""
    rules = board.rules
    if rules.mechanics:
        for m in _table(board).payers:
            if m.pays(route):
                return m.route_payment(rules, route, cards, game, action)
    return payment.route_payment(rules, route, cards)


def route_payments(board: Board, route: Route, hand: Hand, game: Game | None = None) -> list[Payment]:
    """Every distinct payment `hand` can make for `route` (the map's own rule first)."""
    rules = board.rules
    if rules.mechanics:
        for m in _table(board).payers:
            if m.pays(route):
                return m.route_payments(rules, route, hand, game)
    return payment.route_payments(rules, route, hand)


def route_blocks(board: Board, n: int, owner: Sequence[int], seat: int,
                 trains: int | None = None, game: Game | None = None) -> list[str | None]:
    """`route_blocked` for every route, in board order."""
    return [route_blocked(board, n, owner, seat, trains, r, game) for r in range(len(board.routes))]


def affordable_routes(board: Board, n: int, owner: Sequence[int], seat: int, trains: int | None,
                      hand: Hand, game: Game | None = None) -> list[tuple[int, list[Payment] | None]]:
    """[(route index, payments or None)]: the routes `seat` may claim and can pay for with
    `hand`, in board order. A count test finds the routes the hand can pay for and leaves their
    payments (None) to `payment.route_payments`; Nordic substitutions need the full
    enumeration, which is passed on."""
    total = sum(hand)
    table = _table(board)
    if total < table.shortest:
        return []
    locos = hand[LOCO]
    out: list[tuple[int, list[Payment] | None]] = []
    for color, locos_ok, lengths, rows in table.groups:
        # payment.could_pay for every route of the group at once: the ones short enough
        have = payment.usable_cards(hand, color, locos_ok)
        usable_locos = locos if locos_ok else 0
        for r, ferry in rows[:bisect_right(lengths, have)]:
            if usable_locos >= ferry and route_blocked(board, n, owner, seat, trains, r, game) is None:
                out.append((r, None))
    for route in table.substituted:
        if ((route.length <= total or not route.any_cards)
                and route_blocked(board, n, owner, seat, trains, route.index, game) is None):
            pays = route_payments(board, route, hand, game)
            if pays:
                out.append((route.index, pays))
    out.sort(key=itemgetter(0))
    return out


def idle_turn(phase: str, step: str, current: int, seat: int) -> bool:
    """Is it `seat`'s turn with nothing pending (a second card, a ticket choice, a tunnel)?"""
    return phase == PLAY and step == IDLE and current == seat


def claimable_routes(board: Board, n: int, owner: Sequence[int], seat: int, trains: int | None,
                     hand: Hand, game: Game | None = None) -> list[tuple[Route, list[Payment]]]:
    """[(Route, payments)] `seat` may claim and can pay for, whoever's turn it is: every
    payment `payment.route_payments` lists."""
    routes, rules = board.routes, board.rules
    return [(routes[r], pays if pays is not None else payment.route_payments(rules, routes[r], hand))
            for r, pays in affordable_routes(board, n, owner, seat, trains, hand, game)]


def station_cost(rules: Rules, stations_left: int) -> int:
    """Cards the seat's next station costs: 1, then 2, then 3 (§6)."""
    return rules.stations - stations_left + 1


def station_blocked(board: Board, station_owner: Mapping[int, int], stations_left: int,
                    city: int) -> str | None:
    """Why the seat may not build a station on node `city` whatever its cards (a reason key
    above), or None."""
    if not stations_left:
        return NO_STATIONS_LEFT
    nodes = board.nodes
    if not 0 <= city < len(nodes) or nodes[city].country:
        return UNKNOWN_CITY
    if city in station_owner:
        return STATION_TAKEN
    return None


def station_sites(board: Board, station_owner: Mapping[int, int], stations_left: int) -> list[int]:
    """Node indices where the seat may build a station now: cities without one ([] when the
    map has no stations or the seat has none left)."""
    return [c for c in range(len(board.nodes))
            if station_blocked(board, station_owner, stations_left, c) is None]


def keep_min(rules: Rules, phase: str, offer: Sequence[int] | None) -> int:
    """The fewest tickets of `offer` the seat must keep; all of them when fewer are offered
    (§11.11); 0 without an offer."""
    need = rules.start_keep_min if phase == SETUP else rules.draw_keep_min
    return min(need, len(offer or ()))
