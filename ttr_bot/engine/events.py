"""The events `Game.apply` returns, one constructor per kind.

An event is a plain JSON-shaped dict, so that it can be stored, compared and sent as it is:
`"type"` is one of the kind names below; the other top-level fields are public (anyone at the
table may see them); what only the acting seat may see is under `"private"`, which a host must
strip before telling the others. Card payments are `{"colour": count}` dicts
(`cards.counts_to_dict`). Their types (a TypedDict per kind, the union `Event`, the kinds as
literals) are event_types.py's; a map's own rules build theirs in mechanics/.
"""
from collections.abc import Sequence
from typing import Literal

from .cards import counts_to_dict
from .event_types import (
    BUILD_STATION,
    CLAIM_ROUTE,
    DRAW_CARD,
    DRAW_TICKETS,
    FINAL_ROUND,
    GAME_OVER,
    KEEP_TICKETS,
    PASS,
    RESHUFFLE,
    TUNNEL_DECLINE,
    TUNNEL_PAY,
    TUNNEL_REVEAL,
    TURN,
    BuildStationEvent,
    ClaimRouteEvent,
    DrawCardEvent,
    DrawTicketsEvent,
    Event,
    FinalRoundEvent,
    GameOverEvent,
    KeepTicketsEvent,
    PassEvent,
    ReshuffleEvent,
    TunnelDeclineEvent,
    TunnelPayEvent,
    TunnelRevealEvent,
    TurnEvent,
)

__all__ = [
    "Event", "KEEP_TICKETS", "TURN", "DRAW_CARD", "RESHUFFLE", "TUNNEL_REVEAL", "CLAIM_ROUTE",
    "TUNNEL_PAY", "TUNNEL_DECLINE", "DRAW_TICKETS", "BUILD_STATION", "PASS", "FINAL_ROUND",
    "GAME_OVER", "keep_tickets", "turn", "draw_card_blind", "draw_card_faceup", "reshuffle",
    "tunnel_reveal", "claim_route", "tunnel_pay", "tunnel_decline", "draw_tickets",
    "build_station", "pass_turn", "final_round", "game_over"]


def keep_tickets(seat: int, count: int, setup: bool, tickets: Sequence[int],
                 returned: list[int]) -> KeepTicketsEvent:
    """`seat` kept `count` tickets, at setup or after drawing. Private: the kept ticket ids and
    those returned."""
    return {"type": KEEP_TICKETS, "seat": seat, "count": count, "setup": setup,
            "private": {"tickets": list(tickets), "returned": returned}}


def turn(seat: int) -> TurnEvent:
    """It is `seat`'s turn."""
    return {"type": TURN, "seat": seat}


def draw_card_blind(seat: int, card: int) -> DrawCardEvent:
    """`seat` drew from the deck. Private: the card."""
    return {"type": DRAW_CARD, "seat": seat, "from": "deck", "private": {"card": card}}


def draw_card_faceup(seat: int, card: int) -> DrawCardEvent:
    """`seat` took face-up `card`."""
    return {"type": DRAW_CARD, "seat": seat, "from": "faceup", "card": card}


def reshuffle() -> ReshuffleEvent:
    """The discard pile became the deck."""
    return {"type": RESHUFFLE}


def tunnel_reveal(seat: int, route: int, cards: Sequence[int], revealed: list[int],
                  extra: int) -> TunnelRevealEvent:
    """`seat` laid `cards` on tunnel `route`; the deck's top cards `revealed` ask for `extra`
    more."""
    return {"type": TUNNEL_REVEAL, "seat": seat, "route": route, "cards": counts_to_dict(cards),
            "revealed": revealed, "extra": extra}


def claim_route(seat: int, route: int, cards: Sequence[int], points: int) -> ClaimRouteEvent:
    """`seat` claimed `route` with `cards` (a tunnel: laid and extra together) and scored
    `points`."""
    return {"type": CLAIM_ROUTE, "seat": seat, "route": route, "cards": counts_to_dict(cards),
            "points": points}


def tunnel_pay(seat: int, route: int, cards: Sequence[int]) -> TunnelPayEvent:
    """`seat` paid a tunnel's extra cost with `cards`."""
    return {"type": TUNNEL_PAY, "seat": seat, "route": route, "cards": counts_to_dict(cards)}


def tunnel_decline(seat: int, route: int) -> TunnelDeclineEvent:
    """`seat` declined the extra cost; the laid cards went back to its hand."""
    return {"type": TUNNEL_DECLINE, "seat": seat, "route": route}


def draw_tickets(seat: int, count: int, offer: list[int]) -> DrawTicketsEvent:
    """`seat` drew `count` tickets to choose from. Private: their ids."""
    return {"type": DRAW_TICKETS, "seat": seat, "count": count, "private": {"offer": offer}}


def build_station(seat: int, city: int, cards: Sequence[int]) -> BuildStationEvent:
    """`seat` built a station on node `city` with `cards`."""
    return {"type": BUILD_STATION, "seat": seat, "city": city, "cards": counts_to_dict(cards)}


def pass_turn(seat: int) -> PassEvent:
    """`seat` passed (nothing else was legal)."""
    return {"type": PASS, "seat": seat}


def final_round(seat: int) -> FinalRoundEvent:
    """`seat` is down to the last trains: everyone has one more turn, `seat` last."""
    return {"type": FINAL_ROUND, "seat": seat}


def game_over(reason: Literal["trains", "passes"]) -> GameOverEvent:
    """The game ended: `reason` is "trains" (the last round is over) or "passes" (every
    player passed in a row)."""
    return {"type": GAME_OVER, "reason": reason}
