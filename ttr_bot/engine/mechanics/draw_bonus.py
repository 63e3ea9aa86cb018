"""Northern Lights' draw bonus (RULES.md §17.3, §17.5.1): after claiming a route marked +X, the
claimer draws X cards blind from the deck. The paid cards are in the discard pile and the
face-up row is refilled before (the base claim does both), so a reshuffle during these draws
includes the paid cards (§11.1); fewer come when deck and discard run out."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Mechanic

if TYPE_CHECKING:
    from ..actions import ClaimRoute
    from ..board import Route
    from ..events import Event
    from ..game import Game

DRAW_BONUS = "draw_bonus"   # event: {"type", "seat", "route", "count", "private": {"cards"}}


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
        events: list[Event] = [{"type": "reshuffle"}] if game.reshuffles != before else []
        return events + [{"type": DRAW_BONUS, "seat": seat, "route": route.index,
                          "count": len(got), "private": {"cards": got}}]
