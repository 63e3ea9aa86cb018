"""What one player may know (for the Discord layer and the computer players).

`PlayerView` holds the public state plus that seat's own hand, tickets and offer — never another
player's — and answers the seat's questions with the engine's own rules (seat_rules.py):
what it may claim, why a route is closed to it, where a station may go and what it costs, how
many tickets it must keep, why an action would be refused. `determinize(view, rng)` builds a
full `Game` consistent with the view, dealing the unknown cards and tickets at random: what a
search-based computer player simulates on.
"""
import copy
from collections import Counter, deque
from dataclasses import dataclass, field
from random import Random
from typing import Any

from . import network, seat_rules
from .actions import Action, ClaimRoute
from .board import Board, Route
from .cards import N_CARD_KINDS, full_deck
from .dealer import Dealer
from .errors import Illegal
from .game import Game
from .mechanics import mechanics_of
from .payment import Payment
from .state import TUNNEL, PendingTunnel


@dataclass
class PlayerView:
    board: Board
    n: int
    seat: int
    phase: str
    step: str
    current: int
    turn: int
    final_turns_left: int | None
    faceup: list[int]
    deck_size: int
    discard: list[int]       # the discard pile is public: every card in it was seen
    ticket_deck_size: int
    owner: list[int]
    station_owner: dict[int, int]
    trains: list[int]
    stations_left: list[int]
    hand_sizes: list[int]
    ticket_counts: list[int]
    route_points: list[int]
    hand: list[int]          # own
    tickets: list[int]       # own kept ticket ids
    offer: list[int] | None  # own ticket ids to choose from, or None
    tunnel: PendingTunnel | None   # own pending tunnel, or None
    passes: int
    extra: dict[str, Any] = field(default_factory=dict)   # the mechanics' state this seat may know

    def legal_actions(self) -> list[Action]:
        """Same as the game's: legality depends only on what the player knows."""
        return determinize(self, None).legal_actions(self.seat)

    def explain(self, action: Action) -> Illegal | None:
        """The engine's Illegal reason for `action` now, or None if it is legal."""
        return determinize(self, None).check(action)

    def route_blocked(self, r: int) -> str | None:
        """Why this seat may not claim route r whatever its cards and whoever's turn it is (a
        reason key), or None."""
        if self.extra:      # a map's own rules may read their state (bullet routes)
            return determinize(self, None).route_blocked(self.seat, r)
        return seat_rules.route_blocked(self.board, self.n, self.owner, self.seat,
                                        self.trains[self.seat], r)

    def route_blocks(self) -> list[str | None]:
        """`route_blocked` for every route."""
        if self.extra:
            return determinize(self, None).route_blocks(self.seat)
        return seat_rules.route_blocks(self.board, self.n, self.owner, self.seat,
                                       self.trains[self.seat])

    def claimable_routes(self) -> list[tuple[Route, list[Payment]]]:
        """[(Route, payments)] this seat may claim right now and can pay for; [] unless it is
        its turn with nothing pending."""
        if not seat_rules.idle_turn(self.phase, self.step, self.current, self.seat):
            return []
        if self.extra:      # a map's own rules may read their state (bullet routes, ferry cards)
            return determinize(self, None).claimable_routes(self.seat)
        return seat_rules.claimable_routes(self.board, self.n, self.owner, self.seat,
                                           self.trains[self.seat], self.hand)

    def route_payments(self, r: int) -> list[Payment]:
        """Every distinct payment this seat's hand can make for route r, whoever's turn it is,
        by the map's own rule where it has one (Northern Lights' pairs, Italy's ferry cards)."""
        game = determinize(self, None) if self.extra else None
        return seat_rules.route_payments(self.board, self.board.routes[r], self.hand, game)

    def payment_color(self, r: int, cards: Payment) -> int | None:
        """The colour a payment of `cards` for route r uses (-1: locomotives only), or None
        when it does not pay for it."""
        game = determinize(self, None) if self.extra else None
        try:
            return seat_rules.pay(self.board, self.board.routes[r], list(cards), game)
        except Illegal:
            return None

    def route_claims(self, r: int) -> list[ClaimRoute]:
        """The legal claims of route r now (the game's `route_claims`)."""
        out: list[ClaimRoute] = []
        for a in determinize(self, None).route_claims(self.seat, r):
            assert isinstance(a, ClaimRoute)
            out.append(a)
        return out

    def claims(self, r: int, cards: Payment) -> list[ClaimRoute]:
        """The claims of route r that paying `cards` makes on this map, by its own rules: one
        on most maps; Italy's names the ferry cards it spends; Pennsylvania's one per choice
        of the share's company (and, with 2 players, the dummy's). [] when it cannot be made."""
        claim = ClaimRoute(self.seat, r, tuple(cards))
        expanders = seat_rules.claim_expanders(self.board)
        if not expanders:
            return [claim]
        game = determinize(self, None)
        out: list[ClaimRoute] = []
        for c in game.claim_variants(claim):
            assert isinstance(c, ClaimRoute)
            out.append(c)
        return out

    def station_cost(self) -> int:
        """Cards this seat's next station costs."""
        return seat_rules.station_cost(self.board.rules, self.stations_left[self.seat])

    def station_sites(self) -> list[int]:
        """Node indices where this seat may build a station now (whatever its cards)."""
        return seat_rules.station_sites(self.board, self.station_owner, self.stations_left[self.seat])

    def idle_turn(self) -> bool:
        """Is it this seat's turn with nothing pending (what a claim or a station needs)?"""
        return seat_rules.idle_turn(self.phase, self.step, self.current, self.seat)

    def ticket_routes(self) -> dict[int, int]:
        """{route index: how many of this seat's unfinished tickets it serves}: the routes on
        a cheapest way (in trains, over its own routes and those still open to it) to finish
        each one (network.ticket_routes). Stations are left out: they are a last resort."""
        blocks = self.route_blocks()
        costs: list[int | None] = [0 if o == self.seat else
                 (self.board.routes[r].length if blocks[r] is None else None)
                 for r, o in enumerate(self.owner)]
        return network.ticket_routes(self.board, costs, self.tickets)

    def open_ticket_nodes(self) -> list[int]:
        """Node indices of the places on this seat's tickets not yet joined by its own routes,
        in the order of its tickets (each node once)."""
        board = self.board
        own = [r for r, o in enumerate(self.owner) if o == self.seat]
        comp = network.components(len(board.nodes), board, own)
        out: dict[int, None] = {}
        for tid in self.tickets:
            ticket = board.tickets[tid]
            if network.ticket_result(board, comp, ticket)[0]:
                continue
            for place in (ticket.origin, *ticket.dests):
                for node in board.place_nodes[place]:
                    out.setdefault(node, None)
        return list(out)

    def keep_min(self) -> int:
        """The fewest tickets this seat must keep from its current offer (0 without one)."""
        return seat_rules.keep_min(self.board.rules, self.phase, self.offer)


