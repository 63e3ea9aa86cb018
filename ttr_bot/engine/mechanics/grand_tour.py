"""India's Grand Tour bonus (RULES.md §12.3, §12.5): a kept, completed ticket whose two ends are
joined by two paths of the player's routes sharing no route (they may share cities). The bonus
is `grand_tour_points` of the number of such tickets, capped at the table's last entry.

Two edge-disjoint paths exist exactly when a unit-capacity flow of 2 runs between the ends
(Menger): two augmenting paths over the player's routes decide it."""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from .base import Mechanic

if TYPE_CHECKING:
    from ..board import Board
    from ..final_scores import Score
    from ..game import Game


def disjoint_paths(board: Board, routes: Sequence[int], sources: Sequence[int],
                   sinks: Sequence[int], want: int = 2) -> int:
    """How many paths (up to `want`) sharing no route join a node of `sources` to one of
    `sinks` over `routes`."""
    ends = board.route_ends
    adj: dict[int, list[int]] = {}
    for r in routes:
        a, b = ends[r]
        adj.setdefault(a, []).append(r)
        adj.setdefault(b, []).append(r)
    flow: dict[int, int] = dict.fromkeys(routes, 0)   # +1: a -> b, -1: b -> a
    targets = set(sinks)
    found = 0
    while found < want:
        came: dict[int, tuple[int, int] | None] = {s: None for s in sources}
        queue = deque(sources)
        reached = None
        while queue and reached is None:
            u = queue.popleft()
            for r in adj.get(u, ()):
                a, b = ends[r]
                step = 1 if u == a else -1        # pushing a -> b adds 1
                if flow[r] == step:               # already full this way
                    continue
                v = b if u == a else a
                if v in came:
                    continue
                came[v] = (r, u)
                if v in targets:
                    reached = v
                    break
                queue.append(v)
        if reached is None:
            break
        v = reached
        while came[v] is not None:
            r, u = came[v]                       # type: ignore[misc]
            flow[r] += 1 if u == ends[r][0] else -1
            v = u
        found += 1
    return found


class GrandTour(Mechanic):
    name: ClassVar[str] = "grand_tour"

    def points(self, tours: int) -> int:
        table = self.rules.grand_tour_points
        return table[min(tours, max(table))]

    def score(self, game: Game, players: list[Score]) -> None:
        board = self.board
        for p, pl in enumerate(players):
            routes = game.network_routes(p)
            tours = 0
            for tid, result in zip(game.tickets[p], pl["tickets"]):
                if not result["completed"]:
                    continue
                t = board.tickets[tid]
                if disjoint_paths(board, routes, board.place_nodes[t.origin],
                                  board.place_nodes[t.dests[0]]) >= 2:
                    tours += 1
            pl["grand_tours"] = tours
            pl["bonuses"]["grand_tour"] = self.points(tours)
