"""/ttr hint: what the `expert` computer player would do now in a player's own position, and why.

Only in games whose host allowed hints when opening the lobby (the option GAME_HINTS, off by
default); such a game is never rated (finish.py). The hint is worked out from the asking
player's own view (`engine.view`: their hand and tickets, never anyone else's), in the worker
pool like any computer player's decision, with the seed an `expert` taking that seat would use
in this position: the hint's move is the move `expert` would play there.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ai import hint as expert_hint
from ..engine.view import view
from .core_contract import CoreContract
from .effects import ServiceError
from .hosted import GAME_HINTS

__all__ = ["GAME_HINTS", "HINT_LEVEL", "Hint", "Hints"]

HINT_LEVEL = "expert"


@dataclass(frozen=True)
class Hint:
    game_id: int
    seq: int                  # the position it is for (a move since makes it stale)
    seat: int
    action: object            # an engine action of that seat
    ticket: int | None        # the ticket id the move serves (one of the player's own)
    feared: int | None        # the route of the plan the others are likeliest to take first
    block: bool               # the move takes a route the others need, outside the plan


class Hints:
    """/ttr hint: a collaborator of the service's core (its loading and worker pool)."""

    def __init__(self, core: CoreContract) -> None:
        self.core = core

    async def hint(self, game_id: int, user_id: int) -> Hint:
        """The Hint for the player `user_id` of the active game, for the decision they face now.
        ServiceError when hints are off, they are not playing, or it is not their decision."""
        hosted = await self.core.active(game_id)
        if not hosted.hints_allowed:
            raise ServiceError("service.hints_off")
        seat = hosted.seat_of(user_id)
        if seat is None:
            raise ServiceError("service.not_a_player")
        game = hosted.game
        if game is None or seat not in game.to_move():
            raise ServiceError("service.hint_not_yours")
        action, why = await self.core.workers.run(expert_hint, self.core.agent_seed(hosted, seat),
                                                  view(game, seat), self.core.factory(),
                                                  timeout=self.core.decision_timeout)
        return Hint(hosted.id, hosted.seq, seat, action, why["ticket"], why["feared"],
                    bool(why["block"]))