def view(game: Game, seat: int) -> PlayerView:
    hidden_tunnel = game.tunnel if game.step == TUNNEL and game.current == seat else None
    offer = game.offers[seat]
    return PlayerView(
        board=game.board, n=game.n, seat=seat, phase=game.phase, step=game.step,
        current=game.current, turn=game.turn, final_turns_left=game.final_turns_left,
        faceup=list(game.faceup), deck_size=len(game.deck), discard=list(game.discard),
        ticket_deck_size=len(game.ticket_deck), owner=list(game.owner),
        station_owner=dict(game.station_owner), trains=list(game.trains),
        stations_left=list(game.stations_left), hand_sizes=[sum(h) for h in game.hands],
        ticket_counts=[len(t) for t in game.tickets], route_points=list(game.route_points),
        hand=list(game.hands[seat]), tickets=list(game.tickets[seat]),
        offer=None if offer is None else list(offer),
        tunnel=hidden_tunnel, passes=game.passes,
        extra={m.name: m.hidden(game.extra[m.name], seat) for m in game.mechanics
               if m.name in game.extra})


def _unhidden(board: Board, extra: dict[str, Any]) -> dict[str, Any]:
    """The mechanics' state for a determinized game: what the view shows, the hidden parts
    filled in by each mechanic (`Mechanic.unhide`)."""
    if not extra:
        return {}
    return {m.name: m.unhide(copy.deepcopy(extra[m.name])) for m in mechanics_of(board)
            if m.name in extra}


def determinize(v: PlayerView, rng: Random | None) -> Game:
    """A Game consistent with the view: own cards and tickets as they are, the rest dealt from
    what this player cannot see (shuffled with `rng`; in canonical order when rng is None)."""
    board = v.board
    unseen = Counter(full_deck(board.rules.locomotives))
    unseen.subtract(Counter({i: n for i, n in enumerate(v.hand)}))
    unseen.subtract(Counter(v.faceup))
    unseen.subtract(Counter(v.discard))
    if v.tunnel:
        unseen.subtract(Counter({i: n for i, n in enumerate(v.tunnel.laid)}))
        unseen.subtract(Counter(v.tunnel.revealed))
    pool = [c for c, k in sorted(unseen.items()) for _ in range(max(k, 0))]
    if rng is not None:
        rng.shuffle(pool)
    hands: list[list[int]] = []
    for p in range(v.n):
        if p == v.seat:
            hands.append(list(v.hand))
            continue
        h = [0] * N_CARD_KINDS
        for _ in range(v.hand_sizes[p]):
            if pool:
                h[pool.pop()] += 1
        hands.append(h)
    deck = pool[-v.deck_size:] if v.deck_size else []
    assert len(deck) + sum(map(sum, hands)) + len(v.faceup) + len(v.discard) <= (
        len(full_deck(board.rules.locomotives)))
    mine = set(v.tickets) | set(v.offer or ())
    free = [t.id for t in board.tickets if t.id not in mine and not t.long]
    if rng is not None:
        rng.shuffle(free)
    tickets: list[list[int]] = []
    for p in range(v.n):
        if p == v.seat:
            tickets.append(list(v.tickets))
        else:
            tickets.append([free.pop() for _ in range(min(v.ticket_counts[p], len(free)))])
    routes_of: list[list[int]] = [[] for _ in range(v.n)]
    for r, o in enumerate(v.owner):
        if o >= 0:
            routes_of[o].append(r)
    stations_of: list[list[int]] = [[] for _ in range(v.n)]
    for city, o in v.station_owner.items():
        stations_of[o].append(city)
    offers: list[list[int] | None] = [None] * v.n
    if v.offer is not None:
        offers[v.seat] = list(v.offer)
    return Game.from_state(board, v.n, Dealer(0), {
        "deck": deck, "discard": list(v.discard), "faceup": list(v.faceup), "hands": hands,
        "trains": list(v.trains), "stations_left": list(v.stations_left),
        "owner": list(v.owner), "routes_of": routes_of, "route_points": list(v.route_points),
        "stations_of": stations_of, "tickets": tickets, "offers": offers,
        "phase": v.phase, "step": v.step, "current": v.current, "turn": v.turn,
        "final_turns_left": v.final_turns_left, "final_trigger": None, "passes": v.passes,
        "reshuffles": 0, "station_owner": dict(v.station_owner),
        "ticket_deck": deque(free[:v.ticket_deck_size]), "long_deck": deque(),
        "tunnel": v.tunnel, "last_move": None,
        "extra": _unhidden(board, v.extra),
    })
