"""Guarded taps (/ttr me confirm): which of a player's taps on a turn card ask "are you sure?"
before they spend the turn. Kept in the player's preference document (users.notify, key
`confirm`), so no new column; a player who never chose gets the defaults.

The defaults, and why: a ticket draw confirms, because it sits among the most-pressed
buttons, cannot be undone and can cost up to the tickets' worth of points; a claim confirms
when it pays CLAIMS_FROM (4) cards or more: the claims of 1 to 3 cards are most claims, cheap
to get over, and asked about they would make every turn two taps, while 4 cards or more are
half a hand and most of a route's points. Only taps ask: a slash command given every option
is already the player's confirmation, and a claim with several ways to pay already asks how."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CONFIRM = "confirm"     # the key in the user's preference document
CLAIMS_FROM = 4         # the default: a claim paying this many cards or more asks first
MAX_CLAIMS_FROM = 12    # the longest route a map has (a claim never pays more)


@dataclass(frozen=True)
class ConfirmSettings:
    tickets: bool = True            # "Destination tickets" asks first
    claims_from: int = CLAIMS_FROM  # a claim paying this many cards or more asks; 0: never

    def asks_claim(self, cards: int) -> bool:
        return bool(self.claims_from) and cards >= self.claims_from

    @classmethod
    def read(cls, saved: dict[str, Any]) -> ConfirmSettings:
        """From the stored JSON; a value missing or out of range keeps its default."""
        tickets = saved.get("tickets")
        claims = saved.get("claims_from")
        return cls(tickets if isinstance(tickets, bool) else cls.tickets,
                   claims if isinstance(claims, int) and not isinstance(claims, bool)
                   and 0 <= claims <= MAX_CLAIMS_FROM else cls.claims_from)

    def to_json(self) -> dict[str, Any]:
        return {"tickets": self.tickets, "claims_from": self.claims_from}
