"""Legendary Asia's mountain routes (RULES.md §13.2): each X takes one more train from the
supply and scores 2 points at once. Planning counts the trains (a mountain route costs what it
takes) and a claim values the points."""
from __future__ import annotations

from typing import Any, ClassVar

from .base import Sense


class Mountains(Sense):
    name: ClassVar[str] = "mountains"

    def adjust_costs(self, v: Any, info: Any, cost: list[float]) -> None:
        for r, route in enumerate(self.board.routes):
            if route.mountain and 0 < cost[r] < float("inf") and v.owner[r] < 0:
                cost[r] += route.mountain   # the trains it takes beyond its length

    def route_value(self, v: Any, r: int) -> float:
        return 2.0 * self.board.routes[r].mountain
