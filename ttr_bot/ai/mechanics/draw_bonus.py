"""Northern Lights' draw bonuses (RULES.md §17.3): claiming such a route draws cards, each
about half a turn's draw."""
from __future__ import annotations

from typing import Any, ClassVar

from .base import Sense


class DrawBonus(Sense):
    name: ClassVar[str] = "draw_bonus"

    def route_value(self, v: Any, r: int) -> float:
        return 0.7 * self.board.routes[r].draw_bonus
