"""Japan's bullet routes (RULES.md §15.2–15.5). While the shared Bullet Train supply lasts,
claiming a bullet route costs cards as a gray route, no trains (allowed with none left) and
scores no route points; it takes one Bullet Train and moves the claimer's marker on the bullet
track by the route's length; the route then counts for every player's tickets and for nothing
else (kept apart from the claimer's routes: not in its longest trail). With the supply empty a
bullet route is an ordinary gray route. The last round starts after the first turn at whose end
some player has `end_trains` or fewer trains and the supply holds `bullet_end` or fewer; the
track is scored by rank (ties share a rank, the next rank skips), a marker at 0 scores
`bullet_zero` whatever its rank."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..event_types import BULLET_TRAIN, BulletTrainEvent
from .base import Mechanic

if TYPE_CHECKING:
    from ..actions import ClaimRoute
    from ..board import Route
    from ..events import Event
    from ..final_scores import Score
    from ..game import Game

# its event: event_types.BulletTrainEvent (`BULLET_TRAIN`)


class Bullet(Mechanic):
    name: ClassVar[str] = "bullet"

    def setup(self, game: Game) -> Any:
        return {"supply": self.rules.bullet_trains, "track": [0] * game.n, "routes": []}

    def _state(self, game: Game) -> dict[str, Any]:
        state: dict[str, Any] = game.extra[self.name]
        return state

    def _by_bullet(self, game: Game, route: Route) -> bool:
        return route.bullet and self._state(game)["supply"] > 0

    def claim_trains(self, game: Game, route: Route) -> int | None:
        return 0 if self._by_bullet(game, route) else None

    def claim_points(self, route: Route, game: Game | None = None) -> int:
        if game is not None and self._by_bullet(game, route):
            return -self.rules.route_points[route.length]
        return 0

    def after_claim(self, game: Game, seat: int, route: Route, action: ClaimRoute) -> list[Event]:
        state = self._state(game)
        if not (route.bullet and state["supply"] > 0):
            return []
        game.routes_of[seat].remove(route.index)     # everyone's, for tickets only (§15.5.1)
        state["routes"].append(route.index)
        state["supply"] -= 1
        state["track"][seat] += route.length        # the cards paid, not 1 per train (§15.5.4)
        event: BulletTrainEvent = {"type": BULLET_TRAIN, "seat": seat, "route": route.index,
                                   "track": state["track"][seat], "supply": state["supply"]}
        return [event]

    def network(self, game: Game, seat: int, routes: list[int]) -> list[int]:
        return routes + list(self._state(game)["routes"])

    def end_trigger(self, game: Game, seat: int) -> bool | None:
        return (self._state(game)["supply"] <= self.rules.bullet_end
                and min(game.trains) <= self.rules.end_trains)

    def bonuses(self, track: list[int]) -> list[int]:
        """The track's points per seat (§15.4)."""
        table = self.rules.bullet_track_bonus[len(track)]
        out = []
        for pos in track:
            rank = sum(1 for other in track if other > pos)     # ties share, the next skips
            out.append(self.rules.bullet_zero if pos == 0 else table[rank])
        return out

    def score(self, game: Game, players: list[Score]) -> None:
        track = self._state(game)["track"]
        for pl, pos, pts in zip(players, track, self.bonuses(track)):
            pl["bullet_track"] = pos
            pl["bonuses"]["bullet_track"] = pts

    def output(self, game: Game) -> dict[str, Any]:
        return {"bullet_trains_left": self._state(game)["supply"]}
