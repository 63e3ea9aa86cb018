"""Japan's bullet routes (RULES.md §15.2–15.5): while the Bullet Trains last a claim takes no
trains and scores no route points, but moves the seat up the bullet track (ranked at the end,
-20 at 0) and counts in everybody's network. So the plan uses claimed bullet routes for free and
open ones at half their cost, a bullet claim is worth its track spaces, and a seat with nothing
planned races the track with the longest bullet route it can pay (which also brings the end:
the game ends only once the supply is nearly gone)."""
from __future__ import annotations

from typing import Any, ClassVar

from .base import Sense
from .claims import legal_claims

TRACK_VALUE = 1.5   # points a track space is worth


class Bullet(Sense):
    name: ClassVar[str] = "bullet"

    def _supply(self, v: Any) -> int:
        supply: int = v.extra.get(self.name, {}).get("supply", 0)
        return supply

    def adjust_costs(self, v: Any, info: Any, cost: list[float]) -> None:
        state = v.extra.get(self.name, {})
        shared = set(state.get("routes", []))
        live = self._supply(v) > 0
        for r, route in enumerate(self.board.routes):
            if not route.bullet:
                continue
            if r in shared:
                cost[r] = 0.0     # everybody's for tickets
            elif live and 0 < cost[r] < float("inf"):
                cost[r] = max(0.5, cost[r] - 0.5 * route.length)   # cards only, no trains

    def route_value(self, v: Any, r: int) -> float:
        route = self.board.routes[r]
        return TRACK_VALUE * route.length if route.bullet and self._supply(v) > 0 else 0.0

    def turn_action(self, v: Any, to_claim: list[int]) -> Any:
        if self._supply(v) <= 0:
            return None
        routes = self.board.routes
        best = None
        for a in legal_claims(v):
            route = routes[a.route]
            if not route.bullet:
                continue
            key = (route.length, -sum(a.cards[8:]), -a.route)
            if best is None or key > best[0]:
                best = (key, a)
        return best[1] if best is not None else None
