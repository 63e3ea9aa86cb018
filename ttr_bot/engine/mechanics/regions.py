"""Italy's region bonus (RULES.md §16.4, §16.5.2): each of a player's separate networks scores by
the number of regions its cities lie in (`region_points`; fewer than the table's first entry: 0;
more than its last: the last), a region of `region_double` counting once more when the network
holds every city of it. Countries belong to no region."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..network import components
from .base import Mechanic

if TYPE_CHECKING:
    from ..board import Board
    from ..final_scores import Score
    from ..game import Game


def network_regions(board: Board, routes: list[int], double: tuple[int, ...]) -> list[int]:
    """Regions counted per separate network of these routes (RULES.md §16.4)."""
    comp = components(len(board.nodes), board, routes)
    touched = {n for r in routes for n in board.route_ends[r]}
    by_net: dict[int, set[int]] = {}
    for n in touched:
        by_net.setdefault(comp[n], set()).add(n)
    whole = {reg: {n.index for n in board.nodes if n.region == reg} for reg in double}
    out = []
    for nodes in by_net.values():
        regions = {board.nodes[n].region for n in nodes if board.nodes[n].region}
        out.append(len(regions) + sum(1 for reg in double if whole[reg] and whole[reg] <= nodes))
    return out


class Regions(Mechanic):
    name: ClassVar[str] = "regions"

    def points(self, regions: int) -> int:
        table = self.rules.region_points
        if regions < min(table):
            return 0
        return table[min(regions, max(table))]

    def score(self, game: Game, players: list[Score]) -> None:
        for p, pl in enumerate(players):
            counts = network_regions(self.board, game.network_routes(p), self.rules.region_double)
            pl["bonuses"]["regions"] = sum(self.points(k) for k in counts)
