"""Legendary Asia's mountain routes (RULES.md §13.2, §13.5.1–2): each X mark costs one more
train from the claimer's supply, removed from the game, and scores `mountain_points` at once.
Mountain trains count for the end trigger like placed trains (they leave the same supply)."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Mechanic

if TYPE_CHECKING:
    from ..board import Route
    from ..final_scores import Score
    from ..game import Game


class Mountains(Mechanic):
    name: ClassVar[str] = "mountains"

    def trains_needed(self, route: Route) -> int:
        return route.mountain

    def claim_points(self, route: Route, game: Game | None = None) -> int:
        return route.mountain * self.rules.mountain_points

    def score(self, game: Game, players: list[Score]) -> None:
        routes = self.board.routes
        for p, pl in enumerate(players):
            pl["mountain_trains"] = sum(routes[r].mountain for r in game.routes_of[p])
