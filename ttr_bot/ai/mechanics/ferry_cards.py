"""Italy's ferry cards (RULES.md §16.1–3): a ferry card covers one or two wave spaces, which
otherwise take locomotives. Draw one when the plan's wave routes need more than the seat holds;
pay waves with ferry cards before locomotives."""
from __future__ import annotations

from typing import Any, ClassVar

from ...engine.actions import DrawFerryCard
from ...engine.cards import LOCO
from .base import Sense


class FerryCards(Sense):
    name: ClassVar[str] = "ferry_cards"

    def claim_score(self, v: Any, claim: Any) -> float:
        # a locomotive is worth more than a ferry card (the supply is unlimited)
        return -0.5 * claim.cards[LOCO] - 0.2 * claim.ferry

    def turn_action(self, v: Any, to_claim: list[int]) -> Any:
        routes = self.board.routes
        need = sum((routes[r].waves + 1) // 2 for r in to_claim if routes[r].waves)
        held = v.extra.get(self.name, {}).get("held", [0] * v.n)[v.seat]
        if held < min(need, self.rules.ferry_cards_max) and v.hand[LOCO] < 2 * need:
            return DrawFerryCard(v.seat)
        return None
