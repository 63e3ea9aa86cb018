"""Actions a player can take. Plain values: easy to compare, hash, log and serialize.

They are slotted (not frozen) dataclasses because the computer players create hundreds of
thousands of them; treat them as immutable.

`cards` fields are 9-tuples of counts indexed by card (cards.py); `seat` is the acting seat.
"""
from dataclasses import dataclass
from typing import TypeAlias


@dataclass(slots=True, unsafe_hash=True)
class KeepTickets:
    seat: int
    tickets: tuple[int, ...]    # Ticket ids (Board.tickets indices) from the player's offer


@dataclass(slots=True, unsafe_hash=True)
class DrawCard:
    seat: int
    card: int = -1      # -1: blind from the deck; else the face-up card taken


@dataclass(slots=True, unsafe_hash=True)
class ClaimRoute:
    seat: int
    route: int          # route index
    cards: tuple[int, ...]      # 9 counts
    ferry: int = 0      # Italy: ferry cards spent on the route's wave spaces (RULES.md §16.3)
    share: int = 0      # Pennsylvania: the company whose share the claimer takes (0: none, §14.2)
    dummy_share: int = 0        # Pennsylvania, 2 players: the company of the dummy's share (§14.3)


@dataclass(slots=True, unsafe_hash=True)
class TunnelPay:
    seat: int
    cards: tuple[int, ...]


@dataclass(slots=True, unsafe_hash=True)
class TunnelDecline:
    seat: int


@dataclass(slots=True, unsafe_hash=True)
class DrawTickets:
    seat: int


@dataclass(slots=True, unsafe_hash=True)
class BuildStation:
    seat: int
    city: int           # node index
    cards: tuple[int, ...]


@dataclass(slots=True, unsafe_hash=True)
class Pass:
    seat: int


@dataclass(slots=True, unsafe_hash=True)
class DrawFerryCard:
    """Italy: the turn's action is one ferry card (RULES.md §16.2; mechanics/ferry_cards.py)."""
    seat: int


Action: TypeAlias = (KeepTickets | DrawCard | ClaimRoute | TunnelPay | TunnelDecline | DrawTickets
                     | BuildStation | Pass | DrawFerryCard)
ACTION_TYPES: dict[str, type[Action]] = {
    "keep_tickets": KeepTickets, "draw_card": DrawCard, "claim_route": ClaimRoute,
    "tunnel_pay": TunnelPay, "tunnel_decline": TunnelDecline, "draw_tickets": DrawTickets,
    "build_station": BuildStation, "pass": Pass, "draw_ferry_card": DrawFerryCard,
}
TYPE_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def type_name(action: Action) -> str:
    return TYPE_NAMES[type(action)]
