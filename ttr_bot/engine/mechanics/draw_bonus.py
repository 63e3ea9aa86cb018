"""Northern Lights' draw bonus (RULES.md §17.3, §17.5.1): after claiming a route marked +X, the
claimer draws X cards blind from the deck. The paid cards are in the discard pile and the
face-up row is refilled before (the base claim does both), so a reshuffle during these draws
includes the paid cards (§11.1); fewer come when deck and discard run out."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import events as ev
from ..event_types import DRAW_BONUS, DrawBonusEvent
from .base import Mechanic

if TYPE_CHECKING:
    from ..actions import ClaimRoute
    from ..board import Route
    from ..events import Event
    from ..game import Game

# its event: event_types.DrawBonusEvent (`DRAW_BONUS`)


class DrawBonus(Mechanic):
    name: ClassVar[str] = "draw_bonus"

    def after_claim(self, game: Game, seat: int, route: Route, action: ClaimRoute) -> list[Event]:
        if not route.draw_bonus:
            return []
        before = game.reshuffles
        got = game.draw_blind(route.draw_bonus)
        hand = game.hands[seat]
        for c in got:
            hand[c] += 1
        events: list[Event] = [ev.reshuffle()] if game.reshuffles != before else []
        bonus: DrawBonusEvent = {"type": DRAW_BONUS, "seat": seat, "route": route.index,
                                 "count": len(got), "private": {"cards": got}}
        return events + [bonus]
