"""Legendary Asia's Asian Explorer (RULES.md §13.4, §13.5.3): the player(s) whose largest
connected network touches the most distinct cities score `explorer_bonus`; every tied player
does, even at 0 cities."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, ClassVar

from ..network import components
from .base import Mechanic

if TYPE_CHECKING:
    from ..board import Board
    from ..final_scores import Score
    from ..game import Game


def largest_network(board: Board, routes: list[int]) -> int:
    """Distinct cities of the largest connected network of these routes (0 without any)."""
    if not routes:
        return 0
    comp = components(len(board.nodes), board, routes)
    touched = {n for r in routes for n in board.route_ends[r]}
    sizes = Counter(comp[n] for n in touched if not board.nodes[n].country)
    return max(sizes.values(), default=0)


class AsianExplorer(Mechanic):
    name: ClassVar[str] = "asian_explorer"

    def score(self, game: Game, players: list[Score]) -> None:
        for p, pl in enumerate(players):
            pl["network_cities"] = largest_network(self.board, game.network_routes(p))
            pl["bonuses"]["asian_explorer"] = 0
        top = max(pl["network_cities"] for pl in players)
        for pl in players:
            if pl["network_cities"] == top:
                pl["bonuses"]["asian_explorer"] = self.rules.explorer_bonus
