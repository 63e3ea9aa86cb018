"""Japan's bullet routes (RULES.md §15.2–15.5): while the Bullet Trains last a claim takes no
trains and scores no route points, but moves the seat up the bullet track (ranked at the end,
-20 at 0) and counts in everybody's network. So the plan uses claimed bullet routes for free and
open ones at half their cost, and a bullet claim is worth what it gains on the track's ranking
as the markers stand now (plus half a point a space, for the lead it keeps). A seat that races
(`early_action`: medium and above) claims the bullet route that gains most before its plan's
claims when that gain is worth a turn, and while behind on the track hoards its commonest colour
for a long one (`adjust_wants`); any seat with nothing planned claims the longest it can
pay (which also brings the end: the game ends only once the supply is nearly gone)."""
from __future__ import annotations

from typing import Any, ClassVar

from ...engine.cards import N_COLORS
from ...engine.mechanics.bullet import Bullet as BulletRule
from .base import Sense
from .claims import legal_claims

RACE_GAIN = 10.0    # track points a claim must gain to come before the plan's claims
HOARD_WANT = 3.0    # how much a racing seat behind on the track wants its commonest colour
SPACE_VALUE = 0.5   # points a track space is worth beyond the ranking it buys now


class Bullet(Sense):
    name: ClassVar[str] = "bullet"

    def __init__(self, board: Any) -> None:
        super().__init__(board)
        self.rule = BulletRule(board)       # the engine's rule: its track scoring (§15.4)

    def _supply(self, v: Any) -> int:
        supply: int = v.extra.get(self.name, {}).get("supply", 0)
        return supply

    def track_gain(self, v: Any, length: int) -> float:
        """Points the seat's place on the bullet track gains if it moves `length` spaces now."""
        track = list(v.extra[self.name]["track"])
        before = self.rule.bonuses(track)[v.seat]
        track[v.seat] += length
        return self.rule.bonuses(track)[v.seat] - before + SPACE_VALUE * length

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
        if not (route.bullet and self._supply(v) > 0):
            return 0.0
        return self.track_gain(v, route.length)

    def _race(self, v: Any, by_gain: bool) -> tuple[float, Any] | None:
        """(its key's first part, claim) of the best bullet claim the seat can pay now: by the
        track points it gains, or by length."""
        if self._supply(v) <= 0:
            return None
        routes = self.board.routes
        best = None
        for a in legal_claims(v):
            route = routes[a.route]
            if not route.bullet:
                continue
            first = self.track_gain(v, route.length) if by_gain else route.length
            key = (first, route.length, -sum(a.cards[8:]), -a.route)
            if best is None or key > best[0]:
                best = (key, a)
        return (best[0][0], best[1]) if best is not None else None

    def adjust_wants(self, v: Any, want: list[float]) -> None:
        """Behind on the track (or at 0) while Bullet Trains last: hoard the commonest colour,
        the one a long gray bullet route can be paid with."""
        if self._supply(v) <= 0:
            return
        track = v.extra[self.name]["track"]
        if track[v.seat] > 0 and track[v.seat] >= max(track):
            return
        hand = v.hand
        top = max(range(N_COLORS), key=lambda c: (hand[c], -c))
        want[top] += HOARD_WANT

    def early_action(self, v: Any, to_claim: list[int]) -> Any:
        best = self._race(v, by_gain=True)
        return best[1] if best is not None and best[0] >= RACE_GAIN else None

    def turn_action(self, v: Any, to_claim: list[int]) -> Any:
        best = self._race(v, by_gain=False)
        return best[1] if best is not None else None
