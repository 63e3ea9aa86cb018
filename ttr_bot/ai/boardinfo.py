"""What the computer players precompute once per board: adjacency, ticket ends as node sets,
route points. Boards are immutable and cached by `ttr_bot.maps.load_board`, so this is too."""
from ..engine.payment import locos_allowed

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


def board_info(board):
    info = _CACHE.get(id(board))
    if info is None or info.board is not board:
        info = BoardInfo(board)
        _CACHE[id(board)] = info
    return info
