"""What one player may know (for the Discord layer and the computer players).

`PlayerView` holds the public state plus that seat's own hand, tickets and offer — never another
player's. `determinize(view, rng)` builds a full `Game` consistent with the view, dealing the
unknown cards and tickets at random: what a search-based computer player simulates on.
"""
from collections import Counter, deque
from dataclasses import dataclass

from .cards import DECK_SIZE, full_deck
from .dealer import Dealer
from .game import Game


@dataclass
class PlayerView:
    board: object
    n: int
    seat: int
    phase: str
    step: str
    current: int
    turn: int
    final_turns_left: object
    faceup: list
    deck_size: int
    discard: list            # the discard pile is public: every card in it was seen
    ticket_deck_size: int
    owner: list
    station_owner: dict
    trains: list
    stations_left: list
    hand_sizes: list
    ticket_counts: list
    route_points: list
    hand: list               # own
    tickets: list            # own kept ticket ids
    offer: object            # own ticket ids to choose from, or None
    tunnel: object           # own pending tunnel (route, color, laid, revealed, extra) or None
    passes: int

    def legal_actions(self):
        """Same as the game's: legality depends only on what the player knows."""
        return determinize(self, None).legal_actions(self.seat)


def view(game, seat):
    hidden_tunnel = game.tunnel if game.step == "tunnel" and game.current == seat else None
    return PlayerView(
        board=game.board, n=game.n, seat=seat, phase=game.phase, step=game.step,
        current=game.current, turn=game.turn, final_turns_left=game.final_turns_left,
        faceup=list(game.faceup), deck_size=len(game.deck), discard=list(game.discard),
        ticket_deck_size=len(game.ticket_deck), owner=list(game.owner),
        station_owner=dict(game.station_owner), trains=list(game.trains),
        stations_left=list(game.stations_left), hand_sizes=[sum(h) for h in game.hands],
        ticket_counts=[len(t) for t in game.tickets], route_points=list(game.route_points),
        hand=list(game.hands[seat]), tickets=list(game.tickets[seat]),
        offer=None if game.offers[seat] is None else list(game.offers[seat]),
        tunnel=hidden_tunnel, passes=game.passes)


def determinize(v, rng):
    """A Game consistent with the view: own cards and tickets as they are, the rest dealt from
    what this player cannot see (shuffled with `rng`; in canonical order when rng is None)."""
    board = v.board
    g = Game(board, v.n, Dealer(0), _empty=True)
    unseen = Counter(full_deck())
    unseen.subtract(Counter({i: n for i, n in enumerate(v.hand)}))
    unseen.subtract(Counter(v.faceup))
    unseen.subtract(Counter(v.discard))
    if v.tunnel:
        r, color, laid, revealed, extra = v.tunnel
        unseen.subtract(Counter({i: n for i, n in enumerate(laid)}))
        unseen.subtract(Counter(revealed))
    pool = [c for c, k in sorted(unseen.items()) for _ in range(max(k, 0))]
    if rng is not None:
        rng.shuffle(pool)
    hands = []
    for p in range(v.n):
        if p == v.seat:
            hands.append(list(v.hand))
            continue
        h = [0] * 9
        for _ in range(v.hand_sizes[p]):
            if pool:
                h[pool.pop()] += 1
        hands.append(h)
    g.deck = pool[-v.deck_size:] if v.deck_size else []
    assert len(g.deck) + sum(map(sum, hands)) + len(v.faceup) + len(v.discard) <= DECK_SIZE
    mine = set(v.tickets) | set(v.offer or ())
    free = [t.id for t in board.tickets if t.id not in mine and not t.long]
    if rng is not None:
        rng.shuffle(free)
    tickets = []
    for p in range(v.n):
        if p == v.seat:
            tickets.append(list(v.tickets))
        else:
            tickets.append([free.pop() for _ in range(min(v.ticket_counts[p], len(free)))])
    g.discard = list(v.discard)
    g.faceup = list(v.faceup)
    g.hands = hands
    g.trains = list(v.trains)
    g.stations_left = list(v.stations_left)
    g.owner = list(v.owner)
    g.routes_of = [[] for _ in range(v.n)]
    for r, o in enumerate(v.owner):
        if o >= 0:
            g.routes_of[o].append(r)
    g.route_points = list(v.route_points)
    g.station_owner = dict(v.station_owner)
    g.stations_of = [[] for _ in range(v.n)]
    for city, o in v.station_owner.items():
        g.stations_of[o].append(city)
    g.tickets = tickets
    g.offers = [None] * v.n
    if v.offer is not None:
        g.offers[v.seat] = list(v.offer)
    g.ticket_deck = deque(free[:v.ticket_deck_size])
    g.long_deck = deque()
    g.phase, g.step, g.current, g.turn = v.phase, v.step, v.current, v.turn
    g.final_turns_left = v.final_turns_left
    g.final_trigger = None
    g.passes = v.passes
    g.tunnel = v.tunnel
    g.last_move = None
    g.reshuffles = 0
    return g
