"""What the computer players precompute once per board: adjacency, ticket ends as node sets,
route points. Boards are immutable and cached by `ttr_bot.maps.load_board`, so this is too."""
from bisect import bisect_right

from ..engine.cards import LOCO
from ..engine.payment import locos_allowed, usable_cards
from ..engine.seat_rules import route_blocked

_CACHE = {}


class BoardInfo:
    def __init__(self, board):
        self.board = board
        rules = board.rules
        self.rules = rules
        self.n_nodes = len(board.nodes)
        self.routes = board.routes
        self.n_routes = len(board.routes)
        self.length = [r.length for r in board.routes]
        self.twin = [r.twin for r in board.routes]
        self.ends = [(r.a, r.b) for r in board.routes]
        self.points = [rules.route_points.get(r.length, 0) for r in board.routes]
        self.locos_ok = [locos_allowed(rules, r) for r in board.routes]
        # adjacency: node -> ((route, other node), ...)
        adj = [[] for _ in board.nodes]
        for r in board.routes:
            adj[r.a].append((r.index, r.b))
            adj[r.b].append((r.index, r.a))
        self.adj = tuple(tuple(x) for x in adj)
        # tickets: id -> (origin nodes, ((dest nodes, points), ...), penalty when failed)
        self.tickets = {}
        for t in board.tickets:
            dests = tuple((board.place_nodes[d], p) for d, p in zip(t.dests, t.points))
            self.tickets[t.id] = (board.place_nodes[t.origin], dests, min(t.points))
        self.max_points = {t.id: max(t.points) for t in board.tickets}
        self.stations = rules.stations
        self.any_locos_anywhere = not rules.locomotives_only_on
        self.faceup_loco_limit = rules.faceup_locomotive_limit
        # the count test (payment.could_pay) for every route at once: per (colour, locomotives
        # usable), the routes sorted by length, so that a bisection finds those a hand reaches
        groups = {}
        for r in sorted(board.routes, key=lambda r: (r.length, r.index)):
            if not r.any_cards:
                groups.setdefault((r.color, self.locos_ok[r.index]), []).append(r)
        self.pay_groups = tuple((color, ok, tuple(r.length for r in rs),
                                 tuple((r.index, r.ferry) for r in rs))
                                for (color, ok), rs in groups.items())
        self.any_cards = tuple(r.index for r in board.routes if r.any_cards)

    def payable_claims(self, v, seat, trains, hand):
        """The routes `seat` may claim (`route_blocked` is None) that pass the count test
        (`planner.could_afford`) with `hand`, in board order: what a loop over every route
        asking both finds, in one pass over the few routes a hand reaches."""
        board, n, owner = self.board, v.n, v.owner
        locos = hand[LOCO]
        out = []
        for color, ok, lengths, rows in self.pay_groups:
            usable_locos = locos if ok else 0
            for r, ferry in rows[:bisect_right(lengths, usable_cards(hand, color, ok))]:
                if usable_locos >= ferry and owner[r] < 0 and \
                        route_blocked(board, n, owner, seat, trains, r) is None:
                    out.append(r)
        for r in self.any_cards:      # Nordic substitutions: the count test always passes
            if owner[r] < 0 and route_blocked(board, n, owner, seat, trains, r) is None:
                out.append(r)
        out.sort()
        return out


def board_info(board):
    info = _CACHE.get(id(board))
    if info is None or info.board is not board:
        info = BoardInfo(board)
        _CACHE[id(board)] = info
    return info
