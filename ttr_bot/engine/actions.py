"""Actions a player can take. Plain frozen values: easy to compare, log and serialize.

`cards` fields are 9-tuples of counts indexed by card (cards.py); `seat` is the acting seat.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class KeepTickets:
    seat: int
    tickets: tuple      # Ticket ids (Board.tickets indices) from the player's offer


@dataclass(frozen=True)
class DrawCard:
    seat: int
    card: int = -1      # -1: blind from the deck; else the face-up card taken


@dataclass(frozen=True)
class ClaimRoute:
    seat: int
    route: int          # route index
    cards: tuple        # 9 counts


@dataclass(frozen=True)
class TunnelPay:
    seat: int
    cards: tuple


@dataclass(frozen=True)
class TunnelDecline:
    seat: int


@dataclass(frozen=True)
class DrawTickets:
    seat: int


@dataclass(frozen=True)
class BuildStation:
    seat: int
    city: int           # node index
    cards: tuple


@dataclass(frozen=True)
class Pass:
    seat: int


ACTION_TYPES = {
    "keep_tickets": KeepTickets, "draw_card": DrawCard, "claim_route": ClaimRoute,
    "tunnel_pay": TunnelPay, "tunnel_decline": TunnelDecline, "draw_tickets": DrawTickets,
    "build_station": BuildStation, "pass": Pass,
}
TYPE_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def type_name(action):
    return TYPE_NAMES[type(action)]
